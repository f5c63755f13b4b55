#pragma once
// Judging one move of one unit under TotSK: what kind of move it is (QRS action-test lists), whether it
// is legal (movement table, open or rough ground, zone of control, 45-degree wheel, no second move into
// contact), and the action tests it needs in the FAQ's order, each with where a failure halts the unit.
// Never throws on odd poses: they are reported as illegal with the reason.
#include "rules/ruleset.h"
#include "rules/totsk/totsk_analysis.h"
#include "rules/totsk/totsk_data.h"

namespace vedette::totsk {

// start_analysis: AnalyzeTotsk of this very scene, when the caller has it (a group's members are all
// judged on one start scene); null: the mover alone is analysed here (AnalyzeTotskUnit).
MoveCheck CheckTotskMove(const TotskData& data, const TotskSettings& settings, const Scene& scene,
                         const MoveRequest& move, const TotskAnalysis* start_analysis = nullptr);

}  // namespace vedette::totsk
