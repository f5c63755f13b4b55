// States that a move changes (seed 003): units passed through by a fleeing unit (seed 33, 59) and
// artillery charged from the front (seed 79) come back from CheckMove as state changes, which the
// pipeline applies as declarations.
#include <gtest/gtest.h>

#include <string>

#include "rules/ruleset.h"
#include "rules/scene/scene_io.h"
#include "tests/rules/states/states_test_util.h"

namespace vedette {
namespace {

using states_test::Move;

// Red guns G: 40 x 40 at (500, 500) facing -y (towards blue): front edge y = 520 - 40 = 480, x 480..520.
// Blue cavalry C: 40 x 40 at (500, 300) facing +y (front edge at y = 320).
//
//            G (front faces down, edge y = 480)
//            ^
//            C moves up to (500, 460): its front edge at y = 480 meets the guns' front
std::string Guns(const std::string& extra = "") {
  return R"(
bw_mm: 40
units:
  - {id: G, side: red, type: artillery, base: {width_mm: 40, depth_mm: 40}, pose: {x_mm: 500, y_mm: 500, heading_deg: 270}}
  - {id: C, side: blue, type: cavalry, base: {width_mm: 40, depth_mm: 40}, pose: {x_mm: 500, y_mm: 300, heading_deg: 90}}
)" + extra;
}

TEST(StateChanges, ArtilleryChargedFromTheFrontBeginsFiring) {
  const auto rs = MakeRuleset("states");
  const MoveCheck c = rs->CheckMove(ParseScene(Guns(), "guns"), Move("C", 500, 460, 90));
  ASSERT_TRUE(c.legal) << c.illegal_reason;
  ASSERT_EQ(c.state_changes.size(), 1u);
  EXPECT_EQ(c.state_changes[0].unit, "G");
  EXPECT_EQ(c.state_changes[0].key, "firing");
  EXPECT_EQ(c.state_changes[0].value, true);
  EXPECT_NE(c.state_changes[0].reason.find("seed 79"), std::string::npos);
  EXPECT_EQ(c.report["state_changes"].size(), 1u);
  EXPECT_NE(c.text.find("G charged from the front by C"), std::string::npos);
}

TEST(StateChanges, NotAChargeFromTheFront) {
  const auto rs = MakeRuleset("states");
  const Scene s = ParseScene(Guns(), "guns");
  // Stopping 5 mm short: no contact (the slack of a hand is 2 mm).
  EXPECT_TRUE(rs->CheckMove(s, Move("C", 500, 455, 90)).state_changes.empty());
  // Into the guns' left flank (their left is +x when facing -y): C faces -x, its front at x = 520.
  EXPECT_TRUE(rs->CheckMove(s, Move("C", 540, 500, 180)).state_changes.empty());
  // Backing into the guns' front: C's rear, not its front, meets them.
  EXPECT_TRUE(rs->CheckMove(s, Move("C", 500, 460, 270)).state_changes.empty());
  // Guns already firing, or silenced, or of the same side: nothing changes.
  EXPECT_TRUE(rs->CheckMove(ParseScene(Guns("declarations:\n  G: {firing: true}\n"), "f"), Move("C", 500, 460, 90))
                  .state_changes.empty());
  EXPECT_TRUE(rs->CheckMove(ParseScene(Guns("declarations:\n  G: {state: silenced}\n"), "s"), Move("C", 500, 460, 90))
                  .state_changes.empty());
  std::string same = Guns();
  same.replace(same.find("side: red"), 9, "side: blue");
  EXPECT_TRUE(rs->CheckMove(ParseScene(same, "same"), Move("C", 500, 460, 90)).state_changes.empty());
}

// Scene flight.yaml (sketch in the file): R flees through E (eager -> shaken) and stops there.
TEST(StateChanges, UnitsPassedThroughByAFleeingUnit) {
  const auto rs = MakeRuleset("states");
  const Scene flight = LoadScene(std::string(VEDETTE_TEST_DATA) + "/rules/states/scenes/flight.yaml");
  const MoveCheck c = rs->CheckMove(flight, Move("R", 300, 150, 270));
  ASSERT_EQ(c.state_changes.size(), 1u);
  EXPECT_EQ(c.state_changes[0].unit, "E");
  EXPECT_EQ(c.state_changes[0].key, "state");
  EXPECT_EQ(c.state_changes[0].value, "shaken");
  EXPECT_NE(c.state_changes[0].reason.find("seed 33"), std::string::npos);
}

}  // namespace
}  // namespace vedette
