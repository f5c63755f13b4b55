#pragma once
// Distances the rules measure: closest edge to edge between bases, base to point, and from a leader
// point. All in table mm; conversion to BW or inches happens where a ruleset reports them.
#include "rules/geometry/base.h"
#include "rules/geometry/polygon.h"

namespace vedette::geom {

// Closest edge-to-edge distance between two bases (0 when they touch or overlap).
ClosestPoints BaseToBase(const Base& a, const Base& b);

// Closest distance from the base's outline to a point (0 when the point is on or inside the base).
ClosestPoints BaseToPoint(const Base& a, const Vec2& point);

// From a's leader point to the closest point of b (Kings of War's charge distance).
ClosestPoints LeaderToBase(const Base& a, const Base& b);

// From a's leader point to a point.
double LeaderToPoint(const Base& a, const Vec2& point);

}  // namespace vedette::geom
