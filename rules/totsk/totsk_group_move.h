#pragma once
// Judging several moves made together as one TotSK group move. The QRS lists the moves that
// "Individual or Group" may make (straight ahead, wheel, about face, face to flank, formation change
// by turning, limber/unlimber, a bonus move) apart from those only an individual unit may make
// (contact against a front edge, echelon, straight back, passing through, replacing a supported
// unit, ...), and notes that "Units in a position to provide rear support to the one in front may
// all perform a Group Move if all same type". The FAQ: one action test for the group, and "if you
// try for a group move and it fails then the whole group fails".
//
// Interpretations (rules/totsk/RULES_NOTES.md): a group is units of one side and one type (light
// troops only with light troops) standing together at the start (each within 1 BW, edge to edge, of
// another member, which includes rear support); every member's move must be one a group may make;
// each action test the members need is rolled once for the group, at the odds of the member for
// whom it is hardest.
#include <vector>

#include "rules/ruleset.h"
#include "rules/totsk/totsk_data.h"

namespace vedette::totsk {

GroupMoveCheck CheckTotskGroupMove(const TotskData& data, const TotskSettings& settings, const Scene& scene,
                                   const std::vector<MoveRequest>& moves);

}  // namespace vedette::totsk
