// Lines of sight past blocking and obscuring occluders (rules/geometry/sight.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include "rules/geometry/base.h"
#include "rules/geometry/sight.h"
#include "tests/rules/geometry/geometry_test_util.h"

namespace vedette::geom {
namespace {

using geometry_test::Rect;

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

// A trace asked for less (SightNeed) against the full one on random tables: `visible` always the
// same, and with kWhenVisible every field the same when visible. The tables put blockers between the
// eye and the target (turned any way or facing the eye), in walls of bases side by side with gaps of
// a hair either way, with an edge a millimetre either side of the lines to the target's sides, behind
// and over the target, pairs of turned squares whose corners overlap by a hair, and low occluders
// among them, so that the early "not visible" (the shrunk blockers covering every direction) is taken
// often and also nearly taken where a line gets through.
Base Turned(Vec2 c, double heading, double w, double d) {
  Base b;
  b.centre_mm = c, b.heading_deg = heading, b.width_mm = w, b.depth_mm = d;
  return b;
}

std::vector<Polygon> RandomOccluders(std::mt19937& rng, const Vec2& eye, const Base& target) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  auto in = [&](double lo, double hi) { return lo + (hi - lo) * u(rng); };
  const Vec2 to = target.centre_mm - eye;
  const Vec2 side = Vec2(to.y(), -to.x()).normalized();
  const double facing = HeadingOf(-to);
  std::vector<Polygon> out;
  const int n = static_cast<int>(in(0, 7));
  for (int i = 0; i < n; ++i) {
    const double f = in(0.15, 0.85);
    const double w = in(15, 160), d = in(10, 60);
    switch (static_cast<int>(in(0, 6))) {
      case 0:  // between, turned any way
        out.push_back(PolygonCcw(Turned(eye + f * to + in(-70, 70) * side, in(-180, 180), w, d)));
        break;
      case 1: {  // a wall of bases facing the eye, side by side, gaps of -0.5 to 1.5 mm
        const int m = 2 + static_cast<int>(in(0, 3));
        double x = in(-120, -20);
        for (int j = 0; j < m; ++j) {
          const double wj = in(20, 60);
          out.push_back(PolygonCcw(Turned(eye + f * to + (x + wj / 2) * side, facing, wj, d)));
          x += wj + in(-0.5, 1.5);
        }
        break;
      }
      case 2: {  // facing the eye, one side edge a millimetre either side of a line to a target corner
        const Vec2 corner = Corners(target)[static_cast<int>(in(0, 4))];
        const Vec2 on_line = eye + f * (corner - eye);
        const double s = in(0, 1) < 0.5 ? 1.0 : -1.0;
        out.push_back(PolygonCcw(Turned(on_line + (s * (w / 2 + in(-1, 1))) * side, facing, w, d)));
        break;
      }
      case 4: {  // two squares turned 45 degrees, their side corners overlapping by 0 to 1.5 mm across the
                 // view: the lines between run a little inside both (less than the tolerance when < 0.5 mm)
        const double sq = in(60, 200) / std::sqrt(2.0), g = in(0, 1.5), c = in(-30, 30);
        out.push_back(PolygonCcw(Turned(eye + f * to + (c + g / 2 - sq / std::sqrt(2.0)) * side, facing + 45, sq, sq)));
        out.push_back(PolygonCcw(Turned(eye + f * to + (c - g / 2 + sq / std::sqrt(2.0)) * side, facing + 45, sq, sq)));
        break;
      }
      case 3:  // behind the target or over it
        out.push_back(PolygonCcw(Turned(eye + in(0.9, 1.6) * to + in(-80, 80) * side, in(-180, 180), w * 2, d)));
        break;
      default:  // wide, facing the eye, anywhere along the way
        out.push_back(PolygonCcw(Turned(eye + f * to + in(-40, 40) * side, facing + in(-8, 8), w * 1.5, d)));
        break;
    }
  }
  return out;
}

// A random table for the tests below: the eye at the origin, a target 150-400 mm ahead of it turned
// any way, and RandomOccluders' occluders, three in four blocking.
struct SightTable {
  Vec2 eye{0, 0};
  Base tb;
  Polygon target;
  std::vector<Polygon> polys;
  std::vector<OccluderRef> refs;  // into polys
};
void MakeSightTable(std::mt19937& rng, SightTable* t) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  t->tb = Turned({-60 + 120 * u(rng), 150 + 250 * u(rng)}, -180 + 360 * u(rng), 40 + 110 * u(rng), 20 + 60 * u(rng));
  t->target = PolygonCcw(t->tb);
  t->polys = RandomOccluders(rng, t->eye, t->tb);
  t->refs.clear();
  for (size_t i = 0; i < t->polys.size(); ++i)
    t->refs.push_back({&t->polys[i], u(rng) < 0.75 ? SightEffect::kBlocks : SightEffect::kObscures, static_cast<int>(i),
                       ConvexForSight(t->polys[i])});
}

// Two traces' answers are the same to the bit, every field.
void ExpectSameSight(const SightResult& a, const SightResult& b, int table) {
  ASSERT_EQ(a.visible, b.visible) << "table " << table;
  EXPECT_EQ(a.subtended_deg, b.subtended_deg) << "table " << table;
  EXPECT_EQ(a.clear_share, b.clear_share) << "table " << table;
  EXPECT_EQ(a.obscured_share, b.obscured_share) << "table " << table;
  EXPECT_EQ(a.blocked_share, b.blocked_share) << "table " << table;
  EXPECT_EQ(a.blocking_tags, b.blocking_tags) << "table " << table;
  EXPECT_EQ(a.obscuring_tags, b.obscuring_tags) << "table " << table;
  EXPECT_EQ(a.seen_point, b.seen_point) << "table " << table;
}

TEST(Sight, TracingForLessKeepsWhatIsRead) {
  std::mt19937 rng(18);
  int early = 0, hidden = 0, visible = 0;
  SightTable t;
  for (int k = 0; k < 20000; ++k) {
    MakeSightTable(rng, &t);
    SightOptions all, when, only;
    when.need = SightNeed::kWhenVisible;
    only.need = SightNeed::kVisible;
    const SightResult full = TraceSightByRef(t.eye, t.target, t.refs, all);
    const SightResult w = TraceSightByRef(t.eye, t.target, t.refs, when);
    ASSERT_EQ(TraceSightByRef(t.eye, t.target, t.refs, only).visible, full.visible) << "table " << k;
    ASSERT_EQ(w.visible, full.visible) << "table " << k;
    (full.visible ? visible : hidden) += 1;
    if (!full.visible && w.subtended_deg == 0.0) ++early;  // settled before the intervals were cut
    if (!full.visible) continue;
    EXPECT_EQ(w.subtended_deg, full.subtended_deg);
    EXPECT_EQ(w.clear_share, full.clear_share);
    EXPECT_EQ(w.obscured_share, full.obscured_share);
    EXPECT_EQ(w.blocked_share, full.blocked_share);
    EXPECT_EQ(w.blocking_tags, full.blocking_tags);
    EXPECT_EQ(w.obscuring_tags, full.obscuring_tags);
    EXPECT_EQ(w.seen_point, full.seen_point);
  }
  EXPECT_GT(early, 2000);
  EXPECT_GT(hidden - early, 500);  // not visible, but left to the intervals
  EXPECT_GT(visible, 5000);
}

// The occluders' order changes nothing, to the bit: Kings of War hands them over in the order its grid
// finds them (rules/kow/analysis.cpp, SightOccluders::AddUnits). The random tables above, each traced
// with its occluders in order and shuffled, for every need.
TEST(Sight, TheOccludersOrderChangesNothing) {
  std::mt19937 rng(5);
  int visible = 0;
  SightTable t;
  for (int k = 0; k < 5000; ++k) {
    MakeSightTable(rng, &t);
    std::vector<OccluderRef> shuffled = t.refs;
    std::shuffle(shuffled.begin(), shuffled.end(), rng);
    for (SightNeed need : {SightNeed::kAll, SightNeed::kWhenVisible, SightNeed::kVisible}) {
      SightOptions o;
      o.need = need;
      const SightResult a = TraceSightByRef(t.eye, t.target, t.refs, o), b = TraceSightByRef(t.eye, t.target, shuffled, o);
      ExpectSameSight(a, b, k);
      visible += need == SightNeed::kAll && a.visible && a.blocked_share > 0 ? 1 : 0;
    }
  }
  EXPECT_GT(visible, 1000);  // partly blocked: the order of the lines' occluders was exercised
}

// The shortcuts (occluders and corners clearly beside the target's directions left unmeasured,
// SightOptions::shortcuts) change no answer, to the bit: the random tables above with up to four more
// occluders anywhere round the eye (beside the target's directions, across one edge of them, behind
// the eye, across the direction opposite the target, holding the eye), every need.
TEST(Sight, TheShortcutsChangeNothing) {
  std::mt19937 rng(33);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  int partly = 0, hidden = 0;
  SightTable t;
  for (int k = 0; k < 8000; ++k) {
    MakeSightTable(rng, &t);
    const Vec2 to = t.tb.centre_mm - t.eye;
    const int extra = static_cast<int>(u(rng) * 5);
    for (int i = 0; i < extra; ++i) {
      const double angle = std::atan2(to.y(), to.x()) + (-1 + 2 * u(rng)) * (u(rng) < 0.5 ? 0.6 : 3.2);
      const double r = 5 + 300 * u(rng);
      t.polys.push_back(PolygonCcw(Turned({r * std::cos(angle), r * std::sin(angle)}, -180 + 360 * u(rng), 20 + 250 * u(rng), 10 + 80 * u(rng))));
    }
    t.refs.clear();
    for (size_t i = 0; i < t.polys.size(); ++i)
      t.refs.push_back({&t.polys[i], u(rng) < 0.75 ? SightEffect::kBlocks : SightEffect::kObscures, static_cast<int>(i),
                        ConvexForSight(t.polys[i])});
    for (SightNeed need : {SightNeed::kAll, SightNeed::kWhenVisible, SightNeed::kVisible}) {
      SightOptions fast, every;
      fast.need = every.need = need;
      every.shortcuts = false;
      const SightResult a = TraceSightByRef(t.eye, t.target, t.refs, fast), b = TraceSightByRef(t.eye, t.target, t.refs, every);
      ExpectSameSight(a, b, k);
      if (need == SightNeed::kAll) (a.visible ? partly : hidden) += a.visible && a.blocked_share > 0 ? 1 : !a.visible;
    }
  }
  EXPECT_GT(partly, 1000);  // partly blocked: the cuts and the lines' occluders were exercised
  EXPECT_GT(hidden, 1000);
}

// Where a line from `eye` along the unit vector `dir` first meets `poly`'s outline, mm; inf if never.
double FirstHit(const Vec2& eye, const Vec2& dir, const Polygon& poly) {
  double best = std::numeric_limits<double>::infinity();
  for (size_t i = 0; i < poly.size(); ++i) {
    const Vec2 q = poly[(i + 1) % poly.size()] - poly[i], w = poly[i] - eye;
    const double denom = dir.x() * q.y() - dir.y() * q.x();
    if (std::abs(denom) < 1e-15) continue;
    const double t = (w.x() * q.y() - w.y() * q.x()) / denom, s = (w.x() * dir.y() - w.y() * dir.x()) / denom;
    if (t >= 0 && s >= 0 && s <= 1) best = std::min(best, t);
  }
  return best;
}

// One occluder anywhere round the eye (beside the target's directions, across one edge of them,
// behind the eye, across the direction opposite the target, holding the eye): the share of the
// target's angle it blocks against 4,000 lines cast evenly across that angle. A trace that left out
// an occluder in the way (sight.cpp sets aside, unmeasured, the ones clearly beside the target)
// would report nothing blocked where the lines find some.
TEST(Sight, OneOccluderAnywhereBlocksWhatTheLinesFind) {
  std::mt19937 rng(21);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  SightOptions exact;
  exact.tolerance_mm = 0.0;
  int partly = 0, none = 0;
  for (int k = 0; k < 1500; ++k) {
    const Vec2 eye(0, 0);
    const Base tb = Turned({-60 + 120 * u(rng), 150 + 250 * u(rng)}, -180 + 360 * u(rng), 40 + 110 * u(rng), 20 + 60 * u(rng));
    const Polygon target = PolygonCcw(tb);
    const double angle = std::atan2(tb.centre_mm.y(), tb.centre_mm.x()) + (-1 + 2 * u(rng)) * (u(rng) < 0.5 ? 0.6 : 3.2);
    const double r = 5 + 300 * u(rng);
    const Polygon occ =
        PolygonCcw(Turned({r * std::cos(angle), r * std::sin(angle)}, -180 + 360 * u(rng), 20 + 250 * u(rng), 10 + 80 * u(rng)));
    const SightResult got = TraceSight(eye, target, {Occluder{occ, SightEffect::kBlocks, 0}}, exact);
    const Vec2 ref = (tb.centre_mm - eye).normalized();
    double lo = 10, hi = -10;  // the target's angle seen from the eye, rad from ref
    for (const Vec2& v : target) {
      const double a = std::atan2(ref.x() * v.y() - ref.y() * v.x(), ref.dot(v));
      lo = std::min(lo, a), hi = std::max(hi, a);
    }
    int blocked = 0, lines = 0;
    for (int i = 0; i < 4000; ++i) {
      const double a = lo + (hi - lo) * (i + 0.5) / 4000;
      const Vec2 dir(std::cos(a) * ref.x() - std::sin(a) * ref.y(), std::sin(a) * ref.x() + std::cos(a) * ref.y());
      const double t = FirstHit(eye, dir, target);
      if (!std::isfinite(t)) continue;
      ++lines;
      blocked += SegmentLengthInside({eye, eye + t * dir}, occ) > 1e-6 ? 1 : 0;
    }
    ASSERT_GT(lines, 3900) << "table " << k;
    const double share = static_cast<double>(blocked) / lines;
    (share > 0.0 ? partly : none) += 1;
    EXPECT_NEAR(got.blocked_share, share, 0.002) << "table " << k;
  }
  EXPECT_GT(partly, 300);
  EXPECT_GT(none, 300);
}

// ConvexForSight of a base (its outline not looked at for a plain one) against the general test:
// random bases of 1 to 300 mm anywhere on (and well off) a table, and slivers and points below 1 mm.
TEST(Sight, ConvexForSightOfABaseIsTheGeneralTest) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  int convex = 0, not_convex = 0;
  for (int k = 0; k < 20000; ++k) {
    const double far = k % 10 == 0 ? 1e5 : 2000.0;
    const double w = k % 7 == 0 ? u(rng) * 1e-3 : 1.0 + 299.0 * u(rng), d = k % 11 == 0 ? 0.0 : 1.0 + 299.0 * u(rng);
    const Base b = Turned({-far + 2 * far * u(rng), -far + 2 * far * u(rng)}, -180 + 360 * u(rng), w, d);
    const Polygon p = PolygonCcw(b);
    const bool general = ConvexForSight(p);
    ASSERT_EQ(ConvexForSight(b, p), general) << "base " << k;
    (general ? convex : not_convex) += 1;
  }
  EXPECT_GT(convex, 15000);
  EXPECT_GT(not_convex, 1000);
}

}  // namespace
}  // namespace vedette::geom
