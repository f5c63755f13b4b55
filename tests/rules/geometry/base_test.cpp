// Base rectangles: corners, edges, leader point and frames, by hand.
#include <gtest/gtest.h>

#include "rules/geometry/base.h"

namespace vedette::geom {
namespace {

// A 40 x 20 mm base at (100, 50) facing player B (heading 90):
//
//        FL(80,60) ---- FR(120,60)      front edge, leader point (100,60)
//           |     (100,50)    |
//        RL(80,40) ---- RR(120,40)
TEST(Base, CornersFacingPlayerB) {
  const Base b{{100, 50}, 90, 40, 20};
  const auto c = Corners(b);
  EXPECT_NEAR(c[0].x(), 80, 1e-9);  EXPECT_NEAR(c[0].y(), 60, 1e-9);   // front-left
  EXPECT_NEAR(c[1].x(), 120, 1e-9); EXPECT_NEAR(c[1].y(), 60, 1e-9);   // front-right
  EXPECT_NEAR(c[2].x(), 120, 1e-9); EXPECT_NEAR(c[2].y(), 40, 1e-9);   // rear-right
  EXPECT_NEAR(c[3].x(), 80, 1e-9);  EXPECT_NEAR(c[3].y(), 40, 1e-9);   // rear-left
  const Vec2 lp = LeaderPoint(b);
  EXPECT_NEAR(lp.x(), 100, 1e-9);
  EXPECT_NEAR(lp.y(), 60, 1e-9);
}

// Facing +x (heading 0): the unit's right is -y.
TEST(Base, RightIsClockwiseOfForward) {
  const Base b{{0, 0}, 0, 40, 20};
  EXPECT_NEAR(Right(b).x(), 0, 1e-12);
  EXPECT_NEAR(Right(b).y(), -1, 1e-12);
  const Segment front = EdgeSegment(b, Edge::kFront);  // x = 10, from y = 20 (left) to y = -20 (right)
  EXPECT_NEAR(front.a.x(), 10, 1e-9);
  EXPECT_NEAR(front.a.y(), 20, 1e-9);
  EXPECT_NEAR(front.b.y(), -20, 1e-9);
}

TEST(Base, FramesRoundTrip) {
  const Base b{{321.5, -12.25}, 37.0, 40, 25};
  const Vec2 p(400.0, 10.0);
  const Vec2 q = ToTableFrame(b, ToBaseFrame(b, p));
  EXPECT_NEAR((p - q).norm(), 0.0, 1e-9);
}

TEST(Base, ContainsAndPolygonArea) {
  const Base b{{0, 0}, 30, 40, 20};
  EXPECT_TRUE(Contains(b, {0, 0}));
  EXPECT_TRUE(Contains(b, LeaderPoint(b)));
  EXPECT_FALSE(Contains(b, LeaderPoint(b) + Forward(b) * 0.01));
}

TEST(Angles, NormalizeDeg) {
  EXPECT_DOUBLE_EQ(NormalizeDeg(270), -90);
  EXPECT_DOUBLE_EQ(NormalizeDeg(-180), 180);
  EXPECT_DOUBLE_EQ(NormalizeDeg(540), 180);
  EXPECT_DOUBLE_EQ(NormalizeDeg(-30), -30);
}

}  // namespace
}  // namespace vedette::geom
