#include "pipeline/frame_source.h"

#include <chrono>
#include <filesystem>
#include <stdexcept>
#include <thread>

#include "rules/input_error.h"
#include "rules/path_checks.h"

namespace vedette::pipeline {

bool CaptureOptions::Check(std::string* error) const {
  auto fail = [&](const std::string& m) { if (error) *error = m; return false; };
  if (!(backoff_s >= 0)) return fail("backoff_s must be >= 0 (s)");
  if (max_bad_frames < 1) return fail("max_bad_frames must be at least 1");
  return true;
}

namespace {

class VideoCaptureDevice : public CaptureDevice {
 public:
  // index >= 0: a camera, asked for `size` when given; else the file `path`: FFmpeg, which reads
  // every container and codec a camera or phone writes, then OpenCV's image-sequence reader
  // (img_%04d.png). Not CAP_ANY: GStreamer would try every file FFmpeg refused, print its own
  // warnings and keep its plugins' memory.
  VideoCaptureDevice(int index, std::string path, cv::Size size = {}) : index_(index), path_(std::move(path)), size_(size) {}
  bool Open() override {
    if (index_ < 0) return cap_.open(path_, cv::CAP_FFMPEG) || cap_.open(path_, cv::CAP_IMAGES);
    if (!cap_.open(index_)) return false;
    if (size_.area() > 0) {
      // A webcam starts at its smallest mode (often 640x480). Most deliver 1080p at full frame
      // rate only as MJPG (raw YUYV at that size is a few frames a second over USB 2), so MJPG is
      // asked for first; a camera that cannot do it keeps its own format.
      cap_.set(cv::CAP_PROP_FOURCC, cv::VideoWriter::fourcc('M', 'J', 'P', 'G'));
      cap_.set(cv::CAP_PROP_FRAME_WIDTH, size_.width);
      cap_.set(cv::CAP_PROP_FRAME_HEIGHT, size_.height);
    }
    return true;
  }
  bool Read(cv::Mat* frame) override { return cap_.isOpened() && cap_.read(*frame) && !frame->empty(); }
  void Release() override { cap_.release(); }
  double Get(int property) const override { return cap_.get(property); }

 private:
  int index_;
  std::string path_;
  cv::Size size_;
  cv::VideoCapture cap_;
};

class CaptureSource : public FrameSource {
 public:
  CaptureSource(std::unique_ptr<CaptureDevice> device, std::string name, const CaptureOptions& options)
      : dev_(std::move(device)), name_(std::move(name)), o_(options) {
    std::string error;
    if (!o_.Check(&error)) throw std::invalid_argument("CaptureOptions: " + error);
    fps_ = dev_->Get(cv::CAP_PROP_FPS);
    if (!(fps_ > 0 && fps_ < 1000)) fps_ = 30;
    count_ = o_.live ? -1 : static_cast<int>(dev_->Get(cv::CAP_PROP_FRAME_COUNT));
    size_ = {static_cast<int>(dev_->Get(cv::CAP_PROP_FRAME_WIDTH)), static_cast<int>(dev_->Get(cv::CAP_PROP_FRAME_HEIGHT))};
  }

  bool Next(cv::Mat* bgr, double* t_s) override {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(std::max(0.0, o_.retry_s));
    int failures = 0;
    while (!(o_.stop && o_.stop->load())) {
      if (dev_->Read(bgr)) {
        const int index = index_++;
        if (size_.area() == 0) size_ = bgr->size();
        if (bgr->type() != CV_8UC3 || bgr->size() != size_) {  // a corrupt or odd frame: skip it, count it
          ++corrupt_frames;
          if (++failures > o_.max_bad_frames) return false;
          continue;
        }
        if (o_.live) {
          const auto now = std::chrono::steady_clock::now();
          if (frames_ == 0) start_ = now;
          *t_s = std::chrono::duration<double>(now - start_).count();
        } else {
          *t_s = index / fps_;  // skipped frames keep their time slot
        }
        ++frames_;
        return true;
      }
      ++failures;
      if (!o_.live) {
        // The end of the file, or a frame the decoder could not read: skipped while frames remain.
        if (count_ > 0 && index_ < count_ - 1 && failures <= o_.max_bad_frames) {
          ++index_;
          ++corrupt_frames;
          continue;
        }
        return false;
      }
      // A camera that stopped: reopen with a growing wait (USB hiccup, cable pulled and put back).
      if (o_.retry_s >= 0 && std::chrono::steady_clock::now() > deadline) return false;
      std::this_thread::sleep_for(std::chrono::duration<double>(std::min(5.0, o_.backoff_s * failures)));
      dev_->Release();
      if (dev_->Open()) ++reopened;
    }
    return false;
  }
  double fps() const override { return fps_; }
  cv::Size size() const override { return size_; }
  int frame_count() const override { return count_; }
  std::string name() const override { return name_; }

 private:
  std::unique_ptr<CaptureDevice> dev_;
  std::string name_;
  CaptureOptions o_;
  double fps_ = 30;
  int count_ = -1;
  cv::Size size_;
  int frames_ = 0;  // frames delivered
  int index_ = 0;   // frames read from a file, skipped ones included
  std::chrono::steady_clock::time_point start_;
};

}  // namespace

std::unique_ptr<FrameSource> MakeCaptureSource(std::unique_ptr<CaptureDevice> device, std::string name,
                                               const CaptureOptions& options) {
  return std::make_unique<CaptureSource>(std::move(device), std::move(name), options);
}

std::unique_ptr<FrameSource> OpenCamera(int index, double retry_s, const std::atomic<bool>* stop, cv::Size size) {
  const std::string name = "camera " + std::to_string(index);
  if (!std::filesystem::exists("/dev/video" + std::to_string(index)))
    throw InputError("--camera", 0, name + " does not exist (no /dev/video" + std::to_string(index) +
                                        "); plug in a webcam or use --video FILE");
  auto dev = std::make_unique<VideoCaptureDevice>(index, "", size);
  if (!dev->Open()) throw InputError("--camera", 0, name + " could not be opened (busy, or no permission?)");
  cv::Mat probe;
  if (!dev->Read(&probe)) throw InputError("--camera", 0, name + " opened but gives no frames");
  CaptureOptions o;
  o.live = true;
  o.retry_s = retry_s;
  o.stop = stop;
  return MakeCaptureSource(std::move(dev), name, o);
}

std::unique_ptr<FrameSource> OpenVideo(const std::string& path) {
  if (!PathExists(path)) throw InputError(path, 0, "no such video file");
  // A clip script is a synthetic camera: its frames are rendered as they are asked for.
  const std::string name = std::filesystem::path(path).filename().string();
  if (name.size() > 10 && name.substr(name.size() - 10) == ".clip.yaml")
    return std::make_unique<ClipSource>(std::make_shared<synth::ClipRenderer>(synth::LoadClipScript(path)));
  auto dev = std::make_unique<VideoCaptureDevice>(-1, path);
  if (!dev->Open()) throw InputError(path, 0, "cannot open the video (unknown container or codec?)");
  if (dev->Get(cv::CAP_PROP_FRAME_WIDTH) <= 0) throw InputError(path, 0, "the video has no frames");
  return MakeCaptureSource(std::move(dev), std::filesystem::path(path).filename().string(), CaptureOptions{});
}

ClipSource::ClipSource(std::shared_ptr<synth::ClipRenderer> renderer, int max_frames) : renderer_(std::move(renderer)) {
  count_ = renderer_->FrameCount();
  if (max_frames >= 0) count_ = std::min(count_, max_frames);
  name_ = renderer_->script().source.empty() ? "clip" : std::filesystem::path(renderer_->script().source).filename().string();
}

bool ClipSource::Next(cv::Mat* bgr, double* t_s) {
  if (next_ >= count_) return false;
  declarations_ = synth::ClipDeclarationsAt(renderer_->script(), next_);
  last_ = renderer_->Render(next_++);
  *bgr = last_.image;
  *t_s = last_.t;
  return true;
}

}  // namespace vedette::pipeline
