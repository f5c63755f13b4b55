#pragma once
// Distances the rules measure: closest edge to edge between bases, base to point, and from a leader
// point. All in table mm; conversion to BW or inches happens where a ruleset reports them.
#include "rules/geometry/base.h"
#include "rules/geometry/polygon.h"

namespace vedette::geom {

// Closest edge-to-edge distance between two bases (0 when they touch or overlap).
ClosestPoints BaseToBase(const Base& a, const Base& b);

// BaseToBase(a, b).distance_mm without the closest points, in a tenth of the time: 0 when the
// rectangles touch or overlap, else the smallest corner-to-rectangle distance (the closest points of two
// convex shapes apart include a corner of one). Equal to BaseToBase's to rounding (1e-9 mm): rulesets
// use it to skip pairs that are clearly out of reach and measure the rest exactly.
double BaseGap(const Base& a, const Base& b);

// BaseToBase(a, b).distance_mm <= limit_mm, the same answer: BaseGap decides unless it falls within
// a micrometre of the limit, where the exact distance is measured.
bool BasesWithin(const Base& a, const Base& b, double limit_mm);

// Closest distance from the base's outline to a point (0 when the point is on or inside the base).
ClosestPoints BaseToPoint(const Base& a, const Vec2& point);

// From a's leader point to the closest point of b (Kings of War's charge distance).
ClosestPoints LeaderToBase(const Base& a, const Base& b);

// From a's leader point to a point.
double LeaderToPoint(const Base& a, const Vec2& point);

}  // namespace vedette::geom
