// The Generals' command points across a turn (QRS 103: "1 bonus move/action test permitted per level of
// the General if unit within 6 BW of a General"; FAQ "Extra moves": "A general need to use one of his
// command ratings to give a chance of a second or more moves"): each bonus move the camera sees spends
// a point, a bonus move with no point left in reach is illegal, and the side's next turn gives the
// points back. Scene: tests/rules/totsk/scenes/bonus_moves.yaml (G1, rating 2, reaches B1, B4 and B5).
#include <gtest/gtest.h>

#include "rules/move_judge.h"
#include "rules/totsk/command_points.h"
#include "tests/rules/totsk/totsk_test_util.h"

namespace vedette {
namespace {

using namespace totsk_test;
using nlohmann::json;

MoveCheck SecondMove(const Scene& s, const std::string& unit, double x, double y) {
  MoveRequest m;
  m.unit = unit;
  m.to = {x, y, 90};
  m.second_move = true;
  return Totsk()->CheckMove(s, m);
}

bool Says(const std::string& text, const std::string& fragment) { return text.find(fragment) != std::string::npos; }

// Rating 2: the second bonus move of the turn is served, the third is not.
TEST(TotskCommandPoints, ASecondMoveSpendsAPointAndWithNoneLeftItIsIllegal) {
  Scene s = LoadScene(ScenePath("bonus_moves.yaml"));
  Declare(&s, "B4", "bonus_move", true);
  const MoveCheck served = SecondMove(s, "B1", 500, 700);
  ASSERT_TRUE(served.legal) << served.text;
  EXPECT_TRUE(Says(served.text, "spends one command point of G1 (rating 2, spent on B4)")) << served.text;
  ASSERT_EQ(served.state_changes.size(), 1u);
  EXPECT_EQ(served.state_changes[0].unit, "B1");
  EXPECT_EQ(served.state_changes[0].key, "bonus_move");
  EXPECT_EQ(served.state_changes[0].value, true);

  Declare(&s, "B5", "bonus_move", true);
  const MoveCheck spent = SecondMove(s, "B1", 500, 700);
  EXPECT_FALSE(spent.legal);
  EXPECT_TRUE(Says(spent.illegal_reason, "has spent his this turn: G1 (rating 2, spent on B4, B5)")) << spent.illegal_reason;
  EXPECT_TRUE(spent.state_changes.empty()) << "an illegal move spends nothing";

  // Points spent on the other side's units are not G1's.
  s.declarations.units["B5"].erase("bonus_move");
  Declare(&s, "R9", "bonus_move", true);
  EXPECT_TRUE(SecondMove(s, "B1", 500, 700).legal);
}

// B3 stands between GA (rating 2) and GL (rating 1): three bonus moves, the FAQ's "3 extra moves".
TEST(TotskCommandPoints, TheFaqsThreeExtraMovesAndNoFourth) {
  Scene s = LoadScene(ScenePath("bonus_moves.yaml"));
  std::vector<std::string> moves = {"B3", "B3", "B3"};
  auto never_lost = [](const Unit&) { return false; };
  const totsk::CommandPoints three = totsk::MatchCommandPoints(s, moves, {6.0, 0.5}, never_lost);
  EXPECT_TRUE(three.unserved.empty());
  moves.push_back("B3");
  const totsk::CommandPoints four = totsk::MatchCommandPoints(s, moves, {6.0, 0.5}, never_lost);
  EXPECT_EQ(four.unserved, std::vector<std::string>{"B3"});
  // A lost General gives no points.
  auto gl_lost = [](const Unit& g) { return g.id == "GL"; };
  EXPECT_EQ(totsk::MatchCommandPoints(s, {"B3", "B3", "B3"}, {6.0, 0.5}, gl_lost).unserved.size(), 1u);
}

// The points go where they serve the most moves: an earlier move is moved to another General's point
// rather than a later one left out.
TEST(TotskCommandPoints, AnEarlierMoveGivesWayToAnotherGeneralsPoint) {
  Scene s;
  s.bw_mm = 40;
  auto unit = [&](const std::string& id, UnitType type, double x, double rating) {
    Unit u;
    u.id = id;
    u.side = "blue";
    u.type = type;
    u.bases = {BaseSpec{type == UnitType::kGeneral ? 20.0 : 40.0, 20.0}};
    u.pose = Pose{x, 400, 90};
    if (rating > 0) u.stats["rating"] = rating;
    s.units.push_back(u);
  };
  unit("G1", UnitType::kGeneral, 500, 1);  // reaches A (x 700) and B (x 300)
  unit("G2", UnitType::kGeneral, 900, 1);  // reaches A only
  unit("A", UnitType::kInfantry, 700, 0);
  unit("B", UnitType::kInfantry, 300, 0);
  const totsk::CommandPoints cp = totsk::MatchCommandPoints(s, {"A", "B"}, {6.0, 0.5}, [](const Unit&) { return false; });
  EXPECT_TRUE(cp.unserved.empty());
  EXPECT_EQ(cp.generals[0].used_by, std::vector<std::string>{"B"});
  EXPECT_EQ(cp.generals[1].used_by, std::vector<std::string>{"A"});
}

// Through the move judge, as the pipeline runs it: each judged move's state changes and each new turn's
// are applied as declarations before the next move.
TEST(TotskCommandPoints, TheJudgeSpendsPointsThroughTheTurnAndTheNextTurnGivesThemBack) {
  Scene s = LoadScene(ScenePath("bonus_moves.yaml"));
  Unit red;
  red.id = "R1";
  red.side = "red";
  red.type = UnitType::kInfantry;
  red.bases = {BaseSpec{40.0, 20.0}};
  red.pose = Pose{1000, 1000, 270};
  s.units.push_back(red);
  s.FindUnit("B1")->pose->y_mm = 560;  // its rear edge 140 mm from G1's: in reach through its moves
  const auto ruleset = Totsk();
  MoveJudge judge(ruleset.get());
  auto move = [&](const std::string& id, double dy) {
    Unit* u = s.FindUnit(id);
    ObservedMove m;
    m.unit = id;
    m.from = *u->pose;
    m.to = {u->pose->x_mm, u->pose->y_mm + dy, u->pose->heading_deg};
    m.path = {m.from, m.to};
    const MoveVerdict v = judge.JudgeMove(s, m);
    for (const auto* list : {&v.turn_start, &v.check.state_changes})
      for (const StateChange& c : *list) Declare(&s, c.unit, c.key, c.value);
    u->pose = m.to;
    return v;
  };
  move("B4", 20);
  EXPECT_TRUE(move("B4", 20).check.legal);  // G1's first point
  move("B5", 20);
  EXPECT_TRUE(move("B5", 20).check.legal);  // its second
  move("B1", 20);
  const MoveVerdict third = move("B1", 20);
  EXPECT_TRUE(third.second_move);
  EXPECT_FALSE(third.check.legal) << third.check.text;
  EXPECT_TRUE(Says(third.check.illegal_reason, "spent his this turn")) << third.check.illegal_reason;
  EXPECT_TRUE(s.declarations.Flag("B4", "bonus_move"));
  // Red's turn leaves blue's bonus moves standing (they cost blue its morale effects in it) ...
  const MoveVerdict red_turn = move("R1", -20);
  EXPECT_TRUE(red_turn.turn_start.empty());
  EXPECT_TRUE(s.declarations.Flag("B5", "bonus_move"));
  // ... and blue's next turn gives G1 both points back.
  const MoveVerdict blue_turn = move("B1", 20);
  EXPECT_EQ(blue_turn.turn_start.size(), 2u);
  EXPECT_FALSE(s.declarations.Flag("B4", "bonus_move"));
  EXPECT_TRUE(move("B1", 20).check.legal);
}

}  // namespace
}  // namespace vedette
