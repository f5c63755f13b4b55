#include "rules/geometry/coverage.h"

#include <algorithm>
#include <cmath>

namespace vedette::geom {

namespace {

// Merges sorted-or-not intervals into a sorted disjoint list; intervals that touch are joined.
std::vector<std::pair<double, double>> Merge(std::vector<std::pair<double, double>> v) {
  std::sort(v.begin(), v.end());
  std::vector<std::pair<double, double>> out;
  for (const auto& iv : v) {
    if (iv.second <= iv.first) continue;
    if (!out.empty() && iv.first <= out.back().second) {
      out.back().second = std::max(out.back().second, iv.second);
    } else {
      out.push_back(iv);
    }
  }
  return out;
}

// The x-intervals where the horizontal line y = `y` is inside `poly` (even-odd), in no order.
void CrossSection(const Polygon& poly, double y, std::vector<std::pair<double, double>>* out) {
  std::vector<double> xs;
  for (size_t i = 0; i < poly.size(); ++i) {
    const Vec2& a = poly[i];
    const Vec2& b = poly[(i + 1) % poly.size()];
    // Half-open in y so a vertex exactly on the line is counted once.
    if ((a.y() <= y) == (b.y() <= y)) continue;
    xs.push_back(a.x() + (y - a.y()) * (b.x() - a.x()) / (b.y() - a.y()));
  }
  std::sort(xs.begin(), xs.end());
  for (size_t i = 0; i + 1 < xs.size(); i += 2) out->push_back({xs[i], xs[i + 1]});
}

}  // namespace

std::vector<std::pair<double, double>> SegmentIntervalsInside(const Segment& s, const Polygon& poly) {
  std::vector<std::pair<double, double>> out;
  if (poly.size() < 3 || s.Length() <= 0) return out;
  // Clear of the polygon's box by more than PolygonContains' tolerance: nothing of it is inside (a
  // unit's frontage against every piece of bad going on the table, most of them far away).
  if (BoxOf(s).Apart(BoxOf(poly), 1e-6)) return out;
  std::vector<double> ts{0.0, 1.0};
  const Vec2 r = s.b - s.a;
  for (size_t i = 0; i < poly.size(); ++i) {
    const Vec2 a = poly[i], q = poly[(i + 1) % poly.size()] - a;
    const double denom = Cross(r, q);
    if (std::abs(denom) < 1e-12) {
      // Collinear edge: its end points are where "on the boundary" may start or stop.
      if (std::abs(Cross(a - s.a, r)) < 1e-9 * r.norm()) {
        for (const Vec2& p : {a, Vec2(a + q)}) ts.push_back((p - s.a).dot(r) / r.squaredNorm());
      }
      continue;
    }
    const Vec2 w = a - s.a;
    const double t = Cross(w, q) / denom, u = Cross(w, r) / denom;
    if (u >= 0 && u <= 1) ts.push_back(t);
  }
  for (double& t : ts) t = std::clamp(t, 0.0, 1.0);
  std::sort(ts.begin(), ts.end());
  for (size_t i = 0; i + 1 < ts.size(); ++i) {
    if (ts[i + 1] - ts[i] < 1e-12) continue;
    const double tm = (ts[i] + ts[i + 1]) / 2.0;
    if (PolygonContains(poly, s.a + tm * r)) out.push_back({ts[i], ts[i + 1]});
  }
  return Merge(std::move(out));
}

double SegmentLengthInsideAny(const Segment& s, const std::vector<Polygon>& polys) {
  std::vector<std::pair<double, double>> all;
  for (const Polygon& p : polys) {
    const auto iv = SegmentIntervalsInside(s, p);
    all.insert(all.end(), iv.begin(), iv.end());
  }
  double t = 0.0;
  for (const auto& iv : Merge(std::move(all))) t += iv.second - iv.first;
  return t * s.Length();
}

double FrontageInsideAny(const Base& b, const std::vector<Polygon>& polys) {
  return SegmentLengthInsideAny(EdgeSegment(b, Edge::kFront), polys);
}

double AreaInsideAny(const Base& b, const std::vector<Polygon>& polys) {
  // Work in the base frame, each piece clipped to the rectangle. Between consecutive "event" heights
  // (vertices and crossings of any two edges) the union's cross-section is a fixed set of intervals
  // whose ends move linearly, so its length is linear in v and the midpoint rule is exact.
  const double w = b.width_mm / 2.0, d = b.depth_mm / 2.0;
  const Polygon rect{{-w, -d}, {w, -d}, {w, d}, {-w, d}};
  std::vector<Polygon> pieces;
  const Vec2 f = Forward(b), r(f.y(), -f.x());  // ToBaseFrame's axes, worked out once, not per vertex
  for (const Polygon& p : polys) {
    if (p.size() < 3) continue;
    Polygon q;
    q.reserve(p.size());
    Vec2 lo(1e300, 1e300), hi(-1e300, -1e300);
    for (const Vec2& v : p) {
      const Vec2 dv = v - b.centre_mm;
      q.emplace_back(dv.dot(r), dv.dot(f));  // ToBaseFrame(b, v)
      lo = lo.cwiseMin(q.back());
      hi = hi.cwiseMax(q.back());
    }
    // Wholly beyond a side of the rectangle (by more than rounding): every vertex falls outside that
    // side's half-plane, so the clip would leave nothing.
    if (lo.x() > w + 1e-6 || hi.x() < -w - 1e-6 || lo.y() > d + 1e-6 || hi.y() < -d - 1e-6) continue;
    q = ClipConvex(MakeCcw(std::move(q)), rect);
    if (q.size() >= 3 && Area(q) > 0) pieces.push_back(std::move(q));
  }
  if (pieces.empty()) return 0.0;
  std::vector<double> ys{-d, d};
  std::vector<Segment> edges;
  for (const Polygon& p : pieces) {
    for (size_t i = 0; i < p.size(); ++i) {
      ys.push_back(p[i].y());
      edges.push_back({p[i], p[(i + 1) % p.size()]});
    }
  }
  for (size_t i = 0; i < edges.size(); ++i) {
    for (size_t j = i + 1; j < edges.size(); ++j) {
      const Vec2 r = edges[i].b - edges[i].a, q = edges[j].b - edges[j].a;
      const double denom = Cross(r, q);
      if (std::abs(denom) < 1e-12) continue;
      const Vec2 wv = edges[j].a - edges[i].a;
      const double t = Cross(wv, q) / denom, u = Cross(wv, r) / denom;
      if (t >= 0 && t <= 1 && u >= 0 && u <= 1) ys.push_back(edges[i].a.y() + t * r.y());
    }
  }
  std::sort(ys.begin(), ys.end());
  double area = 0.0;
  for (size_t i = 0; i + 1 < ys.size(); ++i) {
    const double h = ys[i + 1] - ys[i];
    if (h < 1e-12) continue;
    const double ym = (ys[i] + ys[i + 1]) / 2.0;
    std::vector<std::pair<double, double>> iv;
    for (const Polygon& p : pieces) CrossSection(p, ym, &iv);
    double len = 0.0;
    for (const auto& m : Merge(std::move(iv))) len += std::min(m.second, w) - std::max(m.first, -w);
    area += h * len;
  }
  return area;
}

}  // namespace vedette::geom
