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

// How far two bases reach into each other. Bases pushed flush by hand overlap by a fraction of a
// millimetre; a base put down on another overlaps by several. The depth is the separating-axis
// penetration: the shortest distance one base must slide (along one of the four edge normals) to clear
// the other, so a corner overlap of 4 x 10 mm is 4 mm deep.
struct Overlap {
  bool overlapping = false;     // the interiors share some area (more than 1e-6 mm^2)
  double depth_mm = 0.0;        // penetration depth, mm (0 when not overlapping)
  double width_mm = 0.0;        // extent of the shared area across the depth direction, mm
  double area_mm2 = 0.0;        // shared area, mm^2
  Vec2 direction{0.0, 0.0};     // unit vector: b moved depth_mm along it clears a
};
Overlap BaseOverlap(const Base& a, const Base& b);

// Length (mm) of the base's front edge inside the polygon.
double FrontageInside(const Base& b, const Polygon& polygon);

}  // namespace vedette::geom
