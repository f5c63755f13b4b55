// Frontage and area of a base inside a union of terrain polygons (rules/geometry/coverage.h).
#include <gtest/gtest.h>

#include <random>

#include "rules/geometry/coverage.h"
#include "tests/rules/geometry/geometry_test_util.h"

namespace vedette::geom {
namespace {

// B: 100 x 40 at (0, 0) facing +y: front edge from (-50, 20) to (50, 20), area 4000 mm^2.
using geometry_test::B;

using geometry_test::Rect;

TEST(Coverage, SegmentIntervals) {
  // Segment (0,0)-(10,0) through the square x 2..4 and x 6..8 of an L-free polygon: two pieces.
  const auto iv = SegmentIntervalsInside({{0, 0}, {10, 0}}, Rect(2, -1, 4, 1));
  ASSERT_EQ(iv.size(), 1u);
  EXPECT_NEAR(iv[0].first, 0.2, 1e-12);
  EXPECT_NEAR(iv[0].second, 0.4, 1e-12);
  // A concave U shape: the segment crosses both arms.
  const Polygon u{{0, -1}, {10, -1}, {10, 5}, {8, 5}, {8, 1}, {2, 1}, {2, 5}, {0, 5}};
  const auto two = SegmentIntervalsInside({{-1, 3}, {11, 3}}, u);
  ASSERT_EQ(two.size(), 2u);
  EXPECT_NEAR((two[0].second - two[0].first) * 12, 2.0, 1e-9);
  EXPECT_NEAR((two[1].second - two[1].first) * 12, 2.0, 1e-9);
}

TEST(Coverage, FrontageCountsOverlappingPiecesOnce) {
  // Two pieces over the front edge x -50..0 and x -20..10: union x -50..10 = 60 mm.
  EXPECT_NEAR(FrontageInsideAny(B, {Rect(-60, 0, 0, 30), Rect(-20, 10, 10, 40)}), 60.0, 1e-9);
  // Exactly half the frontage: the terrain edge on x = 0.
  EXPECT_NEAR(FrontageInsideAny(B, {Rect(0, 0, 100, 100)}), 50.0, 1e-9);
  // A piece whose boundary runs along the front edge counts the shared stretch.
  EXPECT_NEAR(FrontageInsideAny(B, {Rect(-10, 20, 10, 50)}), 20.0, 1e-9);
  EXPECT_NEAR(FrontageInsideAny(B, {}), 0.0, 1e-12);
}

TEST(Coverage, AreaInsideAnyByHand) {
  EXPECT_NEAR(AreaInsideAny(B, {Rect(0, -100, 100, 100)}), 2000.0, 1e-6);              // right half
  EXPECT_NEAR(AreaInsideAny(B, {Rect(0, -100, 100, 100), Rect(-10, -5, 20, 5)}), 2100.0, 1e-6);  // + 10 x 10 strip
  // A triangle with corners (-50,-20), (50,-20), (-50,20): half the base.
  EXPECT_NEAR(AreaInsideAny(B, {{{-50, -20}, {50, -20}, {-50, 20}}}), 2000.0, 1e-6);
  EXPECT_NEAR(AreaInsideAny(B, {Rect(200, 200, 300, 300)}), 0.0, 1e-12);
}

// Property: the union area agrees with a fine point count on random overlapping rectangles and
// triangles around a rotated base.
TEST(Coverage, AreaMatchesPointSampling) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> c(-60, 60), s(5, 50);
  const Base b{{3, -2}, 27, 80, 30};
  for (int trial = 0; trial < 20; ++trial) {
    std::vector<Polygon> polys;
    for (int k = 0; k < 3; ++k) {
      const double x = c(rng), y = c(rng);
      polys.push_back(Rect(x, y, x + s(rng), y + s(rng)));
      polys.push_back({{c(rng), c(rng)}, {c(rng), c(rng)}, {c(rng), c(rng)}});
    }
    int inside = 0, n = 0;
    for (double u = -40 + 0.25; u < 40; u += 0.5) {
      for (double v = -15 + 0.25; v < 15; v += 0.5) {
        ++n;
        const Vec2 p = ToTableFrame(b, {u, v});
        for (const Polygon& poly : polys) {
          if (PolygonContains(poly, p)) {
            ++inside;
            break;
          }
        }
      }
    }
    const double sampled = 2400.0 * inside / n;
    EXPECT_NEAR(AreaInsideAny(b, polys), sampled, 25.0) << "trial " << trial;
  }
}

}  // namespace
}  // namespace vedette::geom
