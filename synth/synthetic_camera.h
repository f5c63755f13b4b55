#pragma once
// A plausible webcam over a table, for synthetic scenes: intrinsics (pinhole + mild barrel
// distortion) and camera_from_table for a given table, resolution, height and tilt.
//
// The camera sits above the table's centre line, moved back towards player A by height * tan(tilt),
// and looks at the table centre; image x runs along table +x and image up is towards player B.
// With height_mm = 0 the height is chosen so the table (plus margin) just fills the view for the
// given horizontal field of view; with a height given, the focal length is chosen that way instead.
#include <string>

#include "calibration/camera_model.h"

namespace vedette::synth {

struct SyntheticCameraOptions {
  cv::Size image_size{1920, 1080};    // px
  double table_width_mm = 1200.0;     // along table x, mm
  double table_depth_mm = 900.0;      // along table y, mm
  double height_mm = 0.0;             // camera centre above the table, mm (0: from the field of view)
  double tilt_deg = 0.0;              // optical axis from straight down, towards player B, deg
  double horizontal_fov_deg = 70.0;   // used when height_mm = 0, deg (a typical 1080p webcam: 65-78)
  double margin = 0.04;               // free border around the table, fraction of the image size
  double k1 = -0.06, k2 = 0.02, p1 = 0.0, p2 = 0.0, k3 = 0.0;  // OpenCV distortion coefficients
  bool Check(std::string* error) const;
};

struct SyntheticCamera {
  calib::CameraIntrinsics intrinsics;
  calib::CameraFromTable camera_from_table;
  cv::Point3d centre_in_table_mm;     // camera centre, table frame, mm
};

SyntheticCamera MakeSyntheticCamera(const SyntheticCameraOptions& options);

// camera_from_table for a camera whose intrinsics are given (a real calibration file): placed as
// above (over the centre line, tilted towards player B), at the height where the table plus margin
// just fills the image (height_mm = 0) or at the given height.
SyntheticCamera PlaceCamera(const calib::CameraIntrinsics& intrinsics, const SyntheticCameraOptions& placement);

}  // namespace vedette::synth
