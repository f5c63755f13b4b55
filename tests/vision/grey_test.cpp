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
    for (const cv::Rect r : {cv::Rect(0, 0, 131, 97), cv::Rect(17, 5, 40, 61), cv::Rect(130, 96, 1, 1)}) {
      const cv::Mat g = GreyCrop(image, r);
      ASSERT_EQ(g.size(), r.size());
      ASSERT_EQ(g.type(), CV_8UC1);
      EXPECT_EQ(cv::norm(g, whole(r), cv::NORM_INF), 0.0) << cn << " channels, crop " << r;
    }
  }
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
