#pragma once
// Reading a ruleset's report in tests.
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "rules/ruleset.h"

namespace vedette {

// The report's entry for one unit (report["units"][i] with "id" == id); throws when absent.
inline nlohmann::json UnitOf(const Findings& f, const std::string& id) {
  for (const nlohmann::json& u : f.report["units"])
    if (u["id"] == id) return u;
  throw std::runtime_error("no unit " + id + " in the report");
}

}  // namespace vedette
