// TotSK group moves (QRS "Individual or Group moves", the note on rear-supporting units "if all
// same type"; FAQ: one test for the group, a failure fails the whole group). 1 BW = 40 mm; bases
// 40 x 20 mm facing +y unless said. The pair:
//
//     M1 (480,200)  M2 (520,200)      side by side, touching (0 mm apart)
#include <gtest/gtest.h>

#include "tests/rules/totsk/totsk_test_util.h"

namespace vedette {
namespace {

using namespace totsk_test;

std::string UnitLine(const std::string& id, const std::string& type, double x, double y, const std::string& extra = "") {
  return "  - {id: " + id + ", side: blue, type: " + type + ", base: {width_mm: 40, depth_mm: 20}, pose: {x_mm: " +
         std::to_string(x) + ", y_mm: " + std::to_string(y) + ", heading_deg: 90}" + (extra.empty() ? "" : ", " + extra) +
         "}\n";
}

Scene GroupScene(const std::string& units, const std::string& rest = "") {
  return ParseScene("bw_mm: 40\nunits:\n" + units + rest, "group.yaml");
}

MoveRequest To(const std::string& unit, double x, double y, double h) {
  MoveRequest m;
  m.unit = unit;
  m.to = {x, y, h};
  return m;
}

TEST(TotskGroupMove, LineAdvancingTogetherNeedsNoTest) {
  const Scene s = GroupScene(UnitLine("M1", "infantry", 480, 200) + UnitLine("M2", "infantry", 520, 200));
  const GroupMoveCheck g = Totsk({})->CheckGroupMove(s, {To("M1", 480, 240, 90), To("M2", 520, 240, 90)});
  ASSERT_TRUE(g.supported);
  EXPECT_TRUE(g.allowed) << g.text;
  EXPECT_TRUE(g.tests.empty()) << g.text;
}

// Both about face: one about-face test for the group, at the odds of M2, who failed its morale
// last turn (-1): the group rolls once and needs M2's score.
TEST(TotskGroupMove, OneTestForTheGroupAtTheHardestOdds) {
  const Scene s = GroupScene(UnitLine("M1", "infantry", 480, 200) + UnitLine("M2", "infantry", 520, 200),
                             "declarations:\n  M2: {failed_morale: true}\n");
  const auto ruleset = Totsk({});
  const GroupMoveCheck g = ruleset->CheckGroupMove(s, {To("M1", 480, 200, -90), To("M2", 520, 200, -90)});
  ASSERT_TRUE(g.allowed) << g.text;
  ASSERT_EQ(g.tests.size(), 1u) << g.text;
  const MoveCheck alone = ruleset->CheckMove(s, To("M2", 520, 200, -90));
  ASSERT_EQ(alone.tests.size(), 1u);
  EXPECT_DOUBLE_EQ(g.tests[0].p_success, alone.tests[0].p_success);
  EXPECT_LT(g.tests[0].p_success, ruleset->CheckMove(s, To("M1", 480, 200, -90)).tests[0].p_success);
  const auto& gt = g.report["group_tests"][0];
  EXPECT_EQ(gt["action"], "about_face");
  EXPECT_EQ(gt["hardest_for"], "M2");
  EXPECT_EQ(gt["needed_by"], nlohmann::json::array({"M1", "M2"}));
}

TEST(TotskGroupMove, OnlyUnitsOfOneTypeStandingTogether) {
  const auto ruleset = Totsk({});
  const GroupMoveCheck mixed = ruleset->CheckGroupMove(
      GroupScene(UnitLine("M1", "infantry", 480, 200) + UnitLine("C1", "cavalry", 520, 200)), {To("M1", 480, 240, 90), To("C1", 520, 240, 90)});
  EXPECT_FALSE(mixed.allowed);
  EXPECT_NE(mixed.reason.find("same type"), std::string::npos) << mixed.text;
  // 1 BW apart edge to edge (M2's left edge at x = 540 + 40): still together; 1 mm more: not.
  const GroupMoveCheck at_1bw = ruleset->CheckGroupMove(
      GroupScene(UnitLine("M1", "infantry", 480, 200) + UnitLine("M2", "infantry", 560, 200)), {To("M1", 480, 240, 90), To("M2", 560, 240, 90)});
  EXPECT_TRUE(at_1bw.allowed) << at_1bw.text;
  const GroupMoveCheck apart = ruleset->CheckGroupMove(
      GroupScene(UnitLine("M1", "infantry", 480, 200) + UnitLine("M2", "infantry", 561, 200)), {To("M1", 480, 240, 90), To("M2", 561, 240, 90)});
  EXPECT_FALSE(apart.allowed);
  EXPECT_NE(apart.reason.find("within 1 BW"), std::string::npos) << apart.text;
}

// A move only an individual may make (straight back, QRS) cannot be part of a group.
TEST(TotskGroupMove, IndividualOnlyMovesBreakTheGroup) {
  const Scene s = GroupScene(UnitLine("M1", "infantry", 480, 200) + UnitLine("M2", "infantry", 520, 200));
  const GroupMoveCheck g = Totsk({})->CheckGroupMove(s, {To("M1", 480, 180, 90), To("M2", 520, 180, 90)});
  EXPECT_FALSE(g.allowed) << g.text;
  EXPECT_NE(g.reason.find("straight_back"), std::string::npos) << g.text;
}

}  // namespace
}  // namespace vedette
