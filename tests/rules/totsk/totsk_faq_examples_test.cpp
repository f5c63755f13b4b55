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

// FAQ "Flank support": B2 beside B1 gives R1, in contact with B1's front, one more reason when it tests.
TEST(TotskFaqExamples, EnemyFlankSupportIsAnAdditionalReason) {
  const auto r1 = UnitOf(Analyze(LoadScene(ScenePath("faq_enemy_flank_support.yaml"))), "R1");
  EXPECT_TRUE(r1["morale"]["tests"]);
  EXPECT_EQ(ModifierValue(r1, "Ea. reason to test above one"), -1) << ModifierList(r1);
}

// FAQ: a fortification on the edge of a stream is +2 in contact, only +1 when fired at.
TEST(TotskFaqExamples, FortifiedStreamBankInContactAndUnderFire) {
  const auto contact = UnitOf(Analyze(LoadScene(ScenePath("faq_fortified_stream_contact.yaml"))), "B1");
  EXPECT_EQ(contact["morale"]["terrain_column"], "in_contact");
  EXPECT_EQ(contact["morale"]["total"], 2) << ModifierList(contact);
  const auto fire = UnitOf(Analyze(LoadScene(ScenePath("faq_fortified_stream_fire.yaml"))), "B1");
  EXPECT_EQ(fire["morale"]["terrain_column"], "under_fire");
  EXPECT_EQ(fire["morale"]["total"], 1) << ModifierList(fire);
}

// FAQ "Infantry vs cavalry": cavalry on a flank secured by woods gives no reason; on the open flank it does.
TEST(TotskFaqExamples, CavalryAgainstSecuredAndOpenFlank) {
  const auto secured = UnitOf(Analyze(LoadScene(ScenePath("faq_cavalry_secured_flank.yaml"))), "B1");
  EXPECT_TRUE(secured["morale"]["reasons"].empty()) << secured["morale"].dump();
  const auto open = UnitOf(Analyze(LoadScene(ScenePath("faq_cavalry_open_flank.yaml"))), "B1");
  EXPECT_EQ(open["secure_flanks"]["left"], nlohmann::json::array({"W"}));
  ASSERT_EQ(open["morale"]["reasons"].size(), 1u) << open["morale"].dump();
  EXPECT_EQ(open["morale"]["reasons"][0]["kind"], "cavalry_threat");
}

}  // namespace
}  // namespace vedette
