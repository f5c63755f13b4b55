#pragma once
// What follows the morale tests under TotSK, from the table and the players' declarations: who may
// pursue and the pursuit test and distance (QRS 97), the generals' bonus moves and action tests and the
// units they reach (QRS 103), and wing and army morale (QRS 105, FAQ "ARMY MORALE TEST"). The moves
// themselves (break-off, pursuit, pull back, lining up) are judged by CheckTotskMove.
#include <string>
#include <vector>

#include "rules/ruleset.h"
#include "rules/totsk/totsk_data.h"

namespace vedette::totsk {

struct AfterCombatFindings {
  nlohmann::json report;            // {"pursuit": [...], "bonus_moves": [...], "wing_morale": [...], "army_morale": [...]}
  std::string text;                 // lines for the table (empty when nothing applies)
  std::vector<RequiredTest> tests;  // pursuit, wing and army morale tests
  // On the unit cards: each test above on the unit that takes it, the generals' bonus moves, a
  // sheltering crew, the morale fails a unit has lost (what the players would otherwise read only in
  // the text).
  std::vector<DrawPrimitive> drawing;
};

// Throws InputError for a declaration of the wrong type (wing not a word, lost not true/false).
// words false (the frame path): the report's lists of units in each General's reach are left out.
AfterCombatFindings AnalyzeAfterCombat(const TotskData& data, const TotskSettings& settings, const Scene& scene,
                                       bool words = true);

}  // namespace vedette::totsk
