#pragma once
// What the TotSK rules say about every unit from the position alone: zones of control, flank and rear
// threats, security, rear support, the morale test each unit would take (reasons, modifiers, odds)
// and the action tests it must pass before acting. Declarations (target chosen, failed morale last
// turn, moved, bonus move, ...) come from the scene; absent ones take the FAQ's default and the
// choice is recorded in `assumptions`.
#include <memory>
#include <string>
#include <vector>

#include "rules/ruleset.h"
#include "rules/totsk/totsk_data.h"
#include "rules/totsk/totsk_dice.h"

namespace vedette {
class UnitGrid;
}

namespace vedette::totsk {

// One enemy that could make the unit test.
struct MoraleReason {
  std::string by;         // enemy unit id ("" for a bombardment, see `group`)
  std::string kind;       // contact_front, under_fire, cavalry_threat, bombardment
  std::string reason;     // the QRS words
  double distance_mm = 0.0;           // edge to edge (0 in contact); for fire: straight-ahead reach
  std::vector<std::string> group;     // bombardment: the guns
  bool imposed = false;   // this enemy's one test falls on this unit (its target)
};

// An action test with its difficulty (RequiredTest keeps the overlay's common fields).
struct ActionTest {
  RequiredTest test;            // kind "action"; total and p_success filled
  std::string key;              // the YAML action (under_fire, wheel, ...)
  std::string difficulty;       // easy, standard, difficult, extreme
  int need = 0;                 // modified 1D6 score needed
  std::vector<std::string> by;  // units that cause it (the guns firing, ...)
};

struct UnitAnalysis {
  std::string id;
  bool general = false;                  // generals neither cause nor take tests
  std::vector<std::string> zoc_of;       // enemies whose zone of control holds the unit
  std::vector<std::string> left_flank, right_flank, rear;  // threats counting for the passive modifiers
  std::vector<std::string> light_threats;  // LI/LH behind a flank or the rear (no passive modifier)
  bool infantry = false;
  bool secure = false;                   // infantry: both flanks secured
  std::vector<std::string> secure_left, secure_right;  // friendly units / terrain securing each flank
  std::vector<std::string> rear_support;
  std::vector<MoraleReason> reasons;
  bool must_test = false;                // some enemy's test falls on it
  std::vector<Modifier> modifiers;
  int total = 0;
  MoraleOdds odds;
  std::string terrain_context;           // "in_contact", "under_fire" or "" (which FAQ column applies)
  std::vector<std::string> reroll_by;    // generals attached or within reach
  std::vector<ActionTest> action_tests;
  std::vector<std::string> assumptions;  // defaults taken for missing declarations
};

// One enemy's one test: which unit it falls on and why that one.
struct TargetChoice {
  std::string by, target, why;
};

struct TotskAnalysis {
  std::vector<UnitAnalysis> units;       // scene order (placed units only)
  std::vector<TargetChoice> choices;     // shooter order = scene order
  std::vector<std::string> notes;
  const UnitAnalysis* Find(const std::string& id) const;
};

// Which pairs of units the analysis looks at. Only a gun's rules reach beyond 2 BW (fire and
// bombardment up to 6 BW), so by default a pair without a gun is looked at only within the reach of
// the other rules; `gun_reach_for_every_pair` looks at every pair as far as a gun's, which must
// change no answer (what a test compares).
struct PairReach {
  bool gun_reach_for_every_pair = false;
};

// Requires every unit to have a pose (unplaced units are skipped). Never throws on geometry; throws
// InputError for a declaration of the wrong type (naming the scene file and line).
TotskAnalysis AnalyzeTotsk(const TotskData& data, const TotskSettings& settings, const Scene& scene, PairReach reach = {});

// What one analysis worked out and read, for the next call on a table watched frame after frame: a
// unit's results are worked out again only when something they read changed (a neighbour within the
// rules' reach moved, or a result of an earlier step they read changed), so one unit moving on a
// 300-unit table costs its neighbourhood's work, not the table's. The same answer as a fresh
// analysis, to the byte. One memo per caller (not thread-safe), with the same data and settings.
class AnalysisMemo {
 public:
  AnalysisMemo();
  ~AnalysisMemo();
  AnalysisMemo(AnalysisMemo&&) noexcept;
  AnalysisMemo& operator=(AnalysisMemo&&) noexcept;
  struct State;

 private:
  friend const TotskAnalysis& AnalyzeTotsk(const TotskData&, const TotskSettings&, const Scene&, AnalysisMemo*,
                                           const UnitGrid*);
  std::unique_ptr<State> state_;
};

// AnalyzeTotsk, starting from the last call's memo; the answer lives in the memo until its next call.
// A call that throws leaves nothing for the next to reuse. grid: the scene's UnitGrid when the caller
// has one (a call that measures every unit again asks it instead of making its own).
const TotskAnalysis& AnalyzeTotsk(const TotskData& data, const TotskSettings& settings, const Scene& scene,
                                  AnalysisMemo* memo, const UnitGrid* grid = nullptr);

// What judging a move of `unit` reads from AnalyzeTotsk, worked out for that unit alone: one entry
// (none when the unit is not placed) whose zoc_of and action_tests equal the whole analysis's; the
// other fields are left empty. Validates the declarations as AnalyzeTotsk does. The whole analysis
// weighs every pair of units; this one the unit's neighbours and the candidates of the guns and
// light infantry that could target it, which is what makes judging moves cheap on a busy table.
TotskAnalysis AnalyzeTotskUnit(const TotskData& data, const TotskSettings& settings, const Scene& scene,
                               const std::string& unit);

// The action test numbers for one difficulty: score needed, P(success) for the total.
ActionTest MakeActionTest(const TotskData& data, const std::string& unit, const std::string& key,
                          const std::string& reason, const std::string& difficulty, std::vector<Modifier> modifiers);

}  // namespace vedette::totsk
