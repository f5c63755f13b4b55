#pragma once
// The numbers of the Kings of War ruleset, read from assets/rulesets/kow.yaml.
#include <map>
#include <set>
#include <string>

namespace vedette::kow {

struct KowConfig {
  std::string title = "Kings of War";
  std::string unit_name = "in";
  double mm_per_unit = 25.4;           // mm per inch
  double charge_range_factor = 2.0;    // charge range = factor x speed
  double max_pivot_deg = 90.0;         // deg
  double one_inch_in = 1.0;            // in
  double near_miss_in = 1.0;           // charges missing the reach by less than this are still listed, in
  double war_engine_range_in = 48.0;   // seed 74: a war engine's range when its stats give none, in
  double cover_difficult_share = 0.5;  // of the base area, 0..1
  double cover_hidden_share = 0.5;     // of the target seen from the leader point, 0..1
  int cover_modifier = -1;             // to-hit
  std::map<std::string, double> heights;          // unit type -> KoW height
  std::set<std::string> blocking_terrain;         // terrain types
  std::set<std::string> difficult_terrain;        // terrain types
  std::map<std::string, double> terrain_heights;  // terrain type -> KoW height
  std::set<std::string> cannot_charge;            // unit types
  double contact_mm = 2.0;             // mm
  double line_mm = 0.5;                // mm
};

// Throws InputError (file:line) for a missing or bad file.
KowConfig LoadKowConfig(const std::string& path);

}  // namespace vedette::kow
