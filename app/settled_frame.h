#pragma once
// The one picture `check` and `roster` look at: a photo, or the last frame after a camera's
// auto-exposure and focus have had about a second to settle (or the end of a short video).
#include <string>

#include <CLI/CLI.hpp>
#include <opencv2/core.hpp>

#include "calibration/camera_model.h"

namespace vedette::app {

struct FrameArgs {
  std::string image, video;
  int camera = -1;
  double settle_s = 1.0;  // camera: frames read for this long; video: this much of it, s
};

// Adds --image, --camera, --video (mutually exclusive) and --settle-s to a command.
void AddFrameOptions(CLI::App* cmd, FrameArgs* args);

// The picture (8-bit BGR or grey) and its name for messages. Throws InputError when none or more
// than one source is given, or the source gives no frame.
cv::Mat SettledFrame(const FrameArgs& args, std::string* name);

// The camera file's lens at the picture's size (a calibration at another resolution of the same
// camera is scaled; a file without a size is taken to be at the picture's size).
calib::CameraIntrinsics LensFor(const std::string& calib_path, cv::Size image_size);

}  // namespace vedette::app
