#include "rules/totsk/totsk_analysis.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <sstream>

#include "rules/geometry/contact.h"
#include "rules/geometry/corridor.h"
#include "rules/geometry/distance.h"
#include "rules/geometry/polygon.h"
#include "rules/geometry/sweep.h"
#include "rules/input_error.h"
#include "rules/totsk/totsk_geometry.h"
#include "rules/totsk/totsk_units.h"
#include "rules/unit_grid.h"
#include "rules/unit_key.h"

namespace vedette::totsk {

namespace analysis_detail {

constexpr double kInf = std::numeric_limits<double>::infinity();

// The reasons CauseOn finds, by the words the report uses (KindName): an enum, because every pair
// of neighbours is asked for one and compared, and strings cost an allocation and compares each.
enum class CauseKind { kNone, kContactFront, kUnderFire, kCavalryThreat };

// A reason one enemy has to make one unit test (before target choice).
struct Cause {
  CauseKind kind = CauseKind::kNone;
  double distance_mm = kInf;
  bool Any() const { return kind != CauseKind::kNone; }
  int Rank() const { return kind == CauseKind::kContactFront ? 0 : 1; }
  bool operator==(const Cause&) const = default;
};

}  // namespace analysis_detail

// What one analysis worked out and what it read, kept for the next call. Per-unit vectors are by
// placed unit (scene order); per-pair ones by [unit][slot of the other unit in nbr[unit]].
struct AnalysisMemo::State {
  using Cause = analysis_detail::Cause;
  bool made = false;             // by a call that finished: only then may the next reuse it
  PairReach pair_reach;          // which pairs are looked at (the same for every call on this state)
  std::vector<std::string> ids;  // the placed units' ids
  std::vector<uint64_t> own;     // per unit: its own data and BW (UnitKey)
  uint64_t rest = 0;             // the terrain and every declaration
  double reach_mm = 0.0;         // the neighbour lists' reach for a pair with a gun in it, mm
  double near_reach_mm = 0.0;    // and for any other pair (no gun: no fire or bombardment at 3-6 BW), mm
  std::vector<geom::Base> fp;    // footprints
  std::vector<std::vector<geom::Base>> bases;  // a unit's bases when it has several (one: its footprint)
  std::vector<double> bw;        // mm
  std::vector<double> radius;    // half the footprint's diagonal, mm
  std::vector<std::vector<size_t>> nbr;  // the units within every rule's reach, ascending (not itself)
  std::vector<std::vector<geom::Contact>> contact;  // FindContact(unit, other); empty: none touches it
  std::vector<std::vector<char>> bombard;           // [gun][slot]: the unit is a bombardment candidate (empty: no gun)
  std::vector<std::vector<Cause>> cause;            // [enemy][slot]: its reason to make the unit test
  std::vector<char> acts, can_fire, enemy_contact;
  std::vector<std::vector<size_t>> rear_support;    // per unit: the friends giving it rear support, by id
  std::vector<int> supports;                        // per unit: how many units it gives rear support to
  std::vector<long> target;                         // per enemy: the unit its one test falls on (-1: none)
  std::vector<std::optional<TargetChoice>> choice;  // per enemy: that choice and why
  std::vector<std::vector<std::string>> notes;      // per enemy: what its choice had to say
  std::vector<long> in_range_of;  // per enemy: the unit its -2 "in range of flank or rear" falls on (-1: none)
  std::vector<std::vector<std::string>> in_range_by;  // per unit: the enemies whose -2 it takes
  TotskAnalysis out;
};

AnalysisMemo::AnalysisMemo() : state_(std::make_unique<State>()) {}
AnalysisMemo::~AnalysisMemo() = default;
AnalysisMemo::AnalysisMemo(AnalysisMemo&&) noexcept = default;
AnalysisMemo& AnalysisMemo::operator=(AnalysisMemo&&) noexcept = default;

namespace {

using analysis_detail::Cause;
using analysis_detail::CauseKind;
using analysis_detail::kInf;
using State = AnalysisMemo::State;

const Cause kNoCause;

// Terrain the unit stands in or behind, by the FAQ's three kinds.
struct TerrainState {
  bool cover = false, defending = false, fortification = false;
  bool bad_going = false;  // at least half the unit in bad going
  bool open = true;        // at least half in neither bad going nor cover
  std::vector<std::string> cover_ids, defending_ids, fortification_ids;
};

// The report's word for a reason (MoraleReason::kind).
const char* KindName(CauseKind k) {
  switch (k) {
    case CauseKind::kContactFront: return "contact_front";
    case CauseKind::kUnderFire: return "under_fire";
    case CauseKind::kCavalryThreat: return "cavalry_threat";
    case CauseKind::kNone: break;
  }
  return "";
}

bool IsLinearObstacle(const std::string& type) {
  return type == "wall" || type == "hedge" || type == "stream" || type == "river" || type == "fortification" ||
         type == "works";
}

// What this call must work out again, by placed unit; everything when `all` (the first call, or the
// terrain, the declarations, the units on the table or the rules' reach changed). A unit's results
// are reused when nothing they read changed: its neighbours' places and data (`near`), and the
// results of the earlier steps that it reads, listed here as they change.
struct Dirty {
  bool all = true;
  std::vector<char> moved;          // its own data changed (moved, turned, re-formed, ...)
  std::vector<char> near;           // moved, or a moved unit is or was among its neighbours
  std::vector<char> enemy_contact;  // changed: in contact with an enemy
  std::vector<char> secure;         // changed: its secured flanks
  std::vector<char> rear_support;   // changed: who gives it rear support
  std::vector<char> supports;       // changed: whether it gives anyone rear support
  std::vector<char> cause_row;      // changed: its reasons to make others test
  std::vector<char> target;         // changed: the unit its one test falls on
  std::vector<char> in_range;       // changed: who gives it -2 in range of flank or rear
  std::vector<char> tests;          // its morale and action tests must be worked out again
  bool choices = true;              // some target choice or note changed
  void Size(size_t n) {
    for (auto* v : {&moved, &near, &enemy_contact, &secure, &rear_support, &supports, &cause_row, &target, &in_range, &tests})
      v->assign(n, all ? 1 : 0);
    choices = all;
  }
};

// A unit's one test and its target's index.
struct Pick {
  size_t unit = 0;
  TargetChoice choice;
};

// BaseToBase(a, b).distance_mm where it is within limit_mm, else a number beyond the limit (maybe
// not the distance): BaseGap, the same distance to 1e-9 mm at a tenth of the cost, rules out the
// pairs clearly beyond it, which are most pairs a rule measures against a limit.
double DistanceWithin(const geom::Base& a, const geom::Base& b, double limit_mm) {
  if (geom::BaseGap(a, b) > limit_mm + 1e-6) return kInf;
  return geom::BaseToBase(a, b).distance_mm;
}

class Analyzer {
 public:
  // state: the last call's, reused where nothing it read changed (an empty State: nothing is).
  Analyzer(const TotskData& d, const TotskSettings& s, const Scene& scene, State* state, const UnitGrid* grid = nullptr);

  // Fills the state's `out`, and marks the state made.
  void Run();
  // What judging a move of one unit reads, and only that: the unit's zone of control and its action
  // tests (every enemy that could target it chooses among all its candidates, as in Run()).
  TotskAnalysis RunFor(const std::string& id);

 private:
  bool Enemy(size_t a, size_t b) const { return side_[a] != side_[b]; }
  // True when no part of a and b can be within `reach_mm` (bounding circles): skips the exact geometry.
  bool Far(size_t a, size_t b, double reach_mm) const {
    return (fp_[a].centre_mm - fp_[b].centre_mm).norm() - radius_[a] - radius_[b] > reach_mm + 1.0;
  }
  // UnitGrid's test, in its order of sums: b's bounding circle within the reach of a's, the reach of
  // the rules that pair can have.
  bool Within(size_t a, size_t b) const {
    const double reach = gun_[a] || gun_[b] ? st_.reach_mm : st_.near_reach_mm;
    const double limit = reach + 1e-6 + radius_[b] + radius_[a];
    return (fp_[b].centre_mm - fp_[a].centre_mm).squaredNorm() <= limit * limit;
  }
  bool Redo(size_t u) const { return dirty_.all || dirty_.near[u]; }
  bool Targets(size_t e, size_t u) const { return target_[e] == static_cast<long>(u); }
  bool HasTarget(size_t e) const { return target_[e] >= 0; }
  const std::string& Id(size_t i) const { return units_[i]->id; }
  // Unit i's bases: most units have one, which is its footprint (not kept twice).
  std::span<const geom::Base> BasesIn(size_t i) const {
    return bases_[i].empty() ? std::span<const geom::Base>(&fp_[i], 1) : std::span<const geom::Base>(bases_[i]);
  }
  std::optional<bool> Flag(size_t i, std::string_view key) const;
  std::string DeclaredString(size_t i, std::string_view key) const;
  const Declared* DeclaredOf(size_t i, std::string_view key) const { return Declarations::Find(declared_[i], key); }
  bool Acts(size_t e) const;     // may cause tests and give modifiers (not a general, no bonus move)
  bool CanFire(size_t e) const;  // artillery limbered or pivoted cannot
  bool ComputeCanFire(size_t e) const;
  void Validate() const;  // the declarations this ruleset reads have the right types
  // Set-up: what the last call read is compared with this call's; the units' footprints and the
  // neighbour lists are worked out where they changed.
  void KeysAndPlaces(const Scene& scene);
  // The neighbour lists' reaches (mm) from each unit's BW (mm): pairs with a gun, then other pairs.
  std::pair<double, double> NeighbourReach(const std::vector<double>& bw) const;
  void Neighbours(const Scene& scene, const UnitGrid* grid);  // grid: the scene's, if the caller has one
  void NeighboursOfMoved();
  void Reset();            // everything to be worked out: the state sized and emptied
  void CacheUnits();       // who acts, who can fire
  void Pairs();            // contacts, bombardment candidates, who is in contact with an enemy
  geom::Contact ContactOf(size_t a, size_t b) const;  // FindContact(a, b), from the cache when there is one
  Cause CauseOn(size_t e, size_t u) const;
  // CauseOn with the FAQ's secured flanks applied; secured: u's analysis with its security filled
  // (null: worked out here).
  Cause CauseWithSecurity(size_t e, size_t u, const UnitAnalysis* secured) const;
  std::vector<std::string> ZocOf(size_t u) const;
  // Enemy e's one test: its target among cause_[e] and the bombarded (none when it has no candidate).
  std::optional<Pick> ChooseTarget(size_t e, std::vector<std::string>* notes) const;
  bool BombardCandidate(size_t e, size_t u) const;
  bool ComputeBombard(size_t e, size_t u) const;
  std::optional<Side> ThreatSide(size_t e, size_t u) const;
  bool InContactWithEnemy(size_t i) const;
  std::vector<size_t> RearSupport(size_t u) const;
  void Secure(size_t u, UnitAnalysis* a) const;
  TerrainState TerrainOf(size_t u) const;
  // The steps of Run, each over the units it must work out again.
  void RearSupports();
  void Security();
  void Causes();
  void ChooseTargets();
  void Threats(size_t u, UnitAnalysis* a) const;
  long InRangeOf(size_t e) const;
  void InRange();
  void MarkTests();
  void Tests();
  void Assemble();
  // Step 5's morale test, in its parts: the reasons, then the modifiers in the QRS's order.
  struct MoraleContext {
    TerrainState terrain;
    bool fired_on = false;        // an imposed fire or bombardment reason
    bool contact_reason = false;  // in contact with an enemy's front edge
    std::vector<size_t> firers;   // enemies whose fire targets this unit
  };
  void Morale(size_t u, UnitAnalysis* a) const;
  void Add(UnitAnalysis* a, std::string_view key, std::vector<std::string> by, int times = 1) const;
  void Reasons(size_t u, UnitAnalysis* a) const;
  MoraleContext ContextOf(size_t u, const UnitAnalysis& a) const;
  void PassiveModifiers(size_t u, UnitAnalysis* a) const;
  void ExtraReasons(size_t u, UnitAnalysis* a) const;  // "-1 Ea. reason to test above one"
  void FireAndContactModifiers(size_t u, const MoraleContext& m, UnitAnalysis* a) const;
  void TerrainModifiers(size_t u, const MoraleContext& m, UnitAnalysis* a) const;
  void ActionTests(size_t u, UnitAnalysis* a) const;

  const TotskData& d_;
  const TotskSettings& s_;
  const MoraleRanges& ranges_;  // the ranges that cause a test (BW), read for every pair of neighbours
  const Scene& scene_;
  State& st_;
  Dirty dirty_;
  bool pairs_cached_ = false;  // Pairs() has filled contact_ and bombard_
  Tolerances tol_;
  std::vector<const Unit*> units_;
  // Each unit's declarations (nullptr: none), found once: every unit's keys are asked for several
  // times a frame, and most units have none.
  std::vector<const Declarations::Keys*> declared_;
  std::vector<int> side_;  // the units' sides numbered, so telling enemies apart compares no strings
  std::vector<char> gun_;  // per unit: artillery (its pairs reach as far as fire and bombardment)
  size_t n_ = 0;
  // The state's vectors under the names the rules read them by.
  std::vector<geom::Base>& fp_;
  std::vector<std::vector<geom::Base>>& bases_;
  std::vector<double>& bw_;
  std::vector<double>& radius_;
  std::vector<std::vector<size_t>>& nbr_;
  std::vector<std::vector<Cause>>& cause_;
  std::vector<long>& target_;
  std::vector<std::vector<std::string>>& in_range_by_;
  std::vector<std::vector<geom::Contact>>& contact_;
  std::vector<char>& acts_;
  std::vector<char>& can_fire_;
  std::vector<char>& enemy_contact_;
  std::vector<std::vector<char>>& bombard_;
  std::vector<std::vector<size_t>>& rear_support_;
  std::vector<std::pair<geom::Vec2, double>> terrain_circle_;  // per terrain piece: a circle holding it (centre, radius mm)
  std::vector<char> secures_;  // per terrain piece: of a kind that secures a flank (asked for every unit's two flanks)
  std::vector<const TerrainKind*> terrain_kind_;  // per terrain piece: its kind, looked up by name once (null: none)
  // Position of v in nbr_[u], or -1.
  int Slot(size_t u, size_t v) const {
    const auto& l = nbr_[u];
    const auto it = std::lower_bound(l.begin(), l.end(), v);
    return it != l.end() && *it == v ? static_cast<int>(it - l.begin()) : -1;
  }
  // Enemy e's reason on its k-th neighbour (none when e's row is not worked out).
  const Cause& CauseIn(size_t e, size_t k) const { return cause_[e].empty() ? kNoCause : cause_[e][k]; }
  // What u's k-th neighbour holds about u, through the mirror slot instead of a search: every step
  // that reads the reasons on a unit asks each of its neighbours, tens of thousands of times a frame.
  const Cause& CauseFrom(size_t u, size_t k) const {
    const int m = mirror_[u][k];
    return m < 0 ? kNoCause : CauseIn(nbr_[u][k], static_cast<size_t>(m));
  }
  bool BombardFrom(size_t u, size_t k) const {
    if (!pairs_cached_) return ComputeBombard(nbr_[u][k], u);
    const int m = mirror_[u][k];
    return m >= 0 && BombardIn(nbr_[u][k], static_cast<size_t>(m));
  }
  // FindContact(u, its k-th neighbour).
  geom::Contact ContactIn(size_t u, size_t k) const { return pairs_cached_ ? ContactAt(u, k) : ContactOf(u, nbr_[u][k]); }
  // Pairs()' rows: empty for a unit with no neighbour near enough to touch, and for one that does not
  // bombard (most units): all none without a list to fill.
  geom::Contact ContactAt(size_t u, size_t k) const { return contact_[u].empty() ? geom::Contact{} : contact_[u][k]; }
  bool BombardIn(size_t e, size_t k) const { return !bombard_[e].empty() && bombard_[e][k]; }
  void Mirrors();
  // mirror_[u][k]: the slot of u in the list of its k-th neighbour, -1 when u is not there (the lists
  // are symmetric but for the last bit of the reach test's sums).
  std::vector<std::vector<int>> mirror_;
};

// Unit u lies in nbr_[e] for the ascending u that have e as a neighbour, so one cursor per list finds
// every mirror slot in one pass.
void Analyzer::Mirrors() {
  mirror_.resize(n_);
  std::vector<size_t> cursor(n_, 0);
  for (size_t u = 0; u < n_; ++u) {
    mirror_[u].assign(nbr_[u].size(), -1);
    for (size_t k = 0; k < nbr_[u].size(); ++k) {
      const std::vector<size_t>& list = nbr_[nbr_[u][k]];
      size_t& c = cursor[nbr_[u][k]];
      while (c < list.size() && list[c] < u) ++c;
      if (c < list.size() && list[c] == u) mirror_[u][k] = static_cast<int>(c);
    }
  }
}

Analyzer::Analyzer(const TotskData& d, const TotskSettings& s, const Scene& scene, State* state, const UnitGrid* grid)
    : d_(d), s_(s), ranges_(s.Ranges(d)),
      scene_(scene), st_(*state), tol_(d.tolerances), fp_(state->fp), bases_(state->bases),
      bw_(state->bw), radius_(state->radius), nbr_(state->nbr), cause_(state->cause), target_(state->target),
      in_range_by_(state->in_range_by), contact_(state->contact), acts_(state->acts), can_fire_(state->can_fire),
      enemy_contact_(state->enemy_contact), bombard_(state->bombard), rear_support_(state->rear_support) {
  for (const Unit& u : scene.units)
    if (u.pose) units_.push_back(&u);
  n_ = units_.size();
  for (const Unit* u : units_) declared_.push_back(scene.declarations.Of(u->id));
  std::map<std::string, int> sides;
  for (const Unit* u : units_) side_.push_back(sides.emplace(u->side, int(sides.size())).first->second);
  for (const Unit* u : units_) gun_.push_back(u->type == UnitType::kArtillery);
  for (const Terrain& t : scene.terrain) {
    const geom::Box box = geom::BoxOf(t.polygon);  // (0, 0) for an empty polygon
    const geom::Vec2 centre = (box.lo + box.hi) / 2.0;
    double radius = 0.0;
    for (const geom::Vec2& p : t.polygon) radius = std::max(radius, (p - centre).norm());
    terrain_circle_.push_back({centre, radius});
    secures_.push_back(std::find(d.secure_terrain.begin(), d.secure_terrain.end(), t.type) != d.secure_terrain.end());
    terrain_kind_.push_back(FindTerrainKind(t.type));
  }
  KeysAndPlaces(scene);
  Neighbours(scene, grid);
  Mirrors();
}

// The call may start from the last one's state when the same units are on the table, the terrain and
// the declarations are the same, and the rules reach as far: then only the units whose own data
// changed are measured again.
void Analyzer::KeysAndPlaces(const Scene& scene) {
  std::vector<std::string> ids;
  std::vector<uint64_t> own;
  std::vector<double> bw;
  for (const Unit* u : units_) {
    ids.push_back(u->id);
    bw.push_back(scene.BwFor(*u));
    KeyMix h;
    h.U(UnitKey(*u)), h.D(bw.back());
    own.push_back(h.h);
  }
  KeyMix rest;
  rest.U(TerrainKey(scene)), rest.U(DeclarationsKey(scene.declarations));
  const auto [reach_mm, near_reach_mm] = NeighbourReach(bw);
  dirty_.all = !st_.made || st_.ids != ids || st_.rest != rest.h || st_.reach_mm != reach_mm ||
               st_.near_reach_mm != near_reach_mm;
  st_.made = false;  // until this call finishes: a call that throws leaves nothing to reuse
  dirty_.Size(n_);
  if (dirty_.all) Reset();
  size_t moved = 0;
  for (size_t i = 0; i < n_; ++i) {
    if (!dirty_.all && st_.own[i] == own[i]) continue;
    dirty_.moved[i] = 1;
    ++moved;
    fp_[i] = Footprint(*units_[i]);
    bases_[i] = units_[i]->bases.size() > 1 ? BasesOf(*units_[i]) : std::vector<geom::Base>{};
    radius_[i] = std::hypot(fp_[i].width_mm, fp_[i].depth_mm) / 2.0;
    if (dirty_.all) continue;  // Reset() has just emptied every unit's results
    // Its results start again from nothing: it may have become a general, who takes no test.
    st_.out.units[i] = UnitAnalysis{};
    st_.out.units[i].id = Id(i);
    st_.out.units[i].general = IsGeneral(*units_[i]);
    st_.out.units[i].infantry = units_[i]->type == UnitType::kInfantry;
  }
  // With many units moved (a bumped camera re-registered), measuring everything costs less.
  if (!dirty_.all && moved * 4 > n_) {
    dirty_.all = true;
    dirty_.Size(n_);
  }
  st_.ids = std::move(ids);
  st_.own = std::move(own);
  st_.bw = std::move(bw);
  st_.rest = rest.h;
  st_.reach_mm = reach_mm;
  st_.near_reach_mm = near_reach_mm;
}

// Step 0: who is near whom. No rule reaches further than the longest of its distances in the largest
// BW on the table: every pair further apart is skipped without a look, and every loop over "each
// other unit" runs over these neighbours (in scene order). Only a gun reaches beyond 2 BW (fire at
// 3 or 6 BW, bombardment at 6 BW): a pair without one is listed only within the other rules' reach
// (the ranges, threat distance, zone of control, rear and flank support, security, a general's
// re-roll, of these settings), which is most pairs and a fraction of the area.
std::pair<double, double> Analyzer::NeighbourReach(const std::vector<double>& bw) const {
  double max_bw = 0.0;
  for (double b : bw) max_bw = std::max(max_bw, b);
  const MoraleRanges& r = ranges_;
  const double near_bw = std::max({r.foot, r.light_infantry, r.cavalry, s_.ThreatBw(d_), d_.zoc_depth_bw,
                                   d_.rear_support_infantry_bw, d_.rear_support_cavalry_bw, d_.secure_distance_bw,
                                   d_.flank_support_distance_bw, d_.general_reroll_bw});
  const double gun_bw = std::max({near_bw, r.artillery, d_.bombardment_range_bw, d_.artillery_far_bw});
  const double margin = tol_.contact_mm + 2.0;
  const double gun_mm = gun_bw * max_bw + margin;
  return {gun_mm, st_.pair_reach.gun_reach_for_every_pair ? gun_mm : near_bw * max_bw + margin};
}

void Analyzer::Reset() {
  st_.fp.assign(n_, {});
  st_.bases.assign(n_, {});
  st_.radius.assign(n_, 0.0);
  st_.contact.assign(n_, {});
  st_.bombard.assign(n_, {});
  st_.cause.assign(n_, {});
  st_.acts.assign(n_, 0);
  st_.can_fire.assign(n_, 0);
  st_.enemy_contact.assign(n_, 0);
  st_.rear_support.assign(n_, {});
  st_.supports.assign(n_, 0);
  st_.target.assign(n_, -1);
  st_.choice.assign(n_, std::nullopt);
  st_.notes.assign(n_, {});
  st_.in_range_of.assign(n_, -1);
  st_.in_range_by.assign(n_, {});
  st_.out = TotskAnalysis{};
  st_.out.units.resize(n_);
  for (size_t u = 0; u < n_; ++u) {
    UnitAnalysis& a = st_.out.units[u];
    a.id = Id(u);
    a.general = IsGeneral(*units_[u]);
    a.infantry = units_[u]->type == UnitType::kInfantry;
  }
}

// A gun's list is every unit within the guns' reach; any other unit's, the units without a gun within
// the shorter reach, and the guns whose lists hold it (asking the grid at the shorter reach scans a
// ninth of the cells).
void Analyzer::Neighbours(const Scene& scene, const UnitGrid* given) {
  if (!dirty_.all) return NeighboursOfMoved();
  std::optional<UnitGrid> own;
  const UnitGrid& grid = given ? *given : own.emplace(scene);
  std::vector<int> placed_index(scene.units.size(), -1);
  for (size_t i = 0, k = 0; i < scene.units.size(); ++i)
    if (scene.units[i].pose) placed_index[i] = static_cast<int>(k++);
  nbr_.assign(n_, {});
  std::vector<int> near;
  for (size_t i = 0, k = 0; i < scene.units.size(); ++i) {
    if (!scene.units[i].pose) continue;
    grid.NearInto(static_cast<int>(i), gun_[k] ? st_.reach_mm : st_.near_reach_mm, &near);
    nbr_[k].reserve(near.size());
    for (int j : near)
      if (const size_t v = static_cast<size_t>(placed_index[j]); gun_[k] || !gun_[v]) nbr_[k].push_back(v);
    ++k;
  }
  // Each list has its units without a gun in order; the guns, appended in order, are merged in.
  std::vector<size_t> guns_from(n_);
  for (size_t k = 0; k < n_; ++k) guns_from[k] = nbr_[k].size();
  for (size_t g = 0; g < n_; ++g)
    if (gun_[g])
      for (size_t v : nbr_[g])
        if (!gun_[v]) nbr_[v].push_back(g);
  for (size_t k = 0; k < n_; ++k)
    if (guns_from[k] != nbr_[k].size())
      std::inplace_merge(nbr_[k].begin(), nbr_[k].begin() + static_cast<long>(guns_from[k]), nbr_[k].end());
}

// A moved unit's list is measured again against every unit; any other unit's list loses the moved
// units and gains those now within reach. `near`: the moved units and every unit whose list held or
// holds one of them.
void Analyzer::NeighboursOfMoved() {
  std::vector<size_t> moved;
  for (size_t i = 0; i < n_; ++i)
    if (dirty_.moved[i]) moved.push_back(i);
  for (size_t c : moved) {
    dirty_.near[c] = 1;
    nbr_[c].clear();
    for (size_t j = 0; j < n_; ++j)
      if (j != c && Within(c, j)) nbr_[c].push_back(j);
  }
  for (size_t u = 0; u < n_; ++u) {
    if (dirty_.moved[u]) continue;
    std::vector<size_t>& row = nbr_[u];
    bool touched = false;
    for (size_t c : moved) {
      const auto it = std::lower_bound(row.begin(), row.end(), c);
      const bool was = it != row.end() && *it == c, is = Within(u, c);
      if (was == is) {
        touched = touched || was;
        continue;
      }
      touched = true;
      if (was) row.erase(it);
      else row.insert(it, c);
    }
    if (touched) dirty_.near[u] = 1;
  }
}

std::optional<bool> Analyzer::Flag(size_t i, std::string_view key) const {
  const Declared* dcl = DeclaredOf(i, key);
  if (!dcl) return std::nullopt;
  if (!dcl->value.is_boolean())
    throw InputError(scene_.source, dcl->line, "declarations: " + Id(i) + "." + std::string(key) + " must be true or false");
  return dcl->value.get<bool>();
}

std::string Analyzer::DeclaredString(size_t i, std::string_view key) const {
  const Declared* dcl = DeclaredOf(i, key);
  if (!dcl) return "";
  const std::string what = "declarations: " + Id(i) + "." + std::string(key);
  if (!dcl->value.is_string()) throw InputError(scene_.source, dcl->line, what + " must be a unit id");
  const std::string v = dcl->value.get<std::string>();
  if (!scene_.FindUnit(v)) throw InputError(scene_.source, dcl->line, what + ": no unit '" + v + "' in the scene");
  return v;
}

bool Analyzer::Acts(size_t e) const { return acts_[e]; }

bool Analyzer::CanFire(size_t e) const { return can_fire_[e]; }

bool Analyzer::ComputeCanFire(size_t e) const {
  const Unit& u = *units_[e];
  if (u.type == UnitType::kArtillery) return !Limbered(u) && !Flag(e, "pivoted").value_or(false);
  return u.type == UnitType::kInfantry;
}

// The reasons to test of the QRS ("Only one test can be imposed by a unit per turn"), strongest first:
// 2. contact with the enemy's front edge; 1. under fire in range and arc; 3. infantry within reach of
// enemy cavalry (security is applied by the caller).
Cause Analyzer::CauseOn(size_t e, size_t u) const {
  Cause c;
  if (!Enemy(e, u) || !Acts(e) || IsGeneral(*units_[u])) return c;
  const Unit& E = *units_[e];
  const Unit& U = *units_[u];
  // The furthest any of the reasons below reaches for this pair (contact, e's fire, e's cavalry):
  // most neighbours lie beyond it and are ruled out by their bounding circles alone.
  const MoraleRanges& r = ranges_;
  const bool fires = CanFire(e), light = fires && IsLightInfantry(E);
  const bool cavalry_on_foot = E.type == UnitType::kCavalry && U.type == UnitType::kInfantry;
  double reach_bw = !fires ? 0.0 : light ? r.light_infantry : E.type == UnitType::kArtillery ? r.artillery : r.foot;
  if (cavalry_on_foot) reach_bw = std::max(reach_bw, r.cavalry);
  if (Far(e, u, reach_bw * bw_[e] + std::max(tol_.contact_mm, tol_.line_mm))) return c;
  const geom::Contact contact = ContactOf(u, e);
  if (contact.in_contact && contact.edge_b == geom::Edge::kFront && !contact.corner_only) {
    c.kind = CauseKind::kContactFront;
    c.distance_mm = 0.0;
    return c;
  }
  if (fires) {
    if (light) {
      // "arc Straight Ahead, except LI": LI fire at anything ahead of their front-edge line.
      const double limit = r.light_infantry * bw_[e] + tol_.line_mm;
      const double dist = DistanceWithin(fp_[e], fp_[u], limit);
      if (dist <= limit && !FacesAway(fp_[e], fp_[u], tol_.line_mm)) {
        c.kind = CauseKind::kUnderFire;
        c.distance_mm = dist;
        return c;
      }
    } else {
      const double range = (E.type == UnitType::kArtillery ? r.artillery : r.foot) * bw_[e];
      if (geom::InsideCorridor(fp_[e], geom::Edge::kFront, range, fp_[u], tol_.line_mm)) {
        c.kind = CauseKind::kUnderFire;
        c.distance_mm = geom::InCorridor(fp_[e], geom::Edge::kFront, range, fp_[u], tol_.line_mm).reach_mm;
        return c;
      }
    }
  }
  if (cavalry_on_foot) {
    const double limit = r.cavalry * bw_[e] + tol_.line_mm;
    const double dist = DistanceWithin(fp_[e], fp_[u], limit);
    if (dist <= limit && !FacesAway(fp_[e], fp_[u], tol_.line_mm)) {
      c.kind = CauseKind::kCavalryThreat;
      c.distance_mm = dist;
    }
  }
  return c;
}

// QRS reason 4: artillery bombarding up to 6 BW, straight ahead, beyond its own firing range.
bool Analyzer::BombardCandidate(size_t e, size_t u) const {
  if (!pairs_cached_) return ComputeBombard(e, u);
  const int k = Slot(e, u);
  return k >= 0 && BombardIn(e, static_cast<size_t>(k));
}

bool Analyzer::ComputeBombard(size_t e, size_t u) const {
  const Unit& E = *units_[e];
  if (!Enemy(e, u) || !Acts(e) || E.type != UnitType::kArtillery || !CanFire(e) || IsGeneral(*units_[u])) return false;
  if (Far(e, u, d_.bombardment_range_bw * bw_[e])) return false;
  return geom::InsideCorridor(fp_[e], geom::Edge::kFront, d_.bombardment_range_bw * bw_[e], fp_[u], tol_.line_mm);
}

// Where enemy e stands behind u's flanks or rear (any of its bases), if it does not face away.
std::optional<Side> Analyzer::ThreatSide(size_t e, size_t u) const {
  if (FacesAway(fp_[e], fp_[u], tol_.line_mm)) return std::nullopt;
  std::optional<Side> best;
  for (const geom::Base& b : BasesIn(e)) {
    const auto side = BehindSide(fp_[u], b, tol_.line_mm);
    if (side && (!best || *side == Side::kRear)) best = side;
  }
  return best;
}

bool Analyzer::InContactWithEnemy(size_t i) const { return enemy_contact_[i]; }

geom::Contact Analyzer::ContactOf(size_t a, size_t b) const {
  if (pairs_cached_) {
    const int k = Slot(a, b);
    return k < 0 ? geom::Contact{} : ContactAt(a, static_cast<size_t>(k));
  }
  return a != b && !Far(a, b, tol_.contact_mm) ? geom::FindContact(fp_[a], fp_[b], tol_.contact_mm) : geom::Contact{};
}

void Analyzer::Validate() const {
  // What a player may declare about a unit under these rules; anything else is a typing mistake
  // (or another ruleset's word) that would otherwise be ignored without a word. state, routed,
  // firing and limbered are what the live window's state menu declares under any ruleset.
  static const std::vector<std::string> kKeys = {"failed_morale", "moved", "bonus_move", "pursued", "pivoted", "target",
                                                 "general_attached", "passed_morale", "broke_off", "pursuit_bw", "wing",
                                                 "lost", "crew_with", "fails_lost", "state", "routed", "firing", "limbered"};
  for (const auto& [unit, values] : scene_.declarations.units) {
    for (const auto& [key, declared] : values) {
      if (std::find(kKeys.begin(), kKeys.end(), key) != kKeys.end()) continue;
      std::string list;
      for (const std::string& k : kKeys) list += (list.empty() ? "" : ", ") + k;
      throw InputError(scene_.source, declared.line,
                       "declarations: " + unit + "." + key + " is not something the totsk ruleset reads (it reads: " + list + ")");
    }
  }
  for (size_t i = 0; i < n_; ++i) {
    if (!declared_[i]) continue;  // most units declare nothing
    for (const char* key : {"failed_morale", "moved", "bonus_move", "pursued", "pivoted", "passed_morale", "broke_off", "lost"})
      Flag(i, key);
    for (const char* key : {"target", "general_attached", "crew_with"}) DeclaredString(i, key);
  }
}

void Analyzer::CacheUnits() {
  for (size_t i = 0; i < n_; ++i) {
    if (!dirty_.moved[i]) continue;
    acts_[i] = !IsGeneral(*units_[i]) && !Flag(i, "bonus_move").value_or(false);
    can_fire_[i] = ComputeCanFire(i);
  }
}

void Analyzer::Pairs() {
  pairs_cached_ = true;
  for (size_t i = 0; i < n_; ++i) {
    if (!Redo(i)) continue;
    contact_[i].clear();
    for (size_t k = 0; k < nbr_[i].size(); ++k) {
      const size_t j = nbr_[i][k];
      if (Far(i, j, tol_.contact_mm) || geom::BaseGap(fp_[i], fp_[j]) > tol_.contact_mm + 1e-6) continue;
      if (contact_[i].empty()) contact_[i].assign(nbr_[i].size(), geom::Contact{});
      contact_[i][k] = geom::FindContact(fp_[i], fp_[j], tol_.contact_mm);
    }
    // Only a gun that acts and can fire bombards: every other row is all false without a look.
    const bool gun = Acts(i) && units_[i]->type == UnitType::kArtillery && CanFire(i);
    bombard_[i].clear();
    if (!gun) continue;
    bombard_[i].resize(nbr_[i].size());
    for (size_t k = 0; k < nbr_[i].size(); ++k) bombard_[i][k] = ComputeBombard(i, nbr_[i][k]);
  }
  for (size_t i = 0; i < n_; ++i) {
    if (!Redo(i)) continue;
    bool engaged = false;
    for (size_t k = 0; k < nbr_[i].size(); ++k) {
      const size_t j = nbr_[i][k];
      if (Enemy(i, j) && !IsGeneral(*units_[j]) && ContactAt(i, k).in_contact) engaged = true;
    }
    if (engaged != static_cast<bool>(enemy_contact_[i])) dirty_.enemy_contact[i] = 1;
    enemy_contact_[i] = engaged;
  }
}

// QRS "+1 Rear sup. w/1BW Inf., 2BW Cav"; FAQ: any part behind counts, a unit in contact cannot
// support, the supporter faces towards the rear of the unit it supports.
std::vector<size_t> Analyzer::RearSupport(size_t u) const {
  std::vector<size_t> out;
  if (IsGeneral(*units_[u])) return out;
  for (size_t s : nbr_[u]) {
    if (s == u || Enemy(s, u) || !Acts(s)) continue;
    const Unit& S = *units_[s];
    if (S.type != UnitType::kInfantry && S.type != UnitType::kCavalry) continue;
    const double reach = (S.type == UnitType::kCavalry ? d_.rear_support_cavalry_bw : d_.rear_support_infantry_bw) * bw_[u];
    if (Far(s, u, reach)) continue;
    if (HeadingGap(fp_[s].heading_deg, fp_[u].heading_deg) >= 90.0) continue;
    if (!geom::InsideCorridor(fp_[u], geom::Edge::kRear, reach, fp_[s], tol_.line_mm)) continue;
    if (InContactWithEnemy(s)) continue;
    out.push_back(s);
  }
  std::sort(out.begin(), out.end(), [&](size_t a, size_t b) { return Id(a) < Id(b); });
  return out;
}

// Rear support is worked out again where a neighbour moved or came into or out of contact with an
// enemy; `supports` counts, for the FAQ's "one effect only", whom each unit supports.
void Analyzer::RearSupports() {
  std::vector<char> redo(n_, 0);
  for (size_t u = 0; u < n_; ++u) {
    if (Redo(u)) redo[u] = 1;
    if (dirty_.enemy_contact[u])
      for (size_t v : nbr_[u]) redo[v] = 1;
  }
  for (size_t u = 0; u < n_; ++u) {
    if (!redo[u]) continue;
    std::vector<size_t> now = RearSupport(u);
    if (now != rear_support_[u]) {
      dirty_.rear_support[u] = 1;
      for (size_t s : rear_support_[u])
        if (--st_.supports[s] == 0) dirty_.supports[s] = 1;
      for (size_t s : now)
        if (st_.supports[s]++ == 0) dirty_.supports[s] = 1;
      rear_support_[u] = std::move(now);
    } else if (!dirty_.moved[u]) {
      continue;  // a moved unit's results were emptied: its list is written again
    }
    std::vector<std::string>& ids = st_.out.units[u].rear_support;
    ids.clear();
    for (size_t s : rear_support_[u]) ids.push_back(Id(s));
  }
}

// QRS "Secure Infantry = Infantry that has a friendly unit or terrain within 1 BW of both flanks".
void Analyzer::Secure(size_t u, UnitAnalysis* a) const {
  const double reach = d_.secure_distance_bw * bw_[u] + tol_.line_mm;
  for (const auto& [edge, line, list] :
       {std::tuple{geom::Edge::kLeft, geom::OutsideLeftLine(fp_[u]), &a->secure_left},
        std::tuple{geom::Edge::kRight, geom::OutsideRightLine(fp_[u]), &a->secure_right}}) {
    const geom::Segment seg = geom::EdgeSegment(fp_[u], edge);
    // Nothing within `radius` of `centre` comes within reach of the flank when the centre is further
    // than both (the margin covers rounding): the exact measure is skipped, the answer is the same.
    auto beyond_reach = [&](const geom::Vec2& centre, double radius) {
      return geom::PointToSegment(centre, seg).distance_mm - radius > reach + 1e-6;
    };
    for (size_t f : nbr_[u]) {
      if (f == u || Enemy(f, u) || IsGeneral(*units_[f])) continue;
      if (line.SignedDistance(fp_[f].centre_mm) <= 0.0 || Far(f, u, reach)) continue;  // not on that side / far
      if (beyond_reach(fp_[f].centre_mm, radius_[f])) continue;
      if (SegmentWithin(seg, geom::CornersCcw(fp_[f]), reach)) list->push_back(Id(f));
    }
    for (size_t ti = 0; ti < scene_.terrain.size(); ++ti) {
      const Terrain& t = scene_.terrain[ti];
      if (!secures_[ti]) continue;
      // The unit's circle first: most pieces are far from both flanks, and a distance is cheaper than two.
      const auto& [centre, radius] = terrain_circle_[ti];
      if ((centre - fp_[u].centre_mm).norm() - radius - radius_[u] > reach + 1e-3) continue;
      if (beyond_reach(centre, radius)) continue;
      // Only the part of the terrain beyond the flank's line secures that flank.
      const geom::Polygon beyond = geom::ClipHalfPlane(geom::MakeCcw(t.polygon), line.point,
                                                       line.point + geom::Vec2(line.normal.y(), -line.normal.x()));
      if (beyond.size() >= 3 && SegmentToPolygon(seg, beyond) <= reach) list->push_back(t.id);
    }
    std::sort(list->begin(), list->end());
  }
}

TerrainState Analyzer::TerrainOf(size_t u) const {
  TerrainState t;
  const geom::Base& b = fp_[u];
  const double area = b.width_mm * b.depth_mm;
  const geom::Segment front = geom::EdgeSegment(b, geom::Edge::kFront);
  double bad_area = 0.0, covered_area = 0.0;
  for (size_t ti = 0; ti < scene_.terrain.size(); ++ti) {
    const Terrain& tr = scene_.terrain[ti];
    const TerrainKind* k = terrain_kind_[ti];
    if (!k || tr.polygon.size() < 3) continue;
    // A piece whose bounding circle is further from the unit's than the contact tolerance neither
    // overlaps it (the clipped area is exactly 0: every clipped vertex stays outside the base) nor is
    // touched by its front: the exact measures are skipped.
    const auto& [centre, radius] = terrain_circle_[ti];
    const bool apart = (centre - b.centre_mm).norm() - radius - radius_[u] > tol_.contact_mm + 1e-6;
    const double inside = apart ? 0.0 : geom::OverlapArea(b, tr.polygon);
    const bool in = inside >= 0.5 * area;
    const bool behind = !apart && IsLinearObstacle(tr.type) && SegmentToPolygon(front, tr.polygon) <= tol_.contact_mm;
    if (k->bad_going) bad_area += inside;
    if (k->bad_going || k->cover) covered_area += inside;
    // FAQ: a fortification adds +1 to cover or defending terrain; it is not also the cover itself.
    if (k->fortification) {
      if (in || behind) t.fortification_ids.push_back(tr.id);
      continue;
    }
    if (k->cover && (in || behind)) t.cover_ids.push_back(tr.id);
    if (k->defending && (in || behind)) t.defending_ids.push_back(tr.id);
  }
  t.cover = !t.cover_ids.empty();
  t.defending = !t.defending_ids.empty();
  t.fortification = !t.fortification_ids.empty();
  t.bad_going = bad_area >= 0.5 * area;
  t.open = covered_area < 0.5 * area;
  return t;
}

// Each enemy imposes one test. Its target: the declared one, else (FAQ priorities, also used for the
// -2 "in range of flank or rear") the unit in contact, the closest, the most in front, then by id.
std::optional<Pick> Analyzer::ChooseTarget(size_t e, std::vector<std::string>* notes) const {
  struct Cand {
    size_t u;
    int rank;
    double dist, lateral;
  };
  std::vector<Cand> cands;
  for (size_t k = 0; k < nbr_[e].size(); ++k) {
    const size_t u = nbr_[e][k];
    const Cause& c = CauseIn(e, k);
    if (c.Any()) cands.push_back({u, c.Rank(), c.distance_mm, LateralOffset(fp_[e], fp_[u])});
    else if (pairs_cached_ ? BombardIn(e, k) : ComputeBombard(e, u))
      cands.push_back({u, 2, geom::BaseToBase(fp_[e], fp_[u]).distance_mm, LateralOffset(fp_[e], fp_[u])});
  }
  if (cands.empty()) return std::nullopt;
  auto before = [&](const Cand& a, const Cand& b) {
    if (a.rank != b.rank) return a.rank < b.rank;
    if (std::abs(a.dist - b.dist) > tol_.line_mm) return a.dist < b.dist;
    if (std::abs(a.lateral - b.lateral) > tol_.line_mm) return a.lateral < b.lateral;
    return Id(a.u) < Id(b.u);
  };
  std::sort(cands.begin(), cands.end(), before);
  std::string why;
  const std::string declared = DeclaredString(e, "target");
  size_t pick = cands[0].u;
  if (!declared.empty()) {
    auto it = std::find_if(cands.begin(), cands.end(), [&](const Cand& c) { return Id(c.u) == declared; });
    if (it != cands.end()) {
      pick = it->u;
      why = "declared target";
    } else {
      notes->push_back(Id(e) + ": declared target " + declared + " is not in range or contact; default choice used");
    }
  }
  if (why.empty()) {
    if (cands.size() == 1) why = "the only unit it can make test";
    else if (cands[0].rank != cands[1].rank) why = cands[0].rank == 0 ? "in contact" : "in range (others only bombarded)";
    else if (std::abs(cands[0].dist - cands[1].dist) > tol_.line_mm) why = "the closest";
    else if (std::abs(cands[0].lateral - cands[1].lateral) > tol_.line_mm) why = "the most in front";
    else why = "equal priority: first by id (the player may choose another)";
  }
  return Pick{pick, TargetChoice{Id(e), Id(pick), why}};
}

void Analyzer::Morale(size_t u, UnitAnalysis* a) const {
  Reasons(u, a);
  // Step 2: the modifiers, in the QRS's order.
  const MoraleContext m = ContextOf(u, *a);
  PassiveModifiers(u, a);
  ExtraReasons(u, a);
  FireAndContactModifiers(u, m, a);
  TerrainModifiers(u, m, a);
  a->total = 0;
  for (const Modifier& mod : a->modifiers) a->total += mod.value;
  a->odds = MoraleOddsFor(a->total, d_.morale_pass_at_least, d_.morale_rout_at_most);
}

void Analyzer::Add(UnitAnalysis* a, std::string_view key, std::vector<std::string> by, int times) const {
  const MoraleModifierSpec& m = d_.Morale(key);
  a->modifiers.push_back({m.rule, m.value * times, std::move(by)});
}

void Analyzer::Reasons(size_t u, UnitAnalysis* a) const {
  // Step 1: the reasons, one per enemy; a bombardment by two or more guns is one more.
  std::vector<size_t> guns, guns_on_target;
  for (size_t k = 0; k < nbr_[u].size(); ++k) {
    const size_t e = nbr_[u][k];
    const Cause& c = CauseFrom(u, k);
    if (c.Any()) {
      MoraleReason r;
      r.by = Id(e);
      r.kind = KindName(c.kind);
      r.distance_mm = c.distance_mm;
      r.imposed = Targets(e, u);
      r.reason = c.kind == CauseKind::kContactFront ? "In physical contact with enemy's front edge"
                 : c.kind == CauseKind::kUnderFire  ? "Under fire (in range, in arc)"
                                                    : "Infantry within reach of enemy cavalry (not secure)";
      a->reasons.push_back(r);
    } else if (BombardFrom(u, k)) {
      guns.push_back(e);
      if (Targets(e, u)) guns_on_target.push_back(e);
    }
  }
  if (guns.size() >= static_cast<size_t>(d_.bombardment_min_guns)) {
    MoraleReason r;
    r.kind = "bombardment";
    r.reason = "Under bombardment by 2 or more artillery";
    for (size_t g : guns) r.group.push_back(Id(g));
    r.by = r.group.front();
    r.imposed = guns_on_target.size() >= static_cast<size_t>(d_.bombardment_min_guns);
    r.distance_mm = kInf;
    for (size_t g : guns) r.distance_mm = std::min(r.distance_mm, geom::BaseToBase(fp_[g], fp_[u]).distance_mm);
    a->reasons.push_back(r);
  }
  std::stable_sort(a->reasons.begin(), a->reasons.end(), [](const MoraleReason& x, const MoraleReason& y) {
    if (x.imposed != y.imposed) return x.imposed;
    if (x.distance_mm != y.distance_mm) return x.distance_mm < y.distance_mm;
    return x.by < y.by;
  });
  for (const MoraleReason& r : a->reasons) a->must_test = a->must_test || r.imposed;

}

Analyzer::MoraleContext Analyzer::ContextOf(size_t u, const UnitAnalysis& a) const {
  MoraleContext m;
  m.terrain = TerrainOf(u);
  for (const MoraleReason& r : a.reasons) {
    if (r.kind == "contact_front") m.contact_reason = true;
    if ((r.kind == "under_fire" || r.kind == "bombardment") && r.imposed) {
      m.fired_on = true;
      for (const std::string& id : r.kind == "bombardment" ? r.group : std::vector<std::string>{r.by})
        for (size_t e : nbr_[u])
          if (Targets(e, u) && Id(e) == id) m.firers.push_back(e);
    }
  }
  return m;
}

void Analyzer::PassiveModifiers(size_t u, UnitAnalysis* a) const {
  const Unit& U = *units_[u];
  if (U.HasTag("elite")) Add(a, "elite", {});
  if (U.HasTag("raw") || U.HasTag("militia")) Add(a, "raw_or_militia", {});
  if (U.HasTag("small")) Add(a, "small_unit", {});
  if (U.HasTag("stubborn")) {
    const auto moved = Flag(u, "moved");
    if (!moved) a->assumptions.push_back("stubborn: has not moved (no 'moved' declaration)");
    if (!moved.value_or(false)) Add(a, "stubborn_not_moved", {});
  }
  if (InColumn(U) || Limbered(U)) Add(a, "column_or_limbered", {});
  if (!a->rear_support.empty()) Add(a, "rear_support", a->rear_support);
  std::vector<std::string> flank = a->left_flank;
  flank.insert(flank.end(), a->right_flank.begin(), a->right_flank.end());
  std::sort(flank.begin(), flank.end());
  flank.erase(std::unique(flank.begin(), flank.end()), flank.end());
  if (!flank.empty()) Add(a, "enemy_behind_flank", flank);
  if (!a->rear.empty()) Add(a, "enemy_behind_rear", a->rear);
  if (!in_range_by_[u].empty()) Add(a, "enemy_in_range_of_flank_or_rear", in_range_by_[u]);

}

void Analyzer::ExtraReasons(size_t u, UnitAnalysis* a) const {
  // "-1 Ea. reason to test above one, including flank and fire support and additional enemy rear
  // support after the first".
  if (!a->reasons.empty()) {
    std::vector<std::string> extra;
    for (size_t i = 1; i < a->reasons.size(); ++i) {
      const MoraleReason& r = a->reasons[i];
      extra.push_back(r.kind == "bombardment" ? "bombardment(" + std::to_string(r.group.size()) + " guns)" : r.by);
    }
    std::set<std::string> supporters;
    std::set<std::string> causers;
    for (const MoraleReason& r : a->reasons)
      if (r.kind != "bombardment") causers.insert(r.by);
    for (const MoraleReason& r : a->reasons) {
      if (r.kind == "bombardment") continue;
      size_t e = nbr_[u].front();
      for (size_t x : nbr_[u])
        if (Id(x) == r.by) e = x;
      // Flank support: a friend of the enemy beside it, with no target of its own (FAQ "Flank support").
      for (size_t f : nbr_[e]) {
        if (f == e || Enemy(f, e) || !Acts(f) || causers.count(Id(f)) || HasTarget(f)) continue;
        const Unit& F = *units_[f];
        if (F.type != UnitType::kInfantry && F.type != UnitType::kCavalry) continue;
        if (HeadingGap(fp_[f].heading_deg, fp_[e].heading_deg) > d_.flank_support_max_heading_deg) continue;
        if (InContactWithEnemy(f) || st_.supports[f] > 0) continue;  // one effect only (FAQ)
        // Level with the enemy: centres no further apart front-to-back than half their depths.
        const double level = std::abs(geom::ToBaseFrame(fp_[e], fp_[f].centre_mm).y());
        if (level > (fp_[e].depth_mm + fp_[f].depth_mm) / 2.0 + tol_.line_mm) continue;
        const double reach = d_.flank_support_distance_bw * bw_[e] + tol_.line_mm;
        bool beside = false;
        for (const auto& [edge, line] : {std::pair{geom::Edge::kLeft, geom::OutsideLeftLine(fp_[e])},
                                         std::pair{geom::Edge::kRight, geom::OutsideRightLine(fp_[e])}})
          if (line.SignedDistance(fp_[f].centre_mm) > 0.0 &&
              SegmentToPolygon(geom::EdgeSegment(fp_[e], edge), geom::CornersCcw(fp_[f])) <= reach)
            beside = true;
        if (beside) supporters.insert(F.id + " (flank support of " + r.by + ")");
      }
      // Enemy rear support after the first.
      const std::vector<size_t>& rs = rear_support_[e];
      for (size_t i = 1; i < rs.size(); ++i) supporters.insert(Id(rs[i]) + " (rear support of " + r.by + ")");
    }
    extra.insert(extra.end(), supporters.begin(), supporters.end());
    if (!extra.empty()) Add(a, "additional_reason", extra, static_cast<int>(extra.size()));
  }

}

void Analyzer::FireAndContactModifiers(size_t u, const MoraleContext& m, UnitAnalysis* a) const {
  const Unit& U = *units_[u];
  // Under fire: who fires and how.
  if (m.fired_on) {
    std::vector<std::string> close, small, inferior;
    for (size_t e : m.firers) {
      const Unit& E = *units_[e];
      if (E.type == UnitType::kArtillery && geom::BasesWithin(fp_[e], fp_[u], d_.artillery_close_bw * bw_[e] + tol_.line_mm))
        close.push_back(E.id);
      if (E.type == UnitType::kArtillery && (E.HasTag("small") || E.HasTag("tiny"))) small.push_back(E.id);
      if (IsLightInfantry(E) || E.HasTag("inferior_fp")) inferior.push_back(E.id);
    }
    if (!close.empty()) Add(a, "fired_on_by_artillery_close", close);
    if (!small.empty()) Add(a, "fired_on_by_small_artillery", small);
    if (!inferior.empty()) Add(a, "fired_on_by_inferior_or_li", inferior);
  }
  std::vector<std::string> contact_inf, contact_cav, contact_non_li;
  for (size_t k = 0; k < nbr_[u].size(); ++k) {
    const size_t e = nbr_[u][k];
    if (e == u || !Enemy(e, u) || IsGeneral(*units_[e])) continue;
    if (!ContactIn(u, k).in_contact) continue;
    const Unit& E = *units_[e];
    if (E.type == UnitType::kInfantry && !IsLightInfantry(E)) contact_inf.push_back(E.id);
    if (E.type == UnitType::kCavalry) contact_cav.push_back(E.id);
    if (!IsLightInfantry(E)) contact_non_li.push_back(E.id);
  }
  const bool in_contact = !contact_inf.empty() || !contact_cav.empty() || !contact_non_li.empty() ||
                          m.contact_reason;
  if (U.type == UnitType::kInfantry) {
    if (m.fired_on && InColumn(U)) Add(a, "infantry_fired_at_in_column", {});
    std::vector<std::string> charging;
    for (const MoraleReason& r : a->reasons)
      if (r.kind == "contact_front" && scene_.FindUnit(r.by)->type == UnitType::kCavalry) charging.push_back(r.by);
    if (!charging.empty() && !a->secure) {
      const MoraleModifierSpec& m = s_.ChargedByCavalry(d_);
      a->modifiers.push_back({m.rule, m.value, charging});
    }
    if (IsLightInfantry(U) && !contact_non_li.empty() && m.terrain.open)
      Add(a, "li_in_contact_with_non_li_in_open", contact_non_li);
  } else if (U.type == UnitType::kCavalry) {
    if ((m.fired_on && !IsLightHorse(U)) || (in_contact && m.terrain.bad_going)) {
      std::vector<std::string> by;
      for (size_t e : m.firers) by.push_back(Id(e));
      Add(a, "cavalry_under_fire_or_bad_going", by);
    }
    if (in_contact && Flag(u, "pursued").value_or(false)) Add(a, "cavalry_pursued", {});
  } else if (U.type == UnitType::kArtillery) {
    if (!contact_inf.empty()) Add(a, "artillery_in_contact_with_infantry", contact_inf);
    if (!contact_cav.empty()) Add(a, "artillery_in_contact_with_cavalry", contact_cav);
  }

}

void Analyzer::TerrainModifiers(size_t u, const MoraleContext& m, UnitAnalysis* a) const {
  const Unit& U = *units_[u];
  // FAQ table: cover under fire, defending terrain in contact, fortification +1 on top, capped.
  const std::string type(ToString(U.type));
  if (U.type != UnitType::kGeneral) {
    const bool contact_column = m.contact_reason;
    a->terrain_context = contact_column ? "in_contact" : (m.fired_on ? "under_fire" : "");
    const TerrainCap& cap = (contact_column ? d_.in_contact : d_.under_fire).at(type);
    int budget = cap.max;
    auto terrain_mod = [&](bool applies, int value, const std::string& rule, const std::vector<std::string>& ids) {
      if (!applies || value == 0 || budget <= 0) return;
      const int v = std::min(value, budget);
      budget -= v;
      a->modifiers.push_back({rule, v, ids});
    };
    if (contact_column) terrain_mod(m.terrain.defending, cap.defending_terrain, d_.rule_defending_terrain, m.terrain.defending_ids);
    else if (m.fired_on) terrain_mod(m.terrain.cover, cap.cover, d_.rule_cover, m.terrain.cover_ids);
    terrain_mod(m.terrain.fortification, cap.fortification, d_.rule_fortification, m.terrain.fortification_ids);
  }

}

// FAQ "Action tests for being under artillery fire": targeted by artillery (or by LI) means a test
// before acting, -1 for each additional gun and for a failed morale test last turn.
void Analyzer::ActionTests(size_t u, UnitAnalysis* a) const {
  std::vector<std::string> guns, li;
  for (size_t k = 0; k < nbr_[u].size(); ++k) {
    const size_t e = nbr_[u][k];
    if (!Targets(e, u)) continue;
    if (units_[e]->type == UnitType::kArtillery) guns.push_back(Id(e));
    else if (IsLightInfantry(*units_[e]) && CauseFrom(u, k).kind == CauseKind::kUnderFire) li.push_back(Id(e));
  }
  if (guns.empty() && li.empty()) return;
  std::vector<Modifier> mods;
  if (guns.size() > 1)
    mods.push_back({"Each additional gun", d_.action_modifiers.at("additional_gun") * static_cast<int>(guns.size() - 1),
                    std::vector<std::string>(guns.begin() + 1, guns.end())});
  const auto failed = Flag(u, "failed_morale");
  if (failed.value_or(false)) mods.push_back({"Failed morale test last turn", d_.action_modifiers.at("failed_morale_last_turn"), {}});
  const MoveTest& t = d_.move_tests.at("under_fire");
  ActionTest test = MakeActionTest(d_, Id(u), "under_fire", t.rule, t.difficulty, mods);
  test.by = guns;
  test.by.insert(test.by.end(), li.begin(), li.end());
  a->action_tests.push_back(test);
}

Cause Analyzer::CauseWithSecurity(size_t e, size_t u, const UnitAnalysis* secured) const {
  Cause c = CauseOn(e, u);
  if (c.kind != CauseKind::kCavalryThreat) return c;
  UnitAnalysis own;
  if (!secured) {
    Secure(u, &own);
    own.secure = units_[u]->type == UnitType::kInfantry && !own.secure_left.empty() && !own.secure_right.empty();
    secured = &own;
  }
  // FAQ "Infantry vs cavalry": a secured flank stops the cavalry on that side.
  const bool left = geom::OutsideLeftLine(fp_[u]).SignedDistance(fp_[e].centre_mm) > 0.0;
  const bool right = geom::OutsideRightLine(fp_[u]).SignedDistance(fp_[e].centre_mm) > 0.0;
  if (secured->secure || (left && !secured->secure_left.empty()) || (right && !secured->secure_right.empty())) return Cause{};
  return c;
}

// QRS "Zone of control: 1 BW in front" of any of the enemy's bases.
std::vector<std::string> Analyzer::ZocOf(size_t u) const {
  std::vector<std::string> out;
  for (size_t e : nbr_[u]) {
    if (!Enemy(e, u) || IsGeneral(*units_[e])) continue;
    if (Far(e, u, d_.zoc_depth_bw * bw_[e])) continue;
    for (const geom::Base& b : BasesIn(e))
      if (geom::InsideCorridor(b, geom::Edge::kFront, d_.zoc_depth_bw * bw_[e], fp_[u], tol_.line_mm)) {
        out.push_back(Id(e));
        break;
      }
  }
  return out;
}

TotskAnalysis Analyzer::RunFor(const std::string& id) {
  TotskAnalysis out;
  Validate();
  size_t u = 0;
  while (u < n_ && Id(u) != id) ++u;
  if (u == n_) return out;
  CacheUnits();
  UnitAnalysis a;
  a.id = id;
  a.general = IsGeneral(*units_[u]);
  a.infantry = units_[u]->type == UnitType::kInfantry;
  if (!a.general) {
    a.zoc_of = ZocOf(u);
    // Only guns and light infantry give action tests, and only one whose choice could fall on u
    // (it has u among its candidates) needs its choice made.
    std::vector<std::string> notes;
    for (size_t e : nbr_[u]) {
      if (units_[e]->type != UnitType::kArtillery && !IsLightInfantry(*units_[e])) continue;
      if (!CauseOn(e, u).Any() && !BombardCandidate(e, u)) continue;
      cause_[e].resize(nbr_[e].size());
      for (size_t k = 0; k < nbr_[e].size(); ++k) cause_[e][k] = CauseWithSecurity(e, nbr_[e][k], nullptr);
      if (const auto pick = ChooseTarget(e, &notes)) target_[e] = static_cast<long>(pick->unit);
    }
    ActionTests(u, &a);
  }
  out.units.push_back(std::move(a));
  return out;
}

// Step 1: security first, because it decides whether cavalry makes infantry test.
void Analyzer::Security() {
  for (size_t u = 0; u < n_; ++u) {
    if (!Redo(u)) continue;
    UnitAnalysis& a = st_.out.units[u];
    std::vector<std::string> left = std::move(a.secure_left), right = std::move(a.secure_right);
    const bool was = a.secure;
    a.secure_left.clear();
    a.secure_right.clear();
    Secure(u, &a);
    a.secure = a.infantry && !a.secure_left.empty() && !a.secure_right.empty();
    if (was != a.secure || left != a.secure_left || right != a.secure_right) dirty_.secure[u] = 1;
  }
}

// Step 2: every enemy's reasons on every unit: the rows of the units near a move, and the entries on
// the units whose security changed.
void Analyzer::Causes() {
  for (size_t e = 0; e < n_; ++e) {
    if (!Redo(e)) continue;
    cause_[e].resize(nbr_[e].size());
    for (size_t k = 0; k < nbr_[e].size(); ++k) cause_[e][k] = CauseWithSecurity(e, nbr_[e][k], &st_.out.units[nbr_[e][k]]);
  }
  if (dirty_.all) return;
  for (size_t v = 0; v < n_; ++v) {
    if (!dirty_.secure[v]) continue;
    for (size_t e : nbr_[v]) {
      const int k = Slot(e, v);  // -1 only where rounding made the lists disagree: e reads no cause on v
      if (Redo(e) || k < 0) continue;
      Cause& c = cause_[e][k];
      Cause now = CauseWithSecurity(e, v, &st_.out.units[v]);
      if (now == c) continue;
      c = std::move(now);
      dirty_.cause_row[e] = 1;
    }
  }
}

// A changed target changes the tests of the unit it left and of the unit it falls on.
void Analyzer::ChooseTargets() {
  for (size_t e = 0; e < n_; ++e) {
    if (!Redo(e) && !dirty_.cause_row[e]) continue;
    std::vector<std::string> notes;
    std::optional<Pick> pick = ChooseTarget(e, &notes);
    const long now = pick ? static_cast<long>(pick->unit) : -1;
    std::optional<TargetChoice> choice;
    if (pick) choice = std::move(pick->choice);
    if (notes != st_.notes[e] || choice.has_value() != st_.choice[e].has_value() ||
        (choice && (choice->target != st_.choice[e]->target || choice->why != st_.choice[e]->why))) {
      dirty_.choices = true;
      st_.notes[e] = std::move(notes);
      st_.choice[e] = std::move(choice);
    }
    if (now == target_[e]) continue;
    dirty_.target[e] = 1;
    for (long t : {target_[e], now})
      if (t >= 0) dirty_.tests[t] = 1;
    target_[e] = now;
  }
}

// Step 3: zone of control and the threats behind flanks and rear.
void Analyzer::Threats(size_t u, UnitAnalysis* a) const {
  a->zoc_of = ZocOf(u);
  for (auto* list : {&a->left_flank, &a->right_flank, &a->rear, &a->light_threats}) list->clear();
  const double threat_bw = s_.ThreatBw(d_);
  for (size_t e : nbr_[u]) {
    if (!Enemy(e, u) || IsGeneral(*units_[e]) || !Acts(e)) continue;
    if (Far(e, u, std::max(d_.zoc_depth_bw * bw_[e], threat_bw * bw_[u]))) continue;
    const auto side = ThreatSide(e, u);
    if (!side) continue;
    const double limit = threat_bw * bw_[u] + tol_.line_mm;
    double dist = kInf;
    for (const geom::Base& b : BasesIn(e))
      if (BehindSide(fp_[u], b, tol_.line_mm)) dist = std::min(dist, DistanceWithin(fp_[u], b, limit));
    if (dist > limit) continue;
    if (IsLightTroops(*units_[e])) {
      a->light_threats.push_back(Id(e));
      continue;
    }
    (*side == Side::kLeftFlank ? a->left_flank : *side == Side::kRightFlank ? a->right_flank : a->rear).push_back(Id(e));
  }
}

// Step 4: each enemy able to make a test and standing behind flank or rear gives its -2 to one unit.
long Analyzer::InRangeOf(size_t e) const {
  struct Cand {
    size_t u;
    double dist;  // its reason's, mm
  };
  std::vector<Cand> cands;
  for (size_t k = 0; k < nbr_[e].size(); ++k)
    if (CauseIn(e, k).Any() && ThreatSide(e, nbr_[e][k])) cands.push_back({nbr_[e][k], CauseIn(e, k).distance_mm});
  if (cands.empty()) return -1;
  // Sorted, not min_element: the tolerances make the order not quite transitive, and the first after
  // a sort is what this rule has always picked.
  std::sort(cands.begin(), cands.end(), [&](const Cand& cx, const Cand& cy) {
    const size_t x = cx.u, y = cy.u;
    const bool tx = Targets(e, x), ty = Targets(e, y);
    if (tx != ty) return tx;
    if (std::abs(cx.dist - cy.dist) > tol_.line_mm) return cx.dist < cy.dist;
    const double lx = LateralOffset(fp_[e], fp_[x]), ly = LateralOffset(fp_[e], fp_[y]);
    if (std::abs(lx - ly) > tol_.line_mm) return lx < ly;
    return Id(x) < Id(y);
  });
  return static_cast<long>(cands[0].u);
}

void Analyzer::InRange() {
  std::vector<long>& of = st_.in_range_of;
  bool changed = false;
  for (size_t e = 0; e < n_; ++e) {
    if (!Redo(e) && !dirty_.cause_row[e] && !dirty_.target[e]) continue;
    const long now = InRangeOf(e);
    if (now == of[e]) continue;
    for (long t : {of[e], now})
      if (t >= 0) dirty_.in_range[t] = 1;
    of[e] = now;
    changed = true;
  }
  if (!changed) return;
  for (size_t u = 0; u < n_; ++u)
    if (dirty_.in_range[u]) in_range_by_[u].clear();
  for (size_t e = 0; e < n_; ++e)
    if (of[e] >= 0 && dirty_.in_range[of[e]]) in_range_by_[of[e]].push_back(Id(e));
}

// Which units' tests to work out again: those near a move, those whose security, rear support or
// in-range enemies changed, those a target left or fell on (ChooseTargets), and those tested by an
// enemy whose flank support may have changed (a friend of it changed its target, its contact with
// an enemy, or whether it supports someone).
void Analyzer::MarkTests() {
  if (dirty_.all) return;
  std::vector<char> support_near(n_, 0);  // a neighbour's flank support may have changed
  for (size_t f = 0; f < n_; ++f)
    if (dirty_.target[f] || dirty_.enemy_contact[f] || dirty_.supports[f])
      for (size_t e : nbr_[f]) support_near[e] = 1;
  for (size_t u = 0; u < n_; ++u) {
    if (dirty_.near[u] || dirty_.secure[u] || dirty_.rear_support[u] || dirty_.in_range[u]) dirty_.tests[u] = 1;
    if (dirty_.tests[u]) continue;
    for (size_t k = 0; k < nbr_[u].size(); ++k)
      if (const size_t e = nbr_[u][k]; (dirty_.near[e] || dirty_.rear_support[e] || support_near[e]) && CauseFrom(u, k).Any()) {
        dirty_.tests[u] = 1;
        break;
      }
  }
}

// Step 5: morale and action tests; generals attached or near may re-roll.
void Analyzer::Tests() {
  for (size_t u = 0; u < n_; ++u) {
    UnitAnalysis& a = st_.out.units[u];
    if (a.general || !dirty_.tests[u]) continue;
    a.reasons.clear();
    a.must_test = false;
    a.modifiers.clear();
    a.assumptions.clear();
    a.action_tests.clear();
    a.reroll_by.clear();
    Morale(u, &a);
    ActionTests(u, &a);
    const double reroll_mm = d_.general_reroll_bw * bw_[u] + tol_.line_mm;
    for (size_t g : nbr_[u])
      if (IsGeneral(*units_[g]) && !Enemy(g, u) && DistanceWithin(fp_[g], fp_[u], reroll_mm) <= reroll_mm)
        a.reroll_by.push_back(Id(g));
    const std::string attached = DeclaredString(u, "general_attached");
    if (!attached.empty() && std::find(a.reroll_by.begin(), a.reroll_by.end(), attached) == a.reroll_by.end())
      a.reroll_by.push_back(attached);
    std::sort(a.reroll_by.begin(), a.reroll_by.end());
  }
}

void Analyzer::Assemble() {
  if (!dirty_.choices) return;
  TotskAnalysis& out = st_.out;
  out.choices.clear();
  out.notes.clear();
  for (size_t e = 0; e < n_; ++e) {
    if (st_.choice[e]) out.choices.push_back(*st_.choice[e]);
    out.notes.insert(out.notes.end(), st_.notes[e].begin(), st_.notes[e].end());
  }
}

void Analyzer::Run() {
  // Step 0: the declarations this ruleset reads must have the right type (other keys belong to others).
  Validate();
  CacheUnits();
  Pairs();
  RearSupports();
  Security();
  Causes();
  ChooseTargets();
  for (size_t u = 0; u < n_; ++u)
    if (Redo(u) && !st_.out.units[u].general) Threats(u, &st_.out.units[u]);
  InRange();
  MarkTests();
  Tests();
  Assemble();
  st_.made = true;
}

}  // namespace

const UnitAnalysis* TotskAnalysis::Find(const std::string& id) const {
  for (const UnitAnalysis& u : units)
    if (u.id == id) return &u;
  return nullptr;
}

ActionTest MakeActionTest(const TotskData& data, const std::string& unit, const std::string& key,
                          const std::string& reason, const std::string& difficulty, std::vector<Modifier> modifiers) {
  ActionTest t;
  t.key = key;
  t.difficulty = difficulty;
  t.need = data.action_need.at(difficulty);
  t.test.unit = unit;
  t.test.kind = "action";
  t.test.reason = reason;
  t.test.modifiers = std::move(modifiers);
  for (const Modifier& m : t.test.modifiers) t.test.total += m.value;
  t.test.p_success = ActionSuccess(t.test.total, t.need);
  std::string& odds = t.test.odds;  // joined, not streamed: a stream's set-up costs more than this text
  odds = difficulty;
  odds[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(odds[0])));
  odds += " " + std::to_string(t.need) + "+";
  if (t.test.total != 0) odds += " (" + std::string(t.test.total > 0 ? "+" : "") + std::to_string(t.test.total) + ")";
  odds += ": " + std::to_string(static_cast<int>(std::lround(t.test.p_success * 100))) + "%";
  return t;
}

TotskAnalysis AnalyzeTotsk(const TotskData& data, const TotskSettings& settings, const Scene& scene, PairReach reach) {
  State state;
  state.pair_reach = reach;
  Analyzer a(data, settings, scene, &state);
  a.Run();
  return std::move(state.out);
}

const TotskAnalysis& AnalyzeTotsk(const TotskData& data, const TotskSettings& settings, const Scene& scene,
                                  AnalysisMemo* memo, const UnitGrid* grid) {
  Analyzer a(data, settings, scene, memo->state_.get(), grid);
  a.Run();
  return memo->state_->out;
}

TotskAnalysis AnalyzeTotskUnit(const TotskData& data, const TotskSettings& settings, const Scene& scene,
                               const std::string& unit) {
  State state;
  Analyzer a(data, settings, scene, &state);
  return a.RunFor(unit);
}

}  // namespace vedette::totsk
