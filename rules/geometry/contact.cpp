#include "rules/geometry/contact.h"

#include <algorithm>
#include <array>
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

// A base's four edges (EdgeSegment's) and their outward normals, by Edge: FindContact reads each
// sixteen times and more.
struct EdgesOf {
  std::array<Segment, 4> seg;
  std::array<Vec2, 4> out;
  explicit EdgesOf(const Base& b) {
    const auto c = Corners(b);
    const Vec2 f = Forward(b), r(f.y(), -f.x());
    seg = {Segment{c[0], c[1]}, Segment{c[1], c[2]}, Segment{c[2], c[3]}, Segment{c[3], c[0]}};
    out = {f, r, Vec2(-f), Vec2(-r)};
  }
  const Segment& Seg(Edge e) const { return seg[static_cast<size_t>(e)]; }
  const Vec2& Out(Edge e) const { return out[static_cast<size_t>(e)]; }
};
static_assert(static_cast<int>(Edge::kFront) == 0 && static_cast<int>(Edge::kRight) == 1 &&
              static_cast<int>(Edge::kRear) == 2 && static_cast<int>(Edge::kLeft) == 3);

}  // namespace

Contact FindContact(const Base& a, const Base& b, double tol) {
  Contact c;
  const ClosestPoints cp = BaseToBase(a, b);
  c.gap_mm = cp.distance_mm;
  c.in_contact = cp.distance_mm <= tol;
  double best = 0.0;
  const EdgesOf ga(a), gb(b);
  for (Edge ea : kEdges) {
    for (Edge eb : kEdges) {
      const double shared = SharedLength(ga.Seg(ea), ga.Out(ea), gb.Seg(eb), gb.Out(eb), tol);
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
      const double d1 = PointToSegment(cp.on_a, ga.Seg(e)).distance_mm;
      if (d1 < da) { da = d1; c.edge_a = e; }
      const double d2 = PointToSegment(cp.on_b, gb.Seg(e)).distance_mm;
      if (d2 < db) { db = d2; c.edge_b = e; }
    }
  }
  return c;
}

Overlap BaseOverlap(const Base& a, const Base& b) {
  Overlap o;
  const std::array<Vec2, 4> ca = Corners(a), cb = Corners(b);
  double depth = std::numeric_limits<double>::infinity();
  Vec2 axis(0, 0);
  for (const Vec2& n : {Forward(a), Right(a), Forward(b), Right(b)}) {
    double amin = std::numeric_limits<double>::infinity(), amax = -amin, bmin = amin, bmax = -amin;
    for (const Vec2& p : ca) amin = std::min(amin, p.dot(n)), amax = std::max(amax, p.dot(n));
    for (const Vec2& p : cb) bmin = std::min(bmin, p.dot(n)), bmax = std::max(bmax, p.dot(n));
    const double push_plus = amax - bmin;   // b moved +n by this clears a
    const double push_minus = bmax - amin;  // b moved -n by this clears a
    if (push_plus <= 0 || push_minus <= 0) return o;  // a separating axis: no overlap
    if (std::min(push_plus, push_minus) < depth) {
      depth = std::min(push_plus, push_minus);
      axis = push_plus <= push_minus ? n : Vec2(-n);
    }
  }
  const Polygon shared = ClipConvex(PolygonCcw(a), PolygonCcw(b));
  o.area_mm2 = shared.size() >= 3 ? Area(shared) : 0.0;
  if (o.area_mm2 <= 1e-6) return Overlap{};
  o.overlapping = true;
  o.depth_mm = depth;
  o.direction = axis;
  const Vec2 across(-axis.y(), axis.x());
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (const Vec2& p : shared) lo = std::min(lo, p.dot(across)), hi = std::max(hi, p.dot(across));
  o.width_mm = hi - lo;
  return o;
}

double FrontageInside(const Base& b, const Polygon& polygon) {
  return SegmentLengthInside(EdgeSegment(b, Edge::kFront), polygon);
}

}  // namespace vedette::geom
