// Who aligns to whom after a contact, from tests/rules/totsk/scenes/conformation.yaml: FAQ 249
// ("normal conformation for cavalry units, exception if they are infantry"), and FAQ "Moving into the
// flank a single unit" ("During its next turn, the unit conforms to the enemy unit").
#include <gtest/gtest.h>

#include "tests/rules/totsk/totsk_test_util.h"

namespace vedette {
namespace {

using namespace totsk_test;

bool Notes(const MoveCheck& c, const std::string& fragment) { return c.text.find(fragment) != std::string::npos; }

// Square and centred on R1's front: nothing to align. 20 mm off centre (more than the 10 mm pivot
// slack): infantry do not conform, so B1 lines up with R1; 9 mm off is within the slack.
TEST(TotskConformation, InfantryStandAndTheAttackerLinesUp) {
  Scene s = LoadScene(ScenePath("conformation.yaml"));
  const MoveCheck square = Move(s, "B1", 300, 380, 90);
  ASSERT_EQ(square.contacts, std::vector<std::string>{"R1"}) << square.text;
  EXPECT_TRUE(square.report["conformation"].empty()) << square.text;
  s.FindUnit("B1")->pose->x_mm = 320;
  const MoveCheck off = Move(s, "B1", 320, 380, 90);
  ASSERT_EQ(off.contacts, std::vector<std::string>{"R1"}) << off.text;
  EXPECT_TRUE(Notes(off, "B1 lines up with R1's front: infantry do not conform to the attacker (FAQ 249)")) << off.text;
  EXPECT_EQ(off.report["conformation"][0]["unit"], "B1");
  s.FindUnit("B1")->pose->x_mm = 309;
  EXPECT_TRUE(Move(s, "B1", 309, 380, 90).report["conformation"].empty());
}

// Artillery contacted off centre turns to the attacker.
TEST(TotskConformation, ArtilleryConformsToTheAttacker) {
  const Scene s = LoadScene(ScenePath("conformation.yaml"));
  const MoveCheck c = Move(s, "B2", 720, 380, 90);
  ASSERT_EQ(c.contacts, std::vector<std::string>{"R2"}) << c.text;
  EXPECT_TRUE(Notes(c, "R2 conforms to B2 (artillery, FAQ 249: normal conformation)")) << c.text;
  EXPECT_EQ(c.report["conformation"][0]["unit"], "R2");
  EXPECT_EQ(c.report["conformation"][0]["to"], "B2");
}

// A flank contacted: the unit turns to the attacker in its next turn, with no action test.
TEST(TotskConformation, AFlankContactedTurnsInItsNextTurn) {
  const Scene s = LoadScene(ScenePath("conformation.yaml"));
  const MoveCheck c = Move(s, "B3", 1100, 370, 90);
  ASSERT_EQ(c.contacts, std::vector<std::string>{"R3"}) << c.text;
  EXPECT_TRUE(Notes(c, "R3 turns to face B3 in its next turn: automatic, no action test")) << c.text;
}

// "If the unit contacted on the flank is also in contact on its front, it can also do that but this
// requires an action test": B4 holds R3's front (R3 faces +x: front edge x = 1110).
TEST(TotskConformation, AFlankContactedWhileHeldInFrontNeedsATestToTurn) {
  Scene s = LoadScene(ScenePath("conformation.yaml"));
  Unit b4 = *s.FindUnit("B3");
  b4.id = "B4";
  b4.pose = Pose{1120, 400, 180};  // facing -x: its front edge x = 1110, on R3's front
  s.units.push_back(b4);
  const MoveCheck c = Move(s, "B3", 1100, 370, 90);
  EXPECT_TRUE(Notes(c, "R3 may turn to face B3 in its next turn only with an action test, as B4 holds its front")) << c.text;
}

}  // namespace
}  // namespace vedette
