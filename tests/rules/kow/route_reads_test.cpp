// A charge route's reads (kow::ChargeRoute::read_in, kow::RouteReads): an obstacle that stood clear of
// every pose the search tested and still does after a move leaves the route exactly as it was. The
// ruleset reuses a route on that rule between frames (kow_ruleset.cpp, Charge), so it is checked here
// against a new search over thousands of random tables, small moves and long ones.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "rules/geometry/base.h"
#include "rules/geometry/polygon.h"
#include "rules/geometry/sweep.h"
#include "rules/kow/charge.h"
#include "tests/rules/kow/kow_test_util.h"

namespace vedette {
namespace {

using kow_test::Rect;
using kow_test::Rng;
using kow_test::SameRoute;

TEST(RouteReads, AnObstacleClearOfThemBeforeAndAfterAMoveChangesNoRoute) {
  Rng r;
  int kept = 0, redone = 0, changed = 0;
  for (int k = 0; k < 1500; ++k) {
    // A charger facing up the table, a target somewhere ahead, and a crowd of other bases around them.
    const geom::Base charger = Rect({0, 0}, 90.0 + r.Uniform(-20, 20), r.Uniform(20, 120), r.Uniform(20, 60));
    const geom::Base target = Rect({r.Uniform(-150, 150), r.Uniform(60, 300)}, r.Uniform(-180, 180), r.Uniform(20, 120), r.Uniform(20, 60));
    std::vector<geom::Base> others;
    while (others.size() < 12) {
      const geom::Base o = Rect({r.Uniform(-250, 250), r.Uniform(-80, 380)}, r.Uniform(-180, 180), r.Uniform(20, 100), r.Uniform(20, 50));
      if ((o.centre_mm - charger.centre_mm).norm() > 70 && (o.centre_mm - target.centre_mm).norm() > 70) others.push_back(o);
    }
    auto route = [&]() {
      std::vector<geom::Polygon> obstacles;
      for (const geom::Base& o : others) obstacles.push_back(geom::PolygonCcw(o));
      return kow::FindChargeRoute(charger, target, geom::Edge::kFront, obstacles, 300.0);
    };
    const kow::ChargeRoute before = route();
    const kow::RouteReads reads(before.read_in);
    // One of them moves: a hand's nudge (3 mm), or across the table (up to 150 mm), maybe turned.
    geom::Base& moved = others[static_cast<size_t>(r.Uniform(0, 11.999))];
    const geom::Base was = moved;
    const double step = k % 2 ? 3.0 : 150.0;
    moved.centre_mm += geom::Vec2(r.Uniform(-step, step), r.Uniform(-step, step));
    if (k % 5 == 0) moved.heading_deg += r.Uniform(-45, 45);
    const kow::ChargeRoute after = route();
    if (!reads.MayReach(was) && !reads.MayReach(moved)) {
      ++kept;
      EXPECT_TRUE(SameRoute(before, after)) << "case " << k;
    } else {
      ++redone;
      changed += !SameRoute(before, after);
    }
  }
  // Both sides of the rule are exercised: routes kept, and routes a move into the reads did change.
  EXPECT_GT(kept, 500);
  EXPECT_GT(redone, 100);
  EXPECT_GT(changed, 10);
}

TEST(RouteReads, ABaseInsideOrTouchingABoxMayReachIt) {
  const kow::RouteReads reads({Rect({0, 0}, 0.0, 40.0, 100.0)});  // facing +x: x in [-50, 50], y in [-20, 20]
  EXPECT_TRUE(reads.MayReach(Rect({0, 0}, 0.0, 10.0, 10.0)));
  EXPECT_TRUE(reads.MayReach(Rect({0, 30}, 0.0, 20.0, 20.0)));   // circle radius 14.1 + 1 from y = 20
  EXPECT_FALSE(reads.MayReach(Rect({0, 36}, 0.0, 20.0, 20.0)));
  EXPECT_TRUE(reads.MayReach(Rect({60, 25}, 0.0, 20.0, 20.0)));  // near the corner (50, 20): 11.2 mm
  EXPECT_FALSE(reads.MayReach(Rect({62, 32}, 0.0, 20.0, 20.0))); // 16.97 mm from it
  EXPECT_FALSE(kow::RouteReads({}).MayReach(Rect({0, 0}, 0.0, 10.0, 10.0)));
}

// ApartFromBase says "no overlap, nothing ahead within the distance" only when OverlapArea and
// ContactAhead agree: random bases and quadrilaterals, many placed flush against a side or the front
// (touching), grazing a corner, or just past the distance ahead.
TEST(RouteReads, ApartFromBaseOnlyWhenOverlapAndContactAheadAgree) {
  Rng r;
  int apart = 0, near = 0;
  for (int k = 0; k < 20000; ++k) {
    const geom::Base b = Rect({r.Uniform(-5, 5), r.Uniform(-5, 5)}, r.Uniform(-180, 180), r.Uniform(10, 120), r.Uniform(10, 60));
    const double ahead = k % 3 ? r.Uniform(0, 100) : 0.0;
    const geom::Vec2 f = geom::Forward(b), right(f.y(), -f.x());
    geom::Base o = Rect(b.centre_mm, b.heading_deg, r.Uniform(5, 80), r.Uniform(5, 40));
    switch (k % 4) {
      case 0:  // anywhere around, any way turned
        o.centre_mm += geom::Vec2(r.Uniform(-150, 150), r.Uniform(-150, 150));
        o.heading_deg += r.Uniform(-180, 180);
        break;
      case 1:  // square to the base, flush against (or a hair off) its right side
        o.centre_mm += (b.width_mm / 2 + o.width_mm / 2 + r.Uniform(-1e-6, 1e-6) * (k % 8 == 1)) * right + r.Uniform(-60, 60) * f;
        break;
      case 2:  // square, its rear edge at the end of the distance ahead (or just past it)
        o.centre_mm += (b.depth_mm / 2 + ahead + o.depth_mm / 2 + (k % 8 == 2 ? 0.0 : r.Uniform(0, 1e-5))) * f + r.Uniform(-80, 80) * right;
        break;
      case 3:  // turned 45 degrees, a corner grazing the base's front right corner
        o.heading_deg += 45;
        o.centre_mm = geom::Corners(b)[0] + (std::hypot(o.width_mm, o.depth_mm) / 2 + r.Uniform(-1e-6, 1e-3)) * (f + right).normalized();
        break;
    }
    const geom::Polygon p = geom::PolygonCcw(o);
    if (!kow::ApartFromBase(b, p, ahead)) {
      ++near;
      continue;
    }
    ++apart;
    EXPECT_LE(geom::OverlapArea(b, p), 1e-9) << "case " << k;
    for (double inset : {0.0, 0.5}) {
      const geom::AheadContact c = geom::ContactAhead(b, p, inset);
      EXPECT_FALSE(c.overlapping) << "case " << k;
      EXPECT_TRUE(!c.ahead || c.distance_mm > ahead) << "case " << k << ": " << c.distance_mm << " vs " << ahead;
    }
  }
  EXPECT_GT(apart, 5000);
  EXPECT_GT(near, 2000);
}

bool SameContact(const geom::AheadContact& a, const geom::AheadContact& b) {
  return a.ahead == b.ahead && a.overlapping == b.overlapping && a.distance_mm == b.distance_mm && a.point == b.point &&
         a.touch_length_mm == b.touch_length_mm && a.at_front_corner == b.at_front_corner;
}

// The charge search hands ContactAhead the overlap it knows (ContactAheadGivenOverlap): 0 when the
// bounding circles or ApartFromBase show the two apart, else the OverlapArea it clipped. Random bases
// and quadrilaterals overlapping, flush, grazing and apart: the answer must be ContactAhead's.
TEST(RouteReads, ContactAheadGivenTheKnownOverlap) {
  Rng r;
  int apart = 0, clipped = 0, overlapping = 0;
  for (int k = 0; k < 20000; ++k) {
    const geom::Base b = Rect({0, 0}, r.Uniform(-180, 180), r.Uniform(10, 120), r.Uniform(10, 60));
    const geom::Vec2 f = geom::Forward(b), right(f.y(), -f.x());
    geom::Base o = Rect(b.centre_mm, b.heading_deg, r.Uniform(5, 80), r.Uniform(5, 40));
    if (k % 2) {  // square, flush against (or a hair into or off) the front or a side
      const double hair = r.Uniform(-1e-3, 1e-3) * (k % 4 == 1);
      o.centre_mm += k % 3 ? (b.depth_mm / 2 + o.depth_mm / 2 + hair) * f + r.Uniform(-60, 60) * right
                           : (b.width_mm / 2 + o.width_mm / 2 + hair) * right + r.Uniform(-40, 40) * f;
    } else {  // anywhere around, any way turned
      o.centre_mm += geom::Vec2(r.Uniform(-120, 120), r.Uniform(-120, 120));
      o.heading_deg += r.Uniform(-180, 180);
    }
    const geom::Polygon p = geom::PolygonCcw(o);
    const bool circles_apart = (o.centre_mm - b.centre_mm).norm() >
                               std::hypot(o.width_mm, o.depth_mm) / 2 + std::hypot(b.width_mm, b.depth_mm) / 2 + 1e-6;
    const bool known_apart = circles_apart || kow::ApartFromBase(b, p, 0.0);
    const double overlap = known_apart ? 0.0 : geom::OverlapArea(b, p);
    (known_apart ? apart : clipped) += 1;
    overlapping += overlap > 1.0;
    for (double inset : {0.0, 0.5})
      ASSERT_TRUE(SameContact(geom::ContactAheadGivenOverlap(b, p, inset, overlap), geom::ContactAhead(b, p, inset))) << "case " << k;
  }
  EXPECT_GT(apart, 5000);
  EXPECT_GT(clipped, 2000);
  EXPECT_GT(overlapping, 1000);
}

// EdgeOutOfReach says "no first touch within the tolerance of the edge" only when ContactAhead agrees:
// random bases and targets, many with the facing edge placed at the lane's side give or take a
// millimetre and the tolerance, turned beside the front corner with a corner just into the lane, or
// square with its rear edge just behind the front line and its side a hair into the lane.
TEST(RouteReads, EdgeOutOfReachOnlyWhenContactAheadAgrees) {
  Rng r;
  int out = 0, reached = 0;
  for (int k = 0; k < 20000; ++k) {
    const geom::Base b = Rect({0, 0}, r.Uniform(-180, 180), r.Uniform(10, 120), r.Uniform(10, 60));
    const geom::Vec2 f = geom::Forward(b), right(f.y(), -f.x());
    geom::Base t = Rect(b.centre_mm, b.heading_deg + (k % 3 ? r.Uniform(-180, 180) : 0.0), r.Uniform(20, 150), r.Uniform(10, 60));
    const double tol = k % 5 ? 1.0 : r.Uniform(0, 3);
    if (k % 6 == 3) {  // square, its rear edge just behind the front line, its side a hair into the lane
      t.heading_deg = b.heading_deg;
      t.centre_mm += (k % 12 == 3 ? 1 : -1) * (b.width_mm / 2 + t.width_mm / 2 - r.Uniform(0, 0.8)) * right +
                     (b.depth_mm / 2 + t.depth_mm / 2 - r.Uniform(0, 1.5)) * f;
    } else if (k % 6 == 0) {  // turned 45 degrees beside the front corner, a corner poking into the lane
      t.heading_deg = b.heading_deg + 45;
      const double reach = std::hypot(t.width_mm, t.depth_mm) / 2;
      t.centre_mm += (k % 12 ? 1 : -1) * (b.width_mm / 2 + reach / std::sqrt(2.0) - r.Uniform(0, 4)) * right +
                     (b.depth_mm / 2 + reach / std::sqrt(2.0) + r.Uniform(-3, 3)) * f;
    } else if (k % 2) {  // a corner of the target near the lane's side, ahead of the base
      const double side = (k % 4 == 1 ? 1 : -1) * (b.width_mm / 2 + r.Uniform(-2, 2) + (k % 8 < 4 ? tol : 0.0));
      t.centre_mm += side * right + (b.depth_mm / 2 + r.Uniform(0, 100)) * f;
    } else {  // anywhere ahead and around
      t.centre_mm += r.Uniform(-150, 150) * right + r.Uniform(-80, 200) * f;
    }
    const geom::Edge e = static_cast<geom::Edge>((k / 12) % 4);
    const geom::Segment edge = geom::EdgeSegment(t, e);
    const geom::AheadContact c = geom::ContactAhead(b, geom::PolygonCcw(t), 0.0);
    const bool touches = c.ahead && !c.overlapping && geom::PointToSegment(c.point, edge).distance_mm <= tol;
    reached += touches;
    if (!kow::EdgeOutOfReach(b, edge, tol)) continue;
    ++out;
    EXPECT_FALSE(touches) << "case " << k;
  }
  EXPECT_GT(out, 5000);
  EXPECT_GT(reached, 2000);
}

}  // namespace
}  // namespace vedette
