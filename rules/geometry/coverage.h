#pragma once
// How much of a base lies in terrain made of several pieces: the length of a frontage and the share of
// a base's area inside the union of polygons (For King or Empress's "half its base frontage in bad
// going", Kings of War's "half the base within difficult terrain"). Overlapping pieces count once.
#include <utility>
#include <vector>

#include "rules/geometry/base.h"
#include "rules/geometry/polygon.h"

namespace vedette::geom {

// Parameter intervals [t0, t1] (0 <= t0 < t1 <= 1, sorted, disjoint) of `s` inside `poly`.
std::vector<std::pair<double, double>> SegmentIntervalsInside(const Segment& s, const Polygon& poly);

// Length (mm) of `s` inside the union of the polygons.
double SegmentLengthInsideAny(const Segment& s, const std::vector<Polygon>& polys);

// Length (mm) of the base's front edge inside the union of the polygons.
double FrontageInsideAny(const Base& b, const std::vector<Polygon>& polys);

// Area (mm^2) of the base inside the union of the polygons (exact: integrated strip by strip between
// the heights where the union's cross-section changes slope).
double AreaInsideAny(const Base& b, const std::vector<Polygon>& polys);

}  // namespace vedette::geom
