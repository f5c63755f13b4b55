#include "pipeline/recorder.h"

#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>

#include "rules/input_error.h"

namespace vedette::pipeline {

bool RecorderOptions::Check(std::string* error) const {
  if (!(fps > 0 && fps <= 240)) {
    if (error) *error = "fps must be in (0, 240]";
    return false;
  }
  if (worker_nice < 0 || worker_nice > 19) {
    if (error) *error = "worker_nice must be in [0, 19]";
    return false;
  }
  if (queue_frames < 1 || queue_frames > 64) {
    if (error) *error = "queue_frames must be in [1, 64]";
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
    : options_(options), video_path_(video_path), log_path_(log_path), size_(frame_size) {
  std::string error;
  if (!options.Check(&error)) throw InputError(video_path, 0, "recording: " + error);
  if (!video_path.empty()) {
    std::string ext = std::filesystem::path(video_path).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (ext == ".mkv") codec_ = "mp4v";
    else if (ext == ".avi") codec_ = "MJPG";
    else
      throw InputError(video_path, 0,
                       "recordings are written as .mkv (MPEG-4 in Matroska, playable after a crash) or .avi (MJPG); got '" +
                           ext + "'");
    EncoderOptions encoder;
    encoder.fps = options.fps;
    encoder_ = std::make_unique<EncoderProcess>(encoder, video_path, frame_size);
  }
  if (!log_path_.empty()) {
    log_ = std::fopen(log_path_.c_str(), "w");
    if (!log_) {
      encoder_.reset();
      throw InputError(log_path_, 0, "cannot open the log for writing");
    }
  }
  if (options_.background) worker_ = std::thread([this] { Run(); });
}

Recorder::~Recorder() { Close(); }

void Recorder::Close() {
  {
    std::unique_lock lock(mutex_);
    if (closed_) return;
    closing_ = true;
  }
  changed_.notify_all();
  if (worker_.joinable()) worker_.join();  // the worker empties the queue before it ends
  std::lock_guard lock(mutex_);
  if (encoder_) {
    // The muxer writes its last cluster and index here: a full disk shows now if not before.
    if (!encoder_->Close() || !VideoStillThere() || !DiskHasRoom()) Failed(video_path_);
  }
  if (log_ && std::fclose(log_) != 0) Failed(log_path_);
  log_ = nullptr;
  closed_ = true;
}

bool Recorder::DiskHasRoom() const {
  // ffmpeg stops at a full disk and says so; this notices it a frame sooner, before its pipe fills.
  const std::string folder = std::filesystem::path(video_path_).parent_path().string();
  struct statvfs fs {};
  if (::statvfs(folder.empty() ? "." : folder.c_str(), &fs) != 0) return true;  // cannot tell: assume fine
  return (::geteuid() == 0 ? fs.f_bfree : fs.f_bavail) > 0;
}

bool Recorder::VideoStillThere() const {
  struct stat st {};
  return ::stat(video_path_.c_str(), &st) == 0;
}

void Recorder::Failed(const std::string& path) {
  std::lock_guard lock(error_mutex_);
  if (!error_.empty()) return;
  error_ = "disk full or output removed while writing " + path + ": kept " + std::to_string(frames_encoded_) + " frames";
  if (path == video_path_ && encoder_ && !encoder_->error().empty()) error_ += " (the encoder said: " + encoder_->error() + ")";
}

int Recorder::frames_written() const {
  std::lock_guard lock(mutex_);
  return written_;
}

cv::Mat Recorder::Buffer() {
  {
    std::lock_guard lock(mutex_);
    if (!free_.empty()) {
      cv::Mat m = std::move(free_.back());
      free_.pop_back();
      return m;
    }
  }
  return cv::Mat(size_, CV_8UC3);
}

double Recorder::Write(const cv::Mat& bgr, const nlohmann::json& log_line) {
  const auto t0 = std::chrono::steady_clock::now();
  CV_Assert(bgr.size() == size_ && bgr.type() == CV_8UC3);
  Item item;
  if (encoder_) {
    // The caller keeps drawing into its buffer: the worker gets a copy.
    item.frame = options_.background ? Buffer() : bgr;
    if (options_.background) bgr.copyTo(item.frame);
  }
  if (log_ && !log_line.is_null()) item.line = log_line;
  item.is_frame = true;
  Enqueue(std::move(item));
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

double Recorder::Write(cv::Mat&& bgr, nlohmann::json&& log_line) {
  const auto t0 = std::chrono::steady_clock::now();
  CV_Assert(bgr.size() == size_ && bgr.type() == CV_8UC3);
  Item item;
  if (encoder_) item.frame = std::move(bgr);
  bgr.release();
  if (log_ && !log_line.is_null()) item.line = std::move(log_line);
  item.is_frame = true;
  Enqueue(std::move(item));
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

void Recorder::Log(const nlohmann::json& line) {
  if (!log_ || line.is_null()) return;
  Item item;
  item.line = line;
  Enqueue(std::move(item));
}

void Recorder::Log(nlohmann::json&& line) {
  if (!log_ || line.is_null()) return;
  Item item;
  item.line = std::move(line);
  Enqueue(std::move(item));
}

void Recorder::Enqueue(Item item) {
  std::unique_lock lock(mutex_);
  CV_Assert(!closing_);
  if (item.is_frame) ++frames_;
  if (!options_.background) {
    // Inline: the same order and flushing, on the caller's thread.
    WriteItem(item);
    if (item.is_frame) ++written_;
    return;
  }
  const bool carries_frame = !item.frame.empty();
  if (carries_frame) {
    // Bounded: wait for the encoder rather than drop a frame or grow without limit.
    changed_.wait(lock, [&] { return queued_frames_ < options_.queue_frames; });
    ++queued_frames_;
  }
  queue_.push_back(std::move(item));
  lock.unlock();
  changed_.notify_all();
}

void Recorder::WriteItem(Item& item) {
  try {
    if (!item.frame.empty() && encoder_) {
      if (encoder_->Write(item.frame) && DiskHasRoom()) ++frames_encoded_;
      else Failed(video_path_);
    } else if (item.is_frame && !encoder_) {
      ++frames_encoded_;  // a log-only recording keeps its frames' lines
    }
    if (log_ && !item.line.is_null()) {
      line_ = item.line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
      line_ += '\n';
      // A crash loses at most the lines still queued; a full disk shows as a short write or a
      // failed flush.
      if (std::fwrite(line_.data(), 1, line_.size(), log_) != line_.size() || std::fflush(log_) != 0) Failed(log_path_);
    }
  } catch (const std::exception& e) {
    // On the worker nobody could catch it: kept for error() and the rest is still written.
    std::lock_guard lock(error_mutex_);
    if (error_.empty()) error_ = e.what();
  }
}

std::string Recorder::error() const {
  std::lock_guard lock(error_mutex_);
  return error_;
}

void Recorder::Run() {
  // Linux nices threads one by one (a thread id is a process id to setpriority); failing is harmless.
  if (options_.worker_nice > 0) setpriority(PRIO_PROCESS, static_cast<id_t>(::gettid()), options_.worker_nice);
  std::unique_lock lock(mutex_);
  for (;;) {
    changed_.wait(lock, [&] { return closing_ || !queue_.empty(); });
    if (queue_.empty()) return;  // closing and drained
    Item item = std::move(queue_.front());
    queue_.pop_front();
    lock.unlock();
    WriteItem(item);
    // A buffer nobody else holds goes back to the pool for Buffer().
    const bool recycle = !item.frame.empty() && item.frame.u && item.frame.u->refcount == 1 && item.frame.size() == size_ &&
                         item.frame.isContinuous();
    lock.lock();
    if (item.is_frame) ++written_;
    if (!item.frame.empty()) {
      --queued_frames_;
      if (recycle && static_cast<int>(free_.size()) < options_.queue_frames + 2) free_.push_back(std::move(item.frame));
    }
    lock.unlock();
    changed_.notify_all();
    lock.lock();
  }
}

}  // namespace vedette::pipeline
