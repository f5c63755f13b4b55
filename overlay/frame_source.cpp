#include "overlay/frame_source.h"

#include <chrono>
#include <filesystem>
#include <thread>

#include "rules/input_error.h"

namespace vedette::overlay {

namespace {

class CaptureSource : public FrameSource {
 public:
  CaptureSource(cv::VideoCapture cap, std::string name, bool live, int index, double retry_s)
      : cap_(std::move(cap)), name_(std::move(name)), live_(live), index_(index), retry_s_(retry_s) {
    fps_ = cap_.get(cv::CAP_PROP_FPS);
    if (!(fps_ > 0 && fps_ < 1000)) fps_ = 30;
    count_ = live ? -1 : static_cast<int>(cap_.get(cv::CAP_PROP_FRAME_COUNT));
    size_ = {static_cast<int>(cap_.get(cv::CAP_PROP_FRAME_WIDTH)), static_cast<int>(cap_.get(cv::CAP_PROP_FRAME_HEIGHT))};
  }

  bool Next(cv::Mat* bgr, double* t_s) override {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(retry_s_);
    while (true) {
      if (cap_.isOpened() && cap_.read(*bgr) && !bgr->empty()) {
        if (bgr->type() != CV_8UC3 || bgr->size() != size_) {  // a corrupt or odd frame: skip it, count it
          ++corrupt_frames;
          if (corrupt_frames > 1000) return false;
          continue;
        }
        if (live_) {
          const auto now = std::chrono::steady_clock::now();
          if (frames_ == 0) start_ = now;
          *t_s = std::chrono::duration<double>(now - start_).count();
        } else {
          *t_s = frames_ / fps_;
        }
        ++frames_;
        return true;
      }
      if (!live_) return false;  // end of file
      // A camera that stopped: reopen until the deadline (USB hiccup, cable pulled and put back).
      if (std::chrono::steady_clock::now() > deadline) return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      cap_.release();
      cap_.open(index_);
    }
  }
  double fps() const override { return fps_; }
  cv::Size size() const override { return size_; }
  int frame_count() const override { return count_; }
  std::string name() const override { return name_; }

 private:
  cv::VideoCapture cap_;
  std::string name_;
  bool live_;
  int index_;
  double retry_s_;
  double fps_ = 30;
  int count_ = -1;
  cv::Size size_;
  int frames_ = 0;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace

std::unique_ptr<FrameSource> OpenCamera(int index, double retry_s) {
  const std::string name = "camera " + std::to_string(index);
  if (!std::filesystem::exists("/dev/video" + std::to_string(index)))
    throw InputError("--camera", 0, name + " does not exist (no /dev/video" + std::to_string(index) +
                                        "); plug in a webcam or use --video FILE");
  cv::VideoCapture cap(index);
  if (!cap.isOpened()) throw InputError("--camera", 0, name + " could not be opened (busy, or no permission?)");
  cv::Mat probe;
  if (!cap.read(probe) || probe.empty()) throw InputError("--camera", 0, name + " opened but gives no frames");
  return std::make_unique<CaptureSource>(std::move(cap), name, true, index, retry_s);
}

std::unique_ptr<FrameSource> OpenVideo(const std::string& path) {
  if (!std::filesystem::exists(path)) throw InputError(path, 0, "no such video file");
  cv::VideoCapture cap(path);
  if (!cap.isOpened()) throw InputError(path, 0, "cannot open the video (unknown container or codec?)");
  if (cap.get(cv::CAP_PROP_FRAME_WIDTH) <= 0) throw InputError(path, 0, "the video has no frames");
  return std::make_unique<CaptureSource>(std::move(cap), std::filesystem::path(path).filename().string(), false, -1, 0.0);
}

ClipSource::ClipSource(std::shared_ptr<vision::ClipRenderer> renderer, int max_frames) : renderer_(std::move(renderer)) {
  count_ = renderer_->FrameCount();
  if (max_frames >= 0) count_ = std::min(count_, max_frames);
  name_ = renderer_->script().source.empty() ? "clip" : std::filesystem::path(renderer_->script().source).filename().string();
}

bool ClipSource::Next(cv::Mat* bgr, double* t_s) {
  if (next_ >= count_) return false;
  last_ = renderer_->Render(next_++);
  *bgr = last_.image;
  *t_s = last_.t;
  return true;
}

}  // namespace vedette::overlay
