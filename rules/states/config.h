#pragma once
// The states ruleset's data, read from assets/rulesets/states.yaml.
#include <map>
#include <set>
#include <string>
#include <vector>

namespace vedette::states {

struct Effect {
  std::string what;  // "firing", "morale", "charger_morale", "flee", ...
  int value = 0;     // dice modifier (0: none)
  std::string rule;  // the seed's words
};

struct StatesConfig {
  std::string title;
  double mm_per_unit = 25.4;                                   // mm per inch
  std::map<std::string, std::vector<std::string>> states;      // unit type -> states, default first
  std::map<std::string, std::set<std::string>> markers;        // "firing"/"limbered" -> unit types
  double token_max_distance_mm = 30.0;                         // mm
  std::map<int, std::string> token_ids;                        // marker ID -> state or marker name
  std::map<std::string, std::vector<Effect>> effects;          // state or marker -> effects
  std::map<std::string, std::map<std::string, std::string>> pass_through;  // type -> state -> new state
  double pass_through_min_overlap_mm2 = 1.0;                   // mm^2
};

// Throws InputError (file:line) for a missing or bad file.
StatesConfig LoadStatesConfig(const std::string& path);

}  // namespace vedette::states
