// `--ruleset fkoe`: For King or Empress (seed 004, the quick reference sheet). Per unit: whether it is
// in bad going (half its frontage in the terrain) and whom that hides (1-inch visibility), the combat
// value modifiers of its melee (every enemy in contact) and of its fire (declared `target`) that the
// table decides, the 1D20 morale modifiers, and the totals. Distances in inches; flanks and rear by
// the edge lines of the target (totsk arc model).
#include <charconv>
#include <cmath>
#include <optional>
#include <set>
#include <cstdio>
#include <sstream>

#include "rules/declaration_keys.h"
#include "rules/fkoe/config.h"
#include "rules/fkoe/places.h"
#include "rules/geometry/contact.h"
#include "rules/geometry/corridor.h"
#include "rules/geometry/coverage.h"
#include "rules/geometry/distance.h"
#include "rules/input_error.h"
#include "rules/json_object.h"
#include "rules/overlaps.h"
#include "rules/ruleset.h"
#include "rules/scene_drawing.h"
#include "rules/unit_grid.h"

namespace vedette {

namespace {

using nlohmann::json;
using geom::Arc;

double Round2(double v) { return std::round(v * 100.0) / 100.0; }

bool IsFlankOrRear(geom::Edge e) { return e != geom::Edge::kFront; }
bool IsFlankOrRear(Arc a) { return a != Arc::kFront; }

struct Mods {
  json list = json::array();
  int total = 0;
  std::vector<Modifier> modifiers;
  void Add(const fkoe::RuleValue& r, int times, std::vector<std::string> by) {
    if (times == 0) return;
    list.push_back(JsonObject("rule", r.rule, "value", r.value * times, "by", by));
    total += r.value * times;
    modifiers.push_back({r.rule, r.value * times, by});
  }
};

const std::vector<std::string> kDeclarationKeys = {"disorder", "general_attached", "target", "uphill", "holds",
                                                   "break_off", "forced_march", "recoil", "withdraw_in"};

class FkoeRuleset : public Ruleset {
 public:
  explicit FkoeRuleset(const RulesetOptions& options)
      : options_(options),
        config_(fkoe::LoadFkoeConfig((options.assets_dir.empty() ? AssetsDir() : options.assets_dir) + "/rulesets/fkoe.yaml",
                                     options.settings)) {}

  RulesetInfo Info() const override {
    RulesetInfo info{"fkoe", config_.title, config_.unit_name, geom::ArcModel::kTotsk,
                     {"command_range_in", "morale_pass_at_least", "artillery_short_range_in", "artillery_long_range_in",
                      "step4_markers", "frontal_contact", "withdrawal"}};
    info.unit_mm = config_.mm_per_unit;
    return info;
  }

  Findings Analyze(const Scene& scene, const AnalyzeOptions& options) const override {
    // The configuration with the scene's and the command line's settings applied (copied only when
    // there are any: a live table calls this every frame).
    std::optional<fkoe::FkoeConfig> with_settings;
    if (!scene.declarations.settings.empty() || !options_.settings.empty()) {
      with_settings = config_;
      std::map<std::string, std::string> scene_settings;
      for (const auto& [k, d] : scene.declarations.settings)
        scene_settings[k] = d.value.is_string() ? d.value.get<std::string>() : d.value.dump();
      fkoe::ApplySettings(scene_settings, &*with_settings);
      fkoe::ApplySettings(options_.settings, &*with_settings);  // the command line wins
    }
    const fkoe::FkoeConfig& c = with_settings ? *with_settings : config_;

    Findings f;
    f.ruleset = "fkoe";
    f.drawing.reserve(scene.terrain.size() + 5 * scene.units.size());  // outlines and about one more each
    AppendSceneOutlines(scene, &f.drawing);
    std::ostringstream text;
    text << c.title << " (1 " << c.unit_name << " = " << c.mm_per_unit << " mm)\n";

    std::vector<geom::Polygon> bad;
    for (const Terrain& t : scene.terrain)
      if (c.bad_going_terrain.count(t.type)) bad.push_back(t.polygon);
    CheckDeclarationKeys(scene, "fkoe", kDeclarationKeys);
    // Seed 42-48: the turn of an activated command, and where each finding below belongs in it.
    text << "  turn of the activated command (seed 44-48):";
    for (size_t i = 0; i < c.turn_sequence.size(); ++i) text << (i ? ";" : "") << " " << i + 1 << " " << c.turn_sequence[i];
    text << " (the sheet gives no initiative table)\n";
    std::vector<const Unit*> placed;
    for (const Unit& u : scene.units)
      if (u.pose) placed.push_back(&u);
    std::sort(placed.begin(), placed.end(), [](const Unit* a, const Unit* b) { return a->id < b->id; });
    // Who is near whom, once (rules/unit_grid.h): contacts, supports and sight within 1 inch are all
    // short reaches, so each unit looks only at its neighbours, in id order as the report lists them.
    const UnitGrid grid(scene);
    const fkoe::Places places(scene, c);
    auto index_of = [&](const Unit& u) { return static_cast<int>(&u - scene.units.data()); };
    // Each unit's declarations, found once: several keys of every unit are read below.
    std::vector<const Declarations::Keys*> declared_keys(scene.units.size(), nullptr);
    for (const Unit* u : placed) declared_keys[index_of(*u)] = scene.declarations.Of(u->id);
    auto declared = [&](const Unit& u, std::string_view key) { return Declarations::Find(declared_keys[index_of(u)], key); };
    auto flag = [&](const Unit& u, std::string_view key) { return Declarations::Flag(declared_keys[index_of(u)], key); };
    const double visibility_mm = c.visibility_in * c.mm_per_unit;
    const double support_reach_mm = c.support_distance_in * c.mm_per_unit;
    std::map<const Unit*, std::vector<const Unit*>> near;               // within the longest short reach, by id
    std::map<std::pair<const Unit*, const Unit*>, geom::Contact> touching;  // pairs within the contact tolerance
    const double near_mm = std::max({visibility_mm, support_reach_mm, c.contact_mm, c.at_mm}) + 1.0;
    for (const Unit* u : placed) {
      std::vector<const Unit*>& list = near[u];
      for (int j : grid.Near(index_of(*u), near_mm)) list.push_back(&scene.units[j]);
      std::sort(list.begin(), list.end(), [](const Unit* a, const Unit* b) { return a->id < b->id; });
      for (const Unit* o : list)
        if (grid.Gap(index_of(*u), index_of(*o)) <= c.contact_mm + 1e-6)
          touching[{u, o}] = geom::FindContact(grid.FootprintOf(index_of(*u)), grid.FootprintOf(index_of(*o)), c.contact_mm);
    }
    // Who fires at whom (declared targets), both ways.
    std::map<std::string, std::vector<const Unit*>> fired_at_by;  // target id -> firers, by id
    for (const Unit* u : placed)
      if (const Declared* d = declared(*u, "target"); d && d->value.is_string())
        fired_at_by[d->value.get<std::string>()].push_back(u);

    // Seed 81: in bad going when at least half the base frontage is in the terrain.
    // By index into scene.units, not by id: read for every neighbour of every unit.
    std::vector<double> frontage_in(scene.units.size(), 0.0);
    std::vector<char> bad_going(scene.units.size(), 0);
    auto in_bad = [&](const Unit& u) { return bad_going[index_of(u)] != 0; };
    std::vector<int> in_bad_going;  // the placed units in bad going, by index
    for (const Unit* u : placed) {
      const geom::Base& b = grid.FootprintOf(index_of(*u));
      frontage_in[index_of(*u)] = geom::FrontageInsideAny(b, bad);
      bad_going[index_of(*u)] = frontage_in[index_of(*u)] >= c.bad_going_frontage_share * b.width_mm - 1e-6;
      if (in_bad(*u)) in_bad_going.push_back(index_of(*u));
    }
    const bool any_bad = !in_bad_going.empty();
    auto gap = [&](const Unit& a, const Unit& b) {
      return geom::BaseToBase(grid.FootprintOf(index_of(a)), grid.FootprintOf(index_of(b))).distance_mm;
    };
    // Seed 80: visibility in or out of bad going is 1".
    auto hidden = [&](const Unit& a, const Unit& b) {
      return (in_bad(a) || in_bad(b)) && gap(a, b) > visibility_mm + 1e-9;
    };
    auto contact = [&](const Unit& a, const Unit& b) {
      auto it = touching.find({&a, &b});
      return it == touching.end() ? geom::Contact{} : it->second;
    };
    auto declared_int = [&](const Unit& u, const char* key) {
      const Declared* d = declared(u, key);
      if (!d) return 0;
      if (!d->value.is_number() || d->value.get<double>() < 0 || d->value.get<double>() != std::floor(d->value.get<double>()))
        throw InputError(scene.source, d->line, "declarations for " + u.id + ": " + key + " must be a whole number >= 0");
      return static_cast<int>(d->value.get<double>());
    };
    auto declared_target = [&](const Unit& u) -> const Unit* {
      const Declared* d = declared(u, "target");
      if (!d) return nullptr;
      const Unit* t = d->value.is_string() ? scene.FindUnit(d->value.get<std::string>()) : nullptr;
      if (!t || !t->pose || t->side == u.side)
        throw InputError(scene.source, d->line, "declarations for " + u.id + ": target must name a placed enemy unit");
      return t;
    };

    // Seed 27, 66: artillery fire at short or long range (edge to edge, inclusive); the sheet gives no
    // ranges, so without both set in fkoe.yaml or --set the band is "not judged".
    auto artillery_band = [&](const Unit& gun, const Unit& target) -> std::string {
      if (!c.artillery_short_range_in || !c.artillery_long_range_in) return "not judged";
      const double d = gap(gun, target);
      if (d <= *c.artillery_short_range_in * c.mm_per_unit + 1e-9) return "short";
      if (d <= *c.artillery_long_range_in * c.mm_per_unit + 1e-9) return "long";
      return "beyond long range";
    };

    json units = json::array();
    for (const Unit* up : placed) {
      const Unit& u = *up;
      const geom::Base ub = Footprint(u);
      const bool light_inf = u.type == UnitType::kInfantry && u.HasTag("light");
      const int disorder = declared_int(u, "disorder");
      if (disorder > 0) AppendStateGlyph(u, Glyph::kDisordered, &f.drawing);
      // `general_attached: true`, or the general's id (a C-n-C with no command of his own: +3, seed 59).
      bool general = flag(u, "general_attached");
      const Unit* attached = nullptr;
      if (const Declared* g = declared(u, "general_attached"); g && g->value.is_string()) {
        attached = scene.FindUnit(g->value.get<std::string>());
        if (!attached || attached->type != UnitType::kGeneral || attached->side != u.side)
          throw InputError(scene.source, g->line, "declarations for " + u.id + ": general_attached must be true or a general of its side");
        general = true;
      }
      const bool cinc_attached = attached && attached->HasTag("cinc") && attached->HasTag("no_command");
      json ju = JsonObject("id", u.id, "side", u.side, "type", std::string(ToString(u.type)),
                           "bad_going", JsonObject("in", in_bad(u), "frontage_in_terrain_mm", Round2(frontage_in[index_of(u)]),
                                                   "frontage_mm", Round2(ub.width_mm)),
                           "disorder", disorder);
      // Seed 80: in or out of bad going, units see each other only within 1 in. Listed: the enemies within
      // the report's reach (c.visibility_report_in) that the unit would otherwise see.
      std::vector<std::string> hidden_ids;
      const double report_mm = c.visibility_report_in * c.mm_per_unit;
      const bool u_bad = in_bad(u);
      if (any_bad) {
        // A unit out of bad going is hidden only from enemies in it: those few are looked at, not every
        // unit within the report's reach (a bounding circle further than that cannot be within it).
        for (int oi : u_bad ? grid.Near(index_of(u), report_mm) : in_bad_going) {
          const Unit& o = scene.units[oi];
          if (o.side == u.side || (!u_bad && !in_bad(o))) continue;
          if (!u_bad && grid.CircleGap(index_of(u), oi) > report_mm + 1e-3) continue;
          // The quick gap decides unless it is within rounding of a threshold; then the exact one does.
          const double g = grid.Gap(index_of(u), oi);
          const double d = std::abs(g - report_mm) < 1e-6 || std::abs(g - visibility_mm) < 1e-6 ? gap(u, o) : g;
          if (d <= report_mm + 1e-9 && d > visibility_mm + 1e-9) hidden_ids.push_back(o.id);
        }
        std::sort(hidden_ids.begin(), hidden_ids.end());
      }
      ju["cannot_see"] = hidden_ids;

      std::optional<double> cv;
      if (auto it = u.stats.find("combat_value"); it != u.stats.end()) cv = it->second;

      // Melee: every enemy in contact (seed 9, 13, 15).
      json melee = json::array();
      for (const Unit* e : near[up]) {
        const geom::Contact ue = contact(u, *e);
        if (e->side == u.side || !ue.in_contact || ue.corner_only) continue;  // corners touching: an overlap, not a melee
        Mods m;
        std::vector<std::string> flankers, overlappers;
        for (const Unit* fr : near[e]) {
          if (fr->side != u.side) continue;
          const geom::Contact ce = contact(*e, *fr);  // edge_a is the enemy's
          if (ce.in_contact && !ce.corner_only && IsFlankOrRear(ce.edge_a)) flankers.push_back(fr->id);
          if (fr == up) continue;
          // Overlap: side by side with this unit and touching the enemy (a corner is enough).
          const geom::Contact cu = contact(u, *fr);
          const bool beside = cu.in_contact && !cu.corner_only && (cu.edge_a == geom::Edge::kLeft || cu.edge_a == geom::Edge::kRight) &&
                              std::abs(geom::NormalizeDeg(fr->pose->heading_deg - u.pose->heading_deg)) <= 45.0;
          if (beside && ce.in_contact && !(ce.edge_b == geom::Edge::kFront && !ce.corner_only)) overlappers.push_back(fr->id);
        }
        m.Add(c.Cv("flank_rear_contact"), static_cast<int>(flankers.size()), flankers);
        m.Add(c.Cv("overlapping"), static_cast<int>(overlappers.size()), overlappers);
        if (e->formation == "road_column") m.Add(c.Cv("road_column"), 1, {e->id});
        if (general) m.Add(c.Cv("general_attached"), 1, {});
        if (disorder == 2) m.Add(c.Cv("two_disorder"), 1, {});
        if (in_bad(u) && !light_inf) m.Add(c.Cv("bad_going"), 1, {});
        const fkoe::Defence held = places.DefenceAgainst(u, *e);
        if (!held.strong_point_village_works.empty()) m.Add(c.Cv("defending_place"), 1, held.strong_point_village_works);
        melee.push_back(CombatEntry(e->id, m, cv));
        melee.back()["step"] = 5;
        AddTestLabel(u, "melee " + e->id, m, cv, &f);
        text << "  " << u.id << " in melee with " << e->id << " (step 5): " << Explain(m) << CvText(cv, m.total)
             << "; each hit: 1 Disorder Marker on " << e->id << " and possibly a recoil (seed 25-26)\n";
      }
      ju["melee"] = std::move(melee);

      // Firing at the declared target (seed 10-12, 17-18).
      if (const Unit* t = declared_target(u)) {
        Mods m;
        std::vector<std::string> support;
        const double support_mm = c.support_distance_in * c.mm_per_unit;
        for (const Unit* fr : near[up]) {
          if (fr == up || fr->side != u.side) continue;
          const bool aligned = std::abs(geom::NormalizeDeg(fr->pose->heading_deg - u.pose->heading_deg)) <=
                               c.support_max_heading_difference_deg;
          if (aligned && geom::InCorridor(ub, geom::Edge::kRear, support_mm, Footprint(*fr)).inside) support.push_back(fr->id);
        }
        m.Add(c.Cv("supporting"), static_cast<int>(support.size()), support);
        const Arc arc = geom::ArcOfPoint(Footprint(*t), geom::LeaderPoint(ub), geom::ArcModel::kTotsk);
        if (IsFlankOrRear(arc)) m.Add(c.Cv("fire_flank_rear"), 1, {t->id});
        if (t->formation == "road_column") m.Add(c.Cv("road_column"), 1, {t->id});
        if (disorder == 2) m.Add(c.Cv("two_disorder"), 1, {});
        const bool muskets = u.type == UnitType::kArtillery || u.HasTag("muskets");
        if (muskets && t->type == UnitType::kInfantry && t->HasTag("light")) m.Add(c.Cv("at_light_infantry"), 1, {t->id});
        if (in_bad(u) && !light_inf) m.Add(c.Cv("bad_going"), 1, {});
        const fkoe::Defence held = places.DefenceAgainst(u, *t);
        if (!held.strong_point_village_works.empty()) m.Add(c.Cv("defending_place"), 1, held.strong_point_village_works);
        json fire = CombatEntry(t->id, m, cv);
        fire["step"] = u.type == UnitType::kArtillery ? 2 : 4;
        fire["target_arc"] = std::string(geom::ToString(arc));
        fire["visible"] = !hidden(u, *t);
        if (u.type == UnitType::kArtillery) {
          const double d = gap(u, *t);
          fire["artillery"] = JsonObject("distance_mm", Round2(d), "distance_in", Round2(d / c.mm_per_unit), "range", artillery_band(u, *t));
          if (c.artillery_short_range_in) fire["artillery"]["short_range_in"] = *c.artillery_short_range_in;
          if (c.artillery_long_range_in) fire["artillery"]["long_range_in"] = *c.artillery_long_range_in;
        }
        ju["firing"] = std::move(fire);
        AddTestLabel(u, "fire at " + t->id, m, cv, &f);
        if (u.type == UnitType::kArtillery && artillery_band(u, *t) == "beyond long range") {
          text << "  " << u.id << " fires at " << t->id << ": cannot, " << t->id << " is beyond its long range ("
               << *c.artillery_long_range_in << " in, artillery_long_range_in; " << Round2(gap(u, *t) / c.mm_per_unit)
               << " in apart)\n";
        } else if (hidden(u, *t)) {
          // No odds for a shot that cannot be fired.
          text << "  " << u.id << " fires at " << t->id << ": cannot, it does not see " << t->id
               << " (in or out of bad going sight is 1 in, seed 80; " << Round2(gap(u, *t) / c.mm_per_unit) << " in apart)\n";
        } else {
          text << "  " << u.id << " fires at " << t->id
               << (u.type == UnitType::kArtillery ? " (step 2, artillery range: " + artillery_band(u, *t) + ")" : std::string(" (step 4)"))
               << ": " << Explain(m) << CvText(cv, m.total) << "; each hit: "
               << (u.type == UnitType::kArtillery && artillery_band(u, *t) == "long" ? "a morale test for " + t->id + " (seed 27)"
                                                                                    : "1 Disorder Marker on " + t->id + " (seed 24)")
               << "\n";
        }
      }

      // Morale 1D20 modifiers (seed 57-69).
      Mods mm;
      std::string fail_text;  // what a failed morale test means (seed 53, 73-75), set below
      if (cinc_attached) mm.Add(c.Morale("cinc_attached"), 1, {attached->id});
      else if (general) mm.Add(c.Morale("general_attached"), 1, attached ? std::vector<std::string>{attached->id} : std::vector<std::string>{});
      if (flag(u, "break_off")) mm.Add(c.Morale("break_off"), 1, {});
      if (flag(u, "forced_march")) mm.Add(c.Morale("forced_march"), 1, {});
      if (flag(u, "uphill")) mm.Add(c.Morale("uphill"), 1, {});
      if (c.command_range_in) {
        for (const Unit* g : placed) {
          if (g->side != u.side || g == up || g->type != UnitType::kGeneral || !g->HasTag("cinc") || !g->HasTag("no_command")) continue;
          if (gap(u, *g) <= *c.command_range_in * c.mm_per_unit + 1e-9) {
            mm.Add(c.Morale("cinc_in_range"), 1, {g->id});
            break;
          }
        }
      }
      mm.Add(c.Morale("per_disorder"), disorder, {});
      std::vector<std::string> fired_flank, melee_flank;
      const std::vector<const Unit*>& firers = fired_at_by[u.id];
      for (const Unit* e : firers)
        if (e->side != u.side && IsFlankOrRear(geom::ArcOfPoint(ub, geom::LeaderPoint(Footprint(*e)), geom::ArcModel::kTotsk)))
          fired_flank.push_back(e->id);
      for (const Unit* e : near[up]) {
        if (e->side == u.side) continue;
        const geom::Contact ce = contact(u, *e);
        if (ce.in_contact && !ce.corner_only && IsFlankOrRear(ce.edge_a)) melee_flank.push_back(e->id);
      }
      if (!fired_flank.empty()) mm.Add(c.Morale("fired_flank_rear"), 1, fired_flank);
      if (!melee_flank.empty()) mm.Add(c.Morale("melee_flank_rear"), 1, melee_flank);
      // Seed 60, 62: defending a village or works, or the bank of a stream, against the enemies engaging
      // this unit (in melee contact with it, or firing at it). With none, a village or works it is in.
      // Seed 66, 27: artillery firing at it at short range (-2), or at long range (a test if hit).
      std::set<std::string> village_works, banks;
      std::vector<std::string> short_guns, long_guns;
      bool engaged = false;
      std::vector<const Unit*> engaging = near[up];  // in contact, or firing at it: by id
      for (const Unit* e : firers)
        if (std::find(engaging.begin(), engaging.end(), e) == engaging.end()) engaging.push_back(e);
      std::sort(engaging.begin(), engaging.end(), [](const Unit* a, const Unit* b) { return a->id < b->id; });
      for (const Unit* e : engaging) {
        if (e->side == u.side) continue;
        const geom::Contact ce = contact(u, *e);
        const bool fires_at_u = std::find(firers.begin(), firers.end(), e) != firers.end();
        if (!(ce.in_contact && !ce.corner_only) && !fires_at_u) continue;
        engaged = true;
        const fkoe::Defence held = places.DefenceAgainst(u, *e);
        village_works.insert(held.village_works.begin(), held.village_works.end());
        banks.insert(held.stream_banks.begin(), held.stream_banks.end());
        if (fires_at_u && e->type == UnitType::kArtillery) {
          const std::string band = artillery_band(*e, u);
          if (band == "short") short_guns.push_back(e->id);
          if (band == "long") long_guns.push_back(e->id);
        }
      }
      if (!engaged)
        for (const std::string& id : places.VillagesWorksHeld(u)) village_works.insert(id);
      if (!village_works.empty())
        mm.Add(c.Morale("defending_village_works"), 1, {village_works.begin(), village_works.end()});
      if (!banks.empty()) mm.Add(c.Morale("stream_bank"), 1, {banks.begin(), banks.end()});
      if (!short_guns.empty()) mm.Add(c.Morale("artillery_short_range"), 1, short_guns);
      json morale = JsonObject("modifiers", mm.list, "total", mm.total);
      morale["not_judged"] = json::array();
      if (!c.command_range_in) morale["not_judged"].push_back("command range of C-n-C (set command_range_in)");
      if (!c.artillery_short_range_in || !c.artillery_long_range_in)
        morale["not_judged"].push_back("artillery short/long range (set artillery_short_range_in and artillery_long_range_in)");
      auto pass_odds = [&](RequiredTest* rt) {
        if (c.morale_pass_at_least) {
          // 1D20 + total >= K: faces K - total .. 20 pass.
          const int need = *c.morale_pass_at_least - mm.total;
          rt->p_success = std::clamp(21 - need, 0, 20) / 20.0;
          rt->odds = "1D20 " + Signed(mm.total) + " >= " + std::to_string(*c.morale_pass_at_least) + ": pass " +
                     std::to_string(static_cast<int>(std::lround(rt->p_success * 100))) + "%";
        } else {
          rt->odds = "1D20 " + Signed(mm.total) + " (the sheet gives no pass score: --set morale_pass_at_least=K)";
        }
      };
      if (!long_guns.empty()) {
        // Only if a shot hits; listed so the players see the test and its modifiers in advance.
        RequiredTest rt;
        rt.unit = u.id;
        rt.kind = "morale";
        std::string guns;
        for (const std::string& g : long_guns) guns += (guns.empty() ? "" : ", ") + g;
        rt.reason = "if hit by " + guns + " (artillery at long range): " + c.artillery_long_range_test;
        rt.modifiers = mm.modifiers;
        rt.total = mm.total;
        pass_odds(&rt);
        morale["artillery_long_range"] = JsonObject("by", long_guns, "test", rt.reason);
        f.tests.push_back(rt);
      }
      // Seed 52-55: 2 or 3 disorder markers test; 4 is eliminated without a test.
      if (disorder == 2 || disorder == 3) {
        RequiredTest rt;
        rt.unit = u.id;
        rt.kind = "morale";
        rt.reason = std::to_string(disorder) + " Disorder Markers: Morale Test (fail = " +
                    (disorder == 2 ? "Recoil & Withdrawal" : "Recoil & Eliminated") + ")";
        rt.modifiers = mm.modifiers;
        rt.total = mm.total;
        pass_odds(&rt);
        if (c.morale_pass_at_least) morale["p_pass"] = rt.p_success;
        morale["test"] = rt.reason;
        f.tests.push_back(rt);
      } else if (disorder >= 4) {
        morale["test"] = "4 Disorder Markers: Unit Recoils & Eliminated";
      }
      // Seed 29-40, STEP 4: one more Disorder Marker for each bullet that holds (once a bullet). Who takes
      // them: the units in the melee or shot at (step4_markers=engaged), or only those hit (if_hit).
      {
        const bool mounted = u.type == UnitType::kCavalry;
        const bool heavy_cav = mounted && u.HasTag("heavy");
        const bool light_cav = mounted && u.HasTag("light");
        const bool muskets_u = u.type == UnitType::kInfantry && u.HasTag("muskets");
        auto unlimbered_guns = [](const Unit& e) {
          return e.type == UnitType::kArtillery && e.formation != "limbered" && e.formation != "road_column";
        };
        // "Frontal contact": this unit's front edge against the enemy's front edge (both_fronts), or
        // against any edge of it (own_front).
        auto frontal = [&](const geom::Contact& ce) {
          return ce.edge_a == geom::Edge::kFront && (c.frontal_contact == "own_front" || ce.edge_b == geom::Edge::kFront);
        };
        std::vector<std::pair<std::string, std::vector<std::string>>> hold;  // bullet key -> enemies
        auto add = [&](const std::string& key, const std::string& by) {
          for (auto& [k, v] : hold)
            if (k == key) {
              if (!by.empty()) v.push_back(by);
              return;
            }
          hold.push_back({key, by.empty() ? std::vector<std::string>{} : std::vector<std::string>{by}});
        };
        bool in_melee = false;
        for (const Unit* e : near[up]) {
          if (e->side == u.side || e->type == UnitType::kGeneral) continue;
          const geom::Contact ce = contact(u, *e);
          if (!ce.in_contact || ce.corner_only) continue;
          in_melee = true;
          if (heavy_cav && frontal(ce) && (unlimbered_guns(*e) || e->HasTag("muskets"))) add("heavy_cavalry_frontal", e->id);
          if (light_cav && frontal(ce) && unlimbered_guns(*e)) add("light_cavalry_frontal", e->id);
          if (muskets_u && !in_bad(u) && e->type == UnitType::kCavalry && e->HasTag("heavy")) add("muskets_heavy_cavalry", e->id);
          if ((muskets_u || light_inf) && frontal(ce) && unlimbered_guns(*e)) add("foot_frontal_artillery", e->id);
          if (light_inf && !in_bad(u) && e->type == UnitType::kCavalry) add("light_infantry_mounted", e->id);
          if (u.type == UnitType::kArtillery) add("artillery_contact", e->id);
        }
        const bool shot_at = !firers.empty();
        if (mounted && in_bad(u) && (in_melee || shot_at)) add("mounted_bad_going", "");
        for (const std::string& id : fired_flank) add("flank_rear", id);
        for (const std::string& id : melee_flank) add("flank_rear", id);
        json bullets = json::array();
        int markers = 0;
        std::string words;
        for (const auto& [key, by] : hold) {
          const fkoe::RuleValue& r = c.extra_disorder.at(key);
          markers += r.value;
          bullets.push_back(JsonObject("rule", r.rule, "markers", r.value, "by", by));
          std::string b;
          for (const std::string& id : by) b += (b.empty() ? "" : ", ") + id;
          words += (words.empty() ? "" : "; ") + r.rule + (b.empty() ? "" : " (" + b + ")");
        }
        const bool if_hit = c.step4_markers == "if_hit";
        ju["step4"] = JsonObject("markers", markers, "bullets", std::move(bullets), "applies", if_hit ? "if hit" : "in this combat");
        if (markers > 0)
          text << "  " << u.id << " step 4: +" << markers << " Disorder Marker" << (markers == 1 ? "" : "s")
               << (if_hit ? " if hit" : "") << " (seed 29-40: " << words << ")\n";
      }
      // Seed 53, 73-75: what a failed test (or 4 markers) means: recoil one base depth, then withdraw.
      // Worked out only for a unit with 2 or more markers: the only ones whose report and text show it.
      if (disorder >= 2) {
        const bool mounted = u.type == UnitType::kCavalry;
        const int dice = mounted ? c.mounted_withdraw_dice : c.withdraw_dice;
        json on_fail = JsonObject("recoil_mm", Round2(ub.depth_mm), "recoil_in", Round2(ub.depth_mm / c.mm_per_unit));
        std::ostringstream w;
        w << "recoil one base depth (" << Round2(ub.depth_mm) << " mm = " << Round2(ub.depth_mm / c.mm_per_unit) << " in)";
        if (c.withdrawal == "dice") {
          on_fail["withdraw"] = JsonObject("dice", std::to_string(dice) + "D6", "min_in", dice, "max_in", 6 * dice,
                                           "min_mm", Round2(dice * c.mm_per_unit), "max_mm", Round2(6 * dice * c.mm_per_unit));
          w << ", then withdraw " << dice << "D6\" (" << dice << " to " << 6 * dice << " in = " << Round2(dice * c.mm_per_unit)
            << " to " << Round2(6 * dice * c.mm_per_unit) << " mm" << (mounted ? ", mounted" : "") << ", seed 74)";
        } else if (auto mv = u.stats.find("move_in"); mv != u.stats.end()) {
          on_fail["withdraw"] = JsonObject("full_move_in", mv->second, "full_move_mm", Round2(mv->second * c.mm_per_unit));
          w << ", then withdraw a full move (" << mv->second << " in = " << Round2(mv->second * c.mm_per_unit) << " mm, seed 53)";
        } else {
          on_fail["withdraw"] = {{"full_move_in", nullptr}};
          w << ", then withdraw a full move (seed 53; the sheet gives no move distance: stats move_in)";
        }
        w << ", ending the turn facing away from the enemy (seed 75)";
        on_fail["text"] = w.str();
        fail_text = w.str();
        morale["on_fail"] = std::move(on_fail);  // a failed long-range test only adds a marker (seed 27)
      }
      ju["morale"] = std::move(morale);
      if (!mm.modifiers.empty() || disorder >= 2 || !long_guns.empty()) {
        text << "  " << u.id << (in_bad(u) ? " (in bad going)" : "") << " morale on 1D20: " << Explain(mm) << "\n";
        for (const RequiredTest& rt : f.tests)
          if (rt.unit == u.id && rt.kind == "morale") text << "    morale test: " << rt.reason << ": " << rt.odds << "\n";
        if (disorder == 2) text << "    if it fails: " << fail_text << "\n";
        if (disorder == 3) text << "    if it fails: it recoils one base depth (" << Round2(ub.depth_mm)
                                << " mm) and is eliminated (seed 54)\n";
        if (disorder >= 4) text << "    4 Disorder Markers: the unit recoils and is eliminated (seed 55)\n";
      }
      if (options.report) units.push_back(std::move(ju));  // moved, not copied: a large list on a big table
    }
    // The text and JSON are written beside the judging, which needs most of what they say: they are
    // only kept when asked for.
    if (options.report)
      f.report = {{"ruleset", "fkoe"}, {"unit", c.unit_name}, {"mm_per_unit", c.mm_per_unit}, {"units", std::move(units)},
                  {"turn_sequence", c.turn_sequence},
                  {"settings", {{"step4_markers", c.step4_markers}, {"frontal_contact", c.frontal_contact}, {"withdrawal", c.withdrawal}}}};
    if (options.text) f.text = text.str();
    AppendOverlaps(scene, grid, c.contact_mm, options, &f);
    return f;
  }

  // Seed 53, 73-75: a unit that failed its morale test with 2 Disorder Markers (declared `recoil: true`)
  // recoils one base depth, then withdraws 1D6" (mounted 2D6"; `withdraw_in: N` the roll, when known) and
  // ends the turn facing away from the enemy. The sheet has no movement table: other moves are not judged.
  MoveCheck CheckMove(const Scene& scene, const MoveRequest& move) const override {
    MoveCheck m;
    const Unit* u = scene.FindUnit(move.unit);
    if (!u || !u->pose || !scene.declarations.Flag(u->id, "recoil")) return m;  // not judged
    CheckDeclarationKeys(scene, "fkoe", kDeclarationKeys);
    fkoe::FkoeConfig c = config_;
    std::map<std::string, std::string> scene_settings;
    for (const auto& [k, d] : scene.declarations.settings)
      scene_settings[k] = d.value.is_string() ? d.value.get<std::string>() : d.value.dump();
    fkoe::ApplySettings(scene_settings, &c);
    fkoe::ApplySettings(options_.settings, &c);
    m.supported = true;
    m.kinds = {"recoil_and_withdrawal"};
    Unit moved = *u;
    moved.pose = move.to;
    const geom::Base from = Footprint(*u), to = Footprint(moved);
    const double turn = std::abs(geom::NormalizeDeg(to.heading_deg - from.heading_deg));
    const geom::Vec2 delta = to.centre_mm - from.centre_mm;
    const double dist = delta.norm();
    const double back = dist > 1e-6 ? delta.normalized().dot(-geom::Forward(from)) : 1.0;
    const double inch = c.mm_per_unit, slack = c.placement_in * inch, recoil = from.depth_mm;
    const bool mounted = u->type == UnitType::kCavalry;
    const int dice = mounted ? c.mounted_withdraw_dice : c.withdraw_dice;
    double lo = recoil + dice * inch, hi = recoil + 6.0 * dice * inch;
    std::string what = std::to_string(dice) + "D6\" withdrawal (seed 74)";
    if (const Declared* w = scene.declarations.Find(u->id, "withdraw_in")) {
      if (!w->value.is_number() || w->value.get<double>() < 0)
        throw InputError(scene.source, w->line, "declarations for " + u->id + ": withdraw_in must be a distance in inches >= 0");
      lo = hi = recoil + w->value.get<double>() * inch;
      what = "withdrawal of " + Num(w->value.get<double>()) + " in rolled";
    } else if (c.withdrawal == "full_move") {
      auto mv = u->stats.find("move_in");
      if (mv == u->stats.end()) {
        lo = 0.0;
        hi = 1e12;
        what = "full move withdrawal (seed 53; no stats move_in: the distance is not judged)";
      } else {
        lo = hi = recoil + mv->second * inch;
        what = "full move withdrawal of " + Num(mv->second) + " in (seed 53)";
      }
    }
    auto text_in = [&](double mm) { return Num(Round2(mm / inch)) + " in (" + Num(Round2(mm)) + " mm)"; };
    if (turn < 180.0 - c.turn_deg) {
      m.legal = false;
      m.illegal_reason = "a recoiling unit ends the turn facing away from the enemy (seed 75): it turned " +
                         std::to_string(std::lround(turn)) + " degrees";
    } else if (dist > slack && back < std::cos(geom::DegToRad(c.turn_deg))) {
      m.legal = false;
      m.illegal_reason = "a recoil goes straight back, away from the enemy (seed 73)";
    } else if (dist < lo - slack || dist > hi + slack) {
      m.legal = false;
      m.illegal_reason = "it moved " + text_in(dist) + ": a recoil of one base depth (" + text_in(recoil) + ") and a " + what +
                         " is " + (lo == hi ? text_in(lo) : text_in(lo) + " to " + text_in(hi)) + ", within " + text_in(slack);
    }
    m.report = {{"ruleset", "fkoe"},
                {"unit", u->id},
                {"legal", m.legal},
                {"illegal_reason", m.legal ? json(nullptr) : json(m.illegal_reason)},
                {"kinds", m.kinds},
                {"tests", json::array()},
                {"distance_mm", Round2(dist)},
                {"distance_in", Round2(dist / inch)},
                {"recoil_mm", Round2(recoil)},
                {"allowed_mm", {{"min", Round2(lo)}, {"max", hi > 1e11 ? json(nullptr) : json(Round2(hi))}}}};
    m.text = "For King or Empress move of " + u->id + ": " + (m.legal ? "legal" : "ILLEGAL: " + m.illegal_reason) +
             "\n  kind: recoil one base depth, then withdraw, facing away (seed 53, 73-75); moved " + text_in(dist) + "\n";
    return m;
  }

  std::vector<PairRule> PairRules(const Scene& scene, const std::string& from, const std::string& to) const override {
    const Unit* a = scene.FindUnit(from);
    const Unit* b = scene.FindUnit(to);
    if (!a || !b || !a->pose || !b->pose) throw InputError(scene.source, 0, "both units must be in the scene with a pose");
    const double g = geom::BaseToBase(Footprint(*a), Footprint(*b)).distance_mm;
    std::vector<PairRule> rules;
    rules.push_back(OverlapRule(*a, *b, config_.contact_mm));
    const fkoe::FkoeConfig& c = config_;
    auto in = [](double v) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%g in", v);
      return std::string(buf);
    };
    // Every distance the sheet (seed 004) sets between two units, or that a setting gives it. The list
    // depends on the units' sides and types and the settings only, never on where they stand.
    rules.push_back({"in contact: melee (seed 9, 15), edge to edge within the 2 mm slack", "edge_to_edge", c.contact_mm, g});
    rules.push_back({"within " + in(c.visibility_in) + ": all they see of each other when either is in bad going (seed 80)",
                     "edge_to_edge", c.visibility_in * c.mm_per_unit, g});
    for (const auto& [x, y] : {std::pair{a, b}, std::pair{b, a}}) {
      const geom::Base fx = Footprint(*x), fy = Footprint(*y);
      if (x->side == y->side) {
        // Seed 11 "+1 If Firing, for each friendly supporting unit": behind the firer (fkoe.yaml support_distance_in).
        rules.push_back({x->id + " supports " + y->id + "'s fire: within " + in(c.support_distance_in) +
                             " behind its rear edge, facing within 45 degrees (seed 11; the distance is fkoe.yaml's, the sheet gives none)",
                         "rear_reach", c.support_distance_in * c.mm_per_unit,
                         geom::InCorridor(fy, geom::Edge::kRear, c.support_distance_in * c.mm_per_unit, fx).reach_mm});
        // Seed 63: the C-n-C's command range, a setting.
        if (c.command_range_in && x->type == UnitType::kGeneral && x->HasTag("cinc") && x->HasTag("no_command"))
          rules.push_back({y->id + " in command range of " + x->id + ", " + in(*c.command_range_in) + ": morale +1 (seed 63; command_range_in)",
                           "edge_to_edge", *c.command_range_in * c.mm_per_unit, g});
        continue;
      }
      // Seed 27, 66: artillery at short range (-2 morale) and long range (a test if hit), settings.
      if (x->type == UnitType::kArtillery) {
        if (c.artillery_short_range_in)
          rules.push_back({y->id + " at " + x->id + "'s short range, " + in(*c.artillery_short_range_in) +
                               ": -2 to its morale if fired on (seed 66; artillery_short_range_in)",
                           "edge_to_edge", *c.artillery_short_range_in * c.mm_per_unit, g});
        if (c.artillery_long_range_in)
          rules.push_back({y->id + " within " + x->id + "'s long range, " + in(*c.artillery_long_range_in) +
                               ": a hit means a morale test (seed 27; artillery_long_range_in)",
                           "edge_to_edge", *c.artillery_long_range_in * c.mm_per_unit, g});
      }
    }
    return rules;
  }

 private:
  static std::string Signed(int v) { return (v >= 0 ? "+" : "") + std::to_string(v); }
  // As printf's "%g" and "%.0f" (std::to_chars with a format and precision is specified to print
  // what they print), at a fraction of snprintf's cost: these run for every combat on the table.
  static std::string Num(double v) {
    char buf[32];
    return std::string(buf, std::to_chars(buf, buf + sizeof buf, v, std::chars_format::general, 6).ptr);
  }
  static std::string Whole(double v) {
    char buf[32];
    return std::string(buf, std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed, 0).ptr);
  }
  // "+2 In Melee, for each friendly unit in contact with an enemy's Flank or Rear (B2), -2 ... ; total +0"
  static std::string Explain(const Mods& m) {
    if (m.modifiers.empty()) return "no modifier";
    std::string out;
    for (const Modifier& x : m.modifiers) {
      std::string by;
      for (const std::string& id : x.by) by += (by.empty() ? "" : ", ") + id;
      out += (out.empty() ? "" : ", ") + Signed(x.value) + " " + x.rule + (by.empty() ? "" : " (" + by + ")");
    }
    return out + "; total " + Signed(m.total);
  }
  // Seed 20: "; CV 4 -> 7: first hit 100%, second hit 17%" (nothing without a combat value).
  static std::string CvText(const std::optional<double>& cv, int mods) {
    if (!cv) return "; no combat_value in its stats, so no hit odds";
    const double v = *cv + mods;
    std::string out = "; CV " + Num(*cv) + " -> " + Num(v) + ": hits on 1D6 <= " + Num(v) + ", first hit " +
                      Whole(100.0 * std::clamp(std::floor(v), 0.0, 6.0) / 6.0) + "%";
    if (v > 6) out += ", second hit " + Whole(100.0 * std::clamp(std::floor(v) - 6.0, 0.0, 6.0) / 6.0) + "% (seed 18-20)";
    return out;
  }
  static std::string Total(const std::optional<double>& cv, int mods) {
    if (!cv) return "";
    return " -> CV " + Num(*cv + mods);
  }
  // Seed 20: roll 1D6 <= CV to hit; above 6, one hit is automatic and a second needs 1D6 <= CV - 6.
  static json CombatEntry(const std::string& enemy, const Mods& m, const std::optional<double>& cv) {
    json e = JsonObject("enemy", enemy, "modifiers", m.list, "total_modifier", m.total);
    if (cv) {
      const double v = *cv + m.total;
      e["combat_value"] = *cv;
      e["modified_combat_value"] = v;
      e["p_first_hit"] = std::clamp(std::floor(v), 0.0, 6.0) / 6.0;
      e["p_second_hit"] = std::clamp(std::floor(v) - 6.0, 0.0, 6.0) / 6.0;
    }
    return e;
  }
  void AddTestLabel(const Unit& u, const std::string& what, const Mods& m, const std::optional<double>& cv, Findings* f) const {
    DrawPrimitive l;
    l.kind = DrawKind::kLabel;
    l.style = DrawStyle::kTest;
    l.points_mm = {Footprint(u).centre_mm};
    l.text = what + ": CV " + Signed(m.total) + Total(cv, m.total);
    l.layer = "tests";
    l.unit_id = u.id;
    f->drawing.push_back(l);
  }

  RulesetOptions options_;
  fkoe::FkoeConfig config_;
};

}  // namespace

std::unique_ptr<Ruleset> MakeFkoeRuleset(const RulesetOptions& options) { return std::make_unique<FkoeRuleset>(options); }

}  // namespace vedette
