// `--ruleset states`: the unit states of seed 003. For every unit: its state (eager / shaken / routed,
// artillery silenced), its Firing and Limbered markers, where each came from (declaration or token),
// the effects with their modifiers, and, for a routed unit with a declared `flee_to` pose, the units it
// passes through and the states they change to. CheckMove judges what a state forbids (a unit in a
// state of Firing doing anything, unlimbered artillery moving) and what a fleeing move does.
#include <cmath>
#include <string_view>
#include <unordered_map>
#include <sstream>

#include "rules/geometry/base.h"
#include "rules/geometry/coverage.h"
#include "rules/declaration_keys.h"
#include "rules/input_error.h"
#include "rules/json_object.h"
#include "rules/overlaps.h"
#include "rules/ruleset.h"
#include "rules/scene_drawing.h"
#include "rules/states/unit_states.h"

namespace vedette {

namespace {

using nlohmann::json;

double Round2(double v) { return std::round(v * 100.0) / 100.0; }

DrawPrimitive Prim(DrawKind kind, DrawStyle style, std::vector<geom::Vec2> points, const std::string& layer,
                   const std::string& unit, const std::string& text) {
  DrawPrimitive d;
  d.kind = kind;
  d.style = style;
  d.points_mm = std::move(points);
  d.layer = layer;
  d.unit_id = unit;
  d.text = text;
  return d;
}

json TokenJson(const states::TokenAssignment& a) {
  json jt = JsonObject("marker", a.token.marker,
                       "x_mm", a.token.x_mm,
                       "y_mm", a.token.y_mm,
                       "meaning", a.meaning,
                       "unit", a.unit.empty() ? json(nullptr) : json(a.unit),
                       "distance_mm", Round2(a.distance_mm));
  if (!a.note.empty()) jt["note"] = a.note;
  return jt;
}

class StatesRuleset : public Ruleset {
 public:
  explicit StatesRuleset(const RulesetOptions& options)
      : config_(states::LoadStatesConfig((options.assets_dir.empty() ? AssetsDir() : options.assets_dir) + "/rulesets/states.yaml")) {}

  RulesetInfo Info() const override {
    RulesetInfo info{"states", config_.title, "in", geom::ArcModel::kTotsk, {}};
    info.unit_mm = config_.mm_per_unit;
    return info;
  }

  Findings Analyze(const Scene& scene, const AnalyzeOptions& options) const override {
    const states::StatesConfig& c = config_;
    CheckDeclarationKeys(scene, "states", kKeys);
    const states::StateTable table = states::ResolveStates(scene, c);
    Findings f;
    f.ruleset = "states";
    f.drawing.reserve(scene.terrain.size() + 5 * scene.units.size());  // outlines and about one more each
    AppendSceneOutlines(scene, &f.drawing);
    std::ostringstream text;
    text << c.title << " (units eager, not firing, artillery unlimbered, are not listed)\n";

    // Fleeing moves first: they change the states the report shows as "after".
    std::map<std::string, std::vector<std::string>> passed_by;  // unit -> fleeing units
    std::map<std::string, std::string> after;                   // unit -> state after every pass-through
    json flights = json::array();
    for (const states::UnitState& s : table.units) {
      const Declared* d = scene.declarations.Find(s.unit, "flee_to");
      if (!d) continue;
      const Unit& u = *scene.FindUnit(s.unit);
      if (s.state != "routed") throw InputError(scene.source, d->line, "unit " + s.unit + ": flee_to given but the unit is " + s.state + ", not routed");
      if (!u.pose) throw InputError(scene.source, d->line, "unit " + s.unit + ": flee_to given but the unit has no pose");
      const Pose to = ReadPose(scene, d, *u.pose);
      const auto passes = states::PassedThrough(scene, c, table, u, {*u.pose, to});
      json jp = json::array();
      for (const states::PassThrough& p : passes) {
        passed_by[p.unit].push_back(s.unit);
        // Several fleeing units: each pass applies in turn (declaration order of the units by id).
        const std::string before = after.count(p.unit) ? after[p.unit] : p.before;
        // A type the file gives no pass-through rules keeps its state (as states::PassedThrough does).
        after[p.unit] = before;
        if (const auto rules = c.pass_through.find(table.Find(p.unit)->type); rules != c.pass_through.end())
          if (const auto next = rules->second.find(before); next != rules->second.end()) after[p.unit] = next->second;
        if (options.report)
          jp.push_back(JsonObject("unit", p.unit,
                                "before", before,
                                "after", after[p.unit],
                                "overlap_mm2", Round2(p.overlap_mm2)));
      }
      if (options.report)
        flights.push_back(JsonObject("unit", s.unit,
                                   "to", JsonObject("x_mm", to.x_mm,
                                                    "y_mm", to.y_mm,
                                                    "heading_deg", to.heading_deg),
                                   "passes_through", jp));
      f.drawing.push_back(Prim(DrawKind::kArrow, DrawStyle::kThreat, {{u.pose->x_mm, u.pose->y_mm}, {to.x_mm, to.y_mm}},
                               "threats", s.unit, "flees"));
    }

    json units = json::array();
    std::unordered_map<std::string_view, const Unit*> by_id;  // one look-up per unit, not a scan of the scene
    for (const Unit& x : scene.units) by_id.emplace(x.id, &x);
    std::vector<geom::Polygon> built_up;
    for (const Terrain& t : scene.terrain)
      if (c.built_up_terrain.count(t.type)) built_up.push_back(t.polygon);
    for (const states::UnitState& s : table.units) {
      const Unit& u = *by_id.at(s.unit);
      json effects = json::array();
      std::map<std::string, int> mods;
      auto add = [&](const std::string& key) {
        auto it = c.effects.find(key);
        if (it == c.effects.end()) return;
        for (const states::Effect& e : it->second) {
          if (options.report) effects.push_back(JsonObject("of", key, "what", e.what, "value", e.value, "rule", e.rule));
          if (e.value != 0) mods[e.what] += e.value;
        }
      };
      add(s.state);
      if (s.firing) add("firing");
      if (s.type == "artillery") add(s.limbered ? "limbered" : "unlimbered");
      json ju = !options.report ? json() : JsonObject("id", s.unit,
                           "side", u.side,
                           "type", s.type,
                           "state", s.state,
                           "state_source", s.state_source,
                           "firing", s.firing,
                           "limbered", s.limbered,
                           "effects", std::move(effects),
                           "modifiers", mods,
                           "notes", s.notes);
      if (options.report && passed_by.count(s.unit)) {
        ju["passed_through_by"] = passed_by[s.unit];
        ju["state_after"] = after[s.unit];
      }
      json faster = json::array(), slower = json::array();
      if (s.state == "shaken") {
        // Seed 7: what makes the Morale Check back to eager faster or slower (no numbers in the seed).
        if (u.HasTag(c.faster_tag)) faster.push_back("veteran troops");
        if (u.formation == "square") faster.push_back("troops in square");
        if (u.pose) {
          const geom::Base b = Footprint(u);
          if (!built_up.empty() && geom::AreaInsideAny(b, built_up) >= c.built_up_share * b.width_mm * b.depth_mm - 1e-6)
            faster.push_back("troops in a Built-Up Area");
        }
        if (scene.declarations.Flag(u.id, "general_attached")) faster.push_back("troops with a general attached");
        if (u.HasTag(c.slower_tag)) slower.push_back("raw troops");
        if (options.report)
          ju["morale_check"] = JsonObject("when", "first in the Sequence of Play, on its own side's turn (seed 13)",
                                        "pass", "eager again (seed 13)",
                                        "modifier", mods.count("morale") ? mods.at("morale") : 0,
                                        "faster_for", faster,
                                        "slower_for", slower,
                                        "dice", nullptr,
                                        "odds", nullptr,
                                        "note", "the seed gives no dice, pass score or size of these factors for any Morale Check");
      }
      if (options.report) units.push_back(std::move(ju));  // moved, not copied: 300 units make a large report
      // Text: only what differs from a unit's normal state (eager, not firing, artillery unlimbered), where
      // it comes from in words, and its effects by name.
      const bool normal = s.state == c.states.at(s.type).front() && !s.firing && !s.limbered && !passed_by.count(s.unit);
      if (!normal && options.text) {
        text << "  " << s.unit << ": " << s.state;
        if (s.state_source == "declared") text << " (declared)";
        else if (s.state_source.rfind("token", 0) == 0) text << " (" << s.state_source << " beside it)";
        if (s.firing) text << ", in a state of Firing";
        if (s.limbered) text << ", limbered";
        std::string effects;
        for (const auto& [what, v] : mods) {
          const std::string name = what == "charger_morale" ? "a charger's morale roll against it" : what;
          effects += (effects.empty() ? "" : ", ") + std::string(v > 0 ? "+" : "") + std::to_string(v) + " " + name;
        }
        if (!effects.empty()) text << ": " << effects << " (seed 7)";
        if (s.firing) text << "; can do nothing else (seed 83)";
        if (passed_by.count(s.unit)) {
          std::string by;
          for (const std::string& id : passed_by[s.unit]) by += (by.empty() ? "" : ", ") + id;
          text << "; passed through by fleeing " << by << ": becomes " << after[s.unit] << " (seed 33, 59)";
        }
        text << "\n";
      }
      if (u.pose) {
        std::string label = s.state;
        if (s.firing) label += ", firing";
        if (s.limbered) label += ", limbered";
        // The state's effects on the table, as the players need them at a glance (seed 7).
        for (const auto& [what, v] : mods) {
          const std::string name = what == "charger_morale" ? "charger's morale" : what;
          label += (&what == &mods.begin()->first ? ": " : ", ") + name + " " + (v > 0 ? "+" : "") + std::to_string(v);
        }
        f.drawing.push_back(Prim(DrawKind::kLabel, s.state == c.states.at(s.type).front() ? DrawStyle::kInfo : DrawStyle::kTest,
                                 {Footprint(u).centre_mm}, "labels", s.unit, label));
        for (const auto& [word, glyph] : {std::pair{"shaken", Glyph::kShaken}, std::pair{"routed", Glyph::kRouted},
                                          std::pair{"silenced", Glyph::kSilenced}, std::pair{"disordered", Glyph::kDisordered}})
          if (s.state == word) AppendStateGlyph(u, glyph, &f.drawing);
        if (s.firing) AppendStateGlyph(u, Glyph::kFiring, &f.drawing);
        if (s.limbered) AppendStateGlyph(u, Glyph::kLimbered, &f.drawing);
      }
      // Seed 13: shaken troops take the automatic Morale Check first in their own side's turn.
      const bool their_turn = scene.declarations.active_side.empty() || scene.declarations.active_side == u.side;
      if (s.state == "shaken" && their_turn) {
        RequiredTest t;
        t.unit = s.unit;
        t.kind = "morale";
        t.reason = "shaken: the automatic Morale Check for shaken troops, first in the Sequence of Play (pass: eager again)";
        for (const auto& [what, v] : mods)
          if (what == "morale") t.modifiers.push_back({"Shaken troops have a morale disadvantage (-1) (seed 7)", v, {}});
        for (const Modifier& m : t.modifiers) t.total += m.value;
        t.odds = "morale " + std::to_string(t.total) + " (the seed gives no dice for the check)";
        for (const auto& fct : faster) t.reason += "; faster for " + fct.get<std::string>();
        for (const auto& fct : slower) t.reason += "; slower for " + fct.get<std::string>();
        f.tests.push_back(t);
      }
    }
    json tokens = json::array();
    for (const states::TokenAssignment& a : table.tokens) {
      if (options.report) tokens.push_back(TokenJson(a));
      DrawPrimitive token = Prim(DrawKind::kLabel, DrawStyle::kInfo, {{a.token.x_mm, a.token.y_mm}}, "labels", a.unit,
                                 "token " + std::to_string(a.token.marker) + ": " + a.meaning);
      token.own_place = true;  // said at the token, where the players see it
      f.drawing.push_back(std::move(token));
    }
    if (options.report) {
      f.report = json::object();  // the lists moved in, not copied
      f.report["ruleset"] = "states";
      f.report["units"] = std::move(units);
      f.report["tokens"] = std::move(tokens);
      f.report["flights"] = std::move(flights);
    }
    if (options.text) f.text = text.str();
    AppendOverlaps(scene, kOverlapToleranceMm, options, &f);
    return f;
  }

  MoveCheck CheckMove(const Scene& scene, const MoveRequest& move) const override {
    CheckDeclarationKeys(scene, "states", kKeys);
    const states::StateTable table = states::ResolveStates(scene, config_);
    const Unit* u = scene.FindUnit(move.unit);
    if (!u || !u->pose) throw InputError(scene.source, 0, "no placed unit '" + move.unit + "' in the scene");
    MoveCheck m;
    m.supported = true;
    const states::UnitState* s = table.Find(move.unit);
    const double shift = std::hypot(move.to.x_mm - u->pose->x_mm, move.to.y_mm - u->pose->y_mm);
    const double turn = std::abs(geom::NormalizeDeg(move.to.heading_deg - u->pose->heading_deg));
    constexpr double kStillMm = 1.0, kStillDeg = 1.0;  // hand-placement slack
    const bool moved = shift > kStillMm, turned = turn > kStillDeg;
    json passes = json::array();
    if (s) {
      if (s->firing && (moved || turned)) {
        m.legal = false;
        m.illegal_reason = "Units in a state of Firing cannot do anything else (seed 83)";
      } else if (s->type == "artillery" && !s->limbered && moved) {
        m.legal = false;
        m.illegal_reason = "only limbered artillery can move; unlimbered artillery can pivot (seed 97)";
      }
      m.kinds.push_back(moved ? "move" : turned ? "pivot" : "stay");
      if (s->state == "routed") {
        m.kinds.push_back("flee");
        std::vector<Pose> path{*u->pose};
        path.insert(path.end(), move.path.begin(), move.path.end());
        path.push_back(move.to);
        for (const states::PassThrough& p : states::PassedThrough(scene, config_, table, *u, path)) {
          passes.push_back(JsonObject("unit", p.unit, "before", p.before, "after", p.after));
          if (p.after != p.before)
            m.state_changes.push_back({p.unit, "state", p.after,
                                       p.unit + " passed through by fleeing " + move.unit + ": " + p.before + " -> " + p.after +
                                           (p.before == "eager" ? " (seed 33)" : " (seed 59)")});
        }
      }
    }
    // No move, ordered or a flight, may end inside another base (rules/overlaps.h).
    json overlaps = json::array();
    for (const UnitOverlap& o : OverlapsAt(scene, *u, move.to)) {
      overlaps.push_back(ToJson(o));
      if (m.legal) {
        m.legal = false;
        m.illegal_reason = "ends on top of another base: " + Describe(o) + " (bases may not overlap)";
      }
    }
    // A legal move that ends with its front on enemy guns' front is a charge from the front.
    if (m.legal)
      for (const std::string& gun : states::ArtilleryChargedFromTheFront(scene, table, *u, move.to))
        m.state_changes.push_back({gun, "firing", true,
                                   gun + " charged from the front by " + move.unit +
                                       ": artillery automatically begin firing (seed 79)"});
    json changes = json::array();
    for (const StateChange& c : m.state_changes)
      changes.push_back({{"unit", c.unit}, {"key", c.key}, {"value", c.value}, {"reason", c.reason}});
    m.report = {{"ruleset", "states"}, {"unit", move.unit}, {"state", s ? json(s->state) : json(nullptr)},
                {"legal", m.legal}, {"kinds", m.kinds}, {"passes_through", passes}, {"overlaps", overlaps},
                {"state_changes", changes}};
    if (!m.legal) m.report["illegal_reason"] = m.illegal_reason;
    m.text = move.unit + (m.legal ? ": legal" : ": illegal: " + m.illegal_reason) + "\n";
    for (const json& p : passes)
      m.text += "  passes through " + p["unit"].get<std::string>() + ": " + p["before"].get<std::string>() + " -> " +
                p["after"].get<std::string>() + "\n";
    for (const StateChange& c : m.state_changes)
      if (c.key != "state") m.text += "  " + c.reason + "\n";
    return m;
  }

 private:
  // What a player may declare under these rules (seed 003): the state and the markers, where a routed
  // unit flees to, and a general attached (faster recovery, seed 7).
  inline static const std::vector<std::string> kKeys = {"state", "firing", "limbered", "flee_to", "general_attached"};

  static Pose ReadPose(const Scene& scene, const Declared* d, const Pose& from) {
    const json& v = d->value;
    if (!v.is_object() || !v.contains("x_mm") || !v.contains("y_mm") || !v["x_mm"].is_number() || !v["y_mm"].is_number())
      throw InputError(scene.source, d->line, "flee_to must be {x_mm: X, y_mm: Y, heading_deg: H (optional)}");
    Pose p{v["x_mm"].get<double>(), v["y_mm"].get<double>(), from.heading_deg};
    if (v.contains("heading_deg")) {
      if (!v["heading_deg"].is_number()) throw InputError(scene.source, d->line, "flee_to.heading_deg must be a number");
      p.heading_deg = v["heading_deg"].get<double>();
    }
    return p;
  }

  states::StatesConfig config_;
};

}  // namespace

std::unique_ptr<Ruleset> MakeStatesRuleset(const RulesetOptions& options) { return std::make_unique<StatesRuleset>(options); }

}  // namespace vedette
