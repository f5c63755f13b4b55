#include "rules/geometry/polygon.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace vedette::geom {

Box BoxOf(const Polygon& p) {
  Box b;
  if (!p.empty()) b.lo = b.hi = p[0];
  for (const Vec2& v : p) b.lo = b.lo.cwiseMin(v), b.hi = b.hi.cwiseMax(v);
  return b;
}

Box BoxOf(const Segment& s) { return {s.a.cwiseMin(s.b), s.a.cwiseMax(s.b)}; }

Box BoxOf(const Base& b) {
  const std::array<Vec2, 4> c = Corners(b);
  Box box{c[0], c[0]};
  for (const Vec2& v : c) box.lo = box.lo.cwiseMin(v), box.hi = box.hi.cwiseMax(v);
  return box;
}

double SignedArea(const Polygon& p) { return SignedAreaOf(p); }

double Area(const Polygon& p) { return std::abs(SignedArea(p)); }

namespace {

template <class Poly>
bool IsConvexOf(const Poly& p) {
  const size_t n = p.size();
  if (n < 3) return false;
  int sign = 0;
  for (size_t i = 0; i < n; ++i) {
    const double c = Cross(p[(i + 1) % n] - p[i], p[(i + 2) % n] - p[(i + 1) % n]);
    if (std::abs(c) < 1e-12) continue;
    const int s = c > 0 ? 1 : -1;
    if (sign != 0 && s != sign) return false;
    sign = s;
  }
  return true;
}

}  // namespace

bool IsConvex(const Polygon& p) { return IsConvexOf(p); }

Polygon MakeCcw(Polygon p) {
  if (SignedArea(p) < 0) std::reverse(p.begin(), p.end());
  return p;
}

ClosestPoints PointToSegment(const Vec2& p, const Segment& s) {
  const Vec2 d = s.b - s.a;
  const double len2 = d.squaredNorm();
  double t = len2 > 0 ? (p - s.a).dot(d) / len2 : 0.0;
  t = std::clamp(t, 0.0, 1.0);
  const Vec2 q = s.a + t * d;
  return {(p - q).norm(), p, q, false};
}

namespace {

template <class Poly>
bool PolygonContainsOf(const Poly& poly, const Vec2& p, double tolerance_mm) {
  const size_t n = poly.size();
  if (n < 3) return false;
  for (size_t i = 0; i < n; ++i) {
    const Vec2& a = poly[i];
    const Vec2& b = poly[(i + 1) % n];
    // A point further than the tolerance outside the edge's bounding box is further from the edge:
    // most edges are ruled out without the exact distance (sight lines ask this millions of times).
    if (p.x() < std::min(a.x(), b.x()) - tolerance_mm || p.x() > std::max(a.x(), b.x()) + tolerance_mm ||
        p.y() < std::min(a.y(), b.y()) - tolerance_mm || p.y() > std::max(a.y(), b.y()) + tolerance_mm)
      continue;
    if (PointToSegment(p, {a, b}).distance_mm <= tolerance_mm) return true;
  }
  bool inside = false;
  for (size_t i = 0, j = n - 1; i < n; j = i++) {
    const Vec2& a = poly[i];
    const Vec2& b = poly[j];
    if ((a.y() > p.y()) != (b.y() > p.y())) {
      const double x = (b.x() - a.x()) * (p.y() - a.y()) / (b.y() - a.y()) + a.x();
      if (p.x() < x) inside = !inside;
    }
  }
  return inside;
}

}  // namespace

bool PolygonContains(const Polygon& poly, const Vec2& p, double tolerance_mm) { return PolygonContainsOf(poly, p, tolerance_mm); }

bool PolygonContains(const std::array<Vec2, 4>& poly, const Vec2& p, double tolerance_mm) {
  return PolygonContainsOf(poly, p, tolerance_mm);
}

Polygon ClipHalfPlane(const Polygon& subject, const Vec2& a, const Vec2& b) {
  Polygon out;
  ClipHalfPlaneInto(subject, a, b, &out);
  return out;
}

Polygon ClipConvex(const Polygon& subject, const Polygon& clip) {
  Polygon out, next;
  out.reserve(subject.size() + clip.size());
  next.reserve(subject.size() + clip.size());
  out.assign(subject.begin(), subject.end());
  for (size_t i = 0; i < clip.size() && !out.empty(); ++i) {
    ClipHalfPlaneInto(out, clip[i], clip[(i + 1) % clip.size()], &next);
    out.swap(next);
  }
  return out;
}

bool SegmentsIntersect(const Segment& s, const Segment& t) {
  const Vec2 r = s.b - s.a, q = t.b - t.a;
  const double denom = Cross(r, q);
  const Vec2 w = t.a - s.a;
  if (std::abs(denom) < 1e-12) {
    if (std::abs(Cross(w, r)) > 1e-9) return false;  // parallel, apart
    const double rr = r.squaredNorm();
    if (rr == 0) return (s.a - t.a).norm() < 1e-9;
    const double t0 = w.dot(r) / rr, t1 = (t.b - s.a).dot(r) / rr;
    return std::max(t0, t1) >= 0 && std::min(t0, t1) <= 1;  // collinear, overlapping?
  }
  const double u = Cross(w, q) / denom, v = Cross(w, r) / denom;
  return u >= 0 && u <= 1 && v >= 0 && v <= 1;
}

ClosestPoints SegmentToSegment(const Segment& s, const Segment& t) {
  if (SegmentsIntersect(s, t)) {
    // Report the intersection point on both.
    const Vec2 r = s.b - s.a, q = t.b - t.a;
    const double denom = Cross(r, q);
    Vec2 p = s.a;
    if (std::abs(denom) > 1e-12) p = s.a + (Cross(t.a - s.a, q) / denom) * r;
    else p = PointToSegment(s.a, t).on_b;
    return {0.0, p, p, false};
  }
  ClosestPoints best;
  best.distance_mm = std::numeric_limits<double>::infinity();
  auto consider = [&](const ClosestPoints& c, bool swap) {
    if (c.distance_mm < best.distance_mm) {
      best = c;
      if (swap) std::swap(best.on_a, best.on_b);
    }
  };
  consider(PointToSegment(s.a, t), false);
  consider(PointToSegment(s.b, t), false);
  consider(PointToSegment(t.a, s), true);
  consider(PointToSegment(t.b, s), true);
  return best;
}

namespace {

// How far apart the bounding boxes of two segments are: no point of one is closer to the other.
double BoxGap(const Segment& s, const Segment& t) {
  auto apart = [](double s0, double s1, double t0, double t1) {
    return std::max({0.0, std::min(t0, t1) - std::max(s0, s1), std::min(s0, s1) - std::max(t0, t1)});
  };
  const double dx = apart(s.a.x(), s.b.x(), t.a.x(), t.b.x()), dy = apart(s.a.y(), s.b.y(), t.a.y(), t.b.y());
  return std::sqrt(dx * dx + dy * dy);
}

// Whether a (any simple polygon) and the convex b share an area: Area(ClipConvex(MakeCcw(a),
// MakeCcw(b))) > 1e-6.
bool SharesArea(const Polygon& a, const Polygon& b) { return Area(ClipConvex(MakeCcw(a), MakeCcw(b))) > 1e-6; }

// The same steps for two quadrilaterals in fixed buffers: two bases that touch are measured thousands
// of times a frame (every contact), and the copies and clips in vectors were most of their cost.
bool SharesArea(std::array<Vec2, 4> a, std::array<Vec2, 4> b) {
  if (SignedAreaOf(a) < 0) std::reverse(a.begin(), a.end());
  if (SignedAreaOf(b) < 0) std::reverse(b.begin(), b.end());
  FixedPolygon<16> out, next;  // a quadrilateral clipped by four half-planes has at most eight corners
  for (const Vec2& v : a) out.push_back(v);
  for (size_t i = 0; i < b.size() && !out.empty(); ++i) {
    ClipHalfPlaneInto(out, b[i], b[(i + 1) % b.size()], &next);
    std::swap(out, next);
  }
  if (out.overflowed || next.overflowed)  // not two bases (a crossed quadrilateral): the general steps
    return SharesArea(Polygon(a.begin(), a.end()), Polygon(b.begin(), b.end()));
  return std::abs(SignedAreaOf(out)) > 1e-6;
}

template <class Poly>
ClosestPoints PolygonToPolygonOf(const Poly& a, const Poly& b) {
  ClosestPoints best;
  best.distance_mm = std::numeric_limits<double>::infinity();
  for (size_t i = 0; i < a.size(); ++i) {
    const Segment s{a[i], a[(i + 1) % a.size()]};
    for (size_t j = 0; j < b.size(); ++j) {
      const Segment t{b[j], b[(j + 1) % b.size()]};
      // A pair whose boxes are further apart than the best so far (with a margin for rounding) cannot
      // replace it: skipped without the exact measure, the result is the same. The rules measure
      // thousands of pairs a frame.
      if (BoxGap(s, t) > best.distance_mm + 1e-6) continue;
      const ClosestPoints c = SegmentToSegment(s, t);
      if (c.distance_mm < best.distance_mm) best = c;
    }
  }
  // One polygon wholly inside the other has no crossing edges but still overlaps.
  const bool a_in_b = !a.empty() && PolygonContainsOf(b, a[0], -1.0);
  const bool b_in_a = !b.empty() && PolygonContainsOf(a, b[0], -1.0);
  if (best.distance_mm == 0.0 || a_in_b || b_in_a) {
    // Touching along edges is distance 0 without overlap; overlap needs a positive shared area.
    if (IsConvexOf(b)) {
      best.overlap = SharesArea(a, b);
    } else {
      best.overlap = true;  // a concave shape: any crossing counts as reaching in
    }
    if (best.overlap && best.distance_mm > 0) {
      best.distance_mm = 0.0;
      best.on_a = best.on_b = a_in_b ? a[0] : b[0];
    }
  }
  return best;
}

}  // namespace

ClosestPoints PolygonToPolygon(const Polygon& a, const Polygon& b) { return PolygonToPolygonOf(a, b); }

ClosestPoints PolygonToPolygon(const std::array<Vec2, 4>& a, const std::array<Vec2, 4>& b) { return PolygonToPolygonOf(a, b); }

ClosestPoints PointToPolygon(const Vec2& p, const Polygon& poly) {
  if (PolygonContains(poly, p)) return {0.0, p, p, true};
  ClosestPoints best;
  best.distance_mm = std::numeric_limits<double>::infinity();
  for (size_t i = 0; i < poly.size(); ++i) {
    const ClosestPoints c = PointToSegment(p, {poly[i], poly[(i + 1) % poly.size()]});
    if (c.distance_mm < best.distance_mm) best = c;
  }
  return best;
}

namespace {

// SegmentLengthInside's steps, with the crossing parameters in `ts` (holding 0 and 1 on entry).
template <class List>
double LengthInside(const Segment& s, const Polygon& poly, List& ts, size_t n) {
  // Parameters where the segment crosses polygon edges split it into pieces wholly in or out.
  const Vec2 r = s.b - s.a;
  for (size_t i = 0; i < poly.size(); ++i) {
    const Vec2 a = poly[i], b = poly[(i + 1) % poly.size()];
    const Vec2 q = b - a;
    const double denom = Cross(r, q);
    if (std::abs(denom) < 1e-12) continue;
    const Vec2 w = a - s.a;
    const double t = Cross(w, q) / denom, u = Cross(w, r) / denom;
    if (t > 0 && t < 1 && u >= 0 && u <= 1) ts[n++] = t;
  }
  std::sort(ts.begin(), ts.begin() + n);
  double inside = 0.0;
  for (size_t i = 0; i + 1 < n; ++i) {
    const double tm = (ts[i] + ts[i + 1]) / 2.0;
    if (PolygonContains(poly, s.a + tm * r)) inside += (ts[i + 1] - ts[i]);
  }
  return inside * r.norm();
}

}  // namespace

double SegmentLengthInside(const Segment& s, const Polygon& poly) {
  // A segment whose box is clear of the polygon's (by more than PolygonContains' 1e-9 mm tolerance)
  // has nothing inside: lines of sight ask this of every occluder near the line, most of them aside.
  if (poly.empty() || BoxOf(s).Apart(BoxOf(poly), 1e-6)) return 0.0;
  // 0, 1 and at most one crossing per edge: on the stack for the shapes the rules use.
  if (poly.size() <= 30) {
    std::array<double, 32> ts{0.0, 1.0};
    return LengthInside(s, poly, ts, 2);
  }
  std::vector<double> ts(poly.size() + 2);
  ts[0] = 0.0, ts[1] = 1.0;
  return LengthInside(s, poly, ts, 2);
}

double SegmentLengthInsideConvex(const Segment& s, const Polygon& convex) {
  const size_t n = convex.size();
  if (n < 3 || BoxOf(s).Apart(BoxOf(convex), 1e-6)) return 0.0;
  // Inside = on the inner side of every edge's line (left for counter-clockwise), within 1e-9 mm.
  const double orientation = SignedAreaOf(convex) >= 0 ? 1.0 : -1.0;
  const Vec2 r = s.b - s.a;
  double t_in = 0.0, t_out = 1.0;  // the part of the segment still inside, as parameters along it
  for (size_t i = 0; i < n; ++i) {
    const Vec2& a = convex[i];
    const Vec2 q = convex[(i + 1) % n] - a;
    const double edge_mm = q.norm();
    if (edge_mm < 1e-15) continue;
    // f(t) = orientation * cross(q, s.a + t r - a) + 1e-9 |q| >= 0 keeps the point.
    const double f0 = orientation * Cross(q, s.a - a) + 1e-9 * edge_mm;
    const double df = orientation * Cross(q, r);
    if (df == 0.0) {
      if (f0 < 0) return 0.0;  // parallel and outside this edge
      continue;
    }
    const double t = -f0 / df;
    if (df > 0) t_in = std::max(t_in, t);
    else t_out = std::min(t_out, t);
    if (t_in >= t_out) return 0.0;
  }
  return (t_out - t_in) * r.norm();
}

}  // namespace vedette::geom
