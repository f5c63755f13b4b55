// The scorer the condition test and benchmark stand on: what counts as found, wrong and missed,
// and corner errors whatever order a detector numbers its corners in.
#include <gtest/gtest.h>

#include "synth/detection_score.h"

namespace vedette::synth {
namespace {

MarkerTruth Square(int id, cv::Point2d origin, double side, double occluded = 0) {
  MarkerTruth t;
  t.placement.id = id;
  t.corners_px = {origin, origin + cv::Point2d(side, 0), origin + cv::Point2d(side, side), origin + cv::Point2d(0, side)};
  t.side_px = side;
  t.in_image = true;
  t.occluded_fraction = occluded;
  return t;
}

calib::MarkerObservation Seen(int id, const MarkerTruth& t, cv::Point2f shift, bool reversed) {
  calib::MarkerObservation m;
  m.id = id;
  for (int i = 0; i < 4; ++i) m.corners_px[i] = cv::Point2f(t.corners_px[reversed ? (4 - i) % 4 : i]) + shift;
  return m;
}

TEST(ScoreDetections, FoundWrongMissedAndHiddenAreCountedApart) {
  RenderTruth truth;
  truth.markers = {Square(4, {100, 100}, 20), Square(5, {300, 100}, 15), Square(6, {500, 100}, 30), Square(7, {700, 100}, 20, 0.8)};
  const std::vector<calib::MarkerObservation> found = {
      Seen(4, truth.markers[0], {0, 0}, false),     // exact
      Seen(5, truth.markers[1], {0.5, 0}, true),    // AprilTag's corner order, half a pixel off
      Seen(9, truth.markers[2], {0, 0}, false),     // misread: an ID that is not there
      Seen(7, truth.markers[3], {0, 0}, false),     // hidden 80 %: found anyway, neither expected nor wrong
      Seen(6, truth.markers[0], {0, 0}, false)};    // the right ID at the wrong place
  const DetectionScore s = ScoreDetections({}, truth, found);
  EXPECT_EQ(s.expected, 3);
  EXPECT_EQ(s.found, 2);
  EXPECT_EQ(s.wrong, 2);
  EXPECT_EQ(s.expected_by_size[0] + s.expected_by_size[1], 1);  // the 15 px marker
  EXPECT_EQ(s.found_by_size[2], 1);                             // the 20 px marker
  ASSERT_EQ(s.corner_error_px.size(), 8u);
  EXPECT_NEAR(Median(s.corner_error_px), 0.5, 1e-6);
  EXPECT_NEAR(s.heading_error_deg[0], 0, 1e-6);
  EXPECT_NEAR(s.heading_error_deg[1], 0, 1e-6);
  EXPECT_NEAR(s.Recall(), 2.0 / 3, 1e-12);
}

}  // namespace
}  // namespace vedette::synth
