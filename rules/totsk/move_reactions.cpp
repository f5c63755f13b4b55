// The moves that follow a morale test or a contact rather than the movement table (QRS 91-99, the
// FAQ's lining up): break-off, pursuit, a limbered gun's break-off, light troops' pull back,
// withdrawal and being forced back, lining up.
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

namespace vedette::totsk::move {

namespace {

// FAQ 299 "If a unit must withdraw behind support, it goes back as far as needed and there is space
// for it ... if there is a gap between the 3rd and 4th line it will stop there": walking back from
// `from` to `to` (the end's sideways offset kept), the first distance at which the unit fits on no
// other base once it has reached its supports, and the distance of the first blocked place after
// that one (both mm back from `from`, 1 mm steps). A fall back that ends beyond a blocked place passed over room nearer: it went too far.
struct RoomBehind {
  double first_room_mm = -1;    // < 0: no room before the end
  double blocked_after_mm = -1; // < 0: free all the way from the first room to the end
  std::string blocked_by;       // the base in the way there
};
RoomBehind FirstRoomBehind(const Scene& scene, const Unit& u, const geom::Base& from, const geom::Base& to, double slack_mm) {
  const geom::Vec2 back = -geom::Forward(from);
  const geom::Vec2 d = to.centre_mm - from.centre_mm;
  const double end = d.dot(back);
  const geom::Vec2 side = d - back * end;
  RoomBehind r;
  bool entered = false;  // it has reached its supports (the room before them is where it started)
  for (double k = 0; k <= end; k += 1.0) {
    const geom::Vec2 c = from.centre_mm + back * k + side;
    const std::vector<UnitOverlap> on = OverlapsAt(scene, u, Pose{c.x(), c.y(), to.heading_deg}, slack_mm);
    const bool free = on.empty();
    entered = entered || !free;
    if (free && entered && r.first_room_mm < 0) r.first_room_mm = k;
    if (!free && r.first_room_mm >= 0) {
      r.blocked_after_mm = k;
      r.blocked_by = on.front().b;
      return r;
    }
  }
  return r;
}

}  // namespace

std::string MoveJudge::BwText(double mm) const {
  std::ostringstream s;
  s.precision(3);
  s << mm / g_.bw << " BW (" << std::lround(mm) << " mm)";
  return s.str();
}

bool MoveJudge::Faces(const geom::Base& b, const geom::Base& e) const {
  const geom::Vec2 to_e = e.centre_mm - geom::LeaderPoint(b);
  if (to_e.norm() < 1e-9) return false;
  return !FacesAway(b, e, tol_.line_mm) && to_e.normalized().dot(geom::Forward(b)) >= std::cos(geom::DegToRad(45.0));
}

double MoveJudge::CoverArea(const geom::Base& b, bool with_bad_going) const {
  double covered = 0.0;
  for (const Terrain& tr : scene_.terrain) {
    const TerrainKind* k = FindTerrainKind(tr.type);
    if (k && (k->cover || (with_bad_going && k->bad_going)) && tr.polygon.size() >= 3)
      covered += geom::OverlapArea(b, geom::MakeCcw(tr.polygon));
  }
  return covered;
}

bool MoveJudge::Reaction(nlohmann::json* extra) {
  if (IsGeneral(*u_)) return false;
  touching_ = TouchingAtStart();
  return CavalryBreakOff(extra) || Pursuit(extra) || ArtilleryBreakOff(extra) || BreakOffChoice(extra) || PullBack(extra) ||
         WithdrawOrForcedBack(extra) || LineUp(extra);
}

std::vector<Touch> MoveJudge::TouchingAtStart() const {
  std::vector<Touch> touching;
  const geom::Base& from_fp = g_.from_fp;
  const double from_radius = std::hypot(from_fp.width_mm, from_fp.depth_mm) / 2.0;
  for (const Unit& o : scene_.units) {
    if (&o == u_ || !o.pose || IsGeneral(o) || o.side == u_->side) continue;
    const geom::Base ofp = Footprint(o);
    // Bounding circles apart by more than the contact slack: not touching (no exact test).
    if ((ofp.centre_mm - from_fp.centre_mm).norm() - from_radius - std::hypot(ofp.width_mm, ofp.depth_mm) / 2.0 >
        tol_.contact_mm + 1.0)
      continue;
    const geom::Contact c = geom::FindContact(from_fp, ofp, tol_.contact_mm);
    if (c.in_contact) touching.push_back({&o, c});
  }
  return touching;
}

bool MoveJudge::FinishReaction(nlohmann::json* extra) {
  std::string what = "moved " + BwText(g_.dist);
  for (const char* k : {"break_off", "forced_back"})
    if (extra->contains(k)) what = (*extra)[k].get<std::string>() + ": " + what;
  if (extra->contains("supports_after")) what += ", now behind " + (*extra)["supports_after"].get<std::string>();
  notes_.insert(notes_.begin(), what);
  (*extra)["distance_mm"] = std::round(g_.dist * 10.0) / 10.0;
  (*extra)["distance_bw"] = std::round(g_.dist / g_.bw * 100.0) / 100.0;
  nlohmann::json t = nlohmann::json::array();
  for (const Touch& x : touching_) t.push_back(x.unit->id);
  (*extra)["in_contact_at_start"] = t;
  // No reaction may end on top of another base.
  nlohmann::json list = nlohmann::json::array();
  for (const UnitOverlap& ov : OverlapsAt(scene_, *u_, g_.moved.pose.value(), tol_.contact_mm)) {
    const Unit* o = scene_.FindUnit(ov.b);
    if (o && IsGeneral(*o)) continue;
    Illegal("ends on top of another base: " + Describe(ov) + " (bases may not overlap)");
    list.push_back(ToJson(ov));
  }
  (*extra)["overlaps"] = list;
  return true;
}

// QRS 95: cavalry in contact that failed its morale test retires 6 BW to the rear facing away; with
// rear supports it falls back through them and stops at supporting distance facing the enemy (FAQ
// "PURSUING": as far back as there is room, even beyond its move).
bool MoveJudge::CavalryBreakOff(nlohmann::json* extra) {
  const Unit& U = *u_;
  if (U.type != UnitType::kCavalry || touching_.empty() || !scene_.declarations.Flag(U.id, "failed_morale")) return false;
  kinds_.push_back("break_off");
  const std::vector<const Unit*> supports = RearSupportsAtStart();
  nlohmann::json sj = nlohmann::json::array();
  for (const Unit* o : supports) sj.push_back(o->id);
  (*extra)["rear_support_at_start"] = sj;
  if (supports.empty()) RetireAway(extra);
  else FallBackThroughSupports(extra);
  notes_.push_back(U.id + " failed its morale test in contact: the break-off is no ordered move (no action test); it "
                          "cannot move again in its following turn (QRS 95)");
  return FinishReaction(extra);
}

std::vector<const Unit*> MoveJudge::RearSupportsAtStart() const {
  std::vector<const Unit*> supports;
  for (const Unit& o : scene_.units) {
    if (&o == u_ || !o.pose || IsGeneral(o) || o.side != u_->side || o.type == UnitType::kArtillery) continue;
    const geom::Base ofp = Footprint(o);
    const double reach = (o.type == UnitType::kCavalry ? d_.rear_support_cavalry_bw : d_.rear_support_infantry_bw) * g_.bw;
    if (geom::InCorridor(g_.from_fp, geom::Edge::kRear, reach, ofp, tol_.line_mm).inside &&
        HeadingGap(ofp.heading_deg, g_.from_fp.heading_deg) < 90.0)
      supports.push_back(&o);
  }
  return supports;
}

void MoveJudge::RetireAway(nlohmann::json* extra) {
  const double retire = d_.after.break_off_retire_bw * g_.bw;
  (*extra)["break_off"] = "retire " + BwText(retire) + " to the rear, facing away from the enemy (QRS 95)";
  if (!AboutFace()) {
    Illegal("a cavalry break-off after a failed morale test ends facing away from the enemy (QRS 95): it turned " +
            std::to_string(std::lround(g_.aturn)) + " degrees");
  } else if (g_.dist > tol_.distance_mm && g_.off < 180.0 - tol_.turn_deg) {
    Illegal("a cavalry break-off retires straight to the rear (QRS 95): it moved " + std::to_string(std::lround(180.0 - g_.off)) +
            " degrees off the rear");
  } else if (std::abs(g_.dist - retire) > g_.slack) {
    Illegal("a cavalry break-off after a failed morale test retires " + BwText(retire) + " (QRS 95): it moved " +
            BwText(g_.dist) + ", more than " + BwText(g_.slack) + " off");
  }
}

// Behind the supports, in the supporting position of a friend that stood behind it, facing the enemy.
void MoveJudge::FallBackThroughSupports(nlohmann::json* extra) {
  (*extra)["break_off"] = "fall back through its rear supports and stop at supporting distance facing the enemy (QRS 95)";
  const double reach = d_.rear_support_cavalry_bw * g_.bw;
  std::string behind_of;
  for (const Unit& o : scene_.units) {
    if (&o == u_ || !o.pose || IsGeneral(o) || o.side != u_->side) continue;
    const geom::Base ofp = Footprint(o);
    const bool was_behind = (ofp.centre_mm - g_.from_fp.centre_mm).dot(geom::Forward(g_.from_fp)) < 0.0;
    if (was_behind && geom::InCorridor(ofp, geom::Edge::kRear, reach, g_.to_fp, tol_.line_mm).inside &&
        HeadingGap(ofp.heading_deg, g_.to_fp.heading_deg) < 90.0) {
      behind_of = o.id;
      break;
    }
  }
  if (g_.aturn > tol_.turn_deg) {
    Illegal("a cavalry break-off through its rear supports ends facing the enemy (QRS 95): it turned " +
            std::to_string(std::lround(g_.aturn)) + " degrees");
  } else if (!Rearward()) {
    Illegal("a cavalry break-off falls back to the rear (QRS 95)");
  } else if (behind_of.empty()) {
    Illegal("a cavalry break-off through its rear supports stops at supporting distance (" + BwText(reach) +
            ") behind them (QRS 95): it ends in no supporting position behind the units that stood behind it");
  } else if (const RoomBehind room = FirstRoomBehind(scene_, *u_, g_.from_fp, g_.to_fp, tol_.contact_mm); room.blocked_after_mm >= 0) {
    Illegal("a unit falling back behind its supports stops at the first place with room for it (FAQ 299): there was room " +
            BwText(room.first_room_mm) + " back, before " + room.blocked_by + "; it went on past " + room.blocked_by);
    (*extra)["first_room_mm"] = std::round(room.first_room_mm);
  } else {
    (*extra)["supports_after"] = behind_of;
  }
}

// QRS 97 and FAQ "PURSUING": a pursuit goes straight ahead the distance rolled ("it just goes the full
// distance it rolled for pursuit and stops"), or less if it meets an enemy.
bool MoveJudge::Pursuit(nlohmann::json* extra) {
  const Unit& U = *u_;
  const Declared* p = scene_.declarations.Find(U.id, "pursuit_bw");
  if (!p) return false;
  if (!p->value.is_number() || !(p->value.get<double>() >= 0))
    throw InputError(scene_.source, p->line, "declarations: " + U.id + ".pursuit_bw must be a distance in BW >= 0");
  kinds_.push_back("pursuit");
  const double rolled = p->value.get<double>() * g_.bw;
  (*extra)["pursuit_bw"] = p->value.get<double>();
  if (s_.pursuit != "qrs" && U.type != UnitType::kCavalry)
    Illegal("only cavalry pursue (FAQ \"PURSUING\"; QRS 97 names no type: --set pursuit=qrs)");
  bool meets = false;
  for (const Unit& o : scene_.units) {
    if (&o == u_ || !o.pose || IsGeneral(o) || o.side == U.side) continue;
    const geom::Contact c = geom::FindContact(g_.to_fp, Footprint(o), tol_.contact_mm);
    if (c.in_contact && !geom::FindContact(g_.from_fp, Footprint(o), tol_.contact_mm).in_contact) meets = true;
  }
  (*extra)["meets_enemy"] = meets;
  if (g_.aturn > tol_.straight_deg || (g_.dist > tol_.distance_mm && g_.off > tol_.straight_deg)) {
    Illegal("a pursuit goes straight ahead (QRS 97)");
  } else if (meets ? g_.dist > rolled + g_.slack : std::abs(g_.dist - rolled) > g_.slack) {
    Illegal(std::string("a pursuit goes ") + (meets ? "at most " : "the full ") + BwText(rolled) +
            " rolled (FAQ \"PURSUING\"): it moved " + BwText(g_.dist));
  }
  if (meets) notes_.push_back("the pursuit's contact is fought in the next enemy phase; the pursuer tests with -1 (FAQ \"PURSUING\")");
  return FinishReaction(extra);
}

// FAQ 316 "If a limbered artillery is contacted by the pursuing unit, it makes a break off of one full
// move. If the pursuer is still in contact after that or if the break off is blocked by impassable
// terrain, the artillery is destroyed"; QRS movement table "Artillery Breakoff 10BW 5BW". Limbered guns
// touching an enemy that move out of contact: up to one break-off move, the rough rate when the move
// crosses bad going. No action test.
bool MoveJudge::ArtilleryBreakOff(nlohmann::json* extra) {
  if (u_->type != UnitType::kArtillery || !Limbered(*u_) || touching_.empty()) return false;
  bool still = false;
  for (const Touch& t : touching_) still = still || geom::FindContact(g_.to_fp, Footprint(*t.unit), tol_.contact_mm).in_contact;
  if (still || g_.dist <= tol_.distance_mm) return false;
  kinds_.push_back("artillery_break_off");
  const MoveRate& rate = d_.movement.at("artillery").at("breakoff");
  bool rough = false;
  for (const Terrain& tr : scene_.terrain) {
    const TerrainKind* k = FindTerrainKind(tr.type);
    if (!k || !k->bad_going || tr.polygon.size() < 3) continue;
    for (const geom::Polygon& piece : geom::SweptBetween(g_.from_fp, g_.to_fp))
      if (geom::Area(geom::ClipConvex(geom::MakeCcw(tr.polygon), piece)) > 1.0) rough = true;
  }
  const double allowed = (rough ? rate.rough_bw.value_or(0.0) : rate.open_bw) * g_.bw;
  (*extra)["break_off"] = "limbered artillery contacted breaks off up to one full move, " + BwText(allowed) +
                          (rough ? " in rough ground" : "") + " (FAQ 316; movement table \"Breakoff\")";
  if (g_.dist > allowed + tol_.distance_mm)
    Illegal("a limbered gun's break-off is one full move, " + BwText(allowed) + (rough ? " in rough ground" : "") +
            " (FAQ 316): it moved " + BwText(g_.dist));
  notes_.push_back("if the pursuer is still in contact after the break-off, or impassable ground blocks it, the gun is destroyed (FAQ 316)");
  return FinishReaction(extra);
}

// QRS 95: cavalry that passed its test in contact with infantry or artillery may retire 2 BW and about face.
bool MoveJudge::BreakOffChoice(nlohmann::json* extra) {
  const Unit& U = *u_;
  if (U.type != UnitType::kCavalry || touching_.empty() || !scene_.declarations.Flag(U.id, "passed_morale") || !AboutFace() ||
      !Rearward())
    return false;
  kinds_.push_back("break_off_choice");
  bool foot_or_guns = false;
  for (const Touch& t : touching_)
    foot_or_guns = foot_or_guns || t.unit->type == UnitType::kInfantry || t.unit->type == UnitType::kArtillery;
  const double retire = d_.after.break_off_choose_bw * g_.bw;
  (*extra)["break_off"] = "may retire " + BwText(retire) + " and about face after a passed morale test (QRS 95)";
  if (!foot_or_guns)
    Illegal("after a passed morale test cavalry may break off only from infantry or artillery (QRS 95)");
  else if (g_.off < 180.0 - tol_.turn_deg)
    Illegal("a cavalry break-off retires straight to the rear (QRS 95)");
  else if (std::abs(g_.dist - retire) > g_.slack)
    Illegal("after a passed morale test cavalry may retire " + BwText(retire) + " and about face (QRS 95): it moved " +
            BwText(g_.dist) + ", more than " + BwText(g_.slack) + " off");
  return FinishReaction(extra);
}

// QRS 99: light troops in contact pull back to 1 BW from the enemy's final position, facing it; an
// action test (QRS 52); not light infantry in the open contacted by cavalry.
bool MoveJudge::PullBack(nlohmann::json* extra) {
  const Unit& U = *u_;
  if (!IsLightTroops(U)) return false;
  for (const Touch& t : touching_) {
    const geom::Base efp = Footprint(*t.unit);
    if (geom::FindContact(g_.to_fp, efp, tol_.contact_mm).in_contact || !Faces(g_.to_fp, efp)) continue;
    if (g_.dist <= g_.slack) continue;
    // Ending further or nearer than 1 BW is no pull back: an ordinary move (straight back, ...).
    const double want = d_.after.pull_back_bw * g_.bw;
    const double gap = geom::BaseToBase(g_.to_fp, efp).distance_mm;
    if (std::abs(gap - want) > g_.slack) continue;
    kinds_.push_back("pull_back");
    (*extra)["pull_back"] = {{"from", t.unit->id}, {"gap_mm", std::round(gap * 10.0) / 10.0},
                             {"gap_bw", std::round(gap / g_.bw * 100.0) / 100.0}};
    // In the open: less than half of the base in bad going or cover.
    const bool open = CoverArea(g_.from_fp, true) < 0.5 * g_.from_fp.width_mm * g_.from_fp.depth_mm;
    bool by_cavalry = false;
    for (const Touch& x : touching_) by_cavalry = by_cavalry || x.unit->type == UnitType::kCavalry;
    if (IsLightInfantry(U) && open && by_cavalry)
      Illegal("light infantry in the open contacted by cavalry cannot pull back (QRS 99)");
    else
      AddTest(3, "light_pull_back", {}, kStays, g_.start, {t.unit->id});
    return FinishReaction(extra);
  }
  return false;
}

// QRS 91 "Infantry Break Off": infantry contacted by infantry "can withdraw 1 BW after a successful
// morale test"; a unit "occupying cover ... can force the opposing unit to pull back this distance";
// "AT/BT units can also force opponents back" (FAQ 129: "force back 1/4 BW an enemy unit that fails its
// morale test"). Straight back keeping the facing; a move of another length is an ordinary move.
bool MoveJudge::WithdrawOrForcedBack(nlohmann::json* extra) {
  if (touching_.empty() || g_.aturn > tol_.turn_deg || g_.dist <= tol_.distance_mm || g_.off < 180.0 - tol_.turn_deg) return false;
  const Unit& U = *u_;
  auto near_distance = [&](double want) { return std::abs(g_.dist - want) <= std::min(g_.slack, want / 2.0); };
  auto in_cover = [&](const Unit& e) {
    const geom::Base efp = Footprint(e);
    return CoverArea(efp, false) >= 0.5 * efp.width_mm * efp.depth_mm;
  };
  const double withdraw = d_.after.infantry_withdraw_bw * g_.bw;
  const double at_bt = (s_.forced_back == "qrs" ? d_.after.forced_back_qrs_bw : d_.after.forced_back_faq_bw) * g_.bw;
  const bool foot_on_foot = U.type == UnitType::kInfantry;
  for (const Touch& t : touching_) {
    const Unit& E = *t.unit;
    if (foot_on_foot && E.type == UnitType::kInfantry && scene_.declarations.Flag(U.id, "passed_morale") && near_distance(withdraw)) {
      kinds_.push_back("infantry_withdraw");
      (*extra)["break_off"] = "withdraw " + BwText(withdraw) + " from " + E.id + " after a passed morale test (QRS 91)";
      return FinishReaction(extra);
    }
    if (foot_on_foot && E.type == UnitType::kInfantry && in_cover(E) && scene_.declarations.Flag(E.id, "passed_morale") &&
        near_distance(withdraw)) {
      kinds_.push_back("forced_back");
      (*extra)["forced_back"] = E.id + " in cover forces it back " + BwText(withdraw) + " (QRS 91)";
      return FinishReaction(extra);
    }
    if (IsAtOrBt(E) && scene_.declarations.Flag(U.id, "failed_morale") && near_distance(at_bt)) {
      kinds_.push_back("forced_back");
      (*extra)["forced_back"] = std::string(E.id) + " (AT/BT) forces it back " + BwText(at_bt) +
                                (s_.forced_back == "qrs" ? " (QRS 91)" : " (FAQ 129; --set forced_back=qrs: 1 BW)");
      return FinishReaction(extra);
    }
  }
  return false;
}

// Lining up (FAQ "Can you wheel while moving into contact?": "you just have to touch the 'target' and
// then they will align"; "Moving into the flank a single unit": the unit contacted on the flank
// conforms in its next turn, "automatic and doesn't require an action test", but with an enemy also on
// its front "this requires an action test"). A unit touching an enemy that ends with its front edge
// flush against one of that enemy's edges, squarely, within a base width of where it was.
bool MoveJudge::LineUp(nlohmann::json* extra) {
  for (const Touch& t : touching_) {
    const std::optional<geom::Contact> c = LineUpContact(t);
    if (!c) continue;
    kinds_.push_back("line_up");
    (*extra)["line_up"] = {{"with", t.unit->id}, {"their_edge", std::string(geom::ToString(c->edge_b))}};
    // Turning to face an enemy on its flank or rear while another enemy holds its front: an action test.
    const bool turning = t.contact.edge_a != geom::Edge::kFront && g_.aturn > tol_.turn_deg;
    std::vector<std::string> front_enemies;
    for (const Touch& x : touching_)
      if (x.unit != t.unit && !x.contact.corner_only && x.contact.edge_a == geom::Edge::kFront) front_enemies.push_back(x.unit->id);
    if (turning && !front_enemies.empty()) {
      AddTest(3, "face_flank_attacker", {}, kStays, g_.start, {t.unit->id});
      notes_.push_back("facing " + t.unit->id + " leaves " + front_enemies[0] + " on its flank (FAQ \"Moving into the flank a single unit\")");
    } else {
      notes_.push_back("lining up with " + t.unit->id + " needs no action test (FAQ)");
    }
    return FinishReaction(extra);
  }
  return false;
}

// The contact at the end when the move lines the unit up with t's enemy; none otherwise.
std::optional<geom::Contact> MoveJudge::LineUpContact(const Touch& t) const {
  const geom::Base efp = Footprint(*t.unit);
  const geom::Contact c = geom::FindContact(g_.to_fp, efp, tol_.contact_mm);
  if (!c.in_contact || c.corner_only || c.edge_a != geom::Edge::kFront) return std::nullopt;
  const double want_heading = c.edge_b == geom::Edge::kFront  ? efp.heading_deg + 180.0
                              : c.edge_b == geom::Edge::kRear ? efp.heading_deg
                              : c.edge_b == geom::Edge::kLeft ? efp.heading_deg - 90.0
                                                              : efp.heading_deg + 90.0;
  if (HeadingGap(g_.to_fp.heading_deg, want_heading) > tol_.straight_deg) return std::nullopt;
  const double shared_needed = std::min(g_.to_fp.width_mm, c.edge_b == geom::Edge::kFront || c.edge_b == geom::Edge::kRear
                                                               ? efp.width_mm : efp.depth_mm) - 2.0 * tol_.contact_mm;
  if (c.shared_mm < shared_needed) return std::nullopt;
  if (g_.dist > g_.from_fp.width_mm + g_.slack) return std::nullopt;
  // Already flush and square at the start: not a lining up.
  if (!t.contact.corner_only && t.contact.edge_a == c.edge_a && t.contact.edge_b == c.edge_b && g_.dist <= tol_.distance_mm &&
      g_.aturn <= tol_.straight_deg)
    return std::nullopt;
  return c;
}

}  // namespace vedette::totsk::move
