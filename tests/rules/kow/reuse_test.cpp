// The Kings of War ruleset reuses a unit's lines between calls when the unit and everything its rules
// reach are unchanged (kow_ruleset.cpp, "Reuse between calls"). Whatever changes, a reused ruleset must
// answer exactly as a fresh one: moves, declarations, stats and terrain, on a random table and the
// sample scene.
#include <gtest/gtest.h>

#include <string>

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

TEST(KowReuse, AnswersAsAFreshRulesetWhateverChanges) {
  SyntheticTableOptions o;
  o.units = 80;
  o.seed = 5;
  Scene s = MakeSyntheticTable(o);
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
