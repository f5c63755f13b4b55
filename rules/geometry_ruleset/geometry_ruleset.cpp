// `--ruleset geometry`: no game's rules, only what the table shows: for each unit, the enemies whose
// zone of control it is in, the enemies within reach (6 BW by default, `--set arc_reach_bw=N`) in each
// of its arcs, its contacts, and every pair of bases that overlap. Neighbours come from a grid
// (rules/unit_grid.h), so a 300-unit table costs what its neighbourhoods cost.
#include <algorithm>
#include <cmath>
#include <sstream>

#include "rules/geometry/contact.h"
#include "rules/geometry/corridor.h"
#include "rules/geometry/distance.h"
#include "rules/input_error.h"
#include "rules/json_object.h"
#include "rules/overlaps.h"
#include "rules/ruleset.h"
#include "rules/scene_drawing.h"
#include "rules/unit_grid.h"

namespace vedette {

namespace {

// What one unit's line lists: ids point into the scene's units.
struct Neighbours {
  std::vector<const std::string*> zoc_of;   // enemies whose zone of control the unit is in
  std::vector<const std::string*> arcs[4];  // enemies within reach, by geom::Arc
  std::vector<const std::string*> contact_ids;
  nlohmann::json contacts = nlohmann::json::array();
};

// bw_mm: every unit's BW (scene.BwFor), by index into scene.units.
Neighbours NeighboursOf(const Scene& scene, const UnitGrid& grid, const std::vector<double>& bw_mm, int ui,
                        geom::ArcModel model, double reach_mm, double max_bw) {
  Neighbours nb;
  const Unit& u = scene.units[ui];
  const geom::Base& fu = grid.FootprintOf(ui);
  for (int oi : grid.Near(ui, std::max(reach_mm, max_bw))) {
    const Unit& o = scene.units[oi];
    const bool enemy = o.side != u.side;
    const double circles = grid.CircleGap(ui, oi);  // grid.Far(ui, oi, r) is circles > r + 1e-6
    double gap = -1.0;  // grid.Gap(ui, oi), worked out when first needed
    auto gap_mm = [&] { return gap >= 0.0 ? gap : (gap = grid.Gap(ui, oi)); };
    if (enemy) {
      const double bw = bw_mm[oi];
      if (circles <= bw + 1e-6 && geom::InsideCorridor(grid.FootprintOf(oi), geom::Edge::kFront, bw, fu))
        nb.zoc_of.push_back(&o.id);
      if (circles <= reach_mm + 1e-6 && gap_mm() <= reach_mm)
        nb.arcs[static_cast<int>(grid.ArcOf(ui, oi, model, gap))].push_back(&o.id);
    }
    if (circles > 2.0 + 1e-6 || gap_mm() > 2.0 + 1e-6) continue;
    const geom::Contact c = geom::FindContact(fu, grid.FootprintOf(oi));
    if (!c.in_contact) continue;
    nb.contact_ids.push_back(&o.id);
    nb.contacts.push_back(JsonObject("unit", o.id,
                                     "enemy", enemy,
                                     "edge", std::string(geom::ToString(c.edge_a)),
                                     "their_edge", std::string(geom::ToString(c.edge_b)),
                                     "corner_only", c.corner_only));
  }
  return nb;
}

std::string List(const std::vector<const std::string*>& ids) {
  std::string s;
  for (const std::string* id : ids) s += (s.empty() ? "" : ", ") + *id;
  return s.empty() ? std::string("-") : s;
}

nlohmann::json ToJson(const std::vector<const std::string*>& ids) {
  nlohmann::json a = nlohmann::json::array();
  for (const std::string* id : ids) a.push_back(*id);
  return a;
}

nlohmann::json ToJson(const Unit& u, Neighbours& nb) {
  nlohmann::json arcs = nlohmann::json::object();
  for (geom::Arc a : {geom::Arc::kFront, geom::Arc::kLeftFlank, geom::Arc::kRightFlank, geom::Arc::kRear})
    arcs[std::string(geom::ToString(a))] = ToJson(nb.arcs[static_cast<int>(a)]);
  nlohmann::json ju = nlohmann::json::object();  // moved in, not copied: a 300-unit table has many lists
  ju["id"] = u.id;
  ju["side"] = u.side;
  ju["zoc_of"] = ToJson(nb.zoc_of);
  ju["arcs"] = std::move(arcs);
  ju["contacts"] = std::move(nb.contacts);
  return ju;
}

class GeometryRuleset : public Ruleset {
 public:
  explicit GeometryRuleset(const RulesetOptions& options) : options_(options) {}

  RulesetInfo Info() const override { return {"geometry", "Table geometry (no game rules)", "BW", geom::ArcModel::kTotsk,
            {"arc_model", "arc_reach_bw"}}; }

  Findings Analyze(const Scene& scene, const AnalyzeOptions& options) const override {
    Findings f;
    f.ruleset = "geometry";
    // Outlines and a zone of control per unit, in one allocation: growing a vector of 1,500 primitives
    // moves every one of them (and touches fresh pages) each time.
    f.drawing.reserve(scene.terrain.size() + 5 * scene.units.size());
    AppendSceneOutlines(scene, &f.drawing);
    for (const Unit& u : scene.units)
      if (u.pose) AppendZoneOfControl(scene, u, &f.drawing);
    const UnitGrid grid(scene);
    // The neighbours are only words: the picture shows the zones, which say the same at a glance.
    if (options.text || options.report) DescribeUnits(scene, grid, options, &f);
    AppendOverlaps(scene, grid, kOverlapToleranceMm, options, &f);
    return f;
  }

 private:
  // Each unit's zone of control, arcs and contacts, as text and JSON.
  void DescribeUnits(const Scene& scene, const UnitGrid& grid, const AnalyzeOptions& options, Findings* f) const {
    const geom::ArcModel model = ArcModelFor(scene);
    const double reach_bw = ArcReachBw();
    nlohmann::json units = nlohmann::json::array();
    std::ostringstream text;
    text << "Geometry (arcs: " << geom::ToString(model) << ", enemies within " << reach_bw << " BW, 1 BW = " << scene.bw_mm
         << " mm)\n";
    double max_bw = scene.bw_mm;
    for (const Side& s : scene.sides) max_bw = std::max(max_bw, s.bw_mm);
    std::vector<double> bw_mm;  // each unit's BW, looked up once, not once per neighbour
    for (const Unit& u : scene.units) bw_mm.push_back(scene.BwFor(u));
    for (int ui = 0; ui < static_cast<int>(scene.units.size()); ++ui) {
      const Unit& u = scene.units[ui];
      if (!u.pose) continue;
      Neighbours nb = NeighboursOf(scene, grid, bw_mm, ui, model, reach_bw * bw_mm[ui], max_bw);
      text << "  " << u.id << std::string(u.id.size() < 6 ? 6 - u.id.size() : 1, ' ') << "ZOC of: " << List(nb.zoc_of)
           << "   flank L: " << List(nb.arcs[1]) << "  R: " << List(nb.arcs[2]) << "   rear: " << List(nb.arcs[3])
           << "   contact: " << List(nb.contact_ids) << "\n";
      if (options.report) units.push_back(ToJson(u, nb));
    }
    if (options.text) f->text = text.str();
    if (options.report) {
      f->report = nlohmann::json::object();
      f->report["ruleset"] = "geometry";
      f->report["arc_model"] = std::string(geom::ToString(model));
      f->report["arc_reach_bw"] = reach_bw;
      f->report["units"] = std::move(units);
    }
  }

  geom::ArcModel ArcModelFor(const Scene& scene) const {
    if (auto it = options_.settings.find("arc_model"); it != options_.settings.end())
      if (auto m = geom::ParseArcModel(it->second)) return *m;
    return scene.arc_model.value_or(geom::ArcModel::kTotsk);
  }
  // Enemies further than this (edge to edge, in the unit's BW) are not listed in its arcs: the
  // farthest any TotSK rule reaches between two units is 6 BW (artillery, QRS "Under fire").
  double ArcReachBw() const {
    auto it = options_.settings.find("arc_reach_bw");
    if (it == options_.settings.end()) return 6.0;
    try {
      size_t used = 0;
      const double v = std::stod(it->second, &used);
      if (used == it->second.size() && std::isfinite(v) && v > 0 && v <= 1000) return v;
    } catch (const std::exception&) {
    }
    throw InputError("settings", 0, "arc_reach_bw must be a number of BW in (0, 1000], got '" + it->second + "'");
  }
  RulesetOptions options_;
};

}  // namespace

std::unique_ptr<Ruleset> MakeGeometryRuleset(const RulesetOptions& options) {
  return std::make_unique<GeometryRuleset>(options);
}

}  // namespace vedette
