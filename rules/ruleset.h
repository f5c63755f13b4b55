#pragma once
// A ruleset is a plug-in: a scene (with its declarations) goes in, findings come out. TotSK, Kings of
// War, For King or Empress, the unit-state rules and the bare geometry report all implement this one
// interface; `vedette analyze --ruleset NAME`, the overlay and the dispute tool use only it.
//
// Adding a ruleset: its own files under rules/<name>/, and one line in rules/rulesets.def.
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "rules/drawing.h"
#include "rules/geometry/arcs.h"
#include "rules/scene/scene.h"

namespace vedette {

struct RulesetInfo {
  std::string name;        // "totsk"
  std::string title;       // "Twilight of the Soldier Kings"
  std::string unit_name;   // measuring unit shown to players: "BW" or "in"
  geom::ArcModel arc_model = geom::ArcModel::kTotsk;
  std::vector<std::string> settings;  // the setting keys it reads (--set KEY=VALUE); empty: none
  double unit_mm = 0.0;    // mm per unit_name (25.4 for "in"); 0: the army's BW (scene.BwFor)
};

// A dice modifier and the rule behind it.
struct Modifier {
  std::string rule;              // the rule's words, e.g. "enemy in range of flank or rear"
  int value = 0;                 // dice modifier
  std::vector<std::string> by;   // units causing it
};

// A test a unit must take, for the overlay's panels and labels.
struct RequiredTest {
  std::string unit;                 // unit id
  std::string kind;                 // "morale", "action", "nerve", ...
  std::string reason;               // why, in the rules' words
  std::vector<Modifier> modifiers;
  int total = 0;                    // sum of modifiers
  double p_success = 0.0;           // probability of passing, 0..1
  std::string odds;                 // short text for a label, e.g. "pass 42% / fail 47% / rout 11%"
};

// A threshold a rule applies between two units (for disputes): the rule holds when
// measured_mm <= threshold_mm, and the margin is threshold - measured.
struct PairRule {
  std::string rule;          // "within 1 BW", "in R1's zone of control", ...
  std::string quantity;      // what was measured: "edge_to_edge", "leader_to_closest", "zoc_reach", ...
  double threshold_mm = 0.0;
  double measured_mm = 0.0;
};

struct Findings {
  std::string ruleset;
  nlohmann::json report;                 // exactly what `analyze --json` prints (null when not asked for)
  std::string text;                      // the same for a person at the table: short, aligned ("" when not asked for)
  std::vector<RequiredTest> tests;
  std::vector<DrawPrimitive> drawing;
};

// A move, proposed (`vedette check-move`) or observed (the tracker saw a unit come to rest elsewhere).
struct MoveRequest {
  std::string unit;            // unit id; its pose in the scene is where the move starts
  Pose to;                     // where it ends, table frame
  bool second_move = false;    // second or later move of the unit this turn
  std::vector<Pose> path;      // poses seen on the way, in order (may be empty)
  std::string formation;       // formation at the end ("" = unchanged): a change of formation
};

// What a ruleset says about a move.
// A unit's state changed by what a move did (seed 003: passed through by a fleeing unit, artillery
// charged from the front starts firing). The pipeline applies it as a declaration, so the table's
// states follow the game without a click.
struct StateChange {
  std::string unit;
  std::string key;        // a declaration key the ruleset reads: "state", "firing", ...
  nlohmann::json value;   // "shaken", true, ...
  std::string reason;     // in the rules' words, with the seed line
};

struct MoveCheck {
  bool supported = false;           // false: this ruleset does not judge moves (nothing else is set)
  bool legal = true;
  std::string illegal_reason;       // why not, in the rules' words, when !legal
  std::vector<std::string> kinds;   // classification, e.g. "straight_ahead", "wheel", "contact_flank"
  std::vector<RequiredTest> tests;  // in the order they are taken
  std::vector<StateChange> state_changes;  // other units' (or its own) states after the move
  // For the ruler while a unit moves: how far the move went and how far a move of its kind may go,
  // as the rules count them (free pivots left out; the order's allowance), mm. < 0: not given.
  double counted_mm = -1.0;
  double allowance_mm = -1.0;
  double charge_reach_mm = -1.0;    // how far its charge reaches from where it started, mm (< 0: no charge judged)
  std::vector<std::string> contacts;  // enemy units it ends in (new) contact with
  nlohmann::json report;            // exactly what `check-move --json` prints
  std::string text;                 // the same for a person at the table
};

// What a ruleset says about several units that moved together.
struct GroupMoveCheck {
  bool supported = false;           // false: this ruleset does not judge group moves (nothing else is set)
  bool allowed = false;             // these moves may be made as one group move
  std::string reason;               // why not, in the rules' words, when !allowed
  std::vector<RequiredTest> tests;  // the group's tests, one roll each for the whole group (when allowed)
  nlohmann::json report;
  std::string text;
};

// Options every ruleset accepts: where its data files are and settings that override them
// (from the scene's `declarations: settings:` and the command line's --set KEY=VALUE).
struct RulesetOptions {
  std::string assets_dir;                       // "" = the default assets folder
  std::map<std::string, std::string> settings;  // KEY -> VALUE as typed
  // Keys typed on the command line (--set): MakeRuleset refuses one the ruleset does not read,
  // listing the ones it does. (A scene's own settings may serve several rulesets: not checked.)
  std::vector<std::string> strict_keys;
};

// A declaration the live window's unit menu offers for a unit, and checks before the rules see it:
// a key of the scene's `declarations:` with the values the ruleset accepts, or a yes/no flag.
// (Kings of War's orders: "order" with halt ... charge; its wavering and disordered flags.)
struct DeclarationChoice {
  std::string key;                       // declarations key, e.g. "order"
  std::string words;                     // the menu's label, e.g. "Order"
  std::vector<std::string> values;       // accepted values, in the menu's order; empty: a flag (true / false)
  std::vector<std::string> value_words;  // each value for the player ("at the double"), as many as values
};

// What a caller wants of an analysis. The frame path (live window, process, track) draws the findings
// and lists the tests and reads neither the text nor the JSON report: on a 300-unit table building
// them was a seventh of a TotSK analysis and nine tenths of the table geometry's (rules_bench
// --frame-path). `vedette analyze` and a game's final report show no picture: the drawing and its
// cards were an eighth of TotSK's text.
struct AnalyzeOptions {
  bool text = true;     // Findings::text
  bool report = true;   // Findings::report
  bool picture = true;  // Findings::drawing and ::tests; false: a ruleset may leave them empty
};
inline constexpr AnalyzeOptions kFramePath{.text = false, .report = false, .picture = true};

class Ruleset {
 public:
  virtual ~Ruleset() = default;
  virtual RulesetInfo Info() const = 0;
  // The same tests and drawing whatever `options` asks for; text and report only when asked.
  virtual Findings Analyze(const Scene& scene, const AnalyzeOptions& options = {}) const = 0;
  // The thresholds that apply between two units, for the dispute tool. Default: the geometry ones
  // (contact, zone of control, 1 BW).
  virtual std::vector<PairRule> PairRules(const Scene& scene, const std::string& from, const std::string& to) const;
  // Classification, legality and required tests of a move. Default: not supported.
  virtual MoveCheck CheckMove(const Scene& scene, const MoveRequest& move) const;
  // Whether moves made together form one group move, and the group's tests. Each move's unit
  // stands at its start pose in `scene`. Default: not supported.
  virtual GroupMoveCheck CheckGroupMove(const Scene& scene, const std::vector<MoveRequest>& moves) const;
  // What a player may declare for `unit` in the live window (orders, flags). Default: nothing.
  virtual std::vector<DeclarationChoice> UnitChoices(const Scene& scene, const Unit& unit) const;
  // What a new turn of `side` clears of the last one (the move judge asks when a move starts it; the
  // pipeline applies the changes as declarations). TotSK: the side's bonus moves, whose command points
  // are the General's again. Default: nothing.
  virtual std::vector<StateChange> TurnStartChanges(const Scene& scene, const std::string& side) const;
};

// The choice of `choices` with this key, nullptr when none; and whether `value` is one it accepts.
const DeclarationChoice* FindChoice(const std::vector<DeclarationChoice>& choices, const std::string& key);
bool Accepts(const DeclarationChoice& choice, const nlohmann::json& value);

// Makes the named ruleset; throws InputError for an unknown name, a bad data file or a key of
// options.strict_keys that the ruleset does not read.
std::unique_ptr<Ruleset> MakeRuleset(const std::string& name, const RulesetOptions& options = {});
std::vector<std::string> RulesetNames();

// The folder holding assets/ (rulesets, sample scenes): $VEDETTE_ASSETS, else the install location,
// else the source tree.
std::string AssetsDir();

}  // namespace vedette
