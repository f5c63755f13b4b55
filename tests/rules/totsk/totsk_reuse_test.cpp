// A TotSK analysis started from the last call's memo (totsk::AnalysisMemo) works out again only what
// a change can reach. Whatever changes (small and large moves, turns into and out of contact, units
// lifted and put back, formations, declarations, terrain), it must answer exactly as a fresh
// analysis: every field of every unit, every choice and note, and the ruleset's findings.
#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <sstream>
#include <string>

#include "rules/input_error.h"
#include "rules/ruleset.h"
#include "rules/scene/scene_io.h"
#include "rules/scene/synthetic_table.h"
#include "rules/totsk/totsk_analysis.h"
#include "tests/rules/totsk/totsk_describe.h"
#include "tests/rules/totsk/totsk_test_util.h"

namespace vedette {
namespace {

using namespace totsk_test;

Scene Table(int units, uint64_t seed) {
  SyntheticTableOptions o;
  o.units = units;
  o.seed = seed;
  return MakeSyntheticTable(o);
}

struct Fixture {
  totsk::TotskData data = totsk::LoadTotskData(AssetsDir() + "/rulesets/totsk.yaml");
  totsk::TotskSettings settings;
  totsk::AnalysisMemo memo;
  void ExpectFresh(const Scene& s, const std::string& what) {
    const std::string reused = Describe(totsk::AnalyzeTotsk(data, settings, s, &memo));
    const std::string fresh = Describe(totsk::AnalyzeTotsk(data, settings, s));
    ASSERT_EQ(reused, fresh) << what;
  }
};

// The live frame: one unit at a time moves a few millimetres, on a dense table.
TEST(TotskReuse, SmallMovesAnswerAsAFreshAnalysis) {
  Fixture f;
  Scene s = Table(150, 3);
  f.ExpectFresh(s, "first call");
  f.ExpectFresh(s, "unchanged");
  for (int k = 0; k < 60; ++k) {
    Unit& u = s.units[(k * 7) % s.units.size()];
    u.pose->x_mm += k % 2 ? 3.0 : -4.0;
    u.pose->y_mm += k % 3 ? 2.5 : -6.0;
    f.ExpectFresh(s, "moved " + u.id + " at step " + std::to_string(k));
  }
}

// Large moves and turns: units charge into contact, fall behind flanks, leave rear support, unmask
// guns, change which unit an enemy's one test falls on. Two units at once, sometimes.
TEST(TotskReuse, LargeMovesAndTurnsAnswerAsAFreshAnalysis) {
  Fixture f;
  for (uint64_t seed : {5u, 11u}) {
    Scene s = Table(120, seed);
    std::mt19937 rng(static_cast<unsigned>(seed));
    std::uniform_real_distribution<double> dxy(-90.0, 90.0), dh(-60.0, 60.0), coin(0.0, 1.0);
    std::uniform_int_distribution<size_t> pick(0, s.units.size() - 1);
    f.ExpectFresh(s, "first call");
    for (int k = 0; k < 80; ++k) {
      const int count = coin(rng) < 0.25 ? 2 : 1;
      std::string what;
      for (int c = 0; c < count; ++c) {
        Unit& u = s.units[pick(rng)];
        // Towards the middle of the table half the time: into the other side's lines.
        const double toward = coin(rng) < 0.5 ? (u.side == s.units.front().side ? 1.0 : -1.0) * 40.0 : 0.0;
        u.pose->x_mm += dxy(rng);
        u.pose->y_mm += dxy(rng) + toward;
        if (coin(rng) < 0.5) u.pose->heading_deg += dh(rng);
        what += u.id + " ";
      }
      f.ExpectFresh(s, "moved " + what + "at step " + std::to_string(k) + " of seed " + std::to_string(seed));
    }
  }
}

// A unit lifted off the table and put back, a formation changed, a declaration made, terrain moved,
// a unit taken off the roster: each answers as a fresh analysis, and so does the frame after it.
TEST(TotskReuse, EveryOtherChangeAnswersAsAFreshAnalysis) {
  Fixture f;
  Scene s = Table(100, 7);
  f.ExpectFresh(s, "first call");
  Unit& lifted = s.units[s.units.size() / 2];
  const Pose was = *lifted.pose;
  lifted.pose.reset();
  f.ExpectFresh(s, "lifted " + lifted.id);
  lifted.pose = was;
  lifted.pose->x_mm += 40.0;
  f.ExpectFresh(s, "put back " + lifted.id);
  for (Unit& u : s.units)
    if (u.type == UnitType::kInfantry) {
      u.formation = "column";
      f.ExpectFresh(s, u.id + " in column");
      break;
    }
  for (Unit& u : s.units)
    if (u.type == UnitType::kArtillery) {
      u.formation = "limbered";
      f.ExpectFresh(s, u.id + " limbered");
      break;
    }
  s.units[3].tags.push_back("elite");
  f.ExpectFresh(s, "elite tag");
  // A unit re-typed (a roster corrected mid-game): infantry that was tested becomes a general, who
  // takes no test; a cavalry unit becomes infantry, which security and cavalry threats read.
  for (Unit& u : s.units)
    if (u.type == UnitType::kInfantry && u.id != s.units[3].id) {
      u.type = UnitType::kGeneral;
      f.ExpectFresh(s, u.id + " now a general");
      u.type = UnitType::kInfantry;
      f.ExpectFresh(s, u.id + " infantry again");
      break;
    }
  for (Unit& u : s.units)
    if (u.type == UnitType::kCavalry) {
      u.type = UnitType::kInfantry;
      f.ExpectFresh(s, u.id + " now infantry");
      break;
    }
  s.declarations.units[s.units[9].id]["failed_morale"] = Declared{true, 0};
  f.ExpectFresh(s, "failed morale declared");
  s.units[9].pose->x_mm += 2.0;
  f.ExpectFresh(s, "moved after the declaration");
  if (!s.terrain.empty()) {
    for (geom::Vec2& v : s.terrain[0].polygon) v.x() += 40.0;
    f.ExpectFresh(s, "terrain moved");
  }
  s.units.erase(s.units.begin() + 2);
  f.ExpectFresh(s, "a unit removed");
  for (Unit& u : s.units) u.pose->x_mm += 1.0;  // the camera bumped and registered again: every unit moved
  f.ExpectFresh(s, "every unit moved");
}

// A call that throws (a declaration of the wrong type) leaves nothing half-done for the next call.
TEST(TotskReuse, AfterACallThatThrewTheNextAnswersAsAFreshAnalysis) {
  Fixture f;
  Scene s = Table(80, 2);
  f.ExpectFresh(s, "first call");
  s.units[10].pose->x_mm += 5.0;
  Scene bad = s;
  bad.declarations.units[bad.units[20].id]["moved"] = Declared{"yes", 7};
  EXPECT_THROW(totsk::AnalyzeTotsk(f.data, f.settings, bad, &f.memo), InputError);
  s.units[11].pose->y_mm -= 5.0;
  f.ExpectFresh(s, "after the throw");
}

// Through the ruleset, on the sample scene the README uses: the findings (words, drawing, tests) of a
// ruleset that has analysed the scene before are a fresh ruleset's.
TEST(TotskReuse, SampleSceneFindingsAreAFreshRulesets) {
  Scene s = LoadScene(AssetsDir() + "/scenes/sample_totsk.yaml");
  const auto reused = Totsk();
  reused->Analyze(s);
  for (int k = 0; k < 12; ++k) {
    Unit& u = s.units[k % s.units.size()];
    u.pose->y_mm += k % 2 ? 25.0 : -15.0;
    u.pose->heading_deg += 5.0 * (k % 3);
    const Findings a = reused->Analyze(s), b = Totsk()->Analyze(s);
    EXPECT_EQ(a.text, b.text) << u.id;
    EXPECT_EQ(a.report, b.report) << u.id;
    ASSERT_EQ(a.drawing.size(), b.drawing.size()) << u.id;
    for (size_t i = 0; i < a.drawing.size(); ++i) EXPECT_EQ(a.drawing[i].points_mm, b.drawing[i].points_mm) << u.id;
    ASSERT_EQ(a.tests.size(), b.tests.size()) << u.id;
    for (size_t i = 0; i < a.tests.size(); ++i) EXPECT_EQ(a.tests[i].odds, b.tests[i].odds) << u.id;
  }
}

}  // namespace
}  // namespace vedette
