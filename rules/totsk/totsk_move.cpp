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

// Enemies touching the unit at the start (corners included: a base pushed into contact by hand).
struct Touch {
  const Unit* unit;
  geom::Contact contact;  // edge_a: this unit's edge, edge_b: the enemy's
};

// The requested move's geometry, worked out once for every step.
struct MoveGeometry {
  Unit moved;              // the unit at its end pose, in its end formation
  geom::Base from_fp, to_fp;
  Pose start;              // where it stands
  double bw = 0.0;         // its base width, mm
  double slack = 0.0;      // the placement slack, mm
  double turn = 0.0;       // deg, counter-clockwise > 0
  double aturn = 0.0;      // |turn|, deg
  geom::Vec2 delta{0, 0};  // the centre's travel, mm
  double dist = 0.0;       // |delta|, mm
  double off = 0.0;        // deg between the travel and the facing at the start (0: straight ahead, or no travel)
};

// How the move is charged against the movement table.
struct Travel {
  double counted_mm = 0.0;  // distance charged, mm
  bool half_move = false;   // straight back or a formation change: half the rate
};

// The ground the move crosses and the rate it allows.
struct Ground {
  bool rough = false, road = false;
  std::vector<std::string> rough_ids;    // the bad going crossed
  std::vector<geom::Polygon> bad_polys;  // their outlines, counter-clockwise
  std::string row;                       // the movement table's row ("" when there is none)
  std::string formation;                 // at the end
  double allowance_bw = 0.0;             // BW
};

class MoveJudge {
 public:
  MoveJudge(const TotskData& d, const TotskSettings& s, const Scene& scene, const MoveRequest& move)
      : d_(d), s_(s), scene_(scene), move_(move), tol_(d.tolerances) {}
  MoveCheck Run();

 private:
  void Illegal(const std::string& why) {
    if (legal_) reason_ = why;
    legal_ = false;
  }
  void AddTest(int phase, const std::string& key, std::vector<Modifier> extra, const std::string& where, const Pose& halt,
               std::vector<std::string> by = {});
  std::string BwText(double mm) const;  // "0.5 BW (20 mm)"
  // The request names a placed unit and a finite pose (else it is illegal, said).
  bool ReadRequest();
  void Measure();
  // The verdict, its text and report (with `extra`'s keys).
  MoveCheck Finish(const nlohmann::json& extra);

  // QRS 95-99 and the FAQ's lining up: the moves that follow a morale test or a contact rather than
  // the movement table (break-off, pursuit, light troops' pull back, lining up). True when the move is
  // one of them: kinds_, tests_, notes_ and the legality are then set and `extra` holds its report.
  bool Reaction(nlohmann::json* extra);
  std::vector<Touch> TouchingAtStart() const;
  bool FinishReaction(nlohmann::json* extra);  // the reaction's common report; always true
  bool CavalryBreakOff(nlohmann::json* extra);
  std::vector<const Unit*> RearSupportsAtStart() const;
  void RetireAway(nlohmann::json* extra);
  void FallBackThroughSupports(nlohmann::json* extra);
  bool Pursuit(nlohmann::json* extra);
  bool ArtilleryBreakOff(nlohmann::json* extra);
  bool BreakOffChoice(nlohmann::json* extra);
  bool PullBack(nlohmann::json* extra);
  bool WithdrawOrForcedBack(nlohmann::json* extra);
  bool LineUp(nlohmann::json* extra);
  std::optional<geom::Contact> LineUpContact(const Touch& t) const;
  bool AboutFace() const { return g_.aturn >= 180.0 - tol_.turn_deg; }
  bool Rearward() const { return g_.dist > g_.slack && g_.off >= 180.0 - 45.0; }
  // Base b faces enemy e: e's centre ahead of b's front edge, within 45 degrees of its facing.
  bool Faces(const geom::Base& b, const geom::Base& e) const;
  // Area of b in cover (and in bad going when asked), mm^2.
  double CoverArea(const geom::Base& b, bool with_bad_going) const;

  // The ordered move's steps.
  Travel Classify();
  void ClassifyKeepingFacing(Travel* t);
  const UnitAnalysis* StartPosition();
  void Meets();
  bool InCombatAtStart() const;
  void MeetUnit(const Unit& o, bool in_combat_at_start, nlohmann::json* contacts, nlohmann::json* overlaps);
  void ContactRules();
  double SweptOverlap(const geom::Polygon& poly) const;
  Ground GroundCrossed();
  void Allowance(const Travel& travel, Ground* g);
  void PlanTests(const UnitAnalysis* ua, const Ground& ground);
  void ManoeuvreTests();
  void WheelTest();
  void BadGoingTest(const Ground& ground);
  void ContactTests();
  void Summarise(const Travel& travel, const Ground& ground);
  bool Has(const std::string& kind) const { return std::find(kinds_.begin(), kinds_.end(), kind) != kinds_.end(); }

  // A second or later move is a bonus move: it spends a command point of a General in reach.
  void BonusMove(const geom::Base& from_fp, nlohmann::json* report);
  // Who aligns to whom after each new contact (FAQ 249 and "Moving into the flank a single unit").
  void Conformation(const geom::Base& to_fp, const std::vector<const Unit*>& contacted,
                    const std::vector<std::string>& kinds, nlohmann::json* report);
  const std::string& Difficulty(const std::string& key) const {
    const MoveTest& t = d_.move_tests.at(key);
    return IsIm(*u_) && !t.im_difficulty.empty() ? t.im_difficulty : t.difficulty;
  }

  static constexpr const char* kStays = "where it stands (it does not move)";
  const TotskData& d_;
  const TotskSettings& s_;
  const Scene& scene_;
  const MoveRequest& move_;
  const Tolerances& tol_;
  const Unit* u_ = nullptr;
  MoveGeometry g_;
  MoveCheck m_;
  nlohmann::json report_;
  bool legal_ = true;
  std::string reason_;
  std::vector<std::string> kinds_, notes_;
  std::vector<PlannedTest> tests_;
  std::vector<StateChange> changes_;  // the mover's own, when the move is legal
  std::vector<Touch> touching_;       // enemies touching it at the start (reactions)
  TotskAnalysis start_analysis_;      // the scene as it stands, for the unit
  std::vector<geom::Polygon> swept_;  // the ground the base sweeps
  std::vector<const Unit*> contacted_;      // enemies newly contacted
  std::vector<std::string> contact_kinds_;  // "contact_front" / "contact_flank" / "contact_rear", same order
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
  const bool formation_change = !move_.formation.empty() && move_.formation != U.formation;
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
    const bool formation_change = !move_.formation.empty() && move_.formation != u_->formation;
    kinds_.push_back(formation_change ? "formation_change" : "no_move");
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

// Step 6: the tests, in the FAQ's order.
void MoveJudge::PlanTests(const UnitAnalysis* ua, const Ground& ground) {
  const Unit& U = *u_;
  const bool general = IsGeneral(U);
  if (ua && !general) {
    for (const ActionTest& t : ua->action_tests) {
      PlannedTest p;
      p.phase = 1;
      p.test = t;
      p.halt_where = kStays;
      p.halt = g_.start;
      tests_.push_back(p);
    }
  }
  if (move_.second_move && !general) {
    const std::string key = s_.second_move == "qrs" && IsIm(U) ? "second_move_qrs_im" : "second_move";
    AddTest(2, key, {}, kStays, g_.start);
    BonusMove(g_.from_fp, &report_);
  }
  const bool light = IsLightTroops(U);
  if (!general) {
    ManoeuvreTests();
    if (Has("wheel") && !light) WheelTest();
    if (ground.rough && !light) BadGoingTest(ground);
    ContactTests();
  }
  if (U.formation != "line" && !general && (Has("contact_flank") || Has("contact_rear")) && !light)
    notes_.push_back("the QRS frees only a unit in line from the test to contact a flank or rear; a " + U.formation +
                     " is treated the same");
}

void MoveJudge::ManoeuvreTests() {
  const Unit& U = *u_;
  const Pose& start = g_.start;
  if (Has("formation_change") || Has("formation_change_turning")) {
    if (U.type == UnitType::kArtillery) {
      if (Limbered(g_.moved) && !Limbered(U)) {
        std::vector<Modifier> mods;
        if (U.HasTag("og")) mods.push_back({"Obsolete Gun Limbering", d_.action_modifiers.at("obsolete_gun_limbering"), {}});
        AddTest(3, U.HasTag("ig") ? "limber_ig" : "limber", mods, kStays, start);
      } else {
        AddTest(3, "unlimber", {}, kStays, start);
      }
    } else if (Has("formation_change")) {
      if (!IsIm(U)) Illegal("only IM units may change formation keeping the same facing");
      else AddTest(3, "formation_same_facing", {}, kStays, start);
    } else {
      AddTest(3, "formation_turning", {}, kStays, start);
    }
  }
  if (Has("straight_back")) AddTest(3, Has("pass_through") ? "pass_through" : "straight_back", {}, kStays, start);
  if (Has("echelon")) {
    if (!IsIm(U)) Illegal("echelon moves are for IM units only");
    else AddTest(3, "echelon", {}, kStays, start);
  }
  if (Has("face_to_flank")) AddTest(3, "face_to_flank", {}, kStays, start);
  if (Has("about_face") && !IsLightTroops(U)) AddTest(3, "about_face", {}, kStays, start);
  if (Has("replace_forward")) AddTest(3, "replace_forward", {}, kStays, start);
}

// FAQ: it moves to where it wants to wheel, tests, and halts there on a failure.
void MoveJudge::WheelTest() {
  Pose halt = g_.start;
  std::string where = "where it begins to wheel (here, unless it moves ahead first)";
  for (const Pose& p : move_.path) {
    if (std::abs(geom::NormalizeDeg(p.heading_deg - g_.start.heading_deg)) > tol_.straight_deg) break;
    halt = p;
    where = "where it begins to wheel";
  }
  AddTest(4, "wheel", {}, where, halt);
}

// The first point of a straight-line path where the unit enters bad going.
void MoveJudge::BadGoingTest(const Ground& ground) {
  Pose halt = g_.start;
  for (int i = 0; i <= 64; ++i) {
    const double t = i / 64.0;
    geom::Base b = g_.from_fp;
    b.centre_mm = g_.from_fp.centre_mm + t * g_.delta;
    b.heading_deg = g_.from_fp.heading_deg + t * g_.turn;
    double in = 0.0;
    for (const auto& poly : ground.bad_polys) in += geom::OverlapArea(b, poly);
    if (in > 1.0) break;
    halt = PoseOf(*u_, b, g_.from_fp);
  }
  std::string ids;
  for (const auto& id : ground.rough_ids) ids += (ids.empty() ? "" : ", ") + id;
  AddTest(5, "bad_going", {}, "at the edge of the bad going (" + ids + ")", halt);
}

void MoveJudge::ContactTests() {
  const Unit& U = *u_;
  for (size_t i = 0; i < contacted_.size(); ++i) {
    const Unit* o = contacted_[i];
    // FAQ: the unit moves to the point it tests, "a few millimeters in front of the target".
    geom::Base b = g_.to_fp;
    b.centre_mm -= geom::Forward(g_.to_fp) * tol_.contact_halt_gap_mm;
    const Pose halt = PoseOf(U, b, g_.from_fp);
    const std::string where = "a few mm in front of " + o->id;
    std::vector<Modifier> mods;
    if (IsAtOrBt(U) && (o->type == UnitType::kInfantry || o->type == UnitType::kArtillery))
      mods.push_back({"AT or BT moving into contact with Infantry or Art",
                      d_.action_modifiers.at("at_bt_into_contact_infantry_artillery"), {}});
    if (contact_kinds_[i] == "contact_front") {
      const bool hard = o->type == UnitType::kInfantry || o->type == UnitType::kArtillery;
      AddTest(6, hard ? "contact_front_hard" : "contact_front", mods, where, halt, {o->id});
    } else if (IsLightTroops(U)) {
      AddTest(6, "light_contact_flank", mods, where, halt, {o->id});
    }
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

}  // namespace

MoveCheck CheckTotskMove(const TotskData& data, const TotskSettings& settings, const Scene& scene, const MoveRequest& move) {
  MoveJudge j(data, settings, scene, move);
  return j.Run();
}

}  // namespace vedette::totsk
