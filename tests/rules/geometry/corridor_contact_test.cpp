// Zone of control / straight-ahead corridors, rear support area, contact and frontage in terrain.
#include <gtest/gtest.h>

#include <random>

#include "rules/geometry/contact.h"
#include "rules/geometry/corridor.h"
#include "tests/rules/geometry/geometry_test_util.h"

namespace vedette::geom {
namespace {

// U: 40 x 20 at the origin facing +y; its front edge is y = 10, x -20..20. 1 BW = 40 mm, so the zone
// of control is x -20..20, y 10..50.
using geometry_test::U;

TEST(Corridor, ZoneOfControlDepthAndWidth) {
  const Base inside{{0, 55}, -90, 40, 20};   // rear... front edge at y = 45: 35 mm out
  const CorridorHit h = InCorridor(U, Edge::kFront, 40, inside);
  EXPECT_TRUE(h.inside);
  EXPECT_NEAR(h.reach_mm, 35.0, 1e-9);
  EXPECT_NEAR(h.margin_mm, 5.0, 1e-9);

  const Base beyond{{0, 65}, -90, 40, 20};  // nearest edge at y = 55: 45 mm out, 5 mm beyond
  const CorridorHit b = InCorridor(U, Edge::kFront, 40, beyond);
  EXPECT_FALSE(b.inside);
  EXPECT_NEAR(b.reach_mm, 45.0, 1e-9);
  EXPECT_NEAR(b.margin_mm, -5.0, 1e-9);

  const Base exactly{{0, 60}, -90, 40, 20};  // nearest edge at y = 50: exactly 1 BW counts as within
  EXPECT_TRUE(InCorridor(U, Edge::kFront, 40, exactly).inside);

  const Base beside{{41, 30}, 90, 40, 20};  // x 21..61: not in line with the front edge
  EXPECT_FALSE(InCorridor(U, Edge::kFront, 40, beside).inside);
  const Base flush{{40, 30}, 90, 40, 20};  // x 20..60: flush with the corridor's side line only
  EXPECT_FALSE(InCorridor(U, Edge::kFront, 40, flush).inside);
  const Base overlapping{{39, 30}, 90, 40, 20};  // 1 mm of it in line
  EXPECT_TRUE(InCorridor(U, Edge::kFront, 40, overlapping).inside);
}

TEST(Corridor, BaseInContactWithFrontIsInside) {
  const Base touching{{0, 20}, -90, 40, 20};  // its front edge on U's front edge
  EXPECT_TRUE(InCorridor(U, Edge::kFront, 40, touching).inside);
}

TEST(Corridor, RearSupportArea) {
  const Base supporter{{10, -25}, 90, 40, 20};  // y -35..-15: 5 mm behind the rear edge y = -10
  const CorridorHit h = InCorridor(U, Edge::kRear, 40, supporter);
  EXPECT_TRUE(h.inside);
  EXPECT_NEAR(h.reach_mm, 5.0, 1e-9);
  EXPECT_FALSE(InCorridor(U, Edge::kFront, 40, supporter).inside);
}

TEST(Corridor, PolygonIsSweptFromEdge) {
  const Polygon z = Corridor(U, Edge::kFront, 40);
  EXPECT_NEAR(Area(z), 40.0 * 40.0, 1e-9);
  EXPECT_TRUE(PolygonContains(z, {0, 30}));
  EXPECT_FALSE(PolygonContains(z, {0, 5}));
}

// The quick yes/no must agree with the full measurement everywhere, including bases flush with the
// corridor's sides, touching its edge, or just past its far end (positions snapped to a 0.5 mm grid
// and headings to 15 deg so those boundary cases actually occur).
TEST(Corridor, InsideCorridorAgreesWithInCorridor) {
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> pos(-160, 160), ang(0, 23), size(20, 100);
  int inside = 0, trials = 0;
  for (Edge edge : {Edge::kFront, Edge::kRight, Edge::kRear, Edge::kLeft})
    for (double depth : {0.0, 20.0, 40.0, 120.0})
      for (double tol : {0.0, 0.5, 2.0})
        for (int i = 0; i < 150; ++i) {
          const Base other{{pos(rng) * 0.5, pos(rng) * 0.5}, ang(rng) * 15.0, size(rng) * 0.5, size(rng) * 0.25};
          const bool full = InCorridor(U, edge, depth, other, tol).inside;
          EXPECT_EQ(InsideCorridor(U, edge, depth, other, tol), full)
              << "edge " << ToString(edge) << " depth " << depth << " tol " << tol << " other at ("
              << other.centre_mm.x() << ", " << other.centre_mm.y() << ") heading " << other.heading_deg;
          inside += full;
          ++trials;
        }
  EXPECT_GT(inside, trials / 10);      // both answers are exercised
  EXPECT_LT(inside, trials * 9 / 10);
}

// The same away from the origin (table coordinates of a metre and more, where the clip's rounding
// is largest) with continuous positions and headings, and with bases placed so that one corner lies
// a hair (1e-4 to 1e-2 mm) inside or outside a corridor side: the quick yes for a corner inside must
// never say yes where the clip finds nothing.
TEST(Corridor, InsideCorridorAgreesWithInCorridorOnTheTableAndAtHairlineCorners) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> pos(-80.0, 80.0), ang(0.0, 360.0), size(5.0, 60.0), hair(-1e-2, 1e-2);
  const Vec2 origin{1700.0, 1150.0};
  const Base unit{origin, 33.0, 40.0, 20.0};
  int trials = 0, inside = 0;
  for (Edge edge : {Edge::kFront, Edge::kRight, Edge::kRear, Edge::kLeft})
    for (double depth : {10.0, 40.0})
      for (int i = 0; i < 400; ++i) {
        Base other{origin + Vec2(pos(rng), pos(rng)), ang(rng), size(rng), size(rng)};
        if (i % 2) {
          // Move the base so that its first corner sits a hair from the corridor's near end line.
          const Polygon zone = Corridor(unit, edge, depth);
          const Vec2 corner = Corners(other)[0], target = zone[i % 4];
          other.centre_mm += target - corner + Vec2(hair(rng), hair(rng));
        }
        const double tol = (i % 3) * 0.5;
        const bool full = InCorridor(unit, edge, depth, other, tol).inside;
        ASSERT_EQ(InsideCorridor(unit, edge, depth, other, tol), full)
            << "edge " << ToString(edge) << " depth " << depth << " tol " << tol << " trial " << i;
        inside += full;
        ++trials;
      }
  EXPECT_GT(inside, trials / 20);
}

TEST(Contact, FrontToFrontWithinTolerance) {
  const Base enemy{{0, 21.5}, -90, 40, 20};  // 1.5 mm gap
  const Contact c = FindContact(U, enemy);
  EXPECT_TRUE(c.in_contact);
  EXPECT_EQ(c.edge_a, Edge::kFront);
  EXPECT_EQ(c.edge_b, Edge::kFront);
  EXPECT_NEAR(c.shared_mm, 40.0, 1e-9);
  EXPECT_NEAR(c.gap_mm, 1.5, 1e-9);
  EXPECT_FALSE(FindContact(U, {{0, 22.5}, -90, 40, 20}).in_contact);  // 2.5 mm: no
}

TEST(Contact, FlankAttack) {
  // Enemy facing +x with its front edge on U's left edge (x = -20), offset so 30 mm overlap.
  const Base enemy{{-30, 5}, 0, 40, 20};  // front edge x = -20, y -15..25; U's left edge y -10..10
  const Contact c = FindContact(U, enemy);
  EXPECT_TRUE(c.in_contact);
  EXPECT_EQ(c.edge_a, Edge::kLeft);
  EXPECT_EQ(c.edge_b, Edge::kFront);
  EXPECT_NEAR(c.shared_mm, 20.0, 1e-9);  // U's left edge is only 20 mm long
  EXPECT_FALSE(c.corner_only);
}

TEST(Contact, CornerToCorner) {
  const Base e{{40, 20}, 90, 40, 20};  // rear-left corner (20,10) on U's front-right corner
  const Contact c = FindContact(U, e);
  EXPECT_TRUE(c.in_contact);
  EXPECT_TRUE(c.corner_only);
  EXPECT_EQ(c.shared_mm, 0.0);
}

TEST(Contact, RearContact) {
  const Base e{{5, -20}, 90, 40, 20};  // its front edge on U's rear edge
  const Contact c = FindContact(U, e);
  EXPECT_EQ(c.edge_a, Edge::kRear);
  EXPECT_EQ(c.edge_b, Edge::kFront);
  EXPECT_NEAR(c.shared_mm, 35.0, 1e-9);
}

TEST(Terrain, FrontageInside) {
  // A wood covering x >= 0: exactly half of U's 40 mm frontage.
  const Polygon wood{{0, -100}, {100, -100}, {100, 100}, {0, 100}};
  EXPECT_NEAR(FrontageInside(U, wood), 20.0, 1e-9);
}

}  // namespace
}  // namespace vedette::geom
