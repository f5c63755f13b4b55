#include "rules/geometry/sight.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <set>

namespace vedette::geom {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Signed angle (rad) from `ref` to `d`.
double RelAngle(const Vec2& ref, const Vec2& d) { return std::atan2(Cross(ref, d), ref.dot(d)); }

Vec2 Rotated(const Vec2& v, double rad) {
  const double c = std::cos(rad), s = std::sin(rad);
  return {c * v.x() - s * v.y(), s * v.x() + c * v.y()};
}

// Smallest t >= 0 where eye + t * dir meets the polygon's outline (dir a unit vector); inf if never.
double RayEntry(const Vec2& eye, const Vec2& dir, const Polygon& poly) {
  double best = kInf;
  for (size_t i = 0; i < poly.size(); ++i) {
    const Vec2& a = poly[i];
    const Vec2 q = poly[(i + 1) % poly.size()] - a;
    const double denom = Cross(dir, q);
    if (std::abs(denom) < 1e-15) continue;
    const Vec2 w = a - eye;
    const double t = Cross(w, q) / denom, u = Cross(w, dir) / denom;
    if (t >= 0 && u >= -1e-12 && u <= 1 + 1e-12) best = std::min(best, t);
  }
  return best;
}

}  // namespace

bool SightOptions::Check(std::string* error) const {
  if (!(tolerance_mm >= 0) || !std::isfinite(tolerance_mm)) {
    if (error) *error = "tolerance_mm must be a finite number >= 0";
    return false;
  }
  return true;
}

SightResult TraceSight(const Vec2& eye, const Polygon& target, const std::vector<Occluder>& occluders,
                       const SightOptions& options) {
  SightResult r;
  if (target.size() < 3) return r;
  if (PolygonContains(target, eye, 1e-9)) {
    r.visible = r.eye_touches_target = true;
    r.subtended_deg = 180.0;
    r.clear_share = 1.0;
    r.seen_point = eye;
    return r;
  }
  Vec2 centroid(0, 0);
  for (const Vec2& v : target) centroid += v;
  centroid /= static_cast<double>(target.size());
  const Vec2 ref = (centroid - eye).normalized();

  // Step 1: the target's angular extent seen from the eye (a convex shape seen from outside spans < 180 deg).
  double lo = kInf, hi = -kInf, reach = 0.0;
  for (const Vec2& v : target) {
    const double a = RelAngle(ref, v - eye);
    lo = std::min(lo, a);
    hi = std::max(hi, a);
    reach = std::max(reach, (v - eye).norm());
  }
  if (!(hi > lo)) return r;

  // Step 2: occluders that could stand between, and every direction where the answer can change.
  // Each occluder's angular span seen from the eye (the range of its corners' angles, which holds every
  // direction that meets it; an occluder across the direction opposite the target, or holding the eye,
  // gets the whole circle). A line meets only occluders whose span holds its direction.
  std::vector<const Occluder*> near;
  std::vector<std::pair<double, double>> span;
  std::vector<size_t> first_angle;  // where each near occluder's corner angles start in `angles`
  std::vector<double> angles;       // the corners' angles, worked out once for the span and the cuts
  std::vector<double> nearest;      // each near occluder's distance from the eye, mm
  for (const Occluder& o : occluders) {
    if (o.polygon.size() < 3) continue;
    const size_t first = angles.size();
    double a_lo = kInf, a_hi = -kInf;
    for (const Vec2& v : o.polygon) {
      const double a = RelAngle(ref, v - eye);
      angles.push_back(a);
      a_lo = std::min(a_lo, a);
      a_hi = std::max(a_hi, a);
    }
    if (a_hi - a_lo > std::numbers::pi - 1e-9 || PolygonContains(o.polygon, eye, 1e-9)) a_lo = -kInf, a_hi = kInf;
    const bool aside = a_hi < lo - 1e-12 || a_lo > hi + 1e-12;  // never in the way of a line to the target
    const double distance = aside ? kInf : PointToPolygon(eye, o.polygon).distance_mm;
    if (aside || distance > reach) {
      angles.resize(first);
      continue;
    }
    near.push_back(&o);
    span.push_back({a_lo, a_hi});
    first_angle.push_back(first);
    nearest.push_back(distance);
  }
  std::vector<double> cuts{lo, hi};
  for (const Vec2& v : target) cuts.push_back(RelAngle(ref, v - eye));
  for (size_t k = 0; k < near.size(); ++k) {
    const Occluder* o = near[k];
    for (size_t i = 0; i < o->polygon.size(); ++i) {
      const Vec2& a = o->polygon[i];
      const Vec2& b = o->polygon[(i + 1) % o->polygon.size()];
      cuts.push_back(angles[first_angle[k] + i]);
      for (size_t j = 0; j < target.size(); ++j) {
        const Segment s{a, b}, t{target[j], target[(j + 1) % target.size()]};
        if (!SegmentsIntersect(s, t)) continue;
        const ClosestPoints c = SegmentToSegment(s, t);
        cuts.push_back(RelAngle(ref, c.on_a - eye));
      }
    }
  }
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::remove_if(cuts.begin(), cuts.end(), [&](double a) { return a < lo || a > hi; }), cuts.end());

  // Step 3: one line per interval decides it.
  std::set<int> blocking, obscuring;
  double clear = 0, obscured = 0, blocked = 0, best_clear = -1, best_obscured = -1;
  Vec2 clear_point = centroid, obscured_point = centroid;
  std::vector<int> over;  // the obscuring occluders of one line (one buffer for every line)
  for (size_t i = 0; i + 1 < cuts.size(); ++i) {
    const double width = cuts[i + 1] - cuts[i];
    if (width < 1e-12) continue;
    const Vec2 dir = Rotated(ref, (cuts[i] + cuts[i + 1]) / 2.0);
    const double t = RayEntry(eye, dir, target);
    if (!std::isfinite(t)) continue;
    const Segment line{eye, eye + t * dir};
    const double mid = (cuts[i] + cuts[i + 1]) / 2.0;
    bool is_blocked = false;
    over.clear();
    for (size_t k = 0; k < near.size(); ++k) {
      const Occluder* o = near[k];
      if (mid < span[k].first - 1e-12 || mid > span[k].second + 1e-12) continue;
      // Every point of the line is within t of the eye: an occluder wholly further (by more than
      // rounding) is behind where this line meets the target and has nothing of it inside.
      if (nearest[k] > t + 1e-6) continue;
      if (SegmentLengthInside(line, o->polygon) <= options.tolerance_mm) continue;
      if (o->effect == SightEffect::kBlocks) {
        is_blocked = true;
        blocking.insert(o->tag);
      } else {
        over.push_back(o->tag);
      }
    }
    if (is_blocked) {
      blocked += width;
    } else if (!over.empty()) {
      obscured += width;
      obscuring.insert(over.begin(), over.end());
      if (width > best_obscured) best_obscured = width, obscured_point = line.b;
    } else {
      clear += width;
      if (width > best_clear) best_clear = width, clear_point = line.b;
    }
  }
  const double total = clear + obscured + blocked;
  r.subtended_deg = RadToDeg(hi - lo);
  if (total > 0) {
    r.clear_share = clear / total;
    r.obscured_share = obscured / total;
    r.blocked_share = blocked / total;
  }
  r.visible = clear + obscured > 0;
  r.seen_point = best_clear >= 0 ? clear_point : obscured_point;
  r.blocking_tags.assign(blocking.begin(), blocking.end());
  r.obscuring_tags.assign(obscuring.begin(), obscuring.end());
  return r;
}

}  // namespace vedette::geom
