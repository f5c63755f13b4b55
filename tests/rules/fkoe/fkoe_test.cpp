// For King or Empress ruleset (seed 004): bad going, 1-inch visibility, combat value and morale
// modifiers that the table decides, with totals.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "rules/ruleset.h"
#include "rules/scene/scene_io.h"
#include "tests/rules/report_util.h"

namespace vedette {
namespace {

using nlohmann::json;

Findings Analyze(const Scene& s, const RulesetOptions& o = {}) { return MakeRuleset("fkoe", o)->Analyze(s); }

int ModifierValue(const json& mods, const std::string& words) {
  for (const json& m : mods)
    if (m["rule"].get<std::string>().find(words) != std::string::npos) return m["value"].get<int>();
  return 0;
}

// U: 100 x 40 at (500, 300) facing +y, front edge x 450..550 at y = 320. Woods from x = edge_x to 700.
// Edge 500: exactly half the frontage (50 mm) in the woods -> in bad going (seed 81 "at least 1/2").
// Edge 500.5: 49.5 mm -> not. R is in front contact so the melee -2 shows.
std::string BadGoingScene(double edge_x, const std::string& tags) {
  char yaml[1024];
  std::snprintf(yaml, sizeof yaml, R"(
bw_mm: 40
units:
  - {id: U, side: blue, type: infantry, tags: [%s], base: {width_mm: 100, depth_mm: 40}, pose: {x_mm: 500, y_mm: 300, heading_deg: 90}}
  - {id: R, side: red, type: infantry, base: {width_mm: 100, depth_mm: 40}, pose: {x_mm: 500, y_mm: 340, heading_deg: 270}}
terrain:
  - {id: W, type: woods, polygon: [[%.3f, 200], [700, 200], [700, 330], [%.3f, 330]]}
)", tags.c_str(), edge_x, edge_x);
  return yaml;
}

TEST(FkoeBadGoing, ExactlyHalfTheFrontageIsBadGoing) {
  const json half = UnitOf(Analyze(ParseScene(BadGoingScene(500, ""), "half")), "U");
  EXPECT_TRUE(half["bad_going"]["in"].get<bool>());
  EXPECT_NEAR(half["bad_going"]["frontage_in_terrain_mm"].get<double>(), 50.0, 1e-9);
  EXPECT_EQ(ModifierValue(half["melee"][0]["modifiers"], "Bad Going"), -2);

  const json less = UnitOf(Analyze(ParseScene(BadGoingScene(500.5, ""), "less")), "U");
  EXPECT_FALSE(less["bad_going"]["in"].get<bool>());
  EXPECT_EQ(ModifierValue(less["melee"][0]["modifiers"], "Bad Going"), 0);
}

TEST(FkoeBadGoing, LightInfantryIgnoresTheCombatPenalty) {
  const json li = UnitOf(Analyze(ParseScene(BadGoingScene(450, "light"), "li")), "U");
  EXPECT_TRUE(li["bad_going"]["in"].get<bool>());
  EXPECT_EQ(ModifierValue(li["melee"][0]["modifiers"], "Bad Going"), 0);
}

// Visibility in or out of bad going is 1 in (seed 80). U stands wholly in woods; E faces it at a gap.
TEST(FkoeBadGoing, OneInchVisibility) {
  auto sees = [](double gap) {
    char yaml[1024];
    std::snprintf(yaml, sizeof yaml, R"(
bw_mm: 40
units:
  - {id: U, side: blue, type: infantry, base: {width_mm: 100, depth_mm: 40}, pose: {x_mm: 500, y_mm: 300, heading_deg: 90}}
  - {id: E, side: red, type: infantry, base: {width_mm: 100, depth_mm: 40}, pose: {x_mm: 500, y_mm: %.6f, heading_deg: 270}}
terrain:
  - {id: W, type: woods, polygon: [[300, 200], [700, 200], [700, 330], [300, 330]]}
)", 340 + gap);
    return UnitOf(Analyze(ParseScene(yaml, "vis")), "U")["cannot_see"].empty();
  };
  EXPECT_TRUE(sees(25.4));   // exactly 1 in
  EXPECT_FALSE(sees(26.0));
}

// Scene melee.yaml (sketch in the file).
TEST(FkoeMelee, FlankContactAndOverlapModifiers) {
  const Findings f = Analyze(LoadScene(std::string(VEDETTE_TEST_DATA) + "/rules/fkoe/scenes/melee.yaml"));
  const json b1 = UnitOf(f, "B1");
  ASSERT_EQ(b1["melee"].size(), 1u);
  const json& m = b1["melee"][0];
  EXPECT_EQ(m["enemy"], "R1");
  EXPECT_EQ(ModifierValue(m["modifiers"], "Flank or Rear"), 2);
  EXPECT_EQ(ModifierValue(m["modifiers"], "overlapping"), 1);
  EXPECT_EQ(m["total_modifier"], 3);
  EXPECT_EQ(m["modified_combat_value"], 7.0);
  EXPECT_DOUBLE_EQ(m["p_first_hit"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(m["p_second_hit"].get<double>(), 1.0 / 6.0);
  // B3 only touches R1's corner: it overlaps, it is not in melee.
  EXPECT_TRUE(UnitOf(f, "B3")["melee"].empty());
  const json r1 = UnitOf(f, "R1");
  EXPECT_EQ(ModifierValue(r1["morale"]["modifiers"], "melee with enemy in contact to Flank"), -6);
  EXPECT_EQ(r1["morale"]["total"], -6);
}

// Firing (seed 11, 12, 10) and the target's morale (seed 64, 67).
//
//   y=350..450   [R>]     R: road column facing +x, x 480..520, y 350..450; its right edge is y = 350
//   y=260..300  [==B==]   B: leader point (500, 300), beyond R's right edge line: a flank shot
//   y=210..250  [==S==]   S: 10 mm behind B's rear edge, same facing: a supporting unit (<= 1 in)
//
// B: +1 flank, +1 support, +2 road column = +4. R (2 disorder markers): -2 disorder, -3 fired on flank.
TEST(FkoeFiring, FlankSupportRoadColumnAndTargetMorale) {
  const Scene s = ParseScene(R"(
bw_mm: 40
units:
  - {id: B, side: blue, type: infantry, tags: [muskets], base: {width_mm: 100, depth_mm: 40}, pose: {x_mm: 500, y_mm: 280, heading_deg: 90}, stats: {combat_value: 3}}
  - {id: S, side: blue, type: infantry, base: {width_mm: 100, depth_mm: 40}, pose: {x_mm: 500, y_mm: 230, heading_deg: 90}}
  - {id: R, side: red, type: infantry, formation: road_column, base: {width_mm: 100, depth_mm: 40}, pose: {x_mm: 500, y_mm: 400, heading_deg: 0}}
declarations:
  B: {target: R}
  R: {disorder: 2}
)", "fire");
  RulesetOptions o;
  o.settings["morale_pass_at_least"] = "10";
  const Findings f = Analyze(s, o);
  const json fire = UnitOf(f, "B")["firing"];
  EXPECT_EQ(fire["target_arc"], "right_flank");
  EXPECT_EQ(ModifierValue(fire["modifiers"], "Firing at enemy in Flank"), 1);
  EXPECT_EQ(ModifierValue(fire["modifiers"], "supporting"), 1);
  EXPECT_EQ(ModifierValue(fire["modifiers"], "Road Column"), 2);
  EXPECT_EQ(fire["total_modifier"], 4);
  const json r = UnitOf(f, "R");
  EXPECT_EQ(ModifierValue(r["morale"]["modifiers"], "fired on Flank"), -3);
  EXPECT_EQ(ModifierValue(r["morale"]["modifiers"], "Disorder"), -2);
  EXPECT_EQ(r["morale"]["total"], -5);
  // 1D20 - 5 >= 10 needs 15..20: 6 faces of 20.
  ASSERT_EQ(f.tests.size(), 1u);
  EXPECT_EQ(f.tests[0].unit, "R");
  EXPECT_DOUBLE_EQ(f.tests[0].p_success, 0.3);
}

// Command range of a C-n-C with no command of his own (seed 63): G is 100 mm from U's base.
TEST(FkoeMorale, CommanderInChiefRange) {
  const Scene s = ParseScene(R"(
bw_mm: 40
units:
  - {id: U, side: blue, type: infantry, base: {width_mm: 100, depth_mm: 40}, pose: {x_mm: 500, y_mm: 300, heading_deg: 90}}
  - {id: G, side: blue, type: general, tags: [cinc, no_command], base: {width_mm: 30, depth_mm: 30}, pose: {x_mm: 665, y_mm: 300, heading_deg: 90}}
)", "cinc");
  RulesetOptions near, far;
  near.settings["command_range_in"] = "4";  // 101.6 mm
  far.settings["command_range_in"] = "3.9"; // 99.06 mm
  EXPECT_EQ(UnitOf(Analyze(s, near), "U")["morale"]["total"], 1);
  EXPECT_EQ(UnitOf(Analyze(s, far), "U")["morale"]["total"], 0);
  // Not set: not judged, and said so.
  EXPECT_FALSE(UnitOf(Analyze(s), "U")["morale"]["not_judged"].empty());
}

TEST(FkoeRuleset, BadTargetNamesTheLine) {
  const Scene s = ParseScene(R"(bw_mm: 40
units:
  - {id: B, side: blue, type: infantry, pose: {x_mm: 500, y_mm: 100, heading_deg: 90}}
declarations:
  B: {target: B}
)", "bad.yaml");
  try {
    Analyze(s);
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.line(), 5);
  }
}

}  // namespace
}  // namespace vedette
