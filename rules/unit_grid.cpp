#include "rules/unit_grid.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace vedette {

UnitGrid::UnitGrid(const Scene& scene, double cell_mm) {
  const size_t n = scene.units.size();
  placed_.assign(n, false);
  footprint_.resize(n);
  radius_.assign(n, 0.0);
  double xmin = std::numeric_limits<double>::infinity(), ymin = xmin, xmax = -xmin, ymax = -xmin;
  int count = 0;
  for (size_t i = 0; i < n; ++i) {
    const Unit& u = scene.units[i];
    if (!u.pose) continue;
    placed_[i] = true;
    footprint_[i] = Footprint(u);
    radius_[i] = std::hypot(footprint_[i].width_mm, footprint_[i].depth_mm) / 2.0;
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
  cells_.assign(static_cast<size_t>(nx_) * ny_, {});
  for (size_t i = 0; i < n; ++i) {
    if (!placed_[i]) continue;
    const geom::Vec2& c = footprint_[i].centre_mm;
    const int cx = std::clamp(static_cast<int>((c.x() - x0_) / cell_), 0, nx_ - 1);
    const int cy = std::clamp(static_cast<int>((c.y() - y0_) / cell_), 0, ny_ - 1);
    cells_[static_cast<size_t>(cy) * nx_ + cx].push_back(static_cast<int>(i));
  }
}

std::vector<int> UnitGrid::Near(const geom::Vec2& centre, double radius_mm, double reach_mm) const {
  std::vector<int> out;
  if (cells_.empty()) return out;
  const double r = radius_mm + reach_mm + max_radius_ + 1e-6;
  const int x_lo = std::max(0, static_cast<int>(std::floor((centre.x() - r - x0_) / cell_)));
  const int x_hi = std::min(nx_ - 1, static_cast<int>(std::floor((centre.x() + r - x0_) / cell_)));
  const int y_lo = std::max(0, static_cast<int>(std::floor((centre.y() - r - y0_) / cell_)));
  const int y_hi = std::min(ny_ - 1, static_cast<int>(std::floor((centre.y() + r - y0_) / cell_)));
  for (int y = y_lo; y <= y_hi; ++y)
    for (int x = x_lo; x <= x_hi; ++x)
      for (int i : cells_[static_cast<size_t>(y) * nx_ + x])
        if ((footprint_[i].centre_mm - centre).norm() - radius_[i] - radius_mm <= reach_mm + 1e-6) out.push_back(i);
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<int> UnitGrid::Near(int index, double reach_mm) const {
  std::vector<int> out = Near(footprint_[index].centre_mm, radius_[index], reach_mm);
  out.erase(std::remove(out.begin(), out.end(), index), out.end());
  return out;
}

bool UnitGrid::Far(int i, int j, double reach_mm) const {
  return (footprint_[i].centre_mm - footprint_[j].centre_mm).norm() - radius_[i] - radius_[j] > reach_mm + 1e-6;
}

}  // namespace vedette
