// `--ruleset geometry`: no game's rules, only what the table shows: for each unit, the enemies whose
// zone of control it is in, the enemies in each of its arcs, and its contacts.
#include <sstream>

#include "rules/geometry/contact.h"
#include "rules/geometry/corridor.h"
#include "rules/ruleset.h"
#include "rules/scene_drawing.h"

namespace vedette {

namespace {

class GeometryRuleset : public Ruleset {
 public:
  explicit GeometryRuleset(const RulesetOptions& options) : options_(options) {}

  RulesetInfo Info() const override { return {"geometry", "Table geometry (no game rules)", "BW", geom::ArcModel::kTotsk,
            {"arc_model"}}; }

  Findings Analyze(const Scene& scene) const override {
    Findings f;
    f.ruleset = "geometry";
    const geom::ArcModel model = ArcModelFor(scene);
    nlohmann::json units = nlohmann::json::array();
    std::ostringstream text;
    text << "Geometry (arcs: " << geom::ToString(model) << ", 1 BW = " << scene.bw_mm << " mm)\n";
    AppendSceneOutlines(scene, &f.drawing);
    for (const Unit& u : scene.units) {
      if (!u.pose) continue;
      AppendZoneOfControl(scene, u, &f.drawing);
      const geom::Base fu = Footprint(u);
      nlohmann::json zoc_of = nlohmann::json::array();
      nlohmann::json arcs = {{"front", nlohmann::json::array()},
                             {"left_flank", nlohmann::json::array()},
                             {"right_flank", nlohmann::json::array()},
                             {"rear", nlohmann::json::array()}};
      nlohmann::json contacts = nlohmann::json::array();
      for (const Unit& o : scene.units) {
        if (&o == &u || !o.pose) continue;
        const geom::Base fo = Footprint(o);
        const bool enemy = o.side != u.side;
        if (enemy) {
          if (geom::InCorridor(fo, geom::Edge::kFront, scene.BwFor(o), fu).inside) zoc_of.push_back(o.id);
          arcs[std::string(geom::ToString(geom::ArcOfBase(fu, fo, model)))].push_back(o.id);
        }
        const geom::Contact c = geom::FindContact(fu, fo);
        if (c.in_contact) {
          contacts.push_back({{"unit", o.id},
                              {"enemy", enemy},
                              {"edge", std::string(geom::ToString(c.edge_a))},
                              {"their_edge", std::string(geom::ToString(c.edge_b))},
                              {"corner_only", c.corner_only}});
        }
      }
      units.push_back({{"id", u.id}, {"side", u.side}, {"zoc_of", zoc_of}, {"arcs", arcs}, {"contacts", contacts}});
      auto list = [](const nlohmann::json& a) {
        std::string s;
        for (const auto& e : a) s += (s.empty() ? "" : ", ") + (e.is_string() ? e.get<std::string>() : e["unit"].get<std::string>());
        return s.empty() ? std::string("-") : s;
      };
      text << "  " << u.id << std::string(u.id.size() < 6 ? 6 - u.id.size() : 1, ' ') << "ZOC of: " << list(zoc_of)
           << "   flank L: " << list(arcs["left_flank"]) << "  R: " << list(arcs["right_flank"])
           << "   rear: " << list(arcs["rear"]) << "   contact: " << list(contacts) << "\n";
    }
    f.report = {{"ruleset", "geometry"}, {"arc_model", std::string(geom::ToString(model))}, {"units", units}};
    f.text = text.str();
    return f;
  }

 private:
  geom::ArcModel ArcModelFor(const Scene& scene) const {
    if (auto it = options_.settings.find("arc_model"); it != options_.settings.end())
      if (auto m = geom::ParseArcModel(it->second)) return *m;
    return scene.arc_model.value_or(geom::ArcModel::kTotsk);
  }
  RulesetOptions options_;
};

}  // namespace

std::unique_ptr<Ruleset> MakeGeometryRuleset(const RulesetOptions& options) {
  return std::make_unique<GeometryRuleset>(options);
}

}  // namespace vedette
