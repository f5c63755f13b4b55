#pragma once
// Judging one move of one unit under TotSK: what kind of move it is (QRS action-test lists), whether it
// is legal (movement table, open or rough ground, zone of control, 45-degree wheel, no second move into
// contact), and the action tests it needs in the FAQ's order, each with where a failure halts the unit.
// Never throws on odd poses: they are reported as illegal with the reason.
#include "rules/ruleset.h"
#include "rules/totsk/totsk_data.h"

namespace vedette::totsk {

// The start position is read from the mover's own analysis (AnalyzeTotskUnit), not the whole table's.
MoveCheck CheckTotskMove(const TotskData& data, const TotskSettings& settings, const Scene& scene,
                         const MoveRequest& move);

}  // namespace vedette::totsk
