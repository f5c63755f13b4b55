#pragma once
// Shared helpers of the Kings of War tests: analysing a scene with the kow ruleset and a unit's report entry.
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "rules/ruleset.h"

namespace vedette::kow_test {

inline Findings Analyze(const Scene& s) { return MakeRuleset("kow")->Analyze(s); }

// The report's entry for one unit (report["units"][i] with "id" == id), by reference; throws when absent.
inline const nlohmann::json& UnitReport(const Findings& f, const std::string& id) {
  for (const nlohmann::json& u : f.report["units"])
    if (u["id"] == id) return u;
  throw std::runtime_error("no unit " + id + " in the report");
}

}  // namespace vedette::kow_test
