#pragma once
// The annotated recording: a video that stays playable if the program is killed, and a JSONL log
// beside it, one line per frame, numbered from 0 to match the video's frames, flushed as it goes.
//
// Container and codec, measured on this machine (Debian 12, FFmpeg 5.1): MPEG-4 part 2 ("mp4v")
// in Matroska writes 1080p at 75-80 fps and a file cut short still plays up to its last cluster;
// in .mp4 the index (moov) is written only at the end, so a killed recording is lost; x264 holds
// frames back. So: .mkv -> mp4v, .avi -> MJPG; anything else is refused.
//
// The encoder is an ffmpeg child process (pipeline/encoder_process.h): if Vedette is killed, ffmpeg
// sees its input end and finishes the file with every frame it was given; if both die, the video
// on disk reaches to within half a second (one cluster) of the last frame.
//
// Handing a 1080p frame over still costs a copy, so by default it runs on a worker thread behind a
// bounded queue: Write() hands the frame over and returns; when `queue_frames` frames are already
// waiting it blocks until the encoder catches up, so no frame is ever dropped. The worker writes
// items in the order they were given: a frame, then the log lines that follow it, each line
// flushed, so the log never runs ahead of the video. Close() (or the destructor) drains the queue
// and closes both files; a killed program loses at most the queued frames and their lines.
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>
#include <opencv2/core.hpp>

#include "pipeline/encoder_process.h"

namespace vedette::pipeline {

struct RecorderOptions {
  double fps = 30;          // frames per second written into the container
  bool background = true;   // encode and write on a worker thread; false: inside Write()
  int queue_frames = 4;     // frames waiting for the worker before Write() blocks (4 at 30 fps: 0.13 s)
  // Niceness added to the worker (Linux, 0..19): the frame in hand (tracking, rules, drawing) goes
  // first when the cores are busy; the bounded queue keeps the encoder from falling behind for good.
  int worker_nice = 5;
  bool Check(std::string* error) const;
};

// The log path for a video path: OUT.mkv -> OUT.jsonl.
std::string LogPathFor(const std::string& video_path);

class Recorder {
 public:
  // Throws InputError (naming the path) when the container is not .mkv/.avi or the file cannot be
  // opened. log_path "" = no log; video_path "" = a log alone.
  Recorder(const RecorderOptions& options, const std::string& video_path, const std::string& log_path, cv::Size frame_size);
  ~Recorder();  // Close()
  Recorder(const Recorder&) = delete;
  Recorder& operator=(const Recorder&) = delete;

  // Appends a frame (BGR, the size given at opening) and, when there is a log, its line ("frame"
  // must be the video's frame index). The frame is copied; the rvalue form takes the caller's
  // buffer instead (the caller must not draw into it again: get the next one from Buffer()).
  // Returns the time the caller spent, ms (copy + waiting for room; the encoding when not in the
  // background).
  double Write(const cv::Mat& bgr, const nlohmann::json& log_line);
  double Write(cv::Mat&& bgr, nlohmann::json&& log_line = nullptr);
  // Extra log lines (the frame's own line, events) that belong to the last frame.
  void Log(const nlohmann::json& line);
  void Log(nlohmann::json&& line);
  // A frame-sized BGR buffer to draw the next frame into (recycled once the encoder is done with it).
  cv::Mat Buffer();
  // Waits for everything queued to be written and closes the files. Idempotent.
  void Close();

  int frames() const { return frames_; }   // frames given to Write()
  int frames_written() const;              // frames the encoder has taken
  // The first failure while writing ("" = none): "disk full or output removed while writing
  // FILE: kept N frames" when a write did not reach the disk. Final once Close() has returned.
  std::string error() const;
  const std::string& video_path() const { return video_path_; }
  const std::string& log_path() const { return log_path_; }
  std::string codec() const { return codec_; }

 private:
  struct Item {
    cv::Mat frame;        // empty: a log line alone (or a frame of a log-only recording)
    nlohmann::json line;  // null: no line
    bool is_frame = false;
  };
  void Enqueue(Item item);
  void WriteItem(Item& item);  // on the worker, or inline when not in the background
  void Run();
  void Failed(const std::string& path);  // records a failed write of `path` (the first one only)
  bool DiskHasRoom() const;              // the video's disk has a free block
  bool VideoStillThere() const;          // the finished video is where it was opened (ffmpeg creates it at its first frame)

  RecorderOptions options_;
  std::unique_ptr<EncoderProcess> encoder_;  // null: a log-only recording
  std::FILE* log_ = nullptr;
  std::string video_path_, log_path_, codec_;
  cv::Size size_;
  int frames_ = 0;

  mutable std::mutex mutex_;
  std::condition_variable changed_;  // queue grew, shrank, or closing
  std::deque<Item> queue_;
  int queued_frames_ = 0;
  int written_ = 0;
  bool closing_ = false, closed_ = false;
  std::vector<cv::Mat> free_;        // buffers the encoder is done with
  std::thread worker_;
  std::string line_;                 // the worker's serialisation buffer
  mutable std::mutex error_mutex_;   // apart from mutex_: WriteItem may run with mutex_ held
  std::string error_;
  int frames_encoded_ = 0;           // the worker's count, for "kept N frames"
};

}  // namespace vedette::pipeline
