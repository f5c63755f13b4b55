// The FAQ's worked examples, each drawn as a scene under tests/rules/totsk/scenes/ (the sketch and
// coordinates are in the scene file's header comment).
#include <gtest/gtest.h>

#include "tests/rules/totsk/totsk_test_util.h"

namespace vedette {
namespace {

using namespace totsk_test;

// FAQ "Applying penalties": "if a unit has 2 enemy units in range or in contact on the flank: ... a total -4".
TEST(TotskFaqExamples, TwoInRangeOnTheFlankGiveMinus4) {
  const auto r = Analyze(LoadScene(ScenePath("faq_two_on_flank.yaml")));
  const auto b1 = UnitOf(r, "B1");
  EXPECT_EQ(b1["threats"]["left_flank"], nlohmann::json::array({"R1"}));
  EXPECT_EQ(b1["threats"]["right_flank"], nlohmann::json::array({"R2"}));
  EXPECT_TRUE(b1["morale"]["tests"]);
  EXPECT_EQ(b1["morale"]["reasons"].size(), 2u);
  EXPECT_EQ(ModifierValue(b1, "At least one enemy BW entirely behind flank"), -1) << ModifierList(b1);
  EXPECT_EQ(ModifierValue(b1, "Enemy in contact with or in range of flank OR rear"), -2) << ModifierList(b1);
  EXPECT_EQ(ModifierValue(b1, "Ea. reason to test above one"), -1) << ModifierList(b1);
  EXPECT_EQ(b1["morale"]["total"], -4) << ModifierList(b1);
}

// "if a unit has 1 enemy unit on the flank and 1 on the rear both in range: ... a total of -6".
TEST(TotskFaqExamples, FlankAndRearInRangeGiveMinus6) {
  const auto r = Analyze(LoadScene(ScenePath("faq_flank_and_rear.yaml")));
  const auto b1 = UnitOf(r, "B1");
  EXPECT_EQ(b1["threats"]["left_flank"], nlohmann::json::array({"R1"}));
  EXPECT_EQ(b1["threats"]["rear"], nlohmann::json::array({"R3"}));
  EXPECT_EQ(b1["morale"]["total"], -6) << ModifierList(b1);
}

// "if a unit has 2 enemy unit in range the rear: -4 for the first and an additional -1 ... a total -5".
TEST(TotskFaqExamples, TwoInRangeOnTheRearGiveMinus5) {
  const auto r = Analyze(LoadScene(ScenePath("faq_two_on_rear.yaml")));
  const auto b1 = UnitOf(r, "B1");
  EXPECT_EQ(b1["threats"]["rear"], nlohmann::json::array({"R3", "R4"}));
  EXPECT_EQ(b1["morale"]["total"], -5) << ModifierList(b1);
}

}  // namespace
}  // namespace vedette

namespace vedette {
namespace {

using namespace totsk_test;

// FAQ entrenched artillery contacted by infantry: +1 fortification, -1 contact with infantry = 0.
TEST(TotskFaqExamples, EntrenchedArtilleryContactedByInfantry) {
  const auto a = UnitOf(Analyze(LoadScene(ScenePath("faq_artillery_entrenched.yaml"))), "A");
  EXPECT_TRUE(a["morale"]["tests"]);
  EXPECT_EQ(a["morale"]["total"], 0) << ModifierList(a);
  EXPECT_EQ(a["morale"]["modifiers"].size(), 2u) << ModifierList(a);
}

// FAQ flanking case 2: the red unit faces away from Blue 2.
TEST(TotskFaqExamples, FlankingCase2) {
  const auto r = Analyze(LoadScene(ScenePath("faq_flanking_case2.yaml")));
  EXPECT_EQ(UnitOf(r, "B1")["threats"]["rear"], nlohmann::json::array({"R"}));
  EXPECT_TRUE(UnitOf(r, "B2")["threats"]["rear"].empty());
  EXPECT_TRUE(UnitOf(r, "B2")["threats"]["right_flank"].empty());
  EXPECT_TRUE(UnitOf(r, "B2")["threats"]["left_flank"].empty());
}

}  // namespace
}  // namespace vedette
