#pragma once
// One photograph to poses, for disputes settled from a still image (`vedette dispute --image`):
// full detection (vision::DetectMarkers with options for the roster), table registration and base
// poses with their uncertainties (vision::LocateBases). Video goes through the tracker instead
// (pipeline.h); a still has no history to track.
#include <map>
#include <string>

#include <opencv2/core.hpp>

#include "calibration/camera_model.h"
#include "rules/verdict.h"
#include "rules/scene/scene.h"
#include "vision/locate.h"

namespace vedette::overlay {

struct StillLocation {
  vision::Location location;                     // registration, units with sigmas, unknown/duplicate ids
  calib::CameraIntrinsics intrinsics;            // scaled to the image's size
  Scene scene;                                   // roster with the located units' poses
  std::map<std::string, PoseUncertainty> sigmas; // per located unit
  double detect_ms = 0;
};

// `image_name` names the image in errors. Throws InputError when the roster has no dictionary, the
// calibration does not fit the image, or too few anchors are seen (the message says which were).
StillLocation LocateStill(const cv::Mat& image, const std::string& image_name, const calib::CameraIntrinsics& intrinsics,
                          const Scene& roster);

}  // namespace vedette::overlay
