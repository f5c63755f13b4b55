#pragma once
// Judging one Kings of War move (seed 002, "Movement Phase", lines 8-10, and the charge, lines 12-19):
// the unit's declared order (`declarations: U: {order: ...}`) says what the move may be, and the move
// from where the unit stands to `move.to` is checked against it:
//   halt           no move (seed 8);
//   change_facing  a pivot about the centre to any heading, the centre staying put (seed 8);
//   advance        forward up to the speed with one pivot about the centre of up to 90 degrees at any
//                  point, the rest of the move in the new direction (seed 8);
//   back, sidestep straight back, or straight to one side, up to half the speed, no change of facing (seed 8);
//   at_the_double  straight forward up to twice the speed, no pivot (seed 8); not war engines (seed 74);
//   charge         into base contact, flush with the facing hit, with a charge that may be declared
//                  (front arc, sight, leader point within twice the speed, room; seed 13-19), or a
//                  counter-charge on the unit that charged it (seed 27).
// Every move: no ending on top of another unit (friends may be passed through, seed 10), no passing
// through enemies or blocking terrain on a straight leg (pivots may sweep through anything and must end
// clear, seed 10), and the 1-inch rule: no move but a charge may approach within 1 in of an enemy
// (seed 10; setting one_inch_rule). Wavering units may only halt, change facing or move back (seed 67).
// Individuals may pivot to face any way before the order and get the Nimble extra pivot (seed 77).
// With no order declared, every order is tried and the move is legal when one allows it.
// Never throws on odd poses (they are illegal with the reason); throws InputError for bad declarations.
#include <string>
#include <vector>

#include "rules/kow/config.h"
#include "rules/ruleset.h"
#include "rules/scene/scene.h"

namespace vedette::kow {

// Seed 8: the seven movement orders, as declared: halt, change_facing, advance, back, sidestep,
// at_the_double, charge.
const std::vector<std::string>& Orders();
std::string OrderList();                      // "halt, change_facing, ..."
std::string OrderWords(const std::string& order);  // "at the double"
// The unit's declared order, "" when none; throws InputError at its line for anything but one of Orders().
std::string DeclaredOrder(const Scene& scene, const std::string& unit);
// A declared true/false (`wavering: true`), false when absent; throws InputError at its line otherwise.
bool DeclaredFlag(const Scene& scene, const std::string& unit, const std::string& key);

MoveCheck CheckKowMove(const KowConfig& c, const Scene& scene, const MoveRequest& move);

}  // namespace vedette::kow
