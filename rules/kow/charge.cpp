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
// width in front of it): ContactAhead then finds it neither ahead nor overlapping. `r` and `f`: the
// base's right and forward unit vectors (geom::Right, geom::Forward), which the caller has at hand.
bool OutsideLane(const Base& b, const Vec2& r, const Vec2& f, const Circle& s) {
  const Vec2 d = s.c - b.centre_mm;
  return std::abs(d.dot(r)) > b.width_mm / 2.0 + s.r + 1e-6 || d.dot(f) < -b.depth_mm / 2.0 - s.r - 1e-6;
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

// Whether a corner of shape `p` lies in the lane of base b (|u| < half its width less `inset`, by b's
// right `r` and forward `f`) between b's front and `ahead_mm` beyond it, each by a micrometre. Moving
// b straight ahead then meets p (overlapping it, or touching it sooner than ahead_mm less a
// micrometre), which is what BlocksWithin finds by clipping: a few products instead of the clip.
// The micrometre is far above the rounding of either way, so this never says yes where the clip says no.
bool CornerInLane(const Base& b, const Vec2& r, const Vec2& f, const Polygon& p, double inset, double ahead_mm) {
  constexpr double kMargin = 1e-3;  // mm
  const double lane = b.width_mm / 2.0 - inset - kMargin, near = b.depth_mm / 2.0 + kMargin, far = b.depth_mm / 2.0 + ahead_mm - kMargin;
  for (const Vec2& q : p) {
    const Vec2 d = q - b.centre_mm;
    const double v = d.dot(f);
    if (v > near && v < far && std::abs(d.dot(r)) < lane) return true;
  }
  return false;
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

namespace {

// One charge route search (FindChargeRouteByRef): the charger, its target and the facing edge it
// must meet, the obstacles it may run into, and the best route found so far.
class RouteSearch {
 public:
  RouteSearch(const Base& charger, const Base& target, geom::Edge facing, const ChargeOptions& o)
      : charger_(charger), target_(target), o_(o), target_poly_(geom::PolygonCcw(target)),
        facing_edge_(geom::EdgeSegment(target, facing)), outward_(Outward(target, facing)), f0_(geom::Forward(charger)),
        target_circle_(BoundingCircleOf(target_poly_)) {
    best_.length_mm = std::numeric_limits<double>::infinity();
  }

  ChargeRoute Run(const std::vector<const Polygon*>& obstacles, double max_advance_mm, const std::vector<ShapeCircle>* circles) {
    FirstLeg(obstacles, max_advance_mm, circles);
    Prepare();
    for (double angle : Angles()) SearchAngle(angle);
    if (!best_.found) best_.length_mm = 0.0;
    return std::move(best_);
  }

 private:
  // One pose: the charger moved a = PivotPoint(i) along its first leg and turned `angle` about its
  // centre (geom::PivotedAboutCentre(geom::MovedForward(charger, a), angle)), forward fa, right ra.
  struct Pose {
    int i = 0;
    double a = 0.0, angle = 0.0, arc = 0.0;  // mm, deg, and the leader point's arc in the pivot, mm
    Base b;
    Vec2 fa{0, 0}, ra{0, 0};
  };

  static Vec2 Outward(const Base& target, geom::Edge facing) {  // the facing edge's outward normal
    switch (facing) {
      case geom::Edge::kFront: return geom::Forward(target);
      case geom::Edge::kRear: return -geom::Forward(target);
      case geom::Edge::kRight: return geom::Right(target);
      case geom::Edge::kLeft: return -geom::Right(target);
    }
    return geom::Forward(target);
  }

  // Step 1: how far the first leg may go: up to the first obstacle (or the target) straight ahead.
  // Obstacles the charger already overlaps at the start (a hand-placed neighbour) are not run into.
  void FirstLeg(const std::vector<const Polygon*>& obstacles, double max_advance_mm, const std::vector<ShapeCircle>* known) {
    first_leg_ = std::max(0.0, max_advance_mm);
    const Vec2 r0(f0_.y(), -f0_.x());  // geom::Right(charger_)
    live_.reserve(obstacles.size());
    circles_.reserve(obstacles.size());
    for (size_t k = 0; k < obstacles.size(); ++k) {
      const Polygon& p = *obstacles[k];
      const Circle circle = known ? (*known)[k] : BoundingCircleOf(p);
      const double overlap = ApartFrom(charger_, circle) ? 0.0 : geom::OverlapArea(charger_, p);
      if (overlap > o_.clear_area_mm2) continue;
      live_.push_back(&p);
      circles_.push_back(circle);
      if (OutsideLane(charger_, r0, f0_, circle)) continue;
      const geom::AheadContact c = geom::ContactAheadGivenOverlap(charger_, p, o_.lane_inset_mm, overlap);
      if (c.ahead) first_leg_ = std::min(first_leg_, c.distance_mm);
    }
    best_.read_in.push_back(Lengthened(charger_, first_leg_ + 1.0));
    const geom::AheadContact straight = geom::ContactAhead(charger_, target_poly_, 0.0);
    if (straight.ahead) first_leg_ = std::min(first_leg_, straight.distance_mm);
  }

  // What every pose reads: the bound's terms, the pivot points, the bases' radii, the obstacles' indices.
  void Prepare() {
    square_heading_ = geom::HeadingOf(-outward_);
    line0_ = (charger_.centre_mm - facing_edge_.a).dot(outward_);  // centre's signed distance to the line
    along0_ = f0_.dot(outward_);
    steps_ = static_cast<int>(std::floor(first_leg_ / o_.advance_step_mm));
    radius_ = std::sqrt(charger_.width_mm * charger_.width_mm + charger_.depth_mm * charger_.depth_mm) / 2.0;
    target_radius_ = std::sqrt(target_.width_mm * target_.width_mm + target_.depth_mm * target_.depth_mm) / 2.0;
    near_span_.assign(steps_ + 2, {-1, 0});
    all_live_.resize(live_.size());
    for (size_t k = 0; k < live_.size(); ++k) all_live_[k] = static_cast<int>(k);
  }

  // Step 2: pivot angles, the exact "square to the facing edge" one first.
  std::vector<double> Angles() const {
    const double square = geom::NormalizeDeg(square_heading_ - charger_.heading_deg);
    std::vector<double> angles{0.0};
    if (std::abs(square) <= o_.max_pivot_deg + 1e-9) angles.push_back(square);
    for (double a = o_.pivot_step_deg; a <= o_.max_pivot_deg + 1e-9; a += o_.pivot_step_deg) {
      angles.push_back(a);
      angles.push_back(-a);
    }
    return angles;
  }

  double PivotPoint(int i) const { return i <= steps_ ? i * o_.advance_step_mm : first_leg_; }

  // A lower bound of a route's length: the leader point ends on the facing edge's line (flush, seed
  // 17), so after the first leg `a` and the pivot's arc it still has at least its distance to that
  // line to go (less the edge tolerance). It never falls as `a` grows (the leader point moves at most
  // `a` nearer the line), so once it passes the best route no later pivot point of the angle can win.
  double Bound(double a, double arc, const Vec2& pivoted_forward) const {
    const double to_line = std::abs(line0_ + a * along0_ + charger_.depth_mm / 2.0 * pivoted_forward.dot(outward_));
    return a + arc + std::max(0.0, to_line - o_.edge_tolerance_mm);
  }

  // Where an angle's search ends: past the last pivot point, or where the leader point's travel is at
  // least the first leg and the pivot's arc (and then at least the gap to the target) and that passes
  // the best route: no later pivot point of this angle can win.
  bool Stops(int i, double a, double arc, const Vec2& fa) const {
    return (i == steps_ + 1 && std::abs(first_leg_ - steps_ * o_.advance_step_mm) < 1e-9) || a >= best_.length_mm ||
           a + arc > best_.length_mm + 1e-9 || (best_.found && Bound(a, arc, fa) > best_.length_mm + 1e-9);
  }

  // Step 3 for one angle: its pivot points, the shortest centre path wins, then the smaller turn. Only
  // the pivot points with the target in the lane can touch it (InLaneSpan); the search would have
  // stopped before them if it stops at any earlier one.
  void SearchAngle(double angle) {
    Pose p;
    p.angle = angle;
    p.arc = charger_.depth_mm / 2.0 * std::abs(geom::DegToRad(angle));
    p.fa = geom::HeadingVector(charger_.heading_deg + angle);
    p.ra = Vec2(p.fa.y(), -p.fa.x());  // geom::Right of the pose
    p.b = charger_;
    p.b.heading_deg = geom::NormalizeDeg(charger_.heading_deg + angle);  // every pose of this angle
    if (best_.found && Bound(0.0, p.arc, p.fa) > best_.length_mm + 1e-9) return;
    const PoseSpan span = o_.shortcuts ? InLaneSpan(charger_, f0_, p.fa, target_circle_.c, target_circle_.r, first_leg_,
                                                    o_.advance_step_mm, steps_)
                                       : PoseSpan{0, steps_ + 1};
    if (span.first > span.last) return;
    for (int i = 0; i < span.first; ++i)
      if (Stops(i, PivotPoint(i), p.arc, p.fa)) return;
    for (p.i = span.first; p.i <= span.last; ++p.i) {
      p.a = PivotPoint(p.i);
      if (Stops(p.i, p.a, p.arc, p.fa)) break;
      p.b.centre_mm = charger_.centre_mm;
      p.b.centre_mm += p.a * f0_;
      TryPose(p);
    }
  }

  // Live obstacle k stands in the way of a move `ahead_mm` forward: it overlaps the pose, or the pose
  // meets it in its lane more than a micrometre sooner.
  bool BlocksWithin(const Pose& p, int k, double ahead_mm) const {
    if (OutsideLane(p.b, p.ra, p.fa, circles_[k])) return false;
    if (o_.shortcuts && CornerInLane(p.b, p.ra, p.fa, *live_[k], o_.lane_inset_mm, ahead_mm)) return true;
    const Extent x = ExtentOf(p.b, p.ra, p.fa, *live_[k]);
    if (x.Apart(ahead_mm)) return false;
    const double overlap = x.Apart(0.0) ? 0.0 : geom::OverlapArea(p.b, *live_[k]);
    const geom::AheadContact c = geom::ContactAheadGivenOverlap(p.b, *live_[k], o_.lane_inset_mm, overlap);
    return c.overlapping || (c.ahead && c.distance_mm < ahead_mm - 1e-6);
  }

  // Which obstacles the base could touch at pivot point i, centred at c: a base's bounding circle does
  // not turn with it, so this is the same for every angle, worked out the first time a pose there asks
  // (few do). The lists one after another in near_list_; near_span_[i] = (start, count), start -1 until then.
  std::span<const int> Near(int i, const Vec2& c) {
    std::pair<int, int>& span = near_span_[i];
    if (span.first < 0) {
      span.first = static_cast<int>(near_list_.size());
      for (size_t k = 0; k < live_.size(); ++k)
        if ((circles_[k].c - c).norm() <= circles_[k].r + radius_ + 1e-6) near_list_.push_back(static_cast<int>(k));
      span.second = static_cast<int>(near_list_.size()) - span.first;
    }
    return std::span<const int>(near_list_.data() + span.first, static_cast<size_t>(span.second));
  }

  // The tests of one pose, cheapest and most selective first (each only rules poses out, so their
  // order does not change the route found): near enough, the target ahead in the lane, touched on the
  // facing edge, the route short enough; then the pivot ending clear and nothing in the way.
  void TryPose(const Pose& p) {
    // The bases' bounding circles bound their gap from below at the cost of one distance (less a
    // micrometre for rounding), so the exact gap is worked out only where the circles do not decide.
    if (best_.found && (p.a + p.arc + (p.b.centre_mm - target_.centre_mm).norm() - radius_ - target_radius_ - 1e-6 > best_.length_mm + 1e-9 ||
                        p.a + p.arc + geom::BaseGap(p.b, target_) > best_.length_mm + 1e-9))
      return;
    if (OutsideLane(p.b, p.ra, p.fa, target_circle_)) return;  // the target is not ahead of it: no contact this way
    if (EdgeOutOfReach(p.b, p.ra, p.fa, facing_edge_, o_.edge_tolerance_mm)) return;
    // The pose cannot touch the target sooner than its nearest point by the pose's forward axis (less
    // a micrometre for rounding). When the obstacle that blocked the last pose blocks this one within
    // that, it would block the move into contact too: the pose is refused before the target's contact
    // is measured (neighbouring poses are mostly blocked by the same unit). Its read is the shorter
    // way it was tested for.
    const Extent target_x = ExtentOf(p.b, p.ra, p.fa, target_poly_);
    const double nearest = target_x.vmin - p.b.depth_mm / 2.0 - 1e-6;
    if (o_.shortcuts && last_blocker_ >= 0 && BlocksWithin(p, last_blocker_, nearest)) {
      best_.read_in.push_back(Lengthened(p.b, std::max(0.0, nearest) + 1.0));
      return;
    }
    // The target's overlap, read twice below; 0 when the circles or the axes show the two apart (the
    // clip then gives 0, and it is only compared with 1 mm^2 and the clear area).
    const bool near_target = (target_circle_.c - p.b.centre_mm).norm() <= target_circle_.r + radius_ + 1e-6;
    const double target_overlap = near_target && !target_x.Apart(0.0) ? geom::OverlapArea(p.b, target_poly_) : 0.0;
    const geom::AheadContact hit = geom::ContactAheadGivenOverlap(p.b, target_poly_, 0.0, target_overlap);
    if (!hit.ahead || hit.overlapping) return;
    if (geom::PointToSegment(hit.point, facing_edge_).distance_mm > o_.edge_tolerance_mm) return;
    // The leader point's travel: first leg, the pivot's arc, second leg, then the swing flush against
    // the facing edge about the touching point (seed 17 "align the charging unit so that it is flush").
    const Base touching = geom::MovedForward(p.b, hit.distance_mm);
    const double u_touch = geom::ToBaseFrame(touching, hit.point).x();
    const Vec2 aligned_leader = hit.point - u_touch * geom::HeadingVector(square_heading_ - 90.0);
    const double length = p.a + p.arc + hit.distance_mm + (aligned_leader - geom::LeaderPoint(touching)).norm();
    if (length > best_.length_mm + 1e-9) return;
    best_.read_in.push_back(Lengthened(p.b, hit.distance_mm + 1.0));
    // Live obstacle k keeps the pivot from ending clear (one of Near: the others' circles are apart).
    auto unclear = [&](int k) {
      return !(Apart(p.b, p.ra, p.fa, *live_[k], 0.0) || geom::OverlapArea(p.b, *live_[k]) <= o_.clear_area_mm2);
    };
    auto blocks = [&](int k) { return BlocksWithin(p, k, hit.distance_mm); };  // in the way into contact
    if (p.angle != 0.0 && (target_overlap > o_.clear_area_mm2 || AnyOf(Near(p.i, p.b.centre_mm), &last_unclear_, unclear))) return;
    if (AnyOf(all_live_, &last_blocker_, blocks)) return;
    if (hit.touch_length_mm < 1e-6 && hit.at_front_corner && NearCorner(hit.point, target_, o_.corner_tolerance_mm)) {
      best_.corner_only = !best_.found;
      return;
    }
    if (best_.found && std::abs(length - best_.length_mm) < 1e-9 && std::abs(p.angle) >= std::abs(best_.pivot_deg)) return;
    best_.found = true;
    best_.corner_only = false;
    best_.advance_mm = p.a;
    best_.pivot_deg = p.angle;
    best_.final_mm = hit.distance_mm;
    best_.length_mm = length;
    best_.contact_point = hit.point;
    best_.at_contact = touching;
  }

  const Base& charger_;
  const Base& target_;
  const ChargeOptions& o_;
  const Polygon target_poly_;
  const geom::Segment facing_edge_;
  const Vec2 outward_, f0_;  // the facing edge's outward normal; the charger's forward
  const Circle target_circle_;
  double first_leg_ = 0.0, square_heading_ = 0.0, line0_ = 0.0, along0_ = 0.0;  // mm, deg, mm, -
  double radius_ = 0.0, target_radius_ = 0.0;                                     // bounding radii, mm
  int steps_ = 0;                                                                 // pivot points 0..steps_ at whole steps
  std::vector<const Polygon*> live_;  // the obstacles not overlapped at the start, with their circles
  std::vector<Circle> circles_;
  std::vector<int> all_live_;  // 0..live_.size() - 1 (clang 14 cannot take std::views::iota with libstdc++ 12)
  std::vector<int> near_list_;
  std::vector<std::pair<int, int>> near_span_;
  int last_unclear_ = -1, last_blocker_ = -1;  // the obstacles that refused the last pose: asked first
  ChargeRoute best_;
};

}  // namespace

ChargeRoute FindChargeRouteByRef(const Base& charger, const Base& target, geom::Edge facing, const std::vector<const Polygon*>& obstacles,
                                 double max_advance_mm, const ChargeOptions& o, const std::vector<ShapeCircle>* known_circles) {
  return RouteSearch(charger, target, facing, o).Run(obstacles, max_advance_mm, known_circles);
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
