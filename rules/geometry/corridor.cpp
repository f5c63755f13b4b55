#include "rules/geometry/corridor.h"

#include <algorithm>
#include <array>
#include <limits>

#include "rules/geometry/arcs.h"

namespace vedette::geom {

namespace {

// Outward normal and the edge's two corners (left-to-right when looking out from the edge).
struct EdgeFrame {
  Vec2 a, b, out;
};

EdgeFrame FrameOf(const Base& base, Edge edge) {
  const Segment s = EdgeSegment(base, edge);
  const Vec2 forward = Forward(base), right(forward.y(), -forward.x());  // as Right(base): one sine and cosine
  Vec2 out = forward;
  switch (edge) {
    case Edge::kFront: out = forward; break;
    case Edge::kRear: out = -forward; break;
    case Edge::kRight: out = right; break;
    case Edge::kLeft: out = -right; break;
  }
  return {s.a, s.b, out};
}

Polygon SweptRect(const Vec2& a, const Vec2& b, const Vec2& out, double from, double to) {
  return MakeCcw({a + from * out, b + from * out, b + to * out, a + to * out});
}

}  // namespace

Polygon Corridor(const Base& base, Edge edge, double depth_mm) {
  const EdgeFrame f = FrameOf(base, edge);
  return SweptRect(f.a, f.b, f.out, 0.0, depth_mm);
}

CorridorHit InCorridor(const Base& base, Edge edge, double depth_mm, const Base& other, double tol) {
  EdgeFrame f = FrameOf(base, edge);
  const Vec2 along = (f.b - f.a).normalized();
  const Vec2 a = f.a + tol * along, b = f.b - tol * along;  // narrowed at the sides
  const Polygon other_poly = PolygonCcw(other);
  const Line edge_line{f.a, f.out};
  CorridorHit hit;
  // Everything of `other` in line with the edge (an unbounded-depth corridor), to measure reach.
  const Polygon in_line = ClipConvex(other_poly, SweptRect(a, b, f.out, -tol, 1e7));
  if (in_line.size() >= 3 && Area(in_line) > 1e-9) {
    double reach = std::numeric_limits<double>::infinity();
    for (const Vec2& p : in_line) reach = std::min(reach, edge_line.SignedDistance(p));
    hit.reach_mm = std::max(0.0, reach);
    const Polygon in_zone = ClipConvex(other_poly, SweptRect(a, b, f.out, -tol, depth_mm + tol));
    hit.area_mm2 = in_zone.size() >= 3 ? Area(in_zone) : 0.0;
    hit.inside = hit.area_mm2 > 1e-9;
    hit.margin_mm = depth_mm - hit.reach_mm;
    return hit;
  }
  // Not in line: report how far it is from the corridor.
  hit.reach_mm = PolygonToPolygon(other_poly, Corridor(base, edge, depth_mm)).distance_mm + depth_mm;
  hit.margin_mm = -(hit.reach_mm - depth_mm);
  return hit;
}

bool InsideCorridor(const Base& base, Edge edge, double depth_mm, const Base& other, double tol) {
  const EdgeFrame f = FrameOf(base, edge);
  const Vec2 along = (f.b - f.a).normalized();
  const Vec2 a = f.a + tol * along, b = f.b - tol * along;
  // The corridor is convex: when every corner of `other` lies beyond one of its four sides, nothing of
  // `other` is inside and the clipping below would give an empty polygon.
  const auto corners = Corners(other);
  const double span = (b - a).dot(along);
  bool before = true, beyond = true, left = true, right = true, corner_inside = false;
  for (const Vec2& c : corners) {
    const double out = (c - f.a).dot(f.out), side = (c - a).dot(along);
    before = before && out < -tol;
    beyond = beyond && out > depth_mm + tol;
    left = left && side < 0.0;
    right = right && side > span;
    // A corner a micrometre inside every side: the right-angled corner of `other` there puts at
    // least a quarter disc of that radius (about 8e-7 mm^2) inside (sides that long), well over the
    // clip's 1e-9 and its rounding.
    constexpr double kIn = 1e-3;
    corner_inside = corner_inside || (out > -tol + kIn && out < depth_mm + tol - kIn && side > kIn && side < span - kIn);
  }
  if (before || beyond || (span >= 0.0 && (left || right))) return false;
  if (corner_inside && other.width_mm >= 1e-3 && other.depth_mm >= 1e-3) return true;
  // The clip of ClipConvex(PolygonCcw(other), SweptRect(...)), step for step, in buffers on the stack.
  const std::array<Vec2, 4> rect = {a - tol * f.out, b - tol * f.out, b + (depth_mm + tol) * f.out, a + (depth_mm + tol) * f.out};
  FixedPolygon<4> clip;
  for (const Vec2& v : rect) clip.push_back(v);
  if (SignedAreaOf(clip) < 0) std::reverse(clip.v.begin(), clip.v.begin() + 4);  // as MakeCcw
  FixedPolygon<16> cur, next;
  for (const Vec2& v : CornersCcw(other)) cur.push_back(v);
  for (size_t i = 0; i < 4 && !cur.empty(); ++i) {
    ClipHalfPlaneInto(cur, clip[i], clip[(i + 1) % 4], &next);
    std::swap(cur, next);
  }
  return cur.size() >= 3 && std::abs(SignedAreaOf(cur)) > 1e-9;
}

}  // namespace vedette::geom
