#include "vision/marker_geometry.h"

#include <cmath>
#include <stdexcept>

#include "rules/geometry/vec.h"

namespace vedette::vision {

std::array<cv::Point3d, 4> MarkerCornersInTable(const MarkerPlacement& m) {
  const double a = geom::DegToRad(m.heading_deg);
  const cv::Point2d h(std::cos(a), std::sin(a));
  const cv::Point2d r(h.y, -h.x);
  const double k = m.size_mm / 2.0;
  const cv::Point2d c = m.centre_mm;
  const std::array<cv::Point2d, 4> p = {c + k * (h - r), c + k * (h + r), c + k * (r - h), c - k * (h + r)};
  std::array<cv::Point3d, 4> out;
  for (int i = 0; i < 4; ++i) out[i] = {p[i].x, p[i].y, m.height_mm};
  return out;
}

MarkerPlacement PlacementOf(const Unit& unit) {
  if (!unit.pose || !unit.marker) throw std::invalid_argument("PlacementOf: unit " + unit.id + " needs a pose and a marker");
  const Pose& p = *unit.pose;
  const MarkerMount& m = *unit.marker;
  const geom::Vec2 forward = geom::HeadingVector(p.heading_deg);
  const geom::Vec2 right(forward.y(), -forward.x());
  const geom::Vec2 c = geom::Vec2(p.x_mm, p.y_mm) + m.offset_mm.x() * right + m.offset_mm.y() * forward;
  MarkerPlacement out;
  out.id = m.id;
  out.centre_mm = {c.x(), c.y()};
  out.heading_deg = geom::NormalizeDeg(p.heading_deg + m.heading_deg);
  out.size_mm = m.size_mm;
  out.height_mm = m.height_mm;
  return out;
}

MarkerPlacement PlacementOf(const Anchor& anchor) {
  MarkerPlacement out;
  out.id = anchor.marker;
  out.centre_mm = {anchor.x_mm, anchor.y_mm};
  out.heading_deg = anchor.heading_deg;
  out.size_mm = anchor.size_mm;
  out.height_mm = 0.0;
  return out;
}

Pose UnitPoseFromMarker(const MarkerMount& mount, const cv::Point2d& marker_centre_mm, double marker_heading_deg) {
  Pose p;
  p.heading_deg = geom::NormalizeDeg(marker_heading_deg - mount.heading_deg);
  const geom::Vec2 forward = geom::HeadingVector(p.heading_deg);
  const geom::Vec2 right(forward.y(), -forward.x());
  const geom::Vec2 c = geom::Vec2(marker_centre_mm.x, marker_centre_mm.y) - mount.offset_mm.x() * right -
                       mount.offset_mm.y() * forward;
  p.x_mm = c.x();
  p.y_mm = c.y();
  return p;
}

double HeadingOf(const cv::Point2d& v) { return geom::RadToDeg(std::atan2(v.y, v.x)); }

}  // namespace vedette::vision
