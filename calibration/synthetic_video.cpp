// WriteSyntheticBoardVideo (declared in synthetic_views.h): rendered board poses as a camera video.
#include <filesystem>

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/videoio.hpp>

#include "calibration/synthetic_views.h"
#include "rules/input_error.h"

namespace vedette::calib {
namespace {

int FourccFor(const std::string& path) {
  const std::string ext = std::filesystem::path(path).extension().string();
  if (ext == ".avi") return cv::VideoWriter::fourcc('M', 'J', 'P', 'G');
  if (ext == ".mkv") return cv::VideoWriter::fourcc('F', 'F', 'V', '1');
  throw InputError(path, 0, "a synthetic board video must be .avi (Motion JPEG) or .mkv (FFV1)");
}

}  // namespace

bool SyntheticVideoOptions::Check(std::string* error) const {
  auto fail = [&](const std::string& m) {
    if (error) *error = m;
    return false;
  };
  if (std::string e; poses.empty() && !spread.Check(&e)) return fail("spread: " + e);
  if (std::string e; !render.Check(&e)) return fail("render: " + e);
  if (frames_per_pose < 1) return fail("frames_per_pose must be at least 1");
  if (!(fps > 0)) return fail("fps must be positive");
  return true;
}

std::vector<CameraFromTable> PlayerBoardPoses(const BoardSpec& board, const CameraIntrinsics& camera, unsigned seed) {
  std::vector<CameraFromTable> poses;
  for (const double share : {0.36, 0.22}) {
    SpreadPoseOptions spread;
    spread.board_width_share = share;
    spread.seed = seed++;
    for (const CameraFromTable& p : SpreadBoardPoses(spread, board, camera)) poses.push_back(p);
  }
  return poses;
}

int WriteSyntheticBoardVideo(const SyntheticVideoOptions& options, const BoardSpec& board,
                             const CameraIntrinsics& camera, const std::string& path) {
  if (std::string error; !options.Check(&error)) throw InputError("SyntheticVideoOptions", 0, error);
  const int fourcc = FourccFor(path);
  const std::vector<CameraFromTable> poses =
      options.poses.empty() ? SpreadBoardPoses(options.spread, board, camera) : options.poses;
  BoardRenderOptions render = options.render;
  render.image_size = camera.image_size;
  render.noise_sigma = 0;  // added per frame below
  const std::vector<cv::Mat> views = RenderBoardViews(render, MakeBoardPattern(board), camera, poses);
  cv::VideoWriter writer(path, fourcc, options.fps, camera.image_size, true);
  if (!writer.isOpened()) throw InputError(path, 0, "cannot be written as a video");
  writer.set(cv::VIDEOWRITER_PROP_QUALITY, 100);
  cv::RNG rng(options.render.seed);
  int frames = 0;
  for (const cv::Mat& view : views)
    for (int i = 0; i < options.frames_per_pose; ++i, ++frames) {
      cv::Mat noisy;
      view.convertTo(noisy, CV_32F);
      cv::Mat noise(noisy.size(), CV_32F);
      rng.fill(noise, cv::RNG::NORMAL, 0.0, options.render.noise_sigma);
      noisy += noise;
      cv::Mat grey, bgr;
      noisy.convertTo(grey, CV_8U);  // rounds and saturates
      cv::cvtColor(grey, bgr, cv::COLOR_GRAY2BGR);
      writer.write(bgr);
    }
  return frames;
}

}  // namespace vedette::calib
