#pragma once
// One detected square marker in an image: what the detector hands to registration and to pose
// estimation.
#include <array>

#include <opencv2/core.hpp>

namespace vedette::calib {

struct MarkerObservation {
  int id = -1;                             // marker ID in its dictionary
  std::array<cv::Point2f, 4> corners_px;   // OpenCV's order: top-left, top-right, bottom-right, bottom-left of the marker's own image
};

}  // namespace vedette::calib
