#pragma once
// Moving a base: straight ahead, pivoting about its centre, and what a straight move runs into. These
// are the pieces of a Kings of War charge (forward, one pivot about the centre, forward into contact)
// and of any "does this move pass through that unit" test (a fleeing unit's path).
#include <limits>
#include <vector>

#include "rules/geometry/base.h"
#include "rules/geometry/polygon.h"

namespace vedette::geom {

// The base moved `distance_mm` along its own heading (negative: backwards).
Base MovedForward(const Base& b, double distance_mm);

// The base turned by `angle_deg` (counter-clockwise positive) about its own centre.
Base PivotedAboutCentre(const Base& b, double angle_deg);

// The ground a base covers moving straight ahead `distance_mm` (>= 0): its rectangle lengthened
// forward. Counter-clockwise.
Polygon SweptForward(const Base& b, double distance_mm);

// The ground a base covers going from pose `from` to pose `to` with the centre on a straight line and
// the heading turning evenly (the shorter way): the union of the convex hulls of consecutive poses
// `step_deg` apart (at least one step), each hull widened to cover the corners' arcs between the two
// poses. Convex pieces, counter-clockwise.
std::vector<Polygon> SweptBetween(const Base& from, const Base& to, double step_deg = 5.0);

// Area (mm^2) of a base that lies inside a polygon (any simple polygon).
double OverlapArea(const Base& b, const Polygon& shape);

// What a base meets moving straight ahead. The base's lane is its own width narrowed by `lane_inset_mm`
// on each side, so that a neighbour flush against a side edge is slid past, not run into.
struct AheadContact {
  bool ahead = false;        // some part of the shape lies ahead of the front edge, within the lane
  bool overlapping = false;  // the shape already covers part of the base (more than 1 mm^2)
  double distance_mm = std::numeric_limits<double>::infinity();  // straight move until first touch
  Vec2 point{0.0, 0.0};      // first touch, table mm (the middle of the touching stretch)
  double touch_length_mm = 0.0;  // length of the stretch of the front edge that touches first (0: a point)
  bool at_front_corner = false;  // the first touch is at one of the base's front corners only
};
AheadContact ContactAhead(const Base& b, const Polygon& shape, double lane_inset_mm = 0.0);
// The same for a caller that has OverlapArea(b, shape) at hand, or knows it is 0 (the two apart): the
// only thing ContactAhead reads of it is whether it is more than 1 mm^2, so any `overlap_mm2` on the
// same side of 1 gives the very same answer.
AheadContact ContactAheadGivenOverlap(const Base& b, const Polygon& shape, double lane_inset_mm, double overlap_mm2);

// Convex hull (counter-clockwise) of a point set.
Polygon ConvexHull(std::vector<Vec2> points);

}  // namespace vedette::geom
