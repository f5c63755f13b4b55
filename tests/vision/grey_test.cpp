// The tracker's own crop conversion must give OpenCV's grey levels exactly: the detector and the
// tracker read the same frame, and a level off by one moves edges and thresholds.
#include <gtest/gtest.h>

#include <opencv2/imgproc.hpp>

#include "vision/grey.h"

namespace vedette::vision {
namespace {

TEST(GreyCrop, EqualsCvtColorForBgrAndBgra) {
  cv::RNG rng(3);
  for (int cn : {3, 4}) {
    cv::Mat image(97, 131, CV_8UC(cn));
    rng.fill(image, cv::RNG::UNIFORM, 0, 256);
    cv::Mat whole;
    cv::cvtColor(image, whole, cn == 4 ? cv::COLOR_BGRA2GRAY : cv::COLOR_BGR2GRAY);
    // Both ways of converting: OpenCV's from kGreyCropOpenCvFromPx up, GreyOfBgrRow below it.
    for (const cv::Rect r : {cv::Rect(0, 0, 131, 97), cv::Rect(17, 5, 40, 61), cv::Rect(3, 70, 24, 24),
                             cv::Rect(60, 30, 23, 24), cv::Rect(130, 96, 1, 1)}) {
      const cv::Mat g = GreyCrop(image, r);
      ASSERT_EQ(g.size(), r.size());
      ASSERT_EQ(g.type(), CV_8UC1);
      EXPECT_EQ(cv::norm(g, whole(r), cv::NORM_INF), 0.0) << cn << " channels, crop " << r;
    }
    // Every width of the vector rows' tail, against the image's last byte (the 4-byte reads must stop
    // one pixel short of it with 3 channels).
    for (int w = 1; w <= 20; ++w) {
      const cv::Rect r(131 - w, 90, w, 7);
      EXPECT_EQ(cv::norm(GreyCrop(image, r), whole(r), cv::NORM_INF), 0.0) << cn << " channels, crop " << r;
    }
  }
}

// The loop's weights and rounding equal OpenCV's for every 24-bit colour, not only the sampled ones.
TEST(GreyCrop, GreyOfBgrEqualsCvtColorForEveryColour) {
  cv::Mat all(4096, 4096, CV_8UC3);
  for (int i = 0; i < (1 << 24); ++i) {
    all.data[3 * i] = uchar(i), all.data[3 * i + 1] = uchar(i >> 8), all.data[3 * i + 2] = uchar(i >> 16);
  }
  cv::Mat grey;
  cv::cvtColor(all, grey, cv::COLOR_BGR2GRAY);
  long wrong = 0;
  for (int i = 0; i < (1 << 24); ++i) wrong += GreyOfBgr(all.data + 3 * i) != grey.data[i];
  EXPECT_EQ(wrong, 0);
}

TEST(GreyCrop, GreyImageIsAViewAndOtherDepthsAreRefused) {
  cv::Mat grey(20, 30, CV_8U, cv::Scalar(7));
  const cv::Mat g = GreyCrop(grey, cv::Rect(2, 3, 10, 5));
  EXPECT_EQ(g.data, grey.ptr<uchar>(3) + 2);
  EXPECT_THROW(GreyCrop(cv::Mat(10, 10, CV_16UC3), cv::Rect(0, 0, 5, 5)), std::invalid_argument);
  EXPECT_THROW(GreyCrop(cv::Mat(10, 10, CV_8UC2), cv::Rect(0, 0, 5, 5)), std::invalid_argument);
}

}  // namespace
}  // namespace vedette::vision
