#include "rules/geometry/distance.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace vedette::geom {

namespace {

struct Frame {
  Vec2 c, f, r;  // centre, forward, right
  double w, d;   // half width, half depth
};

Frame FrameOf(const Base& b) {
  const Vec2 f = HeadingVector(b.heading_deg);
  return {b.centre_mm, f, Vec2(f.y(), -f.x()), b.width_mm / 2.0, b.depth_mm / 2.0};
}

std::array<Vec2, 4> CornersOf(const Frame& q) {
  return {q.c + q.f * q.d - q.r * q.w, q.c + q.f * q.d + q.r * q.w, q.c - q.f * q.d + q.r * q.w, q.c - q.f * q.d - q.r * q.w};
}

// Squared distance from a point to the rectangle (0 inside), mm^2: the root is taken once, of the
// smallest (the root is monotonic and correctly rounded, so that is the smallest root).
double PointToRectSquared(const Vec2& p, const Frame& q) {
  const Vec2 d = p - q.c;
  const double dx = std::max(std::abs(d.dot(q.r)) - q.w, 0.0), dy = std::max(std::abs(d.dot(q.f)) - q.d, 0.0);
  return dx * dx + dy * dy;
}

// True when the rectangles are apart along one of their edges' normals (separating axes): without
// one, they touch or overlap.
bool Separated(const Frame& fa, const Frame& fb, const std::array<Vec2, 4>& ca, const std::array<Vec2, 4>& cb) {
  for (const Vec2& n : {fa.f, fa.r, fb.f, fb.r}) {
    double amin = 1e300, amax = -1e300, bmin = 1e300, bmax = -1e300;
    for (const Vec2& p : ca) amin = std::min(amin, p.dot(n)), amax = std::max(amax, p.dot(n));
    for (const Vec2& p : cb) bmin = std::min(bmin, p.dot(n)), bmax = std::max(bmax, p.dot(n));
    if (amax < bmin || bmax < amin) return true;
  }
  return false;
}

}  // namespace

double BaseGap(const Base& a, const Base& b) {
  const Frame fa = FrameOf(a), fb = FrameOf(b);
  const std::array<Vec2, 4> ca = CornersOf(fa), cb = CornersOf(fb);
  // Bounding circles a micrometre or more apart settle it without the axes (most pairs the rules
  // measure are apart); the margin keeps the answer the axes would give.
  const double ra = std::sqrt(fa.w * fa.w + fa.d * fa.d), rb = std::sqrt(fb.w * fb.w + fb.d * fb.d);
  if ((fa.c - fb.c).norm() <= ra + rb + 1e-6 && !Separated(fa, fb, ca, cb)) return 0.0;
  double best = 1e300;
  for (const Vec2& p : ca) best = std::min(best, PointToRectSquared(p, fb));
  for (const Vec2& p : cb) best = std::min(best, PointToRectSquared(p, fa));
  return std::sqrt(best);
}

ClosestPoints BaseToBase(const Base& a, const Base& b) { return PolygonToPolygon(CornersCcw(a), CornersCcw(b)); }

bool BasesWithin(const Base& a, const Base& b, double limit_mm) {
  const double gap = BaseGap(a, b);
  if (gap > limit_mm + 1e-6) return false;
  return gap < limit_mm - 1e-6 || BaseToBase(a, b).distance_mm <= limit_mm;
}

ClosestPoints BaseToPoint(const Base& a, const Vec2& point) {
  ClosestPoints c = PointToPolygon(point, PolygonCcw(a));
  std::swap(c.on_a, c.on_b);
  return c;
}

ClosestPoints LeaderToBase(const Base& a, const Base& b) { return PointToPolygon(LeaderPoint(a), PolygonCcw(b)); }

double LeaderToPoint(const Base& a, const Vec2& point) { return (point - LeaderPoint(a)).norm(); }

}  // namespace vedette::geom
