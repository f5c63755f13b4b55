#include "calibration/registration.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <set>
#include <sstream>

#include <opencv2/calib3d.hpp>

namespace vedette::calib {
namespace {

// One observed marker that is an anchor of the roster. The same anchor ID may be seen twice (a
// reflection, a second print): each sighting is its own candidate and the pose picks the better.
struct Candidate {
  const Anchor* anchor = nullptr;
  std::vector<cv::Point3d> object_mm;  // 4 corners, table frame
  std::vector<cv::Point2d> image_px;   // 4 corners, image
};

std::string IdList(const std::vector<int>& ids) {
  std::string s;
  for (int id : ids) s += (s.empty() ? "" : ", ") + std::to_string(id);
  return s.empty() ? "none" : s;
}

// Pose from the corners of some candidates: IPPE (exact for planar points, no initial guess) then
// Levenberg-Marquardt on the reprojection error.
bool FitPose(const CameraIntrinsics& k, const std::vector<const Candidate*>& use, CameraFromTable* pose) {
  std::vector<cv::Point3d> object;
  std::vector<cv::Point2d> image;
  for (const Candidate* c : use) {
    object.insert(object.end(), c->object_mm.begin(), c->object_mm.end());
    image.insert(image.end(), c->image_px.begin(), c->image_px.end());
  }
  cv::Mat rvec, tvec;
  try {
    if (!cv::solvePnP(object, image, k.camera_matrix, k.distortion, rvec, tvec, false, cv::SOLVEPNP_IPPE)) return false;
    cv::solvePnPRefineLM(object, image, k.camera_matrix, k.distortion, rvec, tvec);
  } catch (const cv::Exception&) {
    return false;  // degenerate corners (e.g. collinear): not a usable hypothesis
  }
  *pose = PoseFromRvecTvec(cv::Vec3d(rvec), cv::Vec3d(tvec));
  return std::isfinite(pose->translation_mm[2]);
}

// Largest corner reprojection error of a candidate under a pose, px (infinite when not projectable).
double WorstCornerError(const CameraIntrinsics& k, const CameraFromTable& pose, const Candidate& c) {
  const std::vector<cv::Point2d> projected = ProjectToImage(k, pose, c.object_mm);
  double worst = 0;
  for (size_t i = 0; i < projected.size(); ++i) {
    const double e = cv::norm(projected[i] - c.image_px[i]);
    if (!std::isfinite(e)) return std::numeric_limits<double>::infinity();
    worst = std::max(worst, e);
  }
  return worst;
}

// The inliers of a pose: per anchor ID the best-fitting sighting, if within the threshold.
struct Consensus {
  std::vector<const Candidate*> inliers;
  double sum_sq_px = 0;  // over the inliers' corners
};

Consensus Score(const CameraIntrinsics& k, const CameraFromTable& pose, const std::vector<Candidate>& candidates,
                double threshold_px) {
  std::map<int, std::pair<double, const Candidate*>> best;
  for (const Candidate& c : candidates) {
    const double e = WorstCornerError(k, pose, c);
    if (e > threshold_px) continue;
    auto it = best.find(c.anchor->marker);
    if (it == best.end() || e < it->second.first) best[c.anchor->marker] = {e, &c};
  }
  Consensus out;
  for (const auto& [id, entry] : best) {
    out.inliers.push_back(entry.second);
    const std::vector<cv::Point2d> projected = ProjectToImage(k, pose, entry.second->object_mm);
    for (size_t i = 0; i < projected.size(); ++i) {
      const cv::Point2d d = projected[i] - entry.second->image_px[i];
      out.sum_sq_px += d.dot(d);
    }
  }
  return out;
}

bool Better(const Consensus& a, const Consensus& b) {
  if (a.inliers.size() != b.inliers.size()) return a.inliers.size() > b.inliers.size();
  return a.sum_sq_px < b.sum_sq_px;
}

}  // namespace

bool RegistrationOptions::Check(std::string* error) const {
  auto fail = [&](const std::string& m) {
    if (error) *error = m;
    return false;
  };
  if (min_anchors < 1) return fail("min_anchors must be at least 1 (is " + std::to_string(min_anchors) + ")");
  if (!(ransac_reprojection_px > 0)) return fail("ransac_reprojection_px must be positive");
  return true;
}

std::array<cv::Point3d, 4> AnchorCornersInTable(const Anchor& anchor) {
  const double a = anchor.heading_deg * CV_PI / 180.0;
  const cv::Point2d h(std::cos(a), std::sin(a));  // towards the top edge
  const cv::Point2d r(h.y, -h.x);                 // the marker's right, seen from above
  const cv::Point2d c(anchor.x_mm, anchor.y_mm);
  const double half = anchor.size_mm / 2;
  const cv::Point2d p0 = c + half * (h - r), p1 = c + half * (h + r), p2 = c + half * (r - h), p3 = c - half * (h + r);
  return {cv::Point3d(p0.x, p0.y, 0), cv::Point3d(p1.x, p1.y, 0), cv::Point3d(p2.x, p2.y, 0),
          cv::Point3d(p3.x, p3.y, 0)};
}

Registration RegisterTable(const RegistrationOptions& options, const CameraIntrinsics& intrinsics,
                           const std::vector<Anchor>& anchors, const std::vector<MarkerObservation>& observations) {
  Registration out;
  if (std::string error; !options.Check(&error)) {
    out.message = "registration options: " + error;
    return out;
  }

  // Step 1: the anchors in view.
  std::map<int, const Anchor*> by_id;
  for (const Anchor& a : anchors) by_id[a.marker] = &a;
  std::vector<Candidate> candidates;
  std::set<int> seen;
  for (const MarkerObservation& o : observations) {
    auto it = by_id.find(o.id);
    if (it == by_id.end()) continue;
    Candidate c;
    c.anchor = it->second;
    const auto corners = AnchorCornersInTable(*it->second);
    c.object_mm.assign(corners.begin(), corners.end());
    for (const cv::Point2f& p : o.corners_px) c.image_px.emplace_back(p.x, p.y);
    candidates.push_back(std::move(c));
    seen.insert(o.id);
  }
  out.anchors_seen.assign(seen.begin(), seen.end());
  std::vector<int> all_ids;
  for (const Anchor& a : anchors) all_ids.push_back(a.marker);
  std::sort(all_ids.begin(), all_ids.end());
  if (static_cast<int>(seen.size()) < options.min_anchors) {
    std::ostringstream m;
    m << "saw " << seen.size() << " of the roster's " << anchors.size() << " anchors (seen: " << IdList(out.anchors_seen)
      << "; roster: " << IdList(all_ids) << "); need at least " << options.min_anchors;
    out.message = m.str();
    return out;
  }

  // Step 2: hypotheses. All sightings together first (the usual case: nothing is wrong); if some
  // disagree, every pair of distinct anchors (wide baselines give a well-conditioned pose, and with
  // a handful of anchors the pairs are few: no random sampling needed), or single anchors when
  // only one is in view.
  std::vector<const Candidate*> all;
  for (const Candidate& c : candidates) all.push_back(&c);
  CameraFromTable best_pose;
  Consensus best;
  std::vector<const Candidate*> best_fitted;  // the sightings best_pose was fitted to
  bool have = false;
  auto consider = [&](const std::vector<const Candidate*>& subset) {
    CameraFromTable pose;
    if (!FitPose(intrinsics, subset, &pose)) return;
    Consensus c = Score(intrinsics, pose, candidates, options.ransac_reprojection_px);
    if (!have || Better(c, best)) {
      best = std::move(c);
      best_pose = pose;
      best_fitted = subset;
      have = true;
    }
  };
  if (seen.size() == candidates.size()) consider(all);
  if (!have || best.inliers.size() < seen.size()) {
    if (seen.size() >= 2) {
      for (size_t i = 0; i < candidates.size(); ++i)
        for (size_t j = i + 1; j < candidates.size(); ++j)
          if (candidates[i].anchor->marker != candidates[j].anchor->marker) consider({&candidates[i], &candidates[j]});
    } else {
      for (const Candidate& c : candidates) consider({&c});
    }
  }

  // Step 3: refit on the consensus until it stops changing (a pose fitted to its own consensus is
  // already that fit: the tracker re-registers often, and the usual case is all anchors agreeing).
  for (int round = 0; have && round < 4 && !best.inliers.empty() &&
                                  !std::is_permutation(best.inliers.begin(), best.inliers.end(), best_fitted.begin(), best_fitted.end());
       ++round) {
    CameraFromTable pose;
    if (!FitPose(intrinsics, best.inliers, &pose)) break;
    Consensus c = Score(intrinsics, pose, candidates, options.ransac_reprojection_px);
    const bool same = c.inliers == best.inliers;
    if (c.inliers.size() < best.inliers.size()) break;
    best = std::move(c);
    best_pose = pose;
    best_fitted = best.inliers;
    if (same) break;
  }

  std::vector<int> used;
  for (const Candidate* c : best.inliers) used.push_back(c->anchor->marker);
  std::sort(used.begin(), used.end());
  std::vector<int> rejected;
  std::set_difference(out.anchors_seen.begin(), out.anchors_seen.end(), used.begin(), used.end(),
                      std::back_inserter(rejected));
  out.anchors_used = used;
  std::ostringstream why;
  for (int id : rejected) {
    double error = std::numeric_limits<double>::infinity();
    for (const Candidate& c : candidates)
      if (c.anchor->marker == id && have) error = std::min(error, WorstCornerError(intrinsics, best_pose, c));
    why << (why.tellp() > 0 ? "; " : "") << "anchor " << id << " ignored: its corners are "
        << cv::format("%.1f", error) << " px from where the other anchors put them (moved, or wrong in the roster?)";
  }
  if (!have || static_cast<int>(used.size()) < options.min_anchors) {
    std::ostringstream m;
    m << "the anchors do not agree on one camera pose: seen " << IdList(out.anchors_seen) << ", consistent "
      << IdList(used) << "; need " << options.min_anchors << " consistent anchors";
    if (why.tellp() > 0) m << " (" << why.str() << ")";
    out.message = m.str();
    return out;
  }

  out.ok = true;
  out.camera_from_table = best_pose;
  size_t corners = 0;
  for (const Candidate* c : best.inliers) corners += c->image_px.size();
  out.rms_px = std::sqrt(best.sum_sq_px / static_cast<double>(corners));
  out.message = why.str();

  // Step 4: the check readout. Each anchor's centre is measured from its own corners (their mean,
  // back-projected onto the table), not from the roster, so a misplaced anchor shows as a distance
  // that disagrees with the roster.
  std::vector<std::pair<const Anchor*, cv::Point2d>> centres;
  for (const Candidate* c : best.inliers) {
    const std::vector<cv::Point2d> on_table = ImageToTablePlane(intrinsics, best_pose, c->image_px, 0.0);
    cv::Point2d mean(0, 0);
    for (const cv::Point2d& p : on_table) mean += p * 0.25;
    centres.emplace_back(c->anchor, mean);
  }
  std::sort(centres.begin(), centres.end(), [](const auto& a, const auto& b) { return a.first->marker < b.first->marker; });
  for (size_t i = 0; i < centres.size(); ++i)
    for (size_t j = i + 1; j < centres.size(); ++j) {
      const Anchor& a = *centres[i].first;
      const Anchor& b = *centres[j].first;
      Registration::PairCheck check;
      check.a = a.marker;
      check.b = b.marker;
      check.known_mm = std::hypot(a.x_mm - b.x_mm, a.y_mm - b.y_mm);
      check.measured_mm = cv::norm(centres[i].second - centres[j].second);
      out.checks.push_back(check);
    }
  return out;
}

double WorstCheckErrorMm(const Registration& r) {
  double worst = 0;
  for (const auto& c : r.checks) worst = std::max(worst, std::abs(c.measured_mm - c.known_mm));
  return worst;
}

std::string CheckReadout(const Registration& r) {
  if (r.checks.empty()) return "";
  std::ostringstream s;
  for (const auto& c : r.checks)
    s << "anchors " << c.a << "-" << c.b << ": known " << cv::format("%.1f", c.known_mm) << " mm, measured "
      << cv::format("%.1f", c.measured_mm) << " mm (" << cv::format("%+.1f", c.measured_mm - c.known_mm) << ")\n";
  s << "largest disagreement " << cv::format("%.1f", WorstCheckErrorMm(r)) << " mm\n";
  return s.str();
}

}  // namespace vedette::calib
