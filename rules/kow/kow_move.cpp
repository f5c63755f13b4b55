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
  OrderFit Fit(const std::string& order) const;
  void FitCharge(OrderFit* f) const;
  void CheckWay(OrderFit* f) const;
  json FitJson(const OrderFit& f) const;

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

OrderFit Judge::Fit(const std::string& order) const {
  OrderFit f;
  f.order = order;
  const double tol = c_.move_mm, tol_deg = c_.move_deg;
  const bool engine = c_.cannot_charge.count(std::string(ToString(u_->type))) > 0;
  // Seed 67: "Wavering units cannot be given at the double, advance, charge, or sidestep movement orders".
  if (wavering_ && (order == "advance" || order == "at_the_double" || order == "charge" || order == "sidestep"))
    f.No("Wavering units cannot be given " + std::string(order == "advance" ? "an " : "a ") + OrderWords(order) +
         " order (seed 67)");
  // Seed 77: an individual may pivot to face any direction before it is given its order: the straight
  // orders are then judged from a start facing the way it ends.
  Base s = s_;
  double pre_pivot = 0.0;
  if (p_.individual && order != "change_facing" && order != "advance" && order != "charge" && order != "post_combat") {
    pre_pivot = geom::NormalizeDeg(e_.heading_deg - s_.heading_deg);
    s.heading_deg = e_.heading_deg;
    if (std::abs(pre_pivot) > tol_deg) {
      f.how.push_back("pivots " + Deg(pre_pivot) + " before its order (individual, seed 77)");
      f.pivot_ends.push_back(s);
    }
  }
  const Vec2 d = e_.centre_mm - s.centre_mm;
  const double turn = geom::NormalizeDeg(e_.heading_deg - s.heading_deg);
  const double along = d.dot(geom::Forward(s)), side = d.dot(geom::Right(s));
  const bool moves = d.norm() > tol;
  auto need_speed = [&]() {
    if (!p_.speed_in) f.No("no speed given (stats: speed_in), so no distance it may move");
    return p_.speed_in.value_or(0.0) * c_.mm_per_unit;
  };
  auto no_turn = [&](const std::string& what) {
    if (std::abs(turn) > tol_deg) f.No(what + " (seed 8); it turned " + Deg(turn));
  };
  f.pivot_deg = pre_pivot + (order == "change_facing" || order == "advance" || order == "charge" ? turn : 0.0);
  if (order == "halt") {
    if (moves) f.No("a unit given a halt order does not move (seed 8); its centre moved " + In(d.norm()));
    no_turn("a unit given a halt order does not turn");
    if (!moves && std::abs(turn) <= tol_deg) f.how.push_back("stays where it is");
    return f;
  }
  if (order == "change_facing") {
    if (moves) f.No("change facing pivots about the centre, which must stay in the same position (seed 8); it moved " + In(d.norm()));
    f.how.push_back("pivots " + Deg(turn) + " about its centre");
    f.pivot_ends.push_back(e_);
    return f;
  }
  if (order == "back" || order == "sidestep") {
    const double speed = need_speed();
    f.allowance_mm = speed / 2.0;
    no_turn(order == "back" ? "back cannot change facing" : "sidestep cannot change facing");
    if (order == "back") {
      if (std::abs(side) > tol) f.No("back moves directly backward (seed 8); it also moved " + In(std::abs(side)) + " to the side");
      if (along > tol) f.No("back moves directly backward (seed 8); it moved " + In(along) + " forward");
      f.distance_mm = std::max(0.0, -along);
      f.how.push_back("back " + In(f.distance_mm));
    } else {
      if (std::abs(along) > tol)
        f.No("sidestep moves directly to one side (seed 8); it also moved " + In(std::abs(along)) + (along > 0 ? " forward" : " back"));
      f.distance_mm = std::abs(side);
      f.how.push_back(std::string("to its ") + (side >= 0 ? "right " : "left ") + In(f.distance_mm));
    }
    f.legs.push_back({s, e_});
  } else if (order == "at_the_double") {
    if (engine) f.No("war engines cannot move at the double (seed 74)");
    const double speed = need_speed();
    f.allowance_mm = 2.0 * speed;
    no_turn("at the double moves directly forward without pivoting or changing facing");
    if (std::abs(side) > tol) f.No("at the double moves directly forward (seed 8); it also moved " + In(std::abs(side)) + " to the side");
    if (along < -tol) f.No("at the double moves directly forward (seed 8); it moved " + In(-along) + " back");
    f.distance_mm = std::max(0.0, along);
    f.how.push_back("forward " + In(f.distance_mm));
    f.legs.push_back({s, e_});
  } else if (order == "advance") {
    const double speed = need_speed();
    f.allowance_mm = speed;
    if (p_.individual) {
      // Seed 77: it may face any way first, then advance with its one pivot of up to 90 degrees: the
      // shortest such move goes straight at the end point and pivots there.
      if (!moves) {
        f.how.push_back("pivots " + Deg(turn) + " on the spot");
        f.pivot_ends.push_back(e_);
      } else {
        const double way = geom::HeadingOf(d);
        const double first = geom::NormalizeDeg(way - s_.heading_deg), last = geom::NormalizeDeg(e_.heading_deg - way);
        if (std::abs(last) > c_.max_pivot_deg + tol_deg)
          f.No("advance allows one pivot of up to 90 deg (seed 8): facing the way it moved (individual, seed 77) it would still turn " +
               Deg(last));
        Base a = s_, b = e_;
        a.heading_deg = b.heading_deg = way;
        if (std::abs(first) > tol_deg) f.how.push_back("pivots " + Deg(first) + " before its order (individual, seed 77)");
        f.how.push_back("forward " + In(d.norm()));
        if (std::abs(last) > tol_deg) f.how.push_back("pivots " + Deg(last));
        f.pivot_ends.push_back(a);
        f.pivot_ends.push_back(e_);
        f.legs.push_back({a, b});
        f.distance_mm = d.norm();
        f.pivot_deg = first + last;
      }
    } else {
      // Seed 8: forward, one pivot about the centre of up to 90 degrees, forward again in the new
      // direction: centre travel a * f0 + b * f1 with a, b >= 0 (least squares, within the tolerance).
      if (std::abs(turn) > c_.max_pivot_deg + tol_deg) f.No("advance allows a single pivot of up to 90 deg (seed 8); it turned " + Deg(turn));
      const Vec2 f0 = geom::Forward(s), f1 = geom::Forward(e_);
      double a = 0.0, b = 0.0, best = d.norm();
      auto consider = [&](double x, double y) {
        const double r = (x * f0 + y * f1 - d).norm();
        if (r < best - 1e-9) best = r, a = x, b = y;
      };
      const double det = geom::Cross(f0, f1);
      if (std::abs(det) > 1e-9) {
        const double x = geom::Cross(d, f1) / det, y = geom::Cross(f0, d) / det;
        if (x >= 0 && y >= 0) consider(x, y);
      }
      consider(std::max(0.0, d.dot(f0)), 0.0);
      consider(0.0, std::max(0.0, d.dot(f1)));
      if (best > tol) f.No("advance moves forward, with one pivot about its centre at any point (seed 8); this move is " + In(best) +
                           " off any such path (backwards or to the side)");
      const Base m = geom::MovedForward(s, a);
      const Base mp = geom::PivotedAboutCentre(m, turn);
      if (a > tol || std::abs(turn) <= tol_deg) f.how.push_back("forward " + In(a));
      if (std::abs(turn) > tol_deg) {
        f.how.push_back("pivots " + Deg(turn));
        f.pivot_ends.push_back(mp);
        if (b > tol) f.how.push_back("forward " + In(b));
      }
      f.legs.push_back({s, m});
      f.legs.push_back({mp, geom::MovedForward(mp, b)});
      f.distance_mm = a + b;
    }
  } else if (order == "charge") {
    FitCharge(&f);
    return f;
  } else if (order == "post_combat") {
    // Seed 59: after the combat the charging unit, if the enemy was routed, may (1) stay and pivot about
    // its centre to face any direction, (2) move d6" directly forward, the full distance, or (3) move
    // directly backwards d3"; if the enemy was not routed it must move backwards 1" out of contact.
    const double inch = c_.mm_per_unit;
    auto whole_inches = [&](double mm, int max, int* out) {  // the roll the distance matches, within the tolerance
      const int k = static_cast<int>(std::lround(mm / inch));
      if (k < 1 || k > max || std::abs(mm - k * inch) > tol) return false;
      *out = k;
      return true;
    };
    if (post_combat_ == "not_routed") {
      no_turn("a unit whose enemy was not routed moves directly backwards 1 in, not turning");
      if (std::abs(side) > tol) f.No("it moves directly backwards 1 in (seed 59); it also moved " + In(std::abs(side)) + " to the side");
      f.distance_mm = -along;
      f.allowance_mm = inch;
      if (std::abs(-along - inch) > tol)
        f.No("the enemy was not routed: it must move backwards 1 in so that it is no longer in contact (seed 59); it moved " +
             In(-along) + (along > 0 ? " forward" : " back"));
      f.how.push_back("back " + In(std::max(0.0, -along)) + " out of contact (enemy not routed, seed 59)");
      f.legs.push_back({s, e_});
      return f;
    }
    // The enemy was routed: the three choices.
    int k = 0;
    if (!moves) {
      f.how.push_back("stays and pivots " + Deg(turn) + " (enemy routed, seed 59)");
      f.pivot_ends.push_back(e_);
      return f;
    }
    no_turn("after routing its enemy a unit that moves goes directly forward or backwards, not turning");
    if (std::abs(side) > tol) f.No("it moves directly forward or backwards (seed 59); it also moved " + In(std::abs(side)) + " to the side");
    const bool forward = along > 0;
    f.distance_mm = std::abs(along);
    f.allowance_mm = (forward ? 6.0 : 3.0) * inch;
    if (!forward && c_.post_combat_back_up_to) {
      // Setting post_combat_back=up_to: any distance up to the d3 (as rolled, else its most).
      const double most = (roll_ ? *roll_ : 3) * inch;
      if (roll_ && *roll_ > 3) f.No("the roll was " + std::to_string(*roll_) + ": backwards it moves up to the d3 rolled (seed 59)");
      else if (std::abs(along) > most + tol)
        f.No("backwards it moves up to the d3 rolled, " + In(most) + " (seed 59, setting post_combat_back=up_to); it moved " + In(std::abs(along)));
    } else if (!whole_inches(std::abs(along), forward ? 6 : 3, &k)) {
      f.No(std::string(forward ? "forward it moves the d6 rolled, in whole inches, the full distance"
                               : "backwards it moves the d3 rolled, in whole inches") +
           " (seed 59); it moved " + In(std::abs(along)));
    } else if (roll_ && *roll_ != k) {
      f.No("the roll was " + std::to_string(*roll_) + ": it must move " + std::to_string(*roll_) + " in " + (forward ? "forward" : "back") +
           " (seed 59); it moved " + In(std::abs(along)));
    }
    f.how.push_back(std::string(forward ? "forward " : "back ") + In(std::abs(along)) + (k ? " (a roll of " + std::to_string(k) + ")" : "") +
                    " after routing its enemy (seed 59)");
    f.legs.push_back({s, e_});
    return f;
  }
  f.stage = 1;
  if (f.allowance_mm >= 0 && p_.speed_in && f.distance_mm > f.allowance_mm + 1e-6)
    f.No(OrderWords(order) + " moves up to " + In(f.allowance_mm) +
         (order == "advance" ? " (its speed" : order == "at_the_double" ? " (twice its speed" : " (half its speed") +
         ", seed 8); it moved " + In(f.distance_mm));
  if (f.allowance_mm >= 0 && p_.speed_in && std::abs(f.distance_mm - f.allowance_mm) <= c_.move_mm)
    f.notes.push_back("the distance is within the placement tolerance (" + In(c_.move_mm) + ") of the limit: measure it by hand");
  return f;
}

// Seed 12-19 and 27: a charge ends in base contact, flush against the facing its leader point was in
// when declared (a counter-charge: the front), with a charge that could be declared from the start.
void Judge::FitCharge(OrderFit* f) const {
  // The enemy touched, by the longest shared edge.
  const Unit* target = nullptr;
  geom::Contact best;
  for (const Unit& o : scene_.units) {
    if (!o.pose || o.side == u_->side || o.id == u_->id) continue;
    const geom::Contact ct = geom::FindContact(e_, Footprint(o), c_.contact_mm);
    if (ct.in_contact && (!target || ct.shared_mm > best.shared_mm)) target = &o, best = ct;
  }
  if (!target) {
    // The ruler still shows how far a charge reaches (twice the speed, seed 13) while it is short.
    if (p_.speed_in) f->allowance_mm = c_.charge_range_factor * *p_.speed_in * c_.mm_per_unit;
    f->No("a charge ends in base contact with the enemy unit charged (seed 13); it touches no enemy");
    return;
  }
  f->stage = 1;
  f->target = target->id;
  const Base tb = Footprint(*target);
  const std::vector<std::string> charged_by = ChargedBy(scene_, *u_);
  const bool counter = std::find(charged_by.begin(), charged_by.end(), target->id) != charged_by.end();
  geom::Edge edge = geom::Edge::kFront;
  std::string why;
  double distance = 0.0, range = 0.0;
  if (counter) {
    const CounterChargeCheck cc = CheckCounterCharge(scene_, c_, *u_, *target);
    distance = cc.distance_mm, range = cc.range_mm;
    for (const std::string& r : cc.reasons) why += (why.empty() ? "" : "; ") + r;
    f->how.push_back("counter-charges " + target->id + " (it charged this unit last turn, seed 27)");
    if (cc.route && cc.route->found) f->how.push_back("shortest route " + In(cc.route->length_mm));
  } else {
    // Seed 77: an individual may first face any way, and (Nimble) makes an extra 90-degree pivot.
    KowConfig cfg = c_;
    if (p_.individual) cfg.max_pivot_deg = 2.0 * c_.max_pivot_deg;
    ChargeCheck ch = CheckCharge(scene_, cfg, *u_, *target);
    if (!ch.chargeable && p_.individual) {
      Unit faced = *u_;
      const Vec2 to = tb.centre_mm - s_.centre_mm;
      faced.pose->heading_deg += geom::NormalizeDeg(geom::HeadingOf(to) - s_.heading_deg);
      const ChargeCheck again = CheckCharge(scene_, cfg, faced, *target);
      if (again.chargeable) {
        ch = again;
        f->how.push_back("faces " + target->id + " before its order (individual, seed 77)");
      }
    }
    distance = ch.distance_mm, range = ch.range_mm;
    for (const std::string& r : ch.reasons) why += (why.empty() ? "" : "; ") + r;
    switch (ch.facing) {
      case geom::Arc::kFront: edge = geom::Edge::kFront; break;
      case geom::Arc::kLeftFlank: edge = geom::Edge::kLeft; break;
      case geom::Arc::kRightFlank: edge = geom::Edge::kRight; break;
      case geom::Arc::kRear: edge = geom::Edge::kRear; break;
    }
    if (ch.route && ch.route->found) f->how.push_back("shortest route " + In(ch.route->length_mm));
    if (ch.hindered) f->notes.push_back("Hindered: -1 to hit in the melee (charged through difficult terrain, seed 53)");
  }
  f->facing = std::string(geom::ToString(edge));
  f->distance_mm = distance;
  f->allowance_mm = range;
  f->pivot_deg = geom::NormalizeDeg(e_.heading_deg - s_.heading_deg);
  f->how.insert(f->how.begin(), "into " + target->id + "'s " + OrderWords(f->facing) + ", leader point " + In(distance) +
                                    " from its base, reach " + In(range));
  f->stage = 2;
  if (!why.empty()) {
    f->No("cannot " + std::string(counter ? "counter-charge " : "charge ") + target->id + ": " + why);
    return;
  }
  if (best.corner_only) f->No("corner to corner contact does not count as a charge (seed 17)");
  if (best.edge_a != geom::Edge::kFront) f->No("a charging unit ends with its front flush against the target (seed 17); it touches with its " +
                                               OrderWords(std::string(geom::ToString(best.edge_a))));
  if (best.edge_b != edge)
    f->No(std::string(counter ? "a counter-charge contacts the target's front (seed 27)"
                              : "the charge hits the facing whose arc held the leader point when declared (seed 19)") +
          ": " + OrderWords(f->facing) + "; it touches " + target->id + "'s " + OrderWords(std::string(geom::ToString(best.edge_b))));
  // Flush (seed 17): facing straight into the edge.
  const geom::Segment seg = geom::EdgeSegment(tb, edge);
  const Vec2 along = (seg.b - seg.a).normalized();
  const Vec2 inward{along.y(), -along.x()};  // EdgeSegment runs clockwise round the base: its right is inward
  const double off = geom::NormalizeDeg(e_.heading_deg - geom::HeadingOf(inward));
  if (std::abs(off) > c_.move_deg)
    f->No("a charging unit is aligned flush with the target (seed 17); it is " + Deg(off) + " off flush with " + target->id + "'s " +
          OrderWords(f->facing));
  // Seed 17: leader point lined up with the target's leader point (front) or centre (flank, rear) if possible.
  const double slide = (geom::LeaderPoint(e_) - (seg.a + seg.b) / 2.0).dot(along);
  if (std::abs(slide) > c_.move_mm)
    f->notes.push_back("seed 17 lines the leader point up with " + target->id + "'s " + (edge == geom::Edge::kFront ? "leader point" : "centre") +
                       " if possible; it is " + In(std::abs(slide)) + " off");
}

// Every move: no ending on another unit or in blocking terrain; no passing through enemies or blocking
// terrain on a straight leg; pivots end clear; the 1-inch rule (not for charges).
void Judge::CheckWay(OrderFit* f) const {
  f->stage = 2;
  for (const UnitOverlap& o : OverlapsAt(scene_, *u_, move_.to, c_.contact_mm))
    f->No("it would end on top of " + o.b + " (" + Describe(o) + "): no move may end on another unit (seed 10)");
  std::vector<const Terrain*> blocking;
  for (const Terrain& t : scene_.terrain)
    if (c_.blocking_terrain.count(t.type) || (c_.cannot_charge.count(std::string(ToString(u_->type))) && c_.obstacle_terrain.count(t.type)))
      blocking.push_back(&t);
  const double allowance = c_.contact_mm * std::min(s_.width_mm, s_.depth_mm);
  auto terrain_area = [](const Terrain& t, const geom::Polygon& convex) { return geom::Area(geom::ClipConvex(t.polygon, convex)); };
  for (const Terrain* t : blocking)
    if (terrain_area(*t, geom::PolygonCcw(e_)) > allowance)
      f->No("it would end in " + t->id + " (" + t->type + "), which blocks movement" +
            (c_.blocking_terrain.count(t->type) ? "" : " for war engines (seed 74)"));
  for (const Base& pe : f->pivot_ends) {
    if (std::abs(pe.centre_mm.x() - e_.centre_mm.x()) < 1e-9 && std::abs(pe.centre_mm.y() - e_.centre_mm.y()) < 1e-9 &&
        std::abs(geom::NormalizeDeg(pe.heading_deg - e_.heading_deg)) < 1e-9)
      continue;  // the end: checked above
    for (const Unit& o : scene_.units) {
      if (!o.pose || o.id == u_->id) continue;
      const geom::Overlap ov = geom::BaseOverlap(pe, Footprint(o));
      if (ov.overlapping && ov.depth_mm > c_.contact_mm) f->No("its pivot does not end clear of " + o.id + " (seed 10)");
    }
    for (const Terrain* t : blocking)
      if (terrain_area(*t, geom::PolygonCcw(pe)) > allowance) f->No("its pivot does not end clear of " + t->id + " (seed 10)");
  }
  std::vector<geom::Polygon> swept;
  for (const Leg& l : f->legs)
    if ((l.to.centre_mm - l.from.centre_mm).norm() > 1e-6) swept.push_back(Swept(l));
  for (const geom::Polygon& hull : swept)
    for (const Terrain* t : blocking)
      if (terrain_area(*t, hull) > allowance)
        f->No("it moves through " + t->id + " (" + t->type + "): only a pivot may pass through blocking terrain (seed 10)");
  // Not for charges and halts, nor for the move seed 59 orders back 1" out of a combat not won.
  if (f->order == "charge" || f->order == "halt" || (f->order == "post_combat" && post_combat_ == "not_routed")) return;
  const double inch = c_.one_inch_in * c_.mm_per_unit;
  for (const Unit& o : scene_.units) {
    if (!o.pose || o.id == u_->id || o.side == u_->side) continue;
    const Base ob = Footprint(o);
    const geom::Polygon op = geom::PolygonCcw(ob);
    for (const geom::Polygon& hull : swept)
      if (geom::OverlapArea(ob, hull) > allowance) f->No("it moves through " + o.id + ": enemy units cannot be moved through (seed 10)");
    const double g0 = geom::BaseToBase(s_, ob).distance_mm, gend = geom::BaseToBase(e_, ob).distance_mm;
    double gmin = gend;
    for (const geom::Polygon& hull : swept) gmin = std::min(gmin, geom::PolygonToPolygon(hull, op).distance_mm);
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
  MoveCheck m;
  m.supported = true;
  u_ = scene_.FindUnit(move_.unit);
  if (!u_ || !u_->pose) throw InputError(scene_.source, 0, "no placed unit '" + move_.unit + "' in the scene");
  p_ = ProfileOf(*u_, c_);
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
  Unit moved = *u_;
  moved.pose = move_.to;
  s_ = Footprint(*u_);
  e_ = Footprint(moved);
  const bool still = (e_.centre_mm - s_.centre_mm).norm() <= c_.move_mm &&
                     std::abs(geom::NormalizeDeg(e_.heading_deg - s_.heading_deg)) <= c_.move_deg;
  // A post-combat move (seed 59) is not an order: declared, it is what the move is judged as.
  std::vector<std::string> tried = !post_combat_.empty() ? std::vector<std::string>{"post_combat"}
                                   : declared.empty()     ? (still ? std::vector<std::string>{"halt"} : Orders())
                                                          : std::vector<std::string>{declared};
  std::vector<OrderFit> fits;
  for (const std::string& o : tried) {
    OrderFit f = Fit(o);
    if (f.allowed) CheckWay(&f);
    fits.push_back(std::move(f));
  }
  std::vector<std::string> allowed;
  for (const OrderFit& f : fits)
    if (f.allowed) allowed.push_back(f.order);
  m.legal = !allowed.empty();
  m.kinds = allowed;
  const bool single = tried.size() == 1;
  if (!m.legal) {
    if (single) {
      m.illegal_reason = fits[0].why_not;
    } else {
      // The nearest miss: the order whose shape fits the move and that fails only later (too far, or
      // on the way); else the advance's (the general move). Every order is listed below.
      const OrderFit* near = nullptr;
      for (const OrderFit& f : fits)
        if ((!near && f.order == "advance") || (f.failed_at > 0 && (!near || f.failed_at > near->failed_at))) near = &f;
      if (near) m.illegal_reason = "no order allows this move (" + OrderWords(near->order) + ": " + near->why_not + ")";
    }
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
  std::ostringstream text;
  text << c_.title << " move of " << u_->id << ", "
       << (!post_combat_.empty() ? std::string("after its combat (enemy ") + (post_combat_ == "routed" ? "routed" : "not routed") + ")"
           : declared.empty()    ? std::string("no order declared")
                                 : "order " + OrderWords(declared))
       << ": "
       << (m.legal ? "legal" : "ILLEGAL: " + m.illegal_reason) << "\n";
  if (!single && m.legal) {
    std::string as;
    for (const std::string& o : allowed) as += (as.empty() ? "" : ", ") + OrderWords(o);
    text << "  allowed as: " << as << "\n";
  }
  json orders = json::array();
  for (const OrderFit& f : fits) {
    orders.push_back(FitJson(f));
    if (single || f.allowed) {
      std::string steps;
      for (const std::string& h : f.how) steps += (steps.empty() ? "" : ", ") + h;
      text << "  " << OrderWords(f.order) << ": " << (steps.empty() ? "-" : steps);
      if (f.allowance_mm >= 0 && f.order != "charge" && f.order != "post_combat")
        text << "; " << In(f.distance_mm) << " of " << In(f.allowance_mm) << " allowed";
      text << "\n";
      for (const std::string& n : f.notes) text << "    note: " << n << "\n";
    } else {
      text << "  not " << OrderWords(f.order) << ": " << f.why_not << "\n";
    }
  }
  m.report = {{"ruleset", "kow"},
              {"unit", u_->id},
              {"order", declared.empty() ? json(nullptr) : json(declared)},
              {"post_combat", post_combat_.empty() ? json(nullptr) : json(post_combat_)},
              {"from", PoseJson(*u_->pose)},
              {"to", PoseJson(move_.to)},
              {"legal", m.legal},
              {"illegal_reason", m.legal ? json(nullptr) : json(m.illegal_reason)},
              {"kinds", allowed},
              {"wavering", wavering_},
              {"individual", p_.individual},
              {"one_inch_rule", c_.one_inch_strict ? "strict" : "approach"},
              {"orders", orders}};
  m.text = text.str();
  return m;
}

}  // namespace

MoveCheck CheckKowMove(const KowConfig& c, const Scene& scene, const MoveRequest& move) { return Judge(c, scene, move).Run(); }

}  // namespace vedette::kow
