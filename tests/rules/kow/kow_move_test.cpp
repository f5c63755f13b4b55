// Kings of War move judging (rules/kow/kow_move.h, seed 002 lines 8-10, 13-19, 67, 74, 77), from
// tests/rules/kow/scenes/moves.yaml (sketch in the file): each order's distance and shape, a case on each
// side of each threshold; the 1-inch rule both readings; friends, enemies and blocking terrain on the way.
#include <gtest/gtest.h>

#include <string>

#include "rules/input_error.h"
#include "rules/ruleset.h"
#include "rules/verdict_drawing.h"
#include "rules/scene/scene_io.h"

namespace vedette {
namespace {

const std::string kScene = std::string(VEDETTE_TEST_DATA) + "/rules/kow/scenes/moves.yaml";

MoveCheck Move(const Scene& s, const std::string& unit, double x, double y, double heading, const RulesetOptions& o = {}) {
  MoveRequest m;
  m.unit = unit;
  m.to = {x, y, heading};
  return MakeRuleset("kow", o)->CheckMove(s, m);
}
MoveCheck Move(const std::string& unit, double x, double y, double heading, const RulesetOptions& o = {}) {
  return Move(LoadScene(kScene), unit, x, y, heading, o);
}
Scene WithOrder(const std::string& unit, const std::string& order) {
  Scene s = LoadScene(kScene);
  if (order.empty()) s.declarations.units[unit].erase("order");
  else s.declarations.units[unit]["order"] = Declared{order, 0};
  return s;
}
bool Has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(KowMove, Supported) {
  const MoveCheck m = Move("A1", 200, 300, 90);
  EXPECT_TRUE(m.supported);
  EXPECT_EQ(m.report["ruleset"], "kow");
  EXPECT_EQ(m.report["order"], "advance");
}

// Seed 8: advance up to the speed (5 in = 127 mm), straight or with one pivot of up to 90 deg.
TEST(KowMove, AdvanceUpToItsSpeed) {
  const MoveCheck ok = Move("A1", 200, 327, 90);
  EXPECT_TRUE(ok.legal) << ok.text;
  EXPECT_EQ(ok.kinds, std::vector<std::string>{"advance"});
  const MoveCheck far = Move("A1", 200, 328, 90);
  EXPECT_FALSE(far.legal);
  EXPECT_TRUE(Has(far.illegal_reason, "moves up to 5.00 in")) << far.illegal_reason;
  EXPECT_TRUE(Has(far.text, "measure it by hand")) << far.text;  // 1 mm over: inside the placement tolerance
}

// Forward 50 mm, pivot to heading 0 (-90 deg), forward 77 mm: 127 mm in all. 78 mm: 128.
TEST(KowMove, AdvanceWithOnePivot) {
  const MoveCheck ok = Move("A1", 277, 250, 0);
  EXPECT_TRUE(ok.legal) << ok.text;
  EXPECT_NEAR(ok.report["orders"][0]["distance_mm"].get<double>(), 127.0, 0.05);
  EXPECT_NEAR(ok.report["orders"][0]["pivot_deg"].get<double>(), -90.0, 1e-6);
  EXPECT_TRUE(Has(ok.text, "pivots -90.0 deg")) << ok.text;
  EXPECT_FALSE(Move("A1", 278, 250, 0).legal);
}

// A pivot of 90 deg plus the 2 deg placement tolerance is allowed; 93 deg is not.
TEST(KowMove, AdvancePivotAtMostNinetyDegrees) {
  EXPECT_TRUE(Move("A1", 200, 200, 90 + 91.9).legal);
  const MoveCheck m = Move("A1", 200, 200, 90 + 93);
  EXPECT_FALSE(m.legal);
  EXPECT_TRUE(Has(m.illegal_reason, "single pivot of up to 90 deg")) << m.illegal_reason;
}

// An advance never goes backwards: 2 mm back is hand placement, 10 mm is not.
TEST(KowMove, AdvanceDoesNotGoBackwards) {
  EXPECT_TRUE(Move("A1", 200, 198, 90).legal);
  const MoveCheck m = Move("A1", 200, 190, 90);
  EXPECT_FALSE(m.legal);
  EXPECT_TRUE(Has(m.illegal_reason, "off any such path")) << m.illegal_reason;
}

// Seed 8: at the double, twice the speed (254 mm) straight forward, no pivot.
TEST(KowMove, AtTheDoubleTwiceTheSpeedStraightAhead) {
  EXPECT_TRUE(Move("D1", 450, 454, 90).legal);
  EXPECT_FALSE(Move("D1", 450, 455, 90).legal);
  const MoveCheck turned = Move("D1", 450, 300, 95);
  EXPECT_FALSE(turned.legal);
  EXPECT_TRUE(Has(turned.illegal_reason, "without pivoting")) << turned.illegal_reason;
  EXPECT_TRUE(Move("D1", 450, 300, 91.5).legal);  // within the 2 deg tolerance
  EXPECT_FALSE(Move("D1", 460, 300, 90).legal);   // 10 mm to the side
}

// Seed 8: back and sidestep up to half the speed (63.5 mm), facing unchanged.
TEST(KowMove, BackAndSidestepHalfTheSpeed) {
  EXPECT_TRUE(Move("K1", 700, 136.5, 90).legal);
  EXPECT_FALSE(Move("K1", 700, 135.5, 90).legal);
  EXPECT_FALSE(Move("K1", 700, 250, 90).legal);  // forward is not back
  EXPECT_TRUE(Move("S1", 886.5, 200, 90).legal);  // to its right (-x when facing +y)
  EXPECT_FALSE(Move("S1", 885.5, 200, 90).legal);
  EXPECT_TRUE(Move("S1", 1013.5, 200, 90).legal);  // to its left
  const MoveCheck turned = Move("S1", 900, 200, 120);
  EXPECT_FALSE(turned.legal);
  EXPECT_TRUE(Has(turned.illegal_reason, "cannot change facing")) << turned.illegal_reason;
}

// Seed 8: halt, no move (within 3 mm of hand placement); change facing: any turn, the centre stays.
TEST(KowMove, HaltAndChangeFacing) {
  EXPECT_TRUE(Move("H1", 1202, 200, 90).legal);
  const MoveCheck moved = Move("H1", 1204, 200, 90);
  EXPECT_FALSE(moved.legal);
  EXPECT_TRUE(Has(moved.illegal_reason, "does not move")) << moved.illegal_reason;
  EXPECT_TRUE(Move(WithOrder("F1", "change_facing"), "F1", 1450, 200, -90).legal);  // about face: clear of G1
  EXPECT_FALSE(Move("F1", 1460, 200, -90).legal);
}

// Seed 10: a pivot may end clear only; no move may end on another unit (F1 turned to heading 0 ends
// 20 mm deep in G1).
TEST(KowMove, NoMoveEndsOnAnotherUnit) {
  const MoveCheck m = Move("F1", 1450, 200, 0);
  EXPECT_FALSE(m.legal);
  EXPECT_TRUE(Has(m.illegal_reason, "on top of G1")) << m.illegal_reason;
}

// Seed 10: friends may be moved through, not ended on.
TEST(KowMove, ThroughFriendsButNotOntoThem) {
  EXPECT_TRUE(Move("P1", 1400, 827, 90).legal) << Move("P1", 1400, 827, 90).text;
  const MoveCheck onto = Move("P1", 1400, 800, 90);
  EXPECT_FALSE(onto.legal);
  EXPECT_TRUE(Has(onto.illegal_reason, "on top of P2")) << onto.illegal_reason;
}

// Seed 10: N1's front is 100 mm from R1's. 73.6 mm forward leaves 26.4 mm; 75.6 mm leaves 24.4 mm.
TEST(KowMove, OneInchRule) {
  const MoveCheck clear = Move("N1", 300, 773.6, 90);
  EXPECT_TRUE(clear.legal);
  EXPECT_TRUE(Has(clear.text, "within the placement tolerance (0.12 in (3.0 mm)) of 1 in: measure it by hand")) << clear.text;
  EXPECT_FALSE(Has(Move("N1", 300, 760, 90).text, "measure it by hand"));  // 40 mm clear
  const MoveCheck m = Move("N1", 300, 775.6, 90);
  EXPECT_FALSE(m.legal);
  EXPECT_TRUE(Has(m.illegal_reason, "within 1 in of R1")) << m.illegal_reason;
  EXPECT_TRUE(Has(m.illegal_reason, "0.96 in")) << m.illegal_reason;
  // The ruler says why stopping there is illegal, in short: the 1-inch rule and the unit it is too near.
  ObservedMove so_far;
  so_far.unit = "N1";
  const Scene s = LoadScene(kScene);
  so_far.from = *s.FindUnit("N1")->pose;
  so_far.to = {300, 775.6, 90};
  MoveVerdict v;
  v.judged = true;
  v.check = m;
  const std::string ruler = MoveRulerText(s, so_far, v);
  EXPECT_TRUE(Has(ruler, "\nILLEGAL here: ")) << ruler;
  EXPECT_TRUE(Has(ruler, "R1")) << ruler;
}

// N2 stands 20 mm from R2; sliding 30 mm along it keeps 20 mm. Approach reading: allowed; strict: not.
// Moving back out of 1 inch is allowed either way.
TEST(KowMove, OneInchRuleReadings) {
  EXPECT_TRUE(Move("N2", 830, 700, 90).legal);
  RulesetOptions strict;
  strict.settings["one_inch_rule"] = "strict";
  const MoveCheck m = Move("N2", 830, 700, 90, strict);
  EXPECT_FALSE(m.legal);
  EXPECT_TRUE(Has(m.illegal_reason, "one_inch_rule=strict")) << m.illegal_reason;
  EXPECT_TRUE(Move(WithOrder("N2", "back"), "N2", 800, 660, 90, strict).legal);
  EXPECT_FALSE(Move(WithOrder("N2", "advance"), "N2", 800, 710, 90).legal);  // closer: 10 mm
  RulesetOptions bad;
  bad.settings["one_inch_rule"] = "sometimes";
  EXPECT_THROW(MakeRuleset("kow", bad), InputError);
}

// Seed 10: blocking terrain is not passed through (Q1 at the double through T1).
TEST(KowMove, NotThroughBlockingTerrain) {
  const MoveCheck m = Move("Q1", 1050, 1154, 90);
  EXPECT_FALSE(m.legal);
  EXPECT_TRUE(Has(m.illegal_reason, "through T1")) << m.illegal_reason;
  EXPECT_TRUE(Move("Q1", 1050, 958, 90).legal);  // stops short: front edge at 978, 22 mm from T1
}

// Seed 67: Wavering units may not advance, sidestep, move at the double or charge; they may move back.
TEST(KowMove, WaveringUnitsOnlyBackChangeFacingOrHalt) {
  const MoveCheck m = Move("W1", 1700, 250, 90);
  EXPECT_FALSE(m.legal);
  EXPECT_TRUE(Has(m.illegal_reason, "Wavering units cannot be given an advance order (seed 67)")) << m.illegal_reason;
  EXPECT_TRUE(Move(WithOrder("W1", "back"), "W1", 1700, 150, 90).legal);
  EXPECT_TRUE(Move(WithOrder("W1", "change_facing"), "W1", 1700, 200, -90).legal);
}

// Seed 74: war engines cannot move at the double.
TEST(KowMove, WarEnginesCannotMoveAtTheDouble) {
  const MoveCheck m = Move("WE", 150, 1100, 90);
  EXPECT_FALSE(m.legal);
  EXPECT_TRUE(Has(m.illegal_reason, "war engines cannot move at the double (seed 74)")) << m.illegal_reason;
  EXPECT_TRUE(Move(WithOrder("WE", "advance"), "WE", 150, 1100, 90).legal);
}

// Seed 77: an individual may face any way before its order: at the double to its rear, facing it.
TEST(KowMove, IndividualsPivotBeforeTheirOrder) {
  EXPECT_TRUE(Move("I1", 600, 900, -90).legal) << Move("I1", 600, 900, -90).text;
  EXPECT_FALSE(Move(WithOrder("D1", "at_the_double"), "D1", 450, 100, -90).legal);
  // Advance: straight at the end point, then its one pivot of up to 90 deg.
  EXPECT_TRUE(Move(WithOrder("I1", "advance"), "I1", 600, 900, 180).legal);
  EXPECT_FALSE(Move(WithOrder("I1", "advance"), "I1", 600, 900, 90).legal);  // would turn 180 after moving
}

// Seed 13-19: a charge ends flush against the facing hit, with a charge that may be declared.
TEST(KowMove, ChargeIntoContactFlush) {
  const MoveCheck ok = Move("C1", 1100, 560, 90);
  EXPECT_TRUE(ok.legal) << ok.text;
  EXPECT_EQ(ok.report["orders"][0]["target"], "E1");
  EXPECT_EQ(ok.report["orders"][0]["facing"], "front");
  const MoveCheck short_of = Move("C1", 1100, 550, 90);
  EXPECT_FALSE(short_of.legal);
  EXPECT_TRUE(Has(short_of.illegal_reason, "touches no enemy")) << short_of.illegal_reason;
  const MoveCheck skew = Move("C1", 1100, 556, 95);
  EXPECT_FALSE(skew.legal);
  EXPECT_TRUE(Has(skew.illegal_reason, "flush")) << skew.illegal_reason;
  EXPECT_TRUE(Move("C1", 1100, 558.5, 91.5).legal);  // 1.5 deg: within the placement tolerance
  const MoveCheck off = Move("C1", 1130, 560, 90);
  EXPECT_TRUE(off.legal);
  EXPECT_TRUE(Has(off.text, "lines the leader point up with E1's leader point")) << off.text;
}

// Seed 13: a charge beyond twice the speed cannot be made (the move itself would reach).
TEST(KowMove, ChargeOutOfReach) {
  Scene s = LoadScene(kScene);
  for (Unit& u : s.units)
    if (u.id == "C1") u.stats["speed_in"] = 3;  // reach 6 in = 152.4 mm < 160 mm
  const MoveCheck m = Move(s, "C1", 1100, 560, 90);
  EXPECT_FALSE(m.legal);
  EXPECT_TRUE(Has(m.illegal_reason, "cannot charge E1")) << m.illegal_reason;
  EXPECT_TRUE(Has(m.illegal_reason, "twice the speed")) << m.illegal_reason;
}

// Without an order declared, every order is tried.
TEST(KowMove, NoOrderDeclaredTriesEveryOrder) {
  const MoveCheck m = Move("X1", 1600, 1100, 90);
  EXPECT_TRUE(m.legal);
  EXPECT_EQ(m.kinds, (std::vector<std::string>{"advance", "at_the_double"}));
  EXPECT_TRUE(Has(m.text, "allowed as: advance, at the double")) << m.text;
  const MoveCheck back = Move("X1", 1600, 950, 90);
  EXPECT_EQ(back.kinds, std::vector<std::string>{"back"});
  const MoveCheck none = Move("X1", 1600, 800, 90);
  EXPECT_FALSE(none.legal);
  // The nearest miss is named: a move straight back, too far for back (half the speed).
  EXPECT_TRUE(Has(none.illegal_reason, "no order allows this move (back: back moves up to 2.50 in")) << none.illegal_reason;
}

TEST(KowMove, UnknownOrderRefusedWithTheList) {
  try {
    Move(WithOrder("A1", "gallop"), "A1", 200, 300, 90);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_TRUE(Has(e.what(), "halt, change_facing, advance, back, sidestep, at_the_double, charge")) << e.what();
  }
}

// Seed 59, scene post_combat.yaml: after a combat not won, back 1 in out of contact (within the 3 mm
// of hand placement); after routing the enemy, pivot, forward the d6 in full, or back the d3.
TEST(KowMove, AfterCombat) {
  const Scene s = LoadScene(std::string(VEDETTE_TEST_DATA) + "/rules/kow/scenes/post_combat.yaml");
  const MoveCheck back = Move(s, "PC1", 300, 200 - 25.4, 90);
  EXPECT_TRUE(back.legal) << back.text;
  EXPECT_TRUE(Has(back.text, "after its combat (enemy not routed): legal")) << back.text;
  EXPECT_TRUE(Move(s, "PC1", 300, 200 - 28.0, 90).legal);
  EXPECT_FALSE(Move(s, "PC1", 300, 200 - 29.0, 90).legal);
  const MoveCheck short_of = Move(s, "PC1", 300, 200 - 20.0, 90);
  EXPECT_FALSE(short_of.legal);
  EXPECT_TRUE(Has(short_of.illegal_reason, "must move backwards 1 in")) << short_of.illegal_reason;
  // PC2 rolled a 4.
  EXPECT_TRUE(Move(s, "PC2", 900, 200 + 4 * 25.4, 90).legal);
  const MoveCheck five = Move(s, "PC2", 900, 200 + 5 * 25.4, 90);
  EXPECT_FALSE(five.legal);
  EXPECT_TRUE(Has(five.illegal_reason, "the roll was 4")) << five.illegal_reason;
  EXPECT_TRUE(Move(s, "PC2", 900, 200, -90).legal);  // stays and turns about
  // PC3, no roll declared: whole inches, forward up to 6, back up to 3.
  EXPECT_TRUE(Move(s, "PC3", 1400, 200 + 3 * 25.4, 90).legal);
  EXPECT_FALSE(Move(s, "PC3", 1400, 200 + 3.5 * 25.4, 90).legal);
  EXPECT_TRUE(Move(s, "PC3", 1400, 200 - 3 * 25.4, 90).legal);
  EXPECT_FALSE(Move(s, "PC3", 1400, 200 - 4 * 25.4, 90).legal);
  EXPECT_FALSE(Move(s, "PC3", 1400, 200 + 50, 120).legal);  // turned while moving
  // Setting post_combat_back=up_to: back any distance up to the d3 (3 in without a roll).
  EXPECT_FALSE(Move(s, "PC3", 1400, 200 - 40, 90).legal);
  RulesetOptions up_to;
  up_to.settings["post_combat_back"] = "up_to";
  EXPECT_TRUE(Move(s, "PC3", 1400, 200 - 40, 90, up_to).legal);
  EXPECT_TRUE(Move(s, "PC3", 1400, 200 - 3 * 25.4, 90, up_to).legal);
  EXPECT_FALSE(Move(s, "PC3", 1400, 200 - 3 * 25.4 - 4, 90, up_to).legal);
}

// The sample scene: B1 advances 100 mm towards R1 (front edges 80 mm apart after it).
TEST(KowMove, SampleScene) {
  const Scene s = LoadScene(std::string(VEDETTE_ASSETS_DIR) + "/scenes/sample_kow.yaml");
  const MoveCheck m = Move(s, "B1", 600, 400, 90);
  EXPECT_TRUE(m.legal) << m.text;
  // RC (order advance, facing -y) stands 15 mm from B4: advancing 5 mm closer is refused.
  const MoveCheck rc = Move(s, "RC", 1250, 455, -90);
  EXPECT_FALSE(rc.legal);
  EXPECT_TRUE(Has(rc.illegal_reason, "within 1 in of B4")) << rc.illegal_reason;
}

}  // namespace
}  // namespace vedette

namespace vedette {
namespace {

// The ruler's figures for Kings of War: A1 (speed 5 in = 127 mm, Advance declared in moves.yaml) 100 mm
// straight ahead is measured against the Advance's 127 mm; with At the Double declared instead,
// against that order's 254 mm.
TEST(KowMoveRuler, CountedAgainstTheOrdersAllowance) {
  const MoveCheck m = Move("A1", 200, 300, 90);
  ASSERT_TRUE(m.legal) << m.text;
  EXPECT_NEAR(m.counted_mm, 100.0, 0.5);
  EXPECT_NEAR(m.allowance_mm, 127.0, 0.5);
  const MoveCheck d = Move(WithOrder("A1", "at_the_double"), "A1", 200, 300, 90);
  EXPECT_NEAR(d.allowance_mm, 254.0, 0.5) << d.text;
}

// The ruler of a charging unit: its reach (twice its speed, seed 13) and the enemy it meets.
TEST(KowMoveRuler, ChargeReachAndTheUnitContacted) {
  const MoveCheck hit = Move("C1", 1100, 560, 90);
  ASSERT_TRUE(hit.legal) << hit.text;
  EXPECT_EQ(hit.contacts, std::vector<std::string>{"E1"});
  Scene s = LoadScene(kScene);
  double speed_in = 0;
  for (const Unit& u : s.units)
    if (u.id == "C1") speed_in = u.stats.at("speed_in");
  EXPECT_NEAR(hit.charge_reach_mm, 2 * speed_in * 25.4, 0.5);
  const MoveCheck short_of = Move("C1", 1100, 550, 90);
  EXPECT_TRUE(short_of.contacts.empty()) << "a charge that touches no enemy meets nobody";
  EXPECT_NEAR(short_of.charge_reach_mm, 2 * speed_in * 25.4, 0.5) << "the reach is shown all the same";
}

}  // namespace
}  // namespace vedette
