#include "app/settled_frame.h"

#include <chrono>
#include <cmath>

#include <opencv2/imgcodecs.hpp>

#include "overlay/frame_source.h"
#include "rules/input_error.h"

namespace vedette::app {

void AddFrameOptions(CLI::App* cmd, FrameArgs* args) {
  auto* image = cmd->add_option("--image", args->image, "Photo of the table");
  auto* camera = cmd->add_option("--camera", args->camera, "Webcam index (0 = /dev/video0): frames are read for --settle-s, the last one is used");
  auto* video = cmd->add_option("--video", args->video, "Video file: its first --settle-s (or all of a shorter one) is read, the last frame used");
  image->excludes(camera)->excludes(video);
  camera->excludes(video);
  cmd->add_option("--settle-s", args->settle_s, "Seconds of camera or video read first, for auto-exposure and focus to settle (default 1)");
}

cv::Mat SettledFrame(const FrameArgs& a, std::string* name) {
  const int given = !a.image.empty() + (a.camera >= 0) + !a.video.empty();
  if (given != 1) throw InputError("--image", 0, "give exactly one of --image IMG, --camera N, --video FILE");
  if (!(a.settle_s >= 0 && a.settle_s <= 60)) throw InputError("--settle-s", 0, "expected 0-60 s");
  if (!a.image.empty()) {
    *name = a.image;
    cv::Mat image = cv::imread(a.image, cv::IMREAD_COLOR);
    if (image.empty()) throw InputError(a.image, 0, "cannot read the image (missing file or unknown format)");
    return image;
  }
  std::unique_ptr<overlay::FrameSource> source = a.video.empty() ? overlay::OpenCamera(a.camera) : overlay::OpenVideo(a.video);
  *name = source->name();
  cv::Mat frame, last;
  double t = 0;
  const auto start = std::chrono::steady_clock::now();
  // A file: frame times from its frame rate; a camera: wall-clock time while it adjusts itself.
  const int file_frames = static_cast<int>(std::ceil(a.settle_s * std::max(1.0, source->fps())));
  for (int n = 0;; ++n) {
    if (!source->Next(&frame, &t)) break;
    last = frame.clone();
    if (a.video.empty() ? std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() >= a.settle_s
                        : n + 1 >= std::max(1, file_frames))
      break;
  }
  if (last.empty()) throw InputError(a.video.empty() ? "--camera" : a.video, 0, "no frame could be read from " + *name);
  return last;
}

calib::CameraIntrinsics LensFor(const std::string& calib_path, cv::Size image_size) {
  calib::CameraIntrinsics k = calib::LoadIntrinsics(calib_path);
  if (k.image_size.width > 0 && k.image_size != image_size) k = calib::ScaledTo(k, image_size);
  if (k.image_size.width == 0) k.image_size = image_size;
  return k;
}

}  // namespace vedette::app
