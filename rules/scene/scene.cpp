#include "rules/scene/scene.h"

#include <algorithm>
#include <limits>

namespace vedette {

std::string_view ToString(UnitType t) {
  switch (t) {
    case UnitType::kInfantry: return "infantry";
    case UnitType::kCavalry: return "cavalry";
    case UnitType::kArtillery: return "artillery";
    case UnitType::kGeneral: return "general";
  }
  return "?";
}

std::optional<UnitType> ParseUnitType(std::string_view s) {
  for (UnitType t : {UnitType::kInfantry, UnitType::kCavalry, UnitType::kArtillery, UnitType::kGeneral})
    if (ToString(t) == s) return t;
  return std::nullopt;
}

bool Unit::HasTag(std::string_view tag) const { return std::find(tags.begin(), tags.end(), tag) != tags.end(); }

const std::vector<TerrainKind>& TerrainKinds() {
  // name, bad_going, cover, defending, fortification, blocks_sight, impassable
  static const std::vector<TerrainKind> kinds = {
      {"open", false, false, false, false, false, false},
      {"woods", true, true, true, false, true, false},
      {"rough", true, false, false, false, false, false},
      {"marsh", true, false, false, false, false, false},
      {"steep_slope", true, false, true, false, false, false},
      {"hill", false, false, false, false, true, false},
      {"town", true, true, true, false, true, false},
      {"village", true, true, true, false, true, false},
      {"stream", true, false, true, false, false, false},
      {"river", true, false, true, false, false, true},
      {"fortification", false, true, true, true, false, false},
      {"works", false, true, true, true, false, false},
      {"strong_point", false, true, true, true, false, false},  // a fortified post (For King or Empress)
      {"wall", false, true, true, false, false, false},
      {"hedge", false, true, true, false, false, false},
      {"road", false, false, false, false, false, false},
      {"field", false, false, false, false, false, false},
      {"lake", false, false, false, false, false, true},
      {"impassable", false, false, false, false, true, true},
      {"blocking", false, false, false, false, true, true},
  };
  return kinds;
}

const TerrainKind* FindTerrainKind(std::string_view name) {
  for (const TerrainKind& k : TerrainKinds())
    if (k.name == name) return &k;
  return nullptr;
}

const Declared* Declarations::Find(std::string_view unit, std::string_view key) const { return Find(Of(unit), key); }

const Declarations::Keys* Declarations::Of(std::string_view unit) const {
  auto u = units.find(unit);
  return u == units.end() ? nullptr : &u->second;
}

const Declared* Declarations::Find(const Keys* keys, std::string_view key) {
  if (!keys) return nullptr;
  auto k = keys->find(key);
  return k == keys->end() ? nullptr : &k->second;
}

bool Declarations::Flag(std::string_view unit, std::string_view key) const { return Flag(Of(unit), key); }

bool Declarations::Flag(const Keys* keys, std::string_view key) {
  const Declared* d = Find(keys, key);
  return d && d->value.is_boolean() && d->value.get<bool>();
}

bool Declarations::Routed(std::string_view unit) const {
  return Routed(Of(unit));  // asked of every unit every frame, and most declare nothing
}

bool Declarations::Routed(const Keys* keys) {
  if (!keys) return false;
  const Declared* state = Find(keys, "state");
  return Flag(keys, "routed") || (state && state->value == "routed");
}

const Unit* Scene::FindUnit(std::string_view id) const {
  for (const Unit& u : units)
    if (u.id == id) return &u;
  return nullptr;
}

Unit* Scene::FindUnit(std::string_view id) {
  for (Unit& u : units)
    if (u.id == id) return &u;
  return nullptr;
}

const Side* Scene::FindSide(std::string_view name) const {
  for (const Side& s : sides)
    if (s.name == name) return &s;
  return nullptr;
}

double Scene::BwFor(const Unit& u) const {
  const Side* s = FindSide(u.side);
  return s && s->bw_mm > 0 ? s->bw_mm : bw_mm;
}

geom::Base BaseOf(const Unit& u, size_t index) {
  const Pose p = u.pose.value_or(Pose{});
  const BaseSpec& spec = u.bases.at(index);
  geom::Base ref{{p.x_mm, p.y_mm}, p.heading_deg, spec.width_mm, spec.depth_mm};
  ref.centre_mm = geom::ToTableFrame(ref, spec.offset_mm);
  return ref;
}

std::vector<geom::Base> BasesOf(const Unit& u) {
  std::vector<geom::Base> out;
  for (size_t i = 0; i < u.bases.size(); ++i) out.push_back(BaseOf(u, i));
  return out;
}

geom::Base Footprint(const Unit& u) {
  if (u.bases.size() == 1) return BaseOf(u, 0);
  double umin = std::numeric_limits<double>::infinity(), umax = -umin, vmin = umin, vmax = -umin;
  for (const BaseSpec& b : u.bases) {
    umin = std::min(umin, b.offset_mm.x() - b.width_mm / 2);
    umax = std::max(umax, b.offset_mm.x() + b.width_mm / 2);
    vmin = std::min(vmin, b.offset_mm.y() - b.depth_mm / 2);
    vmax = std::max(vmax, b.offset_mm.y() + b.depth_mm / 2);
  }
  const Pose p = u.pose.value_or(Pose{});
  geom::Base ref{{p.x_mm, p.y_mm}, p.heading_deg, umax - umin, vmax - vmin};
  ref.centre_mm = geom::ToTableFrame(ref, {(umin + umax) / 2, (vmin + vmax) / 2});
  return ref;
}

}  // namespace vedette
