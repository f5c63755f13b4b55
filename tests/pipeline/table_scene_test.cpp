// The table as the rules see it: resting units keep the pose the rules last saw until they move.
#include <gtest/gtest.h>

#include "pipeline/table_scene.h"

namespace vedette::pipeline {
namespace {

Scene TwoUnits(double x1_mm, double heading1_deg, double x2_mm) {
  Scene s;
  for (int i = 0; i < 2; ++i) {
    Unit u;
    u.id = i == 0 ? "B1" : "R1";
    u.pose = Pose{i == 0 ? x1_mm : x2_mm, 400.0, i == 0 ? heading1_deg : 270.0};
    s.units.push_back(u);
  }
  return s;
}

TEST(HoldStillPoses, ATrackerJitterBelowTheThresholdKeepsTheAnalysedPose) {
  const Scene analysed = TwoUnits(600.0, 90.0, 900.0);
  Scene now = TwoUnits(600.03, 90.02, 899.96);
  EXPECT_FALSE(HoldStillPoses(&now, analysed, 0.05, 0.05));
  EXPECT_EQ(now.units[0].pose->x_mm, 600.0);
  EXPECT_EQ(now.units[0].pose->heading_deg, 90.0);
  EXPECT_EQ(now.units[1].pose->x_mm, 900.0);
}

TEST(HoldStillPoses, OnlyTheUnitThatMovedTakesItsNewPose) {
  const Scene analysed = TwoUnits(600.0, 90.0, 900.0);
  Scene now = TwoUnits(605.0, 90.0, 900.02);
  EXPECT_TRUE(HoldStillPoses(&now, analysed, 0.05, 0.05));
  EXPECT_EQ(now.units[0].pose->x_mm, 605.0);
  EXPECT_EQ(now.units[1].pose->x_mm, 900.0) << "the resting unit's jitter is not passed on";
  // A turn alone counts, across north too.
  Scene turned = TwoUnits(600.0, 90.2, 900.0);
  EXPECT_TRUE(HoldStillPoses(&turned, analysed, 0.05, 0.05));
  Scene across = TwoUnits(600.0, 359.99, 900.0), north = TwoUnits(600.0, 0.01, 900.0);
  EXPECT_FALSE(HoldStillPoses(&across, north, 0.05, 0.05));
}

// Creeping by less than the threshold each frame still adds up: the comparison is with the pose the
// rules saw, not with the last frame.
TEST(HoldStillPoses, ASlowCreepIsPassedOnOnceItAddsUpToTheThreshold) {
  Scene analysed = TwoUnits(600.0, 90.0, 900.0);
  int updates = 0;
  for (int frame = 1; frame <= 10; ++frame) {
    Scene now = TwoUnits(600.0 + 0.02 * frame, 90.0, 900.0);
    if (HoldStillPoses(&now, analysed, 0.05, 0.05)) {
      ++updates;
      analysed = now;
    }
  }
  EXPECT_EQ(updates, 3);  // at +0.06, +0.12 and +0.18 mm
  EXPECT_NEAR(analysed.units[0].pose->x_mm, 600.18, 1e-9);
}

TEST(HoldStillPoses, AUnitComingOnOrLeavingTheTableIsAChange) {
  const Scene analysed = TwoUnits(600.0, 90.0, 900.0);
  Scene lifted = TwoUnits(600.0, 90.0, 900.0);
  lifted.units[1].pose.reset();
  EXPECT_TRUE(HoldStillPoses(&lifted, analysed, 0.05, 0.05));
  Scene back = TwoUnits(600.0, 90.0, 900.0);
  EXPECT_TRUE(HoldStillPoses(&back, lifted, 0.05, 0.05));
  EXPECT_TRUE(HoldStillPoses(&back, Scene{}, 0.05, 0.05)) << "no table seen yet";
}

}  // namespace
}  // namespace vedette::pipeline
