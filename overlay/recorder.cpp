#include "overlay/recorder.h"

#include <algorithm>
#include <chrono>
#include <filesystem>

#include "rules/input_error.h"

namespace vedette::overlay {

bool RecorderOptions::Check(std::string* error) const {
  if (!(fps > 0 && fps <= 240)) {
    if (error) *error = "fps must be in (0, 240]";
    return false;
  }
  return true;
}

std::string LogPathFor(const std::string& video_path) {
  std::filesystem::path p(video_path);
  p.replace_extension(".jsonl");
  return p.string();
}

Recorder::Recorder(const RecorderOptions& options, const std::string& video_path, const std::string& log_path,
                   cv::Size frame_size)
    : video_path_(video_path), log_path_(log_path), size_(frame_size) {
  std::string error;
  if (!options.Check(&error)) throw InputError(video_path, 0, "recording: " + error);
  if (video_path.empty()) {  // a log alone
    if (!log_path_.empty()) {
      log_ = std::fopen(log_path_.c_str(), "w");
      if (!log_) throw InputError(log_path_, 0, "cannot open the log for writing");
    }
    return;
  }
  std::string ext = std::filesystem::path(video_path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  int fourcc = 0;
  if (ext == ".mkv") {
    codec_ = "mp4v";
    fourcc = cv::VideoWriter::fourcc('m', 'p', '4', 'v');
  } else if (ext == ".avi") {
    codec_ = "MJPG";
    fourcc = cv::VideoWriter::fourcc('M', 'J', 'P', 'G');
  } else {
    throw InputError(video_path, 0,
                     "recordings are written as .mkv (MPEG-4 in Matroska, playable after a crash) or .avi (MJPG); got '" +
                         ext + "'");
  }
  if (!writer_.open(video_path, cv::CAP_FFMPEG, fourcc, options.fps, frame_size, true))
    throw InputError(video_path, 0, "cannot open the video for writing (" + codec_ + ", " + std::to_string(frame_size.width) +
                                        "x" + std::to_string(frame_size.height) + ")");
  if (!log_path_.empty()) {
    log_ = std::fopen(log_path_.c_str(), "w");
    if (!log_) throw InputError(log_path_, 0, "cannot open the log for writing");
  }
}

Recorder::~Recorder() {
  writer_.release();
  if (log_) std::fclose(log_);
}

double Recorder::Write(const cv::Mat& bgr, const nlohmann::json& log_line) {
  const auto t0 = std::chrono::steady_clock::now();
  CV_Assert(bgr.size() == size_ && bgr.type() == CV_8UC3);
  if (writer_.isOpened()) writer_.write(bgr);
  ++frames_;
  if (log_ && !log_line.is_null()) Log(log_line);
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

void Recorder::Log(const nlohmann::json& line) {
  if (!log_) return;
  const std::string s = line.dump();
  std::fwrite(s.data(), 1, s.size(), log_);
  std::fputc('\n', log_);
  std::fflush(log_);  // a crash loses at most the frame in flight
}

}  // namespace vedette::overlay
