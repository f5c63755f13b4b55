#include "rules/scene_drawing.h"

#include <algorithm>
#include <cstdlib>

#include "rules/geometry/corridor.h"

namespace vedette {

std::uint32_t SideColour(const Scene& scene, const std::string& side) {
  if (const Side* s = scene.FindSide(side); s && s->colour.size() == 7)
    return (static_cast<std::uint32_t>(std::strtoul(s->colour.c_str() + 1, nullptr, 16)) << 8) | 0xFFu;
  static const std::uint32_t palette[] = {0x3060FFFF, 0xE03030FF, 0x30A040FF, 0xE0A020FF, 0xA040C0FF, 0x20B0B0FF};
  std::vector<std::string> order;
  for (const Side& s : scene.sides) order.push_back(s.name);
  for (const Unit& u : scene.units)
    if (std::find(order.begin(), order.end(), u.side) == order.end()) order.push_back(u.side);
  const auto it = std::find(order.begin(), order.end(), side);
  const size_t i = it == order.end() ? 0 : static_cast<size_t>(it - order.begin());
  return palette[i % 6];
}

void AppendSceneOutlines(const Scene& scene, std::vector<DrawPrimitive>* out) {
  for (const Terrain& t : scene.terrain) {
    DrawPrimitive p;
    p.kind = DrawKind::kPolygon;
    p.style = DrawStyle::kTerrain;
    p.points_mm = t.polygon;
    p.layer = "terrain";
    p.text = t.id;
    out->push_back(p);
  }
  for (const Unit& u : scene.units) {
    if (!u.pose) continue;
    const std::uint32_t colour = SideColour(scene, u.side);
    for (const geom::Base& b : BasesOf(u)) {
      DrawPrimitive p;
      p.kind = DrawKind::kPolygon;
      p.style = DrawStyle::kBase;
      const auto c = geom::Corners(b);
      p.points_mm.assign(c.begin(), c.end());
      p.rgba = colour;
      p.layer = "bases";
      p.unit_id = u.id;
      out->push_back(p);
    }
    const geom::Base fp = Footprint(u);
    DrawPrimitive arrow;
    arrow.kind = DrawKind::kArrow;
    arrow.style = DrawStyle::kFacing;
    arrow.points_mm = {fp.centre_mm, geom::LeaderPoint(fp) + geom::Forward(fp) * (fp.depth_mm * 0.5)};
    arrow.rgba = colour;
    arrow.layer = "bases";
    arrow.unit_id = u.id;
    out->push_back(arrow);
    // The id behind the base, not over its marker (the camera must keep seeing it), in a light tint
    // of the side's colour: dark side colours on the label's dark backing could not be read.
    DrawPrimitive label;
    label.kind = DrawKind::kLabel;
    label.style = DrawStyle::kBase;
    label.points_mm = {fp.centre_mm - geom::Forward(fp) * (fp.depth_mm * 0.5 + 7.0)};
    label.text = u.id;
    auto lighten = [](std::uint32_t c, int shift) {
      const int v = static_cast<int>((c >> shift) & 0xFF);
      return static_cast<std::uint32_t>(v + (255 - v) * 3 / 5) << shift;
    };
    label.rgba = lighten(colour, 24) | lighten(colour, 16) | lighten(colour, 8) | 0xFFu;
    label.layer = "labels";
    label.unit_id = u.id;
    out->push_back(label);
  }
}

void AppendZoneOfControl(const Scene& scene, const Unit& unit, std::vector<DrawPrimitive>* out) {
  if (!unit.pose) return;
  DrawPrimitive p;
  p.kind = DrawKind::kPolygon;
  p.style = DrawStyle::kZoneOfControl;
  p.points_mm = geom::Corridor(Footprint(unit), geom::Edge::kFront, scene.BwFor(unit));
  p.filled = true;
  p.rgba = (SideColour(scene, unit.side) & 0xFFFFFF00u) | 0x40u;
  p.layer = "zoc";
  p.unit_id = unit.id;
  out->push_back(p);
}

}  // namespace vedette
