// Unit states (seed 003): the automatic Morale Check of shaken troops (seed 13). The seed gives no dice
// or pass score for any Morale Check, so the ruleset lists the check, its -1 (seed 7) and the seed 7
// factors that make it faster or slower, and gives no odds.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "rules/ruleset.h"
#include "rules/scene/scene_io.h"
#include "tests/rules/report_util.h"

namespace vedette {
namespace {

using nlohmann::json;

// S: shaken infantry 100 x 40 at (500, 300) (x 450..550, y 280..320). A village V covers x village_left..700,
// y 200..400: from x = 500 exactly half of S's base is in it (a Built-Up Area, seed 7); from 501, 49%.
std::string ShakenScene(const std::string& tags, const std::string& formation, double village_left, const std::string& decl) {
  char yaml[1024];
  std::snprintf(yaml, sizeof yaml, R"(
bw_mm: 40
units:
  - {id: S, side: blue, type: infantry, tags: [%s], formation: %s, base: {width_mm: 100, depth_mm: 40}, pose: {x_mm: 500, y_mm: 300, heading_deg: 90}}
terrain:
  - {id: V, type: village, polygon: [[%.3f, 200], [700, 200], [700, 400], [%.3f, 400]]}
declarations:
  S: {state: shaken%s}
)", tags.c_str(), formation.c_str(), village_left, village_left, decl.c_str());
  return yaml;
}

Findings AnalyzeYaml(const std::string& yaml) { return MakeRuleset("states")->Analyze(ParseScene(yaml, "check")); }

TEST(StatesMoraleCheck, NoDiceOnlyTheModifierAndFactors) {
  const Findings f = AnalyzeYaml(ShakenScene("veteran", "square", 500, ", general_attached: true"));
  const json m = UnitOf(f, "S")["morale_check"];
  EXPECT_EQ(m["modifier"], -1);
  EXPECT_TRUE(m["dice"].is_null());
  EXPECT_TRUE(m["odds"].is_null());
  EXPECT_EQ(m["faster_for"], json::array({"veteran troops", "troops in square", "troops in a Built-Up Area",
                                          "troops with a general attached"}));
  EXPECT_TRUE(m["slower_for"].empty());
  ASSERT_EQ(f.tests.size(), 1u);
  EXPECT_EQ(f.tests[0].total, -1);
  EXPECT_NE(f.tests[0].odds.find("no dice"), std::string::npos);
  EXPECT_NE(f.tests[0].reason.find("faster for troops in a Built-Up Area"), std::string::npos);
}

TEST(StatesMoraleCheck, RawTroopsOutsideTheBuiltUpArea) {
  const json m = UnitOf(AnalyzeYaml(ShakenScene("raw", "line", 501, "")), "S")["morale_check"];
  EXPECT_TRUE(m["faster_for"].empty()) << m.dump();
  EXPECT_EQ(m["slower_for"], json::array({"raw troops"}));
}

// Eager troops take no such check.
TEST(StatesMoraleCheck, OnlyShakenTroops) {
  const Findings f = MakeRuleset("states")->Analyze(ParseScene(R"(
bw_mm: 40
units:
  - {id: S, side: blue, type: infantry, pose: {x_mm: 500, y_mm: 300, heading_deg: 90}}
)", "eager"));
  EXPECT_FALSE(UnitOf(f, "S").contains("morale_check"));
  EXPECT_TRUE(f.tests.empty());
}

}  // namespace
}  // namespace vedette
