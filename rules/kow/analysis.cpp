#include "rules/kow/analysis.h"

#include <algorithm>
#include <cmath>
#include <deque>

#include "rules/geometry/coverage.h"
#include "rules/geometry/distance.h"
#include "rules/geometry/sweep.h"
#include "rules/input_error.h"

namespace vedette::kow {

using geom::Arc;
using geom::ArcModel;

Profile ProfileOf(const Unit& u, const KowConfig& c) {
  Profile p;
  auto stat = [&](const std::string& k) -> std::optional<double> {
    auto it = u.stats.find(k);
    return it == u.stats.end() ? std::nullopt : std::optional<double>(it->second);
  };
  p.speed_in = stat("speed_in");
  if (auto w = stat("nerve_waver")) p.nerve.waver = static_cast<int>(std::lround(*w));
  if (auto r = stat("nerve_rout")) p.nerve.rout = static_cast<int>(std::lround(*r));
  if (auto h = stat("height")) {
    p.height = *h;
  } else if (auto it = c.heights.find(std::string(ToString(u.type))); it != c.heights.end()) {
    p.height = it->second;
  }
  p.individual = u.type == UnitType::kGeneral || u.HasTag("individual");
  p.war_engine = c.cannot_charge.count(std::string(ToString(u.type))) > 0;
  auto whole = [&](const std::string& k) -> std::optional<int> {
    auto v = stat(k);
    return v ? std::optional<int>(static_cast<int>(std::lround(*v))) : std::nullopt;
  };
  p.attacks = whole("attacks");
  p.melee = whole("melee");
  p.ranged = whole("ranged");
  p.defence = whole("defence");
  for (const auto& [k, v] : u.stats) {  // std::map: sorted by key
    if (k == "range_in") p.weapons.push_back({"range", v});
    else if (k.size() > 9 && k.rfind("range_", 0) == 0 && k.compare(k.size() - 3, 3, "_in") == 0)
      p.weapons.push_back({k.substr(6, k.size() - 9), v});
  }
  // Seed 74: "War Engines also have a set range of 48" ... unless otherwise stated".
  if (p.weapons.empty() && c.cannot_charge.count(std::string(ToString(u.type)))) p.weapons.push_back({"range", c.war_engine_range_in});
  return p;
}

std::string OccluderName(const Scene& scene, int tag) {
  if (tag >= 0) return scene.units.at(tag).id;
  return scene.terrain.at(-1 - tag).id;
}

namespace {

KowTable::TerrainSight SightOfTerrain(const KowConfig& c, const Terrain& t) {
  KowTable::TerrainSight ts;
  ts.blocks = c.blocking_terrain.count(t.type) > 0;
  if (auto h = c.terrain_heights.find(t.type); !ts.blocks && h != c.terrain_heights.end()) ts.height = h->second;
  return ts;
}

}  // namespace

KowTable::KowTable(const Scene& s, const KowConfig& c) : KowTable(s, c, nullptr, {}) {}

KowTable::KowTable(const Scene& s, const KowConfig& c, KowTable* last, const std::vector<char>& same) : scene(&s), grid(s) {
  const size_t n = s.units.size();
  auto reused = [&](size_t i) { return last && i < same.size() && same[i]; };
  profile.resize(n);
  outlines.resize(n);
  first_outline.assign(n + 1, 0);
  for (size_t i = 0; i < n; ++i) {
    first_outline[i] = outline_convex.size();
    if (!grid.Placed(static_cast<int>(i))) continue;
    if (reused(i)) {
      profile[i] = std::move(last->profile[i]);
      outlines[i] = std::move(last->outlines[i]);
      const size_t from = last->first_outline[i], to = last->first_outline[i + 1];
      outline_convex.insert(outline_convex.end(), last->outline_convex.begin() + from, last->outline_convex.begin() + to);
      outline_circle.insert(outline_circle.end(), last->outline_circle.begin() + from, last->outline_circle.begin() + to);
      continue;
    }
    profile[i] = ProfileOf(s.units[i], c);
    for (const geom::Base& b : BasesOf(s.units[i])) {
      outlines[i].push_back(geom::PolygonCcw(b));
      outline_convex.push_back(geom::ConvexForSight(b, outlines[i].back()));
      outline_circle.push_back(BoundingCircleOf(outlines[i].back()));
    }
  }
  first_outline[n] = outline_convex.size();
  for (const Terrain& t : s.terrain) {
    terrain_convex.push_back(geom::ConvexForSight(t.polygon));
    terrain_circle.push_back(BoundingCircleOf(t.polygon));
    terrain_sight.push_back(SightOfTerrain(c, t));
  }
  for (const Terrain& t : s.terrain)
    if (c.difficult_terrain.count(t.type)) difficult.push_back(t.polygon);
  in_terrain.resize(n);
  difficult_share.assign(n, 0.0);
  // Each piece's bounding box: a unit whose bounding circle misses it is neither in the piece nor in
  // difficult terrain because of it (most units on most tables).
  std::vector<geom::Box> box;
  for (const Terrain& t : s.terrain) box.push_back(geom::BoxOf(t.polygon));
  for (size_t i = 0; i < n; ++i) {
    if (reused(i) && grid.Placed(static_cast<int>(i))) {
      in_terrain[i] = std::move(last->in_terrain[i]);
      difficult_share[i] = last->difficult_share[i];
      continue;
    }
    in_terrain[i].assign(s.terrain.size(), 0);
    if (!grid.Placed(static_cast<int>(i))) continue;
    const geom::Base& b = grid.FootprintOf(static_cast<int>(i));
    const double r = grid.Radius(static_cast<int>(i)) + 1.0;
    const geom::Vec2& c0 = b.centre_mm;
    bool near_difficult = false;
    geom::Polygon poly;
    const geom::Box circle{c0 - geom::Vec2(r, r), c0 + geom::Vec2(r, r)};
    for (size_t k = 0; k < s.terrain.size(); ++k) {
      if (circle.Apart(box[k])) continue;
      if (poly.empty()) poly = geom::PolygonCcw(b);
      in_terrain[i][k] = geom::PolygonToPolygon(s.terrain[k].polygon, poly).overlap;
      near_difficult = near_difficult || c.difficult_terrain.count(s.terrain[k].type) > 0;
    }
    const double area = b.width_mm * b.depth_mm;
    difficult_share[i] = area > 0 && near_difficult ? geom::AreaInsideAny(b, difficult) / area : 0.0;
  }
}

int KowTable::IndexOf(const Unit& u) const {
  const std::ptrdiff_t i = &u - scene->units.data();
  return i >= 0 && i < static_cast<std::ptrdiff_t>(scene->units.size()) ? static_cast<int>(i) : -1;
}

namespace {

// A unit's footprint, profile and outlines: from the table when it has them, else worked out.
struct UnitView {
  geom::Base base;
  const Profile* table_profile = nullptr;  // the table's, when it knows the unit
  Profile own;
  int index = -1;  // into scene.units, when the table knows the unit
  const Profile& profile() const { return table_profile ? *table_profile : own; }
};
UnitView View(const Unit& u, const KowConfig& c, const KowTable* t) {
  UnitView v;
  if (t && (v.index = t->IndexOf(u)) >= 0 && t->grid.Placed(v.index)) {
    v.base = t->grid.FootprintOf(v.index);
    v.table_profile = &t->profile[v.index];
    return v;
  }
  v.index = -1;
  v.base = Footprint(u);
  v.own = ProfileOf(u, c);
  return v;
}

}  // namespace

geom::Polygon SightFan(const geom::Vec2& eye, const geom::Base& target) {
  const std::array<geom::Vec2, 4> c = geom::Corners(target);
  return geom::ConvexHull({eye, c[0], c[1], c[2], c[3]});
}

ReachRegion::ReachRegion(const geom::Polygon& p) : lo_(p.empty() ? geom::Vec2(0, 0) : p[0]), hi_(lo_) {
  normal_.reserve(p.size());
  offset_.reserve(p.size());
  for (size_t i = 0; i < p.size(); ++i) {
    lo_ = lo_.cwiseMin(p[i]), hi_ = hi_.cwiseMax(p[i]);
    const geom::Vec2 e = p[(i + 1) % p.size()] - p[i];
    const double n = e.norm();
    if (n < 1e-12) continue;
    normal_.push_back(geom::Vec2(e.y(), -e.x()) / n);  // outward for a counter-clockwise polygon
    offset_.push_back(normal_.back().dot(p[i]));
  }
}

bool ReachRegion::MayReach(const geom::Base& b) const {
  const double r = std::sqrt(b.width_mm * b.width_mm + b.depth_mm * b.depth_mm) / 2.0 + 1.0;
  const geom::Vec2& c = b.centre_mm;
  if (c.x() + r < lo_.x() || c.x() - r > hi_.x() || c.y() + r < lo_.y() || c.y() - r > hi_.y()) return false;
  for (size_t i = 0; i < normal_.size(); ++i)
    if (normal_[i].dot(c) - offset_[i] > r) return false;
  return true;
}

namespace {

// Where every line of sight from the eye to the part of the target seen runs: inside the box around
// them (on a crowded table most units are wholly outside it) and inside the fan from the eye to the
// target. Nothing outside the fan is read, so a unit moving outside it leaves a kept sight line valid
// (kow_ruleset.cpp, Changes).
struct SightBounds {
  geom::Vec2 lo, hi;  // the box, table mm
  std::optional<ReachRegion> own_fan;  // the fan's region, when the caller did not hand it over
  const ReachRegion* fan = nullptr;
  bool CannotHide(const geom::Base& b) const {
    const double r = std::sqrt(b.width_mm * b.width_mm + b.depth_mm * b.depth_mm) / 2.0 + 1.0;
    return b.centre_mm.x() + r < lo.x() || b.centre_mm.x() - r > hi.x() || b.centre_mm.y() + r < lo.y() ||
           b.centre_mm.y() - r > hi.y() || !fan->MayReach(b);
  }
};

// `fan`: ReachRegion(SightFan(eye, target)) when the caller has it, else null (worked out here).
void BoundsOf(const geom::Vec2& eye, const geom::Polygon& seen, const geom::Base& target, const ReachRegion* fan, SightBounds* b) {
  b->lo = b->hi = eye;
  for (const geom::Vec2& p : seen) b->lo = b->lo.cwiseMin(p), b->hi = b->hi.cwiseMax(p);
  if (!fan) fan = &b->own_fan.emplace(SightFan(eye, target));
  b->fan = fan;
}

// The occluders of one sight line, by reference: the table's outlines, the scene's terrain, or
// (without a table) the outlines worked out here, in `own` (a deque: adding to it moves none, so the
// references hold). Units in scene order, then terrain, as the trace's tags expect.
struct SightOccluders {
  const Scene& scene;
  const KowConfig& c;
  const Unit& viewer;
  const Unit& target;
  double viewer_height = 0, target_height = 0;  // mm
  SightBounds bounds;
  std::vector<geom::OccluderRef> occ;
  std::deque<geom::Polygon> own;

  // As high as both ends blocks; lower obscures.
  geom::SightEffect EffectOf(double h) const {
    return h >= viewer_height && h >= target_height ? geom::SightEffect::kBlocks : geom::SightEffect::kObscures;
  }
  // `convex`: ConvexForSight(poly), when the table has it.
  void Add(const geom::Polygon& poly, geom::SightEffect e, int tag, const char* convex = nullptr) {
    occ.push_back({&poly, e, tag, convex ? *convex != 0 : geom::ConvexForSight(poly)});
  }
  // `convex`: the table's ConvexForSight of `outlines`, one a polygon, when they are the table's.
  void Consider(size_t i, const geom::Base& ob, const Profile& p, const std::vector<geom::Polygon>* outlines,
                const char* convex = nullptr) {
    if (bounds.CannotHide(ob)) return;  // first: it turns most candidates away, with no string compared
    const Unit& o = scene.units[i];
    if (&o == &viewer || &o == &target || o.id == viewer.id || o.id == target.id) return;
    if (p.individual) return;  // seed 77: "individual units never block line of sight"
    if (outlines) {
      for (size_t k = 0; k < outlines->size(); ++k)
        Add((*outlines)[k], EffectOf(p.height), static_cast<int>(i), convex ? convex + k : nullptr);
      return;
    }
    for (const geom::Base& b : BasesOf(o)) {
      own.push_back(geom::PolygonCcw(b));
      Add(own.back(), EffectOf(p.height), static_cast<int>(i));
    }
  }
  void AddUnits(const KowTable* table, const UnitView& vv, const UnitView& tv);
  void AddTerrain(const KowTable* table, const UnitView& vv, const UnitView& tv);
};

void SightOccluders::AddUnits(const KowTable* table, const UnitView& vv, const UnitView& tv) {
  if (table && vv.index >= 0 && tv.index >= 0) {
    // The grid's candidates in the cells the box and the fan may reach. In no particular order: a
    // trace's answer does not depend on its occluders' order (its tags come out sorted). Those whose
    // bounding circle (1 mm to spare) misses the circle round the box are left out first: every line
    // runs in the box, and the occluders (so the trace's cuts, to the bit) stay those of the grid's
    // circle query this replaced.
    const UnitGrid& grid = table->grid;
    const geom::Vec2 mid = (bounds.lo + bounds.hi) / 2.0;
    const double disc = (bounds.hi - bounds.lo).norm() / 2.0;
    thread_local std::vector<int> candidates;
    candidates.clear();
    grid.CollectInRegion(bounds.lo, bounds.hi, bounds.fan->normals(), bounds.fan->offsets(), 1.0, &candidates);
    for (int i : candidates) {
      const double limit = 1.0 + 1e-6 + grid.Radius(i) + disc;
      if ((grid.FootprintOf(i).centre_mm - mid).squaredNorm() > limit * limit) continue;
      Consider(i, grid.FootprintOf(i), table->profile[i], &table->outlines[i], table->outline_convex.data() + table->first_outline[i]);
    }
    return;
  }
  for (size_t i = 0; i < scene.units.size(); ++i) {
    const Unit& o = scene.units[i];
    if (!o.pose || &o == &viewer || &o == &target) continue;
    const geom::Base ob = Footprint(o);
    if (bounds.CannotHide(ob)) continue;
    Consider(i, ob, ProfileOf(o, c), nullptr);
  }
}

void SightOccluders::AddTerrain(const KowTable* table, const UnitView& vv, const UnitView& tv) {
  const bool own_table = table && table->scene == &scene;
  for (size_t i = 0; i < scene.terrain.size(); ++i) {
    const Terrain& t = scene.terrain[i];
    const int tag = -1 - static_cast<int>(i);
    const char* convex = own_table ? &table->terrain_convex[i] : nullptr;
    const KowTable::TerrainSight ts = own_table ? table->terrain_sight[i] : SightOfTerrain(c, t);
    if (ts.blocks) {
      Add(t.polygon, geom::SightEffect::kBlocks, tag, convex);
      continue;
    }
    if (!ts.height) continue;
    // Units standing in a piece (woods, on a hill) see out of it and are seen in it.
    const bool holds_unit = table && vv.index >= 0 && tv.index >= 0
                                ? table->in_terrain[vv.index][i] || table->in_terrain[tv.index][i]
                                : geom::PolygonToPolygon(t.polygon, geom::PolygonCcw(vv.base)).overlap ||
                                      geom::PolygonToPolygon(t.polygon, geom::PolygonCcw(tv.base)).overlap;
    if (!holds_unit) Add(t.polygon, EffectOf(*ts.height), tag, convex);
  }
}

}  // namespace

geom::SightResult KowSight(const Scene& scene, const KowConfig& c, const Unit& viewer, const Unit& target, const KowTable* table,
                           geom::SightNeed need, const ReachRegion* fan) {
  const UnitView vv = View(viewer, c, table), tv = View(target, c, table);
  const geom::Base& vb = vv.base;
  const geom::Base& tb = tv.base;
  const double extent = 4.0 * ((tb.centre_mm - vb.centre_mm).norm() + tb.width_mm + tb.depth_mm + vb.width_mm + vb.depth_mm);
  const geom::Polygon seen = geom::ClipConvex(geom::PolygonCcw(tb), geom::ArcRegion(vb, Arc::kFront, ArcModel::kKow, extent)[0]);
  if (seen.size() < 3 || geom::Area(seen) < 1e-6) return {};
  const geom::Vec2 eye = geom::LeaderPoint(vb);
  SightOccluders o{scene, c, viewer, target, vv.profile().height, tv.profile().height, {}, {}, {}};
  BoundsOf(eye, seen, tb, fan, &o.bounds);
  o.occ.reserve(32);  // what a crowded table's fan holds, in one allocation rather than six
  o.AddUnits(table, vv, tv);
  o.AddTerrain(table, vv, tv);
  geom::SightOptions options;
  options.need = need;
  return geom::TraceSightByRef(eye, seen, o.occ, options);
}

namespace {

geom::Edge EdgeOf(Arc a) {
  switch (a) {
    case Arc::kFront: return geom::Edge::kFront;
    case Arc::kLeftFlank: return geom::Edge::kLeft;
    case Arc::kRightFlank: return geom::Edge::kRight;
    case Arc::kRear: return geom::Edge::kRear;
  }
  return geom::Edge::kFront;
}

// Seed 15: a charge goes around other units (friends too when charging, seed 10) and blocking terrain.
struct Obstacles {
  std::vector<geom::Polygon> shapes;
  std::vector<std::string> names;  // unit or terrain id, same order
};
// Only units within `reach_mm` of the charger's centre (bounding circles) can be met on the way: the
// caller bounds where any route it searches can take the charger.
Obstacles ChargeObstacles(const Scene& scene, const KowConfig& c, const Unit& charger, const Unit& target, double reach_mm,
                          const KowTable* table = nullptr) {
  Obstacles out;
  const int ci = table ? table->IndexOf(charger) : -1;
  const geom::Vec2 centre = ci >= 0 ? table->grid.FootprintOf(ci).centre_mm : Footprint(charger).centre_mm;
  auto add = [&](const Unit& o, const geom::Base& ob, const std::vector<geom::Polygon>* outlines) {
    if (&o == &charger || &o == &target || o.id == charger.id || o.id == target.id) return;
    if ((ob.centre_mm - centre).norm() - std::hypot(ob.width_mm, ob.depth_mm) / 2.0 > reach_mm) return;
    if (outlines) {
      for (const geom::Polygon& p : *outlines) {
        out.shapes.push_back(p);
        out.names.push_back(o.id);
      }
      return;
    }
    for (const geom::Base& b : BasesOf(o)) {
      out.shapes.push_back(geom::PolygonCcw(b));
      out.names.push_back(o.id);
    }
  };
  if (ci >= 0) {
    for (int i : table->grid.Near(centre, 0.0, reach_mm + 1e-6)) add(scene.units[i], table->grid.FootprintOf(i), &table->outlines[i]);
  } else {
    for (const Unit& o : scene.units)
      if (o.pose) add(o, Footprint(o), nullptr);
  }
  for (const Terrain& t : scene.terrain) {
    if (!c.blocking_terrain.count(t.type)) continue;
    out.shapes.push_back(t.polygon);
    out.names.push_back(t.id);
  }
  return out;
}

// ChargeObstacles' shapes by reference, for a charger the table knows (IndexOf >= 0): the same shapes in
// the same order, none copied (a search reads a few of them; copying them all cost a third of it), with
// the table's bounding circles of them.
struct ObstacleRefs {
  std::vector<const geom::Polygon*> shapes;
  std::vector<ShapeCircle> circles;  // BoundingCircleOf each shape
};
ObstacleRefs ChargeObstacleRefs(const Scene& scene, const KowConfig& c, const Unit& charger, const Unit& target, double reach_mm,
                                const KowTable& table) {
  ObstacleRefs out;
  const geom::Vec2 centre = table.grid.FootprintOf(table.IndexOf(charger)).centre_mm;
  const std::vector<int> near = table.grid.Near(centre, 0.0, reach_mm + 1e-6);
  out.shapes.reserve(near.size() + scene.terrain.size());
  out.circles.reserve(near.size() + scene.terrain.size());
  for (int i : near) {
    const Unit& o = scene.units[i];
    const geom::Base ob = table.grid.FootprintOf(i);
    if (&o == &charger || &o == &target || o.id == charger.id || o.id == target.id) continue;
    if ((ob.centre_mm - centre).norm() - std::hypot(ob.width_mm, ob.depth_mm) / 2.0 > reach_mm) continue;
    for (size_t k = 0; k < table.outlines[i].size(); ++k) {
      out.shapes.push_back(&table.outlines[i][k]);
      out.circles.push_back(table.outline_circle[table.first_outline[i] + k]);
    }
  }
  for (size_t t = 0; t < scene.terrain.size(); ++t)
    if (c.blocking_terrain.count(scene.terrain[t].type)) {
      out.shapes.push_back(&scene.terrain[t].polygon);
      out.circles.push_back(table.terrain_circle[t]);
    }
  return out;
}

std::string Words(std::string_view s) {
  std::string out(s);
  std::replace(out.begin(), out.end(), '_', ' ');
  return out;
}

void SearchRoute(const Scene& scene, const KowConfig& c, const Unit& charger, const Unit& target, const geom::Base& cb,
                 const geom::Base& tb, const ChargeOptions& options, const KowTable* table, ChargeCheck* out);

std::string Inches(double mm, const KowConfig& c) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", mm / c.mm_per_unit);
  return std::string(buf) + " " + c.unit_name;
}

}  // namespace

ChargeCheck CheckCharge(const Scene& scene, const KowConfig& c, const Unit& charger, const Unit& target,
                        const ChargeOptions& options, const KowTable* table, const ChargeCheck* same_route,
                        const geom::SightResult* sight) {
  ChargeCheck r;
  const UnitView cv = View(charger, c, table);
  const geom::Base cb = cv.base, tb = View(target, c, table).base;
  const Profile& p = cv.profile();
  // Seed 13: "the target unit is in the unit's front arc": at least part of its base.
  r.front_arc_share = geom::ArcShareOf(cb, tb, Arc::kFront, ArcModel::kKow);
  r.visible = sight ? sight->visible : KowSight(scene, c, charger, target, table).visible;
  const geom::ClosestPoints lc = geom::LeaderToBase(cb, tb);
  r.distance_mm = lc.distance_mm;
  r.closest_point = lc.on_b;
  if (p.speed_in) r.range_mm = c.charge_range_factor * *p.speed_in * c.mm_per_unit;
  // Seed 19: the facing is "the appropriate arc" of the target holding the charger's leader point.
  const geom::Vec2 lp = geom::LeaderPoint(cb);
  r.facing = geom::ArcOfPoint(tb, lp, ArcModel::kKow);
  const geom::Vec2 q = geom::ToBaseFrame(tb, lp);
  const double w = tb.width_mm / 2, d = tb.depth_mm / 2, n = std::hypot(w, d);
  r.leader_on_arc_line = std::min(std::abs(q.x() * d - q.y() * w), std::abs(q.x() * d + q.y() * w)) / n <= c.line_mm;
  // A leader point on the line (within the tolerance of hand placement) goes where the kow arc model puts
  // points on a line, the front or rear arc, whichever side of the lines it is measured on.
  if (r.leader_on_arc_line) r.facing = q.y() >= 0 ? Arc::kFront : Arc::kRear;

  if (p.war_engine) r.reasons.push_back(std::string(ToString(charger.type)) + " cannot charge (war engines, seed 74)");
  if (!p.speed_in) r.reasons.push_back("no speed_in in the unit's stats");
  if (r.front_arc_share <= 1e-9) r.reasons.push_back("not in the front arc");
  if (!r.visible) r.reasons.push_back("cannot see the target");
  if (p.speed_in && r.distance_mm > r.range_mm + 1e-9)
    r.reasons.push_back("leader point to base " + Inches(r.distance_mm, c) + " > twice the speed " + Inches(r.range_mm, c));
  if (!r.reasons.empty()) return r;
  if (same_route && same_route->route) {
    r.route = same_route->route;
    r.hindered = same_route->hindered;
    r.hindered_by = same_route->hindered_by;
  } else {
    SearchRoute(scene, c, charger, target, cb, tb, options, table, &r);
  }
  if (!r.route->found)
    r.reasons.push_back(r.route->corner_only ? "only corner to corner contact (seed 17)"
                                             : "no room to reach base contact with its " + Words(geom::ToString(r.facing)) +
                                                   " (seed 13, 15)");
  r.chargeable = r.reasons.empty();
  return r;
}

namespace {

// CheckCharge's route search (seed 13, 15, 17) and, for a route found, Hindered (seed 53).
void SearchRoute(const Scene& scene, const KowConfig& c, const Unit& charger, const Unit& target, const geom::Base& cb,
                 const geom::Base& tb, const ChargeOptions& options, const KowTable* table, ChargeCheck* out) {
  ChargeCheck& r = *out;
  ChargeOptions o = options;
  o.max_pivot_deg = c.max_pivot_deg;
  // Every position of the charger on a searched route has its centre within the range (first leg) or
  // between the pivot and the target (second leg): within max(range, centre distance + target radius +
  // charger radius) of where it stands; its base reaches a charger radius further.
  const double cr = std::hypot(cb.width_mm, cb.depth_mm) / 2.0, tr = std::hypot(tb.width_mm, tb.depth_mm) / 2.0;
  const double reach = std::max(r.range_mm, (tb.centre_mm - cb.centre_mm).norm() + tr + cr) + cr + 1.0;
  if (table && table->IndexOf(charger) >= 0) {
    const ObstacleRefs obstacles = ChargeObstacleRefs(scene, c, charger, target, reach, *table);
    r.route = FindChargeRouteByRef(cb, tb, EdgeOf(r.facing), obstacles.shapes, r.range_mm, o, &obstacles.circles);
  } else {
    r.route = FindChargeRoute(cb, tb, EdgeOf(r.facing), ChargeObstacles(scene, c, charger, target, reach, table).shapes, r.range_mm, o);
  }
  if (r.route->found) {
    // Seed 53: a unit that charged through difficult terrain is Hindered: any of the ground its route
    // covers (from where it stands, through the pivot, into contact) in a difficult terrain piece.
    const geom::Base moved = geom::MovedForward(cb, r.route->advance_mm);
    const geom::Base pivoted = geom::PivotedAboutCentre(moved, r.route->pivot_deg);
    std::vector<SweptGround> legs;  // the route's three legs, swept only if there is difficult terrain
    for (const Terrain& t : scene.terrain) {
      if (!c.difficult_terrain.count(t.type)) continue;
      if (legs.empty()) legs = {SweepOf(cb, moved), SweepOf(moved, pivoted), SweepOf(pivoted, r.route->at_contact)};
      const double area = std::max({SweptOverlapArea(legs[0], t.polygon), SweptOverlapArea(legs[1], t.polygon),
                                    SweptOverlapArea(legs[2], t.polygon)});
      if (area > o.clear_area_mm2) r.hindered_by.push_back(t.id);
    }
    r.hindered = !r.hindered_by.empty();
  }
}

}  // namespace

std::vector<std::string> ChargedBy(const Scene& scene, const Unit& u) {
  const Declared* d = scene.declarations.Find(u.id, "charged_by");
  if (!d) return {};
  std::vector<std::string> ids;
  if (d->value.is_string()) {
    ids.push_back(d->value.get<std::string>());
  } else if (d->value.is_array()) {
    for (const auto& v : d->value) {
      if (!v.is_string()) throw InputError(scene.source, d->line, "declarations for " + u.id + ": charged_by must be a unit id or a list of unit ids");
      ids.push_back(v.get<std::string>());
    }
  } else {
    throw InputError(scene.source, d->line, "declarations for " + u.id + ": charged_by must be a unit id or a list of unit ids");
  }
  for (const std::string& id : ids) {
    const Unit* x = scene.FindUnit(id);
    if (!x) throw InputError(scene.source, d->line, "declarations for " + u.id + ": charged_by: no unit '" + id + "' in the scene");
    if (x->side == u.side) throw InputError(scene.source, d->line, "declarations for " + u.id + ": charged_by: '" + id + "' is not an enemy");
  }
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  return ids;
}

CounterChargeCheck CheckCounterCharge(const Scene& scene, const KowConfig& c, const Unit& charger, const Unit& target,
                                      const ChargeOptions& options, const KowTable* table) {
  CounterChargeCheck r;
  const UnitView cv = View(charger, c, table);
  const geom::Base cb = cv.base, tb = View(target, c, table).base;
  const Profile& p = cv.profile();
  const geom::ClosestPoints lc = geom::LeaderToBase(cb, tb);
  r.distance_mm = lc.distance_mm;
  r.closest_point = lc.on_b;
  if (p.speed_in) r.range_mm = c.charge_range_factor * *p.speed_in * c.mm_per_unit;
  r.leader_arc = geom::ArcOfPoint(tb, geom::LeaderPoint(cb), ArcModel::kKow);
  if (c.cannot_charge.count(std::string(ToString(charger.type))))
    r.reasons.push_back(std::string(ToString(charger.type)) + " cannot charge (war engines, seed 74)");
  if (!p.speed_in) r.reasons.push_back("no speed_in in the unit's stats");
  if (p.speed_in && r.distance_mm > r.range_mm + 1e-9)
    r.reasons.push_back("leader point to base " + Inches(r.distance_mm, c) + " > twice the speed " + Inches(r.range_mm, c));
  if (!r.reasons.empty()) return r;
  // The pivot stays within the charger's circle; the move into contact (straight or an L) within twice
  // the way to the far side of the target.
  const double cr = std::hypot(cb.width_mm, cb.depth_mm) / 2.0, tr = std::hypot(tb.width_mm, tb.depth_mm) / 2.0;
  const double reach = 2.0 * ((tb.centre_mm - cb.centre_mm).norm() + tr + cr) + cr + 1.0;
  const Obstacles obstacles = ChargeObstacles(scene, c, charger, target, reach, table);
  r.route = FindCounterChargeRoute(cb, tb, obstacles.shapes, obstacles.names, options);
  if (!r.route->found) r.reasons.push_back(r.route->why_not);
  r.chargeable = r.reasons.empty();
  return r;
}

ShotCheck CheckShot(const Scene& scene, const KowConfig& c, const Unit& shooter, const Unit& target, double range_in,
                    const KowTable* table, const geom::SightResult* sight) {
  ShotCheck r;
  const UnitView tv = View(target, c, table);
  const geom::Base sb = View(shooter, c, table).base, tb = tv.base;
  r.in_arc = geom::ArcShareOf(sb, tb, Arc::kFront, ArcModel::kKow) > 1e-9;
  const geom::SightResult s = sight ? *sight : KowSight(scene, c, shooter, target, table);
  r.visible = s.visible;
  r.distance_mm = geom::BaseToBase(sb, tb).distance_mm;
  r.in_range = r.distance_mm <= range_in * c.mm_per_unit + 1e-9;
  std::vector<geom::Polygon> own;
  if (!table)
    for (const Terrain& t : scene.terrain)
      if (c.difficult_terrain.count(t.type)) own.push_back(t.polygon);
  const std::vector<geom::Polygon>& difficult = table ? table->difficult : own;
  const double area = tb.width_mm * tb.depth_mm;
  r.difficult_share = tv.index >= 0 ? table->difficult_share[tv.index] : area > 0 ? geom::AreaInsideAny(tb, difficult) / area : 0.0;
  r.hidden_share = s.blocked_share + s.obscured_share;
  if (r.difficult_share >= c.cover_difficult_share - 1e-9)
    r.cover_reasons.push_back("at least half the base in difficult terrain");
  if (s.visible && r.hidden_share >= c.cover_hidden_share - 1e-9)
    r.cover_reasons.push_back("line of sight to at least half the unit blocked or over lower units/terrain");
  r.cover = !r.cover_reasons.empty();
  for (int tag : s.obscuring_tags) r.obscured_by.push_back(OccluderName(scene, tag));
  return r;
}

std::vector<std::string> EngagedWith(const Scene& scene, const KowConfig& c, const Unit& u) {
  std::vector<std::string> out;
  const geom::Base ub = Footprint(u);
  for (const Unit& o : scene.units) {
    if (&o == &u || !o.pose || o.side == u.side) continue;
    if (geom::BaseToBase(ub, Footprint(o)).distance_mm <= c.contact_mm) out.push_back(o.id);
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace vedette::kow
