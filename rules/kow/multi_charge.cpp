#include "rules/kow/multi_charge.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>
#include <optional>

#include "rules/geometry/sweep.h"
#include "rules/kow/charge.h"

namespace vedette::kow {

using geom::Base;
using geom::Edge;
using geom::Polygon;
using geom::Vec2;

bool MultiChargeOptions::Check(std::string* error) const {
  auto fail = [&](const char* what) {
    if (error) *error = what;
    return false;
  };
  if (!(min_contact_mm > 0)) return fail("min_contact_mm must be > 0");
  if (!(clear_area_mm2 >= 0)) return fail("clear_area_mm2 must be >= 0");
  if (!(shift_step_mm > 0)) return fail("shift_step_mm must be > 0");
  if (max_orders < 1) return fail("max_orders must be >= 1");
  return true;
}

std::vector<double> PlaceAlongEdge(double edge_mm, const std::vector<double>& w, bool overhang_start, bool overhang_end,
                                   double m) {
  const size_t n = w.size();
  if (n == 0) return {};
  const double total = std::accumulate(w.begin(), w.end(), 0.0);
  // Only the outermost chargers may stick out past a corner, and by at most their width less the
  // minimum contact: the span the row may occupy.
  const double lo = overhang_start ? -(w.front() - m) : 0.0;
  const double hi = overhang_end ? edge_mm + (w.back() - m) : edge_mm;
  if (hi - lo < total - 1e-9) return {};
  // As equal as possible (seed 24): charger k centred on the k-th equal share of the edge, then the
  // least-squares nearest row without overlaps: with y_k = x_k - (widths before k) the row is any
  // non-decreasing y, so pool adjacent violators (isotonic regression), then clamp into the span.
  std::vector<double> before(n, 0.0);
  for (size_t k = 1; k < n; ++k) before[k] = before[k - 1] + w[k - 1];
  std::vector<double> value, weight;
  std::vector<size_t> count;
  for (size_t k = 0; k < n; ++k) {
    value.push_back((k + 0.5) * edge_mm / n - w[k] / 2.0 - before[k]);
    weight.push_back(1.0);
    count.push_back(1);
    while (value.size() > 1 && value[value.size() - 2] > value.back()) {
      const double v = value.back(), wt = weight.back();
      const size_t c = count.back();
      value.pop_back();
      weight.pop_back();
      count.pop_back();
      value.back() = (value.back() * weight.back() + v * wt) / (weight.back() + wt);
      weight.back() += wt;
      count.back() += c;
    }
  }
  std::vector<double> x;
  for (size_t b = 0; b < value.size(); ++b)
    for (size_t c = 0; c < count[b]; ++c) x.push_back(std::clamp(value[b], lo, hi - total) + before[x.size()]);
  return x;
}

namespace {

struct EdgeFrame {
  Vec2 start{0, 0};   // start corner, table mm
  Vec2 along{1, 0};   // unit vector start -> end corner
  Vec2 out{0, 1};     // unit outward normal
  double length = 0;  // mm
};

EdgeFrame FrameOf(const Base& target, Edge e) {
  const geom::Segment s = geom::EdgeSegment(target, e);
  EdgeFrame f;
  f.start = s.a;
  f.length = s.Length();
  f.along = (s.b - s.a) / f.length;
  f.out = Vec2(-f.along.y(), f.along.x());  // corners run clockwise: outward is the edge turned left
  return f;
}

Base PlacedBase(const EdgeFrame& f, const Base& charger, double left_end_mm) {
  Base b = charger;
  b.heading_deg = geom::HeadingOf(-f.out);
  b.centre_mm = f.start + (left_end_mm + charger.width_mm / 2.0) * f.along + (charger.depth_mm / 2.0) * f.out;
  return b;
}

struct EdgeResult {
  bool fits = false;
  std::vector<size_t> order;    // indices into the chargers
  std::vector<double> left_end; // per order entry, mm along the edge
  std::string why_not;
};

}  // namespace

ChargersFit FitChargers(const Base& target, const std::vector<ChargerOnFacing>& chargers, const std::vector<Polygon>& obstacles,
                        const std::vector<std::string>& names, const MultiChargeOptions& o) {
  ChargersFit result;
  auto name = [&](size_t i) { return i < names.size() ? names[i] : "obstacle " + std::to_string(i + 1); };
  std::array<std::vector<size_t>, 4> on;  // by edge index: chargers hitting it
  for (size_t i = 0; i < chargers.size(); ++i) on[static_cast<int>(chargers[i].facing)].push_back(i);

  // Only obstacles that a charger placed against the target could reach matter.
  double reach = std::hypot(target.width_mm, target.depth_mm);
  for (const ChargerOnFacing& c : chargers) reach += std::hypot(c.base.width_mm, c.base.depth_mm) * 2.0;
  std::vector<size_t> near;
  for (size_t i = 0; i < obstacles.size(); ++i)
    if (geom::PolygonToPolygon(obstacles[i], geom::PolygonCcw(target)).distance_mm <= reach) near.push_back(i);

  // One edge with given corner permissions: try the orders along the edge (the one they stand in first),
  // the equal-share placement, then shifts of the whole row until clear of every obstacle.
  auto solve_edge = [&](int e, bool start_ok, bool end_ok) {
    EdgeResult r;
    const EdgeFrame f = FrameOf(target, static_cast<Edge>(e));
    std::vector<size_t> order = on[e];
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      const double pa = (chargers[a].base.centre_mm - f.start).dot(f.along), pb = (chargers[b].base.centre_mm - f.start).dot(f.along);
      return pa != pb ? pa < pb : a < b;
    });
    std::vector<size_t> first = order;
    std::vector<size_t> perm(order.size());
    std::iota(perm.begin(), perm.end(), size_t{0});
    std::string obstacle_reason;
    int tried = 0;
    do {
      if (tried++ >= o.max_orders) break;
      std::vector<size_t> ord;
      std::vector<double> widths;
      for (size_t p : perm) {
        ord.push_back(first[p]);
        widths.push_back(chargers[first[p]].base.width_mm);
      }
      const std::vector<double> x = PlaceAlongEdge(f.length, widths, start_ok, end_ok, o.min_contact_mm);
      if (x.empty()) continue;
      const double total_lo = start_ok ? -(widths.front() - o.min_contact_mm) : 0.0;
      const double total_hi = end_ok ? f.length + widths.back() - o.min_contact_mm : f.length;
      const double dmin = total_lo - x.front(), dmax = total_hi - (x.back() + widths.back());
      std::vector<double> shifts{0.0};
      for (double d = o.shift_step_mm; d <= std::max(-dmin, dmax) + 1e-9; d += o.shift_step_mm) {
        if (d <= dmax + 1e-9) shifts.push_back(d);
        if (-d >= dmin - 1e-9) shifts.push_back(-d);
      }
      shifts.push_back(dmax);  // the ends of the span exactly (touching is clear)
      shifts.push_back(dmin);
      for (double d : shifts) {
        std::string hit;
        for (size_t k = 0; k < ord.size() && hit.empty(); ++k) {
          const Base b = PlacedBase(f, chargers[ord[k]].base, x[k] + d);
          for (size_t i : near)
            if (!ApartFromBase(b, obstacles[i]) && geom::OverlapArea(b, obstacles[i]) > o.clear_area_mm2) {
              hit = name(i);
              break;
            }
        }
        if (hit.empty()) {
          r.fits = true;
          r.order = ord;
          for (double v : x) r.left_end.push_back(v + d);
          return r;
        }
        if (obstacle_reason.empty()) obstacle_reason = hit;
      }
    } while (std::next_permutation(perm.begin(), perm.end()));
    std::string who;
    for (size_t i : first) who += (who.empty() ? "" : ", ") + chargers[i].unit;
    char edge_len[32];
    std::snprintf(edge_len, sizeof edge_len, "%.1f", f.length);
    r.why_not = obstacle_reason.empty()
                    ? std::string(geom::ToString(static_cast<Edge>(e))) + ": no room side by side for " + who + " on the " +
                          edge_len + " mm edge without a corner-to-corner contact"
                    : std::string(geom::ToString(static_cast<Edge>(e))) + ": " + who + " would end on " + obstacle_reason;
    return r;
  };

  // Corner k joins edge k (its start) and edge k-1 (its end). A corner both edges' chargers might use
  // is given to one of them at a time; a corner only one edge has chargers next to is that edge's.
  std::array<std::array<std::optional<EdgeResult>, 4>, 4> cache;  // [edge][start_ok * 2 + end_ok]
  auto edge_result = [&](int e, bool s, bool t) -> const EdgeResult& {
    auto& slot = cache[e][(s ? 2 : 0) + (t ? 1 : 0)];
    if (!slot) slot = solve_edge(e, s, t);
    return *slot;
  };
  std::vector<int> contested;
  for (int k = 0; k < 4; ++k)
    if (!on[k].empty() && !on[(k + 3) % 4].empty()) contested.push_back(k);
  std::string reason;
  std::vector<std::string> seen;  // every edge failure met, in order
  for (int mask = 0; mask < (1 << contested.size()); ++mask) {
    std::array<bool, 4> owner_is_start_edge{};  // per corner: edge k may overhang it (else edge k-1)
    owner_is_start_edge.fill(true);
    std::array<bool, 4> free_corner{};
    free_corner.fill(true);
    for (size_t j = 0; j < contested.size(); ++j) {
      free_corner[contested[j]] = false;
      owner_is_start_edge[contested[j]] = (mask >> j) & 1;
    }
    bool all = true;
    std::array<const EdgeResult*, 4> res{};
    for (int e = 0; e < 4 && all; ++e) {
      if (on[e].empty()) continue;
      const int start_corner = e, end_corner = (e + 1) % 4;
      const bool s = free_corner[start_corner] || owner_is_start_edge[start_corner];
      const bool t = free_corner[end_corner] || !owner_is_start_edge[end_corner];
      res[e] = &edge_result(e, s, t);
      if (!res[e]->fits) {
        all = false;
        if (reason.empty() || (s && t)) reason = res[e]->why_not;
        if (std::find(seen.begin(), seen.end(), res[e]->why_not) == seen.end()) seen.push_back(res[e]->why_not);
      }
    }
    if (!all) continue;
    result.fits = true;
    result.placed.assign(chargers.size(), {});
    for (int e = 0; e < 4; ++e) {
      if (on[e].empty()) continue;
      const EdgeFrame f = FrameOf(target, static_cast<Edge>(e));
      for (size_t k = 0; k < res[e]->order.size(); ++k) {
        const size_t i = res[e]->order[k];
        const double x = res[e]->left_end[k];
        PlacedCharger& p = result.placed[i];
        p.unit = chargers[i].unit;
        p.facing = chargers[i].facing;
        p.at_contact = PlacedBase(f, chargers[i].base, x);
        p.contact_mm = std::min(f.length, x + chargers[i].base.width_mm) - std::max(0.0, x);
      }
    }
    return result;
  }
  // Every edge fits on its own with both its corners: the facings clash over a shared corner.
  bool each_alone = true;
  for (int e = 0; e < 4; ++e)
    if (!on[e].empty() && !edge_result(e, true, true).fits) {
      each_alone = false;
      reason = edge_result(e, true, true).why_not;
    }
  if (each_alone) {
    std::string all_reasons;
    for (const std::string& r : seen) all_reasons += (all_reasons.empty() ? "" : "; ") + r;
    result.why_not = "the chargers on facings that meet at a corner would both have to stick out past it (" + all_reasons + ")";
  } else {
    result.why_not = reason;
  }
  return result;
}

}  // namespace vedette::kow
