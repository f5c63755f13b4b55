#include "rules/overlaps.h"

#include <cmath>
#include <cstdio>

#include "rules/geometry/polygon.h"
#include "rules/ruleset.h"
#include "rules/unit_grid.h"

namespace vedette {

namespace {

double Round1(double v) { return std::round(v * 10.0) / 10.0; }

}  // namespace

geom::Overlap UnitsOverlap(const Unit& a, const Unit& b) {
  geom::Overlap best;
  for (const geom::Base& ba : BasesOf(a))
    for (const geom::Base& bb : BasesOf(b)) {
      const geom::Overlap o = geom::BaseOverlap(ba, bb);
      if (o.overlapping && (!best.overlapping || o.depth_mm > best.depth_mm)) best = o;
    }
  return best;
}

std::vector<UnitOverlap> FindOverlaps(const Scene& scene, const UnitGrid& grid, double tolerance_mm) {
  std::vector<UnitOverlap> out;
  for (int i = 0; i < static_cast<int>(scene.units.size()); ++i) {
    if (!grid.Placed(i)) continue;
    for (int j : grid.Near(i, 0.0)) {
      if (j <= i) continue;
      const geom::Overlap o = UnitsOverlap(scene.units[i], scene.units[j]);
      if (o.overlapping && o.depth_mm > tolerance_mm) out.push_back({scene.units[i].id, scene.units[j].id, o});
    }
  }
  return out;
}

std::vector<UnitOverlap> FindOverlaps(const Scene& scene, double tolerance_mm) {
  return FindOverlaps(scene, UnitGrid(scene), tolerance_mm);
}

std::vector<UnitOverlap> OverlapsAt(const Scene& scene, const Unit& unit, const Pose& pose, double tolerance_mm) {
  std::vector<UnitOverlap> out;
  Unit moved = unit;
  moved.pose = pose;
  const geom::Base fp = Footprint(moved);
  const double radius = std::hypot(fp.width_mm, fp.depth_mm) / 2.0;
  for (const Unit& o : scene.units) {
    if (&o == &unit || o.id == unit.id || !o.pose) continue;
    const geom::Base ofp = Footprint(o);
    if ((ofp.centre_mm - fp.centre_mm).norm() > radius + std::hypot(ofp.width_mm, ofp.depth_mm) / 2.0) continue;
    const geom::Overlap ov = UnitsOverlap(moved, o);
    if (ov.overlapping && ov.depth_mm > tolerance_mm) out.push_back({unit.id, o.id, ov});
  }
  return out;
}

std::string Describe(const UnitOverlap& o) {
  char buf[160];
  std::snprintf(buf, sizeof buf, "%s overlaps %s by %.1f x %.1f mm (%.0f mm^2)", o.a.c_str(), o.b.c_str(),
                o.overlap.depth_mm, o.overlap.width_mm, o.overlap.area_mm2);
  return buf;
}

nlohmann::json ToJson(const UnitOverlap& o) {
  return {{"units", {o.a, o.b}},
          {"depth_mm", Round1(o.overlap.depth_mm)},
          {"width_mm", Round1(o.overlap.width_mm)},
          {"area_mm2", Round1(o.overlap.area_mm2)}};
}

}  // namespace vedette

namespace vedette {

PairRule OverlapRule(const Unit& a, const Unit& b, double tolerance_mm) {
  char buf[200];
  std::snprintf(buf, sizeof buf, "%s and %s clear of each other: bases may not overlap (more than %g mm deep is one on the other)",
                a.id.c_str(), b.id.c_str(), tolerance_mm);
  return {buf, "overlap_depth", tolerance_mm, UnitsOverlap(a, b).depth_mm};
}

void AppendOverlaps(const Scene& scene, double tolerance_mm, const AnalyzeOptions& options, Findings* f) {
  AppendOverlaps(scene, UnitGrid(scene), tolerance_mm, options, f);
}

void AppendOverlapDrawing(const Scene& scene, const UnitOverlap& o, std::vector<DrawPrimitive>* drawing) {
  const Unit* a = scene.FindUnit(o.a);
  const Unit* b = scene.FindUnit(o.b);
  if (!a || !b || !a->pose || !b->pose) return;
  geom::Vec2 sum(0, 0);
  double area = 0.0;
  for (const geom::Base& ba : BasesOf(*a))
    for (const geom::Base& bb : BasesOf(*b)) {
      const geom::Polygon shared = geom::ClipConvex(geom::PolygonCcw(ba), geom::PolygonCcw(bb));
      const double s = shared.size() >= 3 ? geom::Area(shared) : 0.0;
      if (s <= 1e-6) continue;
      DrawPrimitive p;
      p.kind = DrawKind::kPolygon;
      p.style = DrawStyle::kIllegal;
      p.points_mm = shared;
      p.filled = true;
      p.layer = "bases";  // where the bases are drawn: an overlap is wrong whatever else is shown
      p.unit_id = o.a;
      drawing->push_back(std::move(p));
      for (const geom::Vec2& v : shared) sum += v * (s / static_cast<double>(shared.size()));
      area += s;
    }
  if (area <= 0.0) return;
  DrawPrimitive label;
  label.kind = DrawKind::kLabel;
  label.style = DrawStyle::kIllegal;
  label.points_mm = {sum / area};
  label.layer = "bases";  // not a card line: said where the bases overlap
  label.unit_id = o.a;
  char buf[160];
  std::snprintf(buf, sizeof buf, "OVERLAP %s / %s: %.1f mm deep", o.a.c_str(), o.b.c_str(), o.overlap.depth_mm);
  label.text = buf;
  drawing->push_back(std::move(label));
}

void AppendOverlaps(const Scene& scene, const UnitGrid& grid, double tolerance_mm, const AnalyzeOptions& options, Findings* f) {
  nlohmann::json list = nlohmann::json::array();
  for (const UnitOverlap& o : FindOverlaps(scene, grid, tolerance_mm)) {
    if (options.picture) AppendOverlapDrawing(scene, o, &f->drawing);
    if (options.report) list.push_back(ToJson(o));
    if (options.text) f->text += "  OVERLAP: " + Describe(o) + ": bases may not stand on one another\n";
  }
  if (options.report) f->report["overlaps"] = std::move(list);
}

}  // namespace vedette
