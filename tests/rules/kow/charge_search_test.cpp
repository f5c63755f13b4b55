// The charge search's shortcuts must leave out only poses its exact tests would refuse. InLaneSpan
// (rules/kow/charge.h) picks, for one pivot angle, the pivot points whose pose may have the target in
// its lane; the search visits only those: every pivot point of random searches is put through the
// search's own lane test, with targets placed a nanometre either side of the lane's edges. And the
// routes found with all the shortcuts (ChargeOptions::shortcuts) are those found testing every pose.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdint>
#include <vector>

#include "rules/geometry/base.h"
#include "rules/geometry/distance.h"
#include "rules/geometry/polygon.h"
#include "rules/kow/charge.h"
#include "tests/rules/kow/kow_test_util.h"

namespace vedette {
namespace {

using kow_test::Rect;
using kow_test::Rng;
using kow_test::SameRoute;

// FindChargeRouteByRef's test, word for word: the circle lies beside the lane of the pose (the
// charger moved `a` along f0 and turned to fa) or behind it.
bool PoseOutsideLane(const geom::Base& charger, const geom::Vec2& f0, const geom::Vec2& fa, double a, const geom::Vec2& c, double r) {
  geom::Base pivoted = charger;
  pivoted.centre_mm += a * f0;
  const geom::Vec2 ra{fa.y(), -fa.x()};
  const geom::Vec2 d = c - pivoted.centre_mm;
  return std::abs(d.dot(ra)) > pivoted.width_mm / 2.0 + r + 1e-6 || d.dot(fa) < -pivoted.depth_mm / 2.0 - r - 1e-6;
}

TEST(ChargeSearch, PivotPointsLeftOutHaveTheTargetOutsideTheLane) {
  Rng rng{0x2545F4914F6CDD1Dull};
  long kept = 0, left_out = 0, on_edge_kept = 0;
  for (int k = 0; k < 20000; ++k) {
    geom::Base charger;
    charger.centre_mm = {rng.Uniform(0, 1800), rng.Uniform(0, 1200)};
    charger.heading_deg = k % 7 == 0 ? 90.0 * (k % 4) : rng.Uniform(-180, 180);
    charger.width_mm = rng.Uniform(20, 160), charger.depth_mm = rng.Uniform(20, 80);
    const geom::Vec2 f0 = geom::Forward(charger);
    const double angle = k % 5 == 0 ? 0.0 : 3.0 * std::round(rng.Uniform(-30, 30));
    const geom::Vec2 fa = geom::HeadingVector(charger.heading_deg + angle);
    const double step = 10.0, first_leg = rng.Uniform(0, 400);
    const int steps = static_cast<int>(std::floor(first_leg / step));
    double r = rng.Uniform(5, 90);
    geom::Vec2 c = charger.centre_mm + rng.Uniform(-500, 500) * geom::Vec2(1, 0) + rng.Uniform(-500, 500) * geom::Vec2(0, 1);
    if (k % 2) {
      // On an edge of the lane, or the line behind the base, of one pose: a nanometre in or out.
      const double a = (k % 6 == 1 ? rng.Uniform(0, first_leg) : step * std::floor(rng.Uniform(0, steps + 1)));
      const geom::Vec2 centre = charger.centre_mm + a * f0, ra{fa.y(), -fa.x()};
      const double nm = rng.Uniform(-1e-6, 1e-6);
      if (k % 4 == 1) c = centre + (k % 8 == 1 ? 1 : -1) * (charger.width_mm / 2 + r + 1e-6 + nm) * ra + rng.Uniform(-50, 300) * fa;
      else c = centre - (charger.depth_mm / 2 + r + 1e-6 + nm) * fa + rng.Uniform(-charger.width_mm, charger.width_mm) * ra;
    }
    const kow::PoseSpan span = kow::InLaneSpan(charger, f0, fa, c, r, first_leg, step, steps);
    for (int i = 0; i <= steps + 1; ++i) {
      const double a = i <= steps ? i * step : first_leg;
      const bool outside = PoseOutsideLane(charger, f0, fa, a, c, r);
      if (i >= span.first && i <= span.last) {
        ++kept;
        on_edge_kept += (k % 2) && !outside;
        continue;
      }
      ++left_out;
      ASSERT_TRUE(outside) << "case " << k << ", pivot point " << i << " left out of [" << span.first << ", " << span.last << "]";
    }
  }
  // Most pivot points are left out, and targets just inside an edge are kept.
  EXPECT_GT(left_out, 2 * kept);
  EXPECT_GT(on_edge_kept, 5000);
}

// Crowded random tables: a charger, a target ahead within reach or a little beyond, and up to thirty
// bases round and between them (many of them screening the target). The route found with the
// shortcuts is the one found testing every pose in full, to the bit, and each facing of the target
// is tried. Routes found, not found, and shortcuts taken are all common.
TEST(ChargeSearch, TheShortcutsFindTheRouteEveryPoseFinds) {
  Rng rng{0x2545F4914F6CDD1Dull};
  int found = 0, not_found = 0, refused_early = 0;
  for (int k = 0; k < 2000; ++k) {
    const geom::Base charger = Rect({0, 0}, rng.Uniform(-180, 180), rng.Uniform(40, 120), rng.Uniform(20, 60));
    const geom::Vec2 f = geom::Forward(charger), r(f.y(), -f.x());
    const double reach = rng.Uniform(150, 400);
    const geom::Base target = Rect(rng.Uniform(0.3, 1.1) * reach * f + rng.Uniform(-0.5, 0.5) * reach * r,
                                   rng.Uniform(-180, 180), rng.Uniform(40, 120), rng.Uniform(20, 60));
    std::vector<geom::Polygon> obstacles;
    const int n = static_cast<int>(rng.Uniform(0, 30));
    for (int i = 0; i < n; ++i) {
      // Most between the two, the rest anywhere near.
      const double t = rng.Uniform(0.15, 1.0);
      const geom::Vec2 at = i % 3 ? t * target.centre_mm + rng.Uniform(-120, 120) * r : rng.Uniform(-1, 1.3) * reach * f + rng.Uniform(-1, 1) * reach * r;
      const geom::Base ob = Rect(at, rng.Uniform(-180, 180), rng.Uniform(20, 100), rng.Uniform(15, 50));
      if (geom::BaseGap(ob, charger) > 0.5 && geom::BaseGap(ob, target) > 0.5) obstacles.push_back(geom::PolygonCcw(ob));
    }
    const auto facing = static_cast<geom::Edge>(k % 4);
    kow::ChargeOptions full;
    full.shortcuts = false;
    const kow::ChargeRoute a = kow::FindChargeRoute(charger, target, facing, obstacles, reach);
    const kow::ChargeRoute b = kow::FindChargeRoute(charger, target, facing, obstacles, reach, full);
    ASSERT_TRUE(SameRoute(a, b)) << "case " << k << ": found " << a.found << " / " << b.found << ", length " << a.length_mm << " / " << b.length_mm;
    (a.found ? found : not_found)++;
    // A pose refused early keeps a shorter read than the full test's (or one the full test, refusing
    // it for the target, did not keep): the reads differ where the shortcut was taken.
    bool same_reads = a.read_in.size() == b.read_in.size();
    for (size_t i = 0; same_reads && i < a.read_in.size(); ++i) same_reads = a.read_in[i].depth_mm == b.read_in[i].depth_mm;
    refused_early += !same_reads;
  }
  EXPECT_GT(found, 300);
  EXPECT_GT(not_found, 1000);
  EXPECT_GT(refused_early, 500);
  std::printf("%d found, %d not found, %d with a pose refused early\n", found, not_found, refused_early);
}

}  // namespace
}  // namespace vedette
