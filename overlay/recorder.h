#pragma once
// The annotated recording: a video that stays playable if the program is killed, and a JSONL log
// beside it, one line per frame, numbered from 0 to match the video's frames, flushed as it goes.
//
// Container and codec, measured on this machine (Debian 12, OpenCV 4.6 with FFmpeg): MPEG-4 part 2
// ("mp4v") in Matroska writes 1080p at 75-80 fps and a file cut by SIGKILL still plays up to the
// last cluster; in .mp4 the index (moov) is written only at the end, so a killed recording is lost;
// x264 holds frames back (nothing written after 4 s). So: .mkv -> mp4v, .avi -> MJPG; anything
// else is refused.
#include <cstdio>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>
#include <opencv2/core.hpp>
#include <opencv2/videoio.hpp>

namespace vedette::overlay {

struct RecorderOptions {
  double fps = 30;        // frames per second written into the container
  bool Check(std::string* error) const;
};

// The log path for a video path: OUT.mkv -> OUT.jsonl.
std::string LogPathFor(const std::string& video_path);

class Recorder {
 public:
  // Throws InputError (naming the path) when the container is not .mkv/.avi or the file cannot be
  // opened. log_path "" = no log; video_path "" = a log alone.
  Recorder(const RecorderOptions& options, const std::string& video_path, const std::string& log_path, cv::Size frame_size);
  ~Recorder();

  // Appends a frame (BGR, the size given at opening) and, when there is a log, its line (written
  // and flushed; "frame" must be the video's frame index). Returns the time taken, ms.
  double Write(const cv::Mat& bgr, const nlohmann::json& log_line);
  // Extra log lines (events) that belong to the last frame.
  void Log(const nlohmann::json& line);

  int frames() const { return frames_; }
  const std::string& video_path() const { return video_path_; }
  const std::string& log_path() const { return log_path_; }
  std::string codec() const { return codec_; }

 private:
  cv::VideoWriter writer_;
  std::FILE* log_ = nullptr;
  std::string video_path_, log_path_, codec_;
  cv::Size size_;
  int frames_ = 0;
};

}  // namespace vedette::overlay
