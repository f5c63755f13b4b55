// The ruleset file: every QRS number the engine uses is read from assets/rulesets/totsk.yaml, checked
// here against the texts (shared/seeds: QRS = 001_..., FAQ = 000_...), and a bad file names file:line.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>

#include "rules/input_error.h"
#include "rules/ruleset.h"
#include "rules/totsk/totsk_data.h"
#include "rules/totsk/totsk_dice.h"

namespace vedette::totsk {
namespace {

std::string AssetText() {
  std::ifstream in(AssetsDir() + "/rulesets/totsk.yaml");
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TotskData Data() { return LoadTotskData(AssetsDir() + "/rulesets/totsk.yaml"); }

// QRS "MOVEMENT" table, every line (BW, open / rough; NA = no rough rate).
TEST(TotskData, MovementTableMatchesTheQrs) {
  const TotskData d = Data();
  struct Row {
    const char* type;
    const char* row;
    double open;
    double rough;  // < 0: NA
  };
  const Row rows[] = {{"infantry", "line", 2, 1},      {"infantry", "column", 4, 1},   {"infantry", "light", 4, 1},
                      {"infantry", "strategic", 6, 2}, {"infantry", "road", 8, 2},     {"cavalry", "line", 4, -1},
                      {"cavalry", "column", 6, 2},     {"cavalry", "light", 6, 2},     {"cavalry", "strategic", 8, 6},
                      {"cavalry", "road", 10, 6},      {"artillery", "breakoff", 10, 5}, {"artillery", "prolong", 1, 1},
                      {"artillery", "limbered", 2, 1}, {"artillery", "strategic", 6, 2}, {"general", "any", 10, 6}};
  for (const Row& r : rows) {
    SCOPED_TRACE(std::string(r.type) + " " + r.row);
    const MoveRate& m = d.movement.at(r.type).at(r.row);
    EXPECT_EQ(m.open_bw, r.open);
    if (r.rough < 0) EXPECT_FALSE(m.rough_bw.has_value());
    else EXPECT_EQ(m.rough_bw.value_or(-1), r.rough);
  }
}

// QRS "ACTION TEST" table: Easy 2+, Standard 3+, Difficult 4+, Extreme 5+ and its modifiers.
TEST(TotskData, ActionTestTableMatchesTheQrs) {
  const TotskData d = Data();
  EXPECT_EQ(d.action_need.at("easy"), 2);
  EXPECT_EQ(d.action_need.at("standard"), 3);
  EXPECT_EQ(d.action_need.at("difficult"), 4);
  EXPECT_EQ(d.action_need.at("extreme"), 5);
  EXPECT_EQ(d.action_modifiers.at("additional_gun"), -1);
  EXPECT_EQ(d.action_modifiers.at("failed_morale_last_turn"), -1);
  EXPECT_EQ(d.action_modifiers.at("obsolete_gun_limbering"), -1);
  EXPECT_EQ(d.action_modifiers.at("at_bt_into_contact_infantry_artillery"), 1);
}

// QRS "Morale test Procedure" (8+ pass, 3 or less rout), distances, and the two sides of each
// QRS-vs-FAQ conflict.
TEST(TotskData, MoraleNumbersAndConflicts) {
  const TotskData d = Data();
  EXPECT_EQ(d.morale_pass_at_least, 8);
  EXPECT_EQ(d.morale_rout_at_most, 3);
  EXPECT_EQ(d.zoc_depth_bw, 1);
  EXPECT_EQ(d.rear_support_infantry_bw, 1);
  EXPECT_EQ(d.rear_support_cavalry_bw, 2);
  EXPECT_EQ(d.threat_distance_faq_bw, 2);  // FAQ "Applying penalties": within 2BW
  EXPECT_EQ(d.threat_distance_qrs_bw, 4);  // QRS: within 4BW
  EXPECT_EQ(d.ranges_faq.foot, 0.5);       // FAQ: 1/2 BW for infantry/cavalry, 3 BW for artillery
  EXPECT_EQ(d.ranges_faq.cavalry, 0.5);
  EXPECT_EQ(d.ranges_faq.artillery, 3);
  EXPECT_EQ(d.ranges_qrs.foot, 1);         // QRS: 1 BW foot, 2 BW LI, 6 BW artillery
  EXPECT_EQ(d.ranges_qrs.light_infantry, 2);
  EXPECT_EQ(d.ranges_qrs.artillery, 6);
  EXPECT_EQ(d.charged_by_cavalry_faq.value, -1);
  EXPECT_EQ(d.charged_by_cavalry_qrs.value, 1);
  EXPECT_EQ(d.Morale("enemy_behind_flank").value, -1);
  EXPECT_EQ(d.Morale("enemy_behind_rear").value, -2);
  EXPECT_EQ(d.Morale("enemy_in_range_of_flank_or_rear").value, -2);
  EXPECT_EQ(d.Morale("additional_reason").value, -1);
  EXPECT_EQ(d.Morale("rear_support").value, 1);
  EXPECT_EQ(d.Morale("artillery_in_contact_with_cavalry").value, -2);
  EXPECT_EQ(d.Morale("li_in_contact_with_non_li_in_open").value, -2);
  // FAQ table: maximum totals +2 / +1 / +2.
  EXPECT_EQ(d.under_fire.at("infantry").max, 2);
  EXPECT_EQ(d.under_fire.at("cavalry").max, 1);
  EXPECT_EQ(d.in_contact.at("artillery").max, 2);
  EXPECT_EQ(d.under_fire.at("cavalry").fortification, 0);
}

// Each difficulty of the QRS table on 1D6 with no modifier: fail 1 / 1-2 / 1-3 / 1-4.
TEST(TotskDice, ActionTestOddsEveryLine) {
  EXPECT_DOUBLE_EQ(ActionSuccess(0, 2), 5.0 / 6);
  EXPECT_DOUBLE_EQ(ActionSuccess(0, 3), 4.0 / 6);
  EXPECT_DOUBLE_EQ(ActionSuccess(0, 4), 3.0 / 6);
  EXPECT_DOUBLE_EQ(ActionSuccess(0, 5), 2.0 / 6);
  EXPECT_DOUBLE_EQ(ActionSuccess(-1, 3), 3.0 / 6);  // Standard with -1 (failed morale last turn)
  EXPECT_DOUBLE_EQ(ActionSuccess(+1, 4), 4.0 / 6);  // Difficult with +1 (AT/BT into contact)
  EXPECT_DOUBLE_EQ(ActionSuccess(-5, 5), 0.0);
  EXPECT_DOUBLE_EQ(ActionSuccess(+4, 5), 1.0);
}

// 2D6: 8+ pass, 4-7 lose a fail, 3 or less rout. Counts of 2D6 sums: 2:1 3:2 4:3 5:4 6:5 7:6 8:5 ...
TEST(TotskDice, MoraleOddsByHand) {
  MoraleOdds o = MoraleOddsFor(0, 8, 3);
  EXPECT_DOUBLE_EQ(o.p_pass, 15.0 / 36);  // 8..12: 5+4+3+2+1
  EXPECT_DOUBLE_EQ(o.p_rout, 3.0 / 36);   // 2, 3
  EXPECT_DOUBLE_EQ(o.p_lose_fail, 18.0 / 36);
  o = MoraleOddsFor(-4, 8, 3);             // FAQ -4: pass needs 12, rout on 7 or less
  EXPECT_DOUBLE_EQ(o.p_pass, 1.0 / 36);
  EXPECT_DOUBLE_EQ(o.p_rout, 21.0 / 36);
  o = MoraleOddsFor(-6, 8, 3);             // FAQ -6: cannot pass, rout on 9 or less
  EXPECT_DOUBLE_EQ(o.p_pass, 0.0);
  EXPECT_DOUBLE_EQ(o.p_rout, 30.0 / 36);
  o = MoraleOddsFor(+2, 8, 3);             // pass on 6+, rout on 1 (never)
  EXPECT_DOUBLE_EQ(o.p_pass, 26.0 / 36);
  EXPECT_DOUBLE_EQ(o.p_rout, 0.0);
  for (int t = -12; t <= 12; ++t) {
    const MoraleOdds x = MoraleOddsFor(t, 8, 3);
    EXPECT_NEAR(x.p_pass + x.p_lose_fail + x.p_rout, 1.0, 1e-12) << t;
  }
}

// A bad number names the file and its line.
TEST(TotskData, BadFileNamesFileAndLine) {
  std::string text = AssetText();
  const std::regex zoc("zone_of_control: \\{depth_bw: 1\\}");
  ASSERT_TRUE(std::regex_search(text, zoc));
  int line = 1;
  for (size_t i = 0; i < text.find("zone_of_control:"); ++i) line += text[i] == '\n';
  const std::string bad = std::regex_replace(text, zoc, "zone_of_control: {depth_bw: deep}");
  try {
    ParseTotskData(bad, "totsk.yaml");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.line(), line);
    EXPECT_NE(std::string(e.what()).find("totsk.yaml:" + std::to_string(line)), std::string::npos) << e.what();
    EXPECT_NE(e.message().find("depth_bw"), std::string::npos) << e.what();
  }
  const std::string unknown_row = std::regex_replace(text, std::regex("skirmish: light"), "skirmish: swarm");
  EXPECT_THROW(ParseTotskData(unknown_row, "x.yaml"), InputError);
  EXPECT_THROW(ParseTotskData("name: [", "x.yaml"), InputError);
  EXPECT_THROW(ParseTotskData("name: totsk\n", "x.yaml"), InputError);  // missing everything else
}

TEST(TotskSettingsTest, FaqByDefaultQrsOneSettingAway) {
  const TotskData d = Data();
  const TotskSettings faq = ParseTotskSettings({}, "test");
  EXPECT_EQ(faq.ThreatBw(d), 2);
  EXPECT_EQ(faq.Ranges(d).artillery, 3);
  const TotskSettings qrs = ParseTotskSettings({{"rules", "qrs"}}, "test");
  EXPECT_EQ(qrs.ThreatBw(d), 4);
  EXPECT_EQ(qrs.Ranges(d).artillery, 6);
  EXPECT_EQ(qrs.ChargedByCavalry(d).value, 1);
  const TotskSettings mixed = ParseTotskSettings({{"rules", "qrs"}, {"threat_distance", "faq"}, {"other", "x"}}, "test");
  EXPECT_EQ(mixed.ThreatBw(d), 2);
  EXPECT_EQ(mixed.Ranges(d).foot, 1);
  EXPECT_EQ(mixed.ignored, std::vector<std::string>{"other"});
  EXPECT_EQ(ParseTotskSettings({{"threat_distance_bw", "3.5"}}, "t").ThreatBw(d), 3.5);
  EXPECT_THROW(ParseTotskSettings({{"threat_distance", "4"}}, "t"), InputError);
  EXPECT_THROW(ParseTotskSettings({{"threat_distance_bw", "far"}}, "t"), InputError);
}

}  // namespace
}  // namespace vedette::totsk
