#include "rules/kow/kow_move.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <sstream>

#include "rules/geometry/contact.h"
#include "rules/geometry/distance.h"
#include "rules/geometry/sweep.h"
#include "rules/input_error.h"
#include "rules/kow/analysis.h"
#include "rules/overlaps.h"

namespace vedette::kow {

const std::vector<std::string>& Orders() {
  static const std::vector<std::string> orders = {"halt", "change_facing", "advance", "back", "sidestep", "at_the_double", "charge"};
  return orders;
}

std::string OrderList() {
  std::string list;
  for (const std::string& o : Orders()) list += (list.empty() ? "" : ", ") + o;
  return list;
}

std::string OrderWords(const std::string& order) {
  if (order == "post_combat") return "after combat";
  std::string out = order;
  std::replace(out.begin(), out.end(), '_', ' ');
  return out;
}

std::string DeclaredOrder(const Scene& scene, const std::string& unit) {
  const Declared* d = scene.declarations.Find(unit, "order");
  if (!d) return "";
  const std::string o = d->value.is_string() ? d->value.get<std::string>() : "";
  if (std::find(Orders().begin(), Orders().end(), o) == Orders().end())
    throw InputError(scene.source, d->line, "declarations for " + unit + ": order must be one of " + OrderList() +
                                                " (seed 8), got " + d->value.dump());
  return o;
}

bool DeclaredFlag(const Scene& scene, const std::string& unit, const std::string& key) {
  const Declared* d = scene.declarations.Find(unit, key);
  if (!d) return false;
  if (!d->value.is_boolean()) throw InputError(scene.source, d->line, "declarations for " + unit + ": " + key + " must be true or false");
  return d->value.get<bool>();
}

namespace {

using geom::Base;
using geom::Vec2;
using nlohmann::json;

double Round1(double v) { return std::round(v * 10.0) / 10.0; }
double Round2(double v) { return std::round(v * 100.0) / 100.0; }

json PoseJson(const Pose& p) {
  return {{"x_mm", Round1(p.x_mm)}, {"y_mm", Round1(p.y_mm)}, {"heading_deg", Round1(geom::NormalizeDeg(p.heading_deg))}};
}

// A straight move of the whole base (a translation): what it passes over.
struct Leg {
  Base from, to;
};

geom::Polygon Swept(const Leg& l) {
  std::vector<Vec2> pts;
  for (const Vec2& p : geom::Corners(l.from)) pts.push_back(p);
  for (const Vec2& p : geom::Corners(l.to)) pts.push_back(p);
  return geom::ConvexHull(pts);
}

// What one order makes of the move.
struct OrderFit {
  std::string order;
  bool allowed = true;
  std::string why_not;            // the first reason it is not allowed, in the seed's words
  std::vector<std::string> how;   // the move's steps, in words
  double distance_mm = 0.0;       // how far it moved by the order's measure, mm
  double allowance_mm = -1.0;     // how far the order lets it move, mm (< 0: not a distance order)
  double pivot_deg = 0.0;         // pivots, deg counter-clockwise
  std::vector<Leg> legs;          // straight legs: nothing passed through, the 1-inch rule
  std::vector<Base> pivot_ends;   // where a pivot ends: must be clear (seed 10)
  std::string target;             // charge: the unit charged
  std::string facing;             // charge: its facing hit
  std::vector<std::string> notes;
  int stage = 0;                  // how far the checks got before the first objection: 0 shape, 1 distance, 2 the way
  void No(const std::string& why) {
    if (allowed) why_not = why, failed_at = stage;
    allowed = false;
  }
  int failed_at = -1;
};

class Judge {
 public:
  Judge(const KowConfig& c, const Scene& scene, const MoveRequest& move) : c_(c), scene_(scene), move_(move) {}
  MoveCheck Run();

 private:
  std::string In(double mm) const {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.2f %s (%.1f mm)", mm / c_.mm_per_unit, c_.unit_name.c_str(), mm);
    return buf;
  }
  static std::string Deg(double deg) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f deg", deg);
    return buf;
  }
  // The move as seen from where the order starts: an individual's free pivot first (seed 77).
  struct Motion {
    Base s;                  // the start the order is judged from
    double pre_pivot = 0.0;  // an individual's pivot before its order, deg
    Vec2 d;                  // centre travel, mm
    double turn = 0.0;       // end heading minus start heading, deg
    double along = 0.0;      // travel along the start's forward direction, mm
    double side = 0.0;       // travel to the start's right, mm
    bool moves = false;      // the centre moved beyond the placement tolerance
  };
  Motion MotionFor(const std::string& order, OrderFit* f) const;
  double NeedSpeed(OrderFit* f) const;  // the unit's speed, mm (0 and an objection when it has none)
  void NoTurn(const Motion& m, const std::string& what, OrderFit* f) const;
  OrderFit Fit(const std::string& order) const;
  void FitHalt(const Motion& m, OrderFit* f) const;
  void FitChangeFacing(const Motion& m, OrderFit* f) const;
  void FitBackOrSidestep(const Motion& m, OrderFit* f) const;
  void FitAtTheDouble(const Motion& m, OrderFit* f) const;
  void FitIndividualAdvance(const Motion& m, OrderFit* f) const;
  void FitAdvance(const Motion& m, OrderFit* f) const;
  void FitPostCombat(const Motion& m, OrderFit* f) const;
  int PostCombatRoll(double mm, bool forward, OrderFit* f) const;
  void LimitDistance(OrderFit* f) const;
  // A charge's reach as the rules judge it from the start: distance, range, the facing hit and
  // why it cannot be made ("" when it can).
  struct ChargeReach {
    geom::Edge edge = geom::Edge::kFront;
    std::string why;
    double distance_mm = 0.0, range_mm = 0.0;
  };
  void FitCharge(OrderFit* f) const;
  const Unit* TouchedEnemy(geom::Contact* contact) const;
  ChargeReach CounterChargeReach(const Unit& target, OrderFit* f) const;
  ChargeReach DeclaredChargeReach(const Unit& target, OrderFit* f) const;
  void CheckChargeContact(const Unit& target, const geom::Contact& contact, geom::Edge edge, bool counter, OrderFit* f) const;
  // The way a move goes: the terrain that blocks this unit, the straight legs' swept hulls, and the
  // overlap let pass as placement (the contact tolerance times the base's smaller side, mm^2).
  struct Way {
    std::vector<const Terrain*> blocking;
    std::vector<geom::Polygon> swept;
    double allowance_mm2 = 0.0;
    bool TerrainIn(const Terrain& t, const geom::Polygon& convex) const;  // overlaps beyond the allowance
  };
  void CheckWay(OrderFit* f) const;
  Way WayOf(const OrderFit& f) const;
  void CheckPivotEnds(const Way& w, OrderFit* f) const;
  void CheckEnemyOnTheWay(const Way& w, const Unit& o, OrderFit* f) const;
  json FitJson(const OrderFit& f) const;
  std::string ReadDeclarations();
  std::vector<std::string> OrdersToTry(const std::string& declared) const;
  MoveCheck Verdict(const std::vector<OrderFit>& fits) const;
  std::string Text(const std::string& declared, const std::vector<OrderFit>& fits, const MoveCheck& m) const;
  json Report(const std::string& declared, const std::vector<OrderFit>& fits, const MoveCheck& m) const;

  const KowConfig& c_;
  const Scene& scene_;
  const MoveRequest& move_;
  const Unit* u_ = nullptr;
  Profile p_;
  Base s_, e_;  // footprints at the start and the end
  bool wavering_ = false;
  std::string post_combat_;   // "", "routed" or "not_routed" (declarations.U.post_combat, seed 59)
  std::optional<int> roll_;   // declarations.U.post_combat_roll: the d6 or d3 rolled
};

// The move seen from the start an order is judged from (an individual's pivot first, seed 77).
Judge::Motion Judge::MotionFor(const std::string& order, OrderFit* f) const {
  Motion m;
  m.s = s_;
  // Seed 77: an individual may pivot to face any direction before it is given its order: the straight
  // orders are then judged from a start facing the way it ends.
  if (p_.individual && order != "change_facing" && order != "advance" && order != "charge" && order != "post_combat") {
    m.pre_pivot = geom::NormalizeDeg(e_.heading_deg - s_.heading_deg);
    m.s.heading_deg = e_.heading_deg;
    if (std::abs(m.pre_pivot) > c_.move_deg) {
      f->how.push_back("pivots " + Deg(m.pre_pivot) + " before its order (individual, seed 77)");
      f->pivot_ends.push_back(m.s);
    }
  }
  m.d = e_.centre_mm - m.s.centre_mm;
  m.turn = geom::NormalizeDeg(e_.heading_deg - m.s.heading_deg);
  m.along = m.d.dot(geom::Forward(m.s));
  m.side = m.d.dot(geom::Right(m.s));
  m.moves = m.d.norm() > c_.move_mm;
  return m;
}

double Judge::NeedSpeed(OrderFit* f) const {
  if (!p_.speed_in) f->No("no speed given (stats: speed_in), so no distance it may move");
  return p_.speed_in.value_or(0.0) * c_.mm_per_unit;
}

void Judge::NoTurn(const Motion& m, const std::string& what, OrderFit* f) const {
  if (std::abs(m.turn) > c_.move_deg) f->No(what + " (seed 8); it turned " + Deg(m.turn));
}

OrderFit Judge::Fit(const std::string& order) const {
  OrderFit f;
  f.order = order;
  // Seed 67: "Wavering units cannot be given at the double, advance, charge, or sidestep movement orders".
  if (wavering_ && (order == "advance" || order == "at_the_double" || order == "charge" || order == "sidestep"))
    f.No("Wavering units cannot be given " + std::string(order == "advance" ? "an " : "a ") + OrderWords(order) +
         " order (seed 67)");
  const Motion m = MotionFor(order, &f);
  f.pivot_deg = m.pre_pivot + (order == "change_facing" || order == "advance" || order == "charge" ? m.turn : 0.0);
  // Halt, change facing, a charge and a move after combat have no distance to check at stage 1.
  if (order == "halt") FitHalt(m, &f);
  else if (order == "change_facing") FitChangeFacing(m, &f);
  else if (order == "charge") FitCharge(&f);
  else if (order == "post_combat") FitPostCombat(m, &f);
  else {
    if (order == "back" || order == "sidestep") FitBackOrSidestep(m, &f);
    else if (order == "at_the_double") FitAtTheDouble(m, &f);
    else if (order == "advance" && p_.individual) FitIndividualAdvance(m, &f);
    else if (order == "advance") FitAdvance(m, &f);
    LimitDistance(&f);
  }
  return f;
}

void Judge::FitHalt(const Motion& m, OrderFit* f) const {
  if (m.moves) f->No("a unit given a halt order does not move (seed 8); its centre moved " + In(m.d.norm()));
  NoTurn(m, "a unit given a halt order does not turn", f);
  if (!m.moves && std::abs(m.turn) <= c_.move_deg) f->how.push_back("stays where it is");
}

void Judge::FitChangeFacing(const Motion& m, OrderFit* f) const {
  if (m.moves)
    f->No("change facing pivots about the centre, which must stay in the same position (seed 8); it moved " + In(m.d.norm()));
  f->how.push_back("pivots " + Deg(m.turn) + " about its centre");
  f->pivot_ends.push_back(e_);
}

void Judge::FitBackOrSidestep(const Motion& m, OrderFit* f) const {
  const double tol = c_.move_mm;
  const bool back = f->order == "back";
  f->allowance_mm = NeedSpeed(f) / 2.0;
  NoTurn(m, back ? "back cannot change facing" : "sidestep cannot change facing", f);
  if (back) {
    if (std::abs(m.side) > tol) f->No("back moves directly backward (seed 8); it also moved " + In(std::abs(m.side)) + " to the side");
    if (m.along > tol) f->No("back moves directly backward (seed 8); it moved " + In(m.along) + " forward");
    f->distance_mm = std::max(0.0, -m.along);
    f->how.push_back("back " + In(f->distance_mm));
  } else {
    if (std::abs(m.along) > tol)
      f->No("sidestep moves directly to one side (seed 8); it also moved " + In(std::abs(m.along)) + (m.along > 0 ? " forward" : " back"));
    f->distance_mm = std::abs(m.side);
    f->how.push_back(std::string("to its ") + (m.side >= 0 ? "right " : "left ") + In(f->distance_mm));
  }
  f->legs.push_back({m.s, e_});
}

void Judge::FitAtTheDouble(const Motion& m, OrderFit* f) const {
  const double tol = c_.move_mm;
  if (c_.cannot_charge.count(std::string(ToString(u_->type))) > 0) f->No("war engines cannot move at the double (seed 74)");
  f->allowance_mm = 2.0 * NeedSpeed(f);
  NoTurn(m, "at the double moves directly forward without pivoting or changing facing", f);
  if (std::abs(m.side) > tol) f->No("at the double moves directly forward (seed 8); it also moved " + In(std::abs(m.side)) + " to the side");
  if (m.along < -tol) f->No("at the double moves directly forward (seed 8); it moved " + In(-m.along) + " back");
  f->distance_mm = std::max(0.0, m.along);
  f->how.push_back("forward " + In(f->distance_mm));
  f->legs.push_back({m.s, e_});
}

// Seed 77: it may face any way first, then advance with its one pivot of up to 90 degrees: the
// shortest such move goes straight at the end point and pivots there.
void Judge::FitIndividualAdvance(const Motion& m, OrderFit* f) const {
  const double tol_deg = c_.move_deg;
  f->allowance_mm = NeedSpeed(f);
  if (!m.moves) {
    f->how.push_back("pivots " + Deg(m.turn) + " on the spot");
    f->pivot_ends.push_back(e_);
    return;
  }
  const double way = geom::HeadingOf(m.d);
  const double first = geom::NormalizeDeg(way - s_.heading_deg), last = geom::NormalizeDeg(e_.heading_deg - way);
  if (std::abs(last) > c_.max_pivot_deg + tol_deg)
    f->No("advance allows one pivot of up to 90 deg (seed 8): facing the way it moved (individual, seed 77) it would still turn " +
          Deg(last));
  Base a = s_, b = e_;
  a.heading_deg = b.heading_deg = way;
  if (std::abs(first) > tol_deg) f->how.push_back("pivots " + Deg(first) + " before its order (individual, seed 77)");
  f->how.push_back("forward " + In(m.d.norm()));
  if (std::abs(last) > tol_deg) f->how.push_back("pivots " + Deg(last));
  f->pivot_ends.push_back(a);
  f->pivot_ends.push_back(e_);
  f->legs.push_back({a, b});
  f->distance_mm = m.d.norm();
  f->pivot_deg = first + last;
}

// Seed 8: forward, one pivot about the centre of up to 90 degrees, forward again in the new
// direction: centre travel a * f0 + b * f1 with a, b >= 0 (least squares, within the tolerance).
void Judge::FitAdvance(const Motion& m, OrderFit* f) const {
  const double tol = c_.move_mm, tol_deg = c_.move_deg;
  f->allowance_mm = NeedSpeed(f);
  if (std::abs(m.turn) > c_.max_pivot_deg + tol_deg)
    f->No("advance allows a single pivot of up to 90 deg (seed 8); it turned " + Deg(m.turn));
  const Vec2 f0 = geom::Forward(m.s), f1 = geom::Forward(e_);
  double a = 0.0, b = 0.0, best = m.d.norm();
  auto consider = [&](double x, double y) {
    const double r = (x * f0 + y * f1 - m.d).norm();
    if (r < best - 1e-9) best = r, a = x, b = y;
  };
  const double det = geom::Cross(f0, f1);
  if (std::abs(det) > 1e-9) {
    const double x = geom::Cross(m.d, f1) / det, y = geom::Cross(f0, m.d) / det;
    if (x >= 0 && y >= 0) consider(x, y);
  }
  consider(std::max(0.0, m.d.dot(f0)), 0.0);
  consider(0.0, std::max(0.0, m.d.dot(f1)));
  if (best > tol)
    f->No("advance moves forward, with one pivot about its centre at any point (seed 8); this move is " + In(best) +
          " off any such path (backwards or to the side)");
  const Base mid = geom::MovedForward(m.s, a);
  const Base pivoted = geom::PivotedAboutCentre(mid, m.turn);
  if (a > tol || std::abs(m.turn) <= tol_deg) f->how.push_back("forward " + In(a));
  if (std::abs(m.turn) > tol_deg) {
    f->how.push_back("pivots " + Deg(m.turn));
    f->pivot_ends.push_back(pivoted);
    if (b > tol) f->how.push_back("forward " + In(b));
  }
  f->legs.push_back({m.s, mid});
  f->legs.push_back({pivoted, geom::MovedForward(pivoted, b)});
  f->distance_mm = a + b;
}

// Seed 59: after the combat the charging unit, if the enemy was routed, may (1) stay and pivot about
// its centre to face any direction, (2) move d6" directly forward, the full distance, or (3) move
// directly backwards d3"; if the enemy was not routed it must move backwards 1" out of contact.
void Judge::FitPostCombat(const Motion& m, OrderFit* f) const {
  const double tol = c_.move_mm, inch = c_.mm_per_unit;
  if (post_combat_ == "not_routed") {
    NoTurn(m, "a unit whose enemy was not routed moves directly backwards 1 in, not turning", f);
    if (std::abs(m.side) > tol) f->No("it moves directly backwards 1 in (seed 59); it also moved " + In(std::abs(m.side)) + " to the side");
    f->distance_mm = -m.along;
    f->allowance_mm = inch;
    if (std::abs(-m.along - inch) > tol)
      f->No("the enemy was not routed: it must move backwards 1 in so that it is no longer in contact (seed 59); it moved " +
            In(-m.along) + (m.along > 0 ? " forward" : " back"));
    f->how.push_back("back " + In(std::max(0.0, -m.along)) + " out of contact (enemy not routed, seed 59)");
    f->legs.push_back({m.s, e_});
    return;
  }
  // The enemy was routed: the three choices.
  if (!m.moves) {
    f->how.push_back("stays and pivots " + Deg(m.turn) + " (enemy routed, seed 59)");
    f->pivot_ends.push_back(e_);
    return;
  }
  NoTurn(m, "after routing its enemy a unit that moves goes directly forward or backwards, not turning", f);
  if (std::abs(m.side) > tol) f->No("it moves directly forward or backwards (seed 59); it also moved " + In(std::abs(m.side)) + " to the side");
  const bool forward = m.along > 0;
  f->distance_mm = std::abs(m.along);
  f->allowance_mm = (forward ? 6.0 : 3.0) * inch;
  const int k = PostCombatRoll(std::abs(m.along), forward, f);
  f->how.push_back(std::string(forward ? "forward " : "back ") + In(std::abs(m.along)) + (k ? " (a roll of " + std::to_string(k) + ")" : "") +
                   " after routing its enemy (seed 59)");
  f->legs.push_back({m.s, e_});
}

// The distance moved after routing the enemy against the roll: whole inches up to the d6 forward or
// the d3 back (or, with post_combat_back=up_to, any distance up to the d3 back). Returns the roll the
// distance matches (0: none, or not asked).
int Judge::PostCombatRoll(double mm, bool forward, OrderFit* f) const {
  const double inch = c_.mm_per_unit;
  if (!forward && c_.post_combat_back_up_to) {
    // Setting post_combat_back=up_to: any distance up to the d3 (as rolled, else its most).
    const double most = (roll_ ? *roll_ : 3) * inch;
    if (roll_ && *roll_ > 3) f->No("the roll was " + std::to_string(*roll_) + ": backwards it moves up to the d3 rolled (seed 59)");
    else if (mm > most + c_.move_mm)
      f->No("backwards it moves up to the d3 rolled, " + In(most) + " (seed 59, setting post_combat_back=up_to); it moved " + In(mm));
    return 0;
  }
  const int k = static_cast<int>(std::lround(mm / inch));
  if (k < 1 || k > (forward ? 6 : 3) || std::abs(mm - k * inch) > c_.move_mm) {
    f->No(std::string(forward ? "forward it moves the d6 rolled, in whole inches, the full distance"
                              : "backwards it moves the d3 rolled, in whole inches") +
          " (seed 59); it moved " + In(mm));
    return 0;
  }
  if (roll_ && *roll_ != k)
    f->No("the roll was " + std::to_string(*roll_) + ": it must move " + std::to_string(*roll_) + " in " + (forward ? "forward" : "back") +
          " (seed 59); it moved " + In(mm));
  return k;
}

// Stage 1: the distance against what the order allows.
void Judge::LimitDistance(OrderFit* f) const {
  f->stage = 1;
  if (f->allowance_mm < 0 || !p_.speed_in) return;
  if (f->distance_mm > f->allowance_mm + 1e-6)
    f->No(OrderWords(f->order) + " moves up to " + In(f->allowance_mm) +
          (f->order == "advance" ? " (its speed" : f->order == "at_the_double" ? " (twice its speed" : " (half its speed") +
          ", seed 8); it moved " + In(f->distance_mm));
  if (std::abs(f->distance_mm - f->allowance_mm) <= c_.move_mm)
    f->notes.push_back("the distance is within the placement tolerance (" + In(c_.move_mm) + ") of the limit: measure it by hand");
}

// Seed 12-19 and 27: a charge ends in base contact, flush against the facing its leader point was in
// when declared (a counter-charge: the front), with a charge that could be declared from the start.
void Judge::FitCharge(OrderFit* f) const {
  geom::Contact contact;
  const Unit* target = TouchedEnemy(&contact);
  if (!target) {
    // The ruler still shows how far a charge reaches (twice the speed, seed 13) while it is short.
    if (p_.speed_in) f->allowance_mm = c_.charge_range_factor * *p_.speed_in * c_.mm_per_unit;
    f->No("a charge ends in base contact with the enemy unit charged (seed 13); it touches no enemy");
    return;
  }
  f->stage = 1;
  f->target = target->id;
  const std::vector<std::string> charged_by = ChargedBy(scene_, *u_);
  const bool counter = std::find(charged_by.begin(), charged_by.end(), target->id) != charged_by.end();
  const ChargeReach r = counter ? CounterChargeReach(*target, f) : DeclaredChargeReach(*target, f);
  f->facing = std::string(geom::ToString(r.edge));
  f->distance_mm = r.distance_mm;
  f->allowance_mm = r.range_mm;
  f->pivot_deg = geom::NormalizeDeg(e_.heading_deg - s_.heading_deg);
  f->how.insert(f->how.begin(), "into " + target->id + "'s " + OrderWords(f->facing) + ", leader point " + In(r.distance_mm) +
                                    " from its base, reach " + In(r.range_mm));
  f->stage = 2;
  if (!r.why.empty()) {
    f->No("cannot " + std::string(counter ? "counter-charge " : "charge ") + target->id + ": " + r.why);
    return;
  }
  CheckChargeContact(*target, contact, r.edge, counter, f);
}

// The enemy the end position touches, by the longest shared edge (null: none); its contact.
const Unit* Judge::TouchedEnemy(geom::Contact* contact) const {
  const Unit* target = nullptr;
  for (const Unit& o : scene_.units) {
    if (!o.pose || o.side == u_->side || o.id == u_->id) continue;
    const geom::Contact ct = geom::FindContact(e_, Footprint(o), c_.contact_mm);
    if (ct.in_contact && (!target || ct.shared_mm > contact->shared_mm)) target = &o, *contact = ct;
  }
  return target;
}

// Seed 27: a counter-charge against the unit that charged this one, into its front.
Judge::ChargeReach Judge::CounterChargeReach(const Unit& target, OrderFit* f) const {
  ChargeReach r;
  const CounterChargeCheck cc = CheckCounterCharge(scene_, c_, *u_, target);
  r.distance_mm = cc.distance_mm, r.range_mm = cc.range_mm;
  for (const std::string& why : cc.reasons) r.why += (r.why.empty() ? "" : "; ") + why;
  f->how.push_back("counter-charges " + target.id + " (it charged this unit last turn, seed 27)");
  if (cc.route && cc.route->found) f->how.push_back("shortest route " + In(cc.route->length_mm));
  return r;
}

// Seed 13-19: a charge as declared from the start, into the facing whose arc holds the leader point.
Judge::ChargeReach Judge::DeclaredChargeReach(const Unit& target, OrderFit* f) const {
  ChargeReach r;
  // Seed 77: an individual may first face any way, and (Nimble) makes an extra 90-degree pivot.
  KowConfig cfg = c_;
  if (p_.individual) cfg.max_pivot_deg = 2.0 * c_.max_pivot_deg;
  ChargeCheck ch = CheckCharge(scene_, cfg, *u_, target);
  if (!ch.chargeable && p_.individual) {
    Unit faced = *u_;
    const Vec2 to = Footprint(target).centre_mm - s_.centre_mm;
    faced.pose->heading_deg += geom::NormalizeDeg(geom::HeadingOf(to) - s_.heading_deg);
    const ChargeCheck again = CheckCharge(scene_, cfg, faced, target);
    if (again.chargeable) {
      ch = again;
      f->how.push_back("faces " + target.id + " before its order (individual, seed 77)");
    }
  }
  r.distance_mm = ch.distance_mm, r.range_mm = ch.range_mm;
  for (const std::string& why : ch.reasons) r.why += (r.why.empty() ? "" : "; ") + why;
  switch (ch.facing) {
    case geom::Arc::kFront: r.edge = geom::Edge::kFront; break;
    case geom::Arc::kLeftFlank: r.edge = geom::Edge::kLeft; break;
    case geom::Arc::kRightFlank: r.edge = geom::Edge::kRight; break;
    case geom::Arc::kRear: r.edge = geom::Edge::kRear; break;
  }
  if (ch.route && ch.route->found) f->how.push_back("shortest route " + In(ch.route->length_mm));
  if (ch.hindered) f->notes.push_back("Hindered: -1 to hit in the melee (charged through difficult terrain, seed 53)");
  return r;
}

// Seed 17 and 19/27: front edge flush against the facing hit, not corner to corner; the leader
// points lined up if possible (a note).
void Judge::CheckChargeContact(const Unit& target, const geom::Contact& contact, geom::Edge edge, bool counter, OrderFit* f) const {
  if (contact.corner_only) f->No("corner to corner contact does not count as a charge (seed 17)");
  if (contact.edge_a != geom::Edge::kFront)
    f->No("a charging unit ends with its front flush against the target (seed 17); it touches with its " +
          OrderWords(std::string(geom::ToString(contact.edge_a))));
  if (contact.edge_b != edge)
    f->No(std::string(counter ? "a counter-charge contacts the target's front (seed 27)"
                              : "the charge hits the facing whose arc held the leader point when declared (seed 19)") +
          ": " + OrderWords(f->facing) + "; it touches " + target.id + "'s " + OrderWords(std::string(geom::ToString(contact.edge_b))));
  // Flush (seed 17): facing straight into the edge.
  const geom::Segment seg = geom::EdgeSegment(Footprint(target), edge);
  const Vec2 along = (seg.b - seg.a).normalized();
  const Vec2 inward{along.y(), -along.x()};  // EdgeSegment runs clockwise round the base: its right is inward
  const double off = geom::NormalizeDeg(e_.heading_deg - geom::HeadingOf(inward));
  if (std::abs(off) > c_.move_deg)
    f->No("a charging unit is aligned flush with the target (seed 17); it is " + Deg(off) + " off flush with " + target.id + "'s " +
          OrderWords(f->facing));
  // Seed 17: leader point lined up with the target's leader point (front) or centre (flank, rear) if possible.
  const double slide = (geom::LeaderPoint(e_) - (seg.a + seg.b) / 2.0).dot(along);
  if (std::abs(slide) > c_.move_mm)
    f->notes.push_back("seed 17 lines the leader point up with " + target.id + "'s " + (edge == geom::Edge::kFront ? "leader point" : "centre") +
                       " if possible; it is " + In(std::abs(slide)) + " off");
}

// Every move: no ending on another unit or in blocking terrain; no passing through enemies or blocking
// terrain on a straight leg; pivots end clear; the 1-inch rule (not for charges).
void Judge::CheckWay(OrderFit* f) const {
  f->stage = 2;
  for (const UnitOverlap& o : OverlapsAt(scene_, *u_, move_.to, c_.contact_mm))
    f->No("it would end on top of " + o.b + " (" + Describe(o) + "): no move may end on another unit (seed 10)");
  const Way w = WayOf(*f);
  for (const Terrain* t : w.blocking)
    if (w.TerrainIn(*t, geom::PolygonCcw(e_)))
      f->No("it would end in " + t->id + " (" + t->type + "), which blocks movement" +
            (c_.blocking_terrain.count(t->type) ? "" : " for war engines (seed 74)"));
  CheckPivotEnds(w, f);
  for (const geom::Polygon& hull : w.swept)
    for (const Terrain* t : w.blocking)
      if (w.TerrainIn(*t, hull))
        f->No("it moves through " + t->id + " (" + t->type + "): only a pivot may pass through blocking terrain (seed 10)");
  // Not for charges and halts, nor for the move seed 59 orders back 1" out of a combat not won.
  if (f->order == "charge" || f->order == "halt" || (f->order == "post_combat" && post_combat_ == "not_routed")) return;
  for (const Unit& o : scene_.units)
    if (o.pose && o.id != u_->id && o.side != u_->side) CheckEnemyOnTheWay(w, o, f);
}

// What blocks this unit, how much overlap is let pass, and the straight legs' swept hulls.
Judge::Way Judge::WayOf(const OrderFit& f) const {
  Way w;
  for (const Terrain& t : scene_.terrain)
    if (c_.blocking_terrain.count(t.type) || (c_.cannot_charge.count(std::string(ToString(u_->type))) && c_.obstacle_terrain.count(t.type)))
      w.blocking.push_back(&t);
  w.allowance_mm2 = c_.contact_mm * std::min(s_.width_mm, s_.depth_mm);
  for (const Leg& l : f.legs)
    if ((l.to.centre_mm - l.from.centre_mm).norm() > 1e-6) w.swept.push_back(Swept(l));
  return w;
}

bool Judge::Way::TerrainIn(const Terrain& t, const geom::Polygon& convex) const {
  return geom::Area(geom::ClipConvex(t.polygon, convex)) > allowance_mm2;
}

// Seed 10: a pivot may sweep through anything but must end clear (the end itself is checked apart).
void Judge::CheckPivotEnds(const Way& w, OrderFit* f) const {
  for (const Base& pe : f->pivot_ends) {
    if (std::abs(pe.centre_mm.x() - e_.centre_mm.x()) < 1e-9 && std::abs(pe.centre_mm.y() - e_.centre_mm.y()) < 1e-9 &&
        std::abs(geom::NormalizeDeg(pe.heading_deg - e_.heading_deg)) < 1e-9)
      continue;  // the end: checked above
    for (const Unit& o : scene_.units) {
      if (!o.pose || o.id == u_->id) continue;
      const geom::Overlap ov = geom::BaseOverlap(pe, Footprint(o));
      if (ov.overlapping && ov.depth_mm > c_.contact_mm) f->No("its pivot does not end clear of " + o.id + " (seed 10)");
    }
    for (const Terrain* t : w.blocking)
      if (w.TerrainIn(*t, geom::PolygonCcw(pe))) f->No("its pivot does not end clear of " + t->id + " (seed 10)");
  }
}

// Seed 10: no moving through an enemy, and (but for a charge) no approaching within 1 inch of one;
// with one_inch_rule=strict, no ending within 1 inch either.
void Judge::CheckEnemyOnTheWay(const Way& w, const Unit& o, OrderFit* f) const {
  const double inch = c_.one_inch_in * c_.mm_per_unit;
  const Base ob = Footprint(o);
  const geom::Polygon op = geom::PolygonCcw(ob);
  for (const geom::Polygon& hull : w.swept)
    if (geom::OverlapArea(ob, hull) > w.allowance_mm2) f->No("it moves through " + o.id + ": enemy units cannot be moved through (seed 10)");
  const double g0 = geom::BaseToBase(s_, ob).distance_mm, gend = geom::BaseToBase(e_, ob).distance_mm;
  double gmin = gend;
  for (const geom::Polygon& hull : w.swept) gmin = std::min(gmin, geom::PolygonToPolygon(hull, op).distance_mm);
  const bool approach = gmin <= inch + 1e-9 && gmin < g0 - 0.5;
  if (gmin < g0 - 0.5 && std::abs(gmin - inch) <= c_.move_mm)
    f->notes.push_back("it comes to " + In(gmin) + " of " + o.id + ", within the placement tolerance (" + In(c_.move_mm) +
                       ") of 1 " + c_.unit_name + ": measure it by hand");
  if (approach)
    f->No("it comes within 1 " + c_.unit_name + " of " + o.id + " (" + In(gmin) + " at the closest, from " + In(g0) +
          "): only a charge may approach within 1 " + c_.unit_name + " of an enemy (seed 10)");
  else if (c_.one_inch_strict && gend <= inch + 1e-9)
    f->No("it ends within 1 " + c_.unit_name + " of " + o.id + " (" + In(gend) +
          "): no move but a charge may end within 1 " + c_.unit_name + " of an enemy (seed 10, setting one_inch_rule=strict)");
}

json Judge::FitJson(const OrderFit& f) const {
  json j = {{"order", f.order}, {"allowed", f.allowed}, {"why_not", f.allowed ? json(nullptr) : json(f.why_not)},
            {"steps", f.how}, {"pivot_deg", Round1(f.pivot_deg)}, {"notes", f.notes}};
  j["distance_mm"] = Round1(f.distance_mm);
  j["distance_in"] = Round2(f.distance_mm / c_.mm_per_unit);
  if (f.allowance_mm >= 0) {
    j["allowance_mm"] = Round1(f.allowance_mm);
    j["allowance_in"] = Round2(f.allowance_mm / c_.mm_per_unit);
    j["margin_mm"] = Round1(f.allowance_mm - f.distance_mm);
  }
  if (!f.target.empty()) {
    j["target"] = f.target;
    j["facing"] = f.facing;
  }
  return j;
}

MoveCheck Judge::Run() {
  u_ = scene_.FindUnit(move_.unit);
  if (!u_ || !u_->pose) throw InputError(scene_.source, 0, "no placed unit '" + move_.unit + "' in the scene");
  p_ = ProfileOf(*u_, c_);
  const std::string declared = ReadDeclarations();
  Unit moved = *u_;
  moved.pose = move_.to;
  s_ = Footprint(*u_);
  e_ = Footprint(moved);
  std::vector<OrderFit> fits;
  for (const std::string& o : OrdersToTry(declared)) {
    OrderFit f = Fit(o);
    if (f.allowed) CheckWay(&f);
    fits.push_back(std::move(f));
  }
  MoveCheck m = Verdict(fits);
  m.text = Text(declared, fits, m);
  m.report = Report(declared, fits, m);
  return m;
}

// The unit's declared order (or ""), and what else this judge reads: wavering, the post-combat move
// and its roll (seed 59). Bad values are refused naming the line.
std::string Judge::ReadDeclarations() {
  const std::string declared = DeclaredOrder(scene_, u_->id);
  wavering_ = DeclaredFlag(scene_, u_->id, "wavering");
  if (const Declared* d = scene_.declarations.Find(u_->id, "post_combat")) {
    post_combat_ = d->value.is_string() ? d->value.get<std::string>() : "";
    if (post_combat_ != "routed" && post_combat_ != "not_routed")
      throw InputError(scene_.source, d->line, "declarations for " + u_->id + ": post_combat must be routed or not_routed (seed 59), got " +
                                                   d->value.dump());
  }
  if (const Declared* d = scene_.declarations.Find(u_->id, "post_combat_roll")) {
    const double v = d->value.is_number() ? d->value.get<double>() : 0.0;
    if (v != std::floor(v) || v < 1 || v > 6)
      throw InputError(scene_.source, d->line, "declarations for " + u_->id + ": post_combat_roll must be a die roll, 1 to 6");
    roll_ = static_cast<int>(v);
  }
  return declared;
}

// A post-combat move (seed 59) is not an order: declared, it is what the move is judged as. With no
// order declared, a unit that stayed put halted, and a move is tried against every order.
std::vector<std::string> Judge::OrdersToTry(const std::string& declared) const {
  if (!post_combat_.empty()) return {"post_combat"};
  if (!declared.empty()) return {declared};
  const bool still = (e_.centre_mm - s_.centre_mm).norm() <= c_.move_mm &&
                     std::abs(geom::NormalizeDeg(e_.heading_deg - s_.heading_deg)) <= c_.move_deg;
  return still ? std::vector<std::string>{"halt"} : Orders();
}

// Legal when some order tried allows the move; the reason, the ruler's allowance and the charge's reach.
MoveCheck Judge::Verdict(const std::vector<OrderFit>& fits) const {
  MoveCheck m;
  m.supported = true;
  for (const OrderFit& f : fits)
    if (f.allowed) m.kinds.push_back(f.order);
  m.legal = !m.kinds.empty();
  if (!m.legal && fits.size() == 1) {
    m.illegal_reason = fits[0].why_not;
  } else if (!m.legal) {
    // The nearest miss: the order whose shape fits the move and that fails only later (too far, or
    // on the way); else the advance's (the general move). Every order is listed below.
    const OrderFit* near = nullptr;
    for (const OrderFit& f : fits)
      if ((!near && f.order == "advance") || (f.failed_at > 0 && (!near || f.failed_at > near->failed_at))) near = &f;
    if (near) m.illegal_reason = "no order allows this move (" + OrderWords(near->order) + ": " + near->why_not + ")";
  }
  // The ruler's allowance: the declared order's, else the first order that allows the move, else the
  // first distance order tried (charges and post-combat moves are not measured against one).
  const OrderFit* measured = nullptr;
  for (int pass = 0; pass < 2 && !measured; ++pass)
    for (const OrderFit& f : fits)
      if (f.allowance_mm >= 0 && f.order != "charge" && f.order != "post_combat" && (pass == 1 || f.allowed)) {
        measured = &f;
        break;
      }
  if (measured) {
    m.counted_mm = measured->distance_mm;
    m.allowance_mm = measured->allowance_mm;
  }
  // A charge: how far it reaches and whom it hits.
  for (const OrderFit& f : fits) {
    if (f.order != "charge" || f.allowance_mm < 0) continue;
    m.charge_reach_mm = f.allowance_mm;
    if (f.allowed && !f.target.empty()) m.contacts.push_back(f.target);
  }
  return m;
}

// The player's words: the verdict, the orders that allow it, each order's steps or why not.
std::string Judge::Text(const std::string& declared, const std::vector<OrderFit>& fits, const MoveCheck& m) const {
  const bool single = fits.size() == 1;
  std::ostringstream text;
  text << c_.title << " move of " << u_->id << ", "
       << (!post_combat_.empty() ? std::string("after its combat (enemy ") + (post_combat_ == "routed" ? "routed" : "not routed") + ")"
           : declared.empty()    ? std::string("no order declared")
                                 : "order " + OrderWords(declared))
       << ": " << (m.legal ? "legal" : "ILLEGAL: " + m.illegal_reason) << "\n";
  if (!single && m.legal) {
    std::string as;
    for (const std::string& o : m.kinds) as += (as.empty() ? "" : ", ") + OrderWords(o);
    text << "  allowed as: " << as << "\n";
  }
  for (const OrderFit& f : fits) {
    if (!single && !f.allowed) {
      text << "  not " << OrderWords(f.order) << ": " << f.why_not << "\n";
      continue;
    }
    std::string steps;
    for (const std::string& h : f.how) steps += (steps.empty() ? "" : ", ") + h;
    text << "  " << OrderWords(f.order) << ": " << (steps.empty() ? "-" : steps);
    if (f.allowance_mm >= 0 && f.order != "charge" && f.order != "post_combat")
      text << "; " << In(f.distance_mm) << " of " << In(f.allowance_mm) << " allowed";
    text << "\n";
    for (const std::string& n : f.notes) text << "    note: " << n << "\n";
  }
  return text.str();
}

json Judge::Report(const std::string& declared, const std::vector<OrderFit>& fits, const MoveCheck& m) const {
  json orders = json::array();
  for (const OrderFit& f : fits) orders.push_back(FitJson(f));
  return {{"ruleset", "kow"},
          {"unit", u_->id},
          {"order", declared.empty() ? json(nullptr) : json(declared)},
          {"post_combat", post_combat_.empty() ? json(nullptr) : json(post_combat_)},
          {"from", PoseJson(*u_->pose)},
          {"to", PoseJson(move_.to)},
          {"legal", m.legal},
          {"illegal_reason", m.legal ? json(nullptr) : json(m.illegal_reason)},
          {"kinds", m.kinds},
          {"wavering", wavering_},
          {"individual", p_.individual},
          {"one_inch_rule", c_.one_inch_strict ? "strict" : "approach"},
          {"orders", orders}};
}

}  // namespace

MoveCheck CheckKowMove(const KowConfig& c, const Scene& scene, const MoveRequest& move) { return Judge(c, scene, move).Run(); }

}  // namespace vedette::kow
