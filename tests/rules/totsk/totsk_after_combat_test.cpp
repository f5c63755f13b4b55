// What follows the morale tests under TotSK, each rule from a scene file in tests/rules/totsk/scenes/
// with a case on each side of each threshold: the cavalry break-off (QRS 95), pursuit (QRS 97, FAQ
// "PURSUING"), light troops' pull back (QRS 99), lining up (FAQ), the generals' bonus moves (QRS 103,
// FAQ "Extra moves") and wing and army morale (QRS 105, FAQ "ARMY MORALE TEST"). 1 BW = 40 mm.
#include <gtest/gtest.h>

#include "rules/input_error.h"
#include "tests/rules/totsk/totsk_test_util.h"

namespace vedette {
namespace {

using namespace totsk_test;
using nlohmann::json;

bool HasKind(const MoveCheck& c, const std::string& k) {
  return std::find(c.kinds.begin(), c.kinds.end(), k) != c.kinds.end();
}

// QRS 95: B1 failed in contact, no rear support: 6 BW (240 mm) to the rear facing away; hand placement
// may miss by tolerances.placement_bw (0.25 BW = 10 mm).
TEST(TotskBreakOff, FailedTestRetiresSixBwFacingAway) {
  const Scene s = LoadScene(ScenePath("break_off.yaml"));
  const MoveCheck ok = Move(s, "B1", 500, 160, 270);
  EXPECT_TRUE(ok.legal) << ok.text;
  EXPECT_TRUE(HasKind(ok, "break_off"));
  EXPECT_TRUE(ok.tests.empty()) << "a break-off is no ordered move: no action test";
  EXPECT_TRUE(Move(s, "B1", 500, 151, 270).legal);   // 249 mm
  EXPECT_FALSE(Move(s, "B1", 500, 149, 270).legal);  // 251 mm
  EXPECT_TRUE(Move(s, "B1", 500, 169, 270).legal);   // 231 mm
  EXPECT_FALSE(Move(s, "B1", 500, 171, 270).legal);  // 229 mm
  const MoveCheck facing = Move(s, "B1", 500, 160, 90);
  EXPECT_FALSE(facing.legal);
  EXPECT_NE(facing.illegal_reason.find("facing away"), std::string::npos) << facing.illegal_reason;
}

// QRS 95: B2 has B3 in rear support: it falls back through B3 and stops at supporting distance (cavalry
// 2 BW = 80 mm) behind it, facing the enemy. B3's rear edge is y=350: B2's front edge 78 mm behind it
// supports, 82 mm does not.
TEST(TotskBreakOff, ThroughRearSupportsToSupportingDistance) {
  const Scene s = LoadScene(ScenePath("break_off.yaml"));
  const MoveCheck ok = Move(s, "B2", 700, 350 - 78 - 10, 90);
  EXPECT_TRUE(ok.legal) << ok.text;
  EXPECT_EQ(ok.report["supports_after"], "B3");
  EXPECT_FALSE(Move(s, "B2", 700, 350 - 82 - 10, 90).legal);
  EXPECT_FALSE(Move(s, "B2", 700, 350 - 30 - 10, 270).legal) << "it ends facing the enemy";
}

// FAQ 299: through several lines of supports it stops at the first place with room for it: the gap
// between L2 and L3 (C's centre y 280..310), not behind L3, even though behind L3 is a supporting
// position too; the move there "can exceed the maximum movement allowed".
TEST(TotskBreakOff, ThroughSeveralLinesItStopsAtTheFirstRoom) {
  const Scene s = LoadScene(ScenePath("break_off_lines.yaml"));
  const MoveCheck gap = Move(s, "C", 500, 305, 90);
  EXPECT_TRUE(gap.legal) << gap.text;
  EXPECT_TRUE(HasKind(gap, "break_off"));
  const MoveCheck beyond = Move(s, "C", 500, 235, 90);
  EXPECT_FALSE(beyond.legal);
  EXPECT_NE(beyond.illegal_reason.find("FAQ 299"), std::string::npos) << beyond.illegal_reason;
  EXPECT_NE(beyond.illegal_reason.find("L3"), std::string::npos) << beyond.illegal_reason;
  EXPECT_FALSE(Move(s, "C", 500, 330, 90).legal) << "on top of L2";
  // With no gap (L3 moved up against L2) behind L3 is the first room: legal.
  Scene tight = s;
  tight.FindUnit("L3")->pose->y_mm = 300;  // L3: y 290..310, touching L2's rear (320)? 10 mm apart: no room
  EXPECT_TRUE(Move(tight, "C", 500, 265, 90).legal) << Move(tight, "C", 500, 265, 90).text;
}

// QRS 95: a passed test against infantry or artillery allows "retire 2 BW and about face"; not against cavalry.
TEST(TotskBreakOff, PassedTestMayRetireTwoBwOnlyFromFootOrGuns) {
  const Scene s = LoadScene(ScenePath("break_off.yaml"));
  const MoveCheck ok = Move(s, "B4", 900, 320, 270);
  EXPECT_TRUE(ok.legal) << ok.text;
  EXPECT_TRUE(HasKind(ok, "break_off_choice"));
  EXPECT_TRUE(Move(s, "B4", 900, 311, 270).legal);   // 89 mm
  EXPECT_FALSE(Move(s, "B4", 900, 309, 270).legal);  // 91 mm
  const MoveCheck cav = Move(s, "B5", 1100, 320, 270);
  EXPECT_FALSE(cav.legal);
  EXPECT_NE(cav.illegal_reason.find("only from infantry or artillery"), std::string::npos) << cav.illegal_reason;
}

// QRS 95 "They cannot move again in their following turn".
TEST(TotskBreakOff, NoMoveInTheFollowingTurn) {
  Scene s = LoadScene(ScenePath("break_off.yaml"));
  const MoveCheck c = Move(s, "B6", 1300, 240, 90);
  EXPECT_FALSE(c.legal);
  EXPECT_NE(c.illegal_reason.find("cannot move again"), std::string::npos) << c.illegal_reason;
  s.declarations.units["B6"].erase("broke_off");
  EXPECT_TRUE(Move(s, "B6", 1300, 240, 90).legal);
}

// QRS 97: the pursuit test and distance. B1: +1 British, -1 General within 1BW (G1 10 mm away):
// 1D6 + 0 >= 6 = 1/6; distance 1D6 + 2: 3 to 8 BW. G1 40 mm away still counts, 41 mm does not.
TEST(TotskPursuit, TestAndDistanceModifiers) {
  Scene s = LoadScene(ScenePath("pursuit.yaml"));
  auto entry = [](const json& r, const std::string& id) {
    for (const json& p : r["pursuit"])
      if (p["unit"] == id) return p;
    return json();
  };
  json r = Analyze(s);
  json b1 = entry(r, "B1");
  ASSERT_FALSE(b1.is_null()) << r["pursuit"].dump();
  EXPECT_EQ(b1["after"], json::array({"R1"}));
  EXPECT_EQ(b1["total"], 0);
  EXPECT_NEAR(b1["p_pursue"].get<double>(), 1.0 / 6.0, 1e-12);
  EXPECT_EQ(b1["distance_bw"]["min"], 3);
  EXPECT_EQ(b1["distance_bw"]["max"], 8);
  // B2: +1 Raw; distance 1D6 - 2 (Elite), never below 0.
  json b2 = entry(r, "B2");
  ASSERT_FALSE(b2.is_null());
  EXPECT_EQ(b2["after"], json::array({"R2"})) << "cavalry that failed in contact breaks off: it may be pursued";
  EXPECT_NEAR(b2["p_pursue"].get<double>(), 2.0 / 6.0, 1e-12);
  EXPECT_EQ(b2["distance_bw"]["min"], 0);
  EXPECT_EQ(b2["distance_bw"]["max"], 4);
  // Infantry pursues only with --set pursuit=qrs (QRS 97 names no type; FAQ "PURSUING" speaks of cavalry).
  EXPECT_TRUE(entry(r, "B3").is_null());
  EXPECT_FALSE(entry(Analyze(s, {{"pursuit", "qrs"}}), "B3").is_null());
  // General within 1 BW: 40 mm counts, 41 mm does not.
  s.FindUnit("G1")->pose->x_mm = 570;  // G1 x 560..580: 40 mm from B1's right edge x=520
  EXPECT_EQ(entry(Analyze(s), "B1")["total"], 0);
  s.FindUnit("G1")->pose->x_mm = 571;
  EXPECT_EQ(entry(Analyze(s), "B1")["total"], 1);
  // Only the active player pursues (QRS 10).
  s.declarations.active_side = "red";
  EXPECT_TRUE(Analyze(s)["pursuit"].empty());
}

// The text says it in a player's words.
TEST(TotskPursuit, PlainText) {
  const Findings f = Totsk()->Analyze(LoadScene(ScenePath("pursuit.yaml")));
  EXPECT_NE(f.text.find("B1 may pursue R1 (QRS 97): pursues on 1D6 +0 >= 6 (+1 British, -1 General within 1BW (G1)): 17%"),
            std::string::npos) << f.text;
}

// FAQ "PURSUING": "it just goes the full distance it rolled for pursuit and stops", straight ahead;
// shorter only when it meets an enemy.
TEST(TotskPursuit, MoveGoesTheFullRolledDistance) {
  const Scene s = LoadScene(ScenePath("pursuit_move.yaml"));
  const MoveCheck full = Move(s, "B1", 500, 520, 90);  // 3 BW
  EXPECT_TRUE(full.legal) << full.text;
  EXPECT_TRUE(HasKind(full, "pursuit"));
  EXPECT_TRUE(Move(s, "B1", 500, 529, 90).legal);
  EXPECT_FALSE(Move(s, "B1", 500, 531, 90).legal);
  EXPECT_FALSE(Move(s, "B1", 500, 509, 90).legal) << "short of the roll without meeting an enemy";
  EXPECT_FALSE(Move(s, "B1", 520, 520, 90).legal) << "not straight ahead";
  const MoveCheck meets = Move(s, "B2", 900, 600, 90);  // 200 mm of a 240 mm roll, into R7
  EXPECT_TRUE(meets.legal) << meets.text;
  EXPECT_TRUE(meets.report["meets_enemy"].get<bool>());
  EXPECT_FALSE(Move(s, "B3", 1300, 480, 90).legal) << "infantry pursues only with pursuit=qrs";
  EXPECT_TRUE(Move(s, "B3", 1300, 480, 90, false, {{"pursuit", "qrs"}}).legal);
}

// QRS 99: pull back to 1 BW from the enemy, facing it; an action test (QRS 52); not LI in the open
// contacted by cavalry. B1's start is in contact; pulled back it is 40 mm from R1.
TEST(TotskPullBack, OneBwFacingTheEnemyWithATest) {
  const Scene s = LoadScene(ScenePath("pull_back.yaml"));
  const MoveCheck ok = Move(s, "B1", 500, 360, 90);  // front edge y=370: 40 mm from R1
  EXPECT_TRUE(ok.legal) << ok.text;
  EXPECT_TRUE(HasKind(ok, "pull_back"));
  EXPECT_EQ(Actions(ok), (std::vector<std::string>{"light_pull_back"}));
  // 1 BW +- 0.25 BW is a pull back; further or nearer it is an ordinary move (straight back).
  EXPECT_TRUE(HasKind(Move(s, "B1", 500, 351, 90), "pull_back"));   // 49 mm
  EXPECT_FALSE(HasKind(Move(s, "B1", 500, 349, 90), "pull_back"));  // 51 mm
  EXPECT_TRUE(HasKind(Move(s, "B1", 500, 349, 90), "straight_back"));
  EXPECT_TRUE(HasKind(Move(s, "B1", 500, 369, 90), "pull_back"));   // 31 mm
  EXPECT_FALSE(HasKind(Move(s, "B1", 500, 371, 90), "pull_back"));  // 29 mm
  const MoveCheck open = Move(s, "B2", 700, 360, 90);
  EXPECT_FALSE(open.legal);
  EXPECT_NE(open.illegal_reason.find("in the open contacted by cavalry"), std::string::npos) << open.illegal_reason;
  EXPECT_TRUE(Move(s, "B3", 900, 360, 90).legal) << "in woods it may";
  EXPECT_TRUE(Move(s, "B4", 1100, 360, 90).legal) << "light horse may";
}

// FAQ: lining up after contact. B1, contacted on its left flank by R1, turns to face it: no test. B2
// also has R2 on its front: facing R3 is an action test. B3 touches R4 with a corner and squares up.
TEST(TotskLineUp, ConformingToTheEnemy) {
  const Scene s = LoadScene(ScenePath("line_up.yaml"));
  const MoveCheck b1 = Move(s, "B1", 490, 400, 180);
  EXPECT_TRUE(b1.legal) << b1.text;
  EXPECT_TRUE(HasKind(b1, "line_up"));
  EXPECT_TRUE(b1.tests.empty());
  EXPECT_TRUE(Move(s, "B1", 490, 400, 183).legal) << "3 degrees off square is square (tolerances.straight_deg)";
  const MoveCheck skew = Move(s, "B1", 490, 400, 184);
  EXPECT_FALSE(HasKind(skew, "line_up"));
  const MoveCheck b2 = Move(s, "B2", 790, 390, 180);
  EXPECT_TRUE(b2.legal) << b2.text;
  EXPECT_EQ(Actions(b2), (std::vector<std::string>{"face_flank_attacker"}));
  const MoveCheck b3 = Move(s, "B3", 1200, 400, 90);
  EXPECT_TRUE(b3.legal) << b3.text;
  EXPECT_TRUE(HasKind(b3, "line_up"));
  EXPECT_TRUE(b3.tests.empty());
}

// QRS 103: a second move needs a General with a rating within 6 BW; 240 mm is in reach, 241 mm is not.
TEST(TotskBonusMoves, SecondMoveNeedsAGeneralWithinSixBw) {
  const Scene s = LoadScene(ScenePath("bonus_moves.yaml"));
  const MoveCheck in = Move(s, "B1", 500, 700, 90, true);
  EXPECT_TRUE(in.legal) << in.text;
  EXPECT_EQ(in.report["bonus_move_generals"][0]["general"], "G1");
  const MoveCheck out = Move(s, "B2", 500, 179, 90, true);
  EXPECT_FALSE(out.legal);
  EXPECT_NE(out.illegal_reason.find("within 6 BW (QRS 103)"), std::string::npos) << out.illegal_reason;
  EXPECT_TRUE(Move(s, "B2", 500, 179, 90, false).legal) << "a first move needs no general";
}

// FAQ "Extra moves": "if you have a 2 Army Commander and a 1 lower commander you can try to get the unit
// to do 3 extra moves".
TEST(TotskBonusMoves, FaqArmyCommanderTwoAndLowerCommanderOneGiveThree) {
  const Scene s = LoadScene(ScenePath("bonus_moves.yaml"));
  const MoveCheck c = Move(s, "B3", 1500, 440, 90, true);
  ASSERT_TRUE(c.legal) << c.text;
  int points = 0;
  for (const json& g : c.report["bonus_move_generals"]) points += g["rating"].get<int>();
  EXPECT_EQ(points, 3);
}

// QRS 103 "1 bonus move/action test permitted per level of the General": G1 (rating 2) serves two of the
// three units declared to have made one; B3's comes from GA or GL.
TEST(TotskBonusMoves, DeclaredBonusMovesAgainstTheRatings) {
  Scene s = LoadScene(ScenePath("bonus_moves.yaml"));
  for (const char* id : {"B1", "B4", "B5", "B3"}) Declare(&s, id, "bonus_move", true);
  const Findings f = Totsk()->Analyze(s);
  ASSERT_TRUE(f.report.contains("bonus_moves_unserved")) << f.text;
  EXPECT_EQ(f.report["bonus_moves_unserved"].size(), 1u);
  EXPECT_NE(f.text.find("have no point left"), std::string::npos) << f.text;
  s.declarations.units["B5"].erase("bonus_move");
  EXPECT_FALSE(Totsk()->Analyze(s).report.contains("bonus_moves_unserved"));
}

json Entry(const json& list, const std::string& key, const std::string& value) {
  for (const json& e : list)
    if (e[key] == value) return e;
  return json();
}

// QRS 105: a wing that has lost half its units tests, 1D6 + the commander's rating >= 5.
TEST(TotskWingArmyMorale, WingTestsAtHalfItsUnits) {
  Scene s = LoadScene(ScenePath("wing_army.yaml"));
  json r = Analyze(s);
  const json left = Entry(r["wing_morale"], "wing", "left");
  EXPECT_TRUE(left["tests"].get<bool>()) << left.dump();
  EXPECT_DOUBLE_EQ(left["p_pass"].get<double>(), 0.5);  // 1D6 + 1 >= 5
  EXPECT_FALSE(Entry(r["wing_morale"], "wing", "right")["tests"].get<bool>());  // 1 of 4
  const json army = Entry(r["army_morale"], "side", "blue");
  EXPECT_FALSE(army["tests"].get<bool>());
  Declare(&s, "B6", "lost", true);  // right wing: 2 of 4, no rating
  r = Analyze(s);
  const json right = Entry(r["wing_morale"], "wing", "right");
  EXPECT_TRUE(right["tests"].get<bool>());
  EXPECT_DOUBLE_EQ(right["p_pass"].get<double>(), 2.0 / 6.0);  // 1D6 >= 5
}

// FAQ: the army tests when it has lost half or more of its wings; QRS (army_morale=qrs): half its units.
TEST(TotskWingArmyMorale, ArmyByWingsOrByUnits) {
  Scene s = LoadScene(ScenePath("wing_army.yaml"));
  Declare(&s, "B6", "lost", true);  // 4 of 8 units lost, no wing wholly lost
  EXPECT_FALSE(Entry(Analyze(s)["army_morale"], "side", "blue")["tests"].get<bool>());
  const json qrs = Entry(Analyze(s, {{"army_morale", "qrs"}})["army_morale"], "side", "blue");
  EXPECT_TRUE(qrs["tests"].get<bool>());
  EXPECT_DOUBLE_EQ(qrs["p_pass"].get<double>(), 4.0 / 6.0);  // 1D6 + 2 >= 5
  Declare(&s, "B3", "lost", true);
  Declare(&s, "B4", "lost", true);  // the left wing is gone: 1 of 2 wings
  const json faq = Entry(Analyze(s)["army_morale"], "side", "blue");
  EXPECT_TRUE(faq["tests"].get<bool>()) << faq.dump();
  EXPECT_EQ(faq["counts"], "wings");
  EXPECT_EQ(Entry(Analyze(s)["army_morale"], "side", "red")["tests"], false);
}

TEST(TotskWingArmyMorale, BadDeclarationsAreRefused) {
  Scene s = LoadScene(ScenePath("wing_army.yaml"));
  Declare(&s, "B7", "lost", "yes");
  EXPECT_THROW(Analyze(s), InputError);
  s.declarations.units["B7"].erase("lost");
  Declare(&s, "B7", "wing", 3);
  EXPECT_THROW(Analyze(s), InputError);
  s.declarations.units["B7"]["wing"] = Declared{"right", 0};
  Declare(&s, "B7", "pursuit_bw", "far");
  EXPECT_THROW(Analyze(s), InputError);
  s.declarations.units["B7"].erase("pursuit_bw");
  Declare(&s, "B7", "wavering", true);  // a tag under TotSK, not a declaration
  EXPECT_THROW(Analyze(s), InputError);
  s.declarations.units["B7"].erase("wavering");
  EXPECT_NO_THROW(Analyze(s));
}

}  // namespace
}  // namespace vedette

namespace vedette {
namespace {

using namespace totsk_test;

// QRS 91: B1 withdraws 1 BW after a passed test against infantry (+-0.25 BW; another length is an
// ordinary straight-back move); R2 in cover forces B2 back 1 BW; AT R3 forces B3 back 1/4 BW (FAQ 129),
// where the slack is half of it (5 mm); 1 BW with forced_back=qrs.
TEST(TotskInfantryBreakOff, WithdrawAndForcedBack) {
  const Scene s = LoadScene(ScenePath("infantry_break_off.yaml"));
  const MoveCheck w = Move(s, "B1", 500, 360, 90);
  EXPECT_TRUE(w.legal) << w.text;
  EXPECT_TRUE(HasKind(w, "infantry_withdraw"));
  EXPECT_TRUE(w.tests.empty());
  EXPECT_TRUE(HasKind(Move(s, "B1", 500, 351, 90), "infantry_withdraw"));   // 49 mm
  EXPECT_FALSE(HasKind(Move(s, "B1", 500, 349, 90), "infantry_withdraw"));  // 51 mm: straight back
  EXPECT_TRUE(HasKind(Move(s, "B2", 800, 360, 90), "forced_back"));
  EXPECT_TRUE(HasKind(Move(s, "B3", 1100, 390, 90), "forced_back"));
  EXPECT_TRUE(HasKind(Move(s, "B3", 1100, 386, 90), "forced_back"));   // 14 mm
  EXPECT_FALSE(HasKind(Move(s, "B3", 1100, 384, 90), "forced_back"));  // 16 mm
  EXPECT_FALSE(HasKind(Move(s, "B3", 1100, 360, 90), "forced_back"));
  EXPECT_TRUE(HasKind(Move(s, "B3", 1100, 360, 90, false, {{"forced_back", "qrs"}}), "forced_back"));
}

// QRS 93: the crew may shelter in a friendly unit within 2 BW: 80 mm yes, 81 mm no; if it is lost the
// gun is lost too (counted for wing and army morale).
TEST(TotskCrewShelter, WithinTwoBwAndLostTogether) {
  Scene s = LoadScene(ScenePath("crew_shelter.yaml"));
  json r = Analyze(s);
  ASSERT_EQ(r["crew_shelter"].size(), 1u);
  EXPECT_TRUE(r["crew_shelter"][0]["allowed"].get<bool>());
  s.FindUnit("B1")->pose->x_mm = 620;  // 80 mm
  EXPECT_TRUE(Analyze(s)["crew_shelter"][0]["allowed"].get<bool>());
  s.FindUnit("B1")->pose->x_mm = 621;  // 81 mm
  EXPECT_FALSE(Analyze(s)["crew_shelter"][0]["allowed"].get<bool>());
  Declare(&s, "B1", "lost", true);
  r = Analyze(s);
  EXPECT_TRUE(r["crew_shelter"][0]["gun_lost"].get<bool>());
  const json army = Entry(r["army_morale"], "side", "blue");
  EXPECT_EQ(army["lost"], 2) << army.dump();  // B1 and the gun
}

}  // namespace
}  // namespace vedette

namespace vedette {
namespace {

using namespace totsk_test;

// FAQ "Number of morale fails", the worked example: a large determined infantry unit 5, a tiny wavering
// one 1; FAQ 324: losing the last fail destroys the unit.
TEST(TotskMoraleFails, FaqLargeDeterminedFiveTinyWaveringOne) {
  const Findings f = Totsk()->Analyze(LoadScene(ScenePath("morale_fails.yaml")));
  const json& list = f.report["morale_fails"];
  EXPECT_EQ(Entry(list, "unit", "B1")["fails"], 5);
  EXPECT_EQ(Entry(list, "unit", "B2")["fails"], 1);
  EXPECT_EQ(Entry(list, "unit", "B3")["fails"], 3);
  EXPECT_EQ(Entry(list, "unit", "B3")["left"], 1);
  EXPECT_TRUE(Entry(list, "unit", "B4").is_null()) << "no number for cavalry on the sheets";
  EXPECT_EQ(Entry(list, "unit", "B5")["fails"], 3);
  EXPECT_NE(f.text.find("B3 can lose 3 morale fails (infantry 3, FAQ \"Number of morale fails\") and has lost 2: losing another "
                        "destroys it (FAQ 324)"),
            std::string::npos)
      << f.text;
}

}  // namespace
}  // namespace vedette

namespace vedette {
namespace {

using namespace totsk_test;

// QRS 101 and FAQ 324, exact over 2D6: an attached general dies on an unmodified 4 (3/36); one who
// re-rolls dies on a natural 2 or 3, or when the re-roll routs (B1 at -2: a modified 3 or less is a
// natural 5 or less: 10/36; B2 at 0: 3/36).
TEST(TotskGeneralRisk, AttachedAndReroll) {
  const Findings f = Totsk()->Analyze(LoadScene(ScenePath("general_risk.yaml")));
  const json b1 = UnitOf(f.report, "B1");
  ASSERT_TRUE(b1["morale"]["tests"].get<bool>()) << f.text;
  ASSERT_EQ(b1["morale"]["total"], -2) << ModifierList(b1);
  EXPECT_NEAR(b1["morale"]["general_attached_p_killed"].get<double>(), 3.0 / 36.0, 1e-12);
  EXPECT_NEAR(b1["morale"]["reroll_p_general_killed"].get<double>(), 10.0 / 36.0, 1e-12);
  const json b2 = UnitOf(f.report, "B2");
  EXPECT_FALSE(b2["morale"].contains("general_attached_p_killed"));
  EXPECT_NEAR(b2["morale"]["reroll_p_general_killed"].get<double>(), 3.0 / 36.0, 1e-12);
  EXPECT_NE(f.text.find("G1 (attached) is killed on an unmodified 4: 8% (QRS 101)"), std::string::npos) << f.text;
}

}  // namespace
}  // namespace vedette

namespace vedette {
namespace {

using namespace totsk_test;

// FAQ 316 and the movement table: a contacted limbered gun breaks off up to 10 BW (400 mm) in the open,
// 5 BW (200 mm) when the move crosses bad going; 1 mm of slack.
TEST(TotskArtilleryBreakOff, OneFullBreakOffMove) {
  Scene s = LoadScene(ScenePath("artillery_break_off.yaml"));
  const MoveCheck ok = Move(s, "RA", 500, 400, 270);
  EXPECT_TRUE(ok.legal) << ok.text;
  EXPECT_TRUE(HasKind(ok, "artillery_break_off"));
  EXPECT_TRUE(ok.tests.empty());
  EXPECT_FALSE(Move(s, "RA", 500, 398, 270).legal);  // 402 mm
  s.terrain.push_back({"M", "marsh", {{450, 650}, {550, 650}, {550, 700}, {450, 700}}, 0.0, 0});
  EXPECT_TRUE(Move(s, "RA", 500, 600, 270).legal);   // 200 mm through the marsh
  EXPECT_FALSE(Move(s, "RA", 500, 598, 270).legal);  // 202 mm
}

}  // namespace
}  // namespace vedette

namespace vedette {
namespace {

using namespace totsk_test;

// The shipped sample assets/scenes/sample_totsk_after_combat.yaml (its header gives the commands).
TEST(TotskAfterCombatSample, TheSampleSaysWhatItsHeaderSays) {
  const Scene s = LoadScene(AssetsDir() + "/scenes/sample_totsk_after_combat.yaml");
  const Findings f = Totsk()->Analyze(s);
  ASSERT_EQ(f.report["pursuit"].size(), 2u) << f.text;
  EXPECT_EQ(Entry(f.report["pursuit"], "unit", "R1")["after"], json::array({"B1"}));
  EXPECT_NEAR(Entry(f.report["pursuit"], "unit", "R1")["p_pursue"].get<double>(), 2.0 / 6.0, 1e-12);
  EXPECT_NEAR(Entry(f.report["pursuit"], "unit", "R2")["p_pursue"].get<double>(), 1.0 / 6.0, 1e-12);
  const json left = Entry(f.report["wing_morale"], "wing", "left");
  EXPECT_TRUE(left["tests"].get<bool>());
  EXPECT_DOUBLE_EQ(left["p_pass"].get<double>(), 0.5);
  EXPECT_FALSE(Entry(f.report["army_morale"], "side", "blue")["tests"].get<bool>());
  EXPECT_TRUE(HasKind(Move(s, "B1", 400, 170, 270), "break_off"));
  EXPECT_TRUE(Move(s, "B1", 400, 170, 270).legal);
  const MoveCheck pull = Move(s, "B6", 900, 370, 90);
  EXPECT_TRUE(pull.legal) << pull.text;
  EXPECT_TRUE(HasKind(pull, "pull_back"));
}

}  // namespace
}  // namespace vedette

namespace vedette {
namespace {

using namespace totsk_test;

// The card lines of a unit on the frame path (what the live window and the recorded video show).
std::vector<std::string> CardOf(const Findings& f, const std::string& unit) {
  std::vector<std::string> out;
  for (const DrawPrimitive& d : f.drawing)
    if (d.kind == DrawKind::kLabel && d.unit_id == unit && d.text != unit) out.push_back(d.text);
  return out;
}

bool Has(const std::vector<std::string>& lines, const std::string& text) {
  return std::find(lines.begin(), lines.end(), text) != lines.end();
}

// What follows the morale tests reaches the picture, not only the text: the sample scene's pursuits,
// its bonus moves and its wing morale test, each on the card of the unit concerned.
TEST(TotskAfterCombatOnThePicture, PursuitBonusMovesAndWingMoraleOnTheCards) {
  const Scene s = LoadScene(std::string(VEDETTE_ASSETS_DIR) + "/scenes/sample_totsk_after_combat.yaml");
  const Findings f = Totsk()->Analyze(s, kFramePath);
  EXPECT_TRUE(Has(CardOf(f, "R1"), "may pursue B1: 33%, 3-8 BW (QRS 97)")) << ::testing::PrintToString(CardOf(f, "R1"));
  EXPECT_TRUE(Has(CardOf(f, "R2"), "may pursue B2: 17%, 1-6 BW (QRS 97)")) << ::testing::PrintToString(CardOf(f, "R2"));
  EXPECT_TRUE(Has(CardOf(f, "RG"), "2 bonus moves (QRS 103)")) << ::testing::PrintToString(CardOf(f, "RG"));
  EXPECT_TRUE(Has(CardOf(f, "GL"), "wing morale test: pass 50% (QRS 105)")) << ::testing::PrintToString(CardOf(f, "GL"));
  EXPECT_TRUE(CardOf(f, "GA").empty()) << "blue is not the active side: its generals give no bonus moves this turn";
  for (const RequiredTest& t : f.tests) {
    if (t.kind == "pursuit" || t.kind == "wing_morale") {
      EXPECT_FALSE(CardOf(f, t.unit).empty()) << t.unit;
    }
  }
}

TEST(TotskAfterCombatOnThePicture, BonusMovesCrewAndMoraleFails) {
  Scene s = LoadScene(ScenePath("bonus_moves.yaml"));
  for (const char* id : {"B1", "B4", "B5", "B3"}) Declare(&s, id, "bonus_move", true);
  const Findings f = Totsk()->Analyze(s, kFramePath);
  int illegal = 0;
  for (const DrawPrimitive& d : f.drawing)
    if (d.kind == DrawKind::kLabel && d.style == DrawStyle::kIllegal) {
      ++illegal;
      EXPECT_EQ(d.text, "bonus move: the Generals in reach have no point left (QRS 103)");
    }
  EXPECT_EQ(illegal, 1);

  Scene crew = LoadScene(ScenePath("crew_shelter.yaml"));
  EXPECT_TRUE(Has(CardOf(Totsk()->Analyze(crew, kFramePath), "RA"), "crew shelter in B1 (QRS 93)"))
      << ::testing::PrintToString(CardOf(Totsk()->Analyze(crew, kFramePath), "RA"));
  crew.FindUnit("B1")->pose->x_mm = 621;  // 81 mm: beyond 2 BW
  const auto far = CardOf(Totsk()->Analyze(crew, kFramePath), "RA");
  ASSERT_FALSE(far.empty());
  EXPECT_EQ(far.back().rfind("crew cannot shelter in B1: ", 0), 0u) << far.back();

  const Findings fails = Totsk()->Analyze(LoadScene(ScenePath("morale_fails.yaml")), kFramePath);
  EXPECT_TRUE(Has(CardOf(fails, "B3"), "morale fails lost: 2 of 3: another destroys it (FAQ 324)"))
      << ::testing::PrintToString(CardOf(fails, "B3"));
}

}  // namespace
}  // namespace vedette
