// Kings of War attack odds (rules/kow/attack.h; seed 002 lines 36-57, 74, 77): the dice counted exactly,
// each threshold both ways, then the shooting and melee odds analyze gives from scene files.
#include <gtest/gtest.h>

#include <string>

#include "rules/kow/attack.h"
#include "rules/ruleset.h"
#include "rules/scene/scene_io.h"
#include "tests/rules/kow/kow_test_util.h"

namespace vedette {
namespace {

using nlohmann::json;

// Seed 36, 44: 10 attacks hitting on 4+ against Defence 4+: half hit, half of those damage.
TEST(KowAttackOdds, HitThenDamage) {
  const kow::AttackOdds a = kow::AttackOddsOf(10, 4, 0, 4);
  EXPECT_EQ(a.dice, 10);
  EXPECT_EQ(a.hit_on, 4);
  EXPECT_FALSE(a.halved);
  EXPECT_NEAR(a.p_hit, 0.5, 1e-12);
  EXPECT_NEAR(a.p_damage, 0.5, 1e-12);
  EXPECT_NEAR(a.expected_hits, 5.0, 1e-12);
  EXPECT_NEAR(a.expected_damage, 2.5, 1e-12);
  EXPECT_NEAR(a.p_any_damage, 1.0 - std::pow(0.75, 10), 1e-12);
  double sum = 0;
  for (double p : a.damage) sum += p;
  EXPECT_NEAR(sum, 1.0, 1e-12);
  EXPECT_NEAR(a.damage[1], 10 * 0.25 * std::pow(0.75, 9), 1e-12);
}

// Seed 36, 38: each -1 puts the roll needed up by one. 6+ is still a plain roll; 7+ means a 6 hits
// but half the attacks are rolled, rounded down.
TEST(KowAttackOdds, NeedingMoreThanSixHalvesTheAttacks) {
  const kow::AttackOdds six = kow::AttackOddsOf(11, 4, -2, 4);
  EXPECT_EQ(six.hit_on, 6);
  EXPECT_FALSE(six.halved);
  EXPECT_EQ(six.dice, 11);
  EXPECT_NEAR(six.p_hit, 1.0 / 6.0, 1e-12);
  const kow::AttackOdds seven = kow::AttackOddsOf(11, 4, -3, 4);
  EXPECT_EQ(seven.hit_on, 7);
  EXPECT_TRUE(seven.halved);
  EXPECT_EQ(seven.dice, 5);  // 11 / 2 rounded down
  EXPECT_NEAR(seven.p_hit, 1.0 / 6.0, 1e-12);
  EXPECT_NE(kow::Describe(seven).find("hits only on a 6"), std::string::npos) << kow::Describe(seven);
}

// Seed 38, 44: a 1 always misses and always fails to damage, whatever the modifiers.
TEST(KowAttackOdds, OneAlwaysFails) {
  const kow::AttackOdds a = kow::AttackOddsOf(6, 2, +1, 1);
  EXPECT_EQ(a.hit_on, 1);
  EXPECT_NEAR(a.p_hit, 5.0 / 6.0, 1e-12);
  EXPECT_NEAR(a.p_damage, 5.0 / 6.0, 1e-12);
  const kow::AttackOdds two = kow::AttackOddsOf(6, 2, 0, 2);
  EXPECT_NEAR(two.p_hit, 5.0 / 6.0, 1e-12);
  const kow::AttackOdds six = kow::AttackOddsOf(6, 4, 0, 6);
  EXPECT_NEAR(six.p_damage, 1.0 / 6.0, 1e-12);
  const kow::AttackOdds seven = kow::AttackOddsOf(6, 4, 0, 7);
  EXPECT_NEAR(seven.p_damage, 0.0, 1e-12);
  EXPECT_NEAR(seven.p_any_damage, 0.0, 1e-12);
}

// Seed 48, 65-71: one die that always damages (Defence 1+ and hit on 1+ still fail on a 1: p = 25/36);
// nerve 10/12 with 9 damage before: one more point gives a total of 12+ on any roll but a double 1.
TEST(KowAttackOdds, NerveAfterTheAttack) {
  const kow::AttackOdds a = kow::AttackOddsOf(1, 1, 0, 1);
  const double p = 25.0 / 36.0;
  EXPECT_NEAR(a.damage[1], p, 1e-12);
  const kow::NerveChances n = kow::NerveAfter(a, 9, {10, 12});
  EXPECT_NEAR(n.routed, p * 35.0 / 36.0, 1e-12);
  EXPECT_NEAR(n.steady, (1 - p) + p / 36.0, 1e-12);
  EXPECT_NEAR(n.wavering, 0.0, 1e-12);
}

using kow_test::UnitReport;

const json* Shot(const Findings& f, const std::string& shooter, const std::string& target) {
  for (const json& w : UnitReport(f, shooter)["shooting"])
    for (const json& t : w["targets"])
      if (t["target"] == target) return &t;
  return nullptr;
}
const json* Charge(const Findings& f, const std::string& unit, const std::string& target) {
  for (const json& c : UnitReport(f, unit)["charges"])
    if (c["target"] == target) return &c;
  return nullptr;
}

// Scene shooting_odds.yaml (sketch in the file).
TEST(KowShootingOdds, FromTheUnitsStatsWithEveryModifier) {
  const Findings f = MakeRuleset("kow")->Analyze(LoadScene(std::string(VEDETTE_TEST_DATA) + "/rules/kow/scenes/shooting_odds.yaml"));
  const json* s1 = Shot(f, "S1", "R1");
  ASSERT_NE(s1, nullptr);
  EXPECT_EQ((*s1)["odds"]["hit_on"], 4);
  EXPECT_NEAR((*s1)["odds"]["expected_damage"].get<double>(), 2.5, 1e-9);
  // R1 has 2 damage already: its nerve test after the volley (nerve 10/12).
  EXPECT_TRUE((*s1)["odds"].contains("nerve_after")) << s1->dump();
  EXPECT_NE(f.text.find("hits on 4+, damages on 4+: 10 dice, 5.0 hits, 2.5 damage expected"), std::string::npos) << f.text;
  EXPECT_NE(f.text.find("R1's nerve after: steady"), std::string::npos) << f.text;

  const json* s2 = Shot(f, "S2", "R2");
  ASSERT_NE(s2, nullptr);
  EXPECT_EQ((*s2)["modifier"], -1);
  EXPECT_EQ((*s2)["odds"]["hit_on"], 5);

  // At the double: no shooting, so no odds at all (seed 32).
  EXPECT_EQ(UnitReport(f, "S3")["cannot_shoot"], "moved at the double: cannot shoot (seed 32)");
  EXPECT_TRUE(UnitReport(f, "S3")["shooting"][0]["targets"].empty());

  // The individual S4 moved but is Nimble; R4 is an individual: -1 (seed 77).
  const json* s4 = Shot(f, "S4", "R4");
  ASSERT_NE(s4, nullptr);
  EXPECT_EQ((*s4)["modifier"], -1);
  ASSERT_EQ((*s4)["modifiers"].size(), 1u);
  EXPECT_NE((*s4)["modifiers"][0]["rule"].get<std::string>().find("individual"), std::string::npos);
  EXPECT_EQ((*s4)["odds"]["hit_on"], 5);
  EXPECT_EQ((*s4)["odds"]["dice"], 3);
}

// Without the stats, no odds (and no invented numbers).
TEST(KowShootingOdds, NoneWithoutStats) {
  Scene s = LoadScene(std::string(VEDETTE_TEST_DATA) + "/rules/kow/scenes/shooting_odds.yaml");
  for (Unit& u : s.units)
    if (u.id == "R1") u.stats.erase("defence");
  const Findings f = MakeRuleset("kow")->Analyze(s);
  const json* s1 = Shot(f, "S1", "R1");
  ASSERT_NE(s1, nullptr);
  EXPECT_TRUE((*s1)["odds"].is_null());
}

// Scene melee_odds.yaml (sketch in the file): the attack multipliers of seed 51, 74 and 77.
TEST(KowMeleeOdds, FlankRearWarEngineAndIndividuals) {
  const Findings f = MakeRuleset("kow")->Analyze(LoadScene(std::string(VEDETTE_TEST_DATA) + "/rules/kow/scenes/melee_odds.yaml"));
  struct Case {
    std::string unit, target, facing;
    int multiplier, dice;
  };
  for (const Case& c : {Case{"CF", "TF", "right_flank", 2, 20}, Case{"CR", "TR", "rear", 3, 30}, Case{"C3", "TW", "front", 3, 30},
                        Case{"C4", "TI", "right_flank", 1, 10}, Case{"CI", "T5", "rear", 1, 3}}) {
    const json* ch = Charge(f, c.unit, c.target);
    ASSERT_NE(ch, nullptr) << c.unit;
    EXPECT_TRUE((*ch)["chargeable"].get<bool>()) << ch->dump();
    EXPECT_EQ((*ch)["facing"], c.facing) << c.unit;
    EXPECT_EQ((*ch)["melee"]["multiplier"], c.multiplier) << c.unit;
    EXPECT_EQ((*ch)["melee"]["odds"]["dice"], c.dice) << c.unit;
    EXPECT_EQ((*ch)["melee"]["odds"]["hit_on"], 4) << c.unit;
  }
  EXPECT_NE(f.text.find("double attacks in the flank (seed 51)"), std::string::npos) << f.text;
  EXPECT_NE(f.text.find("individuals turn to face chargers"), std::string::npos) << f.text;
  EXPECT_NE(f.text.find("melee: hits on 4+, damages on 4+: 20 dice"), std::string::npos) << f.text;
  // Seed 62: a unit damaged in melee is Disordered: the chance is that of at least one point of damage.
  const json* cf = Charge(f, "CF", "TF");
  EXPECT_NEAR((*cf)["melee"]["odds"]["p_disordered"].get<double>(), (*cf)["melee"]["odds"]["p_any_damage"].get<double>(), 1e-12);
  EXPECT_NE(f.text.find("TF Disordered if damaged (seed 62): 100%"), std::string::npos) << f.text;
  EXPECT_NE(f.text.find("T5 Disordered if damaged (seed 62): 58%"), std::string::npos) << f.text;
}

// The sample scene: R1 counter-charges B1 (seed 27): into its front, 10 attacks, no multiplier.
TEST(KowMeleeOdds, CounterChargeInTheSampleScene) {
  const Findings f = MakeRuleset("kow")->Analyze(LoadScene(std::string(VEDETTE_ASSETS_DIR) + "/scenes/sample_kow.yaml"));
  const json& cc = UnitReport(f, "R1")["counter_charges"][0];
  EXPECT_EQ(cc["target"], "B1");
  EXPECT_EQ(cc["melee"]["multiplier"], 1);
  EXPECT_EQ(cc["melee"]["odds"]["dice"], 10);
  EXPECT_NEAR(cc["melee"]["odds"]["expected_damage"].get<double>(), 2.5, 1e-9);
}

}  // namespace
}  // namespace vedette
