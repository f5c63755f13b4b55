#pragma once
// A calibrated camera: lens intrinsics (OpenCV's pinhole + distortion model) and the file format
// OpenCV's own calibration sample writes (camera_matrix, distortion_coefficients, image_width,
// image_height, avg_reprojection_error), so files from either tool load in the other.
#include <string>
#include <vector>

#include <opencv2/core.hpp>

namespace vedette::calib {

struct CameraIntrinsics {
  cv::Matx33d camera_matrix = cv::Matx33d::eye();  // fx, fy, cx, cy in px
  cv::Mat distortion;                              // 1x5 (k1 k2 p1 p2 k3) or longer, OpenCV order
  cv::Size image_size;                             // px
  double avg_reprojection_error_px = 0.0;          // from the calibration, px
  std::string source;                              // file it was loaded from ("" when built in code), for messages
};

// Reads an OpenCV FileStorage YAML/XML; throws vedette::InputError naming the file and the missing
// or malformed key. camera_matrix (3x3) and distortion_coefficients (4, 5, 8, 12 or 14 values, row
// or column) are required; image_width/image_height may be absent (the aruco tutorial files omit
// them), leaving image_size 0x0, which ScaledTo refuses; avg_reprojection_error is optional.
CameraIntrinsics LoadIntrinsics(const std::string& path);
// The same from the file's text (YAML with its %YAML header, XML or JSON); `path` names it in errors.
CameraIntrinsics ParseIntrinsics(const std::string& text, const std::string& path);
// The fields of an opened camera file, checked.
CameraIntrinsics IntrinsicsFrom(const cv::FileStorage& fs, const std::string& path);

// The intrinsics scaled to another image size of the same camera (same aspect ratio), e.g. a
// calibration at 1920x1080 used on a 3840x2160 stream. Pixel centres sit at integer coordinates
// (OpenCV's convention), so cx' = s (cx + 0.5) - 0.5, fx' = s fx. Distortion is unchanged (it acts on
// normalised coordinates). Throws vedette::InputError (naming k.source) when k has no image size or
// the aspect ratios differ by more than 1 %: a sensor crop (4:3 -> 16:9) cannot be told from a scale.
CameraIntrinsics ScaledTo(const CameraIntrinsics& k, cv::Size image_size);

// Rigid transform named by its frames: point_in_camera = rotation * point_in_table + translation_mm.
struct CameraFromTable {
  cv::Matx33d rotation = cv::Matx33d::eye();
  cv::Vec3d translation_mm{0, 0, 0};
};

// Conversions to and from OpenCV's Rodrigues vector + translation (what solvePnP returns).
CameraFromTable PoseFromRvecTvec(const cv::Vec3d& rvec, const cv::Vec3d& tvec_mm);
cv::Vec3d RvecOf(const CameraFromTable& pose);
// Where the camera's centre of projection is, in the table frame (mm).
cv::Point3d CameraCentreInTable(const CameraFromTable& pose);

// Projects table points (mm, z up; z = height above the table) to distorted image pixels. A point
// at or behind the camera's image plane gives NaN pixels.
std::vector<cv::Point2d> ProjectToImage(const CameraIntrinsics& k, const CameraFromTable& pose,
                                        const std::vector<cv::Point3d>& points_in_table_mm);

// Intersects the viewing rays of distorted image pixels with the plane z = height_mm of the table
// frame; returns table (x, y) in mm. A ray parallel to the plane, or meeting it behind the camera,
// gives NaN. The exact inverse of ProjectToImage (Newton steps after undistortion, to 1e-10 px).
std::vector<cv::Point2d> ImageToTablePlane(const CameraIntrinsics& k, const CameraFromTable& pose,
                                           const std::vector<cv::Point2d>& pixels, double height_mm);

}  // namespace vedette::calib
