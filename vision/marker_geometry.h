#pragma once
// Where a square marker lies in the table frame, and how a unit's pose follows from its marker.
//
// A marker lying face up with top direction h (unit vector, the marker's "up" in its own image)
// has right r = (h.y, -h.x); its corners, in OpenCV's order (top-left, top-right, bottom-right,
// bottom-left of the marker's own image), are
//   corner0 = c + s/2 (h - r),  corner1 = c + s/2 (h + r),
//   corner2 = c + s/2 (r - h),  corner3 = c - s/2 (h + r),
// c the centre and s the side (mm). The marker face lies in the plane z = height_mm.
// A unit carries its marker at `offset_mm` (unit frame: x to the unit's right, y to its front) with
// the marker's top edge turned `heading_deg` counter-clockwise from the unit's front.
#include <array>

#include <opencv2/core.hpp>

#include "rules/scene/scene.h"

namespace vedette::vision {

struct MarkerPlacement {
  int id = -1;                  // marker ID in the scene's dictionary
  cv::Point2d centre_mm;        // marker centre, table frame, mm
  double heading_deg = 90.0;    // direction of the marker's top edge, deg counter-clockwise from +x
  double size_mm = 16.0;        // side of the black square, mm
  double height_mm = 0.0;       // marker face above the table, mm
};

// Table-frame corners (mm, z = height_mm) in OpenCV's order.
std::array<cv::Point3d, 4> MarkerCornersInTable(const MarkerPlacement& m);

// The marker of a placed unit (requires pose and marker) and of an anchor (z = 0).
MarkerPlacement PlacementOf(const Unit& unit);
MarkerPlacement PlacementOf(const Anchor& anchor);

// The unit pose that puts its marker (mounted as `mount` says) at the given centre and heading.
Pose UnitPoseFromMarker(const MarkerMount& mount, const cv::Point2d& marker_centre_mm, double marker_heading_deg);

// Heading of the vector (deg counter-clockwise from +x).
double HeadingOf(const cv::Point2d& v);

}  // namespace vedette::vision
