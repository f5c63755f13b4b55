#pragma once
// The geometry of a Kings of War counter-charge (seed 002, "Counter Charges", line 27): "Rather than
// making a normal charge move, pivot the unit to face the target's front and then make contact with the
// unit and align the units as normal."
//
// FindCounterChargeRoute models that move in two parts: a pivot about the centre, of whatever angle
// brings the charger square to the target's front edge (facing the opposite way to the target), which
// may sweep through anything but must end clear (seed 10); then a move into flush contact with the
// target's front edge, not passing through other units or blocking terrain (seed 15, "all rules that
// apply during a charge also apply"): straight, or forward into contact and then sliding along the edge
// (the seed's "make contact ... and align"), or sliding first and then forward. "Align as normal"
// (seed 17) lines the leader points up; when that spot cannot be reached the charger ends at the nearest
// spot along the edge that can, still touching by more than a corner (seed 17: no corner to corner).
#include <array>
#include <string>
#include <vector>

#include "rules/geometry/base.h"
#include "rules/geometry/polygon.h"
#include "rules/kow/charge.h"

namespace vedette::kow {

struct CounterChargeRoute {
  bool found = false;
  double pivot_deg = 0.0;   // pivot about the centre to face the target's front, deg counter-clockwise
  double move_mm = 0.0;     // travel of the centre from the pivoted pose into contact (straight or an L), mm
  double slide_mm = 0.0;    // final leader point from the target's leader point along its front edge
                            // (target's right positive), mm; 0 = leader points lined up
  double length_mm = 0.0;   // leader point travel: pivot arc + straight move, mm
  geom::Vec2 contact_point{0.0, 0.0};  // middle of the touching stretch of the target's front edge, table mm
  geom::Base pivoted;                  // the charger after the pivot
  geom::Base at_contact;               // the charger in contact, flush and aligned
  std::string why_not;                 // when !found: "pivot does not end clear of X", ...
};

// `obstacles`: every other base and blocking terrain piece (not the target); `names` names them for
// why_not (same order, may be empty). Uses options.clear_area_mm2 and options.corner_tolerance_mm; the
// slide search steps by options.advance_step_mm / 2.
CounterChargeRoute FindCounterChargeRoute(const geom::Base& charger, const geom::Base& target,
                                          const std::vector<geom::Polygon>& obstacles,
                                          const std::vector<std::string>& names, const ChargeOptions& options = {});

// The ground a base covers moving from `from` to `to` (geom::SweptBetween), worked out once for every
// shape it is checked against.
struct SweptGround {
  std::vector<geom::Polygon> pieces;                // convex, table mm
  std::vector<geom::Box> boxes;                     // each piece's bounding box
};
SweptGround SweepOf(const geom::Base& from, const geom::Base& to);

// Area (mm^2) of `shape` inside the ground a base covers moving from `from` to `to`.
double SweptOverlapArea(const SweptGround& ground, const geom::Polygon& shape);
double SweptOverlapArea(const geom::Base& from, const geom::Base& to, const geom::Polygon& shape);

}  // namespace vedette::kow
