// `--ruleset kow`: Kings of War (seed 002). For every unit: the enemies it may charge (front arc, sight,
// leader point to base within twice its speed, the facing hit, room for a route with one pivot, no
// corner-to-corner contact), the 1-inch rule, shooting targets per weapon with cover, and the odds of
// its nerve test when damage is declared. Distances in inches; arcs by the kow model.
#include <cmath>
#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>

#include "rules/declaration_keys.h"
#include "rules/geometry/distance.h"
#include "rules/input_error.h"
#include "rules/json_object.h"
#include "rules/kow/analysis.h"
#include "rules/kow/attack.h"
#include "rules/kow/kow_move.h"
#include "rules/kow/multi_charge.h"
#include "rules/overlaps.h"
#include "rules/ruleset.h"
#include "rules/scene_drawing.h"
#include "rules/unit_grid.h"
#include "rules/unit_key.h"

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
      : config_(kow::LoadKowConfig((options.assets_dir.empty() ? AssetsDir() : options.assets_dir) + "/rulesets/kow.yaml")) {
    kow::ApplyKowSettings(options.settings, &config_);
  }

  RulesetInfo Info() const override {
    RulesetInfo info{"kow", config_.title, config_.unit_name, geom::ArcModel::kKow, kow::KowSettingKeys()};
    info.unit_mm = config_.mm_per_unit;
    return info;
  }

  Findings Analyze(const Scene& scene, const AnalyzeOptions& options) const override {
    Findings f;
    f.ruleset = "kow";
    const kow::KowConfig& c = config_;
    CheckDeclarationKeys(scene, "kow", DeclarationKeys());
    std::ostringstream text;
    text << c.title << " (arcs: kow, 1 " << c.unit_name << " = " << c.mm_per_unit << " mm; units with nothing in reach or range are not listed)\n";
    f.drawing.reserve(scene.terrain.size() + 16 * scene.units.size());  // about what a crowded table draws
    AppendSceneOutlines(scene, &f.drawing);
    // Who is near whom, once: every rule below reaches a bounded distance (charge reach, weapon range,
    // 1 inch, contact), so each unit looks only at the units the grid puts within that distance.
    const int n = static_cast<int>(scene.units.size());
    // The reuse between calls (memo_, under its lock): this call's keys, and the chunks it keeps.
    std::lock_guard<std::mutex> lock(memo_mutex_);
    std::vector<uint64_t> unit_keys(scene.units.size(), 0);  // UnitKey of each placed unit
    for (int i = 0; i < n; ++i)
      if (scene.units[i].pose) unit_keys[i] = UnitKey(scene.units[i]);
    KeyMix terrain;
    terrain.U(TerrainKey(scene));
    kow::KowTable table = TableOf(scene, unit_keys, terrain.h);
    Keys keys = OwnKeys(scene, table, unit_keys, terrain.h);
    Memo next;
    const Changes changes = ChangesOf(scene, table, keys, &next);
    NeighbourKeys(scene, table, changes, &keys, &next);
    memo_.made = false;  // checks are moved out of it below: should this call throw, the next reuses none
    Call k(scene, c, table, changes, options, memo_);
    json units = json::array();
    units.get_ref<json::array_t&>().reserve(scene.units.size());
    std::map<std::string, std::vector<Candidate>> candidates;  // target id -> who can charge it, and how
    // Appends a unit's chunk to the findings: its lines under its name (when it has any), its report, its
    // drawing and tests, and the charges it could make (for the joint charges below).
    auto emit = [&](const Unit& u, const kow::Profile& p, const UnitChunk& chunk) {
      if (k.want_text && !chunk.lines.empty()) {
        text << "  " << u.id << " (" << ToString(u.type);
        if (p.speed_in) {
          char sp[32];
          std::snprintf(sp, sizeof sp, "%g", *p.speed_in);
          text << ", speed " << sp << " in";
        }
        text << "):\n" << chunk.lines;
      }
      if (k.want_report) units.push_back(chunk.ju);
      f.drawing.insert(f.drawing.end(), chunk.drawing.begin(), chunk.drawing.end());
      f.tests.insert(f.tests.end(), chunk.tests.begin(), chunk.tests.end());
      for (const auto& [target, cand] : chunk.candidates) candidates[target].push_back(cand);
    };
    for (int ui = 0; ui < n; ++ui) {
      const Unit& u = scene.units[ui];
      if (!u.pose) continue;
      // Reuse: a unit whose own data and whose neighbourhood (every unit and terrain piece its rules
      // can reach) are as in the last call gets the same lines, so they are not worked out again.
      // Likewise when something within its reach changed but nothing it read (ChunkStillHolds).
      uint64_t key = keys.unit[ui];
      const auto it = memo_.units.find(u.id);
      UnitChunk* prev = it != memo_.units.end() ? &it->second : nullptr;
      const bool has_words = prev && (prev->has_report || !k.want_report) && (prev->has_text || !k.want_text);
      if (!changes.all && has_words && ((!keys.unit_last[ui] && prev->key == key) || ChunkStillHolds(k, ui, *prev))) {
        prev->key = key;
        emit(u, table.profile[ui], *prev);
        continue;
      }
      if (keys.unit_last[ui]) key = UnitKeyOf(scene, table, keys, ui, ReachOf(table, ui, keys.max_r, nullptr), nullptr);
      // The chunk is replaced where it is kept (its checks moved out to the new one as they serve).
      UnitChunk chunk = WorkOut(k, ui, key, prev);
      emit(u, table.profile[ui], chunk);
      if (prev) *prev = std::move(chunk);
      else memo_.units.emplace(u.id, std::move(chunk));
    }
    std::unordered_map<std::string_view, int> index_of;  // unit id -> scene index
    index_of.reserve(scene.units.size());
    for (int i = 0; i < n; ++i) index_of.emplace(scene.units[i].id, i);
    // The chunks of units lifted off the table or gone from the roster are dropped.
    for (auto it = memo_.units.begin(); it != memo_.units.end();) {
      const auto at = index_of.find(it->first);
      it = at == index_of.end() || !scene.units[at->second].pose ? memo_.units.erase(it) : std::next(it);
    }
    next.units = std::move(memo_.units);
    json multi = MultiCharges(scene, table.grid, candidates, keys, index_of, options, &next, &f, &text);
    next.engaged = std::move(k.engaged);
    next.id_rank = std::move(k.id_rank);
    next.made = true;
    memo_ = std::move(next);
    if (k.want_report) {
      f.report = json::object();
      f.report["ruleset"] = "kow";
      f.report["unit"] = c.unit_name;
      f.report["mm_per_unit"] = c.mm_per_unit;
      f.report["arc_model"] = "kow";
      f.report["units"] = std::move(units);
      f.report["multi_charges"] = std::move(multi);
    }
    if (k.want_text) f.text = text.str();
    AppendOverlaps(scene, table.grid, kOverlapToleranceMm, options, &f);
    memo_.table.emplace(std::move(table));
    memo_.table_keys = std::move(unit_keys);
    return f;
  }

  // This call's table: a unit whose own data (unit_keys, by index) and the terrain are as they were
  // for the last finished call's table, at the same index, takes its entries from that table.
  kow::KowTable TableOf(const Scene& scene, const std::vector<uint64_t>& unit_keys, uint64_t terrain) const {
    std::optional<kow::KowTable> last = std::move(memo_.table);
    memo_.table.reset();  // moved from below: a call that throws leaves none to the next
    std::vector<char> same(unit_keys.size(), 0);
    if (last && memo_.made && memo_.terrain == terrain)
      for (size_t i = 0; i < same.size() && i < memo_.table_keys.size(); ++i)
        same[i] = unit_keys[i] != 0 && unit_keys[i] == memo_.table_keys[i];
    return kow::KowTable(scene, config_, last ? &*last : nullptr, same);
  }

  // Every distance Kings of War sets between two units, both ways (each rule with the seed line it
  // rests on): base contact (seed 13, 32), the 1-inch rule (seed 10), each unit's charge reach (seed 13;
  // the counter-charge's is the same, seed 27) and each of its weapon ranges (seed 34, 74). Whether the
  // other unit is in the front arc, which charges and shots also need, is said in the rule's words.
  std::vector<PairRule> PairRules(const Scene& scene, const std::string& from, const std::string& to) const override {
    const Unit* a = scene.FindUnit(from);
    const Unit* b = scene.FindUnit(to);
    if (!a || !b || !a->pose || !b->pose) throw InputError(scene.source, 0, "both units must be in the scene with a pose");
    const kow::KowConfig& c = config_;
    const double gap = geom::BaseToBase(Footprint(*a), Footprint(*b)).distance_mm;
    std::vector<PairRule> rules;
    rules.push_back(OverlapRule(*a, *b, c.contact_mm));
    rules.push_back({"in base contact (engaged in melee: neither shoots nor is shot at, seed 13, 32)", "edge_to_edge", c.contact_mm, gap});
    if (a->side != b->side)
      rules.push_back({"within 1 in: no move but a charge may end this close to an enemy (seed 10)", "edge_to_edge",
                       c.one_inch_in * c.mm_per_unit, gap});
    for (const auto& [x, y] : {std::pair{a, b}, std::pair{b, a}}) {
      if (x->side == y->side) continue;
      const kow::Profile p = kow::ProfileOf(*x, c);
      const geom::Base xb = Footprint(*x), yb = Footprint(*y);
      const bool in_arc = geom::ArcShareOf(xb, yb, geom::Arc::kFront, geom::ArcModel::kKow) > 1e-9;
      const std::string arc = in_arc ? "; " + y->id + " is partly in its front arc" : "; " + y->id + " is not in its front arc";
      char buf[64];
      if (p.speed_in && !c.cannot_charge.count(std::string(ToString(x->type)))) {
        std::snprintf(buf, sizeof buf, "%g", c.charge_range_factor * *p.speed_in);
        rules.push_back({x->id + "'s charge reach: its leader point to " + y->id + "'s base <= twice its speed, " + buf +
                             " in (seed 13" + arc + ")",
                         "leader_to_closest", c.charge_range_factor * *p.speed_in * c.mm_per_unit,
                         geom::LeaderToBase(xb, yb).distance_mm});
      }
      for (const auto& [weapon, range_in] : p.weapons) {
        std::snprintf(buf, sizeof buf, "%g", range_in);
        rules.push_back({x->id + "'s " + (weapon == "range" ? std::string("ranged attack") : weapon) + " range, " + buf +
                             " in, base to base (seed 34" + (x->type == UnitType::kArtillery ? ", 74" : "") + arc + ")",
                         "edge_to_edge", range_in * c.mm_per_unit, gap});
      }
    }
    return rules;
  }

  MoveCheck CheckMove(const Scene& scene, const MoveRequest& move) const override {
    CheckDeclarationKeys(scene, "kow", DeclarationKeys());
    return kow::CheckKowMove(config_, scene, move);
  }

 private:
  struct Candidate {
    std::string unit;
    std::string kind;  // "charge" or "counter-charge"
    kow::ChargerOnFacing on;
  };

  // Reuse between calls. On a table watched frame after frame most units stand still: a unit's lines
  // depend only on its own data and on the units and terrain its rules can reach (charge reach and the
  // route round obstacles, weapon ranges and the sight lines to targets, 1 inch, contact), so a unit
  // whose own data and neighbourhood hash to the same key as in the last call gets the same chunk back.
  // Likewise the joint charges on a target. Only the last call's chunks are kept.
  struct UnitChunk {
    uint64_t key = 0;
    bool has_report = false, has_text = false;  // its words: a chunk serves a call that asks for no more
    json ju;
    std::string lines;
    std::vector<DrawPrimitive> drawing;
    std::vector<RequiredTest> tests;
    std::vector<std::pair<std::string, Candidate>> candidates;  // (target id, how this unit may charge it)
    // The enemies its charges and each weapon's shots looked at (scene indices, in id order): a later
    // call patches them for the units that changed instead of listing them again (TargetsOf).
    std::optional<std::vector<int>> charge_targets;
    std::vector<std::optional<std::vector<int>>> shot_targets;  // by weapon, in the profile's order
    // Its shots' checks by target and weapon (ShotKey) and its charges' checks by target (scene
    // indices: they serve a call whose units are in the same order, Changes::same_order), each with
    // the regions it read: the sight fan (kow::SightFan: all that sight and cover read besides the
    // two units and the terrain) and, for a charge that searched a route, the poses the search
    // tested against obstacles (kow::RouteReads). When something else near the unit changed, a check
    // is reused unless the two units changed or a changed unit may reach into one of its regions
    // (Changes); when only the sight fan is reached, the route still serves (kow::CheckCharge's
    // same_route).
    struct ShotMemo {
      kow::ReachRegion sight;
      kow::ShotCheck check;
    };
    std::unordered_map<uint64_t, ShotMemo> shots;
    static uint64_t ShotKey(int target, size_t weapon) { return (static_cast<uint64_t>(target) << 32) | static_cast<uint32_t>(weapon); }
    struct ChargeMemo {
      kow::ReachRegion sight;
      std::optional<kow::RouteReads> route;  // where its route search read obstacles (ChargeRoute::read_in)
      kow::ChargeCheck check;
    };
    std::unordered_map<int, ChargeMemo> charges;
  };
  struct TargetChunk {
    uint64_t key = 0;
    bool has_words = false;  // entry and line (every set of its chargers); else the drawing alone
    json entry;
    std::string line;
    std::vector<DrawPrimitive> drawing;
  };
  struct Memo {
    std::unordered_map<std::string, UnitChunk> units;
    std::unordered_map<std::string, TargetChunk> targets;
    // What every placed unit was in the call that made this memo: its own key (Keys::own) and where it
    // stood; and the terrain's key.
    struct Placed {
      bool placed = false;
      uint64_t key = 0;  // Keys::own
      geom::Base base;   // its footprint
    };
    std::vector<Placed> own;  // by scene index (of `order`)
    uint64_t terrain = 0;
    // The scene's units in order (their keys hash their indices), the largest bounding radius (the
    // reaches add it), and each placed unit's key as a target.
    std::vector<std::string> order;
    double max_r = 0.0;
    std::vector<uint64_t> target_keys;  // by scene index (Keys::target): read only in the same order
    bool made = false;  // by a call that finished
    // That call's table, and the UnitKey of each placed unit it was made for (by scene index, 0 when
    // not placed): the next call's table takes the unchanged units' entries from it (TableOf).
    std::optional<kow::KowTable> table;
    std::vector<uint64_t> table_keys;
    // That call's Call::engaged and Call::id_rank (by scene index): the next call keeps them for the
    // units in the same order that no changed unit came near.
    std::vector<std::vector<std::string>> engaged;
    std::vector<int> id_rank;
  };
  struct Keys {
    std::vector<uint64_t> unit;    // by scene index: the unit and everything its rules reach
    // By scene index: unit[i] is its last chunk's key though a changed unit came within its reach;
    // this call's key is worked out only if the chunk is worked out again (Analyze).
    std::vector<char> unit_last;
    std::vector<uint64_t> target;  // by scene index: the unit and the units near enough to stand in chargers' way
    std::vector<uint64_t> own;     // by scene index: the unit's own data
    uint64_t terrain = 0;          // every terrain piece
    double max_r = 0.0;            // the largest bounding radius of a placed unit, mm
  };
  // Each unit's own key, the terrain's, and the largest bounding radius (what the reaches add).
  // `unit_keys`: UnitKey of each placed unit; `terrain`: the terrain's key.
  Keys OwnKeys(const Scene& scene, const kow::KowTable& t, const std::vector<uint64_t>& unit_keys, uint64_t terrain) const {
    const size_t n = scene.units.size();
    Keys k;
    k.own.assign(n, 0);
    for (size_t i = 0; i < n; ++i) {
      if (!t.grid.Placed(static_cast<int>(i))) continue;
      KeyMix h;
      h.U(unit_keys[i]), h.U(UnitDeclarationsKey(scene.declarations, scene.units[i].id));
      k.own[i] = h.h;
      k.max_r = std::max(k.max_r, t.grid.Radius(static_cast<int>(i)));
    }
    k.terrain = terrain;
    return k;
  }
  // What changed since the last call: the units whose own data differ (moved, turned, declared,
  // placed or lifted), with where they stood then and stand now. `all`: nothing may be reused (the
  // first call, or the terrain changed).
  struct Changes {
    bool all = true;
    bool same_order = false;         // the scene's units in the last call's order: indices still hold
    std::vector<char> unit;          // by scene index: this unit changed
    std::vector<int> moved;          // the placed units that changed, by scene index
    std::vector<geom::Base> places;  // the changed units' footprints, before and after
    template <class Region>
    bool Touch(const Region& r) const {
      for (const geom::Base& b : places)
        if (r.MayReach(b)) return true;
      return false;
    }
    std::vector<double> place_radius;  // each place's bounding radius, mm (Near asks it for every unit)
    // Whether one of `places` may come within reach_mm of unit i's base (bounding circles, 1 mm to spare).
    bool Near(const UnitGrid& grid, int i, double reach_mm) const {
      const geom::Base& b = grid.FootprintOf(i);
      for (size_t k = 0; k < places.size(); ++k)
        if ((places[k].centre_mm - b.centre_mm).norm() <= reach_mm + grid.Radius(i) + place_radius[k] + 1.0) return true;
      return false;
    }
  };
  // Fills next->own and next->terrain for the next call, and compares them with the last call's.
  Changes ChangesOf(const Scene& scene, const kow::KowTable& table, const Keys& keys, Memo* next) const {
    Changes c;
    c.unit.assign(scene.units.size(), 1);
    next->terrain = keys.terrain;
    const size_t n = scene.units.size();
    next->order.reserve(n);
    for (const Unit& u : scene.units) next->order.push_back(u.id);
    next->own.resize(n);
    for (size_t i = 0; i < n; ++i)
      if (table.grid.Placed(static_cast<int>(i))) next->own[i] = {true, keys.own[i], table.grid.FootprintOf(static_cast<int>(i))};
    if (!memo_.made || memo_.terrain != keys.terrain) return c;
    c.all = false;
    c.same_order = memo_.order == next->order;
    const std::vector<int> last = LastIndices(next->order, c.same_order);
    std::vector<char> still(memo_.own.size(), 0);  // placed then and now
    for (size_t i = 0; i < n; ++i) {
      if (!next->own[i].placed) continue;
      const Memo::Placed* was = last[i] >= 0 && memo_.own[last[i]].placed ? &memo_.own[last[i]] : nullptr;
      if (was) still[last[i]] = 1;
      c.unit[i] = !was || was->key != keys.own[i];
      if (!c.unit[i]) continue;
      c.moved.push_back(static_cast<int>(i));
      c.places.push_back(table.grid.FootprintOf(static_cast<int>(i)));
      if (was) c.places.push_back(was->base);
    }
    for (size_t j = 0; j < memo_.own.size(); ++j)  // lifted off the table, or gone from the roster
      if (memo_.own[j].placed && !still[j]) c.places.push_back(memo_.own[j].base);
    for (const geom::Base& p : c.places) c.place_radius.push_back(std::hypot(p.width_mm, p.depth_mm) / 2.0);
    return c;
  }
  // Each unit's index in the last call's scene (by id; -1 when it was not there).
  std::vector<int> LastIndices(const std::vector<std::string>& order, bool same_order) const {
    std::vector<int> last(order.size(), -1);
    if (same_order) {
      for (size_t i = 0; i < order.size(); ++i) last[i] = static_cast<int>(i);
      return last;
    }
    std::unordered_map<std::string_view, int> at;
    for (size_t j = 0; j < memo_.order.size(); ++j) at.emplace(memo_.order[j], static_cast<int>(j));
    for (size_t i = 0; i < order.size(); ++i)
      if (const auto it = at.find(order[i]); it != at.end()) last[i] = it->second;
    return last;
  }
  // How far (bounding circle to bounding circle) anything unit i's lines read can stand: a charge
  // target's base within the listed reach of the leader point, the route's obstacles and the sight
  // lines' occluders within two more bounding radii of each unit; a counter-charge's route twice as
  // far round its target; a shot's target within the weapon range, its occluders and whoever it is
  // in contact with within two radii more; 1 inch and contact. Then 10 mm to spare.
  // charged_by: the unit's `charged_by` declaration, if any.
  double ReachOf(const kow::KowTable& t, size_t i, double max_r, const Declared* charged_by) const {
    const kow::KowConfig& c = config_;
    const kow::Profile& p = t.profile[i];
    const double r4 = 4.0 * max_r;
    double reach = c.one_inch_in * c.mm_per_unit + c.contact_mm;
    const double range = p.speed_in ? c.charge_range_factor * *p.speed_in * c.mm_per_unit : 0.0;
    if (p.speed_in) reach = std::max(reach, range + c.near_miss_in * c.mm_per_unit + r4);
    for (const auto& w : p.weapons) reach = std::max(reach, w.second * c.mm_per_unit + 2.0 * max_r + c.contact_mm);
    // A counter-charge (seed 27) searches twice as far round its target, wherever that stands.
    if (charged_by) reach = std::max(reach, 2.0 * range + 2.0 * r4);
    return reach + 10.0;
  }
  // Each unit's key of everything its rules reach, and its key as a target (the units near enough to
  // stand in chargers' way). A unit with no changed unit (where it stood before or stands now) within
  // those reaches has the same neighbours with the same keys as in the last call: its keys are the
  // last call's, without asking the grid (on a still table, that was half of a frame). One with a
  // change within reach keeps its last key too, marked (unit_last): most such chunks still hold
  // (ChunkStillHolds), and a chunk's key need only be that of some table it answers for. A chunk
  // that holds answers for this table as for the one its key hashes; its key is compared again only
  // with a key worked out afresh, equal only for that table.
  void NeighbourKeys(const Scene& scene, const kow::KowTable& t, const Changes& changes, Keys* k, Memo* next) const {
    const size_t n = scene.units.size();
    k->unit.assign(n, 0);
    k->unit_last.assign(n, 0);
    k->target.assign(n, 0);
    next->max_r = k->max_r;
    const bool same_table = !changes.all && changes.same_order && memo_.max_r == k->max_r;
    for (size_t i = 0; i < n; ++i) {
      const int ii = static_cast<int>(i);
      if (!t.grid.Placed(ii)) continue;
      const std::string& id = scene.units[i].id;
      const Declared* charged_by = scene.declarations.Find(id, "charged_by");  // its key reads far-off chargers
      const double reach = ReachOf(t, i, k->max_r, charged_by);
      const auto unit_it = memo_.units.find(id);
      if (same_table && !charged_by && unit_it != memo_.units.end()) {
        k->unit[i] = unit_it->second.key;
        k->unit_last[i] = changes.Near(t.grid, ii, reach);
      } else {
        k->unit[i] = UnitKeyOf(scene, t, *k, i, reach, charged_by);
      }
      const double target_reach = 4.0 * k->max_r + 2.0;
      // A unit not placed in the last call changed (ChangesOf), so it is near its own place.
      if (same_table && i < memo_.target_keys.size() && !changes.Near(t.grid, ii, target_reach)) {
        k->target[i] = memo_.target_keys[i];
      } else {
        KeyMix g;
        g.U(k->own[i]), g.U(k->terrain), g.U(i);
        for (int j : t.grid.Near(ii, target_reach)) g.U(static_cast<uint64_t>(j)), g.U(k->own[j]);
        k->target[i] = g.h;
      }
    }
    next->target_keys = k->target;
  }
  uint64_t UnitKeyOf(const Scene& scene, const kow::KowTable& t, const Keys& k, size_t i, double reach,
                     const Declared* charged_by) const {
    KeyMix h;
    h.U(k.own[i]), h.U(k.terrain), h.U(i);
    if (const Declared* d = charged_by) {
      const std::vector<json> ids = d->value.is_array() ? d->value.get<std::vector<json>>() : std::vector<json>{d->value};
      for (const json& id : ids)
        if (id.is_string())
          if (const Unit* x = scene.FindUnit(id.get<std::string>())) h.U(k.own[static_cast<size_t>(x - scene.units.data())]);
    }
    for (int j : t.grid.Near(static_cast<int>(i), reach)) h.U(static_cast<uint64_t>(j)), h.U(k.own[j]);
    return h.h;
  }
  // What every part of one analysis reads: the table, what changed since the last call, which words
  // are asked for, who is engaged, and the units' order by id.
  struct Call {
    // `last`: the last call's memo (its engaged lists and id ranks serve when the units' order is the same).
    Call(const Scene& s, const kow::KowConfig& config, const kow::KowTable& t, const Changes& ch, const AnalyzeOptions& o, const Memo& last)
        : scene(s), c(config), table(t), changes(ch), want_report(o.report), want_text(o.text) {
      const int n = static_cast<int>(s.units.size());
      const bool keep = !ch.all && ch.same_order && last.engaged.size() == s.units.size() && last.id_rank.size() == s.units.size();
      engaged.resize(n);
      for (int i = 0; i < n; ++i) {
        if (!t.grid.Placed(i)) continue;
        // Whom a unit is in contact with changes only with a unit that was or is within contact of it.
        if (keep && !ch.unit[i] && !ch.Near(t.grid, i, c.contact_mm)) {
          engaged[i] = last.engaged[i];
          continue;
        }
        for (int j : t.grid.Near(i, c.contact_mm))
          if (s.units[j].side != s.units[i].side && t.grid.Gap(i, j) <= c.contact_mm + 1e-6 &&
              geom::BaseToBase(t.grid.FootprintOf(i), t.grid.FootprintOf(j)).distance_mm <= c.contact_mm)
            engaged[i].push_back(s.units[j].id);
        std::sort(engaged[i].begin(), engaged[i].end());
      }
      // Each unit's place in id order, worked out once: the lists are sorted by it (comparing the ids
      // themselves, for every list of every unit, was 3 % of a frame with one unit moving).
      if (keep) {
        id_rank = last.id_rank;
        return;
      }
      std::vector<int> by_id(n);
      for (int i = 0; i < n; ++i) by_id[i] = i;
      std::sort(by_id.begin(), by_id.end(), [&](int a, int b) { return s.units[a].id < s.units[b].id; });
      id_rank.resize(n);
      for (int r = 0; r < n; ++r) id_rank[by_id[r]] = r;
    }
    const Scene& scene;
    const kow::KowConfig& c;
    const kow::KowTable& table;
    const Changes& changes;
    // The words (text and JSON) are built beside the judging, only when asked for; the drawing and
    // the tests always. A kept chunk serves a call that asks for no more words than it holds.
    bool want_report, want_text;
    std::vector<std::vector<std::string>> engaged;  // by scene index: enemies in base contact, by id (seed 32)
    std::vector<int> id_rank;                       // by scene index: its place in id order

    // The enemies of unit i whose bases come within reach_mm of its base, sorted by id.
    std::vector<int> EnemiesWithin(int i, double reach_mm) const {
      std::vector<int> out;
      for (int j : table.grid.Near(i, reach_mm))
        if (scene.units[j].side != scene.units[i].side && table.grid.Gap(i, j) <= reach_mm + 1e-6) out.push_back(j);
      std::sort(out.begin(), out.end(), [&](int a, int b) { return id_rank[a] < id_rank[b]; });
      return out;
    }
    // The enemies EnemiesWithin(i, reach_mm) lists that pass `keep`, in id order. When unit i is
    // unchanged since the last call and `last` is what this gave then, only the changed units can
    // enter or leave: the rest of `last` is kept and each changed unit is tested alone.
    template <typename Keep>
    std::vector<int> TargetsOf(int i, double reach_mm, const std::optional<std::vector<int>>* last, Keep keep) const {
      std::vector<int> out;
      if (!last || !*last || changes.all || !changes.same_order || changes.unit[i]) {
        for (int j : EnemiesWithin(i, reach_mm))
          if (keep(j)) out.push_back(j);
        return out;
      }
      for (int j : **last)
        if (!changes.unit[j]) out.push_back(j);
      for (int j : changes.moved) {
        if (scene.units[j].side == scene.units[i].side || !table.grid.Lists(i, j, reach_mm)) continue;
        if (table.grid.Gap(i, j) > reach_mm + 1e-6 || !keep(j)) continue;
        out.insert(std::lower_bound(out.begin(), out.end(), j, [&](int a, int b) { return id_rank[a] < id_rank[b]; }), j);
      }
      return out;
    }
    // The enemies unit ui may charge (Charges: partly in its front arc, the leader point within the
    // listed reach of their bases) and those weapon wi may shoot at (in range, partly in the front
    // arc), patched from `last`'s lists when they serve (TargetsOf). The unit can charge (a speed).
    std::vector<int> ChargeTargets(int ui, const UnitChunk* last) const {
      const kow::Profile& p = table.profile[ui];
      const geom::Base& ub = table.grid.FootprintOf(ui);
      const double listed_mm = c.charge_range_factor * *p.speed_in * c.mm_per_unit + c.near_miss_in * c.mm_per_unit;
      return TargetsOf(ui, listed_mm, last ? &last->charge_targets : nullptr, [&](int ti) {
        return geom::LeaderToBase(ub, table.grid.FootprintOf(ti)).distance_mm <= listed_mm + 1e-9 &&
               geom::ArcShareOf(ub, table.grid.FootprintOf(ti), geom::Arc::kFront, geom::ArcModel::kKow) > 1e-9;
      });
    }
    std::vector<int> ShotTargets(int ui, size_t wi, const UnitChunk* last) const {
      const geom::Base& ub = table.grid.FootprintOf(ui);
      const auto* kept = last && wi < last->shot_targets.size() ? &last->shot_targets[wi] : nullptr;
      return TargetsOf(ui, table.profile[ui].weapons[wi].second * c.mm_per_unit, kept, [&](int ti) {
        return geom::ArcShareOf(ub, table.grid.FootprintOf(ti), geom::Arc::kFront, geom::ArcModel::kKow) > 1e-9;
      });
    }
    std::string InUnit(double mm) const {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.2f %s (%.1f mm)", mm / c.mm_per_unit, c.unit_name.c_str(), mm);
      return std::string(buf);
    }
    // Declared damage (seed 46, 65), checked where it is declared; 0 when none.
    int DeclaredDamage(const Unit& t) const {
      const Declared* dmg = scene.declarations.Find(t.id, "damage");
      if (!dmg) return 0;
      if (!dmg->value.is_number() || dmg->value.get<double>() < 0 || dmg->value.get<double>() != std::floor(dmg->value.get<double>()))
        throw InputError(scene.source, dmg->line, "declarations for " + t.id + ": damage must be a whole number >= 0");
      return static_cast<int>(dmg->value.get<double>());
    }
    // The attack's odds and what they do to the target's nerve, as json and a text tail; nothing when
    // the profiles lack the numbers.
    std::string Odds(int dice, const std::optional<int>& hit_on, int modifier, int ti, json* out, bool melee) const {
      const kow::Profile& tp = table.profile[ti];
      if (!want_report && !want_text) return "";
      if (!hit_on || !tp.defence || dice <= 0) {
        (*out)["odds"] = nullptr;
        return "";
      }
      const kow::AttackOdds a = kow::AttackOddsOf(dice, *hit_on, modifier, *tp.defence);
      json o = JsonObject("dice", a.dice,
                          "hit_on", a.hit_on,
                          "halved", a.halved,
                          "p_hit", Round2(a.p_hit),
                          "damage_on", a.damage_on,
                          "p_damage", Round2(a.p_damage),
                          "expected_hits", Round2(a.expected_hits),
                          "expected_damage", Round2(a.expected_damage),
                          "p_any_damage", Round2(a.p_any_damage));
      std::string text = "; " + kow::Describe(a);
      if (tp.nerve.waver || tp.nerve.rout) {
        const kow::NerveChances n = kow::NerveAfter(a, DeclaredDamage(scene.units[ti]), tp.nerve);
        o["nerve_after"] = JsonObject("steady", Round2(n.steady),
                                      "wavering", Round2(n.wavering),
                                      "routed", Round2(n.routed));
        text += "; " + scene.units[ti].id + "'s nerve after: " + kow::FormatNerveChances(n);
      }
      if (melee) {
        // Seed 62: "Any unit that suffered at least one point of damage in the melee phase is considered
        // Disordered" (no ranged attacks until the end of its next turn).
        o["p_disordered"] = Round2(a.p_any_damage);
        char buf[96];
        std::snprintf(buf, sizeof buf, "; %s Disordered if damaged (seed 62): %.0f%%", scene.units[ti].id.c_str(), 100.0 * a.p_any_damage);
        text += buf;
      }
      (*out)["odds"] = std::move(o);
      return text;
    }
  };

  // A unit's sight to one target in this call (by scene index), and what it was traced for: a charge
  // reads only `visible`, a shot everything when visible (geom::SightNeed). And the region of its sight
  // fan, which the charge's and every shot's memo keep (worked out once).
  struct TracedSight {
    bool traced = false;
    geom::SightResult result;
    geom::SightNeed need = geom::SightNeed::kAll;
    std::optional<kow::ReachRegion> fan;
  };
  using Sights = std::unordered_map<int, TracedSight>;

  // One unit being worked out: where it stands, what it declared, its last chunk (whose checks may
  // serve) and what it writes.
  struct Work {
    Work(int i, const Unit& unit, const kow::Profile& profile, const geom::Base& base, UnitChunk* last)
        : ui(i), u(unit), p(profile), ub(base), lp(geom::LeaderPoint(base)), prev(last) {}
    int ui = 0;
    const Unit& u;
    const kow::Profile& p;
    geom::Base ub;
    geom::Vec2 lp;
    std::string order;  // declared order ("" when none)
    bool wavering = false, disordered = false;
    UnitChunk* prev = nullptr;
    UnitChunk chunk;
    // Its sight to each target (scene index) in this call, worked out once for the charge and every
    // weapon's shot that is checked again (the same KowSight of the same two units).
    Sights sights;
    std::ostringstream lines;  // its lines; printed under its name when there are any
    json ju = json::object();
  };

  // Whether unit ui's last chunk answers this call as a new one would, though a unit within its reach
  // changed: the unit itself, whom it and its shot targets are engaged with and the enemies within
  // 1 inch of it are as they were, its charge and shot target lists are the same, and every check in
  // it would be reused whole (Charge, Shot: neither unit changed, no changed unit may reach into
  // what it read). A counter-charge reads farther than all these: such a unit is worked out again.
  bool ChunkStillHolds(const Call& k, int ui, const UnitChunk& prev) const {
    const Changes& ch = k.changes;
    const Scene& scene = k.scene;
    const double contact_or_inch = std::max(config_.contact_mm, config_.one_inch_in * config_.mm_per_unit);
    if (!ch.same_order || ch.unit[ui] || ch.Near(k.table.grid, ui, contact_or_inch) || scene.declarations.Find(scene.units[ui].id, "charged_by"))
      return false;
    if (prev.charge_targets) {
      if (k.ChargeTargets(ui, &prev) != *prev.charge_targets) return false;
      for (int ti : *prev.charge_targets) {
        const auto it = prev.charges.find(ti);
        if (ch.unit[ti] || it == prev.charges.end() || ch.Touch(it->second.sight) || (it->second.route && ch.Touch(*it->second.route)))
          return false;
      }
    }
    const kow::Profile& p = k.table.profile[ui];
    for (size_t wi = 0; wi < prev.shot_targets.size() && wi < p.weapons.size(); ++wi) {
      if (!prev.shot_targets[wi]) continue;
      if (k.ShotTargets(ui, wi, &prev) != *prev.shot_targets[wi]) return false;
      for (int ti : *prev.shot_targets[wi]) {
        if (ch.unit[ti] || ch.Near(k.table.grid, ti, config_.contact_mm)) return false;
        if (!k.engaged[ti].empty()) continue;  // not shot at, then or now
        const auto it = prev.shots.find(UnitChunk::ShotKey(ti, wi));
        if (it == prev.shots.end() || ch.Touch(it->second.sight)) return false;
      }
    }
    return true;
  }

  // A unit's chunk worked out again: its charges, counter-charges, the 1-inch rule, shooting and nerve.
  UnitChunk WorkOut(const Call& k, int ui, uint64_t key, UnitChunk* prev) const {
    const Scene& scene = k.scene;
    const Unit& u = scene.units[ui];
    Work w(ui, u, k.table.profile[ui], k.table.grid.FootprintOf(ui), prev);
    w.chunk.key = key;
    w.chunk.has_report = k.want_report;
    w.chunk.has_text = k.want_text;
    if (k.want_report) {
      w.ju["id"] = u.id;
      w.ju["side"] = u.side;
      w.ju["type"] = std::string(ToString(u.type));
      w.ju["leader_point_mm"] = {Round2(w.lp.x()), Round2(w.lp.y())};
      w.ju["height"] = w.p.height;
      w.ju["engaged_with"] = k.engaged[ui];
      if (w.p.speed_in) w.ju["speed_in"] = *w.p.speed_in;
    }
    AppendFrontArc(scene, u, w.p, &w.chunk.drawing);
    w.order = kow::DeclaredOrder(scene, u.id);
    w.wavering = kow::DeclaredFlag(scene, u.id, "wavering");
    w.disordered = w.wavering || kow::DeclaredFlag(scene, u.id, "disordered");
    if (w.wavering) AppendStateGlyph(u, Glyph::kWavering, &w.chunk.drawing);
    if (kow::DeclaredFlag(scene, u.id, "disordered")) AppendStateGlyph(u, Glyph::kDisordered, &w.chunk.drawing);
    UnitWriter writer(*this, k, &w);
    writer.Charges();
    writer.CounterCharges();
    writer.OneInch();
    writer.Shooting();
    writer.Nerve();
    if (k.want_text && w.wavering) w.lines << "    Wavering (declared): may only change facing, move back or halt (seed 67)\n";
    else if (k.want_text && w.disordered) w.lines << "    Disordered (declared): cannot shoot until the end of its next turn (seed 62)\n";
    if (k.want_text) w.chunk.lines = w.lines.str();
    if (k.want_report) w.chunk.ju = std::move(w.ju);
    return std::move(w.chunk);
  }

  // One unit's findings being written: the analysis it belongs to, the unit, and what it writes, under
  // the names every part below reads.
  struct UnitWriter {
    UnitWriter(const KowRuleset& r, const Call& call, Work* work)
        : rules(r), k(call), w(*work), scene(call.scene), c(call.c), grid(call.table.grid), profile(call.table.profile),
          ui(work->ui), u(work->u), p(work->p), ub(work->ub), lp(work->lp), order_s(work->order), wavering(work->wavering),
          disordered(work->disordered), chunk(work->chunk), lines(work->lines), ju(work->ju) {}
    const KowRuleset& rules;
    const Call& k;
    Work& w;
    const Scene& scene;
    const kow::KowConfig& c;
    const UnitGrid& grid;
    const std::vector<kow::Profile>& profile;
    const int ui;
    const Unit& u;
    const kow::Profile& p;
    const geom::Base& ub;
    const geom::Vec2& lp;
    const std::string& order_s;  // declared order ("" when none)
    const bool wavering, disordered;
    UnitChunk& chunk;
    std::ostringstream& lines;
    json& ju;

    // Charges (seed 13): the enemies partly in the front arc whose base the leader point reaches
    // within twice the speed, or misses by less than the near-miss band (c.near_miss_in): what a
    // player weighing a charge wants to know. Farther ones are not charges and are not listed.
    void Charges() {
      json charges = json::array();
      const bool engine = c.cannot_charge.count(std::string(ToString(u.type))) > 0;
      std::string cannot_charge;
      if (engine) cannot_charge = std::string(ToString(u.type)) + " cannot charge (war engines, seed 74)";
      else if (!p.speed_in) cannot_charge = "no speed given (stats: speed_in), so no charge reach";
      else if (wavering) cannot_charge = "Wavering units cannot be given a charge order (seed 67)";
      if (cannot_charge.empty()) {
        chunk.charge_targets = k.ChargeTargets(ui, w.prev);
        for (int ti : *chunk.charge_targets) {
          const Unit& t = scene.units[ti];
          const kow::ChargeCheck& ch = rules.Charge(scene, k.table, k.changes, ui, ti, w.prev, &chunk, &w.sights, MayShootAt(ti));
          json jc = k.want_report ? rules.ChargeJson(ch, t.id) : json();
          // Seed 51, 53, 74, 77: the melee the charge leads to (no values for a charge that cannot be made).
          Melee m;
          std::string melee_odds;
          if (ch.chargeable) {
            m = MeleeOf(p, profile[ti], ch.facing, ch.hindered);
            json jm = JsonObject("multiplier", m.multiplier,
                                 "multiplier_reason", m.reason,
                                 "modifier", m.modifier);
            if (p.attacks) melee_odds = k.Odds(*p.attacks * m.multiplier, p.melee, m.modifier, ti, &jm, true);
            if (k.want_report) jc["melee"] = std::move(jm);
          }
          if (k.want_report) charges.push_back(std::move(jc));
          if (ch.chargeable) {
            if (k.want_text) {
              std::string hindered;
              for (const std::string& id : ch.hindered_by) hindered += (hindered.empty() ? "" : ", ") + id;
              lines << "    charge " << t.id << ": YES, into its " << Words(geom::ToString(ch.facing)) << ", leader point "
                    << k.InUnit(ch.distance_mm) << " from its base, reach " << k.InUnit(ch.range_mm) << " ("
                    << k.InUnit(ch.range_mm - ch.distance_mm) << " to spare)"
                    << (ch.leader_on_arc_line ? "; leader point on its arc line, counted in the " + Words(geom::ToString(ch.facing)) : "")
                    << (ch.hindered ? "; Hindered, -1 to hit (through difficult terrain " + hindered + ", seed 53)" : "")
                    << (m.reason.empty() ? "" : "; " + m.reason) << "\n";
              if (!melee_odds.empty()) lines << "      melee: " << melee_odds.substr(2) << "\n";
            }
            chunk.candidates.push_back({t.id, {u.id, "charge", {u.id, ub, EdgeOfArc(ch.facing)}}});
            DrawPrimitive a = Prim(DrawKind::kArrow, DrawStyle::kThreat, {lp, ch.closest_point});
            a.layer = "threats";
            a.unit_id = u.id;
            a.text = "charge " + t.id;
            chunk.drawing.push_back(std::move(a));
          } else if (k.want_text) {
            std::string why;
            for (const std::string& r : ch.reasons) why += (why.empty() ? "" : "; ") + r;
            lines << "    charge " << t.id << ": no: " << why << "\n";
          }
        }
      } else if (k.want_text) {
        lines << "    charges: none, " << cannot_charge << "\n";
      }
      if (k.want_report) {
        ju["charges"] = std::move(charges);
        if (!cannot_charge.empty()) ju["cannot_charge"] = cannot_charge;
      }
    }

    // Whether Shooting() may check a shot at ti and read all of the sight the charge traces: the unit
    // may shoot, ti is not engaged and some weapon may reach its bounding circle. A guess on the side of
    // yes: a sight traced for the charge alone is traced again when a shot needs more of it.
    bool MayShootAt(int ti) const {
      if (NoShooting() || !k.engaged[ti].empty()) return false;
      for (const auto& weapon : p.weapons)
        if (!grid.Far(ui, ti, weapon.second * c.mm_per_unit)) return true;
      return false;
    }

    // Counter-charges (seed 27): only against a unit declared as having charged this one last turn.
    void CounterCharges() {
      json counters = json::array();
      for (const std::string& id : kow::ChargedBy(scene, u)) {
        const Unit& t = *scene.FindUnit(id);
        if (!t.pose) continue;
        if (wavering) {
          lines << "    counter-charge " << t.id << ": no: Wavering units cannot be given a charge order (seed 67)\n";
          continue;
        }
        const kow::CounterChargeCheck cc = kow::CheckCounterCharge(scene, c, u, t, {}, &k.table);
        json jc = JsonObject("target", t.id,
                             "chargeable", cc.chargeable,
                             "distance_mm", Round2(cc.distance_mm),
                             "distance_in", Round2(cc.distance_mm / c.mm_per_unit),
                             "facing", "front",
                             "leader_arc", std::string(geom::ToString(cc.leader_arc)),
                             "needs_line_of_sight", false,
                             "hindered", false,
                             "reasons", cc.reasons);
        if (p.speed_in) rules.AddReach(cc.range_mm, cc.distance_mm, &jc);
        if (cc.route && cc.route->found) {
          jc["route"] = JsonObject("pivot_deg", Round2(cc.route->pivot_deg),
                                   "move_mm", Round2(cc.route->move_mm),
                                   "slide_mm", Round2(cc.route->slide_mm),
                                   "length_mm", Round2(cc.route->length_mm),
                                   "contact_point_mm",
                                   json::array({Round2(cc.route->contact_point.x()), Round2(cc.route->contact_point.y())}));
        } else {
          jc["route"] = nullptr;
        }
        // Seed 27: a counter-charge hits the front (never Hindered, seed 53); a war engine still triples (seed 74).
        std::string counter_odds;
        Melee cm;
        if (cc.chargeable) {
          const int ti = static_cast<int>(&t - scene.units.data());
          cm = MeleeOf(p, profile[ti], geom::Arc::kFront, false);
          json jm = JsonObject("multiplier", cm.multiplier,
                               "multiplier_reason", cm.reason,
                               "modifier", cm.modifier);
          if (p.attacks) counter_odds = k.Odds(*p.attacks * cm.multiplier, p.melee, cm.modifier, ti, &jm, true);
          jc["melee"] = std::move(jm);
        }
        counters.push_back(std::move(jc));
        if (cc.chargeable) {
          lines << "    counter-charge " << t.id << ": YES, pivots to face its front, leader point " << k.InUnit(cc.distance_mm)
                << " from its base, reach " << k.InUnit(cc.range_mm) << " (" << k.InUnit(cc.range_mm - cc.distance_mm)
                << " to spare)" << (cm.reason.empty() ? "" : "; " + cm.reason) << "\n";
          if (!counter_odds.empty()) lines << "      melee: " << counter_odds.substr(2) << "\n";
        } else {
          std::string why;
          for (const std::string& r : cc.reasons) why += (why.empty() ? "" : "; ") + r;
          lines << "    counter-charge " << t.id << ": no: " << why << "\n";
        }
        if (cc.chargeable) {
          chunk.candidates.push_back({t.id, {u.id, "counter-charge", {u.id, ub, geom::Edge::kFront}}});
          DrawPrimitive a = Prim(DrawKind::kArrow, DrawStyle::kThreat, {lp, cc.route->contact_point});
          a.layer = "threats";
          a.unit_id = u.id;
          a.text = "counter-charge " + t.id;
          chunk.drawing.push_back(std::move(a));
          DrawPrimitive ghost = Prim(DrawKind::kPolygon, DrawStyle::kThreat, geom::PolygonCcw(cc.route->at_contact));
          ghost.layer = "threats";
          ghost.unit_id = u.id;
          ghost.dashed = true;  // where it would end, not where it is
          chunk.drawing.push_back(std::move(ghost));
        }
      }
      ju["counter_charges"] = std::move(counters);
    }

    // The 1-inch rule (seed 10): enemies within 1 inch but not in contact.
    void OneInch() {
      json near = json::array();
      std::string near_text;
      int near_count = 0;
      for (int ti : k.EnemiesWithin(ui, c.one_inch_in * c.mm_per_unit)) {
        const Unit& t = scene.units[ti];
        const geom::ClosestPoints cp = geom::BaseToBase(ub, grid.FootprintOf(ti));
        if (cp.distance_mm <= c.contact_mm || cp.distance_mm > c.one_inch_in * c.mm_per_unit + 1e-9) continue;
        ++near_count;
        if (k.want_report)
          near.push_back(JsonObject("enemy", t.id,
                                    "gap_mm", Round2(cp.distance_mm),
                                    "gap_in", Round2(cp.distance_mm / c.mm_per_unit)));
        if (k.want_text) near_text += (near_text.empty() ? "" : ", ") + t.id + " at " + k.InUnit(cp.distance_mm);
        DrawPrimitive m = Prim(DrawKind::kPolyline, DrawStyle::kMeasure, {cp.on_a, cp.on_b});
        m.layer = "threats";
        m.unit_id = u.id;
        m.text = "within 1 in of " + t.id;
        chunk.drawing.push_back(std::move(m));
      }
      const bool exempt = order_s == "charge" || order_s == "halt";
      const bool flagged = near_count > 0 && !exempt;
      if (k.want_report) ju["one_inch"] = JsonObject("within", std::move(near), "order", order_s, "flagged", flagged);
      if (flagged && k.want_text)
        lines << "    1-inch rule: within 1 in of " << near_text << ": only a charge (or a pivot ending clear) may come this close (seed 10)"
              << (order_s.empty() ? "" : "; its order: " + order_s) << "\n";
    }

    // Shooting (seed 30-41), one entry per weapon: the enemies in range, partly in the front arc, in
    // sight, neither side in base contact with an enemy (seed 32).
    // Why the unit cannot shoot this turn, or null when it may (read by Shooting and MayShootAt).
    const char* NoShooting() const {
      if (!k.engaged[ui].empty()) return "in base contact with an enemy: cannot shoot (seed 32)";
      if (wavering) return "Wavering, so Disordered: cannot shoot (seed 67)";
      if (disordered) return "Disordered: cannot use ranged attacks (seed 62)";
      if (order_s == "at_the_double") return "moved at the double: cannot shoot (seed 32)";
      return nullptr;
    }

    void Shooting() {
      json shooting = json::array();
      const char* no_shooting = NoShooting();
      chunk.shot_targets.resize(p.weapons.size());
      for (size_t wi = 0; wi < p.weapons.size(); ++wi) {
        const auto& [weapon, range_in] = p.weapons[wi];
        json targets = json::array();
        if (!no_shooting) {
          // In range and in the front arc (who is engaged changes with units that did not: read here).
          chunk.shot_targets[wi] = k.ShotTargets(ui, wi, w.prev);
          for (int ti : *chunk.shot_targets[wi]) {
            const Unit& t = scene.units[ti];
            if (!k.engaged[ti].empty()) continue;
            const kow::ShotCheck& s = rules.Shot(scene, k.table, k.changes, ui, ti, wi, range_in, w.prev, &chunk, &w.sights);
            if (!s.in_arc || !s.visible || !s.in_range) continue;
            // Seed 36: -1 for having moved (any order but halt), -1 for cover; seed 77: -1 shooting at an
            // individual, and individuals (Nimble) do not suffer the -1 for moving.
            json mods = json::array();
            int total = 0;
            std::string mods_text;
            auto add = [&](int v, const std::string& rule) {
              if (k.want_report) mods.push_back(JsonObject("value", v, "rule", rule));
              total += v;
              if (k.want_text) mods_text += std::string(", ") + (v > 0 ? "+" : "") + std::to_string(v) + " " + rule;
            };
            if (s.cover) add(c.cover_modifier, "target in cover: " + s.cover_reasons.front() + " (seed 36, 41)");
            if (!order_s.empty() && order_s != "halt" && !p.individual) add(-1, "moved (order " + order_s + ", seed 36)");
            if (profile[ti].individual) add(-1, "shooting at an individual (seed 77)");
            // On the picture: who can shoot whom, and the modifier to hit.
            DrawPrimitive line = Prim(DrawKind::kArrow, DrawStyle::kRange, {lp, geom::BaseToPoint(grid.FootprintOf(ti), lp).on_a});
            line.layer = "ranges";
            line.unit_id = u.id;
            line.dashed = true;
            line.text = "shoot " + t.id + (total == 0 ? "" : " " + std::string(total > 0 ? "+" : "") + std::to_string(total));
            chunk.drawing.push_back(std::move(line));
            if (!k.want_report && !k.want_text) continue;
            json jt = !k.want_report ? json() : JsonObject("target", t.id,
                                 "distance_mm", Round2(s.distance_mm),
                                 "distance_in", Round2(s.distance_mm / c.mm_per_unit),
                                 "margin_in", Round2(range_in - s.distance_mm / c.mm_per_unit),
                                 "cover", s.cover,
                                 "cover_reasons", s.cover_reasons,
                                 "difficult_share", Round2(s.difficult_share),
                                 "hidden_share", Round2(s.hidden_share),
                                 "obscured_by", s.obscured_by,
                                 "modifier", total,
                                 "modifiers", std::move(mods));
            const std::string shot_odds = k.Odds(p.attacks.value_or(0), p.ranged, total, ti, &jt, false);
            if (k.want_report) targets.push_back(std::move(jt));
            if (!k.want_text) continue;
            char range[32];
            std::snprintf(range, sizeof range, "%g", range_in);
            lines << "    shoot " << t.id << " with " << (weapon == "range" ? "its ranged attack" : weapon) << " (" << range
                  << " in): " << k.InUnit(s.distance_mm) << (mods_text.empty() ? ", no modifier" : mods_text) << "\n";
            if (!shot_odds.empty()) lines << "      " << shot_odds.substr(2) << "\n";
          }
        }
        if (k.want_report) shooting.push_back(JsonObject("weapon", weapon, "range_in", range_in, "targets", std::move(targets)));
      }
      if (no_shooting && !p.weapons.empty()) {
        if (k.want_report) ju["cannot_shoot"] = no_shooting;
        if (k.want_text) lines << "    shooting: none, " << no_shooting << "\n";
      }
      if (k.want_report) ju["shooting"] = std::move(shooting);
    }

    // Nerve (seed 64-71) when damage is declared.
    void Nerve() {
      if (const Declared* dmg = scene.declarations.Find(u.id, "damage")) {
        const int damage = k.DeclaredDamage(u);
        if (!p.nerve.waver && !p.nerve.rout)
          throw InputError(scene.source, dmg->line, "unit " + u.id + " has declared damage but no nerve_waver/nerve_rout in its stats");
        const kow::NerveOdds o = kow::NerveTestOdds(damage, p.nerve);
        if (k.want_report)
          ju["nerve"] = JsonObject("damage", damage,
                                 "waver", p.nerve.waver ? json(*p.nerve.waver) : json(nullptr),
                                 "rout", p.nerve.rout ? json(*p.nerve.rout) : json(nullptr),
                                 "steady_of_36", o.steady,
                                 "wavering_of_36", o.wavering,
                                 "routed_of_36", o.routed);
        RequiredTest rt;
        rt.unit = u.id;
        rt.kind = "nerve";
        const std::string limits = (p.nerve.waver ? "waver on " + std::to_string(*p.nerve.waver) + "+" : std::string("no wavering limit")) +
                                   ", " + (p.nerve.rout ? "rout on " + std::to_string(*p.nerve.rout) + "+" : std::string("no routing limit"));
        rt.reason = "it has suffered damage (seed 48, 65): 2D6 + " + std::to_string(damage) + " damage, " + limits +
                    "; a double 1 always passes, a double 6 always wavers (seed 71)";
        rt.modifiers.push_back({"damage suffered", damage, {}});
        rt.total = damage;
        rt.p_success = o.P(o.steady);
        rt.odds = kow::FormatNerveOdds(o);
        if (k.want_text) lines << "    nerve test: " << rt.reason << ": " << rt.odds << "\n";
        DrawPrimitive l = Prim(DrawKind::kLabel, DrawStyle::kTest, {ub.centre_mm});
        l.text = "nerve: " + rt.odds;
        l.layer = "tests";
        l.unit_id = u.id;
        chunk.drawing.push_back(std::move(l));
        chunk.tests.push_back(std::move(rt));
      }
    }
  };
  mutable std::mutex memo_mutex_;
  mutable Memo memo_;

  // Seed 51: double the attacks in the target's flank, triple in its rear; seed 74: any unit attacking a
  // war engine triples its attacks; seed 77: individuals turn to face chargers (never doubled or tripled
  // against) and do not double or triple their own (except against war engines); seed 53: Hindered -1.
  struct Melee {
    int multiplier = 1;
    std::string reason;  // "" when x1 for no particular reason
    int modifier = 0;    // to hit
  };
  static Melee MeleeOf(const kow::Profile& attacker, const kow::Profile& target, geom::Arc facing, bool hindered) {
    Melee m;
    m.modifier = hindered ? -1 : 0;
    if (target.war_engine) {
      m.multiplier = 3;
      m.reason = "triple attacks against a war engine (seed 74)";
    } else if (facing == geom::Arc::kLeftFlank || facing == geom::Arc::kRightFlank || facing == geom::Arc::kRear) {
      const bool rear = facing == geom::Arc::kRear;
      if (target.individual) {
        m.reason = "individuals turn to face chargers: no extra attacks (seed 77)";
      } else if (attacker.individual) {
        m.reason = "individuals do not double or triple their attacks (seed 77)";
      } else {
        m.multiplier = rear ? 3 : 2;
        m.reason = std::string(rear ? "triple attacks in the rear" : "double attacks in the flank") + " (seed 51)";
      }
    }
    return m;
  }

  // KowSight from unit ui to unit ti for a caller that reads `need` of it, from `sights` when this call
  // has traced it already for as much, or found it not visible (then nothing but `visible` is read, and
  // that is the full trace's whatever the need).
  const geom::SightResult& Sight(const Scene& scene, const kow::KowTable& table, int ui, int ti, Sights* sights,
                                 geom::SightNeed need) const {
    TracedSight& s = (*sights)[ti];
    if (s.traced && (s.need <= need || !s.result.visible)) return s.result;
    s.result = kow::KowSight(scene, config_, scene.units[ui], scene.units[ti], &table, need, &FanOf(table, ui, ti, sights));
    s.need = need;
    s.traced = true;
    return s.result;
  }

  // The region of unit ui's sight fan on unit ti (kow::SightFan), from `sights` when this call has it.
  const kow::ReachRegion& FanOf(const kow::KowTable& table, int ui, int ti, Sights* sights) const {
    TracedSight& s = (*sights)[ti];
    if (!s.fan) s.fan.emplace(kow::SightFan(geom::LeaderPoint(table.grid.FootprintOf(ui)), table.grid.FootprintOf(ti)));
    return *s.fan;
  }

  // CheckShot, or the same shot's check from the unit's last chunk when its key is unchanged. The
  // check lives in the chunk (its map's elements stay where they are as it grows).
  const kow::ShotCheck& Shot(const Scene& scene, const kow::KowTable& table, const Changes& changes, int ui, int ti, size_t weapon,
                      double range_in, UnitChunk* prev, UnitChunk* chunk, Sights* sights) const {
    const uint64_t key = UnitChunk::ShotKey(ti, weapon);
    if (prev && !changes.all && changes.same_order && !changes.unit[ui] && !changes.unit[ti])
      if (auto it = prev->shots.find(key); it != prev->shots.end() && !changes.Touch(it->second.sight)) {
        return chunk->shots.insert_or_assign(key, std::move(it->second)).first->second.check;
      }
    UnitChunk::ShotMemo m{FanOf(table, ui, ti, sights),
               kow::CheckShot(scene, config_, scene.units[ui], scene.units[ti], range_in, &table,
                                &Sight(scene, table, ui, ti, sights, geom::SightNeed::kWhenVisible))};
    return chunk->shots.insert_or_assign(key, std::move(m)).first->second.check;
  }

  // CheckCharge, or the same charge's check from the unit's last chunk when nothing it read changed.
  // `may_shoot`: a shot may read this sight too (UnitWriter::MayShootAt): trace it for the shot.
  // The check lives in the chunk, as Shot's.
  const kow::ChargeCheck& Charge(const Scene& scene, const kow::KowTable& table, const Changes& changes, int ui, int ti, UnitChunk* prev,
                          UnitChunk* chunk, Sights* sights, bool may_shoot) const {
    // The last check, when the two units stand where they stood and its route read nothing that moved:
    // it serves whole unless a changed unit may reach into the sight fan; then only its route serves.
    UnitChunk::ChargeMemo* last = nullptr;
    if (prev && !changes.all && changes.same_order && !changes.unit[ui] && !changes.unit[ti])
      if (auto it = prev->charges.find(ti); it != prev->charges.end() && !(it->second.route && changes.Touch(*it->second.route))) {
        if (!changes.Touch(it->second.sight)) return chunk->charges.insert_or_assign(ti, std::move(it->second)).first->second.check;
        last = &it->second;
      }
    UnitChunk::ChargeMemo m{FanOf(table, ui, ti, sights), std::nullopt,
                            kow::CheckCharge(scene, config_, scene.units[ui], scene.units[ti], {}, &table, last ? &last->check : nullptr,
                                             &Sight(scene, table, ui, ti, sights, may_shoot ? geom::SightNeed::kWhenVisible : geom::SightNeed::kVisible))};
    if (m.check.route) {
      // The search ran (analysis.cpp, CheckCharge), or its last route served (whose reads still hold).
      // The reads move into the memo: the check is copied out at every use and needs none of them.
      m.route = last && last->route ? std::move(last->route) : kow::RouteReads(std::move(m.check.route->read_in));
      m.check.route->read_in.clear();
    }
    return chunk->charges.insert_or_assign(ti, std::move(m)).first->second.check;
  }

  // A charge's reach and what is left of it, in mm and inches.
  void AddReach(double range_mm, double distance_mm, json* j) const {
    const double in = config_.mm_per_unit;
    (*j)["range_mm"] = Round2(range_mm);
    (*j)["range_in"] = Round2(range_mm / in);
    (*j)["margin_mm"] = Round2(range_mm - distance_mm);
    (*j)["margin_in"] = Round2((range_mm - distance_mm) / in);
  }

  // A charge's entry in the report (route and reasons; the melee is added by the caller).
  json ChargeJson(const kow::ChargeCheck& ch, const std::string& target_id) const {
    const kow::KowConfig& c = config_;
    json jc = JsonObject("target", target_id,
                         "chargeable", ch.chargeable,
                         "front_arc_share", Round2(ch.front_arc_share),
                         "visible", ch.visible,
                         "distance_mm", Round2(ch.distance_mm),
                         "distance_in", Round2(ch.distance_mm / c.mm_per_unit),
                         "facing", std::string(geom::ToString(ch.facing)),
                         "leader_on_arc_line", ch.leader_on_arc_line,
                         "hindered", ch.hindered,
                         "hindered_by", ch.hindered_by,
                         "reasons", ch.reasons);
    AddReach(ch.range_mm, ch.distance_mm, &jc);
    if (ch.route && ch.route->found) {
      jc["route"] = JsonObject("advance_mm", Round2(ch.route->advance_mm),
                               "pivot_deg", Round2(ch.route->pivot_deg),
                               "final_mm", Round2(ch.route->final_mm),
                               "length_mm", Round2(ch.route->length_mm),
                               "contact_point_mm",
                               json::array({Round2(ch.route->contact_point.x()), Round2(ch.route->contact_point.y())}));
    } else {
      jc["route"] = nullptr;
    }
    return jc;
  }

  // The orders of seed 002 (one per unit per turn), and the states a player marks with tokens.
  std::vector<DeclarationChoice> UnitChoices(const Scene&, const Unit&) const override {
    DeclarationChoice order{"order", "Order", kow::Orders(), {}};
    for (const std::string& o : order.values) order.value_words.push_back(kow::OrderWords(o));
    return {order, {"wavering", "Wavering", {}, {}}, {"disordered", "Disordered", {}, {}}};
  }

  static std::vector<std::string> DeclarationKeys() { return {"order", "charged_by", "damage", "wavering", "disordered", "post_combat", "post_combat_roll"}; }


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
  json MultiCharges(const Scene& scene, const UnitGrid& grid, const std::map<std::string, std::vector<Candidate>>& candidates,
                    const Keys& keys, const std::unordered_map<std::string_view, int>& index_of, const AnalyzeOptions& wants,
                    Memo* next, Findings* f, std::ostringstream* text) const {
    json out = json::array();
    for (const auto& [target_id, options] : candidates) {
      std::vector<std::string> ids;
      for (const Candidate& c : options)
        if (std::find(ids.begin(), ids.end(), c.unit) == ids.end()) ids.push_back(c.unit);
      std::sort(ids.begin(), ids.end());
      if (ids.size() < 2) continue;
      if (ids.size() > 8) ids.resize(8);
      const Unit& target = scene.units[index_of.at(target_id)];
      // Reuse: the same target and neighbours, charged by the same units (each with the same key: the
      // same place, neighbourhood and way of charging) as in the last call.
      const int target_index = static_cast<int>(&target - scene.units.data());
      KeyMix key;
      key.U(keys.target[target_index]);
      // What MultiChargeOn reads: the target and the units near it (keys.target), and each charger's
      // base and way of charging; not the rest of the chargers' neighbourhoods.
      for (const Candidate& c : options) {
        key.U(keys.own[index_of.at(c.unit)]);
        key.S(c.kind);
        key.U(static_cast<uint64_t>(c.on.facing));
      }
      TargetChunk chunk;
      const bool words = wants.text || wants.report;
      if (auto it = memo_.targets.find(target_id);
          it != memo_.targets.end() && it->second.key == key.h && (it->second.has_words || !words)) {
        chunk = std::move(it->second);
        memo_.targets.erase(it);
      } else {
        chunk.key = key.h;
        chunk.has_words = words;
        MultiChargeOn(scene, grid, target_id, target, ids, options, &chunk);
      }
      f->drawing.insert(f->drawing.end(), chunk.drawing.begin(), chunk.drawing.end());
      if (wants.text) *text << chunk.line;
      if (wants.report) out.push_back(chunk.entry);
      next->targets[target_id] = std::move(chunk);
    }
    return out;
  }

  // Seed 21-24 for one target: every set of two or more of its chargers `ids`, and whether they fit,
  // in the chunk's words when it has words (has_words); the drawing (whether all of them fit, and
  // where) reads only the set of all of them, so a chunk without words fits that set alone.
  void MultiChargeOn(const Scene& scene, const UnitGrid& grid, const std::string& target_id, const Unit& target,
                     const std::vector<std::string>& ids, const std::vector<Candidate>& options, TargetChunk* out_chunk) const {
    const geom::Base tb = Footprint(target);
    json combos = json::array();
    json largest = json::array();
    bool all_fit = false;
    const int all = (1 << static_cast<int>(ids.size())) - 1;
    for (int mask = out_chunk->has_words ? 1 : all; mask <= all; ++mask) {
      if (__builtin_popcount(mask) < 2) continue;
      std::vector<std::string> members;
      for (size_t i = 0; i < ids.size(); ++i)
        if (mask >> i & 1) members.push_back(ids[i]);
      const SetFit set = FitSet(scene, grid, target_id, target, members, options);
      if (set.fit.fits && mask == all) {
        all_fit = true;
        for (const kow::PlacedCharger& p : set.fit.placed) {
          DrawPrimitive g = Prim(DrawKind::kPolygon, DrawStyle::kThreat, geom::PolygonCcw(p.at_contact));
          g.layer = "threats";
          g.unit_id = p.unit;
          g.dashed = true;
          g.text = "joint charge on " + target_id;
          out_chunk->drawing.push_back(g);
        }
      }
      if (!out_chunk->has_words) continue;
      if (set.fit.fits && (members.size() > largest.size() || largest.empty())) largest = members;
      combos.push_back(SetJson(members, set));
    }
    std::string who;
    for (const std::string& id : ids) who += (who.empty() ? "" : "+") + id;
    DrawPrimitive label = Prim(DrawKind::kLabel, DrawStyle::kTest, {tb.centre_mm});
    label.layer = "tests";
    label.unit_id = target_id;
    label.text = "joint charge " + who + (all_fit ? ": fits" : ": does not fit");
    out_chunk->drawing.push_back(label);
    if (!out_chunk->has_words) return;
    std::ostringstream text;
    text << "  joint charges on " << target_id << ": " << who << (all_fit ? " all fit" : " do not all fit");
    if (!all_fit) text << " - " << combos.back()["why_not"].get<std::string>();
    if (!all_fit && !largest.empty()) {
      std::string l;
      for (const auto& id : largest) l += (l.empty() ? "" : "+") + id.get<std::string>();
      text << " (largest that fits: " << l << ")";
    }
    text << "\n";
    out_chunk->line = text.str();
    json chargers = json::array();
    for (const Candidate& c : options)
      chargers.push_back(JsonObject("unit", c.unit,
                                    "kind", c.kind,
                                    "facing", std::string(geom::ToString(c.on.facing))));
    out_chunk->entry = JsonObject("target", target_id,
                                  "chargers", chargers,
                                  "all_fit", all_fit,
                                  "largest_fitting", largest,
                                  "combinations", combos);
  }

  // One set of a target's chargers: whether they fit, and how each charges (`used`, by member).
  struct SetFit {
    kow::ChargersFit fit;
    std::vector<const Candidate*> used;
  };
  SetFit FitSet(const Scene& scene, const UnitGrid& grid, const std::string& target_id, const Unit& target,
                const std::vector<std::string>& members, const std::vector<Candidate>& options) const {
    // Obstacles: every placed unit but the target and the members (they move), and blocking terrain.
    // The chargers end flush against the target: only units within two of their diagonals of it can
    // be in the way.
    double reach = 0.0;
    for (const Candidate& c : options) reach = std::max(reach, 2.0 * std::hypot(c.on.base.width_mm, c.on.base.depth_mm));
    const int target_index = static_cast<int>(&target - scene.units.data());
    std::vector<geom::Polygon> shapes;
    std::vector<std::string> names;
    for (int oi : grid.Near(target_index, reach + 1.0)) {
      const Unit& o = scene.units[oi];
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
    const geom::Base tb = Footprint(target);
    SetFit out;
    while (true) {
      std::vector<kow::ChargerOnFacing> set;
      std::vector<const Candidate*> used;
      for (size_t i = 0; i < members.size(); ++i) {
        used.push_back(ways[i][pick[i]]);
        set.push_back(ways[i][pick[i]]->on);
      }
      kow::ChargersFit attempt = kow::FitChargers(tb, set, shapes, names);
      if (attempt.fits || out.fit.why_not.empty()) out = {std::move(attempt), std::move(used)};
      if (out.fit.fits) break;
      size_t i = 0;
      while (i < pick.size() && ++pick[i] == ways[i].size()) pick[i++] = 0;
      if (i == pick.size()) break;
    }
    return out;
  }

  // One set's entry in the report: whether it fits, and where each member ends or why not.
  static json SetJson(const std::vector<std::string>& members, const SetFit& set) {
    json combo = JsonObject("units", members, "fits", set.fit.fits);
    if (!set.fit.fits) {
      combo["why_not"] = set.fit.why_not;
      return combo;
    }
    json placement = json::array();
    for (size_t i = 0; i < set.fit.placed.size(); ++i) {
      const kow::PlacedCharger& p = set.fit.placed[i];
      placement.push_back(JsonObject("unit", p.unit,
                                     "kind", set.used[i]->kind,
                                     "facing", std::string(geom::ToString(p.facing)),
                                     "contact_mm", Round2(p.contact_mm),
                                     "centre_mm", json::array({Round2(p.at_contact.centre_mm.x()), Round2(p.at_contact.centre_mm.y())}),
                                     "heading_deg", Round2(geom::NormalizeDeg(p.at_contact.heading_deg))));
    }
    combo["placement"] = placement;
    return combo;
  }

  static std::string Words(std::string_view s) {
    std::string out(s);
    std::replace(out.begin(), out.end(), '_', ' ');
    return out;
  }

  // The front arc's two lines out to the charge range (or 12 in without a speed), layer "ranges".
  // The front arc's two sides out to the charge reach, stopped at the table's edge (a line running
  // off the table shows nothing the players can use, and 60 of them make a lattice).
  void AppendFrontArc(const Scene& scene, const Unit& u, const kow::Profile& p, std::vector<DrawPrimitive>* out) const {
    const geom::Base b = Footprint(u);
    const double reach = (p.speed_in ? config_.charge_range_factor * *p.speed_in : 12.0) * config_.mm_per_unit;
    const auto corners = geom::Corners(b);
    for (int i : {0, 1}) {
      const geom::Vec2 dir = (corners[i] - b.centre_mm).normalized();
      double length = reach;
      for (int axis : {0, 1}) {
        const double size = axis == 0 ? scene.table_width_mm : scene.table_depth_mm, at = corners[i][axis];
        if (dir[axis] > 1e-9) length = std::min(length, (size - at) / dir[axis]);
        if (dir[axis] < -1e-9) length = std::min(length, -at / dir[axis]);
      }
      if (length <= 0) continue;
      DrawPrimitive l = Prim(DrawKind::kPolyline, DrawStyle::kRange, {corners[i], corners[i] + length * dir});
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
