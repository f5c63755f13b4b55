#pragma once
// Shared helpers of the TotSK tests: the ruleset with settings, scenes from text or tests/.../scenes,
// and lookups into the analysis JSON that explain a failure in table terms.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "rules/ruleset.h"
#include "rules/scene/scene_io.h"

namespace vedette::totsk_test {

inline std::unique_ptr<Ruleset> Totsk(const std::map<std::string, std::string>& settings = {}) {
  RulesetOptions o;
  o.settings = settings;
  return MakeRuleset("totsk", o);
}

inline std::string ScenePath(const std::string& name) {
  return std::string(VEDETTE_TEST_DATA) + "/rules/totsk/scenes/" + name;
}

inline nlohmann::json Analyze(const Scene& scene, const std::map<std::string, std::string>& settings = {}) {
  return Totsk(settings)->Analyze(scene).report;
}

inline nlohmann::json UnitOf(const nlohmann::json& report, const std::string& id) {
  for (const auto& u : report["units"])
    if (u["id"] == id) return u;
  ADD_FAILURE() << "no unit " << id << " in the report";
  return nlohmann::json::object();
}

// The value of the modifier whose rule starts with `prefix` (0 when absent).
inline int ModifierValue(const nlohmann::json& unit, const std::string& prefix) {
  for (const auto& m : unit["morale"]["modifiers"])
    if (m["rule"].get<std::string>().rfind(prefix, 0) == 0) return m["value"].get<int>();
  return 0;
}

inline std::string ModifierList(const nlohmann::json& unit) {
  std::string s;
  for (const auto& m : unit["morale"]["modifiers"])
    s += "  " + std::to_string(m["value"].get<int>()) + " " + m["rule"].get<std::string>() + " by " + m["by"].dump() + "\n";
  return s;
}

}  // namespace vedette::totsk_test
