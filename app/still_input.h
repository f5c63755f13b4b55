#pragma once
// One picture of the table for the commands that judge a moment rather than a game (`check`,
// `roster`, `dispute`): a photo (--image), or a frame of the webcam (--camera N) or of a video
// (--video FILE). From a camera or video the picture is taken after `settle_s`, so that a webcam's
// automatic exposure and focus have settled and a video's first frames of fade-in are passed.
#include <string>

#include <CLI/CLI.hpp>
#include <opencv2/core.hpp>

#include "calibration/camera_model.h"

namespace vedette::app {

struct StillInputArgs {
  std::string image;      // a photo
  int camera = -1;        // a webcam index
  std::string video;      // a video file
  double settle_s = 1.0;  // camera/video: the picture taken at this time, s (the last frame before it)
};

// Adds --image, --camera, --video (one of them required) and --settle-s to `cmd`.
void AddStillInputOptions(CLI::App* cmd, StillInputArgs* args);

struct StillInput {
  cv::Mat bgr;       // 8-bit BGR
  std::string name;  // for messages and evidence: "photo.jpg", "camera 0 at 1.0 s", "game.mkv, frame 14"
  std::string file;  // the file the picture came from ("" for a camera), for errors
};

// Throws vedette::InputError naming the file or device when there is no picture to be had.
// `camera_size` (px), when given, is asked of a webcam (the calibration's size).
StillInput GrabStill(const StillInputArgs& args, cv::Size camera_size = {});

// A picture too small for its purpose, or larger than any camera's, is the wrong file: said of the
// picture (InputError naming `file`), before a camera file is blamed for not matching it.
void CheckPictureSize(cv::Size size, const std::string& file, cv::Size least = {160, 120},
                      const std::string& purpose = "a photo of the table from the camera");

// The camera file's lens at the picture's size: a calibration at another resolution of the same
// camera is scaled (ScaledTo refuses another aspect ratio), a file without a size is taken to be
// at the picture's size.
calib::CameraIntrinsics LensForPicture(const calib::CameraIntrinsics& calibrated, cv::Size picture);

}  // namespace vedette::app
