#pragma once
// The numbers of the Kings of War ruleset, read from assets/rulesets/kow.yaml.
#include <map>
#include <set>
#include <string>
#include <vector>

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
  // Moves (check-move). A hand-placed unit is never exactly where a rule puts it: a centre off the
  // straight line of an order by this much or less, or a heading off by this much or less, is on it.
  double move_mm = 3.0;                // mm
  double move_deg = 2.0;               // deg
  std::set<std::string> obstacle_terrain;  // terrain types a war engine treats as blocking (seed 74)
  // Setting `one_inch_rule` (seed 10 "a unit cannot approach within 1" of an enemy unit except when
  // charging"): "approach" (default): no non-charge move may bring the unit within 1 in of an enemy
  // closer than it stood when the move began (a unit already that close may stay or move away);
  // "strict": in addition, no non-charge move may end within 1 in of an enemy at all.
  bool one_inch_strict = false;
  // Setting `post_combat_back` (seed 59 "(3) move directly backwards d3"", where (2) says of the d6
  // forward "the unit must move the full distance" and (3) says nothing): "full" (default): back the d3
  // rolled in full, like the d6; "up_to": back any distance up to the d3 rolled.
  bool post_combat_back_up_to = false;
};

// Applies settings (from --set or the scene's `declarations: settings:`): one_inch_rule=approach|strict.
// Throws InputError naming the setting for a bad value; other keys are not read.
void ApplyKowSettings(const std::map<std::string, std::string>& settings, KowConfig* c);
// The settings ApplyKowSettings reads.
const std::vector<std::string>& KowSettingKeys();

// Throws InputError (file:line) for a missing or bad file.
KowConfig LoadKowConfig(const std::string& path);

}  // namespace vedette::kow
