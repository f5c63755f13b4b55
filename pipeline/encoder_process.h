#pragma once
// The recording's video encoder as a child process: `ffmpeg` reads raw BGR frames on a pipe and
// writes the container itself. Why a process and not OpenCV's VideoWriter in ours:
// - kill-safe: when Vedette dies (SIGKILL, a crash, the OOM killer) the pipe closes, ffmpeg sees
//   the end of its input, and finishes the file properly with every frame it was given. It runs in
//   its own process group, so a Ctrl-C or a kill aimed at Vedette's group does not stop it early.
// - even if ffmpeg dies too, Matroska is written in clusters of at most 0.5 s, flushed as they
//   close, so what is on disk plays to within half a second of the last frame.
// - failures are reported: a full disk or a vanished folder ends ffmpeg with its own message,
//   where VideoWriter::write returns nothing.
// The encoder is the same libavcodec MPEG-4 part 2 (.mkv) or MJPEG (.avi) VideoWriter used.
#include <sys/types.h>

#include <string>
#include <vector>

#include <opencv2/core.hpp>

namespace vedette::pipeline {

struct EncoderOptions {
  double fps = 30;        // frames per second written into the container
  int mpeg4_quality = 4;  // ffmpeg -q:v for MPEG-4 (2 best .. 31 worst)
  int mjpeg_quality = 3;  // ffmpeg -q:v for MJPEG
  double cluster_s = 0.5; // Matroska: longest stretch of video not yet on disk, s
  std::string program = "ffmpeg";
};

// The ffmpeg arguments that encode WxH BGR frames at fps into `path` (.mkv or .avi).
std::vector<std::string> EncoderArguments(const EncoderOptions& options, const std::string& path, cv::Size size);

class EncoderProcess {
 public:
  // Starts ffmpeg; throws InputError naming `path` when it cannot be started.
  EncoderProcess(const EncoderOptions& options, const std::string& path, cv::Size size);
  ~EncoderProcess();  // Close()
  EncoderProcess(const EncoderProcess&) = delete;
  EncoderProcess& operator=(const EncoderProcess&) = delete;

  // Hands one frame (BGR, the size given) to ffmpeg. False once ffmpeg has stopped taking frames.
  bool Write(const cv::Mat& bgr);
  // Ends the input and waits for ffmpeg to finish the file. False when ffmpeg failed; error() says why.
  bool Close();
  // ffmpeg's own last words ("No space left on device"), or how it ended; "" while all is well.
  const std::string& error() const { return error_; }
  pid_t pid() const { return pid_; }

 private:
  void ReadMessages();  // what ffmpeg printed so far (non-blocking)

  std::string path_;
  cv::Size size_;
  pid_t pid_ = -1;
  int frames_fd_ = -1;    // our end of ffmpeg's stdin
  int messages_fd_ = -1;  // our end of ffmpeg's stderr
  std::string messages_, error_;
  bool closed_ = false;
};

}  // namespace vedette::pipeline
