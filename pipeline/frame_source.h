#pragma once
// Where frames come from: a webcam, a video file, or a clip script rendered on the fly (the demo
// and the tests). One interface so `live`, `process` and `demo` share their loop.
#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include <opencv2/core.hpp>
#include <opencv2/videoio.hpp>

#include "synth/clip_render.h"

namespace vedette::pipeline {

class FrameSource {
 public:
  virtual ~FrameSource() = default;
  // The next frame (8-bit BGR) and its time (s, from the first frame). False at the end (or when a
  // camera is gone for good).
  virtual bool Next(cv::Mat* bgr, double* t_s) = 0;
  virtual double fps() const = 0;             // nominal frames per second
  virtual cv::Size size() const = 0;          // px
  virtual int frame_count() const { return -1; }  // -1: live (unknown)
  virtual std::string name() const = 0;       // for messages: "camera 0", "clip.mkv", "demo battle"
  // Declarations that come with the last frame (a clip script's players setting a state); whoever
  // runs the pipeline applies them (Pipeline::SetDeclaration) before processing the frame.
  virtual std::vector<synth::ClipDeclaration> declarations() const { return {}; }
  int corrupt_frames = 0;                     // frames skipped as unreadable
  int reopened = 0;                           // times a camera that stopped was opened again
};

// The part of cv::VideoCapture a capture source uses; tests put a device here that fails on cue.
class CaptureDevice {
 public:
  virtual ~CaptureDevice() = default;
  virtual bool Open() = 0;                  // (re)opens the device or file; true when it is open
  virtual bool Read(cv::Mat* frame) = 0;    // false: no frame (unplugged camera, unreadable or no more frames)
  virtual void Release() = 0;
  virtual double Get(int property) const = 0;  // cv::CAP_PROP_*
};

struct CaptureOptions {
  bool live = false;             // a camera: frame times from the clock, a failed read is retried;
                                 // a file: times from the frame number, an unreadable frame skipped
  double retry_s = 5.0;          // live: Next() gives up after this long without a frame, s (< 0: never)
  double backoff_s = 0.2;        // live: the wait before the n-th reopen is n times this (at most 5 s), s
  int max_bad_frames = 50;       // file: this many unreadable frames in a row end the file
  const std::atomic<bool>* stop = nullptr;  // when set and true (Ctrl-C), Next() stops retrying
  bool Check(std::string* error) const;
};

// A frame source over any capture device (opened already). `name` is for messages.
std::unique_ptr<FrameSource> MakeCaptureSource(std::unique_ptr<CaptureDevice> device, std::string name,
                                               const CaptureOptions& options);

// A webcam by index. Throws InputError("--camera") when it cannot be opened or gives no frame.
// A camera that stops delivering frames is reopened (with back-off) for `retry_s` seconds (< 0:
// until `stop`) before Next() gives up. `size` (px), when given, is asked of the camera: the
// calibration's size, so that the picture the calibration describes is the one delivered (the
// camera may still refuse it; its size() says what it gives).
std::unique_ptr<FrameSource> OpenCamera(int index, double retry_s = 5.0, const std::atomic<bool>* stop = nullptr,
                                        cv::Size size = {});

// A video file. Throws InputError naming the file when it cannot be opened or read. Frames the
// decoder cannot read are skipped and counted (corrupt_frames); frame times keep their place.
// A clip script (NAME.clip.yaml, synth/clip_script.h) is a synthetic camera: rendered frame by
// frame, the same frames `vedette demo --script` sees.
std::unique_ptr<FrameSource> OpenVideo(const std::string& path);

// A clip script rendered frame by frame (the frames are made on demand, so nothing is stored).
// `max_frames` < 0: the script's length.
class ClipSource : public FrameSource {
 public:
  explicit ClipSource(std::shared_ptr<synth::ClipRenderer> renderer, int max_frames = -1);
  bool Next(cv::Mat* bgr, double* t_s) override;
  double fps() const override { return renderer_->script().fps; }
  cv::Size size() const override { return renderer_->intrinsics().image_size; }
  int frame_count() const override { return count_; }
  std::string name() const override { return name_; }
  const synth::ClipFrame& last() const { return last_; }  // with the truth of the frame
  std::vector<synth::ClipDeclaration> declarations() const override { return declarations_; }
  synth::ClipRenderer& renderer() { return *renderer_; }

 private:
  std::shared_ptr<synth::ClipRenderer> renderer_;
  int count_ = 0, next_ = 0;
  std::string name_;
  synth::ClipFrame last_;
  std::vector<synth::ClipDeclaration> declarations_;
};

}  // namespace vedette::pipeline
