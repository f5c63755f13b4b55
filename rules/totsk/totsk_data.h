#pragma once
// Every number of Twilight of the Soldier Kings that the engine uses, read from
// assets/rulesets/totsk.yaml, and the settings that choose between the quick reference sheet (QRS)
// and the FAQ of December 2022 where the two disagree. The engine never holds a rules number in code:
// a reader checks the YAML against the texts, and the tests check the engine against the YAML.
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace vedette::totsk {

// One line of the QRS movement table.
struct MoveRate {
  double open_bw = 0.0;                // BW per move in open ground
  std::optional<double> rough_bw;      // BW per move in rough ground; empty = "NA" (may not enter)
};

// The test an action needs; IM units (tag `im`) take `im_difficulty` when it is set.
struct MoveTest {
  std::string difficulty;     // easy, standard, difficult, extreme
  std::string im_difficulty;  // "" = same as difficulty
  std::string rule;           // the rule's words
};

struct MoraleModifierSpec {
  int value = 0;     // added to the 2D6 roll
  std::string rule;  // the rule's words
};

// FAQ table "Defending terrain, cover and fortification modifiers", one column.
struct TerrainCap {
  int cover = 0;              // in cover (under fire only)
  int defending_terrain = 0;  // defending terrain (in contact only)
  int fortification = 0;      // in fortification
  int max = 0;                // the column's maximum total
};

// The ranges (BW) at which a unit causes a morale test.
struct MoraleRanges {
  double foot = 0.0;            // formed infantry fire, straight ahead
  double light_infantry = 0.0;  // LI fire, any direction ahead of its front
  double cavalry = 0.0;         // cavalry threatening infantry
  double artillery = 0.0;       // artillery fire, straight ahead
};

struct Tolerances {
  double contact_mm = 2.0;           // bases this close touch
  double line_mm = 0.5;              // a point this close to a rule's line counts as on it
  double straight_deg = 3.0;         // a move keeping heading within this is straight
  double turn_deg = 10.0;            // a turn within this of 90/180 deg is a face to flank / about face
  double pivot_bw = 0.25;            // a turn on the spot may shift the unit this far (BW)
  double distance_mm = 1.0;          // slack on a move distance (mm)
  double contact_halt_gap_mm = 5.0;  // FAQ: a failed contact test halts this far in front of the target
  double placement_bw = 0.25;        // a move of a set distance (break-off, pursuit, pull back) may miss it by this (BW)
};

// QRS 95-105: what follows the morale tests.
struct AfterCombat {
  double break_off_retire_bw = 6.0;          // QRS 95: failed test in contact
  double break_off_choose_bw = 2.0;          // QRS 95: passed test against infantry or artillery
  double infantry_withdraw_bw = 1.0;         // QRS 91: passed test, contacted by infantry
  double forced_back_faq_bw = 0.25;          // FAQ 129: AT/BT force back a failed enemy
  double forced_back_qrs_bw = 1.0;           // QRS 91: "this distance"
  double crew_shelter_bw = 2.0;              // QRS 93: the crew join a friendly unit within 2 BW
  int pursuit_need = 6;                      // QRS 97: "Pursue on 6+"
  double pursuit_general_bw = 1.0;           // QRS 97: "-1 General within 1BW"
  std::map<std::string, MoraleModifierSpec> pursuit_modifiers;           // raw, british, general_near, wavering
  std::map<std::string, MoraleModifierSpec> pursuit_distance_modifiers;  // british, trained, elite
  std::map<std::string, int> morale_fails_base;  // FAQ 133-142: by unit type (infantry 3)
  std::map<std::string, int> morale_fails_tags;  // FAQ 133-142: large +1, determined +1, tiny -1, wavering -1
  double pull_back_bw = 1.0;                 // QRS 99
  double bonus_general_bw = 6.0;             // QRS 103
  double army_lost_share = 0.5;              // QRS 105: "lost half of its units"
  int army_need = 5;                         // QRS 105: "needs a 5 or 6"
};

struct TotskData {
  std::string source;  // file read
  std::string name, title;
  // movement[type][row]: QRS movement table; formation_rows[type][formation] = row.
  std::map<std::string, std::map<std::string, MoveRate>> movement;
  std::map<std::string, std::map<std::string, std::string>> formation_rows;
  double zoc_depth_bw = 1.0;
  double rear_support_infantry_bw = 1.0, rear_support_cavalry_bw = 2.0;
  double secure_distance_bw = 1.0;
  std::vector<std::string> secure_terrain;  // terrain types that secure a flank
  double flank_support_distance_bw = 1.0, flank_support_max_heading_deg = 45.0;
  double threat_distance_faq_bw = 2.0, threat_distance_qrs_bw = 4.0;
  MoraleRanges ranges_faq, ranges_qrs;
  double bombardment_range_bw = 6.0;
  int bombardment_min_guns = 2;
  double artillery_close_bw = 1.0, artillery_far_bw = 6.0;
  double general_reroll_bw = 2.0;
  int general_killed_on_natural = 4;
  std::vector<int> general_reroll_killed_on_natural = {2, 3};  // FAQ 324
  std::map<std::string, int> action_need;        // difficulty -> modified score needed on 1D6
  std::map<std::string, int> action_modifiers;   // name -> value
  std::map<std::string, MoveTest> move_tests;    // action -> test
  int morale_pass_at_least = 8, morale_rout_at_most = 3;
  std::map<std::string, MoraleModifierSpec, std::less<>> morale_modifiers;  // by key, looked up by any string
  MoraleModifierSpec charged_by_cavalry_faq, charged_by_cavalry_qrs;
  std::map<std::string, TerrainCap> under_fire, in_contact;  // by unit type
  std::string rule_cover, rule_defending_terrain, rule_fortification;
  Tolerances tolerances;
  AfterCombat after;

  const MoraleModifierSpec& Morale(std::string_view key) const;  // throws std::out_of_range on a bug
};

// Reads the ruleset file; throws InputError naming file:line and what is wrong.
TotskData LoadTotskData(const std::string& path);
TotskData ParseTotskData(const std::string& text, const std::string& source_name);

// Where the QRS and the FAQ disagree: which one the engine follows, per question.
struct TotskSettings {
  std::string threat_distance = "faq";     // "faq" (2 BW) or "qrs" (4 BW)
  std::optional<double> threat_distance_bw;  // explicit override (BW), wins over the choice above
  std::string morale_ranges = "faq";       // "faq" (1/2 BW foot and cavalry, 3 BW artillery) or "qrs" (1/2/6)
  std::string charged_by_cavalry = "faq";  // "faq" (-1) or "qrs" (+1)
  std::string second_move = "faq";         // "faq" (Standard, a score of 3+) or "qrs" (IM Easy)
  std::string pursuit = "faq";             // who may pursue: "faq" (cavalry, FAQ "PURSUING") or "qrs" (any unit, QRS 97)
  std::string forced_back = "faq";         // AT/BT force back: "faq" (1/4 BW, FAQ 129) or "qrs" (1 BW, QRS 91)
  std::string army_morale = "faq";         // army test after: "faq" (half or more of its wings lost) or "qrs" (half its units)
  std::vector<std::string> ignored;        // setting keys this ruleset does not know

  double ThreatBw(const TotskData& d) const;
  const MoraleRanges& Ranges(const TotskData& d) const;
  const MoraleModifierSpec& ChargedByCavalry(const TotskData& d) const;
};

// Settings from KEY -> VALUE (scene declarations and --set). `rules=faq|qrs` sets every choice at
// once; the single keys override it. A bad value throws InputError naming `where`.
TotskSettings ParseTotskSettings(const std::map<std::string, std::string>& settings, const std::string& where);

}  // namespace vedette::totsk
