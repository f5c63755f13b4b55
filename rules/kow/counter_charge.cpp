#include "rules/kow/counter_charge.h"

#include <algorithm>
#include <cmath>

#include "rules/geometry/sweep.h"

namespace vedette::kow {

using geom::Base;
using geom::Polygon;
using geom::Vec2;

SweptGround SweepOf(const Base& from, const Base& to) {
  SweptGround s{geom::SweptBetween(from, to), {}};
  for (const Polygon& p : s.pieces) s.boxes.push_back(geom::BoxOf(p));
  return s;
}

// The swept pieces overlap each other, so the largest piece overlap stands for the whole: it is 0
// exactly when the sweep misses the shape, and never more than the true overlap. A piece whose box
// misses the shape's has none (most shapes on a table are far from any one move).
double SweptOverlapArea(const SweptGround& sweep, const Polygon& shape) {
  const geom::Box box = geom::BoxOf(shape);
  double worst = 0.0;
  for (size_t i = 0; i < sweep.pieces.size(); ++i) {
    if (sweep.boxes[i].Apart(box)) continue;
    const Polygon in = geom::ClipConvex(shape, sweep.pieces[i]);
    if (in.size() >= 3) worst = std::max(worst, geom::Area(in));
  }
  return worst;
}

double SweptOverlapArea(const Base& from, const Base& to, const Polygon& shape) {
  return SweptOverlapArea(SweepOf(from, to), shape);
}

CounterChargeRoute FindCounterChargeRoute(const Base& charger, const Base& target, const std::vector<Polygon>& obstacles,
                                          const std::vector<std::string>& names, const ChargeOptions& o) {
  CounterChargeRoute r;
  auto name = [&](size_t i) { return i < names.size() ? names[i] : "obstacle " + std::to_string(i + 1); };
  const Polygon target_poly = geom::PolygonCcw(target);

  // Obstacles the charger already overlaps (a hand-placed neighbour) are not run into, as in charge.cpp.
  std::vector<size_t> live;
  for (size_t i = 0; i < obstacles.size(); ++i)
    if (geom::OverlapArea(charger, obstacles[i]) <= o.clear_area_mm2) live.push_back(i);

  // Part 1: the pivot to face the target's front (seed 27), ending clear (seed 10).
  const double facing_heading = target.heading_deg + 180.0;
  r.pivot_deg = geom::NormalizeDeg(facing_heading - charger.heading_deg);
  r.pivoted = geom::PivotedAboutCentre(charger, r.pivot_deg);
  if (geom::OverlapArea(r.pivoted, target_poly) > o.clear_area_mm2) {
    r.why_not = "the pivot to face the target's front does not end clear of the target";
    return r;
  }
  for (size_t i : live) {
    if (geom::OverlapArea(r.pivoted, obstacles[i]) > o.clear_area_mm2) {
      r.why_not = "the pivot to face the target's front does not end clear of " + name(i) + " (seed 10)";
      return r;
    }
  }

  // Part 2: into flush contact with the front edge, leader points lined up if that spot can be reached
  // (seed 17), else the nearest spot along the edge that can and still touches by more than a corner.
  // A spot is reached by a straight move, or by an L: straight forward then sliding along (the seed's
  // "make contact ... and align"), or sliding first then straight forward; the shortest clear one counts.
  const Vec2 fwd = geom::Forward(target), right = geom::Right(target);
  const Vec2 target_leader = geom::LeaderPoint(target);
  const double max_slide = (charger.width_mm + target.width_mm) / 2.0 - o.corner_tolerance_mm;
  const double step = o.advance_step_mm / 2.0;
  std::vector<double> slides{0.0};
  for (double s = step; s <= max_slide + 1e-9; s += step) {
    slides.push_back(s);
    slides.push_back(-s);
  }
  // Positions in the target's frame: lateral along its front edge from its leader point, forward
  // from the edge line to the charger's centre.
  const Vec2 rel = r.pivoted.centre_mm - target_leader;
  const double lateral0 = rel.dot(right), forward0 = rel.dot(fwd), forward_end = charger.depth_mm / 2.0;
  auto at = [&](double lateral, double forward) {
    Base b = r.pivoted;
    b.centre_mm = target_leader + lateral * right + forward * fwd;
    return b;
  };
  // "" when the straight leg a -> b is clear, else what it runs into.
  auto leg_blocker = [&](const Base& a, const Base& b) -> std::string {
    if ((b.centre_mm - a.centre_mm).norm() < 1e-9) return "";
    const SweptGround sweep = SweepOf(a, b);
    if (SweptOverlapArea(sweep, target_poly) > o.clear_area_mm2) return "the target itself";
    for (size_t i : live)
      if (SweptOverlapArea(sweep, obstacles[i]) > o.clear_area_mm2) return name(i);
    return "";
  };
  std::string first_block;
  double best_abs = 0.0;
  for (double s : slides) {
    if (r.found && std::abs(s) > best_abs + 1e-9) break;  // slides come nearest first
    const Base end = at(s, forward_end);
    std::string blocked;
    for (size_t i : live)
      if (blocked.empty() && geom::OverlapArea(end, obstacles[i]) > o.clear_area_mm2) blocked = name(i);
    double length = -1.0;
    if (blocked.empty()) {
      const double diagonal = (end.centre_mm - r.pivoted.centre_mm).norm();
      const double ell = std::abs(forward0 - forward_end) + std::abs(s - lateral0);
      const std::string d = leg_blocker(r.pivoted, end);
      if (d.empty()) {
        length = diagonal;
      } else {
        const Base fwd_first = at(lateral0, forward_end), slide_first = at(s, forward0);
        if ((leg_blocker(r.pivoted, fwd_first).empty() && leg_blocker(fwd_first, end).empty()) ||
            (leg_blocker(r.pivoted, slide_first).empty() && leg_blocker(slide_first, end).empty()))
          length = ell;
        else
          blocked = d;
      }
    }
    if (length < 0) {
      if (first_block.empty()) first_block = blocked;
      continue;
    }
    const double total = charger.depth_mm / 2.0 * std::abs(geom::DegToRad(r.pivot_deg)) + length;
    if (r.found && total >= r.length_mm - 1e-9) continue;
    r.found = true;
    best_abs = std::abs(s);
    r.slide_mm = s;
    r.move_mm = length;
    r.length_mm = total;
    r.at_contact = end;
    const double lo = std::max(-target.width_mm / 2.0, s - charger.width_mm / 2.0);
    const double hi = std::min(target.width_mm / 2.0, s + charger.width_mm / 2.0);
    r.contact_point = target_leader + ((lo + hi) / 2.0) * right;
  }
  if (!r.found) {
    r.why_not = "no room to move into contact with the target's front: passes through " + first_block + " (seed 15)";
  }
  return r;
}

}  // namespace vedette::kow
