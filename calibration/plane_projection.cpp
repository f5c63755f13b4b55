// Table points to image pixels and back: OpenCV's lens model written out per point, and its exact
// inverse on a plane of the table.
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include <opencv2/calib3d.hpp>

#include "calibration/camera_model.h"

namespace vedette::calib {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// The camera matrix and up to 12 distortion coefficients as plain doubles, read once per call.
// The tilted-sensor model (14 values) is left to OpenCV: `written_out` is false for it.
struct Lens {
  double fx = 0, fy = 0, cx = 0, cy = 0;  // px
  double d[12] = {0};                     // k1 k2 p1 p2 k3 k4 k5 k6 s1 s2 s3 s4
  bool written_out = true;
};

Lens ReadLens(const CameraIntrinsics& k) {
  Lens lens;
  const int n_dist = k.distortion.empty() ? 0 : int(k.distortion.total());
  lens.written_out = n_dist <= 12;
  if (n_dist > 0 && lens.written_out) {
    // Read in place when the values are doubles in one block (a conversion allocates: a third of a
    // marker's pose on the tracker's path).
    const bool in_place = k.distortion.depth() == CV_64F && k.distortion.isContinuous();
    cv::Mat d64;
    if (!in_place) k.distortion.reshape(1, 1).convertTo(d64, CV_64F);
    const double* values = in_place ? k.distortion.ptr<double>() : d64.ptr<double>();
    for (int i = 0; i < n_dist; ++i) lens.d[i] = values[i];
  }
  lens.fx = k.camera_matrix(0, 0), lens.fy = k.camera_matrix(1, 1);
  lens.cx = k.camera_matrix(0, 2), lens.cy = k.camera_matrix(1, 2);
  return lens;
}

// OpenCV's model (cv::projectPoints builds Mats and a Rodrigues vector on every call, which cost
// the tracker a tenth of its frame projecting a few corners at a time): radial k1 k2 k3 over
// k4 k5 k6, tangential p1 p2, thin prism s1..s4; the camera matrix's skew is ignored, as
// projectPoints ignores it. NaN for a point at or behind the camera's image plane, which would
// otherwise land mirrored inside the image.
cv::Point2d ProjectOne(const Lens& lens, const CameraFromTable& pose, const cv::Point3d& p) {
  const cv::Vec3d c = pose.rotation * cv::Vec3d(p.x, p.y, p.z) + pose.translation_mm;
  if (!(c[2] > 0)) return {kNaN, kNaN};
  const double* d = lens.d;
  const double x = c[0] / c[2], y = c[1] / c[2];
  const double r2 = x * x + y * y, r4 = r2 * r2, r6 = r4 * r2;
  const double radial = (1 + d[0] * r2 + d[1] * r4 + d[4] * r6) / (1 + d[5] * r2 + d[6] * r4 + d[7] * r6);
  const double xd = x * radial + 2 * d[2] * x * y + d[3] * (r2 + 2 * x * x) + d[8] * r2 + d[9] * r4;
  const double yd = y * radial + d[2] * (r2 + 2 * y * y) + 2 * d[3] * x * y + d[10] * r2 + d[11] * r4;
  return {lens.fx * xd + lens.cx, lens.fy * yd + lens.cy};
}

// A start for the plane's Newton steps: the lens model inverted by fixed-point iteration on the
// normalised image (the undistorted point is the distorted one less the tangential and prism
// terms, over the radial factor). Eight rounds leave a few hundredths of a pixel at the corners of
// a wide lens; the Newton steps make it exact, so iterating to convergence here (what
// cv::undistortPoints did, 50 rounds to 1e-12) was most of the tracker's pose cost.
cv::Point2d UndistortStart(const Lens& lens, const cv::Point2d& px) {
  const double* d = lens.d;
  const double x0 = (px.x - lens.cx) / lens.fx, y0 = (px.y - lens.cy) / lens.fy;
  double x = x0, y = y0;
  for (int i = 0; i < 8; ++i) {
    const double r2 = x * x + y * y, r4 = r2 * r2, r6 = r4 * r2;
    const double inverse_radial = (1 + d[5] * r2 + d[6] * r4 + d[7] * r6) / (1 + d[0] * r2 + d[1] * r4 + d[4] * r6);
    if (!(inverse_radial > 0)) return {x0, y0};  // beyond the model's fold: start undistorted
    const double dx = 2 * d[2] * x * y + d[3] * (r2 + 2 * x * x) + d[8] * r2 + d[9] * r4;
    const double dy = d[2] * (r2 + 2 * y * y) + 2 * d[3] * x * y + d[10] * r2 + d[11] * r4;
    x = (x0 - dx) * inverse_radial;
    y = (y0 - dy) * inverse_radial;
  }
  return {x, y};
}

// Normalised camera coordinates of each pixel, approximately (see UndistortStart).
std::vector<cv::Point2d> NormalisedStarts(const CameraIntrinsics& k, const Lens& lens, const std::vector<cv::Point2d>& pixels) {
  std::vector<cv::Point2d> normalised;
  if (!lens.written_out) {
    cv::undistortPoints(pixels, normalised, k.camera_matrix, k.distortion, cv::noArray(), cv::noArray(),
                        cv::TermCriteria(cv::TermCriteria::COUNT | cv::TermCriteria::EPS, 50, 1e-12));
    return normalised;
  }
  normalised.reserve(pixels.size());
  for (const cv::Point2d& px : pixels) normalised.push_back(UndistortStart(lens, px));
  return normalised;
}

}  // namespace

std::vector<cv::Point2d> ProjectToImage(const CameraIntrinsics& k, const CameraFromTable& pose,
                                        const std::vector<cv::Point3d>& points_in_table_mm) {
  std::vector<cv::Point2d> out(points_in_table_mm.size());
  if (points_in_table_mm.empty()) return out;
  const Lens lens = ReadLens(k);
  std::vector<cv::Point2d> by_opencv;
  if (!lens.written_out)
    cv::projectPoints(points_in_table_mm, RvecOf(pose), pose.translation_mm, k.camera_matrix, k.distortion, by_opencv);
  for (size_t i = 0; i < out.size(); ++i) {
    out[i] = ProjectOne(lens, pose, points_in_table_mm[i]);
    if (!by_opencv.empty() && std::isfinite(out[i].x)) out[i] = by_opencv[i];
  }
  return out;
}

namespace {

// Newton steps on the plane z = height_mm from a start near the answer, until the point projects
// within 1e-10 px of the pixel (at most 6 steps): the exact inverse of ProjectToImage, which the
// rest of the pipeline relies on. The Jacobian by forward differences of 1 um.
cv::Point2d NewtonOnPlane(const CameraIntrinsics& k, const Lens& lens, const CameraFromTable& pose, const cv::Point2d& pixel,
                          cv::Point2d at, double height_mm) {
  constexpr double kStepMm = 1e-3;
  // The point and its two probes, the tilted-sensor model's through one OpenCV call for all three.
  auto project = [&](const std::array<cv::Point3d, 3>& probes) {
    std::array<cv::Point2d, 3> px;
    if (lens.written_out) {
      for (int i = 0; i < 3; ++i) px[i] = ProjectOne(lens, pose, probes[i]);
    } else {
      const std::vector<cv::Point2d> by_opencv = ProjectToImage(k, pose, {probes.begin(), probes.end()});
      std::copy(by_opencv.begin(), by_opencv.end(), px.begin());
    }
    return px;
  };
  for (int iteration = 0; iteration < 6; ++iteration) {
    const auto [p0, px, py] = project({cv::Point3d(at.x, at.y, height_mm), cv::Point3d(at.x + kStepMm, at.y, height_mm),
                                       cv::Point3d(at.x, at.y + kStepMm, height_mm)});
    const cv::Point2d r = p0 - pixel;
    if (!std::isfinite(r.x) || !std::isfinite(r.y)) break;
    if (std::abs(r.x) < 1e-10 && std::abs(r.y) < 1e-10) break;
    const cv::Matx22d jac((px.x - p0.x) / kStepMm, (py.x - p0.x) / kStepMm, (px.y - p0.y) / kStepMm, (py.y - p0.y) / kStepMm);
    if (std::abs(cv::determinant(jac)) < 1e-18) break;
    const cv::Vec2d delta = jac.inv() * cv::Vec2d(r.x, r.y);
    at.x -= delta[0];
    at.y -= delta[1];
  }
  return at;
}

}  // namespace

std::vector<cv::Point2d> ImageToTablePlane(const CameraIntrinsics& k, const CameraFromTable& pose,
                                           const std::vector<cv::Point2d>& pixels, double height_mm) {
  std::vector<cv::Point2d> out(pixels.size(), cv::Point2d(kNaN, kNaN));
  if (pixels.empty()) return out;
  const Lens lens = ReadLens(k);
  const std::vector<cv::Point2d> normalised = NormalisedStarts(k, lens, pixels);
  // Each ray cut with the plane, then the cut made exact.
  const cv::Matx33d table_from_camera = pose.rotation.t();
  const cv::Point3d centre = CameraCentreInTable(pose);
  for (size_t i = 0; i < pixels.size(); ++i) {
    const cv::Vec3d dir = table_from_camera * cv::Vec3d(normalised[i].x, normalised[i].y, 1.0);
    if (std::abs(dir[2]) < 1e-12 || !std::isfinite(dir[2])) continue;
    const double s = (height_mm - centre.z) / dir[2];
    if (!(s > 0)) continue;  // the plane is behind the camera along this ray
    out[i] = NewtonOnPlane(k, lens, pose, pixels[i], {centre.x + s * dir[0], centre.y + s * dir[1]}, height_mm);
  }
  return out;
}

}  // namespace vedette::calib
