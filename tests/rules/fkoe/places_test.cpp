// For King or Empress defended places (seed 004 lines 13, 60, 62) and artillery range (lines 27, 66).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "rules/input_error.h"
#include "rules/ruleset.h"
#include "rules/scene/scene_io.h"
#include "tests/rules/report_util.h"

namespace vedette {
namespace {

using nlohmann::json;

Findings AnalyzeYaml(const std::string& yaml, const RulesetOptions& o = {}) {
  return MakeRuleset("fkoe", o)->Analyze(ParseScene(yaml, "places"));
}

int Mod(const json& mods, const std::string& words) {
  for (const json& m : mods)
    if (m["rule"].get<std::string>().find(words) != std::string::npos) return m["value"].get<int>();
  return 0;
}

// U (100 x 40, faces -y) holds a village V; E attacks it from outside, front to front at y = 400.
//
//   y=600 +--------V (village)---------+      U: x 450..550, y 400..440, wholly in V
//         |         [==U==]            |      E: x 450..550, y 360..400, outside V
//   y=400 +---------[==E==]------------+ x = village_left .. 700
//
// U: melee CV +1 (seed 13), morale +2 (seed 60). E: neither.
std::string VillageScene(const std::string& type, double village_left, double village_bottom) {
  char yaml[1024];
  std::snprintf(yaml, sizeof yaml, R"(
bw_mm: 40
units:
  - {id: U, side: blue, type: infantry, base: {width_mm: 100, depth_mm: 40}, pose: {x_mm: 500, y_mm: 420, heading_deg: 270}}
  - {id: E, side: red, type: infantry, base: {width_mm: 100, depth_mm: 40}, pose: {x_mm: 500, y_mm: 380, heading_deg: 90}}
terrain:
  - {id: V, type: %s, polygon: [[%.3f, %.3f], [700, %.3f], [700, 600], [%.3f, 600]]}
)", type.c_str(), village_left, village_bottom, village_bottom, village_left);
  return yaml;
}

TEST(FkoePlaces, DefendingAVillage) {
  const Findings f = AnalyzeYaml(VillageScene("village", 300, 400));
  const json u = UnitOf(f, "U");
  ASSERT_EQ(u["melee"].size(), 1u);
  EXPECT_EQ(Mod(u["melee"][0]["modifiers"], "defending a Strong Point, Village or Works"), 1);
  EXPECT_EQ(Mod(u["morale"]["modifiers"], "Defending a Village or Works"), 2);
  const json e = UnitOf(f, "E");
  EXPECT_EQ(Mod(e["melee"][0]["modifiers"], "defending"), 0);
  EXPECT_EQ(Mod(e["morale"]["modifiers"], "Defending a Village"), 0);
}

// Exactly half of U's base in the village (village from x = 500: 50 of its 100 mm) is "in" it; the
// village starting 1 mm further right (x = 501, 49%) is not.
TEST(FkoePlaces, HalfTheBaseInTheVillageIsIn) {
  EXPECT_EQ(Mod(UnitOf(AnalyzeYaml(VillageScene("village", 500, 400)), "U")["melee"][0]["modifiers"], "defending"), 1);
  EXPECT_EQ(Mod(UnitOf(AnalyzeYaml(VillageScene("village", 501, 400)), "U")["melee"][0]["modifiers"], "defending"), 0);
}

// Both in the village (it reaches down to y = 300): street fighting, nobody defends it.
TEST(FkoePlaces, BothInsideNobodyDefends) {
  const Findings f = AnalyzeYaml(VillageScene("village", 300, 300));
  EXPECT_EQ(Mod(UnitOf(f, "U")["melee"][0]["modifiers"], "defending"), 0);
  EXPECT_EQ(Mod(UnitOf(f, "E")["melee"][0]["modifiers"], "defending"), 0);
}

// A Strong Point gives the combat +1 (seed 13) but the morale table names only Villages and Works (seed 60).
TEST(FkoePlaces, StrongPointCombatOnly) {
  const json u = UnitOf(AnalyzeYaml(VillageScene("strong_point", 300, 400)), "U");
  EXPECT_EQ(Mod(u["melee"][0]["modifiers"], "defending"), 1);
  EXPECT_EQ(Mod(u["morale"]["modifiers"], "Defending a Village"), 0);
}

// A line of works W (x 300..700, y 390..400) between U (lining it, y 400+gap..440+gap) and E (y e_top-40..e_top).
// They are not in contact, so it is fire: U fires at E and E at U.
//
//        [==U==]      U: faces -y, gap mm behind the works
//   ====W works====   y 390..400
//        [==E==]      E: faces +y, 10 mm in front of the works (or lining it too: e_top = 390)
//
// U is "at" the works when within 2 mm (fkoe.yaml defended_places.at_mm): gap 2 -> defends, 2.5 -> not.
std::string WorksScene(double gap, double e_top, const std::string& decl = "") {
  char yaml[1024];
  std::snprintf(yaml, sizeof yaml, R"(
bw_mm: 40
units:
  - {id: U, side: blue, type: infantry, base: {width_mm: 100, depth_mm: 40}, pose: {x_mm: 500, y_mm: %.3f, heading_deg: 270}}
  - {id: E, side: red, type: infantry, base: {width_mm: 100, depth_mm: 40}, pose: {x_mm: 500, y_mm: %.3f, heading_deg: 90}}
terrain:
  - {id: W, type: works, polygon: [[300, 390], [700, 390], [700, 400], [300, 400]]}
declarations:
  U: {target: E%s}
  E: {target: U}
)", 420 + gap, e_top - 20, decl.c_str());
  return yaml;
}

TEST(FkoePlaces, LiningWorksExactlyAtTheTolerance) {
  const Findings at = AnalyzeYaml(WorksScene(2.0, 380));
  const json u = UnitOf(at, "U");
  EXPECT_EQ(Mod(u["firing"]["modifiers"], "defending a Strong Point, Village or Works"), 1);
  EXPECT_EQ(Mod(u["morale"]["modifiers"], "Defending a Village or Works"), 2);
  EXPECT_EQ(Mod(UnitOf(at, "E")["firing"]["modifiers"], "defending"), 0);  // 10 mm off the works
  const json away = UnitOf(AnalyzeYaml(WorksScene(2.5, 380)), "U");
  EXPECT_EQ(Mod(away["firing"]["modifiers"], "defending"), 0);
  EXPECT_EQ(Mod(away["morale"]["modifiers"], "Defending"), 0);
}

// Both lining the works from either side: the table cannot say whose works they are. Nobody defends them
// unless declared (`holds: W`).
TEST(FkoePlaces, BothAtTheWorksNeedsADeclaration) {
  const Findings none = AnalyzeYaml(WorksScene(0.0, 390));
  EXPECT_EQ(Mod(UnitOf(none, "U")["firing"]["modifiers"], "defending"), 0);
  EXPECT_EQ(Mod(UnitOf(none, "E")["firing"]["modifiers"], "defending"), 0);
  const Findings held = AnalyzeYaml(WorksScene(0.0, 390, ", holds: W"));
  EXPECT_EQ(Mod(UnitOf(held, "U")["firing"]["modifiers"], "defending"), 1);
  EXPECT_EQ(Mod(UnitOf(held, "E")["firing"]["modifiers"], "defending"), 0);
  EXPECT_THROW(AnalyzeYaml(WorksScene(0.0, 390, ", holds: X")), InputError);
}

// A stream S (x 0..1000, y 380..400). U stands on its bank (y 400..440, touching). E fires at U:
//   from across (E at y 320..360)           -> U defends the bank: morale +2 (seed 62);
//   from U's own side (E at y 500..540)     -> not;
//   U standing in the stream (y 375..415: 62.5% of its base in it) -> not on the bank.
std::string StreamScene(double u_y, double e_y) {
  char yaml[1024];
  std::snprintf(yaml, sizeof yaml, R"(
bw_mm: 40
units:
  - {id: U, side: blue, type: infantry, base: {width_mm: 100, depth_mm: 40}, pose: {x_mm: 500, y_mm: %.3f, heading_deg: 270}}
  - {id: E, side: red, type: infantry, base: {width_mm: 100, depth_mm: 40}, pose: {x_mm: 700, y_mm: %.3f, heading_deg: 90}}
terrain:
  - {id: S, type: stream, polygon: [[0, 380], [1000, 380], [1000, 400], [0, 400]]}
declarations:
  E: {target: U}
)", u_y, e_y);
  return yaml;
}

TEST(FkoePlaces, DefendingTheBankOfAStream) {
  const json across = UnitOf(AnalyzeYaml(StreamScene(420, 340)), "U");
  EXPECT_EQ(Mod(across["morale"]["modifiers"], "Defending bank of Stream"), 2);
  EXPECT_EQ(across["morale"]["total"], 2);
  EXPECT_EQ(Mod(UnitOf(AnalyzeYaml(StreamScene(420, 520)), "U")["morale"]["modifiers"], "Stream"), 0);
  EXPECT_EQ(Mod(UnitOf(AnalyzeYaml(StreamScene(395, 340)), "U")["morale"]["modifiers"], "Stream"), 0);
}

// Artillery G (40 x 40, faces -y) fires at U (x 450..550, y 280..320). With short range 6 in (152.4 mm)
// and long range 18 in (457.2 mm), edge to edge:
//   gap 152.4 mm (G at y = 320 + 152.4 + 20)  -> short range: U's morale -2 (seed 66);
//   gap 152.9 mm                              -> long range: if hit, U tests morale (seed 27);
//   gap 460 mm                                -> beyond long range: neither.
std::string GunScene(double gap) {
  char yaml[1024];
  std::snprintf(yaml, sizeof yaml, R"(
bw_mm: 40
units:
  - {id: U, side: blue, type: infantry, base: {width_mm: 100, depth_mm: 40}, pose: {x_mm: 500, y_mm: 300, heading_deg: 90}}
  - {id: G, side: red, type: artillery, base: {width_mm: 40, depth_mm: 40}, pose: {x_mm: 500, y_mm: %.3f, heading_deg: 270}}
declarations:
  G: {target: U}
)", 340 + gap);
  return yaml;
}

TEST(FkoeArtillery, ShortAndLongRange) {
  RulesetOptions o;
  o.settings["artillery_short_range_in"] = "6";
  o.settings["artillery_long_range_in"] = "18";
  o.settings["morale_pass_at_least"] = "10";

  const Findings shortr = AnalyzeYaml(GunScene(152.4), o);
  const json g = UnitOf(shortr, "G")["firing"]["artillery"];
  EXPECT_EQ(g["range"], "short");
  EXPECT_NEAR(g["distance_in"].get<double>(), 6.0, 1e-9);
  const json u = UnitOf(shortr, "U");
  EXPECT_EQ(Mod(u["morale"]["modifiers"], "fired on by Artillery at short range"), -2);
  EXPECT_TRUE(shortr.tests.empty());

  const Findings longr = AnalyzeYaml(GunScene(152.9), o);
  EXPECT_EQ(UnitOf(longr, "G")["firing"]["artillery"]["range"], "long");
  EXPECT_EQ(Mod(UnitOf(longr, "U")["morale"]["modifiers"], "Artillery"), 0);
  ASSERT_EQ(longr.tests.size(), 1u);
  EXPECT_EQ(longr.tests[0].unit, "U");
  EXPECT_NE(longr.tests[0].reason.find("Hit by Artillery at long range"), std::string::npos);
  EXPECT_DOUBLE_EQ(longr.tests[0].p_success, 11.0 / 20.0);  // 1D20 + 0 >= 10: faces 10..20

  const Findings beyond = AnalyzeYaml(GunScene(460), o);
  EXPECT_EQ(UnitOf(beyond, "G")["firing"]["artillery"]["range"], "beyond long range");
  EXPECT_TRUE(beyond.tests.empty());
}

// The sheet gives no ranges: without them the band is not judged, and the report says so.
TEST(FkoeArtillery, RangesNotSetAreNotJudged) {
  const Findings f = AnalyzeYaml(GunScene(100));
  EXPECT_EQ(UnitOf(f, "G")["firing"]["artillery"]["range"], "not judged");
  bool said = false;
  const json u = UnitOf(f, "U");
  for (const json& n : u["morale"]["not_judged"])
    said = said || n.get<std::string>().find("artillery") != std::string::npos;
  EXPECT_TRUE(said);
  RulesetOptions bad;
  bad.settings["artillery_short_range_in"] = "18";
  bad.settings["artillery_long_range_in"] = "6";
  EXPECT_THROW(MakeRuleset("fkoe", bad), InputError);
}

// A ruleset file whose modifier table lacks a rule names the file, the table's line and the key.
TEST(FkoeRulesetFile, AMissingModifierNamesTheFileTheLineAndTheKey) {
  std::ifstream in(AssetsDir() + "/rulesets/fkoe.yaml");
  std::stringstream text;
  text << in.rdbuf();
  std::string yaml = text.str();
  const size_t at = yaml.find("\n  flank_rear_contact:");
  ASSERT_NE(at, std::string::npos);
  const size_t end = yaml.find('\n', at + 1);
  // The table's entries start on the line after "combat_value:" (where YAML marks the mapping).
  const int table_line = static_cast<int>(std::count(yaml.begin(), yaml.begin() + static_cast<long>(yaml.rfind("combat_value:", at)), '\n')) + 2;
  yaml.erase(at, end - at);
  const std::string dir = ::testing::TempDir() + "fkoe_missing_rule";
  std::filesystem::create_directories(dir + "/rulesets");
  std::ofstream(dir + "/rulesets/fkoe.yaml") << yaml;
  RulesetOptions o;
  o.assets_dir = dir;
  try {
    MakeRuleset("fkoe", o);
    ADD_FAILURE() << "a ruleset file without combat_value.flank_rear_contact was accepted";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(dir + "/rulesets/fkoe.yaml:" + std::to_string(table_line) + ":"), std::string::npos) << what;
    EXPECT_NE(what.find("combat_value: missing 'flank_rear_contact'"), std::string::npos) << what;
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace vedette
