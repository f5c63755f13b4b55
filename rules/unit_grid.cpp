#include "rules/unit_grid.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

namespace vedette {

UnitGrid::UnitGrid(const Scene& scene, double cell_mm) {
  const size_t n = scene.units.size();
  placed_.assign(n, false);
  footprint_.resize(n);
  radius_.assign(n, 0.0);
  frame_.resize(n);
  double xmin = std::numeric_limits<double>::infinity(), ymin = xmin, xmax = -xmin, ymax = -xmin;
  int count = 0;
  for (size_t i = 0; i < n; ++i) {
    const Unit& u = scene.units[i];
    if (!u.pose) continue;
    placed_[i] = true;
    footprint_[i] = Footprint(u);
    radius_[i] = std::hypot(footprint_[i].width_mm, footprint_[i].depth_mm) / 2.0;
    frame_[i].forward = geom::Forward(footprint_[i]);
    frame_[i].right = geom::Right(footprint_[i]);
    frame_[i].corners = geom::Corners(footprint_[i]);
    max_radius_ = std::max(max_radius_, radius_[i]);
    const geom::Vec2& c = footprint_[i].centre_mm;
    xmin = std::min(xmin, c.x()), xmax = std::max(xmax, c.x());
    ymin = std::min(ymin, c.y()), ymax = std::max(ymax, c.y());
    ++count;
  }
  if (count == 0) return;
  const double w = std::max(1.0, xmax - xmin), h = std::max(1.0, ymax - ymin);
  // About two units per cell, never finer than 20 mm nor more than 256 x 256 cells.
  cell_ = cell_mm > 0 ? cell_mm : std::max(20.0, std::sqrt(w * h * 2.0 / count));
  cell_ = std::max({cell_, w / 256.0, h / 256.0});
  x0_ = xmin;
  y0_ = ymin;
  nx_ = static_cast<int>(w / cell_) + 1;
  ny_ = static_cast<int>(h / cell_) + 1;
  auto cell_of = [&](const geom::Vec2& c) {
    const int cx = std::clamp(static_cast<int>((c.x() - x0_) / cell_), 0, nx_ - 1);
    const int cy = std::clamp(static_cast<int>((c.y() - y0_) / cell_), 0, ny_ - 1);
    return static_cast<size_t>(cy) * nx_ + cx;
  };
  cell_start_.assign(static_cast<size_t>(nx_) * ny_ + 1, 0);
  for (size_t i = 0; i < n; ++i)
    if (placed_[i]) ++cell_start_[cell_of(footprint_[i].centre_mm) + 1];
  for (size_t c = 1; c < cell_start_.size(); ++c) cell_start_[c] += cell_start_[c - 1];
  entries_.resize(count);
  std::vector<int> fill(cell_start_.begin(), cell_start_.end() - 1);  // next free slot of each cell
  for (size_t i = 0; i < n; ++i)
    if (placed_[i]) entries_[fill[cell_of(footprint_[i].centre_mm)]++] = {footprint_[i].centre_mm, radius_[i], static_cast<int>(i)};
}

void UnitGrid::Collect(const geom::Vec2& centre, double radius_mm, double reach_mm, int skip, std::vector<int>* out) const {
  if (entries_.empty()) return;
  const double r = radius_mm + reach_mm + max_radius_ + 1e-6;
  const int x_lo = std::max(0, static_cast<int>(std::floor((centre.x() - r - x0_) / cell_)));
  const int x_hi = std::min(nx_ - 1, static_cast<int>(std::floor((centre.x() + r - x0_) / cell_)));
  const int y_lo = std::max(0, static_cast<int>(std::floor((centre.y() - r - y0_) / cell_)));
  const int y_hi = std::min(ny_ - 1, static_cast<int>(std::floor((centre.y() + r - y0_) / cell_)));
  for (int y = y_lo; y <= y_hi; ++y) {
    // A row's cells are contiguous in entries_.
    const size_t row = static_cast<size_t>(y) * nx_;
    for (int k = cell_start_[row + x_lo]; k < cell_start_[row + x_hi + 1]; ++k) {
      const Entry& e = entries_[k];
      const double limit = reach_mm + 1e-6 + e.radius + radius_mm;  // centres this close, or nearer
      if (e.index != skip && (e.centre - centre).squaredNorm() <= limit * limit) out->push_back(e.index);
    }
  }
}

void UnitGrid::CollectInRegion(const geom::Vec2& lo, const geom::Vec2& hi, std::span<const geom::Vec2> normals,
                               std::span<const double> offsets, double reach_mm, std::vector<int>* out) const {
  if (entries_.empty()) return;
  const double r = reach_mm + max_radius_ + 1e-6;  // how far outside the region a listed centre may be
  // The cell holding coordinate v (from the grid's origin o), clamped to [0, n - 1] before the cast.
  auto cell = [&](double v, double o, int n) { return static_cast<int>(std::clamp(std::floor((v - o) / cell_), 0.0, n - 1.0)); };
  if (!(hi.y() + r >= y0_ && lo.y() - r <= y0_ + ny_ * cell_)) return;
  const int y_lo = cell(lo.y() - r, y0_, ny_), y_hi = cell(hi.y() + r, y0_, ny_);
  for (int y = y_lo; y <= y_hi; ++y) {
    // The x range of the centres in this row's band that every widened half-plane admits for some y
    // of the band (a superset of the band's part of the region: each plane is asked alone).
    const double ya = std::max(lo.y() - r, y0_ + y * cell_ - 1e-6), yb = std::min(hi.y() + r, y0_ + (y + 1) * cell_ + 1e-6);
    double xa = lo.x() - r, xb = hi.x() + r;
    for (size_t k = 0; k < normals.size() && xa <= xb; ++k) {
      const geom::Vec2& n = normals[k];
      if (std::abs(n.x()) < 1e-3) continue;  // nearly level: it bounds x weakly; leaving it out only adds cells
      const double x = (offsets[k] + r - std::min(n.y() * ya, n.y() * yb)) / n.x();
      if (n.x() > 0) xb = std::min(xb, x + 1e-6);
      else xa = std::max(xa, x - 1e-6);
    }
    if (!(xa <= xb) || xb < x0_ - cell_ || xa > x0_ + nx_ * cell_) continue;
    const int x_lo = cell(xa, x0_, nx_), x_hi = cell(xb, x0_, nx_);
    const size_t row = static_cast<size_t>(y) * nx_;
    for (int k = cell_start_[row + x_lo]; k < cell_start_[row + x_hi + 1]; ++k) out->push_back(entries_[k].index);
  }
}

namespace {

// Sorts distinct unit indices below n. A long list (every unit lists its neighbours, tens of them on a
// crowded table) goes through a bitmap of the table's units, read back in order: a few words per
// call instead of a comparison sort.
void SortIndices(size_t n, std::vector<int>* v) {
  if (v->size() < 24) return std::sort(v->begin(), v->end());
  static thread_local std::vector<uint64_t> bits;
  bits.assign((n + 63) / 64, 0);
  for (int i : *v) bits[static_cast<size_t>(i) >> 6] |= uint64_t{1} << (i & 63);
  v->clear();
  for (size_t w = 0; w < bits.size(); ++w)
    for (uint64_t b = bits[w]; b; b &= b - 1) v->push_back(static_cast<int>(w * 64 + std::countr_zero(b)));
}

}  // namespace

std::vector<int> UnitGrid::Near(const geom::Vec2& centre, double radius_mm, double reach_mm) const {
  std::vector<int> out;
  Collect(centre, radius_mm, reach_mm, -1, &out);
  SortIndices(footprint_.size(), &out);
  return out;
}

std::vector<int> UnitGrid::Near(int index, double reach_mm) const {
  std::vector<int> out;
  NearInto(index, reach_mm, &out);
  return out;
}

void UnitGrid::NearInto(int index, double reach_mm, std::vector<int>* out) const {
  out->clear();
  Collect(footprint_[index].centre_mm, radius_[index], reach_mm, index, out);
  SortIndices(footprint_.size(), out);
}

double UnitGrid::Gap(int i, int j) const {
  const Frame &a = frame_[i], &b = frame_[j];
  for (const geom::Vec2& n : {a.forward, a.right, b.forward, b.right}) {
    double amin = 1e300, amax = -1e300, bmin = 1e300, bmax = -1e300;
    for (const geom::Vec2& p : a.corners) amin = std::min(amin, p.dot(n)), amax = std::max(amax, p.dot(n));
    for (const geom::Vec2& p : b.corners) bmin = std::min(bmin, p.dot(n)), bmax = std::max(bmax, p.dot(n));
    if (amax < bmin || bmax < amin) {
      // Apart: the closest points include a corner of one of them.
      auto to_rect = [](const geom::Vec2& p, const geom::Base& r, const Frame& f) {
        const geom::Vec2 d = p - r.centre_mm;
        const double dx = std::max(std::abs(d.dot(f.right)) - r.width_mm / 2.0, 0.0);
        const double dy = std::max(std::abs(d.dot(f.forward)) - r.depth_mm / 2.0, 0.0);
        return std::sqrt(dx * dx + dy * dy);  // not std::hypot: several times slower, and no overflow here
      };
      double best = 1e300;
      for (const geom::Vec2& p : a.corners) best = std::min(best, to_rect(p, footprint_[j], b));
      for (const geom::Vec2& p : b.corners) best = std::min(best, to_rect(p, footprint_[i], a));
      return best;
    }
  }
  return 0.0;
}

geom::Arc UnitGrid::ArcOf(int i, int j, geom::ArcModel model, double gap_mm) const {
  // The same reading as geom::ArcSharesOf's: all four corners in one arc, and (but for kow's wedges)
  // clear of the unit's rectangle.
  const geom::Base& u = footprint_[i];
  const Frame& f = frame_[i];
  const double w = u.width_mm / 2.0, d = u.depth_mm / 2.0;
  auto arc_of = [&](const geom::Vec2& p) {
    const geom::Vec2 q = p - u.centre_mm;
    const double x = q.dot(f.right), y = q.dot(f.forward);
    // rules/geometry/arcs.cpp ArcInBaseFrame, for points outside the rectangle.
    switch (model) {
      case geom::ArcModel::kKow:
        if (std::abs(x) * d <= std::abs(y) * w) return y >= 0 ? geom::Arc::kFront : geom::Arc::kRear;
        break;
      case geom::ArcModel::kTotsk:
        if (y > d) return geom::Arc::kFront;
        if (y < -d) return geom::Arc::kRear;
        break;
      case geom::ArcModel::kCorner45:
        if (std::abs(y) - d > std::abs(x) - w) return y > 0 ? geom::Arc::kFront : geom::Arc::kRear;
        break;
    }
    return x < 0 ? geom::Arc::kLeftFlank : geom::Arc::kRightFlank;
  };
  bool clear = model == geom::ArcModel::kKow || (gap_mm >= 0.0 ? gap_mm : Gap(i, j)) > 0.0;
  if (clear) {
    const auto& c = frame_[j].corners;
    const geom::Arc first = arc_of(c[0]);
    if (arc_of(c[1]) == first && arc_of(c[2]) == first && arc_of(c[3]) == first) return first;
  }
  return geom::ArcOfBase(u, footprint_[j], model);
}

double UnitGrid::CircleGap(int i, int j) const {
  return (footprint_[i].centre_mm - footprint_[j].centre_mm).norm() - radius_[i] - radius_[j];
}

}  // namespace vedette
