#include "rules/totsk/totsk_move.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>

#include "rules/geometry/contact.h"
#include "rules/geometry/distance.h"
#include "rules/geometry/sweep.h"
#include "rules/geometry/corridor.h"
#include "rules/geometry/sweep.h"
#include "rules/input_error.h"
#include "rules/overlaps.h"
#include "rules/totsk/command_points.h"
#include "rules/totsk/totsk_analysis.h"
#include "rules/totsk/totsk_geometry.h"
#include "rules/totsk/totsk_report.h"
#include "rules/totsk/totsk_units.h"

namespace vedette::totsk {

namespace {

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

struct PlannedTest {
  int phase = 0;  // FAQ order: 1 fire, 2 second move, 3 the move's own tests (3a at start, 3b wheel, 3c terrain, 3d contact)
  ActionTest test;
  std::string halt_where;
  Pose halt;
};

class MoveJudge {
 public:
  MoveJudge(const TotskData& d, const TotskSettings& s, const Scene& scene, const MoveRequest& move)
      : d_(d), s_(s), scene_(scene), move_(move) {}
  MoveCheck Run();

 private:
  void Illegal(const std::string& why) {
    if (legal_) reason_ = why;
    legal_ = false;
  }
  void AddTest(int phase, const std::string& key, std::vector<Modifier> extra, const std::string& where, const Pose& halt,
               std::vector<std::string> by = {});
  // QRS 95-99 and the FAQ's lining up: the moves that follow a morale test or a contact rather than
  // the movement table (break-off, pursuit, light troops' pull back, lining up). True when the move is
  // one of them: kinds_, tests_, notes_ and the legality are then set and `extra` holds its report.
  bool Reaction(const geom::Base& from_fp, const geom::Base& to_fp, const Unit& moved, nlohmann::json* extra);
  // A second or later move is a bonus move: it spends a command point of a General in reach.
  void BonusMove(const geom::Base& from_fp, nlohmann::json* report);
  // Who aligns to whom after each new contact (FAQ 249 and "Moving into the flank a single unit").
  void Conformation(const geom::Base& to_fp, const std::vector<const Unit*>& contacted,
                    const std::vector<std::string>& kinds, nlohmann::json* report);
  // A placed enemy-or-friend footprint cache is not needed: the scene is small around a reaction.
  const std::string& Difficulty(const std::string& key) const {
    const MoveTest& t = d_.move_tests.at(key);
    return IsIm(*u_) && !t.im_difficulty.empty() ? t.im_difficulty : t.difficulty;
  }

  const TotskData& d_;
  const TotskSettings& s_;
  const Scene& scene_;
  const MoveRequest& move_;
  const Unit* u_ = nullptr;
  bool legal_ = true;
  std::string reason_;
  std::vector<std::string> kinds_, notes_;
  std::vector<PlannedTest> tests_;
  std::vector<StateChange> changes_;  // the mover's own, when the move is legal
};

void MoveJudge::AddTest(int phase, const std::string& key, std::vector<Modifier> extra, const std::string& where,
                        const Pose& halt, std::vector<std::string> by) {
  if (scene_.declarations.Flag(u_->id, "failed_morale"))
    extra.push_back({"Failed morale test last turn", d_.action_modifiers.at("failed_morale_last_turn"), {}});
  PlannedTest t;
  t.phase = phase;
  t.test = MakeActionTest(d_, u_->id, key, d_.move_tests.at(key).rule, Difficulty(key), std::move(extra));
  t.test.by = std::move(by);
  t.halt_where = where;
  t.halt = halt;
  tests_.push_back(std::move(t));
}

// FAQ "Can you wheel while moving into contact?": "you just have to touch the 'target' and then they
// will align". Who moves: front to front, FAQ 249 "normal conformation for cavalry units, exception if
// they are infantry": infantry stand and the attacker lines up with them; cavalry and artillery (the
// FAQ's case 2 turns both to the attacker) conform to the attacker. A front met askew or off centre by
// more than the pivot slack needs it; a square, centred contact does not. A flank or rear contacted, FAQ
// "Moving into the flank a single unit": "During its next turn, the unit conforms to the enemy unit. This
// is automatic and doesn't require an action test." Said in notes and the report; legality unchanged.
void MoveJudge::Conformation(const geom::Base& to_fp, const std::vector<const Unit*>& contacted,
                             const std::vector<std::string>& kinds, nlohmann::json* report) {
  const Unit& U = *u_;
  const Tolerances& tol = d_.tolerances;
  nlohmann::json out = nlohmann::json::array();
  for (size_t i = 0; i < contacted.size(); ++i) {
    const Unit& o = *contacted[i];
    const geom::Base ofp = Footprint(o);
    std::string who, rule, note;
    if (kinds[i] == "contact_front") {
      const bool square = HeadingGap(to_fp.heading_deg, ofp.heading_deg + 180.0) <= tol.straight_deg &&
                          LateralOffset(ofp, to_fp) <= tol.pivot_bw * scene_.BwFor(U);
      if (square) continue;
      rule = "FAQ 249";
      if (o.type == UnitType::kInfantry) {
        who = U.id;
        note = U.id + " lines up with " + o.id + "'s front: infantry do not conform to the attacker (FAQ 249)";
      } else {
        who = o.id;
        note = o.id + " conforms to " + U.id + " (" + std::string(ToString(o.type)) + ", FAQ 249: normal conformation)";
      }
    } else {
      who = o.id;
      rule = "FAQ \"Moving into the flank a single unit\"";
      // "If the unit contacted on the flank is also in contact on its front, it can also do that but
      // this requires an action test".
      std::string held_by;
      for (const Unit& x : scene_.units) {
        if (&x == u_ || !x.pose || x.side == o.side || IsGeneral(x)) continue;
        const geom::Contact fc = geom::FindContact(ofp, Footprint(x), tol.contact_mm);
        if (fc.in_contact && !fc.corner_only && fc.edge_a == geom::Edge::kFront) held_by = x.id;
      }
      note = held_by.empty()
                 ? o.id + " turns to face " + U.id + " in its next turn: automatic, no action test (" + rule + ")"
                 : o.id + " may turn to face " + U.id + " in its next turn only with an action test, as " + held_by +
                       " holds its front (" + rule + ")";
    }
    out.push_back({{"unit", who}, {"to", who == U.id ? o.id : U.id}, {"rule", rule}});
    notes_.push_back(note);
  }
  (*report)["conformation"] = out;
}

// "G1 (rating 2, spent on B4, B5)": a General with the moves its points went to, one of `leave_out`'s
// left out (the move being judged, when it is served).
std::string GeneralWithPoints(const CommandPoints::General& g, const std::string& leave_out) {
  std::vector<std::string> on = g.used_by;
  if (const auto it = std::find(on.begin(), on.end(), leave_out); it != on.end()) on.erase(it);
  std::string list;
  for (const std::string& id : on) list += (list.empty() ? "" : ", ") + id;
  return g.unit->id + " (rating " + std::to_string(g.rating) + (list.empty() ? "" : ", spent on " + list) + ")";
}

// QRS 103: "1 bonus move/action test permitted per level of the General if unit within 6 BW of a
// General"; FAQ "Extra moves": "A general need to use one of his command ratings to give a chance of a
// second or more moves". The points already spent this turn are the side's other units declared
// `bonus_move` (the pipeline declares it as it sees each bonus move, and clears the side's at the start
// of its next turn). A table with no general of the side placed cannot be judged (said).
void MoveJudge::BonusMove(const geom::Base& from_fp, nlohmann::json* report) {
  const Unit& U = *u_;
  const double bw = scene_.BwFor(U);
  std::vector<std::string> moves;  // this turn's bonus moves of the side, then this one
  for (const Unit& o : scene_.units)
    if (o.pose && o.side == U.side && !IsGeneral(o) && scene_.declarations.Flag(o.id, "bonus_move")) moves.push_back(o.id);
  moves.push_back(U.id);
  auto lost = [&](const Unit& g) { return scene_.declarations.Flag(g.id, "lost") || scene_.declarations.Routed(g.id); };
  const CommandPoints cp = MatchCommandPoints(scene_, moves, {d_.after.bonus_general_bw, d_.tolerances.line_mm}, lost);
  const auto served_by = cp.servers.find(U.id);
  nlohmann::json by = nlohmann::json::array();
  bool any_general = false;  // a general of the side with a rating given (stats: rating)
  double nearest = std::numeric_limits<double>::infinity();
  const bool unserved = !cp.unserved.empty() && cp.unserved.back() == U.id;
  std::string spent, exhausted;  // whose point this move spends; the generals in reach with none left
  for (size_t gi = 0; gi < cp.generals.size(); ++gi) {
    const CommandPoints::General& cg = cp.generals[gi];
    const Unit& g = *cg.unit;
    if (g.side != U.side || !g.stats.count("rating")) continue;
    any_general = true;
    const double gap = geom::BaseToBase(from_fp, Footprint(g)).distance_mm;
    nearest = std::min(nearest, gap);
    if (served_by == cp.servers.end() || std::find(served_by->second.begin(), served_by->second.end(), gi) == served_by->second.end())
      continue;
    by.push_back({{"general", g.id}, {"rating", cg.rating}, {"distance_bw", std::round(gap / bw * 100.0) / 100.0},
                  {"spent_on", cg.used_by}});
    const bool own = std::find(cg.used_by.begin(), cg.used_by.end(), U.id) != cg.used_by.end();
    if (unserved) exhausted += (exhausted.empty() ? "" : ", ") + GeneralWithPoints(cg, "");
    else if (own) spent += (spent.empty() ? "" : " or ") + GeneralWithPoints(cg, U.id);
  }
  (*report)["bonus_move_generals"] = by;
  if (!any_general) {
    notes_.push_back("a second move is a General's bonus move (QRS 103): no general of " + U.side +
                     " with a rating (stats: rating) is on the table, so whose command point it spends is not checked");
  } else if (by.empty()) {
    std::ostringstream s;
    s.precision(3);
    s << "a second or later move is a bonus move: it needs a General with a rating of 1 or more within "
      << d_.after.bonus_general_bw << " BW (QRS 103); the nearest general is " << nearest / bw << " BW ("
      << std::lround(nearest) << " mm) away";
    Illegal(s.str());
  } else if (unserved) {
    std::ostringstream s;
    s << "a second or later move is a bonus move and spends one of a General's command points (QRS 103: one per level "
         "of the General, each turn): every General within " << d_.after.bonus_general_bw << " BW has spent his this turn: "
      << exhausted;
    Illegal(s.str());
  } else {
    notes_.push_back("a bonus move spends one command point of " + spent + " (QRS 103: one per level of the General)");
    (*report)["command_point_spent"] = true;
    changes_.push_back({U.id, "bonus_move", true,
                        "made a bonus move on a General's command point (QRS 103): it causes no morale test and gives "
                        "no morale modifier in the enemy's next turn"});
  }
}

bool MoveJudge::Reaction(const geom::Base& from_fp, const geom::Base& to_fp, const Unit& moved, nlohmann::json* extra) {
  const Unit& U = *u_;
  if (IsGeneral(U)) return false;
  const double bw = scene_.BwFor(U);
  const Tolerances& tol = d_.tolerances;
  const double slack = tol.placement_bw * bw;
  const Pose start = *U.pose;
  const double turn = geom::NormalizeDeg(to_fp.heading_deg - from_fp.heading_deg);
  const double aturn = std::abs(turn);
  const geom::Vec2 delta = to_fp.centre_mm - from_fp.centre_mm;
  const double dist = delta.norm();
  // Angle (deg) between the travel and the unit's facing at the start (0 = straight ahead).
  const double off = dist <= tol.distance_mm
                         ? 0.0
                         : geom::RadToDeg(std::acos(std::clamp(delta.normalized().dot(geom::Forward(from_fp)), -1.0, 1.0)));
  auto bw_text = [&](double mm) {
    std::ostringstream s;
    s.precision(3);
    s << mm / bw << " BW (" << std::lround(mm) << " mm)";
    return s.str();
  };
  // Enemies touching the unit at the start (corners included: a base pushed into contact by hand).
  struct Touch {
    const Unit* unit;
    geom::Contact contact;  // edge_a: this unit's edge, edge_b: the enemy's
  };
  std::vector<Touch> touching;
  const double from_radius = std::hypot(from_fp.width_mm, from_fp.depth_mm) / 2.0;
  for (const Unit& o : scene_.units) {
    if (&o == u_ || !o.pose || IsGeneral(o) || o.side == U.side) continue;
    const geom::Base ofp = Footprint(o);
    // Bounding circles apart by more than the contact slack: not touching (no exact test).
    if ((ofp.centre_mm - from_fp.centre_mm).norm() - from_radius - std::hypot(ofp.width_mm, ofp.depth_mm) / 2.0 >
        tol.contact_mm + 1.0)
      continue;
    const geom::Contact c = geom::FindContact(from_fp, ofp, tol.contact_mm);
    if (c.in_contact) touching.push_back({&o, c});
  }
  // No reaction may end on top of another base.
  auto check_overlaps = [&]() {
    nlohmann::json list = nlohmann::json::array();
    for (const UnitOverlap& ov : OverlapsAt(scene_, U, moved.pose.value(), tol.contact_mm)) {
      const Unit* o = scene_.FindUnit(ov.b);
      if (o && IsGeneral(*o)) continue;
      Illegal("ends on top of another base: " + Describe(ov) + " (bases may not overlap)");
      list.push_back(ToJson(ov));
    }
    (*extra)["overlaps"] = list;
  };
  auto finish_extra = [&]() {
    std::string what = "moved " + bw_text(dist);
    for (const char* k : {"break_off", "forced_back"})
      if (extra->contains(k)) what = (*extra)[k].get<std::string>() + ": " + what;
    if (extra->contains("supports_after")) what += ", now behind " + (*extra)["supports_after"].get<std::string>();
    notes_.insert(notes_.begin(), what);
    (*extra)["distance_mm"] = std::round(dist * 10.0) / 10.0;
    (*extra)["distance_bw"] = std::round(dist / bw * 100.0) / 100.0;
    nlohmann::json t = nlohmann::json::array();
    for (const Touch& x : touching) t.push_back(x.unit->id);
    (*extra)["in_contact_at_start"] = t;
    check_overlaps();
    return true;
  };
  const bool cavalry = U.type == UnitType::kCavalry;
  const bool about_face = aturn >= 180.0 - tol.turn_deg;
  const bool rearward = dist > slack && off >= 180.0 - 45.0;

  // QRS 95: cavalry in contact that failed its morale test retires 6 BW to the rear facing away; with
  // rear supports it falls back through them and stops at supporting distance facing the enemy (FAQ
  // "PURSUING": as far back as there is room, even beyond its move).
  if (cavalry && !touching.empty() && scene_.declarations.Flag(U.id, "failed_morale")) {
    kinds_.push_back("break_off");
    std::vector<const Unit*> supports;
    for (const Unit& o : scene_.units) {
      if (&o == u_ || !o.pose || IsGeneral(o) || o.side != U.side || o.type == UnitType::kArtillery) continue;
      const geom::Base ofp = Footprint(o);
      const double reach = (o.type == UnitType::kCavalry ? d_.rear_support_cavalry_bw : d_.rear_support_infantry_bw) * bw;
      if (geom::InCorridor(from_fp, geom::Edge::kRear, reach, ofp, tol.line_mm).inside &&
          HeadingGap(ofp.heading_deg, from_fp.heading_deg) < 90.0)
        supports.push_back(&o);
    }
    nlohmann::json sj = nlohmann::json::array();
    for (const Unit* o : supports) sj.push_back(o->id);
    (*extra)["rear_support_at_start"] = sj;
    const double retire = d_.after.break_off_retire_bw * bw;
    if (supports.empty()) {
      (*extra)["break_off"] = "retire " + bw_text(retire) + " to the rear, facing away from the enemy (QRS 95)";
      if (!about_face) {
        Illegal("a cavalry break-off after a failed morale test ends facing away from the enemy (QRS 95): it turned " +
                std::to_string(std::lround(aturn)) + " degrees");
      } else if (dist > tol.distance_mm && off < 180.0 - tol.turn_deg) {
        Illegal("a cavalry break-off retires straight to the rear (QRS 95): it moved " + std::to_string(std::lround(180.0 - off)) +
                " degrees off the rear");
      } else if (std::abs(dist - retire) > slack) {
        Illegal("a cavalry break-off after a failed morale test retires " + bw_text(retire) + " (QRS 95): it moved " +
                bw_text(dist) + ", more than " + bw_text(slack) + " off");
      }
    } else {
      // Behind the supports, in the supporting position of a friend that stood behind it, facing the enemy.
      (*extra)["break_off"] = "fall back through its rear supports and stop at supporting distance facing the enemy (QRS 95)";
      const double reach = d_.rear_support_cavalry_bw * bw;
      std::string behind_of;
      for (const Unit& o : scene_.units) {
        if (&o == u_ || !o.pose || IsGeneral(o) || o.side != U.side) continue;
        const geom::Base ofp = Footprint(o);
        const bool was_behind = (ofp.centre_mm - from_fp.centre_mm).dot(geom::Forward(from_fp)) < 0.0;
        if (was_behind && geom::InCorridor(ofp, geom::Edge::kRear, reach, to_fp, tol.line_mm).inside &&
            HeadingGap(ofp.heading_deg, to_fp.heading_deg) < 90.0) {
          behind_of = o.id;
          break;
        }
      }
      if (aturn > tol.turn_deg) {
        Illegal("a cavalry break-off through its rear supports ends facing the enemy (QRS 95): it turned " +
                std::to_string(std::lround(aturn)) + " degrees");
      } else if (!rearward) {
        Illegal("a cavalry break-off falls back to the rear (QRS 95)");
      } else if (behind_of.empty()) {
        Illegal("a cavalry break-off through its rear supports stops at supporting distance (" + bw_text(reach) +
                ") behind them (QRS 95): it ends in no supporting position behind the units that stood behind it");
      } else if (const RoomBehind room = FirstRoomBehind(scene_, U, from_fp, to_fp, tol.contact_mm); room.blocked_after_mm >= 0) {
        Illegal("a unit falling back behind its supports stops at the first place with room for it (FAQ 299): there was room " +
                bw_text(room.first_room_mm) + " back, before " + room.blocked_by + "; it went on past " + room.blocked_by);
        (*extra)["first_room_mm"] = std::round(room.first_room_mm);
      } else {
        (*extra)["supports_after"] = behind_of;
      }
    }
    notes_.push_back(U.id + " failed its morale test in contact: the break-off is no ordered move (no action test); it "
                            "cannot move again in its following turn (QRS 95)");
    return finish_extra();
  }

  // QRS 97 and FAQ "PURSUING": a pursuit goes straight ahead the distance rolled ("it just goes the full
  // distance it rolled for pursuit and stops"), or less if it meets an enemy.
  if (const Declared* p = scene_.declarations.Find(U.id, "pursuit_bw")) {
    if (!p->value.is_number() || !(p->value.get<double>() >= 0))
      throw InputError(scene_.source, p->line, "declarations: " + U.id + ".pursuit_bw must be a distance in BW >= 0");
    kinds_.push_back("pursuit");
    const double rolled = p->value.get<double>() * bw;
    (*extra)["pursuit_bw"] = p->value.get<double>();
    if (s_.pursuit != "qrs" && !cavalry)
      Illegal("only cavalry pursue (FAQ \"PURSUING\"; QRS 97 names no type: --set pursuit=qrs)");
    bool meets = false;
    for (const Unit& o : scene_.units) {
      if (&o == u_ || !o.pose || IsGeneral(o) || o.side == U.side) continue;
      const geom::Contact c = geom::FindContact(to_fp, Footprint(o), tol.contact_mm);
      if (c.in_contact && !geom::FindContact(from_fp, Footprint(o), tol.contact_mm).in_contact) meets = true;
    }
    (*extra)["meets_enemy"] = meets;
    if (aturn > tol.straight_deg || (dist > tol.distance_mm && off > tol.straight_deg)) {
      Illegal("a pursuit goes straight ahead (QRS 97)");
    } else if (meets ? dist > rolled + slack : std::abs(dist - rolled) > slack) {
      Illegal(std::string("a pursuit goes ") + (meets ? "at most " : "the full ") + bw_text(rolled) +
              " rolled (FAQ \"PURSUING\"): it moved " + bw_text(dist));
    }
    if (meets) notes_.push_back("the pursuit's contact is fought in the next enemy phase; the pursuer tests with -1 (FAQ \"PURSUING\")");
    return finish_extra();
  }

  // FAQ 316 "If a limbered artillery is contacted by the pursuing unit, it makes a break off of one full
  // move. If the pursuer is still in contact after that or if the break off is blocked by impassable
  // terrain, the artillery is destroyed"; QRS movement table "Artillery Breakoff 10BW 5BW". Limbered guns
  // touching an enemy that move out of contact: up to one break-off move, the rough rate when the move
  // crosses bad going. No action test.
  if (U.type == UnitType::kArtillery && Limbered(U) && !touching.empty()) {
    bool still = false;
    for (const Touch& t : touching) still = still || geom::FindContact(to_fp, Footprint(*t.unit), tol.contact_mm).in_contact;
    if (!still && dist > tol.distance_mm) {
      kinds_.push_back("artillery_break_off");
      const MoveRate& rate = d_.movement.at("artillery").at("breakoff");
      bool rough = false;
      for (const Terrain& tr : scene_.terrain) {
        const TerrainKind* k = FindTerrainKind(tr.type);
        if (!k || !k->bad_going || tr.polygon.size() < 3) continue;
        for (const geom::Polygon& piece : geom::SweptBetween(from_fp, to_fp))
          if (geom::Area(geom::ClipConvex(geom::MakeCcw(tr.polygon), piece)) > 1.0) rough = true;
      }
      const double allowed = (rough ? rate.rough_bw.value_or(0.0) : rate.open_bw) * bw;
      (*extra)["break_off"] = "limbered artillery contacted breaks off up to one full move, " + bw_text(allowed) +
                              (rough ? " in rough ground" : "") + " (FAQ 316; movement table \"Breakoff\")";
      if (dist > allowed + tol.distance_mm)
        Illegal("a limbered gun's break-off is one full move, " + bw_text(allowed) + (rough ? " in rough ground" : "") +
                " (FAQ 316): it moved " + bw_text(dist));
      notes_.push_back("if the pursuer is still in contact after the break-off, or impassable ground blocks it, the gun is destroyed (FAQ 316)");
      return finish_extra();
    }
  }

  // QRS 95: cavalry that passed its test in contact with infantry or artillery may retire 2 BW and about face.
  if (cavalry && !touching.empty() && scene_.declarations.Flag(U.id, "passed_morale") && about_face && rearward) {
    kinds_.push_back("break_off_choice");
    bool foot_or_guns = false;
    for (const Touch& t : touching)
      foot_or_guns = foot_or_guns || t.unit->type == UnitType::kInfantry || t.unit->type == UnitType::kArtillery;
    const double retire = d_.after.break_off_choose_bw * bw;
    (*extra)["break_off"] = "may retire " + bw_text(retire) + " and about face after a passed morale test (QRS 95)";
    if (!foot_or_guns)
      Illegal("after a passed morale test cavalry may break off only from infantry or artillery (QRS 95)");
    else if (off < 180.0 - tol.turn_deg)
      Illegal("a cavalry break-off retires straight to the rear (QRS 95)");
    else if (std::abs(dist - retire) > slack)
      Illegal("after a passed morale test cavalry may retire " + bw_text(retire) + " and about face (QRS 95): it moved " +
              bw_text(dist) + ", more than " + bw_text(slack) + " off");
    return finish_extra();
  }

  // Where an enemy stands relative to this base: facing it (its centre ahead of the front edge, within
  // 45 degrees of the facing) and the gap edge to edge.
  auto faces = [&](const geom::Base& b, const geom::Base& e) {
    const geom::Vec2 to_e = e.centre_mm - geom::LeaderPoint(b);
    if (to_e.norm() < 1e-9) return false;
    return !FacesAway(b, e, tol.line_mm) && to_e.normalized().dot(geom::Forward(b)) >= std::cos(geom::DegToRad(45.0));
  };

  // QRS 99: light troops in contact pull back to 1 BW from the enemy's final position, facing it; an
  // action test (QRS 52); not light infantry in the open contacted by cavalry.
  if (IsLightTroops(U)) {
    for (const Touch& t : touching) {
      const geom::Base efp = Footprint(*t.unit);
      if (geom::FindContact(to_fp, efp, tol.contact_mm).in_contact || !faces(to_fp, efp)) continue;
      if (dist <= slack) continue;
      // Ending further or nearer than 1 BW is no pull back: an ordinary move (straight back, ...).
      const double want = d_.after.pull_back_bw * bw;
      const double gap = geom::BaseToBase(to_fp, efp).distance_mm;
      if (std::abs(gap - want) > slack) continue;
      kinds_.push_back("pull_back");
      (*extra)["pull_back"] = {{"from", t.unit->id}, {"gap_mm", std::round(gap * 10.0) / 10.0},
                               {"gap_bw", std::round(gap / bw * 100.0) / 100.0}};
      // In the open: less than half of the base in bad going or cover.
      double covered = 0.0;
      for (const Terrain& tr : scene_.terrain) {
        const TerrainKind* k = FindTerrainKind(tr.type);
        if (k && (k->bad_going || k->cover) && tr.polygon.size() >= 3) covered += geom::OverlapArea(from_fp, geom::MakeCcw(tr.polygon));
      }
      const bool open = covered < 0.5 * from_fp.width_mm * from_fp.depth_mm;
      bool by_cavalry = false;
      for (const Touch& x : touching) by_cavalry = by_cavalry || x.unit->type == UnitType::kCavalry;
      if (IsLightInfantry(U) && open && by_cavalry)
        Illegal("light infantry in the open contacted by cavalry cannot pull back (QRS 99)");
      else
        AddTest(3, "light_pull_back", {}, "where it stands (it does not move)", start, {t.unit->id});
      return finish_extra();
    }
  }

  // QRS 91 "Infantry Break Off": infantry contacted by infantry "can withdraw 1 BW after a successful
  // morale test"; a unit "occupying cover ... can force the opposing unit to pull back this distance";
  // "AT/BT units can also force opponents back" (FAQ 129: "force back 1/4 BW an enemy unit that fails its
  // morale test"). Straight back keeping the facing; a move of another length is an ordinary move.
  if (!touching.empty() && aturn <= tol.turn_deg && dist > tol.distance_mm && off >= 180.0 - tol.turn_deg) {
    auto near_distance = [&](double want) { return std::abs(dist - want) <= std::min(slack, want / 2.0); };
    auto in_cover = [&](const Unit& e) {
      const geom::Base efp = Footprint(e);
      double covered = 0.0;
      for (const Terrain& tr : scene_.terrain) {
        const TerrainKind* k = FindTerrainKind(tr.type);
        if (k && k->cover && tr.polygon.size() >= 3) covered += geom::OverlapArea(efp, geom::MakeCcw(tr.polygon));
      }
      return covered >= 0.5 * efp.width_mm * efp.depth_mm;
    };
    const double withdraw = d_.after.infantry_withdraw_bw * bw;
    const double at_bt = (s_.forced_back == "qrs" ? d_.after.forced_back_qrs_bw : d_.after.forced_back_faq_bw) * bw;
    for (const Touch& t : touching) {
      const Unit& E = *t.unit;
      if (U.type == UnitType::kInfantry && E.type == UnitType::kInfantry && scene_.declarations.Flag(U.id, "passed_morale") &&
          near_distance(withdraw)) {
        kinds_.push_back("infantry_withdraw");
        (*extra)["break_off"] = "withdraw " + bw_text(withdraw) + " from " + E.id + " after a passed morale test (QRS 91)";
        return finish_extra();
      }
      if (U.type == UnitType::kInfantry && E.type == UnitType::kInfantry && in_cover(E) &&
          scene_.declarations.Flag(E.id, "passed_morale") && near_distance(withdraw)) {
        kinds_.push_back("forced_back");
        (*extra)["forced_back"] = E.id + " in cover forces it back " + bw_text(withdraw) + " (QRS 91)";
        return finish_extra();
      }
      if (IsAtOrBt(E) && scene_.declarations.Flag(U.id, "failed_morale") && near_distance(at_bt)) {
        kinds_.push_back("forced_back");
        (*extra)["forced_back"] = std::string(E.id) + " (AT/BT) forces it back " + bw_text(at_bt) +
                                  (s_.forced_back == "qrs" ? " (QRS 91)" : " (FAQ 129; --set forced_back=qrs: 1 BW)");
        return finish_extra();
      }
    }
  }

  // Lining up (FAQ "Can you wheel while moving into contact?": "you just have to touch the 'target' and
  // then they will align"; "Moving into the flank a single unit": the unit contacted on the flank
  // conforms in its next turn, "automatic and doesn't require an action test", but with an enemy also on
  // its front "this requires an action test"). A unit touching an enemy that ends with its front edge
  // flush against one of that enemy's edges, squarely, within a base width of where it was.
  for (const Touch& t : touching) {
    const geom::Base efp = Footprint(*t.unit);
    const geom::Contact c = geom::FindContact(to_fp, efp, tol.contact_mm);
    if (!c.in_contact || c.corner_only || c.edge_a != geom::Edge::kFront) continue;
    const double want_heading = c.edge_b == geom::Edge::kFront  ? efp.heading_deg + 180.0
                                : c.edge_b == geom::Edge::kRear ? efp.heading_deg
                                : c.edge_b == geom::Edge::kLeft ? efp.heading_deg - 90.0
                                                                : efp.heading_deg + 90.0;
    if (HeadingGap(to_fp.heading_deg, want_heading) > tol.straight_deg) continue;
    const double shared_needed = std::min(to_fp.width_mm, c.edge_b == geom::Edge::kFront || c.edge_b == geom::Edge::kRear
                                                              ? efp.width_mm : efp.depth_mm) - 2.0 * tol.contact_mm;
    if (c.shared_mm < shared_needed) continue;
    if (dist > from_fp.width_mm + slack) continue;
    // Already flush and square at the start: not a lining up.
    if (!t.contact.corner_only && t.contact.edge_a == c.edge_a && t.contact.edge_b == c.edge_b && dist <= tol.distance_mm &&
        aturn <= tol.straight_deg)
      continue;
    kinds_.push_back("line_up");
    (*extra)["line_up"] = {{"with", t.unit->id}, {"their_edge", std::string(geom::ToString(c.edge_b))}};
    // Turning to face an enemy on its flank or rear while another enemy holds its front: an action test.
    const bool turning = t.contact.edge_a != geom::Edge::kFront && aturn > tol.turn_deg;
    std::vector<std::string> front_enemies;
    for (const Touch& x : touching)
      if (x.unit != t.unit && !x.contact.corner_only && x.contact.edge_a == geom::Edge::kFront) front_enemies.push_back(x.unit->id);
    if (turning && !front_enemies.empty()) {
      std::vector<std::string> by = {t.unit->id};
      AddTest(3, "face_flank_attacker", {}, "where it stands (it does not move)", start, by);
      notes_.push_back("facing " + t.unit->id + " leaves " + front_enemies[0] + " on its flank (FAQ \"Moving into the flank a single unit\")");
    } else {
      notes_.push_back("lining up with " + t.unit->id + " needs no action test (FAQ)");
    }
    return finish_extra();
  }
  return false;
}

MoveCheck MoveJudge::Run() {
  MoveCheck m;
  m.supported = true;
  nlohmann::json report = {{"ruleset", "totsk"}, {"unit", move_.unit}, {"second_move", move_.second_move}};
  auto finish = [&](nlohmann::json extra) {
    m.legal = legal_;
    m.illegal_reason = reason_;
    m.kinds = kinds_;
    if (legal_) m.state_changes = changes_;
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
        m.tests.push_back(t.test.test);
        p_all *= t.test.test.p_success;
        text << "  " << j["order"].get<int>() << ". " << t.test.test.reason << ": " << t.test.test.odds
             << "  (fails: halts " << t.halt_where << ")\n";
      }
      if (tests_.empty()) text << "  no action test\n";
      else text << "  all pass: " << static_cast<int>(std::lround(p_all * 100)) << "%\n";
    }
    for (const auto& n : notes_) text << "  note: " << n << "\n";
    nlohmann::json changes = nlohmann::json::array();
    for (const StateChange& c : m.state_changes) {
      changes.push_back({{"unit", c.unit}, {"key", c.key}, {"value", c.value}, {"reason", c.reason}});
      text << "  then " << c.unit << " " << c.reason << "\n";
    }
    report["state_changes"] = changes;
    report["legal"] = legal_;
    report["illegal_reason"] = legal_ ? nlohmann::json(nullptr) : nlohmann::json(reason_);
    report["kinds"] = kinds_;
    report["tests"] = tests;
    report["p_all_pass"] = legal_ ? p_all : 0.0;
    report["notes"] = notes_;
    for (auto& [k, v] : extra.items()) report[k] = v;
    m.report = report;
    m.text = text.str();
    return m;
  };

  // Step 1: the request itself.
  u_ = scene_.FindUnit(move_.unit);
  if (!u_) {
    Illegal("no unit '" + move_.unit + "' in the scene");
    return finish({});
  }
  if (!u_->pose) {
    Illegal("unit " + u_->id + " has no pose");
    return finish({});
  }
  const Pose& to = move_.to;
  if (!std::isfinite(to.x_mm) || !std::isfinite(to.y_mm) || !std::isfinite(to.heading_deg)) {
    Illegal("the target pose is not a finite position and heading");
    return finish({});
  }
  const Unit& U = *u_;
  const double bw = scene_.BwFor(U);
  const Tolerances& tol = d_.tolerances;
  Unit moved = U;
  moved.pose = to;
  if (!move_.formation.empty()) moved.formation = move_.formation;
  const geom::Base from_fp = Footprint(U);
  const geom::Base to_fp = Footprint(moved);
  const Pose start = *U.pose;
  report["from"] = PoseJson(start);
  report["to"] = PoseJson(to);

  // A routed unit (morale score of 3 or less, QRS) flees: its move is the result of the test, not
  // an order, so no move rule and no action test applies. The sheet gives no rout move to check it
  // against; the players declare the rout (`routed: true`, or `state: routed` from the overlay).
  if (scene_.declarations.Routed(U.id)) {
    kinds_.push_back("rout");
    notes_.push_back(U.id + " is declared routed: a flight, not an ordered move (no action test)");
    return finish({{"distance_mm", (to_fp.centre_mm - from_fp.centre_mm).norm()}});
  }

  // A cavalry unit that broke off "cannot move again in their following turn" (QRS 95; FAQ "PURSUING":
  // "the breaking off counts as its move").
  if (scene_.declarations.Flag(U.id, "broke_off") && !IsGeneral(U)) {
    kinds_.push_back("after_break_off");
    Illegal(U.id + " broke off: it cannot move again in its following turn (QRS 95)");
    return finish({});
  }
  {
    nlohmann::json extra = nlohmann::json::object();
    if (Reaction(from_fp, to_fp, moved, &extra)) return finish(extra);
  }

  // Step 2: classify by the turn and the direction of travel.
  const double turn = geom::NormalizeDeg(to_fp.heading_deg - from_fp.heading_deg);
  const double aturn = std::abs(turn);
  const geom::Vec2 delta = to_fp.centre_mm - from_fp.centre_mm;
  double travelled = 0.0;
  // Distance moved: the longer path of the two front corners (a wheel is measured on its outer corner).
  for (size_t i = 0; i < 2; ++i)
    travelled = std::max(travelled, PathLength(geom::Corners(from_fp)[i], geom::Corners(to_fp)[i], turn));
  const bool formation_change = !move_.formation.empty() && move_.formation != U.formation;
  const bool general = IsGeneral(U);
  const bool artillery = U.type == UnitType::kArtillery;
  const bool line = U.formation == "line";
  // A turn about any point of the base is free: the FAQ accepts all three face-to-flank placements.
  const double pivot_free = std::hypot(from_fp.width_mm, from_fp.depth_mm) / 2.0 + tol.pivot_bw * bw;
  double counted = travelled;  // distance charged against the movement table, mm
  bool half_move = false;
  if (general) {
    kinds_.push_back("general_move");
  } else if (aturn <= tol.straight_deg) {
    if (delta.norm() <= tol.distance_mm) {
      kinds_.push_back(formation_change ? "formation_change" : "no_move");
    } else {
      const double off = geom::RadToDeg(std::acos(std::clamp(delta.normalized().dot(geom::Forward(from_fp)), -1.0, 1.0)));
      if (off <= tol.straight_deg) {
        kinds_.push_back("straight_ahead");
      } else if (off >= 180.0 - tol.straight_deg) {
        kinds_.push_back("straight_back");
        half_move = true;
      } else if (off <= 45.0 + tol.straight_deg) {
        kinds_.push_back("echelon");
      } else {
        std::ostringstream s;
        s << "moves " << std::lround(off) << " degrees off its facing without turning: only straight ahead, straight back "
          << "or echelon (up to 45 degrees) keep the facing";
        Illegal(s.str());
      }
    }
  } else if (std::abs(aturn - 90.0) <= tol.turn_deg) {
    kinds_.push_back(formation_change ? "formation_change_turning" : "face_to_flank");
    counted = std::max(0.0, delta.norm() - pivot_free);
  } else if (aturn >= 180.0 - tol.turn_deg) {
    kinds_.push_back("about_face");
    counted = std::max(0.0, delta.norm() - pivot_free);
  } else if (artillery && aturn <= 45.0 + tol.straight_deg && delta.norm() <= tol.pivot_bw * bw + tol.distance_mm) {
    kinds_.push_back("pivot");
    counted = 0.0;
    notes_.push_back("artillery that rotates on the spot cannot fire in the following enemy phase unless it passes a test");
  } else if (aturn <= 45.0 + tol.straight_deg || !line) {
    kinds_.push_back("wheel");
  } else {
    std::ostringstream s;
    s << "turns " << std::lround(aturn) << " degrees: a wheel in line may turn at most 45 degrees";
    Illegal(s.str());
  }
  if (formation_change && std::find(kinds_.begin(), kinds_.end(), "formation_change") == kinds_.end() &&
      std::find(kinds_.begin(), kinds_.end(), "formation_change_turning") == kinds_.end())
    kinds_.insert(kinds_.begin(), "formation_change");
  if (formation_change) half_move = true;

  // Step 3: the start position (zone of control, fire) from the analysis of the scene as it stands.
  const TotskAnalysis start_analysis = AnalyzeTotskUnit(d_, s_, scene_, U.id);
  const UnitAnalysis* ua = start_analysis.Find(U.id);
  std::vector<std::string> zoc = ua ? ua->zoc_of : std::vector<std::string>{};
  report["zoc_of"] = zoc;
  const bool straight_only = kinds_.size() == 1 && (kinds_[0] == "straight_ahead" || kinds_[0] == "straight_back" ||
                                                    kinds_[0] == "no_move");
  if (!zoc.empty() && !straight_only && !general) {
    std::string list;
    for (const auto& z : zoc) list += (list.empty() ? "" : ", ") + z;
    Illegal("in the zone of control of " + list + ": may only move directly forward or back");
  }

  // Step 4: what the move meets: enemies it contacts, units it passes through, terrain it crosses.
  std::vector<geom::Polygon> swept = geom::SweptBetween(from_fp, to_fp);
  auto swept_overlap = [&](const geom::Polygon& poly) {
    double a = 0.0;
    for (const geom::Polygon& piece : swept) a += geom::Area(geom::ClipConvex(poly, piece));
    return a;
  };
  nlohmann::json contacts = nlohmann::json::array();
  nlohmann::json overlaps = nlohmann::json::array();
  std::vector<std::string> contact_kinds;
  std::vector<const Unit*> contacted;
  bool in_combat_at_start = false;
  const double from_radius = std::hypot(from_fp.width_mm, from_fp.depth_mm) / 2.0;
  for (const Unit& o : scene_.units) {
    if (&o == u_ || !o.pose || IsGeneral(o) || o.side == U.side) continue;
    const geom::Base ofp = Footprint(o);
    // Bounding circles apart by more than the contact slack: no need for the exact test.
    if ((ofp.centre_mm - from_fp.centre_mm).norm() - std::hypot(ofp.width_mm, ofp.depth_mm) / 2.0 - from_radius >
        tol.contact_mm + 1.0)
      continue;
    if (geom::FindContact(from_fp, ofp, tol.contact_mm).in_contact) in_combat_at_start = true;
  }
  // Bounding circle of the whole move: units outside it can neither be met nor passed through.
  const geom::Vec2 move_centre = (from_fp.centre_mm + to_fp.centre_mm) / 2.0;
  const double move_radius = delta.norm() / 2.0 + std::hypot(from_fp.width_mm, from_fp.depth_mm) / 2.0;
  for (const Unit& o : scene_.units) {
    if (&o == u_ || !o.pose || IsGeneral(o) || general) continue;
    const geom::Base ofp = Footprint(o);
    if ((ofp.centre_mm - move_centre).norm() - std::hypot(ofp.width_mm, ofp.depth_mm) / 2.0 - move_radius >
        tol.contact_mm + 1.0)
      continue;
    const bool enemy = o.side != U.side;
    const geom::Contact c = geom::FindContact(to_fp, ofp, tol.contact_mm);
    const double allowed_overlap = tol.contact_mm * std::min(to_fp.width_mm, ofp.width_mm);
    // No move may end inside another base. Bases pushed into contact by hand overlap a little: deeper
    // than the contact slack (tolerances.contact_mm) it is an overlap, of any size or shape.
    const UnitOverlap ov{U.id, o.id, UnitsOverlap(moved, o)};
    if (ov.overlap.overlapping && ov.overlap.depth_mm > tol.contact_mm) {
      Illegal("ends on top of another base: " + Describe(ov) + " (deeper than the " + Mm(tol.contact_mm) +
              " contact slack; bases may not overlap)");
      overlaps.push_back(ToJson(ov));
      continue;
    }
    const bool touching_now = geom::FindContact(from_fp, ofp, tol.contact_mm).in_contact;
    if (enemy && c.in_contact && !c.corner_only) {
      const std::string k = c.edge_b == geom::Edge::kFront ? "contact_front"
                            : c.edge_b == geom::Edge::kRear ? "contact_rear"
                                                            : "contact_flank";
      if (!touching_now) {
        contact_kinds.push_back(k);
        contacted.push_back(&o);
      }
      contacts.push_back({{"unit", o.id}, {"their_edge", std::string(geom::ToString(c.edge_b))}, {"new", !touching_now}});
      continue;
    }
    if (touching_now || c.in_contact) continue;
    if (swept_overlap(geom::PolygonCcw(ofp)) <= allowed_overlap) continue;
    if (enemy) {
      Illegal("passes through enemy " + o.id);
    } else if (in_combat_at_start && !kinds_.empty() && kinds_[0] == "straight_back") {
      kinds_.push_back("pass_through");
    } else if (geom::InCorridor(ofp, geom::Edge::kRear, d_.rear_support_cavalry_bw * bw, from_fp, tol.line_mm).inside &&
               HeadingGap(ofp.heading_deg, from_fp.heading_deg) < 90.0) {
      // Passage of lines (FAQ): a supporting unit replacing the one in front; directly aligned needs no test.
      const bool aligned = LateralOffset(ofp, from_fp) <= tol.pivot_bw * bw &&
                           HeadingGap(ofp.heading_deg, from_fp.heading_deg) <= tol.straight_deg;
      kinds_.push_back(aligned ? "replace_aligned" : "replace_forward");
    } else {
      Illegal("passes through " + o.id + " (only a unit in combat falling back, or a unit replacing the one it supports, "
              "may pass through friends)");
    }
  }
  report["contacts"] = contacts;
  report["overlaps"] = overlaps;
  for (const std::string& k : contact_kinds)
    if (std::find(kinds_.begin(), kinds_.end(), k) == kinds_.end()) kinds_.push_back(k);
  if (move_.second_move) kinds_.push_back("second_move");
  if (!contacted.empty() && move_.second_move) Illegal("a unit cannot move into contact on a 2nd or later move (FAQ)");
  for (const Unit* o : contacted) {
    if (U.type == UnitType::kInfantry && o->type == UnitType::kCavalry)
      Illegal("infantry cannot contact cavalry (FAQ \"Contacting an artillery unit in a line\")");
    if (IsLightHorse(U) && !IsLightHorse(*o) && (o->type == UnitType::kCavalry) &&
        std::find(contact_kinds.begin(), contact_kinds.end(), "contact_front") != contact_kinds.end())
      Illegal("light horse cannot contact the front of regular cavalry (FAQ)");
  }
  Conformation(to_fp, contacted, contact_kinds, &report);

  // Step 5: ground and the movement table.
  bool rough = false, road = true, impassable = false;
  std::vector<std::string> rough_ids;
  std::vector<geom::Polygon> bad_polys;
  bool any_road = false;
  for (const Terrain& t : scene_.terrain) {
    const TerrainKind* k = FindTerrainKind(t.type);
    if (!k || t.polygon.size() < 3) continue;
    if (t.type == "road") any_road = true;
    const double a = swept_overlap(geom::MakeCcw(t.polygon));
    if (a <= 1.0) continue;
    if (k->impassable) impassable = true;
    if (k->bad_going) {
      rough = true;
      rough_ids.push_back(t.id);
      bad_polys.push_back(geom::MakeCcw(t.polygon));
    }
  }
  if (impassable) Illegal("crosses impassable terrain");
  if (U.formation == "road_column" || moved.formation == "road_column") {
    // Road rate only when both ends lie on a road.
    road = any_road;
    for (const geom::Base& b : {from_fp, to_fp}) {
      double on = 0.0;
      for (const Terrain& t : scene_.terrain)
        if (t.type == "road") on += geom::OverlapArea(b, t.polygon);
      road = road && on >= 0.99 * b.width_mm * b.depth_mm;
    }
  } else {
    road = false;
  }
  const std::string type(ToString(U.type));
  const std::string formation = moved.formation;
  std::string row;
  if (general) {
    row = "any";
  } else if ((IsLightInfantry(U) || IsLightCavalry(U) || IsLightHorse(U)) && formation != "road_column") {
    row = "light";
  } else if (auto t = d_.formation_rows.find(type); t != d_.formation_rows.end()) {
    if (auto f = t->second.find(formation); f != t->second.end()) row = f->second;
  }
  if (row == "strategic" && road) row = "road";
  double allowance_bw = 0.0;
  if (row.empty() || !d_.movement.at(type).count(row)) {
    Illegal("no movement rate for " + type + " in formation '" + formation + "'");
  } else {
    const MoveRate& rate = d_.movement.at(type).at(row);
    if (rough && !rate.rough_bw) Illegal(type + " in " + formation + " cannot enter rough ground (movement table: NA)");
    allowance_bw = rough ? rate.rough_bw.value_or(0.0) : rate.open_bw;
    if (half_move) allowance_bw /= 2.0;
  }
  if (legal_ && counted > allowance_bw * bw + tol.distance_mm) {
    std::ostringstream s;
    s.precision(3);
    s << "moves " << counted / bw << " BW (" << std::lround(counted) << " mm); allowed " << allowance_bw << " BW ("
      << (rough ? "rough" : road ? "road" : "open") << ", " << row << (half_move ? ", half move" : "") << ")";
    Illegal(s.str());
  }

  // Step 6: the tests, in the FAQ's order.
  if (ua && !general) {
    for (const ActionTest& t : ua->action_tests) {
      PlannedTest p;
      p.phase = 1;
      p.test = t;
      p.halt_where = "where it stands (it does not move)";
      p.halt = start;
      tests_.push_back(p);
    }
  }
  if (move_.second_move && !general) {
    const std::string key = s_.second_move == "qrs" && IsIm(U) ? "second_move_qrs_im" : "second_move";
    AddTest(2, key, {}, "where it stands (it does not move)", start);
    BonusMove(from_fp, &report);
  }
  auto has = [&](const std::string& k) { return std::find(kinds_.begin(), kinds_.end(), k) != kinds_.end(); };
  const std::string stays = "where it stands (it does not move)";
  const bool light = IsLightTroops(U);
  if (!general) {
    if (has("formation_change") || has("formation_change_turning")) {
      if (artillery) {
        const bool limbering = Limbered(moved) && !Limbered(U);
        if (limbering) {
          std::vector<Modifier> mods;
          if (U.HasTag("og")) mods.push_back({"Obsolete Gun Limbering", d_.action_modifiers.at("obsolete_gun_limbering"), {}});
          AddTest(3, U.HasTag("ig") ? "limber_ig" : "limber", mods, stays, start);
        } else {
          AddTest(3, "unlimber", {}, stays, start);
        }
      } else if (has("formation_change")) {
        if (!IsIm(U)) Illegal("only IM units may change formation keeping the same facing");
        else AddTest(3, "formation_same_facing", {}, stays, start);
      } else {
        AddTest(3, "formation_turning", {}, stays, start);
      }
    }
    if (has("straight_back")) AddTest(3, has("pass_through") ? "pass_through" : "straight_back", {}, stays, start);
    if (has("echelon")) {
      if (!IsIm(U)) Illegal("echelon moves are for IM units only");
      else AddTest(3, "echelon", {}, stays, start);
    }
    if (has("face_to_flank")) AddTest(3, "face_to_flank", {}, stays, start);
    if (has("about_face") && !light) AddTest(3, "about_face", {}, stays, start);
    if (has("replace_forward")) AddTest(3, "replace_forward", {}, stays, start);
    if (has("wheel") && !light) {
      // FAQ: it moves to where it wants to wheel, tests, and halts there on a failure.
      Pose halt = start;
      std::string where = "where it begins to wheel (here, unless it moves ahead first)";
      for (const Pose& p : move_.path) {
        if (std::abs(geom::NormalizeDeg(p.heading_deg - start.heading_deg)) > tol.straight_deg) break;
        halt = p;
        where = "where it begins to wheel";
      }
      AddTest(4, "wheel", {}, where, halt);
    }
    if (rough && !light) {
      // The first point of a straight-line path where the unit enters bad going.
      Pose halt = start;
      for (int i = 0; i <= 64; ++i) {
        const double t = i / 64.0;
        geom::Base b = from_fp;
        b.centre_mm = from_fp.centre_mm + t * delta;
        b.heading_deg = from_fp.heading_deg + t * turn;
        double in = 0.0;
        for (const auto& poly : bad_polys) in += geom::OverlapArea(b, poly);
        if (in > 1.0) break;
        halt = PoseOf(U, b, from_fp);
      }
      std::string ids;
      for (const auto& id : rough_ids) ids += (ids.empty() ? "" : ", ") + id;
      AddTest(5, "bad_going", {}, "at the edge of the bad going (" + ids + ")", halt);
    }
    for (size_t i = 0; i < contacted.size(); ++i) {
      const Unit* o = contacted[i];
      const std::string& k = contact_kinds[i];
      // FAQ: the unit moves to the point it tests, "a few millimeters in front of the target".
      geom::Base b = to_fp;
      b.centre_mm -= geom::Forward(to_fp) * tol.contact_halt_gap_mm;
      const Pose halt = PoseOf(U, b, from_fp);
      const std::string where = "a few mm in front of " + o->id;
      std::vector<Modifier> mods;
      if (IsAtOrBt(U) && (o->type == UnitType::kInfantry || o->type == UnitType::kArtillery))
        mods.push_back({"AT or BT moving into contact with Infantry or Art",
                        d_.action_modifiers.at("at_bt_into_contact_infantry_artillery"), {}});
      if (k == "contact_front") {
        const bool hard = o->type == UnitType::kInfantry || o->type == UnitType::kArtillery;
        AddTest(6, hard ? "contact_front_hard" : "contact_front", mods, where, halt, {o->id});
      } else if (light) {
        AddTest(6, "light_contact_flank", mods, where, halt, {o->id});
      }
    }
  }
  if (!line && !general && (has("contact_flank") || has("contact_rear")) && !light)
    notes_.push_back("the QRS frees only a unit in line from the test to contact a flank or rear; a " + U.formation +
                     " is treated the same");

  m.counted_mm = counted;
  for (const Unit* o : contacted) m.contacts.push_back(o->id);
  m.allowance_mm = allowance_bw > 0 ? allowance_bw * bw : -1.0;
  report["distance_mm"] = std::round(counted * 10.0) / 10.0;
  report["distance_bw"] = std::round(counted / bw * 100.0) / 100.0;
  report["allowance_bw"] = allowance_bw;
  report["ground"] = rough ? "rough" : road ? "road" : "open";
  report["movement_row"] = row;
  report["formation"] = formation;
  return finish({});
}

}  // namespace

MoveCheck CheckTotskMove(const TotskData& data, const TotskSettings& settings, const Scene& scene, const MoveRequest& move) {
  MoveJudge j(data, settings, scene, move);
  return j.Run();
}

}  // namespace vedette::totsk
