#include "rules/totsk/totsk_move.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <sstream>

#include "rules/geometry/contact.h"
#include "rules/geometry/distance.h"
#include "rules/geometry/corridor.h"
#include "rules/geometry/sweep.h"
#include "rules/input_error.h"
#include "rules/overlaps.h"
#include "rules/totsk/command_points.h"
#include "rules/totsk/move_judge.h"
#include "rules/totsk/totsk_analysis.h"
#include "rules/totsk/totsk_geometry.h"
#include "rules/totsk/totsk_report.h"
#include "rules/totsk/totsk_units.h"

namespace vedette::totsk {

namespace move {

std::string Mm(double mm) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g mm", mm);
  return buf;
}

nlohmann::json PoseJson(const Pose& p) {
  auto r = [](double v) { return std::round(v * 10.0) / 10.0; };
  return {{"x_mm", r(p.x_mm)}, {"y_mm", r(p.y_mm)}, {"heading_deg", r(geom::NormalizeDeg(p.heading_deg))}};
}

Pose PoseOf(const Unit& u, const geom::Base& fp_target, const geom::Base& fp_now) {
  // The unit's pose that puts its footprint at fp_target, given its pose puts it at fp_now.
  const Pose p = *u.pose;
  const geom::Vec2 offset = geom::ToBaseFrame(fp_now, {p.x_mm, p.y_mm});
  const geom::Vec2 c = geom::ToTableFrame(fp_target, offset);
  return {c.x(), c.y(), p.heading_deg + geom::NormalizeDeg(fp_target.heading_deg - fp_now.heading_deg)};
}

// Length (mm) of the path a point travels when the base goes from `a` to `b` by one rotation (any rigid
// motion of the plane with a turn is a rotation about some point: every point moves on an arc).
double PathLength(const geom::Vec2& p, const geom::Vec2& q, double turn_deg) {
  const double chord = (q - p).norm();
  const double half = std::abs(geom::DegToRad(turn_deg)) / 2.0;
  if (half < 1e-9) return chord;
  return chord * half / std::sin(half);
}

MoveCheck MoveJudge::Finish(const nlohmann::json& extra) {
  m_.legal = legal_;
  m_.illegal_reason = reason_;
  m_.kinds = kinds_;
  if (legal_) m_.state_changes = changes_;
  std::stable_sort(tests_.begin(), tests_.end(), [](const PlannedTest& a, const PlannedTest& b) { return a.phase < b.phase; });
  nlohmann::json tests = nlohmann::json::array();
  double p_all = 1.0;
  std::ostringstream text;
  text << "TotSK move of " << move_.unit << ": " << (legal_ ? "legal" : "ILLEGAL: " + reason_) << "\n";
  if (!kinds_.empty()) {
    text << "  kind:";
    for (const auto& k : kinds_) text << " " << k;
    text << "\n";
  }
  if (legal_) {
    int order = 1;
    for (const PlannedTest& t : tests_) {
      nlohmann::json j = ActionTestJson(t.test);
      j["order"] = order++;
      j["halt_if_failed"] = {{"where", t.halt_where}, {"pose", PoseJson(t.halt)}};
      tests.push_back(j);
      m_.tests.push_back(t.test.test);
      p_all *= t.test.test.p_success;
      text << "  " << j["order"].get<int>() << ". " << t.test.test.reason << ": " << t.test.test.odds
           << "  (fails: halts " << t.halt_where << ")\n";
    }
    if (tests_.empty()) text << "  no action test\n";
    else text << "  all pass: " << static_cast<int>(std::lround(p_all * 100)) << "%\n";
  }
  for (const auto& n : notes_) text << "  note: " << n << "\n";
  nlohmann::json changes = nlohmann::json::array();
  for (const StateChange& c : m_.state_changes) {
    changes.push_back({{"unit", c.unit}, {"key", c.key}, {"value", c.value}, {"reason", c.reason}});
    text << "  then " << c.unit << " " << c.reason << "\n";
  }
  report_["state_changes"] = changes;
  report_["legal"] = legal_;
  report_["illegal_reason"] = legal_ ? nlohmann::json(nullptr) : nlohmann::json(reason_);
  report_["kinds"] = kinds_;
  report_["tests"] = tests;
  report_["p_all_pass"] = legal_ ? p_all : 0.0;
  report_["notes"] = notes_;
  for (auto& [k, v] : extra.items()) report_[k] = v;
  m_.report = report_;
  m_.text = text.str();
  return m_;
}

bool MoveJudge::ReadRequest() {
  u_ = scene_.FindUnit(move_.unit);
  if (!u_) {
    Illegal("no unit '" + move_.unit + "' in the scene");
    return false;
  }
  if (!u_->pose) {
    Illegal("unit " + u_->id + " has no pose");
    return false;
  }
  const Pose& to = move_.to;
  if (!std::isfinite(to.x_mm) || !std::isfinite(to.y_mm) || !std::isfinite(to.heading_deg)) {
    Illegal("the target pose is not a finite position and heading");
    return false;
  }
  return true;
}

void MoveJudge::Measure() {
  const Unit& U = *u_;
  g_.moved = U;
  g_.moved.pose = move_.to;
  if (!move_.formation.empty()) g_.moved.formation = move_.formation;
  g_.from_fp = Footprint(U);
  g_.to_fp = Footprint(g_.moved);
  g_.start = *U.pose;
  g_.bw = scene_.BwFor(U);
  g_.slack = tol_.placement_bw * g_.bw;
  g_.turn = geom::NormalizeDeg(g_.to_fp.heading_deg - g_.from_fp.heading_deg);
  g_.aturn = std::abs(g_.turn);
  g_.delta = g_.to_fp.centre_mm - g_.from_fp.centre_mm;
  g_.dist = g_.delta.norm();
  g_.off = g_.dist <= tol_.distance_mm
               ? 0.0
               : geom::RadToDeg(std::acos(std::clamp(g_.delta.normalized().dot(geom::Forward(g_.from_fp)), -1.0, 1.0)));
  report_["from"] = PoseJson(g_.start);
  report_["to"] = PoseJson(move_.to);
}

MoveCheck MoveJudge::Run() {
  m_.supported = true;
  report_ = {{"ruleset", "totsk"}, {"unit", move_.unit}, {"second_move", move_.second_move}};
  if (!ReadRequest()) return Finish({});
  Measure();
  const Unit& U = *u_;
  // A routed unit (morale score of 3 or less, QRS) flees: its move is the result of the test, not
  // an order, so no move rule and no action test applies. The sheet gives no rout move to check it
  // against; the players declare the rout (`routed: true`, or `state: routed` from the overlay).
  if (scene_.declarations.Routed(U.id)) {
    kinds_.push_back("rout");
    notes_.push_back(U.id + " is declared routed: a flight, not an ordered move (no action test)");
    return Finish({{"distance_mm", g_.dist}});
  }
  // A cavalry unit that broke off "cannot move again in their following turn" (QRS 95; FAQ "PURSUING":
  // "the breaking off counts as its move").
  if (scene_.declarations.Flag(U.id, "broke_off") && !IsGeneral(U)) {
    kinds_.push_back("after_break_off");
    Illegal(U.id + " broke off: it cannot move again in its following turn (QRS 95)");
    return Finish({});
  }
  nlohmann::json extra = nlohmann::json::object();
  if (Reaction(&extra)) return Finish(extra);
  const Travel travel = Classify();
  const UnitAnalysis* ua = StartPosition();
  Meets();
  Ground ground = GroundCrossed();
  Allowance(travel, &ground);
  PlanTests(ua, ground);
  Summarise(travel, ground);
  return Finish({});
}

// Step 2: classify by the turn and the direction of travel.
Travel MoveJudge::Classify() {
  const Unit& U = *u_;
  Travel t;
  // Distance moved: the longer path of the two front corners (a wheel is measured on its outer corner).
  for (size_t i = 0; i < 2; ++i)
    t.counted_mm = std::max(t.counted_mm, PathLength(geom::Corners(g_.from_fp)[i], geom::Corners(g_.to_fp)[i], g_.turn));
  const bool formation_change = FormationChange();
  // A turn about any point of the base is free: the FAQ accepts all three face-to-flank placements.
  const double pivot_free = std::hypot(g_.from_fp.width_mm, g_.from_fp.depth_mm) / 2.0 + tol_.pivot_bw * g_.bw;
  const double aturn = g_.aturn;
  if (IsGeneral(U)) {
    kinds_.push_back("general_move");
  } else if (aturn <= tol_.straight_deg) {
    ClassifyKeepingFacing(&t);
  } else if (std::abs(aturn - 90.0) <= tol_.turn_deg) {
    kinds_.push_back(formation_change ? "formation_change_turning" : "face_to_flank");
    t.counted_mm = std::max(0.0, g_.dist - pivot_free);
  } else if (aturn >= 180.0 - tol_.turn_deg) {
    kinds_.push_back("about_face");
    t.counted_mm = std::max(0.0, g_.dist - pivot_free);
  } else if (U.type == UnitType::kArtillery && aturn <= 45.0 + tol_.straight_deg && g_.dist <= tol_.pivot_bw * g_.bw + tol_.distance_mm) {
    kinds_.push_back("pivot");
    t.counted_mm = 0.0;
    notes_.push_back("artillery that rotates on the spot cannot fire in the following enemy phase unless it passes a test");
  } else if (aturn <= 45.0 + tol_.straight_deg || U.formation != "line") {
    kinds_.push_back("wheel");
  } else {
    std::ostringstream s;
    s << "turns " << std::lround(aturn) << " degrees: a wheel in line may turn at most 45 degrees";
    Illegal(s.str());
  }
  if (formation_change && !Has("formation_change") && !Has("formation_change_turning"))
    kinds_.insert(kinds_.begin(), "formation_change");
  if (formation_change) t.half_move = true;
  return t;
}

void MoveJudge::ClassifyKeepingFacing(Travel* t) {
  if (g_.dist <= tol_.distance_mm) {
    kinds_.push_back(FormationChange() ? "formation_change" : "no_move");
    return;
  }
  const double off = g_.off;
  if (off <= tol_.straight_deg) {
    kinds_.push_back("straight_ahead");
  } else if (off >= 180.0 - tol_.straight_deg) {
    kinds_.push_back("straight_back");
    t->half_move = true;
  } else if (off <= 45.0 + tol_.straight_deg) {
    kinds_.push_back("echelon");
  } else {
    std::ostringstream s;
    s << "moves " << std::lround(off) << " degrees off its facing without turning: only straight ahead, straight back "
      << "or echelon (up to 45 degrees) keep the facing";
    Illegal(s.str());
  }
}

// Step 3: the start position (zone of control, fire) from the analysis of the scene as it stands.
const UnitAnalysis* MoveJudge::StartPosition() {
  start_analysis_ = AnalyzeTotskUnit(d_, s_, scene_, u_->id);
  const UnitAnalysis* ua = start_analysis_.Find(u_->id);
  const std::vector<std::string> zoc = ua ? ua->zoc_of : std::vector<std::string>{};
  report_["zoc_of"] = zoc;
  const bool straight_only = kinds_.size() == 1 && (kinds_[0] == "straight_ahead" || kinds_[0] == "straight_back" ||
                                                    kinds_[0] == "no_move");
  if (!zoc.empty() && !straight_only && !IsGeneral(*u_)) {
    std::string list;
    for (const auto& z : zoc) list += (list.empty() ? "" : ", ") + z;
    Illegal("in the zone of control of " + list + ": may only move directly forward or back");
  }
  return ua;
}

double MoveJudge::SweptOverlap(const geom::Polygon& poly) const {
  double a = 0.0;
  for (const geom::Polygon& piece : swept_) a += geom::Area(geom::ClipConvex(poly, piece));
  return a;
}

// Step 4: what the move meets: enemies it contacts, units it passes through, terrain it crosses.
void MoveJudge::Meets() {
  swept_ = geom::SweptBetween(g_.from_fp, g_.to_fp);
  nlohmann::json contacts = nlohmann::json::array();
  nlohmann::json overlaps = nlohmann::json::array();
  const bool in_combat_at_start = InCombatAtStart();
  // Bounding circle of the whole move: units outside it can neither be met nor passed through.
  const geom::Vec2 move_centre = (g_.from_fp.centre_mm + g_.to_fp.centre_mm) / 2.0;
  const double move_radius = g_.dist / 2.0 + std::hypot(g_.from_fp.width_mm, g_.from_fp.depth_mm) / 2.0;
  for (const Unit& o : scene_.units) {
    if (&o == u_ || !o.pose || IsGeneral(o) || IsGeneral(*u_)) continue;
    const geom::Base ofp = Footprint(o);
    if ((ofp.centre_mm - move_centre).norm() - std::hypot(ofp.width_mm, ofp.depth_mm) / 2.0 - move_radius >
        tol_.contact_mm + 1.0)
      continue;
    MeetUnit(o, in_combat_at_start, &contacts, &overlaps);
  }
  report_["contacts"] = contacts;
  report_["overlaps"] = overlaps;
  for (const std::string& k : contact_kinds_)
    if (!Has(k)) kinds_.push_back(k);
  if (move_.second_move) kinds_.push_back("second_move");
  ContactRules();
  Conformation(g_.to_fp, contacted_, contact_kinds_, &report_);
}

bool MoveJudge::InCombatAtStart() const {
  const double from_radius = std::hypot(g_.from_fp.width_mm, g_.from_fp.depth_mm) / 2.0;
  bool in_combat = false;
  for (const Unit& o : scene_.units) {
    if (&o == u_ || !o.pose || IsGeneral(o) || o.side == u_->side) continue;
    const geom::Base ofp = Footprint(o);
    // Bounding circles apart by more than the contact slack: no need for the exact test.
    if ((ofp.centre_mm - g_.from_fp.centre_mm).norm() - std::hypot(ofp.width_mm, ofp.depth_mm) / 2.0 - from_radius >
        tol_.contact_mm + 1.0)
      continue;
    if (geom::FindContact(g_.from_fp, ofp, tol_.contact_mm).in_contact) in_combat = true;
  }
  return in_combat;
}

// One unit near the move: an overlap at the end, a new contact, or a base passed through.
void MoveJudge::MeetUnit(const Unit& o, bool in_combat_at_start, nlohmann::json* contacts, nlohmann::json* overlaps) {
  const geom::Base ofp = Footprint(o);
  const bool enemy = o.side != u_->side;
  const geom::Contact c = geom::FindContact(g_.to_fp, ofp, tol_.contact_mm);
  const double allowed_overlap = tol_.contact_mm * std::min(g_.to_fp.width_mm, ofp.width_mm);
  // No move may end inside another base. Bases pushed into contact by hand overlap a little: deeper
  // than the contact slack (tolerances.contact_mm) it is an overlap, of any size or shape.
  const UnitOverlap ov{u_->id, o.id, UnitsOverlap(g_.moved, o)};
  if (ov.overlap.overlapping && ov.overlap.depth_mm > tol_.contact_mm) {
    Illegal("ends on top of another base: " + Describe(ov) + " (deeper than the " + Mm(tol_.contact_mm) +
            " contact slack; bases may not overlap)");
    overlaps->push_back(ToJson(ov));
    return;
  }
  const bool touching_now = geom::FindContact(g_.from_fp, ofp, tol_.contact_mm).in_contact;
  if (enemy && c.in_contact && !c.corner_only) {
    const std::string k = c.edge_b == geom::Edge::kFront ? "contact_front" : c.edge_b == geom::Edge::kRear ? "contact_rear" : "contact_flank";
    if (!touching_now) {
      contact_kinds_.push_back(k);
      contacted_.push_back(&o);
    }
    contacts->push_back({{"unit", o.id}, {"their_edge", std::string(geom::ToString(c.edge_b))}, {"new", !touching_now}});
    return;
  }
  if (touching_now || c.in_contact) return;
  if (SweptOverlap(geom::PolygonCcw(ofp)) <= allowed_overlap) return;
  if (enemy) {
    Illegal("passes through enemy " + o.id);
  } else if (in_combat_at_start && !kinds_.empty() && kinds_[0] == "straight_back") {
    kinds_.push_back("pass_through");
  } else if (geom::InCorridor(ofp, geom::Edge::kRear, d_.rear_support_cavalry_bw * g_.bw, g_.from_fp, tol_.line_mm).inside &&
             HeadingGap(ofp.heading_deg, g_.from_fp.heading_deg) < 90.0) {
    // Passage of lines (FAQ): a supporting unit replacing the one in front; directly aligned needs no test.
    const bool aligned = LateralOffset(ofp, g_.from_fp) <= tol_.pivot_bw * g_.bw &&
                         HeadingGap(ofp.heading_deg, g_.from_fp.heading_deg) <= tol_.straight_deg;
    kinds_.push_back(aligned ? "replace_aligned" : "replace_forward");
  } else {
    Illegal("passes through " + o.id + " (only a unit in combat falling back, or a unit replacing the one it supports, "
            "may pass through friends)");
  }
}

// Who may contact whom (FAQ).
void MoveJudge::ContactRules() {
  const Unit& U = *u_;
  if (!contacted_.empty() && move_.second_move) Illegal("a unit cannot move into contact on a 2nd or later move (FAQ)");
  for (const Unit* o : contacted_) {
    if (U.type == UnitType::kInfantry && o->type == UnitType::kCavalry)
      Illegal("infantry cannot contact cavalry (FAQ \"Contacting an artillery unit in a line\")");
    if (IsLightHorse(U) && !IsLightHorse(*o) && (o->type == UnitType::kCavalry) &&
        std::find(contact_kinds_.begin(), contact_kinds_.end(), "contact_front") != contact_kinds_.end())
      Illegal("light horse cannot contact the front of regular cavalry (FAQ)");
  }
}

// Step 5: the ground crossed; road rate only when both ends lie on a road.
Ground MoveJudge::GroundCrossed() {
  Ground g;
  bool impassable = false, any_road = false;
  for (const Terrain& t : scene_.terrain) {
    const TerrainKind* k = FindTerrainKind(t.type);
    if (!k || t.polygon.size() < 3) continue;
    if (t.type == "road") any_road = true;
    if (SweptOverlap(geom::MakeCcw(t.polygon)) <= 1.0) continue;
    if (k->impassable) impassable = true;
    if (k->bad_going) {
      g.rough = true;
      g.rough_ids.push_back(t.id);
      g.bad_polys.push_back(geom::MakeCcw(t.polygon));
    }
  }
  if (impassable) Illegal("crosses impassable terrain");
  if (u_->formation == "road_column" || g_.moved.formation == "road_column") {
    g.road = any_road;
    for (const geom::Base& b : {g_.from_fp, g_.to_fp}) {
      double on = 0.0;
      for (const Terrain& t : scene_.terrain)
        if (t.type == "road") on += geom::OverlapArea(b, t.polygon);
      g.road = g.road && on >= 0.99 * b.width_mm * b.depth_mm;
    }
  }
  return g;
}

// ... and the movement table's rate for the unit, its formation and that ground.
void MoveJudge::Allowance(const Travel& travel, Ground* g) {
  const Unit& U = *u_;
  const std::string type(ToString(U.type));
  g->formation = g_.moved.formation;
  if (IsGeneral(U)) {
    g->row = "any";
  } else if ((IsLightInfantry(U) || IsLightCavalry(U) || IsLightHorse(U)) && g->formation != "road_column") {
    g->row = "light";
  } else if (auto t = d_.formation_rows.find(type); t != d_.formation_rows.end()) {
    if (auto f = t->second.find(g->formation); f != t->second.end()) g->row = f->second;
  }
  if (g->row == "strategic" && g->road) g->row = "road";
  if (g->row.empty() || !d_.movement.at(type).count(g->row)) {
    Illegal("no movement rate for " + type + " in formation '" + g->formation + "'");
  } else {
    const MoveRate& rate = d_.movement.at(type).at(g->row);
    if (g->rough && !rate.rough_bw) Illegal(type + " in " + g->formation + " cannot enter rough ground (movement table: NA)");
    g->allowance_bw = g->rough ? rate.rough_bw.value_or(0.0) : rate.open_bw;
    if (travel.half_move) g->allowance_bw /= 2.0;
  }
  if (legal_ && travel.counted_mm > g->allowance_bw * g_.bw + tol_.distance_mm) {
    std::ostringstream s;
    s.precision(3);
    s << "moves " << travel.counted_mm / g_.bw << " BW (" << std::lround(travel.counted_mm) << " mm); allowed " << g->allowance_bw
      << " BW (" << (g->rough ? "rough" : g->road ? "road" : "open") << ", " << g->row << (travel.half_move ? ", half move" : "") << ")";
    Illegal(s.str());
  }
}

void MoveJudge::Summarise(const Travel& travel, const Ground& ground) {
  const double counted = travel.counted_mm;
  m_.counted_mm = counted;
  for (const Unit* o : contacted_) m_.contacts.push_back(o->id);
  m_.allowance_mm = ground.allowance_bw > 0 ? ground.allowance_bw * g_.bw : -1.0;
  report_["distance_mm"] = std::round(counted * 10.0) / 10.0;
  report_["distance_bw"] = std::round(counted / g_.bw * 100.0) / 100.0;
  report_["allowance_bw"] = ground.allowance_bw;
  report_["ground"] = ground.rough ? "rough" : ground.road ? "road" : "open";
  report_["movement_row"] = ground.row;
  report_["formation"] = ground.formation;
}

}  // namespace move

MoveCheck CheckTotskMove(const TotskData& data, const TotskSettings& settings, const Scene& scene, const MoveRequest& move) {
  move::MoveJudge j(data, settings, scene, move);
  return j.Run();
}

}  // namespace vedette::totsk
