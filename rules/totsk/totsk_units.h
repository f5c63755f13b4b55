#pragma once
// How the engine reads a scene unit's TotSK troop class from its type, tags and formation. The tags
// are the scene's vocabulary (lower case words); RULES_NOTES.md lists them.
#include "rules/scene/scene.h"

namespace vedette::totsk {

// Light infantry: infantry tagged `light` or `li`.
inline bool IsLightInfantry(const Unit& u) {
  return u.type == UnitType::kInfantry && (u.HasTag("light") || u.HasTag("li"));
}
// Light horse: cavalry tagged `lh` or `light_horse` (irregular light cavalry).
inline bool IsLightHorse(const Unit& u) {
  return u.type == UnitType::kCavalry && (u.HasTag("lh") || u.HasTag("light_horse"));
}
// Light cavalry (regular): cavalry tagged `light` or `lc`, not light horse.
inline bool IsLightCavalry(const Unit& u) {
  return u.type == UnitType::kCavalry && !IsLightHorse(u) && (u.HasTag("light") || u.HasTag("lc"));
}
// "Light Troops" of the action-test lists and the threat exception: LI and LH.
inline bool IsLightTroops(const Unit& u) { return IsLightInfantry(u) || IsLightHorse(u); }
inline bool IsIm(const Unit& u) { return u.HasTag("im"); }
inline bool IsAtOrBt(const Unit& u) { return u.HasTag("at") || u.HasTag("bt"); }
inline bool IsGeneral(const Unit& u) { return u.type == UnitType::kGeneral; }
// "In column or limbered" (morale -1) and "if fired at in column" (infantry +1).
inline bool InColumn(const Unit& u) {
  return u.formation == "column" || u.formation == "march_column" || u.formation == "road_column";
}
inline bool Limbered(const Unit& u) { return u.formation == "limbered" || u.formation == "road_column"; }

}  // namespace vedette::totsk
