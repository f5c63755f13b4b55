// Unit states ruleset (seed 003): states from declarations and tokens, their effects, and what a
// fleeing unit does to the units it passes through.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "rules/ruleset.h"
#include "rules/scene/scene_io.h"
#include "tests/rules/report_util.h"
#include "tests/rules/states/states_test_util.h"

namespace vedette {
namespace {

using nlohmann::json;
using states_test::Move;

Findings Analyze(const Scene& s) { return MakeRuleset("states")->Analyze(s); }

// I: infantry 100 x 40 at (500, 300) facing +y (x 450..550, y 280..320).
std::string Scene1(const std::string& extra) {
  return R"(
bw_mm: 40
units:
  - {id: I, side: blue, type: infantry, base: {width_mm: 100, depth_mm: 40}, pose: {x_mm: 500, y_mm: 300, heading_deg: 90}}
  - {id: G, side: blue, type: artillery, base: {width_mm: 40, depth_mm: 40}, pose: {x_mm: 800, y_mm: 300, heading_deg: 90}}
)" + extra;
}

TEST(States, DefaultIsEagerWithNoEffects) {
  const json i = UnitOf(Analyze(ParseScene(Scene1(""), "default")), "I");
  EXPECT_EQ(i["state"], "eager");
  EXPECT_EQ(i["state_source"], "default");
  EXPECT_TRUE(i["modifiers"].empty());
}

// Seed 7: shaken is -1 firing, -1 morale, +1 to a charger's morale roll; seed 13: a morale check.
TEST(States, ShakenEffectsAndMorale) {
  const Findings f = Analyze(ParseScene(Scene1("declarations:\n  I: {state: shaken}\n"), "shaken"));
  const json i = UnitOf(f, "I");
  EXPECT_EQ(i["state"], "shaken");
  EXPECT_EQ(i["modifiers"]["firing"], -1);
  EXPECT_EQ(i["modifiers"]["morale"], -1);
  EXPECT_EQ(i["modifiers"]["charger_morale"], 1);
  ASSERT_EQ(f.tests.size(), 1u);
  EXPECT_EQ(f.tests[0].unit, "I");
  EXPECT_EQ(f.tests[0].total, -1);
}

// Tokens: 42 (routed) lies 30 mm above I's front edge (y = 350): exactly the reach, so it counts.
// 30.5 mm: no unit within reach, I stays eager.
TEST(States, TokenWithinReachSetsTheState) {
  auto state = [](double y) {
    char extra[128];
    std::snprintf(extra, sizeof extra, "tokens:\n  - {marker: 42, x_mm: 500, y_mm: %.3f}\n", y);
    const Findings f = Analyze(ParseScene(Scene1(extra), "token"));
    return std::make_pair(UnitOf(f, "I")["state"].get<std::string>(), f.report["tokens"][0]);
  };
  auto [at, token_at] = state(350);
  EXPECT_EQ(at, "routed");
  EXPECT_EQ(token_at["unit"], "I");
  EXPECT_NEAR(token_at["distance_mm"].get<double>(), 30.0, 1e-9);
  auto [beyond, token_beyond] = state(350.5);
  EXPECT_EQ(beyond, "eager");
  EXPECT_TRUE(token_beyond["unit"].is_null());
}

// A routed token beside artillery is ignored (artillery is silenced, never routed: seed 45); two tokens
// on I (shaken and routed): the more severe counts; a declaration beats a token.
TEST(States, TokenRulesAndPrecedence) {
  const Findings f = Analyze(ParseScene(Scene1(R"(tokens:
  - {marker: 42, x_mm: 800, y_mm: 330}
  - {marker: 41, x_mm: 440, y_mm: 300}
  - {marker: 42, x_mm: 560, y_mm: 300}
  - {marker: 44, x_mm: 500, y_mm: 270}
)"), "tokens"));
  const json g = UnitOf(f, "G");
  EXPECT_EQ(g["state"], "eager");
  EXPECT_EQ(g["notes"].size(), 1u);
  const json i = UnitOf(f, "I");
  EXPECT_EQ(i["state"], "routed");
  EXPECT_TRUE(i["firing"].get<bool>());  // token 44: firing marker

  const json declared = UnitOf(
      Analyze(ParseScene(Scene1("tokens:\n  - {marker: 42, x_mm: 560, y_mm: 300}\ndeclarations:\n  I: {state: shaken}\n"), "d")), "I");
  EXPECT_EQ(declared["state"], "shaken");
  EXPECT_EQ(declared["state_source"], "declared");
}

TEST(States, DeclaredStateTheTypeCannotHaveNamesTheLine) {
  const Scene s = ParseScene(Scene1("declarations:\n  G: {state: routed}\n"), "bad.yaml");
  try {
    Analyze(s);
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.line(), 7);
    EXPECT_NE(std::string(e.what()).find("silenced"), std::string::npos);
  }
}

// Scene flight.yaml (sketch in the file).
TEST(States, FleeingUnitChangesTheStatesOfUnitsItPassesThrough) {
  const Findings f = Analyze(LoadScene(std::string(VEDETTE_TEST_DATA) + "/rules/states/scenes/flight.yaml"));
  EXPECT_EQ(UnitOf(f, "E")["state_after"], "shaken");
  EXPECT_EQ(UnitOf(f, "S")["state"], "shaken");
  EXPECT_EQ(UnitOf(f, "S")["state_source"], "token 41");
  EXPECT_EQ(UnitOf(f, "S")["state_after"], "routed");
  EXPECT_EQ(UnitOf(f, "A")["state_after"], "silenced");
  EXPECT_FALSE(UnitOf(f, "N").contains("state_after"));
  ASSERT_EQ(f.report["flights"].size(), 1u);
  EXPECT_EQ(f.report["flights"][0]["passes_through"].size(), 3u);
}

TEST(States, CheckMoveByState) {
  const Scene s = ParseScene(Scene1("declarations:\n  I: {firing: true}\n"), "move");
  const auto rs = MakeRuleset("states");
  const MoveRequest m = Move("I", 500, 350, 90);
  EXPECT_FALSE(rs->CheckMove(s, m).legal);  // firing: cannot do anything else
  const MoveRequest pivot = Move("G", 800, 300, 120);
  EXPECT_TRUE(rs->CheckMove(s, pivot).legal);  // unlimbered artillery may pivot
  const MoveRequest roll = Move("G", 800, 340, 90);
  EXPECT_FALSE(rs->CheckMove(s, roll).legal);  // ... but not move
  const Scene limbered = ParseScene(Scene1("declarations:\n  G: {limbered: true}\n"), "limbered");
  EXPECT_TRUE(rs->CheckMove(limbered, roll).legal);

  const Scene flight = LoadScene(std::string(VEDETTE_TEST_DATA) + "/rules/states/scenes/flight.yaml");
  const MoveCheck c = rs->CheckMove(flight, Move("R", 300, 150, 270));
  EXPECT_TRUE(c.supported);
  ASSERT_EQ(c.report["passes_through"].size(), 1u);  // only as far as E
  EXPECT_EQ(c.report["passes_through"][0]["unit"], "E");
}

TEST(StatesScene, TokensRoundTripAndClashWithUnitMarkers) {
  const Scene s = ParseScene(Scene1("tokens:\n  - {marker: 41, x_mm: 1.5, y_mm: 2}\n"), "rt");
  const Scene back = ParseScene(SceneToYaml(s), "back");
  ASSERT_EQ(back.tokens.size(), 1u);
  EXPECT_EQ(back.tokens[0].marker, 41);
  EXPECT_DOUBLE_EQ(back.tokens[0].x_mm, 1.5);
  EXPECT_THROW(ParseScene(R"(bw_mm: 40
units:
  - {id: I, side: blue, type: infantry, marker: 41, pose: {x_mm: 1, y_mm: 1, heading_deg: 90}}
tokens:
  - {marker: 41, x_mm: 1, y_mm: 2}
)", "clash"),
               InputError);
}

}  // namespace
}  // namespace vedette
