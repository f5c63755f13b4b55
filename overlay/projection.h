#pragma once
// How table millimetres reach output pixels. Two content planes, one code path:
//   camera view:  table mm --(calibrated camera: calib::ProjectToImage)--> image px --view--> output px
//   top-down view: table mm --view (y flipped: player A at the bottom)--> output px
// The recording uses the camera view with the identity view transform (output px = image px); the
// live window adds pan and zoom. Straight table lines are straight in the output only without lens
// distortion; the command builder asks `Linear()` to decide whether edges must be subdivided.
#include <limits>
#include <optional>
#include <vector>

#include <opencv2/core.hpp>

#include "calibration/camera_model.h"
#include "overlay/view_transform.h"
#include "rules/geometry/vec.h"

namespace vedette::overlay {

struct CameraView {
  calib::CameraIntrinsics intrinsics;       // at the size of the frames being drawn on
  calib::CameraFromTable camera_from_table;
  // Normalised image radius (tan of the angle off the optical axis) beyond which the lens model
  // folds back (its radial term stops growing): a point out there would be drawn at a wrong place
  // inside the image, so it is treated as not visible.
  double fold_radius = std::numeric_limits<double>::infinity();
  bool pinhole = false;  // all distortion coefficients zero
};

// Precomputes the fold radius and the pinhole flag.
CameraView MakeCameraView(const calib::CameraIntrinsics& intrinsics, const calib::CameraFromTable& camera_from_table);

// The normalised radius where r * radial(r) stops increasing for these coefficients (OpenCV order
// k1 k2 p1 p2 k3 k4 k5 k6 ...), searched up to `search_limit`; infinity when it never folds there.
double LensFoldRadius(const cv::Mat& distortion, double search_limit = 4.0);

struct TableProjection {
  std::optional<CameraView> camera;  // absent: top-down (the content plane is the table, mm)
  ViewTransform view;                // content -> output px

  bool Linear() const { return !camera || camera->pinhole; }
};

TableProjection CameraProjection(const CameraView& camera, const ViewTransform& view = {});
TableProjection TopDownProjection(const ViewTransform& view);

// Table points (mm, on the table plane z = 0) to output px. A point the camera cannot show (behind
// it, or beyond the fold radius) comes back as NaN.
void ProjectTablePoints(const TableProjection& projection, const std::vector<geom::Vec2>& table_mm,
                        std::vector<cv::Point2f>* out_px);
cv::Point2d ProjectTablePoint(const TableProjection& projection, const geom::Vec2& table_mm);

// Output px back to the table plane (mm); NaN when the viewing ray misses the table.
geom::Vec2 OutputToTable(const TableProjection& projection, const cv::Point2d& out_px);

inline bool IsDrawable(const cv::Point2f& p) {
  // Beyond a million px a point is off any screen, and cv::polylines' fixed point would overflow.
  return std::abs(p.x) < 1e6f && std::abs(p.y) < 1e6f;  // false for NaN too
}

}  // namespace vedette::overlay
