#include "vision/camera_rays.h"

#include <cmath>

#include <opencv2/core/utility.hpp>

namespace vedette::vision {
namespace {

struct Coeffs {
  double k1 = 0, k2 = 0, p1 = 0, p2 = 0, k3 = 0, k4 = 0, k5 = 0, k6 = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0;
};

Coeffs CoeffsOf(const calib::CameraIntrinsics& k) {
  Coeffs c;
  if (k.distortion.empty()) return c;
  cv::Mat d;
  k.distortion.reshape(1, 1).convertTo(d, CV_64F);
  double* v[] = {&c.k1, &c.k2, &c.p1, &c.p2, &c.k3, &c.k4, &c.k5, &c.k6, &c.s1, &c.s2, &c.s3, &c.s4};
  for (int i = 0; i < std::min<int>(d.cols, 12); ++i) *v[i] = d.at<double>(0, i);
  return c;
}

// OpenCV's distortion of normalized coordinates (without tilt terms).
cv::Point2d Distort(const Coeffs& c, double x, double y) {
  const double r2 = x * x + y * y, r4 = r2 * r2, r6 = r4 * r2;
  const double radial = (1 + c.k1 * r2 + c.k2 * r4 + c.k3 * r6) / (1 + c.k4 * r2 + c.k5 * r4 + c.k6 * r6);
  return {x * radial + 2 * c.p1 * x * y + c.p2 * (r2 + 2 * x * x) + c.s1 * r2 + c.s2 * r4,
          y * radial + c.p1 * (r2 + 2 * y * y) + 2 * c.p2 * x * y + c.s3 * r2 + c.s4 * r4};
}

// Solves Distort(x, y) = (xd, yd) by Newton's method from the undistorted guess.
cv::Point2d Undistort(const Coeffs& c, double xd, double yd) {
  double x = xd, y = yd;
  const double h = 1e-7;
  for (int it = 0; it < 30; ++it) {
    const cv::Point2d f = Distort(c, x, y);
    const double ex = f.x - xd, ey = f.y - yd;
    if (ex * ex + ey * ey < 1e-26) break;
    const cv::Point2d fx = (Distort(c, x + h, y) - Distort(c, x - h, y)) / (2 * h);
    const cv::Point2d fy = (Distort(c, x, y + h) - Distort(c, x, y - h)) / (2 * h);
    const double det = fx.x * fy.y - fy.x * fx.y;
    if (std::abs(det) < 1e-12) break;
    double dx = (fy.y * ex - fy.x * ey) / det, dy = (-fx.y * ex + fx.x * ey) / det;
    // Damped step: a wild lens far outside its calibrated field must not throw the solution away.
    const double step = std::sqrt(dx * dx + dy * dy);
    if (step > 0.5) { dx *= 0.5 / step; dy *= 0.5 / step; }
    x -= dx;
    y -= dy;
  }
  return {x, y};
}

}  // namespace

cv::Point2d PixelToNormalized(const calib::CameraIntrinsics& k, const cv::Point2d& p) {
  const cv::Matx33d& K = k.camera_matrix;
  const double yd = (p.y - K(1, 2)) / K(1, 1);
  const double xd = (p.x - K(0, 2) - K(0, 1) * yd) / K(0, 0);
  return Undistort(CoeffsOf(k), xd, yd);
}

cv::Point2d NormalizedToPixel(const calib::CameraIntrinsics& k, const cv::Point2d& n) {
  const cv::Point2d d = Distort(CoeffsOf(k), n.x, n.y);
  const cv::Matx33d& K = k.camera_matrix;
  return {K(0, 0) * d.x + K(0, 1) * d.y + K(0, 2), K(1, 1) * d.y + K(1, 2)};
}

cv::Mat PixelCornerRays(const calib::CameraIntrinsics& k) {
  const Coeffs c = CoeffsOf(k);
  const cv::Matx33d K = k.camera_matrix;
  cv::Mat rays(k.image_size.height + 1, k.image_size.width + 1, CV_32FC2);
  cv::parallel_for_(cv::Range(0, rays.rows), [&](const cv::Range& range) {
    for (int r = range.start; r < range.end; ++r) {
      auto* row = rays.ptr<cv::Vec2f>(r);
      const double yd = (r - 0.5 - K(1, 2)) / K(1, 1);
      for (int col = 0; col < rays.cols; ++col) {
        const double xd = (col - 0.5 - K(0, 2) - K(0, 1) * yd) / K(0, 0);
        const cv::Point2d n = Undistort(c, xd, yd);
        row[col] = cv::Vec2f(static_cast<float>(n.x), static_cast<float>(n.y));
      }
    }
  });
  return rays;
}

}  // namespace vedette::vision
