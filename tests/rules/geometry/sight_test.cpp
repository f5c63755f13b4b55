// Lines of sight past blocking and obscuring occluders (rules/geometry/sight.h).
#include <gtest/gtest.h>

#include "rules/geometry/sight.h"

namespace vedette::geom {
namespace {

Polygon Rect(double x0, double y0, double x1, double y1) { return {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}}; }

// Eye at the origin; target T: x -50..50 at y 100..140 (subtends 2 atan(0.5) = 53.13 deg).
const Vec2 kEye(0, 0);
const Polygon T = Rect(-50, 100, 50, 140);

TEST(Sight, ClearWithNoOccluders) {
  const SightResult r = TraceSight(kEye, T, {});
  EXPECT_TRUE(r.visible);
  EXPECT_NEAR(r.clear_share, 1.0, 1e-12);
  EXPECT_NEAR(r.subtended_deg, 2 * RadToDeg(std::atan(0.5)), 1e-9);
}

TEST(Sight, WideBlockerHidesEverything) {
  const SightResult r = TraceSight(kEye, T, {{Rect(-200, 40, 200, 60), SightEffect::kBlocks, 3}});
  EXPECT_FALSE(r.visible);
  EXPECT_NEAR(r.blocked_share, 1.0, 1e-12);
  EXPECT_EQ(r.blocking_tags, std::vector<int>{3});
}

TEST(Sight, HalfBlockedByHand) {
  // Blocker x 0..200 at y 40..60: every line to the right half (x >= 0 at y = 100) is blocked.
  const SightResult r = TraceSight(kEye, T, {{Rect(0, 40, 200, 60), SightEffect::kBlocks, 1}});
  EXPECT_TRUE(r.visible);
  EXPECT_NEAR(r.blocked_share, 0.5, 1e-9);
  EXPECT_LT(r.seen_point.x(), 0);
}

TEST(Sight, LowOccluderObscuresAndBlockerWins) {
  const SightResult low = TraceSight(kEye, T, {{Rect(-200, 40, 200, 60), SightEffect::kObscures, 5}});
  EXPECT_TRUE(low.visible);
  EXPECT_NEAR(low.obscured_share, 1.0, 1e-12);
  EXPECT_EQ(low.obscuring_tags, std::vector<int>{5});
  // A blocker over the left half on top of it: left blocked, right obscured.
  const SightResult both = TraceSight(
      kEye, T, {{Rect(-200, 40, 200, 60), SightEffect::kObscures, 5}, {Rect(-200, 70, 0, 80), SightEffect::kBlocks, 6}});
  EXPECT_NEAR(both.blocked_share, 0.5, 1e-9);
  EXPECT_NEAR(both.obscured_share, 0.5, 1e-9);
}

TEST(Sight, OccludersBehindTheTargetOrTouchingTheLineDoNotCount) {
  // Behind the target's near face (y = 100), even overlapping the target: lines end at the near face first.
  EXPECT_NEAR(TraceSight(kEye, T, {{Rect(-200, 120, 200, 300), SightEffect::kBlocks, 1}}).clear_share, 1.0, 1e-12);
  EXPECT_NEAR(TraceSight(kEye, T, {{Rect(-200, 150, 200, 300), SightEffect::kBlocks, 1}}).clear_share, 1.0, 1e-12);
  // A base flush beside the eye's line (x = 0 exactly along the ray x = 0) does not hide anything.
  const SightResult graze = TraceSight({0, 0}, Rect(-10, 100, 10, 120), {{Rect(10, 0, 30, 200), SightEffect::kBlocks, 2}});
  EXPECT_NEAR(graze.clear_share, 1.0, 1e-9);
}

TEST(Sight, EyeInsideTarget) {
  const SightResult r = TraceSight({0, 120}, T, {{Rect(-200, 40, 200, 60), SightEffect::kBlocks, 1}});
  EXPECT_TRUE(r.eye_touches_target);
  EXPECT_TRUE(r.visible);
}

TEST(Sight, OptionsCheck) {
  std::string err;
  SightOptions o;
  EXPECT_TRUE(o.Check(&err));
  o.tolerance_mm = -1;
  EXPECT_FALSE(o.Check(&err));
  EXPECT_FALSE(err.empty());
}

}  // namespace
}  // namespace vedette::geom
