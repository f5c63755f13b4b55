// The calibration window (`vedette calibrate --camera/--video` with a display) under a virtual
// display: rendered board views through a known lens are fed as a camera would give them, and the
// S key is tapped in every other window frame from the start. A press counts only once the session
// has enough: the window must ignore the early presses, then save at the first frame with enough
// and read no further frame. (The screenshot checks, and the CLI around this window, are in
// tests/calibration/calibration_session_test.cpp.) Without a display the test is skipped.
#include "ui/calibration_window.h"

#include <gtest/gtest.h>

#include <opencv2/imgproc.hpp>

#include "calibration/synthetic_views.h"
#include "ui/live_window.h"

namespace vedette::ui {

using namespace vedette::overlay;
using namespace vedette::pipeline;
namespace {

// A camera showing each image for `repeat` frames in turn.
class ImageSequence : public FrameSource {
 public:
  ImageSequence(std::vector<cv::Mat> images, int repeat) : images_(std::move(images)), repeat_(repeat) {}
  bool Next(cv::Mat* bgr, double* t_s) override {
    if (next_ >= static_cast<int>(images_.size()) * repeat_) return false;
    cv::cvtColor(images_[next_ / repeat_], *bgr, cv::COLOR_GRAY2BGR);
    *t_s = next_++ / fps();
    return true;
  }
  double fps() const override { return 30; }
  cv::Size size() const override { return images_.front().size(); }
  std::string name() const override { return "test camera"; }

 private:
  std::vector<cv::Mat> images_;
  int repeat_ = 1, next_ = 0;
};

TEST(CalibrationWindow, TheSaveKeyCountsOnlyOnceThereIsEnough) {
  std::string why;
  if (!DisplayAvailable(&why)) GTEST_SKIP() << "no display for the calibration window: " << why;
  // The 960x540 webcam of the calibration tests at 640x360; 12 spread poses of a 9x6 chessboard.
  calib::CameraIntrinsics k;
  k.camera_matrix = cv::Matx33d(760, 0, 484.2, 0, 763.8, 265.6, 0, 0, 1);
  k.distortion = (cv::Mat_<double>(1, 5) << -0.21, 0.09, 0.0007, -0.0004, -0.015);
  k.image_size = cv::Size(960, 540);
  k = calib::ScaledTo(k, cv::Size(640, 360));
  const calib::BoardSpec board = calib::ParseBoardSpec("chessboard:9x6:25");
  calib::BoardRenderOptions ro;
  ro.image_size = k.image_size;
  ro.supersample = 2;
  ro.blur_sigma_px = 0.7;
  calib::SpreadPoseOptions po;
  po.views = 12;
  po.seed = 3;
  ImageSequence camera(calib::RenderBoardViews(ro, calib::MakeBoardPattern(board), k, calib::SpreadBoardPoses(po, board, k)),
                       5);
  calib::CalibrationSession session({}, board);
  CalibrationWindowOptions wo;
  wo.close_at_end = true;
  int taps_before_enough = 0, first_enough_frame = -1;
  wo.tap_save_key = [&](const calib::SessionState& s) {  // asked every other window frame
    if (s.enough && first_enough_frame < 0) first_enough_frame = s.frames;
    taps_before_enough += s.enough ? 0 : 1;
    return true;
  };
  int kept_lines = 0;
  const CalibrationWindowResult r = RunCalibrationWindow(wo, camera, session, [&] { ++kept_lines; });
  std::printf("frames %d, S tapped in %d window frames before enough, enough from frame %d\n", r.frames,
              taps_before_enough, first_enough_frame);
  EXPECT_GT(taps_before_enough, 20);  // all ignored
  ASSERT_TRUE(session.state().enough);
  EXPECT_TRUE(r.save_requested);
  EXPECT_FALSE(r.source_ended);  // saved before the 60 frames ran out...
  // ...at the first frame with enough: the tap lands on that window frame or (the key being up
  // there, between taps) on the next, which reads one more frame first.
  EXPECT_GE(r.frames, first_enough_frame);
  EXPECT_LE(r.frames, first_enough_frame + 1);
  EXPECT_GE(static_cast<int>(session.state().kept.size()), 10);
  EXPECT_EQ(kept_lines, static_cast<int>(session.state().kept.size()));
}

}  // namespace
}  // namespace vedette::ui
