#include "calibration/calibration_inputs.h"

#include <algorithm>
#include <filesystem>
#include <set>
#include <tuple>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/videoio.hpp>

#include "rules/input_error.h"
#include "rules/path_checks.h"

namespace vedette::calib {
namespace {

double FrameSharpness(const cv::Mat& frame, int width) {
  if (frame.cols <= width) return Sharpness(frame);
  cv::Mat small;
  cv::resize(frame, small, cv::Size(width, frame.rows * width / frame.cols), 0, 0, cv::INTER_AREA);
  return Sharpness(small);
}

cv::VideoCapture Open(const std::string& path) {
  if (!PathExists(path)) throw InputError(path, 0, "video file not found");
  cv::VideoCapture cap(path);
  if (!cap.isOpened()) throw InputError(path, 0, "cannot be opened as a video");
  return cap;
}

// Image cells a view's corners fall in, with its scale: the keys the greedy selection covers.
std::set<std::tuple<int, int, int>> Keys(const BoardView& v) {
  std::set<std::tuple<int, int, int>> keys;
  std::vector<cv::Point2f> hull;
  cv::convexHull(v.image_px, hull);
  const double share = cv::contourArea(hull) / std::max(1.0, static_cast<double>(v.image_size.area()));
  const int scale = share < 0.1 ? 0 : share < 0.3 ? 1 : 2;
  for (const cv::Point2f& p : v.image_px)
    keys.emplace(std::clamp(static_cast<int>(6 * p.x / v.image_size.width), 0, 5),
                 std::clamp(static_cast<int>(4 * p.y / v.image_size.height), 0, 3), scale);
  return keys;
}

}  // namespace

bool VideoSamplingOptions::Check(std::string* error) const {
  auto fail = [&](const std::string& m) {
    if (error) *error = m;
    return false;
  };
  if (max_views < 1) return fail("max_views must be at least 1");
  if (candidates_per_view < 1) return fail("candidates_per_view must be at least 1");
  if (!(min_relative_sharpness >= 0 && min_relative_sharpness <= 1)) return fail("min_relative_sharpness must be in [0, 1]");
  if (sharpness_width_px < 32) return fail("sharpness_width_px must be at least 32");
  return true;
}

bool IsVideoPath(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  static const std::set<std::string> kVideo = {".mp4", ".mkv", ".avi", ".mov", ".webm", ".m4v", ".mpg", ".mpeg", ".wmv"};
  return kVideo.count(ext) > 0;
}

BoardView ViewFromImage(const BoardDetectionOptions& options, const BoardSpec& spec, const std::string& path) {
  if (!PathExists(path)) throw InputError(path, 0, "image file not found");
  cv::Mat image;
  try {
    image = cv::imread(path, cv::IMREAD_GRAYSCALE);
  } catch (const cv::Exception& e) {
    throw InputError(path, 0, "cannot be read as an image: " + e.msg);
  }
  if (image.empty()) throw InputError(path, 0, "cannot be read as an image (not a PNG/JPEG/... file, or damaged)");
  return DetectBoard(options, spec, image, path);
}

std::vector<BoardView> ViewsFromVideo(const BoardDetectionOptions& options, const VideoSamplingOptions& sampling,
                                      const BoardSpec& spec, const std::string& path) {
  if (std::string error; !sampling.Check(&error)) throw InputError("VideoSamplingOptions", 0, error);
  // Pass 1: sharpness of every frame (frame counts in containers are unreliable, so count by reading).
  std::vector<double> sharpness;
  {
    cv::VideoCapture cap = Open(path);
    cv::Mat frame;
    while (cap.read(frame)) sharpness.push_back(FrameSharpness(frame, sampling.sharpness_width_px));
  }
  if (sharpness.empty()) throw InputError(path, 0, "no frame could be read from this video");
  // Relative to the 90th percentile, not the median: in a video where the board is mostly moving,
  // the median frame is a blurred one.
  std::vector<double> sorted = sharpness;
  const size_t p90 = std::min(sorted.size() - 1, sorted.size() * 9 / 10);
  std::nth_element(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(p90), sorted.end());
  const double floor = sampling.min_relative_sharpness * sorted[p90];

  // The sharpest acceptable frame of each time slice.
  const int slices = std::min<int>(static_cast<int>(sharpness.size()), sampling.max_views * sampling.candidates_per_view);
  std::set<int> wanted;
  for (int s = 0; s < slices; ++s) {
    const int begin = static_cast<int>(static_cast<long long>(s) * sharpness.size() / slices);
    const int end = static_cast<int>(static_cast<long long>(s + 1) * sharpness.size() / slices);
    int best = -1;
    for (int f = begin; f < end; ++f)
      if (sharpness[f] >= floor && (best < 0 || sharpness[f] > sharpness[best])) best = f;
    if (best >= 0) wanted.insert(best);
  }

  // Pass 2: the board in each candidate.
  std::vector<BoardView> candidates;
  {
    cv::VideoCapture cap = Open(path);
    cv::Mat frame;
    for (int f = 0; cap.read(frame) && !wanted.empty(); ++f) {
      if (!wanted.count(f)) continue;
      wanted.erase(f);
      BoardView v = DetectBoard(options, spec, frame, path + "#frame " + std::to_string(f));
      if (v.found()) candidates.push_back(std::move(v));
    }
  }

  // Greedy spread: each pick covers the most (cell, scale) keys not yet covered; ties go to the
  // sharper frame. When nothing new is left, the remaining picks are the sharpest frames left.
  std::vector<std::set<std::tuple<int, int, int>>> keys;
  for (const BoardView& v : candidates) keys.push_back(Keys(v));
  std::set<std::tuple<int, int, int>> covered;
  std::vector<bool> taken(candidates.size(), false);
  std::vector<size_t> picked;
  while (static_cast<int>(picked.size()) < sampling.max_views && picked.size() < candidates.size()) {
    int best = -1;
    size_t best_new = 0;
    for (size_t i = 0; i < candidates.size(); ++i) {
      if (taken[i]) continue;
      size_t fresh = 0;
      for (const auto& k : keys[i]) fresh += covered.count(k) ? 0 : 1;
      if (best < 0 || fresh > best_new ||
          (fresh == best_new && candidates[i].sharpness > candidates[static_cast<size_t>(best)].sharpness)) {
        best = static_cast<int>(i);
        best_new = fresh;
      }
    }
    taken[best] = true;
    picked.push_back(static_cast<size_t>(best));
    covered.insert(keys[best].begin(), keys[best].end());
  }
  std::sort(picked.begin(), picked.end());  // back to time order
  std::vector<BoardView> out;
  for (size_t i : picked) out.push_back(std::move(candidates[i]));
  return out;
}

}  // namespace vedette::calib
