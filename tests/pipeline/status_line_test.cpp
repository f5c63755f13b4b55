// The recordings' status line (frame, time, units, registration) reads like the overlay's labels: at
// least 14 px tall at 1080p and at least 4.5:1 against its backing over a white or a black picture,
// the red "TABLE NOT REGISTERED" included.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "overlay/contrast.h"
#include "pipeline/frame_picture.h"

namespace vedette::pipeline {
namespace {

std::uint32_t Rgba(const cv::Vec3b& bgr) {
  return (std::uint32_t(bgr[2]) << 24) | (std::uint32_t(bgr[1]) << 16) | (std::uint32_t(bgr[0]) << 8) | 0xFFu;
}

struct Measured {
  int text_rows = 0;      // rows of the status box holding text strokes, px
  double contrast = 0.0;  // brightest stroke pixel against the box's backing
};

// Strokes are the pixels of the box that differ from its backing (the box's top-left pixel). The
// height is taken over "fra" of the leading "frame" (an ascender, no descender: the cap height).
Measured MeasureStatusLine(const cv::Scalar& picture_bgr) {
  cv::Mat bgr(1080, 1920, CV_8UC3, picture_bgr);
  PipelineFrame frame;  // not registered: the red warning
  overlay::AnnotateOptions options;
  overlay::AnnotateScratch scratch;
  AnnotateFrame(options, frame, calib::CameraIntrinsics{}, &bgr, &scratch);
  const cv::Vec3b backing = bgr.at<cv::Vec3b>(1, 1);
  int first = -1, last = -1;
  cv::Vec3b brightest = backing;
  for (int y = 0; y < 80; ++y)
    for (int x = 0; x < 30; ++x) {
      const cv::Vec3b p = bgr.at<cv::Vec3b>(y, x);
      if (cv::norm(p, backing, cv::NORM_L1) < 60) continue;
      if (first < 0) first = y;
      last = y;
      if (p[2] > brightest[2]) brightest = p;
    }
  Measured m;
  m.text_rows = first < 0 ? 0 : last - first + 1;
  m.contrast = overlay::ContrastRatio(Rgba(brightest), Rgba(backing));
  return m;
}

TEST(StatusLine, ReadableOverWhiteAndBlackAt1080p) {
  for (const cv::Scalar& picture : {cv::Scalar(255, 255, 255), cv::Scalar(0, 0, 0)}) {
    const Measured m = MeasureStatusLine(picture);
    EXPECT_GE(m.text_rows, 14) << "over " << picture;
    EXPECT_GE(m.contrast, 4.5) << "over " << picture;
  }
}

// The units are counted by their state: a resting unit the tracker did not re-measure this frame (it
// re-measures resting markers every other frame) is still on the table, in plain view; a hand over
// one makes it "hidden"; one picked up is "lifted" and no longer on the table.
TEST(StatusLine, CountsUnitsByStateNotByThisFramesMeasurements) {
  PipelineFrame frame;
  frame.track.frame = 75;
  frame.track.t = 5.0;
  frame.track.registration.ok = true;
  frame.track.registration.anchors_seen = 4;
  frame.track.registration.rms_px = 0.2;
  for (int i = 0; i < 20; ++i) {
    vision::TrackedUnit u;
    u.id = "U" + std::to_string(i);
    u.has_pose = true;
    u.state = vision::UnitState::kAtRest;
    u.measured = i % 2 == 0;
    frame.track.units.push_back(u);
  }
  EXPECT_EQ(StatusLine(frame), "frame 75  t 5.00 s  units 20 on table  tests 0  anchors 4  rms 0.20 px");
  frame.track.units[3].state = vision::UnitState::kOccluded;
  frame.track.units[3].measured = false;
  EXPECT_EQ(StatusLine(frame), "frame 75  t 5.00 s  units 20 on table (1 hidden)  tests 0  anchors 4  rms 0.20 px");
  frame.track.units[4].state = vision::UnitState::kLifted;
  frame.track.units[5].state = vision::UnitState::kRemoved;
  EXPECT_EQ(StatusLine(frame), "frame 75  t 5.00 s  units 18 on table (1 hidden), 1 lifted  tests 0  anchors 4  rms 0.20 px");
}

}  // namespace
}  // namespace vedette::pipeline
