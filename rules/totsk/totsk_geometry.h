#pragma once
// The TotSK readings of the table that several rules share: where an enemy stands relative to a
// unit's flanks and rear (the FAQ's "at least one enemy BW entirely behind the flank/rear"), whether a
// unit faces away, how far a segment is from a shape.
#include <array>
#include <optional>
#include <vector>

#include "rules/geometry/arcs.h"
#include "rules/geometry/base.h"
#include "rules/geometry/polygon.h"

namespace vedette::totsk {

enum class Side { kLeftFlank, kRightFlank, kRear };
const char* ToString(Side s);  // "left_flank", "right_flank", "rear"

// Which of `unit`'s flanks or rear a base of the enemy stands behind, if any:
//  rear:  the whole base lies behind the rear-edge line;
//  flank: not rear, and either the whole base lies outside that side-edge line with its centre behind
//         the front-edge line (a unit side-on against the flank), or the whole base lies behind the
//         front-edge line with its centre outside that side-edge line.
// `tolerance_mm`: a corner may sit that far on the wrong side of a line.
std::optional<Side> BehindSide(const geom::Base& unit, const geom::Base& enemy_base, double tolerance_mm);

// True when `other` lies wholly behind `unit`'s front-edge line: `unit` faces away from it.
bool FacesAway(const geom::Base& unit, const geom::Base& other, double tolerance_mm);

// Closest distance (mm) from a segment to a polygon; 0 when they meet or the segment is inside.
double SegmentToPolygon(const geom::Segment& s, const geom::Polygon& poly);
double SegmentToPolygon(const geom::Segment& s, const std::array<geom::Vec2, 4>& quad);  // a base's outline
// SegmentToPolygon(s, quad) <= limit_mm, the same answer; a corner within the limit answers yes at a
// quarter of the cost (a flank's friends mostly stand that close).
bool SegmentWithin(const geom::Segment& s, const std::array<geom::Vec2, 4>& quad, double limit_mm);

// Sideways distance (mm) of `other`'s centre from `unit`'s centre line (for "the most in front").
double LateralOffset(const geom::Base& unit, const geom::Base& other);

// Absolute heading difference in degrees, 0..180.
double HeadingGap(double a_deg, double b_deg);

}  // namespace vedette::totsk
