#pragma once
// The numbers of the For King or Empress ruleset, read from assets/rulesets/fkoe.yaml.
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace vedette::fkoe {

struct RuleValue {
  int value = 0;      // modifier
  std::string rule;   // the sheet's words
};

struct FkoeConfig {
  std::string title;
  std::string unit_name = "in";
  double mm_per_unit = 25.4;                 // mm per inch
  std::set<std::string> bad_going_terrain;   // terrain types
  double bad_going_frontage_share = 0.5;     // 0..1
  double visibility_in = 1.0;                // in
  double visibility_report_in = 12.0;        // hidden enemies listed within this, in (a report choice)
  std::map<std::string, RuleValue> combat_value;  // key -> modifier
  std::map<std::string, RuleValue> morale;        // key -> modifier
  double support_distance_in = 1.0;          // in
  double support_max_heading_difference_deg = 45.0;  // deg
  double contact_mm = 2.0;                   // mm
  double placement_in = 0.25;                // in: slack on a recoil and withdrawal distance
  double turn_deg = 10.0;                    // deg: slack on "facing away" (a 180-degree turn)
  // Places a unit defends (seed 13, 60, 62): terrain types by role; a unit is "at" a piece within at_mm.
  std::set<std::string> strong_point_terrain;  // CV +1 (a Strong Point)
  std::set<std::string> village_terrain;       // CV +1, morale +2
  std::set<std::string> works_terrain;         // CV +1, morale +2
  std::set<std::string> stream_terrain;        // morale +2 defending the bank
  double defended_share = 0.5;                 // of the base area inside a piece to be "in" it, 0..1
  double at_mm = 2.0;                          // mm
  std::optional<double> artillery_short_range_in;  // setting or file, in (the sheet gives none)
  std::optional<double> artillery_long_range_in;   // setting or file, in
  std::string artillery_long_range_test;           // the sheet's words for the long-range hit
  std::optional<double> command_range_in;    // setting, in
  std::optional<int> morale_pass_at_least;   // setting, 1D20 score
  std::map<std::string, RuleValue> extra_disorder;  // seed 29-40: step 4 markers, key -> markers
  std::string step4_markers = "engaged";     // setting: "engaged" (in the combat) or "if_hit" (only units hit)
  std::string frontal_contact = "both_fronts";  // setting: "both_fronts" (front edge to front edge) or "own_front"
  std::string withdrawal = "dice";           // setting: "dice" (seed 74: 1D6", mounted 2D6") or "full_move" (seed 53)
  int withdraw_dice = 1, mounted_withdraw_dice = 2;  // D6 of withdrawal, in
  std::vector<std::string> turn_sequence;    // seed 44-48
  const RuleValue& Cv(const std::string& key) const { return combat_value.at(key); }
  const RuleValue& Morale(const std::string& key) const { return morale.at(key); }
};

// Throws InputError (file:line) for a missing or bad file, or a bad setting.
FkoeConfig LoadFkoeConfig(const std::string& path, const std::map<std::string, std::string>& settings);

// Reads the settings this ruleset knows (command_range_in, morale_pass_at_least, artillery_short_range_in,
// artillery_long_range_in); others are ignored. Throws InputError for a bad value or short >= long range.
void ApplySettings(const std::map<std::string, std::string>& settings, FkoeConfig* c);

}  // namespace vedette::fkoe
