// Frame sources: a camera that is unplugged and plugged back, a file with unreadable frames, a
// frame of the wrong size, Ctrl-C while waiting for a camera. The device is a script of reads, so
// the retry logic is tested without a webcam.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <deque>

#include <opencv2/videoio.hpp>

#include "pipeline/frame_source.h"

namespace vedette::pipeline {

namespace {

// Reads follow a script: 'f' a good 64x48 frame, 'x' a failed read, 's' a frame of another size.
// While closed (after Release), reads fail until Open() is called `opens_to_recover` times.
class ScriptedDevice : public CaptureDevice {
 public:
  ScriptedDevice(std::string script, double frame_count, int* opens)
      : script_(script.begin(), script.end()), frame_count_(frame_count), opens_(opens) {}
  bool Open() override {
    ++*opens_;
    open_ = true;
    return true;
  }
  bool Read(cv::Mat* frame) override {
    if (!open_ || script_.empty()) return false;
    const char c = script_.front();
    script_.pop_front();
    if (c == 'x') return false;
    *frame = cv::Mat(c == 's' ? cv::Size(32, 24) : cv::Size(64, 48), CV_8UC3, cv::Scalar(10, 20, 30));
    return true;
  }
  void Release() override { open_ = false; }
  double Get(int property) const override {
    switch (property) {
      case cv::CAP_PROP_FPS: return 10;
      case cv::CAP_PROP_FRAME_COUNT: return frame_count_;
      case cv::CAP_PROP_FRAME_WIDTH: return 64;
      case cv::CAP_PROP_FRAME_HEIGHT: return 48;
      default: return 0;
    }
  }

 private:
  std::deque<char> script_;
  double frame_count_;
  int* opens_;
  bool open_ = true;
};

CaptureOptions Live(double retry_s) {
  CaptureOptions o;
  o.live = true;
  o.retry_s = retry_s;
  o.backoff_s = 0.001;
  return o;
}

TEST(FrameSource, CameraUnpluggedAndBackIsReopenedNotFatal) {
  int opens = 0;
  // Two frames, three failed reads (cable out), then three frames again.
  auto src = MakeCaptureSource(std::make_unique<ScriptedDevice>("ffxxxfff", -1, &opens), "camera 9", Live(5.0));
  cv::Mat img;
  double t = -1, last_t = -1;
  int got = 0;
  while (src->Next(&img, &t)) {
    EXPECT_EQ(img.size(), cv::Size(64, 48));
    EXPECT_GE(t, last_t);
    last_t = t;
    ++got;
    if (got == 5) break;  // the script is used up: a real camera would go on
  }
  EXPECT_EQ(got, 5);
  EXPECT_EQ(opens, 3) << "one reopen per failed read";
  EXPECT_EQ(src->reopened, 3);
  EXPECT_EQ(src->corrupt_frames, 0);
}

TEST(FrameSource, CameraGoneForGoodGivesUpAfterRetryTime) {
  int opens = 0;
  auto src = MakeCaptureSource(std::make_unique<ScriptedDevice>("f", -1, &opens), "camera 9", Live(0.05));
  cv::Mat img;
  double t = 0;
  ASSERT_TRUE(src->Next(&img, &t));
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_FALSE(src->Next(&img, &t));
  const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_GE(waited, 0.05);
  EXPECT_LT(waited, 2.0);
  EXPECT_GT(opens, 0) << "it tried to reopen";
}

TEST(FrameSource, StopFlagEndsAnEndlessRetry) {
  int opens = 0;
  std::atomic<bool> stop{false};
  CaptureOptions o = Live(-1);  // retry forever
  o.stop = &stop;
  auto src = MakeCaptureSource(std::make_unique<ScriptedDevice>("f", -1, &opens), "camera 9", o);
  cv::Mat img;
  double t = 0;
  ASSERT_TRUE(src->Next(&img, &t));
  std::thread ctrl_c([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    stop = true;
  });
  EXPECT_FALSE(src->Next(&img, &t));
  ctrl_c.join();
  EXPECT_GT(opens, 1);
}

TEST(FrameSource, FileSkipsUnreadableAndOddFramesAndKeepsTimes) {
  int opens = 0;
  // 8 frames in the file: frames 2 and 3 cannot be decoded, frame 5 has another size.
  auto src = MakeCaptureSource(std::make_unique<ScriptedDevice>("ffxxfsff", 8, &opens), "clip.mkv", CaptureOptions{});
  cv::Mat img;
  double t = 0;
  std::vector<double> times;
  while (src->Next(&img, &t)) times.push_back(t);
  // Delivered: frames 0, 1, 4, 6, 7 at 10 fps; the skipped ones keep their time slots.
  ASSERT_EQ(times.size(), 5u);
  EXPECT_DOUBLE_EQ(times[0], 0.0);
  EXPECT_DOUBLE_EQ(times[1], 0.1);
  EXPECT_DOUBLE_EQ(times[2], 0.4);
  EXPECT_DOUBLE_EQ(times[3], 0.6);
  EXPECT_DOUBLE_EQ(times[4], 0.7);
  EXPECT_EQ(src->corrupt_frames, 3);
  EXPECT_EQ(opens, 0) << "a file is never reopened";
}

TEST(FrameSource, FileWithTooManyBadFramesInARowEnds) {
  int opens = 0;
  CaptureOptions o;
  o.max_bad_frames = 3;
  auto src = MakeCaptureSource(std::make_unique<ScriptedDevice>("fxxxxxxxxf", 10, &opens), "clip.mkv", o);
  cv::Mat img;
  double t = 0;
  int got = 0;
  while (src->Next(&img, &t)) ++got;
  EXPECT_EQ(got, 1);
  EXPECT_EQ(src->corrupt_frames, 3);
}

TEST(FrameSource, OptionsCheck) {
  CaptureOptions o;
  std::string error;
  EXPECT_TRUE(o.Check(&error));
  o.max_bad_frames = 0;
  EXPECT_FALSE(o.Check(&error));
  EXPECT_NE(error.find("max_bad_frames"), std::string::npos);
}

}  // namespace
}  // namespace vedette::pipeline
