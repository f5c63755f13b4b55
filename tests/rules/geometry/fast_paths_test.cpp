// The geometry's shortcuts for hot loops (issue 18) give exactly what the plain computations give:
// clipping in fixed buffers and its fallback, remembered headings, BaseGap's bounding circles,
// SegmentLengthInside's box test, a sweep worked out once for many shapes, TotSK arc shares of a base
// clear of the unit by half-planes.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <random>
#include <vector>

#include "rules/geometry/arcs.h"
#include "rules/geometry/coverage.h"
#include "rules/geometry/distance.h"
#include "rules/geometry/polygon.h"
#include "rules/geometry/sweep.h"
#include "rules/kow/counter_charge.h"

namespace vedette::geom {
namespace {

// A star of `points` tips around (cx, cy): concave, 2 * points vertices, counter-clockwise.
Polygon Star(double cx, double cy, int points, double r_out, double r_in) {
  Polygon p;
  for (int i = 0; i < 2 * points; ++i) {
    const double a = i * std::numbers::pi / points, r = i % 2 ? r_in : r_out;
    p.push_back({cx + r * std::cos(a), cy + r * std::sin(a)});
  }
  return p;
}

// A base centred within 150 mm of the origin (each axis), any heading, width and depth 10..80 mm.
Base RandomBaseAroundOrigin(std::mt19937& rng) {
  std::uniform_real_distribution<double> pos(-150, 150), heading(-180, 180), size(10, 80);
  return {{pos(rng), pos(rng)}, heading(rng), size(rng), size(rng)};
}

TEST(FastPaths, OverlapAreaInFixedBuffersIsTheClippedArea) {
  std::mt19937 rng(7);
  int overlapping = 0;
  for (int n = 0; n < 400; ++n) {
    const Base b = RandomBaseAroundOrigin(rng);
    // 6 tips: 12 vertices, clipped on the stack; 40 tips: 80 vertices, clipped in Polygons.
    for (int tips : {6, 40}) {
      const Polygon star = Star(0, 0, tips, 120, 45);
      const double expected = Area(ClipConvex(star, PolygonCcw(b)));
      EXPECT_EQ(OverlapArea(b, star), expected) << "tips " << tips << " case " << n;
      overlapping += expected > 0;
    }
  }
  EXPECT_GT(overlapping, 200);  // the cases exercise real overlaps, not only misses
}

TEST(FastPaths, FixedPolygonSaysWhenItOverflows) {
  FixedPolygon<4> p;
  for (int i = 0; i < 4; ++i) p.push_back({double(i), 0});
  EXPECT_FALSE(p.overflowed);
  p.push_back({9, 9});
  EXPECT_TRUE(p.overflowed);
  EXPECT_EQ(p.size(), 4u);
  p.clear();
  EXPECT_TRUE(p.overflowed);  // kept until the list is made again: a clip chain cannot lose it
}

TEST(FastPaths, ContactAheadOfALargeShapeMatchesTheSameShapeSmall) {
  // A wall ahead drawn with 4 corners and with 60 points along its outline: the same contact.
  const Base b{{0, 0}, 90, 100, 40};
  const Polygon wall{{-200, 100}, {200, 100}, {200, 120}, {-200, 120}};
  Polygon dense;
  for (int i = 0; i < 30; ++i) dense.push_back({-200 + 400.0 * i / 30, 100});
  for (int i = 0; i < 30; ++i) dense.push_back({200 - 400.0 * i / 30, 120});
  const AheadContact a = ContactAhead(b, wall), d = ContactAhead(b, dense);
  ASSERT_TRUE(a.ahead && d.ahead);
  EXPECT_NEAR(a.distance_mm, 80, 1e-9);
  EXPECT_NEAR(d.distance_mm, 80, 1e-9);
  EXPECT_NEAR(d.touch_length_mm, a.touch_length_mm, 1e-9);
  EXPECT_NEAR((d.point - a.point).norm(), 0, 1e-9);
}

TEST(FastPaths, RememberedHeadingsAreTheSinesAndCosines) {
  // Alternating and repeating headings, as a charge search asks for them; -0 and 0 kept apart.
  for (int round = 0; round < 3; ++round) {
    for (double h : {0.0, -0.0, 37.5, 0.0, 37.5, -112.25, 180.0, -180.0, 1e-300, 37.5}) {
      const Vec2 v = HeadingVector(h);
      const double r = DegToRad(h);
      EXPECT_EQ(v.x(), std::cos(r)) << h;
      EXPECT_EQ(v.y(), std::sin(r)) << h;
      EXPECT_EQ(std::signbit(v.y()), std::signbit(std::sin(r))) << h;
    }
  }
  EXPECT_TRUE(std::isnan(HeadingVector(NAN).x()));
  // The NaN whose bits mark an empty slot, and more headings than slots, asked again in another
  // order: slots shared by two headings must answer each with its own.
  EXPECT_TRUE(std::isnan(HeadingVector(std::bit_cast<double>(~uint64_t{0})).y()));
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> deg(-180.0, 180.0);
  std::vector<double> headings(3000);
  for (double& h : headings) h = deg(rng);
  for (int round = 0; round < 2; ++round) {
    for (double h : headings) {
      const Vec2 v = HeadingVector(h);
      ASSERT_EQ(v.x(), std::cos(DegToRad(h))) << h;
      ASSERT_EQ(v.y(), std::sin(DegToRad(h))) << h;
    }
    std::shuffle(headings.begin(), headings.end(), rng);
  }
}

TEST(FastPaths, BaseGapMatchesTheClosestPointsOfTheOutlines) {
  std::mt19937 rng(11);
  int apart = 0, touching = 0;
  for (int n = 0; n < 2000; ++n) {
    const Base a = RandomBaseAroundOrigin(rng), b = RandomBaseAroundOrigin(rng);
    const ClosestPoints c = PolygonToPolygon(PolygonCcw(a), PolygonCcw(b));
    const double expected = c.overlap ? 0.0 : c.distance_mm;
    EXPECT_NEAR(BaseGap(a, b), expected, 1e-9) << n;
    (expected > 0 ? apart : touching)++;
  }
  // Bases side by side, flush: 0, though their bounding circles overlap and no corner is inside.
  EXPECT_EQ(BaseGap({{0, 0}, 90, 40, 20}, {{40, 0}, 90, 40, 20}), 0.0);
  EXPECT_NEAR(BaseGap({{0, 0}, 90, 40, 20}, {{40.5, 0}, 90, 40, 20}), 0.5, 1e-12);
  EXPECT_GT(apart, 500);
  EXPECT_GT(touching, 100);
}

// Two bases' outlines measured in fixed buffers (PolygonToPolygon of two quadrilaterals, whose shared
// area is clipped without a vector when they touch) give what the same outlines as polygons give, to
// the bit: apart, flush along an edge or a corner, and overlapping by a little or a lot.
TEST(FastPaths, TwoBasesMeasureAsTheirOutlinesAsPolygons) {
  std::mt19937 rng(13);
  std::uniform_real_distribution<double> nudge(-0.5, 0.5);
  int overlapping = 0, flush = 0;
  auto expect_same = [&](const Base& a, const Base& b, int n) {
    const ClosestPoints quad = PolygonToPolygon(CornersCcw(a), CornersCcw(b));
    const ClosestPoints poly = PolygonToPolygon(PolygonCcw(a), PolygonCcw(b));
    ASSERT_EQ(quad.distance_mm, poly.distance_mm) << n;
    ASSERT_EQ(quad.overlap, poly.overlap) << n;
    ASSERT_EQ(quad.on_a, poly.on_a) << n;
    ASSERT_EQ(quad.on_b, poly.on_b) << n;
    overlapping += poly.overlap;
    flush += !poly.overlap && poly.distance_mm == 0.0;
  };
  for (int n = 0; n < 3000; ++n) {
    const Base a = RandomBaseAroundOrigin(rng);
    expect_same(a, RandomBaseAroundOrigin(rng), n);
    // Beside a along its right edge, flush or a fraction of a millimetre in or out, maybe turned a little.
    Base b = a;
    b.width_mm = 10 + 70 * (nudge(rng) + 0.5);
    const double gap = n % 3 == 0 ? 0.0 : nudge(rng);
    b.centre_mm = a.centre_mm + Right(a) * ((a.width_mm + b.width_mm) / 2.0 + gap) + Forward(a) * (20 * nudge(rng));
    if (n % 5 == 0) b.heading_deg += nudge(rng);
    expect_same(a, b, n);
  }
  EXPECT_GT(overlapping, 1000);
  EXPECT_GT(flush, 200);
  // Crossed outlines (not bases): the general steps answer, and both ways agree.
  const std::array<Vec2, 4> bow{Vec2(0, 0), Vec2(10, 10), Vec2(10, 0), Vec2(0, 10)};
  const std::array<Vec2, 4> square{Vec2(2, 2), Vec2(8, 2), Vec2(8, 8), Vec2(2, 8)};
  const Polygon bow_polygon(bow.begin(), bow.end()), square_polygon(square.begin(), square.end());
  EXPECT_EQ(PolygonToPolygon(bow, square).overlap, PolygonToPolygon(bow_polygon, square_polygon).overlap);
  EXPECT_TRUE(PolygonToPolygon(square, bow).overlap == PolygonToPolygon(square_polygon, bow_polygon).overlap);
}

// An edge is worked out without the other two corners, by the same sums: Corners' pair to the bit.
TEST(FastPaths, AnEdgeIsTwoOfTheCorners) {
  std::mt19937 rng(14);
  for (int n = 0; n < 2000; ++n) {
    const Base b = RandomBaseAroundOrigin(rng);
    const auto c = Corners(b);
    const std::pair<Edge, std::pair<int, int>> edges[] = {
        {Edge::kFront, {0, 1}}, {Edge::kRight, {1, 2}}, {Edge::kRear, {2, 3}}, {Edge::kLeft, {3, 0}}};
    for (const auto& [edge, ends] : edges) {
      const Segment s = EdgeSegment(b, edge);
      ASSERT_EQ(s.a, c[ends.first]) << n;
      ASSERT_EQ(s.b, c[ends.second]) << n;
    }
  }
}

TEST(FastPaths, BasesWithinAnswersAsTheExactDistance) {
  // Limits far from the distance and within a few micrometres of it, on both sides and exactly at it:
  // the answer is BaseToBase's comparison every time.
  std::mt19937 rng(12);
  int near_limit = 0;
  for (int n = 0; n < 2000; ++n) {
    const Base a = RandomBaseAroundOrigin(rng), b = RandomBaseAroundOrigin(rng);
    const double d = BaseToBase(a, b).distance_mm;
    for (double off : {-50.0, -1e-3, -2e-6, -1e-7, 0.0, 1e-7, 2e-6, 1e-3, 50.0}) {
      EXPECT_EQ(BasesWithin(a, b, d + off), d <= d + off) << n << " " << off;
      near_limit += std::abs(off) < 1e-5;
    }
  }
  EXPECT_GT(near_limit, 8000);
}

TEST(FastPaths, SegmentLengthInsideByHand) {
  const Polygon square{{0, 0}, {10, 0}, {10, 10}, {0, 10}};
  EXPECT_NEAR(SegmentLengthInside({{-5, 5}, {15, 5}}, square), 10, 1e-12);
  EXPECT_NEAR(SegmentLengthInside({{2, 5}, {8, 5}}, square), 6, 1e-12);
  EXPECT_EQ(SegmentLengthInside({{-5, 20}, {15, 20}}, square), 0.0);  // boxes apart
  EXPECT_EQ(SegmentLengthInside({{-5, 30}, {30, -5}}, square), 0.0);  // boxes overlap, the segment misses
  // Along an edge: on the boundary counts as inside.
  EXPECT_NEAR(SegmentLengthInside({{0, 0}, {10, 0}}, square), 10, 1e-12);
  // A 40-point outline (the length list on the heap) gives the same as the square.
  Polygon dense;
  for (int i = 0; i < 10; ++i) dense.push_back({i * 1.0, 0});
  for (int i = 0; i < 10; ++i) dense.push_back({10, i * 1.0});
  for (int i = 0; i < 10; ++i) dense.push_back({10 - i * 1.0, 10});
  for (int i = 0; i < 10; ++i) dense.push_back({0, 10 - i * 1.0});
  EXPECT_NEAR(SegmentLengthInside({{-5, 5.5}, {15, 4.5}}, dense), SegmentLengthInside({{-5, 5.5}, {15, 4.5}}, square), 1e-9);
}

TEST(FastPaths, BoxesAndTheirMargins) {
  const Box square = BoxOf(Polygon{{0, 0}, {10, 0}, {10, 10}, {0, 10}});
  EXPECT_EQ(square.lo, Vec2(0, 0));
  EXPECT_EQ(square.hi, Vec2(10, 10));
  EXPECT_EQ(BoxOf(Segment{{5, -2}, {-3, 4}}).lo, Vec2(-3, -2));
  const Box base = BoxOf(Base{{0, 0}, 0.0, 40, 20});  // heading 0 faces +x: 20 deep in x, 40 wide in y
  EXPECT_NEAR(base.hi.x() - base.lo.x(), 20, 1e-9);
  EXPECT_NEAR(base.hi.y() - base.lo.y(), 40, 1e-9);
  const Box right{{12, 3}, {14, 4}};  // 2 mm to the right of the square
  EXPECT_TRUE(square.Apart(right));
  EXPECT_TRUE(right.Apart(square));
  EXPECT_TRUE(square.Apart(right, 1.9));
  EXPECT_FALSE(square.Apart(right, 2.1));
  EXPECT_FALSE(square.Apart(Box{{10, 10}, {11, 11}}));  // corners touch: not apart
}

// Frontages in bad going (SegmentIntervalsInside, with its box test) against the length of the
// segment inside the polygon counted point by point.
TEST(FastPaths, SegmentIntervalsInsideMatchesPointsAlongTheSegment) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> pos(-200, 200);
  const Polygon star = Star(0, 0, 5, 120, 50);
  int inside = 0;
  for (int n = 0; n < 300; ++n) {
    const Segment s{{pos(rng), pos(rng)}, {pos(rng), pos(rng)}};
    double length = 0.0;
    for (const auto& [t0, t1] : SegmentIntervalsInside(s, star)) length += (t1 - t0) * s.Length();
    constexpr int kSteps = 4000;
    int in = 0;
    for (int k = 0; k < kSteps; ++k) in += PolygonContains(star, s.a + (k + 0.5) / kSteps * (s.b - s.a));
    EXPECT_NEAR(length, s.Length() * in / kSteps, 6 * s.Length() / kSteps) << "segment " << n;
    inside += length > 0;
  }
  EXPECT_GT(inside, 50);
  EXPECT_LT(inside, 280) << "some segments miss the star's box";
}

// The TotSK shares of a base clear of the unit (clipped by half-planes) are the areas of the base in
// each arc region as ArcRegion draws it; bases straddling the arc lines are most of these pairs.
TEST(FastPaths, TotskSharesOfAClearBaseAreTheAreasInTheArcRegions) {
  std::mt19937 rng(11);
  int clear = 0, straddling = 0;
  for (int n = 0; n < 3000; ++n) {
    const Base unit{{0, 0}, std::uniform_real_distribution<double>(-180, 180)(rng), 40, 20};
    const Base other = RandomBaseAroundOrigin(rng);
    if (BaseGap(unit, other) <= 0.0) continue;
    ++clear;
    const ArcShares s = ArcSharesOf(unit, other, ArcModel::kTotsk);
    const Polygon poly = PolygonCcw(other);
    const double total = Area(poly);
    int arcs_holding = 0;
    for (Arc a : {Arc::kFront, Arc::kLeftFlank, Arc::kRightFlank, Arc::kRear}) {
      double area = 0.0;
      for (const Polygon& piece : ArcRegion(unit, a, ArcModel::kTotsk, 2000.0)) area += Area(ClipConvex(poly, piece));
      EXPECT_NEAR(s[a], area / total, 1e-9) << "pair " << n << ", arc " << ToString(a);
      arcs_holding += s[a] > 1e-6;
    }
    straddling += arcs_holding > 1;
    EXPECT_NEAR(s[Arc::kFront] + s[Arc::kLeftFlank] + s[Arc::kRightFlank] + s[Arc::kRear], 1.0, 1e-9);
  }
  EXPECT_GT(clear, 2000);
  EXPECT_GT(straddling, 200) << "the half-plane path was taken";
}

TEST(FastPaths, OneSweepServesEveryShape) {
  const Base from{{0, 0}, 90, 100, 40};
  const Base to = PivotedAboutCentre(MovedForward(from, 60), 40);
  const kow::SweptGround ground = kow::SweepOf(from, to);
  ASSERT_EQ(ground.pieces.size(), ground.boxes.size());
  const std::vector<Polygon> shapes{Star(0, 60, 5, 30, 12), Star(400, 400, 5, 30, 12), PolygonCcw({{90, 60}, 0, 40, 40})};
  for (const Polygon& s : shapes) EXPECT_EQ(kow::SweptOverlapArea(ground, s), kow::SweptOverlapArea(from, to, s));
  EXPECT_GT(kow::SweptOverlapArea(ground, shapes[0]), 100.0);
  EXPECT_EQ(kow::SweptOverlapArea(ground, shapes[1]), 0.0);  // far away: its box misses every piece
}

}  // namespace
}  // namespace vedette::geom
