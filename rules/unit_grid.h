#pragma once
// Which units could be near a unit, without looking at every unit on the table: the placed units of a
// scene binned by their footprint centres in a uniform grid, each with its bounding circle. A query
// returns every unit whose bounding circle comes within `reach_mm` of the query's circle (a superset of
// the units whose bases come that close: callers still measure exactly), in scene order. Rulesets ask
// it "who is in reach or in range" so that a 300-unit table costs what its neighbourhoods cost, not
// 300 x 300 exact measurements.
#include <array>
#include <span>
#include <vector>

#include "rules/geometry/arcs.h"
#include "rules/geometry/base.h"
#include "rules/scene/scene.h"

namespace vedette {

class UnitGrid {
 public:
  // cell_mm: the grid's cell side, mm (0: from the table's size and the number of units).
  explicit UnitGrid(const Scene& scene, double cell_mm = 0.0);

  // Indices into scene.units of the placed units whose bounding circles come within reach_mm of the
  // circle (centre, radius_mm), in increasing order.
  std::vector<int> Near(const geom::Vec2& centre, double radius_mm, double reach_mm) const;
  // The same around unit `index` (itself excluded).
  std::vector<int> Near(int index, double reach_mm) const;
  // Near(index, reach_mm) into *out (cleared first): a caller listing every unit's neighbours keeps
  // one buffer instead of allocating a list per unit.
  void NearInto(int index, double reach_mm, std::vector<int>* out) const;
  // Appends the indices Near(centre, radius_mm, reach_mm) gives, unsorted, `skip` left out (-1: none),
  // for a caller to whom their order does not matter (it saves Near's sort and its new list).
  void Collect(const geom::Vec2& centre, double radius_mm, double reach_mm, int skip, std::vector<int>* out) const;
  // Appends, unsorted, at least every placed unit whose bounding circle comes within reach_mm of the
  // convex region of points in the box [lo, hi] and in every half-plane normals[k] . x <= offsets[k]
  // (unit normals, table mm): every unit whose centre lies within its radius and reach_mm of the box
  // and of each half-plane's line. Only the cells such a centre can be in are read, row by row, so a
  // long thin region (a line of sight's fan) reads a fraction of what the circle round its box does;
  // the caller tests the units it gets.
  void CollectInRegion(const geom::Vec2& lo, const geom::Vec2& hi, std::span<const geom::Vec2> normals,
                       std::span<const double> offsets, double reach_mm, std::vector<int>* out) const;
  // Whether Near(i, reach_mm) would list unit j (placed, not i): the same test, for one pair.
  bool Lists(int i, int j, double reach_mm) const {
    const double limit = reach_mm + 1e-6 + radius_[j] + radius_[i];
    return j != i && placed_[j] && (footprint_[j].centre_mm - footprint_[i].centre_mm).squaredNorm() <= limit * limit;
  }

  bool Placed(int index) const { return placed_[index]; }
  const geom::Base& FootprintOf(int index) const { return footprint_[index]; }  // requires Placed
  double Radius(int index) const { return radius_[index]; }                     // half the footprint's diagonal, mm
  // True when the bounding circles of units i and j are more than reach_mm apart: no part of one can
  // be within reach_mm of the other.
  bool Far(int i, int j, double reach_mm) const { return CircleGap(i, j) > reach_mm + 1e-6; }
  // How far apart the bounding circles of units i and j are, mm (< 0 when they overlap): one square
  // root for a caller that asks Far of a pair at several reaches.
  double CircleGap(int i, int j) const;
  // geom::BaseGap of the two footprints, from the corners and axes worked out once per unit.
  double Gap(int i, int j) const;
  // geom::ArcOfBase(footprint i, footprint j, model): the arc of unit i that unit j is in, from the
  // cached corners when j lies wholly in one arc of i (most pairs), else exactly. gap_mm: Gap(i, j)
  // when the caller has it already (< 0: worked out here).
  geom::Arc ArcOf(int i, int j, geom::ArcModel model, double gap_mm = -1.0) const;
  const std::array<geom::Vec2, 4>& CornersOf(int index) const { return frame_[index].corners; }

 private:
  std::vector<bool> placed_;
  std::vector<geom::Base> footprint_;
  std::vector<double> radius_;
  struct Frame {
    geom::Vec2 forward{0, 1}, right{1, 0};
    std::array<geom::Vec2, 4> corners;
  };
  std::vector<Frame> frame_;
  double cell_ = 100.0, x0_ = 0.0, y0_ = 0.0, max_radius_ = 0.0;
  int nx_ = 1, ny_ = 1;
  // The units of cell c are entries_[cell_start_[c] .. cell_start_[c + 1]), in increasing index: one
  // array scanned in order, with what a query tests beside the index.
  struct Entry {
    geom::Vec2 centre;  // footprint centre, table mm
    double radius = 0.0;
    int index = 0;
  };
  std::vector<int> cell_start_;
  std::vector<Entry> entries_;
};

}  // namespace vedette
