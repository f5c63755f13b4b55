#pragma once
// A synthetic overhead camera shared by the calibration tests: 1920x1080, fx = fy = 1400 px, a mild
// barrel lens, 1000 mm above the middle of a 1200 x 900 mm table, tilted a few degrees.
//
//   table (mm), seen from above       image (px)
//   y=900 +-------------------+       (0,0) +-----------------> u
//         |                   |             |   table +y is image up,
//         |      camera       |             |   table +x is image right
//         |    at (600,450)   |             v v
//   y=0   +-------------------+
//        x=0              x=1200
#include <algorithm>
#include <cmath>

#include "calibration/camera_model.h"

namespace vedette::calib::testing {

inline CameraIntrinsics TestIntrinsics(bool distorted = true) {
  CameraIntrinsics k;
  k.camera_matrix = cv::Matx33d(1400, 0, 959.5, 0, 1400, 539.5, 0, 0, 1);
  k.distortion = cv::Mat::zeros(1, 5, CV_64F);
  if (distorted) {
    const double coefficients[5] = {-0.12, 0.05, 0.001, -0.0005, 0.0};  // k1 k2 p1 p2 k3
    for (int i = 0; i < 5; ++i) k.distortion.at<double>(0, i) = coefficients[i];
  }
  k.image_size = cv::Size(1920, 1080);
  return k;
}

// Camera centre at `centre_mm`, looking straight down, then tilted by `tilt_deg` about the camera's x
// axis and turned by `yaw_deg` about the vertical.
inline CameraFromTable OverheadPose(cv::Point3d centre_mm = {600, 450, 1000}, double tilt_deg = 6,
                                    double yaw_deg = 3) {
  const cv::Matx33d down(1, 0, 0, 0, -1, 0, 0, 0, -1);  // camera x = table x, y = -table y, z = -table z
  const double t = tilt_deg * CV_PI / 180, y = yaw_deg * CV_PI / 180;
  const cv::Matx33d tilt(1, 0, 0, 0, std::cos(t), -std::sin(t), 0, std::sin(t), std::cos(t));
  const cv::Matx33d yaw(std::cos(y), -std::sin(y), 0, std::sin(y), std::cos(y), 0, 0, 0, 1);
  CameraFromTable pose;
  pose.rotation = tilt * down * yaw;
  const cv::Vec3d c(centre_mm.x, centre_mm.y, centre_mm.z);
  pose.translation_mm = -(pose.rotation * c);
  return pose;
}

// Angle of the rotation taking a to b, deg.
inline double RotationAngleDeg(const cv::Matx33d& a, const cv::Matx33d& b) {
  const cv::Matx33d d = a.t() * b;
  const double c = std::clamp((cv::trace(d) - 1) / 2, -1.0, 1.0);
  return std::acos(c) * 180 / CV_PI;
}

}  // namespace vedette::calib::testing
