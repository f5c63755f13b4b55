#include "rules/ruleset.h"

#include <algorithm>

#include "rules/measure.h"
#include "rules/overlaps.h"

namespace vedette {

std::vector<PairRule> Ruleset::PairRules(const Scene& scene, const std::string& from, const std::string& to) const {
  MeasureOptions options;
  options.arc_model = Info().arc_model;
  const Measurement m = Measure(scene, from, to, options);
  std::vector<PairRule> rules;
  rules.push_back({"in contact", "edge_to_edge", options.contact_tolerance_mm, m.distance_mm});
  rules.push_back({"within 1 BW", "edge_to_edge", m.bw_mm, m.distance_mm});
  const Unit* b = scene.FindUnit(to);
  rules.push_back({"in " + to + "'s zone of control", "zoc_reach", scene.BwFor(*b), m.from_in_zoc_of_to.reach_mm});
  rules.push_back(OverlapRule(*scene.FindUnit(from), *b, options.contact_tolerance_mm));
  return rules;
}

MoveCheck Ruleset::CheckMove(const Scene&, const MoveRequest&) const { return MoveCheck{}; }

GroupMoveCheck Ruleset::CheckGroupMove(const Scene&, const std::vector<MoveRequest>&) const { return GroupMoveCheck{}; }

std::vector<DeclarationChoice> Ruleset::UnitChoices(const Scene&, const Unit&) const { return {}; }

std::vector<StateChange> Ruleset::TurnStartChanges(const Scene&, const std::string&) const { return {}; }

const DeclarationChoice* FindChoice(const std::vector<DeclarationChoice>& choices, const std::string& key) {
  for (const DeclarationChoice& c : choices)
    if (c.key == key) return &c;
  return nullptr;
}

bool Accepts(const DeclarationChoice& choice, const nlohmann::json& value) {
  if (choice.values.empty()) return value.is_boolean();
  return value.is_string() && std::find(choice.values.begin(), choice.values.end(), value.get<std::string>()) != choice.values.end();
}

}  // namespace vedette
