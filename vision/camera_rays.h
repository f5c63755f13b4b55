#pragma once
// Viewing rays of a calibrated camera, pixel by pixel: the inverse of OpenCV's distortion model,
// solved by Newton's method so it stays exact for strong barrel lenses where OpenCV's fixed-point
// iteration (undistortPoints) stops converging near the image corners.
#include <vector>

#include "calibration/camera_model.h"

namespace vedette::vision {

// Distorted pixel -> undistorted normalized image coordinates (x/z, y/z in the camera frame).
cv::Point2d PixelToNormalized(const calib::CameraIntrinsics& k, const cv::Point2d& pixel);
// Undistorted normalized coordinates -> distorted pixel (OpenCV's projection model).
cv::Point2d NormalizedToPixel(const calib::CameraIntrinsics& k, const cv::Point2d& normalized);

// The normalized coordinates of every pixel corner: (height + 1) x (width + 1), CV_32FC2; entry
// (r, c) belongs to image point (c - 0.5, r - 0.5) (OpenCV puts pixel centres at integers).
cv::Mat PixelCornerRays(const calib::CameraIntrinsics& k);

}  // namespace vedette::vision
