// Step 4 of the tracker: one observation per spot, unknown markers reported, and the camera pose
// from the anchors, averaged while the camera is still; a jump of every anchor is a bump.
#include <algorithm>
#include <cmath>

#include <opencv2/calib3d.hpp>

#include "calibration/registration.h"
#include "vision/track_stages.h"

namespace vedette::vision {

namespace {

// The table in the image: its outline at the table top and at the highest unit marker (parallax),
// 8 points a side so a bowed (distorted) side is inside too.
cv::Rect TableInImage(const calib::CameraIntrinsics& k, const calib::CameraFromTable& camera, const Scene& roster) {
  double top = 0;
  for (const Unit& u : roster.units)
    if (u.marker) top = std::max(top, u.marker->height_mm);
  std::vector<cv::Point3d> outline;
  const double w = roster.table_width_mm, d = roster.table_depth_mm;
  for (double z : {0.0, top})
    for (int i = 0; i < 8; ++i) {
      const double f = i / 8.0;
      outline.insert(outline.end(), {{f * w, 0, z}, {w, f * d, z}, {w - f * w, d, z}, {0, d - f * d, z}});
    }
  const std::vector<cv::Point2d> px = calib::ProjectToImage(k, camera, outline);
  double x0 = 1e9, y0 = 1e9, x1 = -1e9, y1 = -1e9;
  for (const auto& p : px) {
    if (!std::isfinite(p.x) || !std::isfinite(p.y)) return {};
    x0 = std::min(x0, p.x), y0 = std::min(y0, p.y), x1 = std::max(x1, p.x), y1 = std::max(y1, p.y);
  }
  const double lim = 1e6;  // a table far outside the picture (a bad registration) is no bound
  if (x0 < -lim || y0 < -lim || x1 > lim || y1 > lim) return {};
  return cv::Rect(cv::Point(int(std::floor(x0)), int(std::floor(y0))), cv::Point(int(std::ceil(x1)) + 1, int(std::ceil(y1)) + 1));
}

// The mean corner jump of each anchor seen once this frame from its running mean, px.
std::map<int, double> AnchorShifts(TrackerState& s, FrameWork& w, std::vector<int>* anchors_now) {
  std::map<int, double> shift_of;
  for (auto& a : s.anchors) {
    a.seen_now = false;
    auto it = w.by_id.find(a.anchor.marker);
    if (it == w.by_id.end() || it->second.size() != 1) continue;
    const auto& c = it->second[0].corners_px;
    a.seen_now = true;
    a.dirty = false;
    a.window = QuadBounds(c, 4);
    anchors_now->push_back(a.anchor.marker);
    if (!a.samples.empty()) {
      Quad mean{};
      for (const auto& smp : a.samples)
        for (int i = 0; i < 4; ++i) mean[i] += smp.second[i];
      double d = 0;
      for (int i = 0; i < 4; ++i) d += cv::norm(c[i] - mean[i] * (1.0f / float(a.samples.size())));
      shift_of[a.anchor.marker] = d / 4;
    }
  }
  return shift_of;
}

// The averaged anchor corners, and whether the camera pose must be estimated again: they moved by
// more than registration_refresh_px since it was (once the average holds a few samples one more
// changes it by far less, and the pose would not change either), or anchors came or went.
bool AveragedAnchors(const TrackerState& s, const FrameWork& w, std::vector<calib::MarkerObservation>* mean_obs) {
  for (const auto& a : s.anchors) {
    if (a.samples.empty() || (!a.seen_now && w.bump)) continue;
    calib::MarkerObservation mo;
    mo.id = a.anchor.marker;
    for (const auto& smp : a.samples)
      for (int i = 0; i < 4; ++i) mo.corners_px[i] += smp.second[i];
    for (auto& p : mo.corners_px) p *= 1.0f / float(a.samples.size());
    mean_obs->push_back(mo);
  }
  bool refresh = w.bump || !s.has_camera || mean_obs->size() != s.reg_used.size();
  for (size_t j = 0; j < mean_obs->size() && !refresh; ++j) {
    refresh = (*mean_obs)[j].id != s.reg_used[j].id;
    for (int i = 0; i < 4 && !refresh; ++i)
      refresh = cv::norm((*mean_obs)[j].corners_px[i] - s.reg_used[j].corners_px[i]) > s.o.registration_refresh_px;
  }
  return refresh;
}

void Reregister(TrackerState& s, FrameWork& w, const std::vector<calib::MarkerObservation>& mean_obs) {
  const calib::Registration reg = calib::RegisterTable(s.o.registration, s.k, s.roster.anchors, mean_obs);
  if (!reg.ok) return;
  s.reg_used = mean_obs;
  const calib::CameraFromTable before = s.camera;
  const bool had = s.has_camera;
  s.camera = reg.camera_from_table;
  s.has_camera = true;
  s.table_px = TableInImage(s.k, s.camera, s.roster);
  s.reg_rms = reg.rms_px;
  s.last_fresh_reg_t = w.t;
  s.reg_lost_reported = false;
  w.out.registration.fresh = true;
  if (w.bump && had) {
    const cv::Matx33d dr = s.camera.rotation * before.rotation.t();
    cv::Vec3d rv;
    cv::Rodrigues(dr, rv);
    TrackEvent& e = w.AddEvent(TrackEventType::kCameraMoved, "");
    e.shift_px = w.median_shift_px;
    e.rotation_deg = cv::norm(rv) * 180 / CV_PI;
    e.rms_px = reg.rms_px;
    // Every marker moved in the image: search them all again.
    for (auto& u : s.units) u.dirty = true;
  }
}

}  // namespace

void GroupObservations(TrackerState& s, FrameWork& w) {
  for (const auto& o : w.obs) {
    auto& v = w.by_id[o.id];
    if (std::none_of(v.begin(), v.end(), [&](const auto& q) {
          return cv::norm(QuadCentre(q.corners_px) - QuadCentre(o.corners_px)) < 0.5 * QuadSide(o.corners_px);
        }))
      v.push_back(o);
  }
  for (const auto& [id, v] : w.by_id) {
    for (const auto& o : v) {
      s.max_side_px = std::max(s.max_side_px * 0.999, QuadSide(o.corners_px));
      if (s.unit_by_marker.count(id)) s.max_unit_side_px = std::max(s.max_unit_side_px * 0.999, QuadSide(o.corners_px));
    }
    if (s.unit_by_marker.count(id) || s.anchor_by_marker.count(id)) continue;
    auto it = s.unknown_last_seen.find(id);
    if (it == s.unknown_last_seen.end() || w.t - it->second > 2.0) {
      TrackEvent& e = w.AddEvent(TrackEventType::kUnknownMarker, "");
      e.marker = id;
      e.spots.push_back({QuadCentre(v[0].corners_px), false, {}});
    }
    s.unknown_last_seen[id] = w.t;
  }
}

void UpdateRegistration(TrackerState& s, FrameWork& w) {
  std::vector<int> anchors_now;
  const std::map<int, double> shift_of = AnchorShifts(s, w, &anchors_now);
  // A bump moves every anchor: the median jump decides, so one bad anchor observation does not
  // restart the registration (it is left out of the average instead).
  std::vector<double> shifts;
  for (const auto& [id, d] : shift_of) shifts.push_back(d);
  std::sort(shifts.begin(), shifts.end());
  w.median_shift_px = shifts.empty() ? 0.0 : shifts[shifts.size() / 2];
  w.bump = s.has_camera && !shifts.empty() && w.median_shift_px > s.o.bump_px && (shifts.size() >= 2 || s.anchors.size() == 1);
  for (auto& a : s.anchors) {
    if (w.bump) a.samples.clear();
    else if (a.seen_now && shift_of.count(a.anchor.marker) && shift_of.at(a.anchor.marker) > s.o.bump_px) a.seen_now = false;
  }
  for (auto& a : s.anchors) {
    if (!a.seen_now) continue;
    const auto& c = w.by_id[a.anchor.marker][0].corners_px;
    a.last = c;
    a.has_last = true;
    a.samples.emplace_back(w.t, c);
    while (a.samples.size() > 1 && w.t - a.samples.front().first > s.o.registration_window_s) a.samples.pop_front();
  }
  w.out.registration.anchors_seen = int(anchors_now.size()) + (w.full ? 0 : w.held_anchors);
  std::vector<calib::MarkerObservation> mean_obs;
  if (!anchors_now.empty() && AveragedAnchors(s, w, &mean_obs)) Reregister(s, w, mean_obs);
  if (!anchors_now.empty() && s.has_camera) {
    s.last_fresh_reg_t = w.t;
    s.reg_lost_reported = false;
  }
  if (s.has_camera && !w.out.registration.fresh && w.t - s.last_fresh_reg_t > 1.0 && !s.reg_lost_reported) {
    s.reg_lost_reported = true;
    w.AddEvent(TrackEventType::kRegistrationLost, "").anchors_seen = w.out.registration.anchors_seen;
  }
  w.out.registration.ok = s.has_camera;
  w.out.registration.rms_px = s.reg_rms;
  w.out.registration.camera_from_table = s.camera;
}

}  // namespace vedette::vision
