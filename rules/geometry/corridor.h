#pragma once
// Corridors: the area swept straight out from one edge of a base, the full length of that edge, to a
// given depth. The front corridor is the zone of control (1 BW) and the "straight ahead" firing
// range; the rear corridor is where rear support stands.
#include "rules/geometry/base.h"
#include "rules/geometry/polygon.h"

namespace vedette::geom {

// Counter-clockwise rectangle swept outward from `edge` to `depth_mm`.
Polygon Corridor(const Base& b, Edge edge, double depth_mm);

struct CorridorHit {
  bool inside = false;         // some of `other` lies in the corridor (see InCorridor)
  double reach_mm = 0.0;       // how far out from the edge the nearest part of `other` in the corridor is
  double margin_mm = 0.0;      // depth - reach: > 0 inside by that much; < 0 short by that much
  double area_mm2 = 0.0;       // area of `other` inside the corridor
};

// Whether any part of `other` is in the corridor. A base touching the edge itself counts (contact is
// inside the zone of control); a base merely flush with the corridor's side lines does not. The test
// corridor is grown by `tolerance_mm` at its ends and narrowed by it at its sides. When nothing of
// `other` is in line with the edge, reach is the distance from the corridor and margin negative.
CorridorHit InCorridor(const Base& b, Edge edge, double depth_mm, const Base& other, double tolerance_mm = 0.5);

// InCorridor(...).inside alone, without measuring how far a base outside is: the rules ask this of
// every pair of units near each other, and most pairs are nowhere near each other's corridors.
bool InsideCorridor(const Base& b, Edge edge, double depth_mm, const Base& other, double tolerance_mm = 0.5);

}  // namespace vedette::geom
