#include "vision/locate.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "rules/geometry/vec.h"
#include "vision/marker_geometry.h"

namespace vedette::vision {

bool LocateOptions::Check(std::string* error) const {
  if (!registration.Check(error)) return false;
  if (!(corner_sigma_px > 0 && corner_sigma_px < 10)) {
    if (error) *error = "corner_sigma_px must be in (0, 10) px";
    return false;
  }
  return true;
}

MarkerOnPlane MarkerPoseOnPlane(const calib::CameraIntrinsics& k, const calib::CameraFromTable& camera_from_table,
                                const std::array<cv::Point2f, 4>& corners_px, double height_mm, double size_mm) {
  MarkerOnPlane out;
  std::vector<cv::Point2d> px(corners_px.begin(), corners_px.end());
  const std::vector<cv::Point2d> p = calib::ImageToTablePlane(k, camera_from_table, px, height_mm);
  for (const auto& q : p)
    if (!std::isfinite(q.x) || !std::isfinite(q.y)) return out;
  // The marker's corners relative to its centre at heading 0 (top edge towards +x), in OpenCV's
  // order, for a unit side (see marker_geometry.h): (1,1) (1,-1) (-1,-1) (-1,1) / 2.
  static const cv::Point2d model[4] = {{0.5, 0.5}, {0.5, -0.5}, {-0.5, -0.5}, {-0.5, 0.5}};
  const cv::Point2d c = 0.25 * (p[0] + p[1] + p[2] + p[3]);
  // Best rotation and scale (least squares similarity fit of the square to the 4 points).
  double sc = 0, ss = 0;
  for (int i = 0; i < 4; ++i) {
    const cv::Point2d d = p[i] - c;
    sc += model[i].x * d.x + model[i].y * d.y;
    ss += model[i].x * d.y - model[i].y * d.x;
  }
  const double theta = std::atan2(ss, sc);
  const double side = std::hypot(sc, ss) / 2.0;  // sum of |model|^2 = 4 * 0.5 = 2
  double res2 = 0;
  const double ct = std::cos(theta), st = std::sin(theta);
  for (int i = 0; i < 4; ++i) {
    const cv::Point2d m(side * (ct * model[i].x - st * model[i].y), side * (st * model[i].x + ct * model[i].y));
    const cv::Point2d e = p[i] - c - m;
    res2 += e.dot(e);
  }
  out.centre_mm = c;
  out.heading_deg = geom::NormalizeDeg(geom::RadToDeg(theta));
  out.residual_mm = std::sqrt(res2 / 4.0);
  out.side_mm = side;
  double side_px = 0;
  for (int i = 0; i < 4; ++i) side_px += cv::norm(px[(i + 1) % 4] - px[i]);
  side_px /= 4;
  out.mm_per_px = side_px > 0 ? side / side_px : 0;
  out.ok = side > 0.25 * size_mm && side < 4 * size_mm;
  return out;
}

namespace {

// Unit poses from markers; extra_px is a per-corner error added in quadrature (the registration's).
std::vector<BasePoseEstimate> Poses(const calib::CameraIntrinsics& k, const calib::CameraFromTable& pose,
                                    const Scene& roster, const std::vector<calib::MarkerObservation>& markers,
                                    double floor_px, double extra_px) {
  std::map<int, int> count;
  for (const auto& m : markers) ++count[m.id];
  std::map<int, const calib::MarkerObservation*> by_id;
  for (const auto& m : markers)
    if (count[m.id] == 1) by_id[m.id] = &m;
  std::vector<BasePoseEstimate> out;
  for (const Unit& u : roster.units) {
    if (!u.marker) continue;
    auto it = by_id.find(u.marker->id);
    if (it == by_id.end()) continue;
    const MarkerMount& mount = *u.marker;
    const MarkerOnPlane m = MarkerPoseOnPlane(k, pose, it->second->corners_px, mount.height_mm, mount.size_mm);
    if (!m.ok) continue;
    BasePoseEstimate e;
    e.unit = u.id;
    e.marker = mount.id;
    e.pose = UnitPoseFromMarker(mount, m.centre_mm, m.heading_deg);
    // Corner noise: a floor, the registration's share, and what this marker's own shape says
    // (4 corners, 4 fitted parameters -> residual RMS underestimates by sqrt(8/4)).
    const double res_px = m.mm_per_px > 0 ? m.residual_mm / m.mm_per_px * std::sqrt(2.0) : 0;
    const double corner_px = std::sqrt(floor_px * floor_px + extra_px * extra_px + res_px * res_px);
    const double corner_mm = corner_px * m.mm_per_px;
    // Centre: the mean of 4 corners, 2D -> radial sigma sqrt(2) * sigma / 2. Heading: tangential
    // error of 4 corners at radius side / sqrt(2).
    const double centre_mm = corner_mm * std::sqrt(2.0) / 2.0;
    const double heading_rad = corner_mm / (std::sqrt(2.0) * std::max(1e-6, m.side_mm));
    const double lever = std::hypot(mount.offset_mm.x(), mount.offset_mm.y());
    e.sigma_mm = std::hypot(centre_mm, heading_rad * lever);
    e.sigma_deg = geom::RadToDeg(heading_rad);
    out.push_back(e);
  }
  return out;
}

}  // namespace

std::vector<BasePoseEstimate> PosesFromMarkers(const calib::CameraIntrinsics& k, const calib::CameraFromTable& camera_from_table,
                                               const Scene& roster, const std::vector<calib::MarkerObservation>& markers) {
  return Poses(k, camera_from_table, roster, markers, LocateOptions{}.corner_sigma_px, 0.0);
}

Location LocateBases(const LocateOptions& options, const calib::CameraIntrinsics& k, const Scene& roster,
                     const std::vector<calib::MarkerObservation>& markers) {
  Location out;
  std::set<int> anchors, units;
  for (const Anchor& a : roster.anchors) anchors.insert(a.marker);
  for (const Unit& u : roster.units)
    if (u.marker) units.insert(u.marker->id);
  std::map<int, int> count;
  for (const auto& m : markers) ++count[m.id];
  for (const auto& [id, n] : count) {
    if (!anchors.count(id) && !units.count(id)) out.unknown_markers.push_back(id);
    else if (n > 1) out.duplicate_ids.push_back(id);
  }
  // A duplicated anchor would pull the registration between two spots: leave it out.
  std::vector<calib::MarkerObservation> anchor_obs;
  for (const auto& m : markers)
    if (anchors.count(m.id) && count[m.id] == 1) anchor_obs.push_back(m);
  out.registration = calib::RegisterTable(options.registration, k, roster.anchors, anchor_obs);
  if (!out.registration.ok) return out;
  out.units = Poses(k, out.registration.camera_from_table, roster, markers, options.corner_sigma_px,
                    out.registration.rms_px);
  return out;
}

}  // namespace vedette::vision
