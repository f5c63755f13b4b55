#pragma once
// Shared helpers of the TotSK tests: the ruleset with settings, scenes from text or tests/.../scenes,
// declarations and moves checked on a scene, and lookups into the analysis JSON that explain a failure
// in table terms.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

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

// Declares `key: value` for `unit` in the scene, as a scene file's declarations would.
inline void Declare(Scene* s, const std::string& unit, const std::string& key, nlohmann::json value) {
  s->declarations.units[unit][key] = Declared{std::move(value), 0};
}

// CheckMove of `unit` to (x, y) facing h, a second move when `second`, under the ruleset with `settings`.
inline MoveCheck Move(const Scene& s, const std::string& unit, double x, double y, double h, bool second = false,
                      const std::map<std::string, std::string>& settings = {}) {
  MoveRequest m;
  m.unit = unit;
  m.to = {x, y, h};
  m.second_move = second;
  return Totsk(settings)->CheckMove(s, m);
}

// The action of each test a move check requires, in order.
inline std::vector<std::string> Actions(const MoveCheck& c) {
  std::vector<std::string> out;
  for (const auto& t : c.report["tests"]) out.push_back(t["action"].get<std::string>());
  return out;
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
