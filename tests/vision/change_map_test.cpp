// The change map's pieces: the sparse grey samples, the mask, and the labelling of the regions of
// change, which must give OpenCV's dilate + connectedComponentsWithStats boxes exactly.
#include <gtest/gtest.h>

#include <algorithm>

#include <opencv2/imgproc.hpp>

#include "vision/change_map.h"
#include "vision/grey.h"

namespace vedette::vision {
namespace {

std::vector<cv::Rect> OpenCvComponents(const cv::Mat& mask) {
  cv::Mat dilated, labels, stats, centroids;
  cv::dilate(mask, dilated, cv::Mat());
  const int n = cv::connectedComponentsWithStats(dilated, labels, stats, centroids, 8, CV_32S);
  std::vector<cv::Rect> out;
  for (int c = 1; c < n; ++c)
    out.emplace_back(stats.at<int>(c, cv::CC_STAT_LEFT), stats.at<int>(c, cv::CC_STAT_TOP),
                     stats.at<int>(c, cv::CC_STAT_WIDTH), stats.at<int>(c, cv::CC_STAT_HEIGHT));
  return out;
}

void Sort(std::vector<cv::Rect>* r) {
  std::sort(r->begin(), r->end(), [](const cv::Rect& a, const cv::Rect& b) {
    return std::tie(a.y, a.x, a.height, a.width) < std::tie(b.y, b.x, b.height, b.width);
  });
}

TEST(ChangeMap, ComponentsEqualOpenCvsDilatedLabelling) {
  cv::RNG rng(11);
  int compared = 0;
  for (double density : {0.002, 0.01, 0.05, 0.2}) {
    for (int trial = 0; trial < 20; ++trial) {
      cv::Mat mask(37 + trial, 61 - trial, CV_8U, cv::Scalar(0));
      for (int y = 0; y < mask.rows; ++y)
        for (int x = 0; x < mask.cols; ++x)
          if (rng.uniform(0.0, 1.0) < density) mask.at<uchar>(y, x) = 255;
      // Cells exactly 3 and 4 apart (joined and not), and on the border.
      mask.at<uchar>(0, 0) = 255;
      mask.at<uchar>(mask.rows - 1, mask.cols - 1) = 255;
      std::vector<cv::Rect> ours = ChangeComponents(mask), theirs = OpenCvComponents(mask);
      Sort(&ours);
      Sort(&theirs);
      ASSERT_EQ(ours, theirs) << "density " << density << " trial " << trial;
      compared += int(ours.size());
    }
  }
  EXPECT_GT(compared, 200);
  EXPECT_TRUE(ChangeComponents(cv::Mat(5, 5, CV_8U, cv::Scalar(0))).empty());
  cv::Mat gap(3, 12, CV_8U, cv::Scalar(0));
  gap.at<uchar>(1, 1) = gap.at<uchar>(1, 4) = gap.at<uchar>(1, 8) = 255;  // 3 apart: one region; 4 apart: two
  EXPECT_EQ(ChangeComponents(gap).size(), 2u);
}

TEST(ChangeMap, SamplesAndMask) {
  cv::Mat image(40, 64, CV_8UC3);
  cv::RNG(5).fill(image, cv::RNG::UNIFORM, 0, 256);
  const cv::Mat s = SampleGrey(image, 4);
  ASSERT_EQ(s.size(), cv::Size(16, 10));
  for (int y = 0; y < s.rows; ++y)
    for (int x = 0; x < s.cols; ++x) ASSERT_EQ(s.at<uchar>(y, x), GreyOfBgr(image.ptr<uchar>(4 * y) + 3 * 4 * x));
  cv::Mat later = s.clone();
  later.at<uchar>(2, 3) = cv::saturate_cast<uchar>(later.at<uchar>(2, 3) + 40);
  later.at<uchar>(5, 5) = cv::saturate_cast<uchar>(later.at<uchar>(5, 5) + (later.at<uchar>(5, 5) > 128 ? -20 : 20));
  double fraction = 0;
  const cv::Mat mask = ChangeMask(later, s, 30, &fraction);
  EXPECT_EQ(cv::countNonZero(mask), s.at<uchar>(2, 3) <= 215 ? 1 : 0);
  EXPECT_NEAR(fraction, cv::countNonZero(mask) / 160.0, 1e-12);
  const cv::Mat pooled = Pool2(mask);
  EXPECT_EQ(pooled.size(), cv::Size(8, 5));
  EXPECT_EQ(pooled.at<uchar>(1, 1), mask.at<uchar>(2, 3));
}

// The vector rows give the scalar GreyOfBgr's bytes at every step, width and channel count, the
// tail samples and the row's last pixel included.
TEST(ChangeMap, SampledGreyEqualsGreyOfBgrAtEveryStep) {
  cv::RNG rng(12);
  for (const int cn : {3, 4})
    for (const cv::Size size : {cv::Size(7, 5), cv::Size(64, 40), cv::Size(253, 37), cv::Size(1920, 12)})
      for (int step = 1; step <= 9; ++step) {
        cv::Mat image(size, CV_8UC(cn));
        rng.fill(image, cv::RNG::UNIFORM, 0, 256);
        image.at<uchar>(0, 0) = 255, image.at<uchar>(0, 1) = 255, image.at<uchar>(0, 2) = 255;  // the largest sum
        const cv::Mat s = SampleGrey(image, step);
        ASSERT_EQ(s.size(), cv::Size(std::max(1, size.width / step), std::max(1, size.height / step)));
        for (int y = 0; y < s.rows; ++y)
          for (int x = 0; x < s.cols; ++x)
            ASSERT_EQ(s.at<uchar>(y, x), GreyOfBgr(image.ptr<uchar>(step * y) + cn * step * x))
                << "cn " << cn << " step " << step << " at " << x << "," << y;
      }
}

// The one-pass mask is OpenCV's absdiff + compare(CMP_GT, floor(levels)) + countNonZero.
TEST(ChangeMap, MaskEqualsAbsdiffCompareAndCount) {
  cv::RNG rng(21);
  for (const cv::Size size : {cv::Size(1, 1), cv::Size(15, 3), cv::Size(17, 9), cv::Size(480, 270)})
    for (const double levels : {-1.0, 0.0, 0.5, 12.0, 30.7, 128.0, 254.0, 255.0, 300.0}) {
      cv::Mat a(size, CV_8U), b(size, CV_8U);
      rng.fill(a, cv::RNG::UNIFORM, 0, 256);
      b = a.clone();
      cv::Mat noise(size, CV_8U);
      rng.fill(noise, cv::RNG::UNIFORM, 0, 256);
      b.setTo(cv::Scalar(0), noise < 40);  // big changes
      b.setTo(cv::Scalar(255), noise > 230);
      cv::add(b, cv::Scalar(1), b, (noise > 100) & (noise < 120));  // and changes of one level
      cv::Mat diff, want;
      cv::absdiff(a, b, diff);
      cv::compare(diff, cv::Scalar(std::floor(levels)), want, cv::CMP_GT);
      double fraction = -1;
      const cv::Mat got = ChangeMask(a, b, levels, &fraction);
      ASSERT_EQ(cv::norm(got, want, cv::NORM_INF), 0) << size << " levels " << levels;
      EXPECT_NEAR(fraction, double(cv::countNonZero(want)) / double(want.total()), 1e-15) << size << " levels " << levels;
    }
}

// Each pooled cell is the OR of its 2x2 block, odd last rows and columns included.
TEST(ChangeMap, Pool2IsTheOrOfEachTwoByTwoBlock) {
  cv::RNG rng(9);
  for (const cv::Size size : {cv::Size(1, 1), cv::Size(7, 5), cv::Size(16, 10), cv::Size(481, 271)}) {
    cv::Mat mask(size, CV_8U);
    for (int y = 0; y < size.height; ++y)
      for (int x = 0; x < size.width; ++x) mask.at<uchar>(y, x) = rng.uniform(0, 10) == 0 ? 255 : 0;
    const cv::Mat pooled = Pool2(mask);
    ASSERT_EQ(pooled.size(), cv::Size((size.width + 1) / 2, (size.height + 1) / 2));
    for (int y = 0; y < pooled.rows; ++y)
      for (int x = 0; x < pooled.cols; ++x) {
        uchar want = 0;
        for (int dy = 0; dy < 2 && 2 * y + dy < size.height; ++dy)
          for (int dx = 0; dx < 2 && 2 * x + dx < size.width; ++dx) want |= mask.at<uchar>(2 * y + dy, 2 * x + dx);
        ASSERT_EQ(pooled.at<uchar>(y, x), want) << size << " cell " << x << "," << y;
      }
  }
}

}  // namespace
}  // namespace vedette::vision
