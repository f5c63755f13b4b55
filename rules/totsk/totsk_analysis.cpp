#include "rules/totsk/totsk_analysis.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <set>
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

namespace vedette::totsk {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// A reason one enemy has to make one unit test (before target choice).
struct Cause {
  std::string kind;        // contact_front, under_fire, cavalry_threat, bombardment ("" = none)
  double distance_mm = kInf;
  int Rank() const { return kind == "contact_front" ? 0 : kind == "bombardment" ? 2 : 1; }
};

// Terrain the unit stands in or behind, by the FAQ's three kinds.
struct TerrainState {
  bool cover = false, defending = false, fortification = false;
  bool bad_going = false;  // at least half the unit in bad going
  bool open = true;        // at least half in neither bad going nor cover
  std::vector<std::string> cover_ids, defending_ids, fortification_ids;
};

bool IsLinearObstacle(const std::string& type) {
  return type == "wall" || type == "hedge" || type == "stream" || type == "river" || type == "fortification" ||
         type == "works";
}

class Analyzer {
 public:
  Analyzer(const TotskData& d, const TotskSettings& s, const Scene& scene) : d_(d), s_(s), scene_(scene) {
    for (const Unit& u : scene.units)
      if (u.pose) {
        units_.push_back(&u);
        fp_.push_back(Footprint(u));
        bases_.push_back(BasesOf(u));
        bw_.push_back(scene.BwFor(u));
        radius_.push_back(std::hypot(fp_.back().width_mm, fp_.back().depth_mm) / 2.0);
      }
    n_ = units_.size();
    for (const Unit* u : units_) declared_.push_back(scene.declarations.Of(u->id));
    for (const Terrain& t : scene.terrain) {
      const geom::Box box = geom::BoxOf(t.polygon);  // (0, 0) for an empty polygon
      const geom::Vec2 centre = (box.lo + box.hi) / 2.0;
      double radius = 0.0;
      for (const geom::Vec2& p : t.polygon) radius = std::max(radius, (p - centre).norm());
      terrain_circle_.push_back({centre, radius});
    }
    std::map<std::string, int> sides;
    for (const Unit* u : units_) side_.push_back(sides.emplace(u->side, int(sides.size())).first->second);
    tol_ = d.tolerances;
    // Step 0: who is near whom. No rule reaches further than the longest of its distances (artillery
    // and bombardment 6 BW, the threat distance, rear support, the generals' 2 BW) in the largest BW
    // on the table: every pair further apart is skipped without a look, and every loop over "each
    // other unit" runs over these neighbours (in scene order, as before).
    double max_bw = 0.0;
    for (double b : bw_) max_bw = std::max(max_bw, b);
    const MoraleRanges& qrs = d.ranges_qrs;
    const MoraleRanges& faq = d.ranges_faq;
    const double reach_bw = std::max({d.bombardment_range_bw, qrs.artillery, qrs.foot, qrs.light_infantry, qrs.cavalry, faq.artillery,
                                      faq.foot, faq.light_infantry, faq.cavalry, s.ThreatBw(d), d.threat_distance_qrs_bw,
                                      d.threat_distance_faq_bw, d.zoc_depth_bw, d.rear_support_infantry_bw,
                                      d.rear_support_cavalry_bw, d.secure_distance_bw, d.flank_support_distance_bw,
                                      d.general_reroll_bw, d.artillery_far_bw});
    const double reach_mm = reach_bw * max_bw + tol_.contact_mm + 2.0;
    const UnitGrid grid(scene);
    std::vector<int> placed_index(scene.units.size(), -1);
    for (size_t i = 0, k = 0; i < scene.units.size(); ++i)
      if (scene.units[i].pose) placed_index[i] = static_cast<int>(k++);
    nbr_.assign(n_, {});
    for (size_t i = 0, k = 0; i < scene.units.size(); ++i) {
      if (!scene.units[i].pose) continue;
      for (int j : grid.Near(static_cast<int>(i), reach_mm)) nbr_[k].push_back(static_cast<size_t>(placed_index[j]));
      ++k;
    }
  }

  TotskAnalysis Run();
  // What judging a move of one unit reads, and only that: the unit's zone of control and its action
  // tests (every enemy that could target it chooses among all its candidates, as in Run()).
  TotskAnalysis RunFor(const std::string& id);

 private:
  bool Enemy(size_t a, size_t b) const { return side_[a] != side_[b]; }
  // True when no part of a and b can be within `reach_mm` (bounding circles): skips the exact geometry.
  bool Far(size_t a, size_t b, double reach_mm) const {
    return (fp_[a].centre_mm - fp_[b].centre_mm).norm() - radius_[a] - radius_[b] > reach_mm + 1.0;
  }
  const std::string& Id(size_t i) const { return units_[i]->id; }
  std::optional<bool> Flag(size_t i, std::string_view key) const;
  std::string DeclaredString(size_t i, std::string_view key) const;
  const Declared* DeclaredOf(size_t i, std::string_view key) const { return Declarations::Find(declared_[i], key); }
  bool Acts(size_t e) const;     // may cause tests and give modifiers (not a general, no bonus move)
  bool CanFire(size_t e) const;  // artillery limbered or pivoted cannot
  bool ComputeCanFire(size_t e) const;
  void Validate() const;  // the declarations this ruleset reads have the right types
  void CacheUnits();      // who acts, who can fire
  void Cache();           // and the pairwise facts every rule reads: contacts, bombardment candidates
  geom::Contact ContactOf(size_t a, size_t b) const;  // FindContact(a, b), from the cache when there is one
  Cause CauseOn(size_t e, size_t u) const;
  // CauseOn with the FAQ's secured flanks applied; secured: u's analysis with its security filled
  // (null: worked out here).
  Cause CauseWithSecurity(size_t e, size_t u, const UnitAnalysis* secured) const;
  std::vector<std::string> ZocOf(size_t u) const;
  // Enemy e's one test: its target among cause_[e] and the bombarded (none when it has no candidate).
  std::optional<TargetChoice> ChooseTarget(size_t e, std::vector<std::string>* notes) const;
  bool BombardCandidate(size_t e, size_t u) const;
  bool ComputeBombard(size_t e, size_t u) const;
  std::optional<Side> ThreatSide(size_t e, size_t u) const;
  bool InContactWithEnemy(size_t i) const;
  std::vector<std::string> RearSupport(size_t u) const;
  void Secure(size_t u, UnitAnalysis* a) const;
  TerrainState TerrainOf(size_t u) const;
  void ChooseTargets(TotskAnalysis* out);
  void Morale(size_t u, UnitAnalysis* a);
  void ActionTests(size_t u, UnitAnalysis* a) const;

  const TotskData& d_;
  const TotskSettings& s_;
  const Scene& scene_;
  Tolerances tol_;
  std::vector<const Unit*> units_;
  std::vector<geom::Base> fp_;
  std::vector<std::vector<geom::Base>> bases_;
  std::vector<double> bw_;
  // Each unit's declarations (nullptr: none), found once: every unit's keys are asked for several
  // times a frame, and most units have none.
  std::vector<const Declarations::Keys*> declared_;
  std::vector<double> radius_;  // half the footprint's diagonal, mm
  std::vector<int> side_;       // the units' sides numbered, so telling enemies apart compares no strings
  size_t n_ = 0;
  std::vector<std::vector<size_t>> nbr_;  // per unit: the units within every rule's reach, ascending (not itself)
  // Position of v in nbr_[u], or -1.
  int Slot(size_t u, size_t v) const {
    const auto& l = nbr_[u];
    const auto it = std::lower_bound(l.begin(), l.end(), v);
    return it != l.end() && *it == v ? static_cast<int>(it - l.begin()) : -1;
  }
  const Cause& CauseAt(size_t e, size_t u) const {
    static const Cause kNone;
    if (cause_[e].empty()) return kNone;
    const int k = Slot(e, u);
    return k < 0 ? kNone : cause_[e][k];
  }
  std::vector<std::vector<Cause>> cause_;           // [enemy][slot of the unit in nbr_[enemy]]
  std::vector<std::string> target_;                 // per unit: the unit its one test falls on
  std::vector<std::vector<std::string>> in_range_by_;  // per unit: enemies whose -2 it takes
  std::vector<bool> secure_;
  std::vector<std::vector<geom::Contact>> contact_;  // [a][slot of b in nbr_[a]]: FindContact(a, b)
  std::vector<bool> acts_, can_fire_, enemy_contact_;
  std::vector<std::vector<bool>> bombard_;          // [gun][slot of the unit in nbr_[gun]]
  std::vector<std::vector<std::string>> rear_support_;  // per unit, filled in step 3
  std::set<std::string> supporting_;                // units giving rear support to some unit
  std::vector<std::pair<bool, bool>> secure_sides_;
  std::vector<std::pair<geom::Vec2, double>> terrain_circle_;  // per terrain piece: a circle holding it (centre, radius mm)
};

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
  const MoraleRanges& reach = s_.Ranges(d_);
  if (Far(e, u, std::max({reach.foot, reach.light_infantry, reach.cavalry, reach.artillery}) * bw_[e] + tol_.contact_mm))
    return c;
  const geom::Contact contact = ContactOf(u, e);
  if (contact.in_contact && contact.edge_b == geom::Edge::kFront && !contact.corner_only) {
    c.kind = "contact_front";
    c.distance_mm = 0.0;
    return c;
  }
  const MoraleRanges& r = s_.Ranges(d_);
  if (CanFire(e)) {
    if (IsLightInfantry(E)) {
      // "arc Straight Ahead, except LI": LI fire at anything ahead of their front-edge line.
      const double dist = geom::BaseToBase(fp_[e], fp_[u]).distance_mm;
      if (dist <= r.light_infantry * bw_[e] + tol_.line_mm && !FacesAway(fp_[e], fp_[u], tol_.line_mm)) {
        c.kind = "under_fire";
        c.distance_mm = dist;
        return c;
      }
    } else {
      const double range = (E.type == UnitType::kArtillery ? r.artillery : r.foot) * bw_[e];
      if (geom::InsideCorridor(fp_[e], geom::Edge::kFront, range, fp_[u], tol_.line_mm)) {
        c.kind = "under_fire";
        c.distance_mm = geom::InCorridor(fp_[e], geom::Edge::kFront, range, fp_[u], tol_.line_mm).reach_mm;
        return c;
      }
    }
  }
  if (E.type == UnitType::kCavalry && U.type == UnitType::kInfantry) {
    const double dist = geom::BaseToBase(fp_[e], fp_[u]).distance_mm;
    if (dist <= r.cavalry * bw_[e] + tol_.line_mm && !FacesAway(fp_[e], fp_[u], tol_.line_mm)) {
      c.kind = "cavalry_threat";
      c.distance_mm = dist;
    }
  }
  return c;
}

// QRS reason 4: artillery bombarding up to 6 BW, straight ahead, beyond its own firing range.
bool Analyzer::BombardCandidate(size_t e, size_t u) const {
  if (bombard_.empty()) return ComputeBombard(e, u);
  const int k = Slot(e, u);
  return k >= 0 && bombard_[e][k];
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
  for (const geom::Base& b : bases_[e]) {
    const auto side = BehindSide(fp_[u], b, tol_.line_mm);
    if (side && (!best || *side == Side::kRear)) best = side;
  }
  return best;
}

bool Analyzer::InContactWithEnemy(size_t i) const { return enemy_contact_[i]; }

geom::Contact Analyzer::ContactOf(size_t a, size_t b) const {
  if (!contact_.empty()) {
    const int k = Slot(a, b);
    return k < 0 ? geom::Contact{} : contact_[a][k];
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
    for (const char* key : {"failed_morale", "moved", "bonus_move", "pursued", "pivoted", "passed_morale", "broke_off", "lost"})
      Flag(i, key);
    for (const char* key : {"target", "general_attached", "crew_with"}) DeclaredString(i, key);
  }
}

void Analyzer::CacheUnits() {
  acts_.assign(n_, false);
  can_fire_.assign(n_, false);
  for (size_t i = 0; i < n_; ++i) {
    acts_[i] = !IsGeneral(*units_[i]) && !Flag(i, "bonus_move").value_or(false);
    can_fire_[i] = ComputeCanFire(i);
  }
}

void Analyzer::Cache() {
  CacheUnits();
  contact_.assign(n_, {});
  for (size_t i = 0; i < n_; ++i) {
    contact_[i].resize(nbr_[i].size());
    for (size_t k = 0; k < nbr_[i].size(); ++k) {
      const size_t j = nbr_[i][k];
      if (!Far(i, j, tol_.contact_mm) && geom::BaseGap(fp_[i], fp_[j]) <= tol_.contact_mm + 1e-6)
        contact_[i][k] = geom::FindContact(fp_[i], fp_[j], tol_.contact_mm);
    }
  }
  enemy_contact_.assign(n_, false);
  for (size_t i = 0; i < n_; ++i) {
    for (size_t k = 0; k < nbr_[i].size(); ++k) {
      const size_t j = nbr_[i][k];
      if (Enemy(i, j) && !IsGeneral(*units_[j]) && contact_[i][k].in_contact) enemy_contact_[i] = true;
    }
  }
  bombard_.assign(n_, {});
  for (size_t e = 0; e < n_; ++e) {
    bombard_[e].resize(nbr_[e].size());
    for (size_t k = 0; k < nbr_[e].size(); ++k) bombard_[e][k] = ComputeBombard(e, nbr_[e][k]);
  }
}

// QRS "+1 Rear sup. w/1BW Inf., 2BW Cav"; FAQ: any part behind counts, a unit in contact cannot
// support, the supporter faces towards the rear of the unit it supports.
std::vector<std::string> Analyzer::RearSupport(size_t u) const {
  std::vector<std::string> out;
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
    out.push_back(S.id);
  }
  std::sort(out.begin(), out.end());
  return out;
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
      if (SegmentToPolygon(seg, geom::PolygonCcw(fp_[f])) <= reach) list->push_back(Id(f));
    }
    for (size_t ti = 0; ti < scene_.terrain.size(); ++ti) {
      const Terrain& t = scene_.terrain[ti];
      if (std::find(d_.secure_terrain.begin(), d_.secure_terrain.end(), t.type) == d_.secure_terrain.end()) continue;
      if (beyond_reach(terrain_circle_[ti].first, terrain_circle_[ti].second)) continue;
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
    const TerrainKind* k = FindTerrainKind(tr.type);
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
void Analyzer::ChooseTargets(TotskAnalysis* out) {
  target_.assign(n_, "");
  for (size_t e = 0; e < n_; ++e) {
    const std::optional<TargetChoice> choice = ChooseTarget(e, &out->notes);
    if (!choice) continue;
    target_[e] = choice->target;
    out->choices.push_back(*choice);
  }
}

std::optional<TargetChoice> Analyzer::ChooseTarget(size_t e, std::vector<std::string>* notes) const {
  struct Cand {
    size_t u;
    int rank;
    double dist, lateral;
  };
  std::vector<Cand> cands;
  for (size_t u : nbr_[e]) {
    const Cause& c = CauseAt(e, u);
    if (!c.kind.empty()) cands.push_back({u, c.Rank(), c.distance_mm, LateralOffset(fp_[e], fp_[u])});
    else if (BombardCandidate(e, u))
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
  return TargetChoice{Id(e), Id(pick), why};
}

void Analyzer::Morale(size_t u, UnitAnalysis* a) {
  const Unit& U = *units_[u];
  // Step 1: the reasons, one per enemy; a bombardment by two or more guns is one more.
  std::vector<size_t> guns, guns_on_target;
  for (size_t e : nbr_[u]) {
    const Cause& c = CauseAt(e, u);
    if (!c.kind.empty()) {
      MoraleReason r;
      r.by = Id(e);
      r.kind = c.kind;
      r.distance_mm = c.distance_mm;
      r.imposed = target_[e] == U.id;
      r.reason = c.kind == "contact_front"   ? "In physical contact with enemy's front edge"
                 : c.kind == "under_fire"    ? "Under fire (in range, in arc)"
                                             : "Infantry within reach of enemy cavalry (not secure)";
      a->reasons.push_back(r);
    } else if (BombardCandidate(e, u)) {
      guns.push_back(e);
      if (target_[e] == U.id) guns_on_target.push_back(e);
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

  // Step 2: the modifiers, in the QRS's order.
  auto add = [&](const std::string& key, std::vector<std::string> by, int times = 1) {
    const MoraleModifierSpec& m = d_.Morale(key);
    a->modifiers.push_back({m.rule, m.value * times, std::move(by)});
  };
  const TerrainState terrain = TerrainOf(u);
  bool fired_on = false, contact_reason = false;
  std::vector<size_t> firers;  // enemies whose fire targets this unit
  for (const MoraleReason& r : a->reasons) {
    if (r.kind == "contact_front") contact_reason = true;
    if ((r.kind == "under_fire" || r.kind == "bombardment") && r.imposed) {
      fired_on = true;
      for (const std::string& id : r.kind == "bombardment" ? r.group : std::vector<std::string>{r.by})
        for (size_t e : nbr_[u])
          if (Id(e) == id && target_[e] == U.id) firers.push_back(e);
    }
  }
  if (U.HasTag("elite")) add("elite", {});
  if (U.HasTag("raw") || U.HasTag("militia")) add("raw_or_militia", {});
  if (U.HasTag("small")) add("small_unit", {});
  if (U.HasTag("stubborn")) {
    const auto moved = Flag(u, "moved");
    if (!moved) a->assumptions.push_back("stubborn: has not moved (no 'moved' declaration)");
    if (!moved.value_or(false)) add("stubborn_not_moved", {});
  }
  if (InColumn(U) || Limbered(U)) add("column_or_limbered", {});
  if (!a->rear_support.empty()) add("rear_support", a->rear_support);
  std::vector<std::string> flank = a->left_flank;
  flank.insert(flank.end(), a->right_flank.begin(), a->right_flank.end());
  std::sort(flank.begin(), flank.end());
  flank.erase(std::unique(flank.begin(), flank.end()), flank.end());
  if (!flank.empty()) add("enemy_behind_flank", flank);
  if (!a->rear.empty()) add("enemy_behind_rear", a->rear);
  if (!in_range_by_[u].empty()) add("enemy_in_range_of_flank_or_rear", in_range_by_[u]);

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
        if (f == e || Enemy(f, e) || !Acts(f) || causers.count(Id(f)) || !target_[f].empty()) continue;
        const Unit& F = *units_[f];
        if (F.type != UnitType::kInfantry && F.type != UnitType::kCavalry) continue;
        if (HeadingGap(fp_[f].heading_deg, fp_[e].heading_deg) > d_.flank_support_max_heading_deg) continue;
        if (InContactWithEnemy(f) || supporting_.count(F.id)) continue;  // one effect only (FAQ)
        // Level with the enemy: centres no further apart front-to-back than half their depths.
        const double level = std::abs(geom::ToBaseFrame(fp_[e], fp_[f].centre_mm).y());
        if (level > (fp_[e].depth_mm + fp_[f].depth_mm) / 2.0 + tol_.line_mm) continue;
        const double reach = d_.flank_support_distance_bw * bw_[e] + tol_.line_mm;
        bool beside = false;
        for (const auto& [edge, line] : {std::pair{geom::Edge::kLeft, geom::OutsideLeftLine(fp_[e])},
                                         std::pair{geom::Edge::kRight, geom::OutsideRightLine(fp_[e])}})
          if (line.SignedDistance(fp_[f].centre_mm) > 0.0 &&
              SegmentToPolygon(geom::EdgeSegment(fp_[e], edge), geom::PolygonCcw(fp_[f])) <= reach)
            beside = true;
        if (beside) supporters.insert(F.id + " (flank support of " + r.by + ")");
      }
      // Enemy rear support after the first.
      const std::vector<std::string>& rs = rear_support_[e];
      for (size_t i = 1; i < rs.size(); ++i) supporters.insert(rs[i] + " (rear support of " + r.by + ")");
    }
    extra.insert(extra.end(), supporters.begin(), supporters.end());
    if (!extra.empty()) add("additional_reason", extra, static_cast<int>(extra.size()));
  }

  // Under fire: who fires and how.
  if (fired_on) {
    std::vector<std::string> close, small, inferior;
    for (size_t e : firers) {
      const Unit& E = *units_[e];
      const double dist = geom::BaseToBase(fp_[e], fp_[u]).distance_mm;
      if (E.type == UnitType::kArtillery && dist <= d_.artillery_close_bw * bw_[e] + tol_.line_mm) close.push_back(E.id);
      if (E.type == UnitType::kArtillery && (E.HasTag("small") || E.HasTag("tiny"))) small.push_back(E.id);
      if (IsLightInfantry(E) || E.HasTag("inferior_fp")) inferior.push_back(E.id);
    }
    if (!close.empty()) add("fired_on_by_artillery_close", close);
    if (!small.empty()) add("fired_on_by_small_artillery", small);
    if (!inferior.empty()) add("fired_on_by_inferior_or_li", inferior);
  }
  std::vector<std::string> contact_inf, contact_cav, contact_non_li;
  for (size_t e : nbr_[u]) {
    if (e == u || !Enemy(e, u) || IsGeneral(*units_[e])) continue;
    if (!ContactOf(u, e).in_contact) continue;
    const Unit& E = *units_[e];
    if (E.type == UnitType::kInfantry && !IsLightInfantry(E)) contact_inf.push_back(E.id);
    if (E.type == UnitType::kCavalry) contact_cav.push_back(E.id);
    if (!IsLightInfantry(E)) contact_non_li.push_back(E.id);
  }
  const bool in_contact = !contact_inf.empty() || !contact_cav.empty() || !contact_non_li.empty() ||
                          contact_reason;
  if (U.type == UnitType::kInfantry) {
    if (fired_on && InColumn(U)) add("infantry_fired_at_in_column", {});
    std::vector<std::string> charging;
    for (const MoraleReason& r : a->reasons)
      if (r.kind == "contact_front" && scene_.FindUnit(r.by)->type == UnitType::kCavalry) charging.push_back(r.by);
    if (!charging.empty() && !a->secure) {
      const MoraleModifierSpec& m = s_.ChargedByCavalry(d_);
      a->modifiers.push_back({m.rule, m.value, charging});
    }
    if (IsLightInfantry(U) && !contact_non_li.empty() && terrain.open)
      add("li_in_contact_with_non_li_in_open", contact_non_li);
  } else if (U.type == UnitType::kCavalry) {
    if ((fired_on && !IsLightHorse(U)) || (in_contact && terrain.bad_going)) {
      std::vector<std::string> by;
      for (size_t e : firers) by.push_back(Id(e));
      add("cavalry_under_fire_or_bad_going", by);
    }
    if (in_contact && Flag(u, "pursued").value_or(false)) add("cavalry_pursued", {});
  } else if (U.type == UnitType::kArtillery) {
    if (!contact_inf.empty()) add("artillery_in_contact_with_infantry", contact_inf);
    if (!contact_cav.empty()) add("artillery_in_contact_with_cavalry", contact_cav);
  }

  // FAQ table: cover under fire, defending terrain in contact, fortification +1 on top, capped.
  const std::string type(ToString(U.type));
  if (U.type != UnitType::kGeneral) {
    const bool contact_column = contact_reason;
    a->terrain_context = contact_column ? "in_contact" : (fired_on ? "under_fire" : "");
    const TerrainCap& cap = (contact_column ? d_.in_contact : d_.under_fire).at(type);
    int budget = cap.max;
    auto terrain_mod = [&](bool applies, int value, const std::string& rule, const std::vector<std::string>& ids) {
      if (!applies || value == 0 || budget <= 0) return;
      const int v = std::min(value, budget);
      budget -= v;
      a->modifiers.push_back({rule, v, ids});
    };
    if (contact_column) terrain_mod(terrain.defending, cap.defending_terrain, d_.rule_defending_terrain, terrain.defending_ids);
    else if (fired_on) terrain_mod(terrain.cover, cap.cover, d_.rule_cover, terrain.cover_ids);
    terrain_mod(terrain.fortification, cap.fortification, d_.rule_fortification, terrain.fortification_ids);
  }

  a->total = 0;
  for (const Modifier& m : a->modifiers) a->total += m.value;
  a->odds = MoraleOddsFor(a->total, d_.morale_pass_at_least, d_.morale_rout_at_most);
}

// FAQ "Action tests for being under artillery fire": targeted by artillery (or by LI) means a test
// before acting, -1 for each additional gun and for a failed morale test last turn.
void Analyzer::ActionTests(size_t u, UnitAnalysis* a) const {
  std::vector<std::string> guns, li;
  for (size_t e : nbr_[u]) {
    if (target_[e] != Id(u)) continue;
    if (units_[e]->type == UnitType::kArtillery) guns.push_back(Id(e));
    else if (IsLightInfantry(*units_[e]) && CauseAt(e, u).kind == "under_fire") li.push_back(Id(e));
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
  if (c.kind != "cavalry_threat") return c;
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
    for (const geom::Base& b : bases_[e])
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
    target_.assign(n_, "");
    cause_.assign(n_, {});
    std::vector<std::string> notes;
    for (size_t e : nbr_[u]) {
      if (units_[e]->type != UnitType::kArtillery && !IsLightInfantry(*units_[e])) continue;
      if (CauseOn(e, u).kind.empty() && !BombardCandidate(e, u)) continue;
      cause_[e].resize(nbr_[e].size());
      for (size_t k = 0; k < nbr_[e].size(); ++k) cause_[e][k] = CauseWithSecurity(e, nbr_[e][k], nullptr);
      if (const auto choice = ChooseTarget(e, &notes)) target_[e] = choice->target;
    }
    ActionTests(u, &a);
  }
  out.units.push_back(std::move(a));
  return out;
}

TotskAnalysis Analyzer::Run() {
  TotskAnalysis out;
  // Step 0: the declarations this ruleset reads must have the right type (other keys belong to others).
  Validate();
  out.units.resize(n_);
  Cache();
  rear_support_.assign(n_, {});
  for (size_t u = 0; u < n_; ++u) rear_support_[u] = RearSupport(u);
  secure_.assign(n_, false);
  // Step 1: security first, because it decides whether cavalry makes infantry test.
  for (size_t u = 0; u < n_; ++u) {
    UnitAnalysis& a = out.units[u];
    a.id = Id(u);
    a.general = IsGeneral(*units_[u]);
    a.infantry = units_[u]->type == UnitType::kInfantry;
    Secure(u, &a);
    a.secure = a.infantry && !a.secure_left.empty() && !a.secure_right.empty();
    secure_[u] = a.secure;
  }
  // Step 2: every enemy's reasons on every unit.
  cause_.assign(n_, {});
  for (size_t e = 0; e < n_; ++e) {
    cause_[e].resize(nbr_[e].size());
    for (size_t k = 0; k < nbr_[e].size(); ++k) cause_[e][k] = CauseWithSecurity(e, nbr_[e][k], &out.units[nbr_[e][k]]);
  }
  ChooseTargets(&out);
  // Step 3: zone of control, threats behind flanks and rear, rear support.
  in_range_by_.assign(n_, {});
  const double threat_bw = s_.ThreatBw(d_);
  for (size_t u = 0; u < n_; ++u) {
    UnitAnalysis& a = out.units[u];
    if (a.general) continue;
    a.zoc_of = ZocOf(u);
    for (size_t e : nbr_[u]) {
      if (!Enemy(e, u) || IsGeneral(*units_[e]) || !Acts(e)) continue;
      if (Far(e, u, std::max(d_.zoc_depth_bw * bw_[e], threat_bw * bw_[u]))) continue;
      const auto side = ThreatSide(e, u);
      if (!side) continue;
      double dist = kInf;
      for (const geom::Base& b : bases_[e])
        if (BehindSide(fp_[u], b, tol_.line_mm)) dist = std::min(dist, geom::BaseToBase(fp_[u], b).distance_mm);
      if (dist > threat_bw * bw_[u] + tol_.line_mm) continue;
      if (IsLightTroops(*units_[e])) {
        a.light_threats.push_back(Id(e));
        continue;
      }
      (*side == Side::kLeftFlank ? a.left_flank : *side == Side::kRightFlank ? a.right_flank : a.rear).push_back(Id(e));
    }
    a.rear_support = rear_support_[u];
    supporting_.insert(a.rear_support.begin(), a.rear_support.end());
  }
  // Step 4: each enemy able to make a test and standing behind flank or rear gives its -2 to one unit.
  for (size_t e = 0; e < n_; ++e) {
    std::vector<size_t> cands;
    for (size_t u : nbr_[e])
      if (!CauseAt(e, u).kind.empty() && ThreatSide(e, u)) cands.push_back(u);
    if (cands.empty()) continue;
    std::sort(cands.begin(), cands.end(), [&](size_t x, size_t y) {
      const bool tx = target_[e] == Id(x), ty = target_[e] == Id(y);
      if (tx != ty) return tx;
      if (std::abs(CauseAt(e, x).distance_mm - CauseAt(e, y).distance_mm) > tol_.line_mm)
        return CauseAt(e, x).distance_mm < CauseAt(e, y).distance_mm;
      const double lx = LateralOffset(fp_[e], fp_[x]), ly = LateralOffset(fp_[e], fp_[y]);
      if (std::abs(lx - ly) > tol_.line_mm) return lx < ly;
      return Id(x) < Id(y);
    });
    in_range_by_[cands[0]].push_back(Id(e));
  }
  // Step 5: morale and action tests; generals attached or near may re-roll.
  for (size_t u = 0; u < n_; ++u) {
    UnitAnalysis& a = out.units[u];
    if (a.general) continue;
    Morale(u, &a);
    ActionTests(u, &a);
    for (size_t g : nbr_[u])
      if (IsGeneral(*units_[g]) && !Enemy(g, u) &&
          geom::BaseToBase(fp_[g], fp_[u]).distance_mm <= d_.general_reroll_bw * bw_[u] + tol_.line_mm)
        a.reroll_by.push_back(Id(g));
    const std::string attached = DeclaredString(u, "general_attached");
    if (!attached.empty() && std::find(a.reroll_by.begin(), a.reroll_by.end(), attached) == a.reroll_by.end())
      a.reroll_by.push_back(attached);
    std::sort(a.reroll_by.begin(), a.reroll_by.end());
  }
  return out;
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

TotskAnalysis AnalyzeTotsk(const TotskData& data, const TotskSettings& settings, const Scene& scene) {
  Analyzer a(data, settings, scene);
  return a.Run();
}

TotskAnalysis AnalyzeTotskUnit(const TotskData& data, const TotskSettings& settings, const Scene& scene,
                               const std::string& unit) {
  Analyzer a(data, settings, scene);
  return a.RunFor(unit);
}

}  // namespace vedette::totsk
