#include "app/still_input.h"

#include <opencv2/imgcodecs.hpp>

#include "pipeline/frame_source.h"
#include "rules/input_error.h"

namespace vedette::app {

void AddStillInputOptions(CLI::App* cmd, StillInputArgs* args) {
  auto* image = cmd->add_option("--image", args->image, "Photo of the table from the calibrated camera");
  auto* camera = cmd->add_option("--camera", args->camera, "Webcam index (0 = /dev/video0): its picture after --settle-s");
  auto* video = cmd->add_option("--video", args->video, "A video file: its last frame before --settle-s");
  image->excludes(camera, video);
  camera->excludes(video);
  cmd->add_option("--settle-s", args->settle_s,
                  "Camera or video: take the picture this long after the start, s (default 1: exposure settles)");
}

void CheckPictureSize(cv::Size size, const std::string& file, cv::Size least, const std::string& purpose) {
  if (size.width >= least.width && size.height >= least.height && size.width <= 10000 && size.height <= 10000) return;
  throw InputError(file, 0, "the picture is " + std::to_string(size.width) + "x" + std::to_string(size.height) + " px: " +
                                purpose + " is " + std::to_string(least.width) + "x" + std::to_string(least.height) +
                                " to 10000x10000 px (no webcam makes a larger picture); is this the right file?");
}

StillInput GrabStill(const StillInputArgs& args, cv::Size camera_size) {
  const int given = !args.image.empty() + (args.camera >= 0) + !args.video.empty();
  if (given != 1) throw InputError("--image/--camera/--video", 0, "give one of --image FILE, --camera N or --video FILE");
  if (!(args.settle_s >= 0)) throw InputError("--settle-s", 0, "must be a number of seconds >= 0");
  if (!args.image.empty()) {
    cv::Mat bgr = cv::imread(args.image, cv::IMREAD_COLOR);
    if (bgr.empty()) throw InputError(args.image, 0, "cannot read the image (missing file or not an image)");
    CheckPictureSize(bgr.size(), args.image);
    return {bgr, args.image, args.image};
  }
  const std::unique_ptr<pipeline::FrameSource> source =
      args.video.empty() ? pipeline::OpenCamera(args.camera, 5.0, nullptr, camera_size) : pipeline::OpenVideo(args.video);
  StillInput still;
  still.file = args.video;
  cv::Mat frame;
  double t = 0;
  int number = -1;
  while (source->Next(&frame, &t)) {
    if (number >= 0 && t > args.settle_s + 1e-9) break;
    frame.copyTo(still.bgr);
    ++number;
  }
  if (still.bgr.empty()) throw InputError(args.video.empty() ? "--camera" : args.video, 0, "gave no picture");
  CheckPictureSize(still.bgr.size(), args.video.empty() ? "--camera" : args.video);
  still.name = args.video.empty() ? source->name() + " after " + cv::format("%.1f s", args.settle_s)
                                  : args.video + ", frame " + std::to_string(number);
  return still;
}

calib::CameraIntrinsics LensForPicture(const calib::CameraIntrinsics& calibrated, cv::Size picture) {
  if (calibrated.image_size.width == 0) {
    calib::CameraIntrinsics k = calibrated;
    k.image_size = picture;
    return k;
  }
  return calib::ScaledTo(calibrated, picture);
}

}  // namespace vedette::app
