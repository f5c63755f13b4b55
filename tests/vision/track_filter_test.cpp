// The pose filter and the visibility state machine on synthetic measurement streams (no images):
// what a resting, nudged, moving or hidden unit's track must do.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "vision/track_filter.h"
#include "vision/track_state.h"

namespace vedette::vision {
namespace {

constexpr double kFps = 30.0;

double StdDev(const std::vector<double>& v) {
  double m = 0;
  for (double x : v) m += x;
  m /= v.size();
  double s = 0;
  for (double x : v) s += (x - m) * (x - m);
  return std::sqrt(s / (v.size() - 1));
}

// A unit resting at (500, 400) facing 90 deg, measured with sigma 0.1 mm per axis and 0.2 deg:
// after it settles, the reported pose wanders far less than one measurement does.
TEST(PoseFilter, RestJitterFallsWellBelowMeasurementNoise) {
  std::mt19937 rng(7);
  std::normal_distribution<double> n01(0, 1);
  PoseFilter f;
  std::vector<double> xs, hs;
  int rests = 0;
  for (int i = 0; i < 300; ++i) {
    PoseMeasurement m{i / kFps, {500 + 0.1 * n01(rng), 400 + 0.1 * n01(rng), 90 + 0.2 * n01(rng)}, 0.1, 0.2};
    const PoseFilterStep s = f.Update(m);
    rests += s.came_to_rest ? 1 : 0;
    EXPECT_FALSE(s.nudged) << "frame " << i << ": noise taken for a nudge";
    if (i >= 60) {
      xs.push_back(f.pose().x_mm);
      hs.push_back(f.pose().heading_deg);
    }
  }
  EXPECT_EQ(rests, 1);
  EXPECT_TRUE(f.at_rest());
  // Measurement noise: 0.1 mm and 0.2 deg; the bound stated in TRACKING_NOTES.md: a fifth of it.
  EXPECT_LT(StdDev(xs), 0.02) << "rest jitter in x, mm";
  EXPECT_LT(StdDev(hs), 0.04) << "rest jitter in heading, deg";
  EXPECT_NEAR(f.pose().x_mm, 500, 0.03);
  EXPECT_NEAR(f.pose().heading_deg, 90, 0.06);
  EXPECT_LT(f.sigma_mm(), 0.02);
}

// A nudge of 1 mm (noise 0.1 mm) and a turn of 0.5 deg (noise 0.1 deg) show within a few frames.
TEST(PoseFilter, SmallRealMovesShowWithinFewFrames) {
  std::mt19937 rng(11);
  std::normal_distribution<double> n01(0, 1);
  PoseFilter f;
  double x = 300, h = 45;
  int first_near = -1, first_turn = -1, nudges = 0;
  for (int i = 0; i < 240; ++i) {
    if (i == 90) x += 1.0;    // pushed 1 mm along x
    if (i == 170) h += 0.5;   // turned 0.5 deg
    PoseMeasurement m{i / kFps, {x + 0.1 * n01(rng), 200 + 0.1 * n01(rng), h + 0.1 * n01(rng)}, 0.1, 0.1};
    nudges += f.Update(m).nudged ? 1 : 0;
    if (i >= 90 && first_near < 0 && std::abs(f.pose().x_mm - 301) < 0.25) first_near = i;
    if (i >= 170 && first_turn < 0 && std::abs(f.pose().heading_deg - 45.5) < 0.15) first_turn = i;
  }
  EXPECT_EQ(nudges, 2);
  ASSERT_GE(first_near, 90);
  EXPECT_LE(first_near - 90, 5) << "frames until a 1 mm push shows";
  ASSERT_GE(first_turn, 170);
  EXPECT_LE(first_turn - 170, 6) << "frames until a 0.5 deg turn shows";
  EXPECT_NEAR(f.pose().x_mm, 301, 0.1);
  EXPECT_NEAR(f.pose().heading_deg, 45.5, 0.1);
}

// A unit pushed at 60 mm/s for 2 s, then left: followed with little lag, then at rest again.
TEST(PoseFilter, FollowsAMoveThenComesToRest) {
  std::mt19937 rng(3);
  std::normal_distribution<double> n01(0, 1);
  PoseFilter f;
  int started = 0, rested = 0;
  double worst_lag = 0;
  for (int i = 0; i < 180; ++i) {
    const double t = i / kFps;
    const double y = 100 + 60 * std::clamp(t - 1.0, 0.0, 2.0);  // moves during t in [1, 3] s
    const PoseFilterStep s = f.Update({t, {200 + 0.1 * n01(rng), y + 0.1 * n01(rng), 90 + 0.2 * n01(rng)}, 0.1, 0.2});
    started += s.started_moving ? 1 : 0;
    rested += s.came_to_rest ? 1 : 0;
    if (t > 1.2 && t < 3.0) worst_lag = std::max(worst_lag, std::abs(f.pose().y_mm - y));
  }
  EXPECT_EQ(started, 1);
  EXPECT_EQ(rested, 2);  // before and after the move
  EXPECT_LT(worst_lag, 1.0) << "mm behind the unit while it moves at 60 mm/s";
  EXPECT_TRUE(f.at_rest());
  EXPECT_NEAR(f.pose().y_mm, 220, 0.1);
}

// Resting at heading 180 with noise: the estimate must not jump to 0 or average to 0.
TEST(PoseFilter, HeadingAveragesAcrossPlusMinus180) {
  std::mt19937 rng(5);
  std::normal_distribution<double> n01(0, 1);
  PoseFilter f;
  for (int i = 0; i < 120; ++i) {
    double h = 180 + 0.3 * n01(rng);
    if (h > 180) h -= 360;  // measured as -179.8 and 179.8 alternately
    f.Update({i / kFps, {10, 10, h}, 0.1, 0.3});
  }
  EXPECT_TRUE(f.at_rest());
  EXPECT_LT(std::abs(AngleDiffDeg(f.pose().heading_deg, 180)), 0.1);
}

// 3000 frames of pure noise: no nudges (the gate is 4.5 standard errors).
TEST(PoseFilter, NoiseAloneMakesNoMoves) {
  std::mt19937 rng(13);
  std::normal_distribution<double> n01(0, 1);
  PoseFilter f;
  int events = 0;
  for (int i = 0; i < 3000; ++i) {
    const PoseFilterStep s = f.Update({i / kFps, {n01(rng) * 0.2, n01(rng) * 0.2, n01(rng) * 0.3}, 0.2, 0.3});
    events += (s.nudged || s.started_moving) ? 1 : 0;
  }
  EXPECT_LE(events, 1);
}

TEST(PoseFilter, OptionsCheckNamesTheProblem) {
  PoseFilterOptions o;
  std::string error;
  EXPECT_TRUE(o.Check(&error));
  o.step_frames = 0;
  EXPECT_FALSE(o.Check(&error));
  EXPECT_NE(error.find("step_frames"), std::string::npos);
}

// Occluded -> visible; empty for lift_confirm_s -> lifted; removed only after removed_after_s of
// visible-and-empty time: time under a hand does not count.
TEST(Visibility, HiddenKeepsEmptyLiftsThenRemoves) {
  VisibilityOptions o;
  o.lift_confirm_s = 0.2;
  o.removed_after_s = 1.0;
  VisibilityState s;
  double t = 0;
  auto step = [&](bool seen, SpotLook look) {
    t += 0.1;
    return UpdateVisibility(o, &s, seen, look, t);
  };
  EXPECT_TRUE(step(true, SpotLook::kUnknown).appeared);
  EXPECT_TRUE(step(false, SpotLook::kHidden).occluded);
  for (int i = 0; i < 30; ++i) EXPECT_FALSE(step(false, SpotLook::kHidden).lifted);  // a hand resting 3 s
  EXPECT_EQ(s.v, Visibility::kOccluded);
  EXPECT_FALSE(step(true, SpotLook::kUnknown).returned);  // back from occlusion: not a "replaced"
  EXPECT_EQ(s.v, Visibility::kSeen);
  EXPECT_FALSE(step(false, SpotLook::kEmpty).lifted);      // one empty look: a fingertip, maybe
  EXPECT_FALSE(step(false, SpotLook::kEmpty).lifted);
  EXPECT_TRUE(step(false, SpotLook::kEmpty).lifted);       // 0.2 s empty
  EXPECT_EQ(s.v, Visibility::kLifted);
  for (int i = 0; i < 20; ++i) EXPECT_FALSE(step(false, SpotLook::kHidden).removed);  // hidden time does not count
  int frames = 0;
  while (!step(false, SpotLook::kEmpty).removed) ASSERT_LT(++frames, 20);
  EXPECT_NEAR(frames, 7, 1);  // 0.2 s counted at lift + 0.8 s more
  EXPECT_EQ(s.v, Visibility::kRemoved);
  const VisibilityStep back = step(true, SpotLook::kUnknown);
  EXPECT_TRUE(back.returned);
  EXPECT_EQ(back.before, Visibility::kRemoved);
}

// The spot comparison: a changed ring is a hand; an unchanged ring with a changed marker is empty.
TEST(Spot, CompareTellsHiddenFromEmpty) {
  SpotOptions o;
  SpotSamples ref;
  ref.valid = true;
  ref.ring.assign(48, 90.0f);
  for (int i = 0; i < 36; ++i) ref.marker.push_back(i % 2 ? 230.0f : 25.0f);
  SpotSamples same = ref;
  EXPECT_EQ(CompareSpot(o, ref, same), SpotLook::kMarkerThere);
  SpotSamples empty = ref;
  empty.marker.assign(36, 120.0f);  // the base or the cloth where the marker was
  EXPECT_EQ(CompareSpot(o, ref, empty), SpotLook::kEmpty);
  SpotSamples hand = empty;
  for (int i = 0; i < 20; ++i) hand.ring[i] = 180.0f;  // 20 of 48 ring samples under skin
  EXPECT_EQ(CompareSpot(o, ref, hand), SpotLook::kHidden);
  SpotSamples outside = ref;
  outside.valid = false;
  EXPECT_EQ(CompareSpot(o, ref, outside), SpotLook::kUnknown);
}

}  // namespace
}  // namespace vedette::vision
