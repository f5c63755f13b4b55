// The recordings' status line (frame, time, units, registration) reads like the overlay's labels: at
// least 14 px tall at 1080p and at least 4.5:1 against its backing over a white or a black picture,
// the red "TABLE NOT REGISTERED" included.
#include <gtest/gtest.h>

#include <algorithm>

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

}  // namespace
}  // namespace vedette::pipeline
