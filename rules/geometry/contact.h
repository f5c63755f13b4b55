#pragma once
// Contact between bases, and how much of a frontage lies in a polygon (terrain).
#include "rules/geometry/base.h"
#include "rules/geometry/polygon.h"

namespace vedette::geom {

struct Contact {
  bool in_contact = false;    // closest edge-to-edge distance <= tolerance
  double gap_mm = 0.0;        // closest edge-to-edge distance (0 when touching or overlapping)
  Edge edge_a = Edge::kFront; // edge of a involved
  Edge edge_b = Edge::kFront; // edge of b involved
  double shared_mm = 0.0;     // length the two edges run side by side within the tolerance
  bool corner_only = false;   // touching at a corner only (no shared length)
};

// Two bases touch when their edges come within `tolerance_mm` (default 2 mm, the slack of a hand
// pushing a base into contact). The edges reported are the pair sharing the most length; for
// corner-only contact, the edges nearest the touching point.
Contact FindContact(const Base& a, const Base& b, double tolerance_mm = 2.0);

// Length (mm) of the base's front edge inside the polygon.
double FrontageInside(const Base& b, const Polygon& polygon);

}  // namespace vedette::geom
