#pragma once
// The analysis as the engine's three outputs: the JSON of `analyze --json` (stable order: units in
// scene order, lists sorted), the text for the table, and the overlay's primitives.
#include "rules/ruleset.h"
#include "rules/totsk/totsk_analysis.h"

namespace vedette::totsk {

nlohmann::json SettingsJson(const TotskData& data, const TotskSettings& settings);
nlohmann::json ActionTestJson(const ActionTest& t);
// Text and report only when `options` asks for them; the tests and drawing always.
Findings MakeFindings(const TotskData& data, const TotskSettings& settings, const Scene& scene,
                      const TotskAnalysis& analysis, const AnalyzeOptions& options = {});

// "pass 42% / fail 47% / rout 11%"
std::string MoraleOddsText(const MoraleOdds& o);

}  // namespace vedette::totsk
