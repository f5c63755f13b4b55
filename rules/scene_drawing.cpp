#include "rules/scene_drawing.h"

#include <algorithm>
#include <cstdlib>
#include <map>

#include "rules/geometry/corridor.h"

namespace vedette {

std::uint32_t SideColour(const Scene& scene, const std::string& side) {
  if (const Side* s = scene.FindSide(side); s && s->colour.size() == 7)
    return (static_cast<std::uint32_t>(std::strtoul(s->colour.c_str() + 1, nullptr, 16)) << 8) | 0xFFu;
  static const std::uint32_t palette[] = {0x3060FFFF, 0xE03030FF, 0x30A040FF, 0xE0A020FF, 0xA040C0FF, 0x20B0B0FF};
  // The side's place among the declared sides, then the sides of the units in scene order.
  size_t i = 0;
  for (const Side& s : scene.sides) {
    if (s.name == side) return palette[i % 6];
    ++i;
  }
  std::vector<std::string_view> order;
  for (const Unit& u : scene.units) {
    if (scene.FindSide(u.side) || std::find(order.begin(), order.end(), u.side) != order.end()) continue;
    if (u.side == side) return palette[(i + order.size()) % 6];
    order.push_back(u.side);
  }
  return palette[0];
}

const char* GlyphWord(Glyph g) {
  switch (g) {
    case Glyph::kNone: return "";
    case Glyph::kShaken: return "shaken";
    case Glyph::kRouted: return "routed";
    case Glyph::kDisordered: return "disordered";
    case Glyph::kWavering: return "wavering";
    case Glyph::kSilenced: return "silenced";
    case Glyph::kLimbered: return "limbered";
    case Glyph::kFiring: return "firing";
  }
  return "";
}

void AppendStateGlyph(const Unit& unit, Glyph glyph, std::vector<DrawPrimitive>* out) {
  if (!unit.pose || glyph == Glyph::kNone) return;
  DrawPrimitive p;
  p.kind = DrawKind::kGlyph;
  p.style = DrawStyle::kInfo;
  p.glyph = glyph;
  p.points_mm = {{unit.pose->x_mm, unit.pose->y_mm}};
  p.layer = "labels";
  p.unit_id = unit.id;
  out->push_back(std::move(p));
}

namespace {

// A primitive of a unit's outline, made in place at the end of *out (not made, moved and destroyed).
DrawPrimitive& AddPrimitive(DrawKind kind, DrawStyle style, std::uint32_t rgba, const char* layer, const Unit& u,
                            std::vector<DrawPrimitive>* out) {
  DrawPrimitive& p = out->emplace_back();
  p.kind = kind;
  p.style = style;
  p.rgba = rgba;
  p.layer = layer;
  p.unit_id = u.id;
  return p;
}

// A unit's base(s), its facing arrow and its id label, in its side's colour.
void AppendUnitOutline(const Unit& u, std::uint32_t colour, std::vector<DrawPrimitive>* out) {
  const geom::Base fp = Footprint(u);
  const geom::Vec2 forward = geom::Forward(fp);
  auto add_base = [&](const geom::Base& b) {
    const auto c = geom::Corners(b);
    AddPrimitive(DrawKind::kPolygon, DrawStyle::kBase, colour, "bases", u, out).points_mm.assign(c.begin(), c.end());
  };
  // A single base is its footprint (the usual case): not worked out twice.
  if (u.bases.size() == 1) add_base(fp);
  else
    for (const geom::Base& b : BasesOf(u)) add_base(b);
  const geom::Vec2 leader = fp.centre_mm + (fp.depth_mm / 2.0) * forward;  // geom::LeaderPoint(fp)
  AddPrimitive(DrawKind::kArrow, DrawStyle::kFacing, colour, "bases", u, out).points_mm = {fp.centre_mm,
                                                                                       leader + forward * (fp.depth_mm * 0.5)};
  // The id behind the base, not over its marker (the camera must keep seeing it), in a light tint
  // of the side's colour: dark side colours on the label's dark backing could not be read.
  auto lighten = [](std::uint32_t c, int shift) {
    const int v = static_cast<int>((c >> shift) & 0xFF);
    return static_cast<std::uint32_t>(v + (255 - v) * 3 / 5) << shift;
  };
  const std::uint32_t light = lighten(colour, 24) | lighten(colour, 16) | lighten(colour, 8) | 0xFFu;
  DrawPrimitive& label = AddPrimitive(DrawKind::kLabel, DrawStyle::kBase, light, "labels", u, out);
  label.points_mm = {fp.centre_mm - forward * (fp.depth_mm * 0.5 + 7.0)};
  label.text = u.id;
}

}  // namespace

void AppendSceneOutlines(const Scene& scene, std::vector<DrawPrimitive>* out) {
  // At least a base, an arrow and a label per unit, and what a ruleset adds: one growth, not a dozen
  // copies of every primitive so far.
  out->reserve(out->size() + scene.terrain.size() + 4 * scene.units.size());
  for (const Terrain& t : scene.terrain) {
    DrawPrimitive p;
    p.kind = DrawKind::kPolygon;
    p.style = DrawStyle::kTerrain;
    p.points_mm = t.polygon;
    p.layer = "terrain";
    p.text = t.id;
    out->push_back(std::move(p));
  }
  // The routed units, from the declarations (in id order): most units declare nothing, and a look-up
  // of every unit's declarations by id cost more than its outline's numbers.
  std::vector<std::string_view> routed;
  for (const auto& [id, keys] : scene.declarations.units)
    if (Declarations::Routed(&keys)) routed.push_back(id);
  std::map<std::string, std::uint32_t, std::less<>> colours;  // one look-up per side, not per unit
  for (const Unit& u : scene.units) {
    if (!u.pose) continue;
    auto it = colours.find(u.side);
    if (it == colours.end()) it = colours.emplace(u.side, SideColour(scene, u.side)).first;
    AppendUnitOutline(u, it->second, out);
    // States every ruleset reads from the scene: a routed unit, limbered guns.
    if (!routed.empty() && std::binary_search(routed.begin(), routed.end(), std::string_view(u.id)))
      AppendStateGlyph(u, Glyph::kRouted, out);
    if (u.type == UnitType::kArtillery && u.formation == "limbered") AppendStateGlyph(u, Glyph::kLimbered, out);
  }
}

void AppendZoneOfControl(const Scene& scene, const Unit& unit, std::vector<DrawPrimitive>* out) {
  if (!unit.pose) return;
  DrawPrimitive p;
  p.kind = DrawKind::kPolygon;
  p.style = DrawStyle::kZoneOfControl;
  p.points_mm = geom::Corridor(Footprint(unit), geom::Edge::kFront, scene.BwFor(unit));
  p.filled = true;
  p.rgba = (SideColour(scene, unit.side) & 0xFFFFFF00u) | 0x40u;  // cheap: the sides' colours are cached
  p.layer = "zoc";
  p.unit_id = unit.id;
  out->push_back(std::move(p));
}

}  // namespace vedette
