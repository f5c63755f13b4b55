#pragma once
// Polygons on the table (terrain, arc regions, swept corridors): area, containment, convex
// clipping, and closest distances. Polygons are vertex lists in table mm; orientation is free unless
// a function says otherwise.
#include <array>
#include <vector>

#include "rules/geometry/base.h"
#include "rules/geometry/vec.h"

namespace vedette::geom {

using Polygon = std::vector<Vec2>;

// An axis-aligned bounding box, table mm: shapes whose boxes are apart need no exact measure, and on
// a table most pairs of shapes are far apart.
struct Box {
  Vec2 lo{0.0, 0.0}, hi{0.0, 0.0};  // low and high corners, table mm
  // More than margin_mm apart along x or y.
  bool Apart(const Box& o, double margin_mm = 0.0) const {
    return lo.x() > o.hi.x() + margin_mm || o.lo.x() > hi.x() + margin_mm || lo.y() > o.hi.y() + margin_mm ||
           o.lo.y() > hi.y() + margin_mm;
  }
};
Box BoxOf(const Polygon& p);  // an empty polygon: the point (0, 0)
Box BoxOf(const Segment& s);
Box BoxOf(const Base& b);

double SignedArea(const Polygon& p);  // mm^2, > 0 when counter-clockwise
double Area(const Polygon& p);        // mm^2
Polygon MakeCcw(Polygon p);
bool IsConvex(const Polygon& p);

// Even-odd rule; points on the boundary count as inside.
bool PolygonContains(const Polygon& p, const Vec2& point, double tolerance_mm = 1e-9);
bool PolygonContains(const std::array<Vec2, 4>& p, const Vec2& point, double tolerance_mm = 1e-9);

// Sutherland-Hodgman: `subject` (any simple polygon) clipped by a convex counter-clockwise `clip`.
Polygon ClipConvex(const Polygon& subject, const Polygon& convex_ccw_clip);

// The part of `subject` on the left of the directed line a->b (the half-plane cross(b-a, p-a) >= 0).
Polygon ClipHalfPlane(const Polygon& subject, const Vec2& a, const Vec2& b);

// The same steps on any vertex list with size(), operator[], clear() and push_back(), so that a hot
// caller can clip in buffers of its own (no allocation per step); *out is cleared first.
template <class Poly>
void ClipHalfPlaneInto(const Poly& subject, const Vec2& a, const Vec2& b, Poly* out) {
  out->clear();
  const size_t n = subject.size();
  if (n == 0) return;
  const Vec2 d = b - a;
  auto side = [&](const Vec2& p) { return Cross(d, p - a); };
  // Each vertex's side once (it is the next edge's start), and no division to wrap round: the charge
  // search clips millions of times a frame.
  const double s0 = side(subject[0]);
  double sc = s0;
  for (size_t i = 0; i < n; ++i) {
    const Vec2& cur = subject[i];
    const bool last = i + 1 == n;
    const Vec2& nxt = subject[last ? 0 : i + 1];
    const double sn = last ? s0 : side(nxt);
    if (sc >= 0) out->push_back(cur);
    if ((sc >= 0) != (sn >= 0)) {
      const double t = sc / (sc - sn);
      out->push_back(cur + t * (nxt - cur));
    }
    sc = sn;
  }
}

// A vertex list in a fixed array, for clipping in hot loops without allocating. A push_back past
// the capacity is dropped and sets `overflowed` (kept until the list is made again), so that the
// caller can tell and clip in a Polygon instead.
template <size_t N>
struct FixedPolygon {
  std::array<Vec2, N> v;
  size_t n = 0;
  bool overflowed = false;
  size_t size() const { return n; }
  bool empty() const { return n == 0; }
  const Vec2& operator[](size_t i) const { return v[i]; }
  void clear() { n = 0; }
  void push_back(const Vec2& p) {
    if (n < N) v[n++] = p;
    else overflowed = true;
  }
};

// SignedArea on any vertex list with size() and operator[].
template <class Poly>
double SignedAreaOf(const Poly& p) {
  double a = 0.0;
  for (size_t i = 0; i < p.size(); ++i) a += Cross(p[i], p[(i + 1) % p.size()]);
  return a / 2.0;
}

struct ClosestPoints {
  double distance_mm = 0.0;  // 0 when the shapes touch or overlap
  Vec2 on_a{0.0, 0.0};       // closest point on the first shape, table mm
  Vec2 on_b{0.0, 0.0};       // closest point on the second shape, table mm
  bool overlap = false;      // the interiors intersect (distance is then 0)
};

ClosestPoints PointToSegment(const Vec2& p, const Segment& s);
ClosestPoints SegmentToSegment(const Segment& s, const Segment& t);
bool SegmentsIntersect(const Segment& s, const Segment& t);

// Closest points between two polygons (boundaries), 0 and overlap=true if one reaches into the other
// (a shared area; shapes touching along an edge have distance 0 and no overlap when b is convex).
ClosestPoints PolygonToPolygon(const Polygon& a, const Polygon& b);
// The same for two quadrilaterals (two bases' outlines), with the same arithmetic and no allocation
// unless they touch or overlap: the rules measure thousands of pairs of bases a frame.
ClosestPoints PolygonToPolygon(const std::array<Vec2, 4>& a, const std::array<Vec2, 4>& b);
ClosestPoints PointToPolygon(const Vec2& p, const Polygon& poly);

// Length (mm) of the part of segment `s` inside polygon `poly` (any simple polygon).
double SegmentLengthInside(const Segment& s, const Polygon& poly);

// The same for a convex polygon (either orientation, IsConvex and not degenerate), by clipping the
// segment with each edge's half-plane (Cyrus-Beck: no crossings sorted, no containment tests). Like
// SegmentLengthInside it counts the boundary, to 1e-9 mm, as inside: the two agree to rounding.
double SegmentLengthInsideConvex(const Segment& s, const Polygon& convex);

}  // namespace vedette::geom
