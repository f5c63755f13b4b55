// The action tests a TotSK move needs, in the FAQ's order, with where a failure halts the unit; the
// bonus move's command point; who conforms to whom after a contact.
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

namespace {

// "G1 (rating 2, spent on B4, B5)": a General with the moves its points went to, one of `leave_out`'s
// left out (the move being judged, when it is served).
std::string GeneralWithPoints(const CommandPoints::General& g, const std::string& leave_out) {
  std::vector<std::string> on = g.used_by;
  if (const auto it = std::find(on.begin(), on.end(), leave_out); it != on.end()) on.erase(it);
  std::string list;
  for (const std::string& id : on) list += (list.empty() ? "" : ", ") + id;
  return g.unit->id + " (rating " + std::to_string(g.rating) + (list.empty() ? "" : ", spent on " + list) + ")";
}

}  // namespace

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

}  // namespace vedette::totsk::move
