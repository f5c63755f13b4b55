// `--ruleset kow`: Kings of War (seed 002). For every unit: the enemies it may charge (front arc, sight,
// leader point to base within twice its speed, the facing hit, room for a route with one pivot, no
// corner-to-corner contact), the 1-inch rule, shooting targets per weapon with cover, and the odds of
// its nerve test when damage is declared. Distances in inches; arcs by the kow model.
#include <cmath>
#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>

#include "rules/geometry/distance.h"
#include "rules/input_error.h"
#include "rules/kow/analysis.h"
#include "rules/kow/multi_charge.h"
#include "rules/ruleset.h"
#include "rules/scene_drawing.h"

namespace vedette {

namespace {

using nlohmann::json;

double Round2(double v) { return std::round(v * 100.0) / 100.0; }

DrawPrimitive Prim(DrawKind kind, DrawStyle style, std::vector<geom::Vec2> points) {
  DrawPrimitive d;
  d.kind = kind;
  d.style = style;
  d.points_mm = std::move(points);
  return d;
}

class KowRuleset : public Ruleset {
 public:
  explicit KowRuleset(const RulesetOptions& options)
      : config_(kow::LoadKowConfig((options.assets_dir.empty() ? AssetsDir() : options.assets_dir) + "/rulesets/kow.yaml")) {}

  RulesetInfo Info() const override { return {"kow", config_.title, config_.unit_name, geom::ArcModel::kKow, {}}; }

  Findings Analyze(const Scene& scene) const override {
    Findings f;
    f.ruleset = "kow";
    const kow::KowConfig& c = config_;
    std::ostringstream text;
    text << c.title << " (arcs: kow, 1 " << c.unit_name << " = " << c.mm_per_unit << " mm)\n";
    AppendSceneOutlines(scene, &f.drawing);
    json units = json::array();
    std::map<std::string, std::vector<Candidate>> candidates;  // target id -> who can charge it, and how
    for (const Unit& u : scene.units) {
      if (!u.pose) continue;
      const kow::Profile p = kow::ProfileOf(u, c);
      const geom::Base ub = Footprint(u);
      const geom::Vec2 lp = geom::LeaderPoint(ub);
      const std::vector<std::string> engaged = kow::EngagedWith(scene, c, u);
      json ju = {{"id", u.id}, {"side", u.side}, {"type", std::string(ToString(u.type))},
                 {"leader_point_mm", {Round2(lp.x()), Round2(lp.y())}}, {"height", p.height},
                 {"engaged_with", engaged}};
      if (p.speed_in) ju["speed_in"] = *p.speed_in;
      AppendFrontArc(u, p, &f.drawing);
      text << "  " << u.id << ":\n";

      // Charges: every enemy at least partly in the front arc, with what allows or forbids the charge.
      json charges = json::array();
      for (const Unit& t : SortedEnemies(scene, u)) {
        const kow::ChargeCheck ch = kow::CheckCharge(scene, c, u, t);
        if (ch.front_arc_share <= 1e-9) continue;
        json jc = {{"target", t.id},
                   {"chargeable", ch.chargeable},
                   {"front_arc_share", Round2(ch.front_arc_share)},
                   {"visible", ch.visible},
                   {"distance_mm", Round2(ch.distance_mm)},
                   {"distance_in", Round2(ch.distance_mm / c.mm_per_unit)},
                   {"facing", std::string(geom::ToString(ch.facing))},
                   {"leader_on_arc_line", ch.leader_on_arc_line},
                   {"hindered", ch.hindered},
                   {"hindered_by", ch.hindered_by},
                   {"reasons", ch.reasons}};
        if (p.speed_in) {
          jc["range_mm"] = Round2(ch.range_mm);
          jc["range_in"] = Round2(ch.range_mm / c.mm_per_unit);
          jc["margin_mm"] = Round2(ch.range_mm - ch.distance_mm);
          jc["margin_in"] = Round2((ch.range_mm - ch.distance_mm) / c.mm_per_unit);
        }
        if (ch.route && ch.route->found) {
          jc["route"] = {{"advance_mm", Round2(ch.route->advance_mm)}, {"pivot_deg", Round2(ch.route->pivot_deg)},
                         {"final_mm", Round2(ch.route->final_mm)}, {"length_mm", Round2(ch.route->length_mm)},
                         {"contact_point_mm", {Round2(ch.route->contact_point.x()), Round2(ch.route->contact_point.y())}}};
        } else {
          jc["route"] = nullptr;
        }
        charges.push_back(jc);
        char line[256];
        char range[32] = "-";
        if (p.speed_in) std::snprintf(range, sizeof range, "%.2f", ch.range_mm / c.mm_per_unit);
        std::snprintf(line, sizeof line, "    charge %s: %s, %.2f in of %s, hits %s%s%s%s\n", t.id.c_str(),
                      ch.chargeable ? "YES" : "no", ch.distance_mm / c.mm_per_unit, range,
                      std::string(geom::ToString(ch.facing)).c_str(), ch.leader_on_arc_line ? " (leader on arc line)" : "",
                      ch.hindered ? " (hindered)" : "",
                      ch.reasons.empty() ? "" : (" - " + ch.reasons.front()).c_str());
        text << line;
        if (ch.chargeable) {
          candidates[t.id].push_back({u.id, "charge", {u.id, ub, EdgeOfArc(ch.facing)}});
          DrawPrimitive a = Prim(DrawKind::kArrow, DrawStyle::kThreat, {lp, ch.closest_point});
          a.layer = "threats";
          a.unit_id = u.id;
          a.text = "charge " + t.id;
          f.drawing.push_back(a);
        }
      }
      ju["charges"] = charges;

      // Counter-charges (seed 27): only against a unit declared as having charged this one last turn.
      json counters = json::array();
      for (const std::string& id : kow::ChargedBy(scene, u)) {
        const Unit& t = *scene.FindUnit(id);
        if (!t.pose) continue;
        const kow::CounterChargeCheck cc = kow::CheckCounterCharge(scene, c, u, t);
        json jc = {{"target", t.id},
                   {"chargeable", cc.chargeable},
                   {"distance_mm", Round2(cc.distance_mm)},
                   {"distance_in", Round2(cc.distance_mm / c.mm_per_unit)},
                   {"facing", "front"},
                   {"leader_arc", std::string(geom::ToString(cc.leader_arc))},
                   {"needs_line_of_sight", false},
                   {"hindered", false},
                   {"reasons", cc.reasons}};
        if (p.speed_in) {
          jc["range_mm"] = Round2(cc.range_mm);
          jc["range_in"] = Round2(cc.range_mm / c.mm_per_unit);
          jc["margin_mm"] = Round2(cc.range_mm - cc.distance_mm);
          jc["margin_in"] = Round2((cc.range_mm - cc.distance_mm) / c.mm_per_unit);
        }
        if (cc.route && cc.route->found) {
          jc["route"] = {{"pivot_deg", Round2(cc.route->pivot_deg)}, {"move_mm", Round2(cc.route->move_mm)},
                         {"slide_mm", Round2(cc.route->slide_mm)}, {"length_mm", Round2(cc.route->length_mm)},
                         {"contact_point_mm", {Round2(cc.route->contact_point.x()), Round2(cc.route->contact_point.y())}}};
        } else {
          jc["route"] = nullptr;
        }
        counters.push_back(jc);
        char line[256];
        char range[32] = "-";
        if (p.speed_in) std::snprintf(range, sizeof range, "%.2f", cc.range_mm / c.mm_per_unit);
        std::snprintf(line, sizeof line, "    counter-charge %s: %s, %.2f in of %s, hits front%s\n", t.id.c_str(),
                      cc.chargeable ? "YES" : "no", cc.distance_mm / c.mm_per_unit, range,
                      cc.reasons.empty() ? "" : (" - " + cc.reasons.front()).c_str());
        text << line;
        if (cc.chargeable) {
          candidates[t.id].push_back({u.id, "counter-charge", {u.id, ub, geom::Edge::kFront}});
          DrawPrimitive a = Prim(DrawKind::kArrow, DrawStyle::kThreat, {lp, cc.route->contact_point});
          a.layer = "threats";
          a.unit_id = u.id;
          a.text = "counter-charge " + t.id;
          f.drawing.push_back(a);
          DrawPrimitive ghost = Prim(DrawKind::kPolygon, DrawStyle::kThreat, geom::PolygonCcw(cc.route->at_contact));
          ghost.layer = "threats";
          ghost.unit_id = u.id;
          ghost.dashed = true;  // where it would end, not where it is
          f.drawing.push_back(ghost);
        }
      }
      ju["counter_charges"] = counters;

      // The 1-inch rule (seed 10): enemies within 1 inch but not in contact.
      const Declared* order = scene.declarations.Find(u.id, "order");
      const std::string order_s = order && order->value.is_string() ? order->value.get<std::string>() : "";
      json near = json::array();
      for (const Unit& t : SortedEnemies(scene, u)) {
        const geom::ClosestPoints cp = geom::BaseToBase(ub, Footprint(t));
        if (cp.distance_mm <= c.contact_mm || cp.distance_mm > c.one_inch_in * c.mm_per_unit + 1e-9) continue;
        near.push_back({{"enemy", t.id}, {"gap_mm", Round2(cp.distance_mm)}, {"gap_in", Round2(cp.distance_mm / c.mm_per_unit)}});
        DrawPrimitive m = Prim(DrawKind::kPolyline, DrawStyle::kMeasure, {cp.on_a, cp.on_b});
        m.layer = "threats";
        m.unit_id = u.id;
        m.text = "within 1 in of " + t.id;
        f.drawing.push_back(m);
      }
      const bool exempt = order_s == "charge" || order_s == "halt";
      ju["one_inch"] = {{"within", near}, {"order", order_s}, {"flagged", !near.empty() && !exempt}};
      if (!near.empty() && !exempt) text << "    1-inch rule: within 1 in of " << near.size() << " enemy unit(s)\n";

      // Shooting (seed 30-41), one entry per weapon.
      json shooting = json::array();
      for (const auto& [weapon, range_in] : p.weapons) {
        json targets = json::array();
        for (const Unit& t : SortedEnemies(scene, u)) {
          const kow::ShotCheck s = kow::CheckShot(scene, c, u, t, range_in);
          if (!s.in_arc || !s.visible || !s.in_range) continue;
          // Seed 32: units in base contact with enemies cannot shoot or be shot at.
          if (!engaged.empty() || !kow::EngagedWith(scene, c, t).empty()) continue;
          targets.push_back({{"target", t.id}, {"distance_mm", Round2(s.distance_mm)},
                             {"distance_in", Round2(s.distance_mm / c.mm_per_unit)},
                             {"margin_in", Round2(range_in - s.distance_mm / c.mm_per_unit)},
                             {"cover", s.cover}, {"cover_reasons", s.cover_reasons},
                             {"difficult_share", Round2(s.difficult_share)}, {"hidden_share", Round2(s.hidden_share)},
                             {"obscured_by", s.obscured_by}, {"modifier", s.cover ? c.cover_modifier : 0}});
          text << "    shoot " << t.id << " (" << weapon << " " << range_in << " in): "
               << Round2(s.distance_mm / c.mm_per_unit) << " in" << (s.cover ? ", cover -1" : "") << "\n";
        }
        shooting.push_back({{"weapon", weapon}, {"range_in", range_in}, {"targets", targets}});
      }
      ju["shooting"] = shooting;

      // Nerve (seed 64-71) when damage is declared.
      if (const Declared* dmg = scene.declarations.Find(u.id, "damage")) {
        if (!dmg->value.is_number() || dmg->value.get<double>() < 0 || dmg->value.get<double>() != std::floor(dmg->value.get<double>()))
          throw InputError(scene.source, dmg->line, "declarations for " + u.id + ": damage must be a whole number >= 0");
        const int damage = static_cast<int>(dmg->value.get<double>());
        if (!p.nerve.waver && !p.nerve.rout)
          throw InputError(scene.source, dmg->line, "unit " + u.id + " has declared damage but no nerve_waver/nerve_rout in its stats");
        const kow::NerveOdds o = kow::NerveTestOdds(damage, p.nerve);
        ju["nerve"] = {{"damage", damage},
                       {"waver", p.nerve.waver ? json(*p.nerve.waver) : json(nullptr)},
                       {"rout", p.nerve.rout ? json(*p.nerve.rout) : json(nullptr)},
                       {"steady_of_36", o.steady}, {"wavering_of_36", o.wavering}, {"routed_of_36", o.routed}};
        RequiredTest rt;
        rt.unit = u.id;
        rt.kind = "nerve";
        rt.reason = "2D6 + " + std::to_string(damage) + " damage vs nerve " + (p.nerve.waver ? std::to_string(*p.nerve.waver) : "-") +
                    "/" + (p.nerve.rout ? std::to_string(*p.nerve.rout) : "-") + " (double 1 passes, double 6 wavers)";
        rt.modifiers.push_back({"damage suffered", damage, {}});
        rt.total = damage;
        rt.p_success = o.P(o.steady);
        rt.odds = kow::FormatNerveOdds(o);
        f.tests.push_back(rt);
        text << "    nerve (" << damage << " damage): " << rt.odds << "\n";
        DrawPrimitive l = Prim(DrawKind::kLabel, DrawStyle::kTest, {ub.centre_mm});
        l.text = "nerve: " + rt.odds;
        l.layer = "tests";
        l.unit_id = u.id;
        f.drawing.push_back(l);
      }
      units.push_back(ju);
    }
    const json multi = MultiCharges(scene, candidates, &f, &text);
    f.report = {{"ruleset", "kow"}, {"unit", c.unit_name}, {"mm_per_unit", c.mm_per_unit}, {"arc_model", "kow"}, {"units", units},
                {"multi_charges", multi}};
    f.text = text.str();
    return f;
  }

  std::vector<PairRule> PairRules(const Scene& scene, const std::string& from, const std::string& to) const override {
    const Unit* a = scene.FindUnit(from);
    const Unit* b = scene.FindUnit(to);
    if (!a || !b || !a->pose || !b->pose) throw InputError(scene.source, 0, "both units must be in the scene with a pose");
    const kow::KowConfig& c = config_;
    const geom::Base ab = Footprint(*a), bb = Footprint(*b);
    const double gap = geom::BaseToBase(ab, bb).distance_mm;
    const kow::Profile p = kow::ProfileOf(*a, c);
    std::vector<PairRule> rules;
    rules.push_back({"in contact", "edge_to_edge", c.contact_mm, gap});
    rules.push_back({"within 1 in (no move may end this close, seed 10)", "edge_to_edge", c.one_inch_in * c.mm_per_unit, gap});
    if (p.speed_in)
      rules.push_back({"charge range: leader point to base <= 2 x speed (seed 13)", "leader_to_closest",
                       c.charge_range_factor * *p.speed_in * c.mm_per_unit, geom::LeaderToBase(ab, bb).distance_mm});
    for (const auto& [weapon, range_in] : p.weapons)
      rules.push_back({"in range of " + weapon + " " + std::to_string(static_cast<int>(range_in)) + " in (seed 34)",
                       "edge_to_edge", range_in * c.mm_per_unit, gap});
    return rules;
  }

 private:
  struct Candidate {
    std::string unit;
    std::string kind;  // "charge" or "counter-charge"
    kow::ChargerOnFacing on;
  };

  static geom::Edge EdgeOfArc(geom::Arc a) {
    switch (a) {
      case geom::Arc::kFront: return geom::Edge::kFront;
      case geom::Arc::kLeftFlank: return geom::Edge::kLeft;
      case geom::Arc::kRightFlank: return geom::Edge::kRight;
      case geom::Arc::kRear: return geom::Edge::kRear;
    }
    return geom::Edge::kFront;
  }

  // Seed 21-24: for every target two or more units can charge, each set of two or more of them and
  // whether they fit into base contact together (kow::FitChargers). A unit that may both charge and
  // counter-charge the target is tried both ways. At most 8 chargers per target are combined.
  json MultiCharges(const Scene& scene, const std::map<std::string, std::vector<Candidate>>& candidates, Findings* f,
                    std::ostringstream* text) const {
    json out = json::array();
    for (const auto& [target_id, options] : candidates) {
      std::vector<std::string> ids;
      for (const Candidate& c : options)
        if (std::find(ids.begin(), ids.end(), c.unit) == ids.end()) ids.push_back(c.unit);
      std::sort(ids.begin(), ids.end());
      if (ids.size() < 2) continue;
      if (ids.size() > 8) ids.resize(8);
      const Unit& target = *scene.FindUnit(target_id);
      const geom::Base tb = Footprint(target);
      json chargers = json::array();
      for (const Candidate& c : options)
        chargers.push_back({{"unit", c.unit}, {"kind", c.kind}, {"facing", std::string(geom::ToString(c.on.facing))}});
      json combos = json::array();
      json largest = json::array();
      json all_placement;
      bool all_fit = false;
      const int n = static_cast<int>(ids.size());
      for (int mask = 1; mask < (1 << n); ++mask) {
        if (__builtin_popcount(mask) < 2) continue;
        std::vector<std::string> members;
        for (int i = 0; i < n; ++i)
          if (mask >> i & 1) members.push_back(ids[i]);
        // Obstacles: every placed unit but the target and the members (they move), and blocking terrain.
        std::vector<geom::Polygon> shapes;
        std::vector<std::string> names;
        for (const Unit& o : scene.units) {
          if (!o.pose || o.id == target_id || std::find(members.begin(), members.end(), o.id) != members.end()) continue;
          for (const geom::Base& b : BasesOf(o)) {
            shapes.push_back(geom::PolygonCcw(b));
            names.push_back(o.id);
          }
        }
        for (const Terrain& t : scene.terrain)
          if (config_.blocking_terrain.count(t.type)) {
            shapes.push_back(t.polygon);
            names.push_back(t.id);
          }
        // Every choice of one way of charging per member, until one fits.
        std::vector<std::vector<const Candidate*>> ways;
        for (const std::string& m : members) {
          ways.emplace_back();
          for (const Candidate& c : options)
            if (c.unit == m) ways.back().push_back(&c);
        }
        std::vector<size_t> pick(members.size(), 0);
        kow::ChargersFit fit;
        std::vector<const Candidate*> used;
        while (true) {
          std::vector<kow::ChargerOnFacing> set;
          used.clear();
          for (size_t i = 0; i < members.size(); ++i) {
            used.push_back(ways[i][pick[i]]);
            set.push_back(ways[i][pick[i]]->on);
          }
          kow::ChargersFit attempt = kow::FitChargers(tb, set, shapes, names);
          if (attempt.fits || fit.why_not.empty()) fit = attempt;
          if (fit.fits) break;
          size_t i = 0;
          while (i < pick.size() && ++pick[i] == ways[i].size()) pick[i++] = 0;
          if (i == pick.size()) break;
        }
        json combo = {{"units", members}, {"fits", fit.fits}};
        if (fit.fits) {
          json placement = json::array();
          for (size_t i = 0; i < fit.placed.size(); ++i) {
            const kow::PlacedCharger& p = fit.placed[i];
            placement.push_back({{"unit", p.unit}, {"kind", used[i]->kind}, {"facing", std::string(geom::ToString(p.facing))},
                                 {"contact_mm", Round2(p.contact_mm)},
                                 {"centre_mm", {Round2(p.at_contact.centre_mm.x()), Round2(p.at_contact.centre_mm.y())}},
                                 {"heading_deg", Round2(geom::NormalizeDeg(p.at_contact.heading_deg))}});
          }
          combo["placement"] = placement;
          if (members.size() > largest.size() || largest.empty()) largest = members;
          if (mask == (1 << n) - 1) {
            all_fit = true;
            for (const kow::PlacedCharger& p : fit.placed) {
              DrawPrimitive g = Prim(DrawKind::kPolygon, DrawStyle::kThreat, geom::PolygonCcw(p.at_contact));
              g.layer = "threats";
              g.unit_id = p.unit;
              g.dashed = true;
              g.text = "joint charge on " + target_id;
              f->drawing.push_back(g);
            }
          }
        } else {
          combo["why_not"] = fit.why_not;
        }
        combos.push_back(combo);
      }
      std::string who;
      for (const std::string& id : ids) who += (who.empty() ? "" : "+") + id;
      *text << "  joint charges on " << target_id << ": " << who << (all_fit ? " all fit" : " do not all fit");
      if (!all_fit) *text << " - " << combos.back()["why_not"].get<std::string>();
      if (!all_fit && !largest.empty()) {
        std::string l;
        for (const auto& id : largest) l += (l.empty() ? "" : "+") + id.get<std::string>();
        *text << " (largest that fits: " << l << ")";
      }
      *text << "\n";
      DrawPrimitive label = Prim(DrawKind::kLabel, DrawStyle::kTest, {tb.centre_mm});
      label.layer = "tests";
      label.unit_id = target_id;
      label.text = "joint charge " + who + (all_fit ? ": fits" : ": does not fit");
      f->drawing.push_back(label);
      out.push_back({{"target", target_id}, {"chargers", chargers}, {"all_fit", all_fit}, {"largest_fitting", largest},
                     {"combinations", combos}});
    }
    return out;
  }

  static std::vector<std::reference_wrapper<const Unit>> SortedEnemies(const Scene& scene, const Unit& u) {
    std::vector<std::reference_wrapper<const Unit>> out;
    for (const Unit& o : scene.units)
      if (&o != &u && o.pose && o.side != u.side) out.push_back(o);
    std::sort(out.begin(), out.end(), [](const Unit& x, const Unit& y) { return x.id < y.id; });
    return out;
  }

  // The front arc's two lines out to the charge range (or 12 in without a speed), layer "ranges".
  void AppendFrontArc(const Unit& u, const kow::Profile& p, std::vector<DrawPrimitive>* out) const {
    const geom::Base b = Footprint(u);
    const double reach = (p.speed_in ? config_.charge_range_factor * *p.speed_in : 12.0) * config_.mm_per_unit;
    const auto corners = geom::Corners(b);
    for (int i : {0, 1}) {
      const geom::Vec2 dir = (corners[i] - b.centre_mm).normalized();
      DrawPrimitive l = Prim(DrawKind::kPolyline, DrawStyle::kRange, {corners[i], corners[i] + reach * dir});
      l.layer = "ranges";
      l.unit_id = u.id;
      l.dashed = true;
      out->push_back(l);
    }
  }

  kow::KowConfig config_;
};

}  // namespace

std::unique_ptr<Ruleset> MakeKowRuleset(const RulesetOptions& options) { return std::make_unique<KowRuleset>(options); }

}  // namespace vedette
