// Edge-to-edge and leader-point distances, by hand.
#include <gtest/gtest.h>

#include "rules/geometry/distance.h"
#include "rules/geometry/polygon.h"

namespace vedette::geom {
namespace {

// Two 40 x 20 bases facing each other across a 30 mm gap:
//   B (facing down)  y 80..100
//   A (facing up)    y 30..50
TEST(Distance, FaceToFace) {
  const Base a{{100, 40}, 90, 40, 20};
  const Base b{{100, 90}, -90, 40, 20};
  const ClosestPoints c = BaseToBase(a, b);
  EXPECT_NEAR(c.distance_mm, 30.0, 1e-9);
  EXPECT_FALSE(c.overlap);
  EXPECT_NEAR(c.on_a.y(), 50.0, 1e-9);
  EXPECT_NEAR(c.on_b.y(), 80.0, 1e-9);
  EXPECT_NEAR(LeaderToBase(a, b).distance_mm, 30.0, 1e-9);
}

// Corner to corner on the diagonal: A's front-right corner (120,50), B's rear-left (130,60).
TEST(Distance, CornerToCorner) {
  const Base a{{100, 40}, 90, 40, 20};
  const Base b{{150, 70}, 90, 40, 20};
  EXPECT_NEAR(BaseToBase(a, b).distance_mm, std::hypot(10.0, 10.0), 1e-9);
}

// A leader point measures from the middle of the front edge, not the nearest corner:
// A's leader point (100,50) to B's rear-left corner (130,60).
TEST(Distance, LeaderPointIsNotClosestPoint) {
  const Base a{{100, 40}, 90, 40, 20};
  const Base b{{150, 70}, 90, 40, 20};
  EXPECT_NEAR(LeaderToBase(a, b).distance_mm, std::hypot(30.0, 10.0), 1e-9);
  EXPECT_NEAR(LeaderToPoint(a, {100, 80}), 30.0, 1e-9);
}

TEST(Distance, OverlapIsZero) {
  const Base a{{0, 0}, 0, 40, 20};
  const Base b{{5, 5}, 45, 40, 20};
  const ClosestPoints c = BaseToBase(a, b);
  EXPECT_EQ(c.distance_mm, 0.0);
  EXPECT_TRUE(c.overlap);
}

TEST(Distance, TouchingEdgesIsZeroWithoutOverlap) {
  const Base a{{0, 0}, 90, 40, 20};
  const Base b{{40, 0}, 90, 40, 20};  // side by side, sharing the x = 20 line
  const ClosestPoints c = BaseToBase(a, b);
  EXPECT_NEAR(c.distance_mm, 0.0, 1e-9);
  EXPECT_FALSE(c.overlap);
}

TEST(Distance, SmallBaseInsideLargeOverlaps) {
  const Base big{{0, 0}, 0, 200, 200};
  const Base small{{10, 10}, 30, 20, 10};
  EXPECT_TRUE(BaseToBase(big, small).overlap);
  EXPECT_TRUE(BaseToBase(small, big).overlap);
}

TEST(Distance, BaseToPoint) {
  const Base a{{100, 40}, 90, 40, 20};  // x 80..120, y 30..50
  EXPECT_NEAR(BaseToPoint(a, {100, 60}).distance_mm, 10.0, 1e-9);
  EXPECT_NEAR(BaseToPoint(a, {130, 60}).distance_mm, std::hypot(10.0, 10.0), 1e-9);
  EXPECT_EQ(BaseToPoint(a, {100, 40}).distance_mm, 0.0);
}

TEST(Polygon, SegmentLengthInside) {
  const Polygon square{{0, 0}, {10, 0}, {10, 10}, {0, 10}};
  EXPECT_NEAR(SegmentLengthInside({{-5, 5}, {15, 5}}, square), 10.0, 1e-9);
  EXPECT_NEAR(SegmentLengthInside({{5, 5}, {15, 5}}, square), 5.0, 1e-9);
  EXPECT_NEAR(SegmentLengthInside({{20, 5}, {30, 5}}, square), 0.0, 1e-9);
  // A concave "U": the segment crosses both arms.
  const Polygon u{{0, 0}, {30, 0}, {30, 30}, {20, 30}, {20, 10}, {10, 10}, {10, 30}, {0, 30}};
  EXPECT_NEAR(SegmentLengthInside({{-5, 20}, {35, 20}}, u), 20.0, 1e-9);
}

}  // namespace
}  // namespace vedette::geom
