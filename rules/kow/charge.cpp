#include "rules/kow/charge.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <span>

#include "rules/geometry/distance.h"
#include "rules/geometry/sweep.h"

namespace vedette::kow {

using geom::Base;
using geom::Polygon;
using geom::Vec2;

bool ChargeOptions::Check(std::string* error) const {
  auto fail = [&](const char* what) {
    if (error) *error = what;
    return false;
  };
  if (!(max_pivot_deg >= 0 && max_pivot_deg <= 180)) return fail("max_pivot_deg must be in [0, 180]");
  if (!(pivot_step_deg > 0)) return fail("pivot_step_deg must be > 0");
  if (!(advance_step_mm > 0)) return fail("advance_step_mm must be > 0");
  if (!(clear_area_mm2 >= 0) || !(lane_inset_mm >= 0) || !(edge_tolerance_mm >= 0) || !(corner_tolerance_mm >= 0))
    return fail("tolerances must be >= 0");
  return true;
}

namespace {

// A shape's bounding circle: a base whose circle misses it can neither overlap it nor run into it
// within its lane; the exact tests below run only for shapes that pass.
using Circle = ShapeCircle;
// True when the shape cannot overlap base b (their bounding circles are apart).
bool ApartFrom(const Base& b, const Circle& s) {
  return (s.c - b.centre_mm).norm() > s.r + std::sqrt(b.width_mm * b.width_mm + b.depth_mm * b.depth_mm) / 2.0 + 1e-6;
}
// True when the shape lies wholly outside the lane b sweeps straight ahead (the base and the strip of its
// width in front of it): ContactAhead then finds it neither ahead nor overlapping.
bool OutsideLane(const Base& b, const Circle& s) {
  const Vec2 d = s.c - b.centre_mm;
  return std::abs(d.dot(geom::Right(b))) > b.width_mm / 2.0 + s.r + 1e-6 || d.dot(geom::Forward(b)) < -b.depth_mm / 2.0 - s.r - 1e-6;
}

// A shape by a base's axes (1 um to spare): whether it lies wholly beside or behind the base, and
// how far forward its nearest point is, so that Apart can be asked for several ways ahead at once.
struct Extent {
  bool beside_or_behind = false;
  double vmin = 0.0, h = 0.0;  // the shape's least forward coordinate; half the depth + 1 um, mm
  bool Apart(double ahead_mm) const { return beside_or_behind || vmin > h + ahead_mm; }
};
Extent ExtentOf(const Base& b, const Vec2& r, const Vec2& f, const Polygon& p) {
  double umin = std::numeric_limits<double>::infinity(), umax = -umin, vmin = umin, vmax = -umin;
  for (const Vec2& q : p) {
    const Vec2 d = q - b.centre_mm;
    const double u = d.dot(r), v = d.dot(f);
    umin = std::min(umin, u), umax = std::max(umax, u), vmin = std::min(vmin, v), vmax = std::max(vmax, v);
  }
  const double w = b.width_mm / 2.0 + 1e-6, h = b.depth_mm / 2.0 + 1e-6;
  return {umin > w || umax < -w || vmax < -h, vmin, h};
}

// ApartFromBase with the base's right (`r`) and forward (`f`) unit vectors at hand. Tighter than the
// bounding circles for a long shape or one far ahead.
bool Apart(const Base& b, const Vec2& r, const Vec2& f, const Polygon& p, double ahead_mm) {
  return ExtentOf(b, r, f, p).Apart(ahead_mm);
}

// EdgeOutOfReach with the base's right (`r`) and forward (`f`) unit vectors at hand.
bool EdgeOutOfReach(const Base& b, const Vec2& r, const Vec2& f, const geom::Segment& e, double tol) {
  const Vec2 da = e.a - b.centre_mm, db = e.b - b.centre_mm;
  const double ua = da.dot(r), ub = db.dot(r), side = b.width_mm / 2.0 + tol + 1e-6;
  const double front = b.depth_mm / 2.0 - tol - 1e-6;
  return (ua > side && ub > side) || (ua < -side && ub < -side) || (da.dot(f) < front && db.dot(f) < front);
}

// Whether test(k) holds for some k of `ks`. The one that held last time (`*last`, -1 for none) is
// asked first when it is one of them, since neighbouring poses mostly meet the same obstacle; the one
// found becomes `*last`. The tests have no effects, so the answer is the same in any order.
template <class Indices, class Test>
bool AnyOf(const Indices& ks, int* last, Test test) {
  if (*last >= 0 && std::find(ks.begin(), ks.end(), *last) != ks.end() && test(*last)) return true;
  for (int k : ks) {
    if (k == *last || !test(k)) continue;
    *last = k;
    return true;
  }
  return false;
}

// The base with its front pushed `ahead_mm` forward: the ground it covers moving that far.
Base Lengthened(const Base& b, double ahead_mm) {
  Base out = geom::MovedForward(b, ahead_mm / 2.0);
  out.depth_mm += ahead_mm;
  return out;
}

bool NearCorner(const Vec2& p, const Base& b, double tol) {
  for (const Vec2& c : geom::Corners(b))
    if ((c - p).norm() <= tol) return true;
  return false;
}

}  // namespace

ShapeCircle BoundingCircleOf(const Polygon& p) {
  ShapeCircle out;
  if (p.empty()) return out;
  for (const Vec2& v : p) out.c += v;
  out.c /= static_cast<double>(p.size());
  for (const Vec2& v : p) out.r = std::max(out.r, (v - out.c).norm());
  return out;
}

ChargeRoute FindChargeRoute(const Base& charger, const Base& target, geom::Edge facing,
                            const std::vector<Polygon>& obstacles, double max_advance_mm, const ChargeOptions& o) {
  std::vector<const Polygon*> refs;
  refs.reserve(obstacles.size());
  for (const Polygon& p : obstacles) refs.push_back(&p);
  return FindChargeRouteByRef(charger, target, facing, refs, max_advance_mm, o);
}

ChargeRoute FindChargeRouteByRef(const Base& charger, const Base& target, geom::Edge facing, const std::vector<const Polygon*>& obstacles,
                                 double max_advance_mm, const ChargeOptions& o, const std::vector<ShapeCircle>* known_circles) {
  ChargeRoute best;
  best.length_mm = std::numeric_limits<double>::infinity();
  const Polygon target_poly = geom::PolygonCcw(target);
  const geom::Segment facing_edge = geom::EdgeSegment(target, facing);

  // Step 1: how far the first leg may go: up to the first obstacle (or the target) straight ahead.
  // Obstacles the charger already overlaps at the start (a hand-placed neighbour) are not run into.
  double first_leg = std::max(0.0, max_advance_mm);
  std::vector<const Polygon*> live;
  std::vector<Circle> circles;
  for (size_t k = 0; k < obstacles.size(); ++k) {
    const Polygon& p = *obstacles[k];
    const Circle circle = known_circles ? (*known_circles)[k] : BoundingCircleOf(p);
    const double overlap = ApartFrom(charger, circle) ? 0.0 : geom::OverlapArea(charger, p);
    if (overlap > o.clear_area_mm2) continue;
    live.push_back(&p);
    circles.push_back(circle);
    if (OutsideLane(charger, circle)) continue;
    const geom::AheadContact c = geom::ContactAheadGivenOverlap(charger, p, o.lane_inset_mm, overlap);
    if (c.ahead) first_leg = std::min(first_leg, c.distance_mm);
  }
  best.read_in.push_back(Lengthened(charger, first_leg + 1.0));
  const Circle target_circle = BoundingCircleOf(target_poly);
  const geom::AheadContact straight = geom::ContactAhead(charger, target_poly, 0.0);
  if (straight.ahead) first_leg = std::min(first_leg, straight.distance_mm);

  // Step 2: pivot angles, the exact "square to the facing edge" one first.
  Vec2 outward = geom::Forward(target);  // the facing edge's outward normal
  switch (facing) {
    case geom::Edge::kFront: outward = geom::Forward(target); break;
    case geom::Edge::kRear: outward = -geom::Forward(target); break;
    case geom::Edge::kRight: outward = geom::Right(target); break;
    case geom::Edge::kLeft: outward = -geom::Right(target); break;
  }
  const double square_heading = geom::HeadingOf(-outward);
  const double square = geom::NormalizeDeg(square_heading - charger.heading_deg);
  std::vector<double> angles{0.0};
  if (std::abs(square) <= o.max_pivot_deg + 1e-9) angles.push_back(square);
  for (double a = o.pivot_step_deg; a <= o.max_pivot_deg + 1e-9; a += o.pivot_step_deg) {
    angles.push_back(a);
    angles.push_back(-a);
  }

  // Step 3: every (pivot angle, pivot point) pair; the shortest centre path wins, then the smaller turn.
  // A lower bound prunes the search: the leader point ends on the facing edge's line (flush, seed 17),
  // so after the first leg `a` and the pivot's arc it still has at least its distance to that line to
  // go (less the edge tolerance). That bound never falls as `a` grows (the leader point moves at most
  // `a` nearer the line), so once it passes the best route no later pivot point of the angle can win.
  const Vec2 f0 = geom::Forward(charger);
  const double line0 = (charger.centre_mm - facing_edge.a).dot(outward);  // centre's signed distance to the line
  const double along0 = f0.dot(outward);
  auto bound = [&](double a, double arc, const Vec2& pivoted_forward) {
    const double to_line = std::abs(line0 + a * along0 + charger.depth_mm / 2.0 * pivoted_forward.dot(outward));
    return a + arc + std::max(0.0, to_line - o.edge_tolerance_mm);
  };
  const int steps = static_cast<int>(std::floor(first_leg / o.advance_step_mm));
  const double radius = std::sqrt(charger.width_mm * charger.width_mm + charger.depth_mm * charger.depth_mm) / 2.0;
  const double target_radius = std::sqrt(target.width_mm * target.width_mm + target.depth_mm * target.depth_mm) / 2.0;
  // Which obstacles the base could touch at pivot point i, centred at c: a base's bounding circle does
  // not turn with it, so this is the same for every angle, worked out the first time a pose there asks
  // (few do). The lists one after another in near_list; near_span[i] = (start, count), start -1 until then.
  std::vector<int> near_list;
  std::vector<std::pair<int, int>> near_span(steps + 2, {-1, 0});
  auto near = [&](int i, const Vec2& c) {
    std::pair<int, int>& span = near_span[i];
    if (span.first < 0) {
      span.first = static_cast<int>(near_list.size());
      for (size_t k = 0; k < live.size(); ++k)
        if ((circles[k].c - c).norm() <= circles[k].r + radius + 1e-6) near_list.push_back(static_cast<int>(k));
      span.second = static_cast<int>(near_list.size()) - span.first;
    }
    return std::span<const int>(near_list.data() + span.first, static_cast<size_t>(span.second));
  };
  // The obstacles that kept the last pose from ending clear or blocked its way in: asked first.
  std::vector<int> all_live(live.size());
  for (size_t k = 0; k < live.size(); ++k) all_live[k] = static_cast<int>(k);
  int last_unclear = -1, last_blocker = -1;
  for (double angle : angles) {
    const double arc = charger.depth_mm / 2.0 * std::abs(geom::DegToRad(angle));
    const Vec2 fa = geom::HeadingVector(charger.heading_deg + angle);
    const double heading = geom::NormalizeDeg(charger.heading_deg + angle);  // every pose of this angle
    if (best.found && bound(0.0, arc, fa) > best.length_mm + 1e-9) continue;
    // Where this angle's search ends: past the last pivot point, or where the leader point's travel
    // is at least the first leg and the pivot's arc (and then at least the gap to the target) and
    // that passes the best route: no later pivot point of this angle can win.
    auto stops = [&](int i, double a) {
      return (i == steps + 1 && std::abs(first_leg - steps * o.advance_step_mm) < 1e-9) || a >= best.length_mm ||
             a + arc > best.length_mm + 1e-9 || (best.found && bound(a, arc, fa) > best.length_mm + 1e-9);
    };
    // Only the pivot points with the target in the lane can touch it (the first exact test below);
    // the search would have stopped before them if it stops at any earlier one.
    const PoseSpan span = o.shortcuts ? InLaneSpan(charger, f0, fa, target_circle.c, target_circle.r, first_leg, o.advance_step_mm, steps)
                                       : PoseSpan{0, steps + 1};
    bool stopped = span.first > span.last;
    for (int i = 0; i < span.first && !stopped; ++i) stopped = stops(i, i <= steps ? i * o.advance_step_mm : first_leg);
    if (stopped) continue;
    for (int i = span.first; i <= span.last; ++i) {
      const double a = i <= steps ? i * o.advance_step_mm : first_leg;
      if (stops(i, a)) break;
      Base pivoted = charger;  // geom::PivotedAboutCentre(geom::MovedForward(charger, a), angle)
      pivoted.centre_mm += a * f0;
      pivoted.heading_deg = heading;
      // The bases' bounding circles bound their gap from below at the cost of one distance (less a
      // micrometre for rounding), so the exact gap is worked out only where the circles do not decide.
      if (best.found && (a + arc + (pivoted.centre_mm - target.centre_mm).norm() - radius - target_radius - 1e-6 > best.length_mm + 1e-9 ||
                         a + arc + geom::BaseGap(pivoted, target) > best.length_mm + 1e-9))
        continue;
      // Cheapest and most selective tests first (each only rules poses out, so their order does not
      // change the route found): the target ahead in the lane, touched on the facing edge, the route
      // short enough; then the pivot ending clear and nothing in the way.
      const Vec2 ra{fa.y(), -fa.x()};  // geom::Right(pivoted)
      auto outside_lane = [&](const Circle& c) {
        const Vec2 d = c.c - pivoted.centre_mm;
        return std::abs(d.dot(ra)) > pivoted.width_mm / 2.0 + c.r + 1e-6 || d.dot(fa) < -pivoted.depth_mm / 2.0 - c.r - 1e-6;
      };
      if (outside_lane(target_circle)) continue;  // the target is not ahead of it: no contact this way
      if (EdgeOutOfReach(pivoted, ra, fa, facing_edge, o.edge_tolerance_mm)) continue;
      // Live obstacle k stands in the way of a move `ahead_mm` forward: it overlaps the pose, or the
      // pose meets it in its lane more than a micrometre sooner.
      auto blocks_within = [&](int k, double ahead_mm) {
        if (outside_lane(circles[k])) return false;
        const Extent x = ExtentOf(pivoted, ra, fa, *live[k]);
        if (x.Apart(ahead_mm)) return false;
        const double overlap = x.Apart(0.0) ? 0.0 : geom::OverlapArea(pivoted, *live[k]);
        const geom::AheadContact c = geom::ContactAheadGivenOverlap(pivoted, *live[k], o.lane_inset_mm, overlap);
        return c.overlapping || (c.ahead && c.distance_mm < ahead_mm - 1e-6);
      };
      // The pose cannot touch the target sooner than its nearest point by the pose's forward axis
      // (less a micrometre for rounding). When the obstacle that blocked the last pose blocks this one
      // within that, it would block the move into contact too: the pose is refused before the target's
      // contact is measured (neighbouring poses are mostly blocked by the same unit). Its read is the
      // shorter way it was tested for.
      const Extent target_x = ExtentOf(pivoted, ra, fa, target_poly);
      const double nearest = target_x.vmin - pivoted.depth_mm / 2.0 - 1e-6;
      if (o.shortcuts && last_blocker >= 0 && blocks_within(last_blocker, nearest)) {
        best.read_in.push_back(Lengthened(pivoted, std::max(0.0, nearest) + 1.0));
        continue;
      }
      // The target's overlap, read twice below; 0 when the circles or the axes show the two apart (the
      // clip then gives 0, and it is only compared with 1 mm^2 and the clear area).
      const bool near_target = (target_circle.c - pivoted.centre_mm).norm() <= target_circle.r + radius + 1e-6;
      const double target_overlap = near_target && !target_x.Apart(0.0) ? geom::OverlapArea(pivoted, target_poly) : 0.0;
      const geom::AheadContact hit = geom::ContactAheadGivenOverlap(pivoted, target_poly, 0.0, target_overlap);
      if (!hit.ahead || hit.overlapping) continue;
      if (geom::PointToSegment(hit.point, facing_edge).distance_mm > o.edge_tolerance_mm) continue;
      // The leader point's travel: first leg, the pivot's arc, second leg, then the swing flush against
      // the facing edge about the touching point (seed 17 "align the charging unit so that it is flush").
      const Base touching = geom::MovedForward(pivoted, hit.distance_mm);
      const double u_touch = geom::ToBaseFrame(touching, hit.point).x();
      const Vec2 aligned_leader = hit.point - u_touch * geom::HeadingVector(square_heading - 90.0);
      const double length = a + charger.depth_mm / 2.0 * std::abs(geom::DegToRad(angle)) + hit.distance_mm +
                            (aligned_leader - geom::LeaderPoint(touching)).norm();
      if (length > best.length_mm + 1e-9) continue;
      best.read_in.push_back(Lengthened(pivoted, hit.distance_mm + 1.0));
      // Live obstacle k keeps the pivot from ending clear (one of near(i): the others' circles are apart).
      auto unclear = [&](int k) {
        return !(Apart(pivoted, ra, fa, *live[k], 0.0) || geom::OverlapArea(pivoted, *live[k]) <= o.clear_area_mm2);
      };
      // Live obstacle k stands in the way of the move into contact.
      auto blocks = [&](int k) { return blocks_within(k, hit.distance_mm); };
      if (angle != 0.0 && (target_overlap > o.clear_area_mm2 || AnyOf(near(i, pivoted.centre_mm), &last_unclear, unclear))) continue;
      if (AnyOf(all_live, &last_blocker, blocks)) continue;
      if (hit.touch_length_mm < 1e-6 && hit.at_front_corner && NearCorner(hit.point, target, o.corner_tolerance_mm)) {
        best.corner_only = !best.found;
        continue;
      }
      if (best.found && std::abs(length - best.length_mm) < 1e-9 && std::abs(angle) >= std::abs(best.pivot_deg)) continue;
      best.found = true;
      best.corner_only = false;
      best.advance_mm = a;
      best.pivot_deg = angle;
      best.final_mm = hit.distance_mm;
      best.length_mm = length;
      best.contact_point = hit.point;
      best.at_contact = touching;
    }
  }
  if (!best.found) best.length_mm = 0.0;
  return best;
}

bool EdgeOutOfReach(const Base& b, const geom::Segment& edge, double tol_mm) {
  const Vec2 f = geom::Forward(b);
  return EdgeOutOfReach(b, Vec2(f.y(), -f.x()), f, edge, tol_mm);
}

PoseSpan InLaneSpan(const Base& b, const Vec2& f0, const Vec2& fa, const Vec2& centre, double radius, double first_leg,
                    double step, int steps) {
  const Vec2 ra{fa.y(), -fa.x()};
  const Vec2 d0 = centre - b.centre_mm;
  const double slack = 1e-6 + 1e-4;  // the exact test's micrometre, and 0.1 um for rounding
  double lo = 0.0, hi = first_leg;
  // Beside the lane: |d(a).ra| > w, with d(a).ra = u0 - a * qu.
  const double u0 = d0.dot(ra), qu = f0.dot(ra), w = b.width_mm / 2.0 + radius + slack;
  if (qu == 0.0) {
    if (std::abs(u0) > w) return {};
  } else {
    const double x = (u0 - w) / qu, y = (u0 + w) / qu;
    lo = std::max(lo, std::min(x, y)), hi = std::min(hi, std::max(x, y));
  }
  // Behind the base: d(a).fa < -h, with d(a).fa = v0 - a * qv.
  const double v0 = d0.dot(fa), qv = f0.dot(fa), h = b.depth_mm / 2.0 + radius + slack;
  if (qv > 0.0) hi = std::min(hi, (v0 + h) / qv);
  else if (qv < 0.0) lo = std::max(lo, (v0 + h) / qv);
  else if (v0 < -h) return {};
  if (!(lo <= hi)) return {};
  const double top = static_cast<double>(steps + 1);
  return {static_cast<int>(std::clamp(std::floor(lo / step) - 1.0, 0.0, top)),
          static_cast<int>(std::clamp(std::ceil(hi / step) + 1.0, 0.0, top))};
}

bool ApartFromBase(const Base& b, const Polygon& shape, double ahead_mm) {
  const Vec2 f = geom::Forward(b);
  return Apart(b, Vec2(f.y(), -f.x()), f, shape, ahead_mm);
}

RouteReads::RouteReads(std::vector<Base> boxes) : boxes_(std::move(boxes)) {
  bool first = true;
  for (const Base& b : boxes_) {
    forward_.push_back(geom::Forward(b));
    for (const Vec2& c : geom::Corners(b)) {
      lo_ = first ? c : Vec2(lo_.cwiseMin(c));
      hi_ = first ? c : Vec2(hi_.cwiseMax(c));
      first = false;
    }
  }
}

bool RouteReads::MayReach(const Base& b) const {
  const double r = std::sqrt(b.width_mm * b.width_mm + b.depth_mm * b.depth_mm) / 2.0 + 1.0;
  const Vec2& c = b.centre_mm;
  if (boxes_.empty() || c.x() + r < lo_.x() || c.x() - r > hi_.x() || c.y() + r < lo_.y() || c.y() - r > hi_.y()) return false;
  for (size_t i = 0; i < boxes_.size(); ++i) {
    // The circle's centre in the box's frame, and how far it lies outside the box along each axis.
    const Vec2 d = c - boxes_[i].centre_mm, f = forward_[i];
    const double u = std::max(0.0, std::abs(d.x() * f.y() - d.y() * f.x()) - boxes_[i].width_mm / 2.0);
    const double v = std::max(0.0, std::abs(d.dot(f)) - boxes_[i].depth_mm / 2.0);
    if (u * u + v * v <= r * r) return true;
  }
  return false;
}

}  // namespace vedette::kow
