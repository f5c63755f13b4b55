#include "rules/geometry/contact.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "rules/geometry/distance.h"

namespace vedette::geom {

namespace {

constexpr Edge kEdges[] = {Edge::kFront, Edge::kRight, Edge::kRear, Edge::kLeft};

// Length over which two facing, near-parallel edges run side by side within `tol` of each other.
double SharedLength(const Segment& s, const Vec2& s_out, const Segment& t, const Vec2& t_out, double tol) {
  if (s_out.dot(t_out) > -std::cos(DegToRad(10.0))) return 0.0;  // not facing each other
  if (SegmentToSegment(s, t).distance_mm > tol) return 0.0;
  const Vec2 dir = (s.b - s.a).normalized();
  double t0 = (t.a - s.a).dot(dir), t1 = (t.b - s.a).dot(dir);
  if (t0 > t1) std::swap(t0, t1);
  return std::max(0.0, std::min(t1, s.Length()) - std::max(t0, 0.0));
}

Vec2 Outward(const Base& b, Edge e) {
  switch (e) {
    case Edge::kFront: return Forward(b);
    case Edge::kRear: return -Forward(b);
    case Edge::kRight: return Right(b);
    case Edge::kLeft: return -Right(b);
  }
  return Forward(b);
}

}  // namespace

Contact FindContact(const Base& a, const Base& b, double tol) {
  Contact c;
  const ClosestPoints cp = BaseToBase(a, b);
  c.gap_mm = cp.distance_mm;
  c.in_contact = cp.distance_mm <= tol;
  double best = 0.0;
  for (Edge ea : kEdges) {
    for (Edge eb : kEdges) {
      const double shared = SharedLength(EdgeSegment(a, ea), Outward(a, ea), EdgeSegment(b, eb), Outward(b, eb), tol);
      if (shared > best + 1e-9) {
        best = shared;
        c.edge_a = ea;
        c.edge_b = eb;
      }
    }
  }
  c.shared_mm = best;
  if (best <= 1e-6) {
    c.corner_only = c.in_contact;
    double da = std::numeric_limits<double>::infinity(), db = da;
    for (Edge e : kEdges) {
      const double d1 = PointToSegment(cp.on_a, EdgeSegment(a, e)).distance_mm;
      if (d1 < da) { da = d1; c.edge_a = e; }
      const double d2 = PointToSegment(cp.on_b, EdgeSegment(b, e)).distance_mm;
      if (d2 < db) { db = d2; c.edge_b = e; }
    }
  }
  return c;
}

double FrontageInside(const Base& b, const Polygon& polygon) {
  return SegmentLengthInside(EdgeSegment(b, Edge::kFront), polygon);
}

}  // namespace vedette::geom
