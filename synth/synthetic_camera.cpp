#include "synth/synthetic_camera.h"

#include <cmath>
#include <stdexcept>

#include <opencv2/calib3d.hpp>

#include "rules/geometry/vec.h"

namespace vedette::synth {

bool SyntheticCameraOptions::Check(std::string* error) const {
  auto fail = [&](const std::string& m) { if (error) *error = m; return false; };
  if (image_size.width < 16 || image_size.height < 16) return fail("image_size must be at least 16 x 16 px");
  if (image_size.width > 16384 || image_size.height > 16384) return fail("image_size must be at most 16384 x 16384 px");
  if (!(table_width_mm > 0) || !(table_depth_mm > 0)) return fail("table size must be positive");
  if (height_mm < 0) return fail("height_mm must be >= 0 (0: from the field of view)");
  if (!(tilt_deg >= 0 && tilt_deg < 60)) return fail("tilt_deg must be in [0, 60)");
  if (height_mm == 0 && !(horizontal_fov_deg > 5 && horizontal_fov_deg < 150))
    return fail("horizontal_fov_deg must be in (5, 150)");
  if (!(margin >= 0 && margin < 0.4)) return fail("margin must be in [0, 0.4)");
  return true;
}

namespace {

// Pose looking from `centre` at `target`, image x along table +x.
calib::CameraFromTable LookAt(const cv::Vec3d& centre, const cv::Vec3d& target) {
  const cv::Vec3d z = cv::normalize(target - centre);
  cv::Vec3d x(1, 0, 0);
  x = cv::normalize(x - z * x.dot(z));
  const cv::Vec3d y = z.cross(x);
  calib::CameraFromTable pose;
  pose.rotation = cv::Matx33d(x[0], x[1], x[2], y[0], y[1], y[2], z[0], z[1], z[2]);
  pose.translation_mm = -(pose.rotation * centre);
  return pose;
}

// Largest |x|, |y| of the table corners in normalized (pinhole) coordinates.
cv::Point2d NormalizedExtent(const calib::CameraFromTable& pose, double w, double d) {
  cv::Point2d e(0, 0);
  for (const cv::Vec3d& p : {cv::Vec3d(0, 0, 0), cv::Vec3d(w, 0, 0), cv::Vec3d(w, d, 0), cv::Vec3d(0, d, 0)}) {
    const cv::Vec3d c = pose.rotation * p + pose.translation_mm;
    e.x = std::max(e.x, std::abs(c[0] / c[2]));
    e.y = std::max(e.y, std::abs(c[1] / c[2]));
  }
  return e;
}

}  // namespace

SyntheticCamera MakeSyntheticCamera(const SyntheticCameraOptions& o) {
  std::string error;
  if (!o.Check(&error)) throw std::invalid_argument("SyntheticCameraOptions: " + error);
  const double w = o.table_width_mm, d = o.table_depth_mm;
  const double tilt = geom::DegToRad(o.tilt_deg);
  const cv::Vec3d target(w / 2, d / 2, 0);
  auto pose_at = [&](double h) { return LookAt(cv::Vec3d(w / 2, d / 2 - h * std::tan(tilt), h), target); };
  // Half the usable image, px, from the principal point (the image centre).
  const double half_w = o.image_size.width * (1 - 2 * o.margin) / 2.0;
  const double half_h = o.image_size.height * (1 - 2 * o.margin) / 2.0;
  // Barrel distortion pulls the corners in; the pinhole fit below leaves it as extra margin.
  double f = 0, h = o.height_mm;
  if (h > 0) {
    const cv::Point2d e = NormalizedExtent(pose_at(h), w, d);
    f = std::min(half_w / e.x, half_h / e.y);
  } else {
    f = (o.image_size.width / 2.0) / std::tan(geom::DegToRad(o.horizontal_fov_deg) / 2);
    double lo = 10, hi = 1e6;  // mm: the extent shrinks monotonically with height
    for (int i = 0; i < 200; ++i) {
      const double mid = std::sqrt(lo * hi);
      const cv::Point2d e = NormalizedExtent(pose_at(mid), w, d);
      (f * e.x <= half_w && f * e.y <= half_h ? hi : lo) = mid;
    }
    h = hi;
  }
  SyntheticCamera cam;
  cam.intrinsics.camera_matrix = cv::Matx33d(f, 0, (o.image_size.width - 1) / 2.0, 0, f,
                                             (o.image_size.height - 1) / 2.0, 0, 0, 1);
  cam.intrinsics.distortion = (cv::Mat_<double>(1, 5) << o.k1, o.k2, o.p1, o.p2, o.k3);
  cam.intrinsics.image_size = o.image_size;
  cam.camera_from_table = pose_at(h);
  cam.centre_in_table_mm = {w / 2, d / 2 - h * std::tan(tilt), h};
  return cam;
}

SyntheticCamera PlaceCamera(const calib::CameraIntrinsics& k, const SyntheticCameraOptions& o) {
  SyntheticCameraOptions with_size = o;
  with_size.image_size = k.image_size;
  std::string error;
  if (!with_size.Check(&error)) throw std::invalid_argument("SyntheticCameraOptions: " + error);
  const double w = o.table_width_mm, d = o.table_depth_mm;
  const double tilt = geom::DegToRad(o.tilt_deg);
  const cv::Vec3d target(w / 2, d / 2, 0);
  auto pose_at = [&](double h) { return LookAt(cv::Vec3d(w / 2, d / 2 - h * std::tan(tilt), h), target); };
  // The usable half image seen from the principal point, in normalized coordinates.
  const double fx = k.camera_matrix(0, 0), fy = k.camera_matrix(1, 1);
  const double cx = k.camera_matrix(0, 2), cy = k.camera_matrix(1, 2);
  const double half_x = (std::min(cx, k.image_size.width - 1 - cx) - o.margin * k.image_size.width) / fx;
  const double half_y = (std::min(cy, k.image_size.height - 1 - cy) - o.margin * k.image_size.height) / fy;
  double h = o.height_mm;
  if (h <= 0) {
    double lo = 10, hi = 1e6;
    for (int i = 0; i < 200; ++i) {
      const double mid = std::sqrt(lo * hi);
      const cv::Point2d e = NormalizedExtent(pose_at(mid), w, d);
      (e.x <= half_x && e.y <= half_y ? hi : lo) = mid;
    }
    h = hi;
  }
  SyntheticCamera cam;
  cam.intrinsics = k;
  cam.camera_from_table = pose_at(h);
  cam.centre_in_table_mm = {w / 2, d / 2 - h * std::tan(tilt), h};
  return cam;
}

}  // namespace vedette::synth
