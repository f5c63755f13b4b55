// The unit-states ruleset file (assets/rulesets/states.yaml, rules/states/config.h): values of the
// wrong shape are refused naming the file, the line and the key; a pass-through table names states
// the unit type has; a unit type the file gives no pass-through rules keeps its state.
#include <gtest/gtest.h>

#include <filesystem>

#include "rules/scene/scene_io.h"
#include "tests/rules/report_util.h"
#include "tests/rules/ruleset_file_util.h"

namespace vedette {
namespace {

using testing::ExpectRefused;

// These were "FILE: invalid node; this may result from using a map iterator as a sequence
// iterator, or vice-versa" with no line.
TEST(StatesRulesetFile, ListsAndMappingsOfTheWrongShapeNameTheLine) {
  ExpectRefused("states", "  ids:", "  ids: [x]", "tokens.ids must be a mapping");
  ExpectRefused("states", "  infantry: {eager", "  infantry: [x]", "pass_through.infantry must be a mapping");
  ExpectRefused("states", "  infantry: [eager", "  infantry: {a: 1}", "states.infantry must be a list");
  ExpectRefused("states", "title:", "title: [x]", "title must be a word or a phrase");
  ExpectRefused("states", "  min_overlap_mm2:", "  min_overlap_mm2: -1", "pass_through.min_overlap_mm2 must be 0 or more");
}

TEST(StatesRulesetFile, PassThroughNamesTheTypesOwnStates) {
  ExpectRefused("states", "  infantry: {eager", "  infantry: {a: 1}", "pass_through.infantry key: 'a' is not one of infantry's states");
  ExpectRefused("states", "  artillery: {eager", "  artillery: {eager: shaken, shaken: routed}",
                "pass_through.artillery entry: 'routed' is not one of artillery's states");
}

// The sample's routed unit flees through infantry; with no infantry rules in the file the analysis
// used to stop on std::map::at (exit status 1).
TEST(StatesRulesetFile, ATypeWithoutPassThroughRulesKeepsItsState) {
  const testing::EditedRulesetFile f = testing::EditRulesetFile("states", "  infantry: {eager", "", "no_infantry_rules");
  RulesetOptions o;
  o.assets_dir = f.assets_dir;
  const Scene scene = LoadScene(AssetsDir() + "/scenes/sample_states.yaml");
  const Findings plain = MakeRuleset("states")->Analyze(scene);
  const Findings edited = MakeRuleset("states", o)->Analyze(scene);
  const nlohmann::json flights = edited.report["flights"];
  ASSERT_FALSE(flights.empty()) << edited.report.dump(1);
  int infantry_passes = 0;
  for (const auto& flight : flights)
    for (const auto& p : flight["passes_through"]) {
      if (scene.FindUnit(p["unit"].get<std::string>())->type != UnitType::kInfantry) continue;
      ++infantry_passes;
      EXPECT_EQ(p["after"], p["before"]) << p.dump();
    }
  EXPECT_GT(infantry_passes, 0) << "the sample's flight passes through infantry: " << plain.report["flights"].dump();
  std::filesystem::remove_all(f.assets_dir);
}

}  // namespace
}  // namespace vedette
