// The Kings of War ruleset reuses a unit's lines between calls when the unit and everything its rules
// reach are unchanged (kow_ruleset.cpp, "Reuse between calls"). Whatever changes, a reused ruleset must
// answer exactly as a fresh one: moves, declarations, stats and terrain, on a random table and the
// sample scene.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "rules/geometry/base.h"
#include "rules/input_error.h"
#include "rules/ruleset.h"
#include "rules/scene/scene_io.h"
#include "rules/scene/synthetic_table.h"

namespace vedette {
namespace {

void ExpectSame(const Findings& a, const Findings& b, const std::string& what) {
  EXPECT_EQ(a.report, b.report) << what;
  EXPECT_EQ(a.text, b.text) << what;
  ASSERT_EQ(a.drawing.size(), b.drawing.size()) << what;
  for (size_t i = 0; i < a.drawing.size(); ++i) {
    EXPECT_EQ(a.drawing[i].text, b.drawing[i].text) << what;
    EXPECT_EQ(a.drawing[i].points_mm, b.drawing[i].points_mm) << what;
  }
  ASSERT_EQ(a.tests.size(), b.tests.size()) << what;
  for (size_t i = 0; i < a.tests.size(); ++i) EXPECT_EQ(a.tests[i].odds, b.tests[i].odds) << what;
}

// A seeded random battle table of `units` units.
Scene Table(int units, uint64_t seed) {
  SyntheticTableOptions o;
  o.units = units;
  o.seed = seed;
  return MakeSyntheticTable(o);
}

TEST(KowReuse, AnswersAsAFreshRulesetWhateverChanges) {
  Scene s = Table(80, 5);
  const auto reused = MakeRuleset("kow");
  ExpectSame(reused->Analyze(s), MakeRuleset("kow")->Analyze(s), "first call");
  ExpectSame(reused->Analyze(s), MakeRuleset("kow")->Analyze(s), "unchanged");
  for (int k = 0; k < 16; ++k) {
    Unit& u = s.units[(k * 13) % s.units.size()];
    u.pose->y_mm += u.side == "blue" ? 30.0 : -30.0;
    u.pose->x_mm += k % 2 ? 15.0 : -15.0;
    u.pose->heading_deg += 10.0 * (k % 3);
    ExpectSame(reused->Analyze(s), MakeRuleset("kow")->Analyze(s), "moved " + u.id);
  }
  s.declarations.units[s.units[4].id]["damage"] = Declared{3, 0};
  ExpectSame(reused->Analyze(s), MakeRuleset("kow")->Analyze(s), "damage declared");
  s.units[7].stats["speed_in"] = 9;
  ExpectSame(reused->Analyze(s), MakeRuleset("kow")->Analyze(s), "speed changed");
  if (!s.terrain.empty()) {
    for (geom::Vec2& v : s.terrain[0].polygon) v.x() += 40.0;
    ExpectSame(reused->Analyze(s), MakeRuleset("kow")->Analyze(s), "terrain moved");
  }
  s.units.erase(s.units.begin() + 2);
  ExpectSame(reused->Analyze(s), MakeRuleset("kow")->Analyze(s), "a unit removed");
}

// The live frame: one unit at a time moves a few millimetres (as rules_bench --moving), on the frame
// path and with words, through other units' sight lines and charge routes; a unit is lifted off the
// table and put back. Every answer is a fresh ruleset's.
TEST(KowReuse, SmallMovesAndLiftedUnitsAnswerAsAFreshRuleset) {
  Scene s = Table(90, 12);
  const auto reused = MakeRuleset("kow");
  reused->Analyze(s, kFramePath);
  for (int k = 0; k < 30; ++k) {
    Unit& u = s.units[(k * 7) % s.units.size()];
    u.pose->x_mm += k % 2 ? 3.0 : -4.0;
    u.pose->y_mm += k % 3 ? 2.5 : -6.0;
    const Findings fresh = MakeRuleset("kow")->Analyze(s);
    if (k % 3 == 0) {
      ExpectSame(reused->Analyze(s), fresh, "moved " + u.id);
    } else {
      const Findings frame = reused->Analyze(s, kFramePath);
      ASSERT_EQ(frame.drawing.size(), fresh.drawing.size()) << "moved " << u.id;
      for (size_t i = 0; i < frame.drawing.size(); ++i) EXPECT_EQ(frame.drawing[i].points_mm, fresh.drawing[i].points_mm) << u.id;
      ASSERT_EQ(frame.tests.size(), fresh.tests.size()) << u.id;
    }
  }
  // A unit standing in others' sight lines is lifted (no pose), then put back 40 mm away.
  Unit& lifted = s.units[s.units.size() / 2];
  const Pose was = *lifted.pose;
  lifted.pose.reset();
  ExpectSame(reused->Analyze(s), MakeRuleset("kow")->Analyze(s), "lifted " + lifted.id);
  lifted.pose = was;
  lifted.pose->x_mm += 40.0;
  ExpectSame(reused->Analyze(s), MakeRuleset("kow")->Analyze(s), "put back " + lifted.id);
}

// The charge and shot targets a unit lists are patched for the units that changed (TargetsOf): one
// unit at a time moves at random, small steps and long ones (into and out of others' reach, range
// and front arcs), sometimes two at once or one lifted; every answer is a fresh ruleset's.
TEST(KowReuse, PatchedTargetListsAnswerAsAFreshRuleset) {
  Scene s = Table(120, 21);
  const auto reused = MakeRuleset("kow");
  reused->Analyze(s, kFramePath);
  uint64_t r = 88172645463325252ull;
  auto next = [&](int n) {
    r ^= r << 13, r ^= r >> 7, r ^= r << 17;
    return static_cast<int>(r % static_cast<uint64_t>(n));
  };
  for (int k = 0; k < 40; ++k) {
    for (int moved = 0; moved < 1 + (k % 5 == 0); ++moved) {
      Unit& u = s.units[next(static_cast<int>(s.units.size()))];
      if (!u.pose) continue;
      const double step = k % 3 == 0 ? 150.0 : 6.0;
      u.pose->x_mm += step * (next(201) - 100) / 100.0;
      u.pose->y_mm += step * (next(201) - 100) / 100.0;
      u.pose->heading_deg += k % 4 == 0 ? next(90) : 0;
    }
    if (k == 20) s.units[next(static_cast<int>(s.units.size()))].pose.reset();
    const Findings fresh = MakeRuleset("kow")->Analyze(s);
    if (k % 4 == 0) {
      ExpectSame(reused->Analyze(s), fresh, "step " + std::to_string(k));
    } else {
      const Findings frame = reused->Analyze(s, kFramePath);
      ASSERT_EQ(frame.drawing.size(), fresh.drawing.size()) << "step " << k;
      for (size_t i = 0; i < frame.drawing.size(); ++i) {
        EXPECT_EQ(frame.drawing[i].text, fresh.drawing[i].text) << "step " << k;
        EXPECT_EQ(frame.drawing[i].points_mm, fresh.drawing[i].points_mm) << "step " << k;
      }
    }
  }
}

// A unit is brought into base contact with the nearest enemy's front, within 1 inch of it, or near
// it, and later put back: whom that enemy is engaged with (read by everyone shooting at it), the
// 1-inch rule and the mover's sight lines and routes change, while most units within reach keep
// their last lines (KowRuleset::ChunkStillHolds). Orders, damage and Wavering are declared. Every
// answer is a fresh ruleset's, on the frame path and with words.
TEST(KowReuse, UnitsBroughtIntoContactOrWithinAnInchAnswerAsAFreshRuleset) {
  Scene s = Table(120, 33);
  const char* orders[] = {"halt", "advance", "at_the_double", "charge", "back"};
  for (size_t i = 0; i < s.units.size(); i += 5) {
    auto& d = s.declarations.units[s.units[i].id];
    d["order"] = Declared{orders[(i / 5) % 5], 0};
    if (i % 3 == 0) d["damage"] = Declared{static_cast<int>(i % 7), 0};
    if (i % 25 == 0) d["wavering"] = Declared{true, 0};
  }
  const auto reused = MakeRuleset("kow");
  reused->Analyze(s, kFramePath);
  const double gaps[] = {0.5, 1.5, 12.0, 24.0, 60.0};
  for (int k = 0; k < 24; ++k) {
    Unit& u = s.units[(k * 11 + 3) % s.units.size()];
    const Pose was = *u.pose;
    const Unit* enemy = nullptr;
    for (const Unit& o : s.units)
      if (o.side != u.side && o.pose && (!enemy || std::hypot(o.pose->x_mm - was.x_mm, o.pose->y_mm - was.y_mm) <
                                                      std::hypot(enemy->pose->x_mm - was.x_mm, enemy->pose->y_mm - was.y_mm)))
        enemy = &o;
    ASSERT_NE(enemy, nullptr);
    const geom::Base eb = Footprint(*enemy), ub = Footprint(u);
    const geom::Vec2 at = eb.centre_mm + (eb.depth_mm / 2 + ub.depth_mm / 2 + gaps[k % 5]) * geom::Forward(eb);
    u.pose->x_mm = at.x(), u.pose->y_mm = at.y(), u.pose->heading_deg = eb.heading_deg + 180.0;
    for (int back = 0; back < 2; ++back) {
      const Findings fresh = MakeRuleset("kow")->Analyze(s);
      const std::string what = (back ? "put back " : "moved ") + u.id + " by " + enemy->id + ", step " + std::to_string(k);
      if (k % 3 == 0) {
        ExpectSame(reused->Analyze(s), fresh, what);
      } else {
        const Findings frame = reused->Analyze(s, kFramePath);
        ASSERT_EQ(frame.drawing.size(), fresh.drawing.size()) << what;
        for (size_t i = 0; i < frame.drawing.size(); ++i) {
          EXPECT_EQ(frame.drawing[i].text, fresh.drawing[i].text) << what;
          EXPECT_EQ(frame.drawing[i].points_mm, fresh.drawing[i].points_mm) << what;
        }
        ASSERT_EQ(frame.tests.size(), fresh.tests.size()) << what;
      }
      if (k % 2) break;  // left where it now stands
      *u.pose = was;
    }
  }
  // The units out of their last order: every key is worked out afresh and compared with the kept
  // chunks' (some kept through moves with the key of an earlier table).
  std::swap(s.units[10], s.units[11]);
  ExpectSame(reused->Analyze(s), MakeRuleset("kow")->Analyze(s), "two units swapped in the roster");
  s.units.erase(s.units.begin() + 40);
  ExpectSame(reused->Analyze(s), MakeRuleset("kow")->Analyze(s), "a unit removed");
}

// A call that throws (a bad declaration) leaves nothing half-moved for the next call to reuse.
TEST(KowReuse, AfterACallThatThrewTheNextAnswersAsAFreshRuleset) {
  Scene s = Table(60, 3);
  const auto reused = MakeRuleset("kow");
  reused->Analyze(s, kFramePath);
  s.units[10].pose->x_mm += 5.0;
  Scene bad = s;
  bad.declarations.units[bad.units[40].id]["damage"] = Declared{-2, 7};
  EXPECT_THROW(reused->Analyze(bad), InputError);
  s.units[11].pose->y_mm -= 5.0;
  ExpectSame(reused->Analyze(s), MakeRuleset("kow")->Analyze(s), "after the throw");
  s.units[10].pose->x_mm -= 5.0;
  ExpectSame(reused->Analyze(s), MakeRuleset("kow")->Analyze(s), "moved back");
}

TEST(KowReuse, SampleScene) {
  Scene s = LoadScene(std::string(VEDETTE_ASSETS_DIR) + "/scenes/sample_kow.yaml");
  const auto reused = MakeRuleset("kow");
  reused->Analyze(s);
  for (Unit& u : s.units)
    if (u.id == "B1") u.pose->y_mm += 50.0;  // now 2 in from R1
  ExpectSame(reused->Analyze(s), MakeRuleset("kow")->Analyze(s), "B1 moved");
  s.declarations.units["R1"].erase("charged_by");
  ExpectSame(reused->Analyze(s), MakeRuleset("kow")->Analyze(s), "R1 no longer charged by B1");
}

}  // namespace
}  // namespace vedette
