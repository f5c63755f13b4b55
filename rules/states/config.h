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
  // Seed 7: the Morale Check that turns shaken troops eager again is faster or slower for some troops;
  // the seed gives no dice or numbers for it, so these are reported as factors, not odds.
  std::set<std::string> built_up_terrain;                      // terrain types of a Built-Up Area
  double built_up_share = 0.5;                                 // of the base area inside, 0..1
  std::string faster_tag = "veteran";                          // unit tag
  std::string slower_tag = "raw";                              // unit tag
};

// Throws InputError (file:line) for a missing or bad file.
StatesConfig LoadStatesConfig(const std::string& path);

}  // namespace vedette::states
