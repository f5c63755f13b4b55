#include "rules/geometry/sweep.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>

namespace vedette::geom {

Base MovedForward(const Base& b, double distance_mm) {
  Base out = b;
  out.centre_mm += distance_mm * Forward(b);
  return out;
}

Base PivotedAboutCentre(const Base& b, double angle_deg) {
  Base out = b;
  out.heading_deg = NormalizeDeg(b.heading_deg + angle_deg);
  return out;
}

Polygon SweptForward(const Base& b, double distance_mm) {
  const double w = b.width_mm / 2.0, d = b.depth_mm / 2.0, L = std::max(0.0, distance_mm);
  return MakeCcw({ToTableFrame(b, {-w, -d}), ToTableFrame(b, {w, -d}), ToTableFrame(b, {w, d + L}),
                  ToTableFrame(b, {-w, d + L})});
}

Polygon ConvexHull(std::vector<Vec2> p) {
  std::sort(p.begin(), p.end(), [](const Vec2& a, const Vec2& b) { return a.x() < b.x() || (a.x() == b.x() && a.y() < b.y()); });
  p.erase(std::unique(p.begin(), p.end(), [](const Vec2& a, const Vec2& b) { return (a - b).norm() < 1e-12; }), p.end());
  if (p.size() < 3) return p;
  Polygon hull(2 * p.size());
  size_t k = 0;
  for (size_t i = 0; i < p.size(); ++i) {  // lower hull
    while (k >= 2 && Cross(hull[k - 1] - hull[k - 2], p[i] - hull[k - 2]) <= 0) --k;
    hull[k++] = p[i];
  }
  for (size_t i = p.size() - 1, t = k + 1; i-- > 0;) {  // upper hull
    while (k >= t && Cross(hull[k - 1] - hull[k - 2], p[i] - hull[k - 2]) <= 0) --k;
    hull[k++] = p[i];
  }
  hull.resize(k - 1);
  return hull;
}

std::vector<Polygon> SweptBetween(const Base& from, const Base& to, double step_deg) {
  const double turn = NormalizeDeg(to.heading_deg - from.heading_deg);
  const int n = std::max(1, static_cast<int>(std::ceil(std::abs(turn) / std::max(step_deg, 0.1))));
  auto pose = [&](int i) {
    const double f = static_cast<double>(i) / n;
    Base b = from;
    b.centre_mm = from.centre_mm + f * (to.centre_mm - from.centre_mm);
    b.heading_deg = from.heading_deg + f * turn;
    return b;
  };
  // A corner turning through one step runs on an arc that bulges past the chord between its end
  // positions; the corners of the middle pose pushed out by 1 / cos(half the step) are where the
  // tangents at the ends meet, so the hull covers the arc (exactly so for a pivot on the spot).
  const double bulge = 1.0 / std::cos(DegToRad(std::abs(turn) / n / 2.0));
  std::vector<Polygon> pieces;
  for (int i = 0; i < n; ++i) {
    const auto a = Corners(pose(i)), b = Corners(pose(i + 1));
    std::vector<Vec2> pts(a.begin(), a.end());
    pts.insert(pts.end(), b.begin(), b.end());
    Base mid = pose(i);
    mid.centre_mm = (pose(i).centre_mm + pose(i + 1).centre_mm) / 2.0;
    mid.heading_deg = from.heading_deg + (i + 0.5) / n * turn;
    for (const Vec2& c : Corners(mid)) pts.push_back(mid.centre_mm + bulge * (c - mid.centre_mm));
    pieces.push_back(ConvexHull(std::move(pts)));
  }
  return pieces;
}

namespace {

// The charge search asks for overlaps and contacts thousands of times a frame, mostly of four-cornered
// bases: those are clipped in fixed buffers (the same steps and arithmetic as ClipConvex and
// ClipHalfPlane, so the same results), larger shapes and a buffer that overflows in Polygons.
using Buffer = FixedPolygon<64>;
constexpr size_t kFixedShapeMax = 16;  // vertices; 4 clips of a simple polygon stay well under 64 for these

template <class Poly>
double OverlapAreaIn(const std::array<Vec2, 4>& ccw, const Polygon& shape, Poly* a, Poly* b) {
  for (const Vec2& p : shape) a->push_back(p);
  for (size_t i = 0; i < ccw.size() && !a->empty(); ++i) {
    ClipHalfPlaneInto(*a, ccw[i], ccw[(i + 1) % ccw.size()], b);
    std::swap(a, b);
  }
  return std::abs(SignedAreaOf(*a));
}

// ContactAhead's clip and measure, in buffers of the caller's type; *a holds the shape in the base
// frame (u to the right, v forward).
template <class Poly>
AheadContact AheadIn(const Base& b, double lane, Poly* a, Poly* q) {
  AheadContact c;
  const double d = b.depth_mm / 2.0;
  // Keep what lies in the lane (|u| <= lane) and at or beyond the front edge line (v >= d).
  ClipHalfPlaneInto(*a, {lane, 0.0}, {lane, 1.0}, q);
  ClipHalfPlaneInto(*q, {-lane, 1.0}, {-lane, 0.0}, a);
  ClipHalfPlaneInto(*a, {0.0, d - 1e-9}, {1.0, d - 1e-9}, q);
  if (q->empty()) return c;
  double vmin = (*q)[0].y();
  for (size_t i = 0; i < q->size(); ++i) vmin = std::min(vmin, (*q)[i].y());
  double umin = lane, umax = -lane;
  for (size_t i = 0; i < q->size(); ++i) {
    const Vec2& p = (*q)[i];
    if (p.y() > vmin + 1e-7) continue;
    umin = std::min(umin, p.x());
    umax = std::max(umax, p.x());
  }
  c.ahead = true;
  c.distance_mm = std::max(0.0, vmin - d);
  c.touch_length_mm = std::max(0.0, umax - umin);
  c.point = ToTableFrame(b, {(umin + umax) / 2.0, vmin});
  c.at_front_corner = c.touch_length_mm < 1e-6 && std::abs(umin) >= lane - 1e-6;
  return c;
}

}  // namespace

double OverlapArea(const Base& b, const Polygon& shape) {
  const auto c = Corners(b);
  const std::array<Vec2, 4> ccw{c[3], c[2], c[1], c[0]};  // PolygonCcw(b) without its allocation
  if (shape.size() <= kFixedShapeMax) {
    Buffer x, y;
    const double area = OverlapAreaIn(ccw, shape, &x, &y);
    if (!x.overflowed && !y.overflowed) return area;
  }
  Polygon x, y;
  return OverlapAreaIn(ccw, shape, &x, &y);
}

AheadContact ContactAhead(const Base& b, const Polygon& shape, double lane_inset_mm) {
  return ContactAheadGivenOverlap(b, shape, lane_inset_mm, OverlapArea(b, shape));
}

AheadContact ContactAheadGivenOverlap(const Base& b, const Polygon& shape, double lane_inset_mm, double overlap_mm2) {
  AheadContact c;
  if (overlap_mm2 > 1.0) {
    c.overlapping = c.ahead = true;
    c.distance_mm = 0.0;
    c.point = b.centre_mm;
    return c;
  }
  const double lane = b.width_mm / 2.0 - lane_inset_mm;
  if (lane <= 0) return c;
  // ToBaseFrame for every vertex, with the heading's sine and cosine worked out once.
  const Vec2 f = Forward(b), r(f.y(), -f.x());
  auto to_base = [&](const Vec2& p) {
    const Vec2 dp = p - b.centre_mm;
    return Vec2(dp.dot(r), dp.dot(f));
  };
  if (shape.size() <= kFixedShapeMax) {
    Buffer x, y;
    for (const Vec2& p : shape) x.push_back(to_base(p));
    c = AheadIn(b, lane, &x, &y);
    if (!x.overflowed && !y.overflowed) return c;
  }
  Polygon x, y;
  for (const Vec2& p : shape) x.push_back(to_base(p));
  return AheadIn(b, lane, &x, &y);
}

}  // namespace vedette::geom
