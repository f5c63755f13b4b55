#include "rules/unit_key.h"

namespace vedette {

namespace {

void MixKeys(const Declarations::Keys& keys, KeyMix* h) {
  for (const auto& [k, d] : keys) h->S(k), h->S(d.value.dump());
}

}  // namespace

uint64_t UnitKey(const Unit& u) {
  KeyMix h;
  h.S(u.id), h.S(u.side), h.U(static_cast<uint64_t>(u.type)), h.S(u.formation);
  for (const std::string& tag : u.tags) h.S(tag);
  for (const BaseSpec& b : u.bases) h.D(b.width_mm), h.D(b.depth_mm), h.D(b.offset_mm.x()), h.D(b.offset_mm.y());
  h.U(u.pose.has_value());
  if (u.pose) h.D(u.pose->x_mm), h.D(u.pose->y_mm), h.D(u.pose->heading_deg);
  h.D(u.height_mm);
  for (const auto& [k, v] : u.stats) h.S(k), h.D(v);
  return h.h;
}

uint64_t UnitDeclarationsKey(const Declarations& d, const std::string& unit) {
  KeyMix h;
  if (const Declarations::Keys* keys = d.Of(unit)) MixKeys(*keys, &h);
  return h.h;
}

uint64_t TerrainKey(const Scene& scene) {
  KeyMix h;
  for (const Terrain& t : scene.terrain) {
    h.S(t.id), h.S(t.type), h.D(t.height_mm);
    for (const geom::Vec2& v : t.polygon) h.D(v.x()), h.D(v.y());
    h.U(t.polygon.size());
  }
  return h.h;
}

uint64_t DeclarationsKey(const Declarations& d) {
  KeyMix h;
  h.S(d.active_side);
  for (const auto& [unit, keys] : d.units) h.S(unit), MixKeys(keys, &h), h.U(keys.size());
  MixKeys(d.settings, &h);
  return h.h;
}

}  // namespace vedette
