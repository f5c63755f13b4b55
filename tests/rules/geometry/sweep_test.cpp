// Moving bases: forward, pivots, swept ground and what a straight move runs into (rules/geometry/sweep.h).
#include <gtest/gtest.h>

#include "rules/geometry/sweep.h"
#include "tests/rules/geometry/geometry_test_util.h"

namespace vedette::geom {
namespace {

// B: 100 x 40 at (0, 0) facing +y; front edge y = 20 from x -50 to 50.
using geometry_test::B;

using geometry_test::Rect;

TEST(Sweep, MoveAndPivot) {
  const Base m = MovedForward(B, 30);
  EXPECT_NEAR(m.centre_mm.y(), 30, 1e-12);
  const Base p = PivotedAboutCentre(B, 90);
  EXPECT_NEAR(p.heading_deg, 180, 1e-12);
  EXPECT_NEAR(LeaderPoint(p).x(), -20, 1e-9);  // the front now faces -x, 20 mm from the centre
  EXPECT_NEAR(Area(SweptForward(B, 50)), 100 * 90, 1e-6);
}

TEST(Sweep, SweptBetweenCoversEveryIntermediatePose) {
  const Base to = PivotedAboutCentre(B, 60);
  const auto pieces = SweptBetween(B, to, 5);
  for (double f : {0.0, 0.3, 0.5, 1.0}) {
    const Base mid = PivotedAboutCentre(B, 60 * f);
    for (const Vec2& c : Corners(mid)) {
      bool in = false;
      for (const Polygon& p : pieces) in |= PolygonContains(p, c, 1e-6);
      EXPECT_TRUE(in) << "corner of the pose at " << 60 * f << " deg outside the swept ground";
    }
  }
}

TEST(Sweep, ContactAheadByHand) {
  // A wall y 100..120 across x -200..200: 80 mm ahead, the whole front edge touches.
  AheadContact c = ContactAhead(B, Rect(-200, 100, 200, 120));
  EXPECT_TRUE(c.ahead);
  EXPECT_NEAR(c.distance_mm, 80, 1e-9);
  EXPECT_NEAR(c.touch_length_mm, 100, 1e-9);
  // A diamond whose lowest point (30, 60) is ahead: touches a point of the front edge, not a corner.
  c = ContactAhead(B, {{30, 60}, {40, 70}, {30, 80}, {20, 70}});
  EXPECT_NEAR(c.distance_mm, 40, 1e-9);
  EXPECT_NEAR(c.point.x(), 30, 1e-9);
  EXPECT_FALSE(c.at_front_corner);
  // A diamond whose lowest point lies on the line of the right side: a corner touch.
  c = ContactAhead(B, {{50, 60}, {60, 70}, {50, 80}, {40, 70}});
  EXPECT_TRUE(c.at_front_corner);
  // Flush against the right side, beside the base: with a lane inset it is slid past.
  EXPECT_FALSE(ContactAhead(B, Rect(50, -20, 90, 200), 0.5).ahead);
  // Behind: not ahead.
  EXPECT_FALSE(ContactAhead(B, Rect(-10, -100, 10, -50)).ahead);
  // Already overlapping.
  EXPECT_TRUE(ContactAhead(B, Rect(-10, 0, 10, 50)).overlapping);
}

TEST(Sweep, ConvexHull) {
  const Polygon h = ConvexHull({{0, 0}, {2, 0}, {1, 1}, {2, 2}, {0, 2}, {1, 0.5}});
  EXPECT_EQ(h.size(), 4u);
  EXPECT_NEAR(Area(h), 4.0, 1e-12);
  EXPECT_GT(SignedArea(h), 0);
}

TEST(Sweep, OverlapArea) {
  EXPECT_NEAR(OverlapArea(B, Rect(0, 0, 100, 100)), 50 * 20, 1e-9);
  EXPECT_NEAR(OverlapArea(B, Rect(60, 0, 100, 100)), 0, 1e-9);
}

}  // namespace
}  // namespace vedette::geom
