// The tracker's bit check (vision/track_verify.h) on a synthetic marker whose corners are known
// exactly (tests/vision/synthetic_marker.h).
#include <gtest/gtest.h>

#include "calibration/dictionary.h"
#include "tests/vision/synthetic_marker.h"
#include "vision/track_verify.h"

namespace vedette::vision {
namespace {

using testing::Draw;
using testing::Synthetic;

TEST(MarkerBits, CellsGivenOrLookedUpAgree) {
  const Synthetic s = Draw(20.0);
  const cv::aruco::Dictionary dict = cv::aruco::getPredefinedDictionary(cv::aruco::DICT_4X4_50);
  const BitCheck by_id = CheckMarkerBits(s.gray, s.corners, dict, 7);
  const BitCheck by_cells = CheckMarkerBits(s.gray, s.corners, calib::MarkerCells(dict, 7));
  EXPECT_EQ(by_id.errors, 0);
  EXPECT_EQ(by_cells.errors, 0);
  EXPECT_NEAR(by_id.contrast, by_cells.contrast, 1e-9);
  EXPECT_GT(by_cells.contrast, 150);  // light 230 - dark 30, a little blur
  // Another marker's code disagrees in several cells.
  EXPECT_GT(CheckMarkerBits(s.gray, s.corners, calib::MarkerCells(dict, 8)).errors, 1);
  // The same check on the colour image (GreyAt's path).
  cv::Mat bgr;
  cv::cvtColor(s.gray, bgr, cv::COLOR_GRAY2BGR);
  EXPECT_EQ(CheckMarkerBits(bgr, s.corners, calib::MarkerCells(dict, 7)).errors, 0);
}

}  // namespace
}  // namespace vedette::vision
