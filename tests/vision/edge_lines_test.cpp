// Marker sides as lines through sub-pixel edge points (vision/edge_lines.h), on a synthetic marker
// whose corners are known exactly (tests/vision/synthetic_marker.h).
#include <gtest/gtest.h>

#include "tests/vision/synthetic_marker.h"
#include "vision/edge_lines.h"

namespace vedette::vision {
namespace {

using testing::Draw;
using testing::MaxError;
using testing::Shifted;
using testing::Synthetic;

// The tracker's resting re-measurement: one pass within 1 px, 8-24 profiles a side.
const EdgeLineOptions kRest = {1.0, 1, 1.0, 8, 24, 1.0};

// (A marker exactly aligned with the pixel grid is not refined by this edge model, nor by the
// detector's: bilinear profiles along pixel rows have flat stretches; real markers are never aligned
// to a thousandth of a degree.)
TEST(EdgeLines, RestingPredictionRefinesToTheTrueCorners) {
  for (double rot : {3.0, 20.0, -35.0}) {
    const Synthetic s = Draw(rot);
    const EdgeLineOptions rest = kRest;  // one pass, within 1 px
    std::array<cv::Point2f, 4> c = Shifted(s.corners, {0.4f, -0.3f});
    ASSERT_TRUE(RefineEdgeLines(rest, s.gray, 6, &c)) << rot;
    // Within 0.1 px (measured 0.03-0.08): a profile cut at the search's end kept about half of the
    // 0.5 px start error (0.25 px).
    EXPECT_LT(MaxError(c, s.corners), 0.1) << "rotated " << rot << " deg";
  }
}

TEST(EdgeLines, MovingPredictionAPixelAndAHalfOff) {
  const Synthetic s = Draw(20.0);
  const EdgeLineOptions moving = {2.0, 1, 1.0, 8, 32, 2.5};
  std::array<cv::Point2f, 4> c = Shifted(s.corners, {1.5f, 0.5f});
  ASSERT_TRUE(RefineEdgeLines(moving, s.gray, 6, &c));
  EXPECT_LT(MaxError(c, s.corners), 0.1);
  // Two passes measure the same.
  EdgeLineOptions two = moving;
  two.passes = 2;
  std::array<cv::Point2f, 4> c2 = Shifted(s.corners, {1.5f, 0.5f});
  ASSERT_TRUE(RefineEdgeLines(two, s.gray, 6, &c2));
  EXPECT_LT(MaxError(c2, s.corners), 0.1);
}

TEST(EdgeLines, FailsWithoutTouchingTheCorners) {
  const EdgeLineOptions rest = kRest;
  // 3 px off: the edges are outside the 1 px search (or the corners would move more than 1 px).
  const Synthetic s = Draw(10.0);
  const std::array<cv::Point2f, 4> far = Shifted(s.corners, {3.0f, 0.0f});
  std::array<cv::Point2f, 4> c = far;
  EXPECT_FALSE(RefineEdgeLines(rest, s.gray, 6, &c));
  EXPECT_EQ(MaxError(c, far), 0.0);
  // A blank image has no edges; a quad leaving the image is refused.
  cv::Mat blank(64, 64, CV_8U, cv::Scalar(128));
  c = s.corners;
  EXPECT_FALSE(RefineEdgeLines(rest, blank, 6, &c));
  c = Shifted(s.corners, {-30.0f, 0.0f});
  EXPECT_FALSE(RefineEdgeLines(rest, s.gray, 6, &c));
  // Colour images are not accepted (the tracker passes grey crops).
  cv::Mat bgr;
  cv::cvtColor(s.gray, bgr, cv::COLOR_GRAY2BGR);
  c = s.corners;
  EXPECT_FALSE(RefineEdgeLines(rest, bgr, 6, &c));
}

TEST(EdgeLines, OptionsCheckNamesTheProblem) {
  std::string e;
  EdgeLineOptions o;
  EXPECT_TRUE(o.Check(&e));
  o.passes = 3;
  EXPECT_FALSE(o.Check(&e));
  EXPECT_NE(e.find("passes"), std::string::npos) << e;
  o = {};
  o.max_profiles = 4;
  EXPECT_FALSE(o.Check(&e));
  EXPECT_NE(e.find("profiles"), std::string::npos) << e;
}

// The detector's defaults (two passes within 2 px) from a quad 1.5 px off.
TEST(EdgeLines, DetectorDefaultsFromARoughQuad) {
  const Synthetic s = Draw(-12.0);
  std::array<cv::Point2f, 4> c = Shifted(s.corners, {-1.2f, 0.9f});
  ASSERT_TRUE(RefineEdgeLines(EdgeLineOptions{}, s.gray, 6, &c));
  EXPECT_LT(MaxError(c, s.corners), 0.1);
}

}  // namespace
}  // namespace vedette::vision
