// SegmentLengthInsideConvex (the Cyrus-Beck clip lines of sight use on bases) against the general
// SegmentLengthInside: random convex polygons of both orientations and random segments, and the
// touching cases sight lines meet on a table: along an edge, through a corner, ending on the outline.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>

#include "rules/geometry/polygon.h"

namespace vedette::geom {
namespace {

// A convex polygon: `corners` points on an ellipse at sorted random angles, counter-clockwise.
Polygon RandomConvexForClip(std::mt19937& rng, int corners) {
  std::uniform_real_distribution<double> angle(0.0, 2.0 * std::numbers::pi), size(5.0, 80.0), at(-50.0, 50.0);
  std::vector<double> a(corners);
  for (double& x : a) x = angle(rng);
  std::sort(a.begin(), a.end());
  const double rx = size(rng), ry = size(rng), cx = at(rng), cy = at(rng);
  Polygon p;
  for (double x : a) p.push_back({cx + rx * std::cos(x), cy + ry * std::sin(x)});
  return p;
}

TEST(SegmentLengthInsideConvex, AgreesWithTheGeneralLengthOnRandomShapes) {
  std::mt19937 rng(18);
  std::uniform_real_distribution<double> at(-120.0, 120.0);
  std::uniform_int_distribution<int> corners(3, 8);
  int checked = 0;
  for (int shape = 0; shape < 400; ++shape) {
    Polygon p = RandomConvexForClip(rng, corners(rng));
    if (!IsConvex(p) || Area(p) < 1.0) continue;
    if (shape % 2) std::reverse(p.begin(), p.end());  // clockwise too
    for (int k = 0; k < 50; ++k) {
      const Segment s{{at(rng), at(rng)}, {at(rng), at(rng)}};
      EXPECT_NEAR(SegmentLengthInsideConvex(s, p), SegmentLengthInside(s, p), 1e-7) << shape << " " << k;
      ++checked;
    }
  }
  EXPECT_GT(checked, 10000);
}

TEST(SegmentLengthInsideConvex, TouchingAndGrazingCountAsTheGeneralLengthDoes) {
  const Polygon rect{{0, 0}, {40, 0}, {40, 20}, {0, 20}};  // a base, counter-clockwise
  const Polygon cw(rect.rbegin(), rect.rend());
  const std::vector<Segment> cases = {
      {{-10, 0}, {50, 0}},     // along the bottom edge: the boundary counts, 40 mm
      {{-10, 20}, {20, 20}},   // along the top edge, part of it: 20 mm
      {{-10, -10}, {10, 10}},  // through the corner (0, 0) into the base
      {{-10, 10}, {10, -10}},  // grazing the corner (0, 0) only: 0
      {{-10, 10}, {0, 10}},    // ending on the left edge: 0
      {{-10, 10}, {40, 10}},   // ending on the right edge: 40 mm
      {{5, 5}, {6, 6}},        // wholly inside
      {{20, 30}, {20, 21}},    // above, parallel to nothing: 0
      {{41, -5}, {41, 25}},    // beside the right edge, 1 mm off: 0
      {{40, -5}, {40, 25}},    // on the right edge: 20 mm
      {{3, 3}, {3, 3}},        // a point inside: 0 length
  };
  for (const Segment& s : cases) {
    EXPECT_NEAR(SegmentLengthInsideConvex(s, rect), SegmentLengthInside(s, rect), 1e-7) << s.a.transpose() << " " << s.b.transpose();
    EXPECT_NEAR(SegmentLengthInsideConvex(s, cw), SegmentLengthInside(s, cw), 1e-7) << s.a.transpose() << " " << s.b.transpose();
  }
  // The boundary's 1e-9 mm band may add a few nanometres: far below the 0.5 mm sight tolerance.
  EXPECT_NEAR(SegmentLengthInsideConvex(cases[0], rect), 40.0, 1e-7);
  EXPECT_NEAR(SegmentLengthInsideConvex(cases[3], rect), 0.0, 1e-7);
}

TEST(SegmentLengthInsideConvex, RotatedBasesAgreeNearTheSightTolerance) {
  // Lines skimming a turned base's corner, the lengths around the 0.5 mm sight tolerance.
  std::mt19937 rng(77);
  std::uniform_real_distribution<double> heading(0.0, 360.0), off(-1.0, 1.0);
  for (int k = 0; k < 2000; ++k) {
    const Base b{{100.0, 50.0}, heading(rng), 50.0, 25.0};
    const Polygon p = PolygonCcw(b);
    const Vec2 corner = p[k % 4], dir = (corner - b.centre_mm).normalized();
    const Vec2 along(-dir.y(), dir.x());
    const Vec2 touch = corner - (0.3 + 0.3 * off(rng)) * dir;
    const Segment s{touch - 200.0 * along, touch + 200.0 * along};
    EXPECT_NEAR(SegmentLengthInsideConvex(s, p), SegmentLengthInside(s, p), 1e-7) << k;
  }
}

}  // namespace
}  // namespace vedette::geom
