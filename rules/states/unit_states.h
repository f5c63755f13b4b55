#pragma once
// Unit states (seed 003 "States of Troops"): each unit's state (eager / shaken / routed, artillery
// silenced instead of routed) and its Firing and Limbered markers, from the players' declarations (the
// overlay's click writes them) or from state tokens lying beside a base; and what a fleeing unit does
// to the units it passes through.
#include <string>
#include <vector>

#include "rules/geometry/base.h"
#include "rules/scene/scene.h"
#include "rules/states/config.h"

namespace vedette::states {

struct UnitState {
  std::string unit;                 // unit id
  std::string type;                 // "infantry", ...
  std::string state;                // one of the type's states
  std::string state_source;         // "default", "declared", "token 41"
  bool firing = false;
  bool limbered = false;
  std::vector<std::string> notes;   // conflicts resolved, tokens ignored
};

struct TokenAssignment {
  Token token;
  std::string meaning;       // state or marker, "" when the ID is not a state token
  std::string unit;          // the unit it belongs to ("" = none within reach, or a tie)
  double distance_mm = 0.0;  // from the token centre to that unit's base outline, mm
  std::string note;          // why it was not used
};

struct StateTable {
  std::vector<UnitState> units;          // units that have states (not generals), sorted by id
  std::vector<TokenAssignment> tokens;   // tokens of the reserved range, in scene order
  const UnitState* Find(const std::string& id) const;
};

// Declarations (state: NAME, firing: bool, limbered: bool) win over tokens; among several state tokens
// on one unit the most severe wins. A declaration the unit's type cannot have throws InputError (file
// line); a token it cannot have is ignored with a note.
StateTable ResolveStates(const Scene& scene, const StatesConfig& config);

struct PassThrough {
  std::string unit;           // passed through
  std::string before, after;  // states
  double overlap_mm2 = 0.0;   // largest area of its base the fleeing unit swept over, mm^2
};

// The units whose bases the fleeing unit sweeps over moving through `path` (its poses in order, the
// start first), and their new states (seed 33, 59). Units already routed or silenced do not change.
std::vector<PassThrough> PassedThrough(const Scene& scene, const StatesConfig& config, const StateTable& table,
                                       const Unit& fleeing, const std::vector<Pose>& path);

// Enemy artillery whose front edge the moving unit's front meets where it stops (a charge from the
// front): it begins firing (seed 79). Artillery already firing or silenced is not listed.
std::vector<std::string> ArtilleryChargedFromTheFront(const Scene& scene, const StateTable& table, const Unit& mover,
                                                      const Pose& to);

}  // namespace vedette::states
