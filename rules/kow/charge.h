#pragma once
// The geometry of a Kings of War charge move (seed 002, "Charges", lines 13-17): the charger moves
// forward, may pivot once about its centre by up to 90 degrees at any point, and moves forward again
// into contact with the facing of the target its leader point was in. It must take the shortest such
// route around other units and blocking terrain, and a contact that is only corner to corner does not
// count. Pivots may sweep through anything as long as the unit ends the pivot clear (line 10).
//
// FindChargeRoute searches that family of routes: pivot angles in steps plus the exact angle that
// brings the charger square to the facing edge, pivot points every `advance_step_mm` along the first
// leg. A route is measured by the travel of the leader point: first leg, the arc of the pivot, second
// leg, and the swing that brings the charger flush against the facing edge about the touching point
// (seed 17). Without that last term a pivot that swings a front corner in would look shorter than
// charging straight ahead.
#include <string>
#include <vector>

#include "rules/geometry/base.h"
#include "rules/geometry/polygon.h"

namespace vedette::kow {

struct ChargeOptions {
  double max_pivot_deg = 90.0;       // seed line 15: "pivot once around the unit's center up to 90*"
  double pivot_step_deg = 3.0;       // search step of the pivot angle, deg
  double advance_step_mm = 10.0;     // search step of where the pivot happens along the first leg, mm
  double clear_area_mm2 = 1.0;       // a base overlapping something by less than this is clear of it, mm^2
  double lane_inset_mm = 0.5;        // a neighbour flush against a side edge is slid past, not run into, mm
  double edge_tolerance_mm = 1.0;    // the first touch must lie this close to the facing edge, mm
  double corner_tolerance_mm = 1.0;  // touch points this close to both bases' corners are corner to corner, mm
  // The search's shortcuts (only the pivot points with the target in the lane, a pose blocked by the
  // last pose's blocker refused before the target's contact is measured, an obstacle with a corner in
  // the lane ahead taken as blocking without the clip); false tests every pose in full. The route found is the same either way (tests compare them); only read_in differs.
  bool shortcuts = true;
  bool Check(std::string* error) const;
};

struct ChargeRoute {
  bool found = false;          // a route into contact with the facing edge exists
  bool corner_only = false;    // !found, but routes existed that meet only corner to corner
  double advance_mm = 0.0;     // first leg, mm
  double pivot_deg = 0.0;      // pivot about the centre, deg counter-clockwise
  double final_mm = 0.0;       // second leg, mm
  double length_mm = 0.0;      // leader point travel including the pivot arc and the final alignment, mm
  geom::Vec2 contact_point{0.0, 0.0};  // first touch on the target, table mm
  geom::Base at_contact;               // the charger when it touches, before aligning flush
  // Where the search looked at obstacles: each pose it tested against them, lengthened ahead by the
  // way it was tested for (plus 1 mm). An obstacle with no part in any of them passed every test the
  // search made, so moving it from outside them to outside them changes nothing the search finds.
  std::vector<geom::Base> read_in;
};

// A shape's bounding circle (about the mean of its corners, out to the farthest): the search's quick
// test before its exact ones. A caller with many searches over the same shapes works each out once.
struct ShapeCircle {
  geom::Vec2 c{0, 0};  // table mm
  double r = 0.0;      // mm
};
ShapeCircle BoundingCircleOf(const geom::Polygon& p);

// `obstacles`: every base and blocking terrain piece the charger may not pass through (not the target).
// `max_advance_mm` bounds where the pivot may happen (the charge range).
ChargeRoute FindChargeRoute(const geom::Base& charger, const geom::Base& target, geom::Edge facing,
                            const std::vector<geom::Polygon>& obstacles, double max_advance_mm,
                            const ChargeOptions& options = {});
// The same, the obstacles by reference (the caller keeps them: a table's outlines, the scene's terrain),
// with their BoundingCircleOf when the caller has them (`circles`, in the same order; else worked out).
ChargeRoute FindChargeRouteByRef(const geom::Base& charger, const geom::Base& target, geom::Edge facing,
                                 const std::vector<const geom::Polygon*>& obstacles, double max_advance_mm,
                                 const ChargeOptions& options = {}, const std::vector<ShapeCircle>* circles = nullptr);

// True when the shape lies wholly beyond one side of base `b` lengthened `ahead_mm` forward, by the
// base's own axes (1 um to spare): then OverlapArea(b, shape) is 0 and ContactAhead(b, shape) finds
// it neither overlapping nor nearer than `ahead_mm`. A few products against a clip: the charge and
// multiple-charge searches ask it first.
bool ApartFromBase(const geom::Base& b, const geom::Polygon& shape, double ahead_mm = 0.0);

// True when ContactAhead(b, shape, 0) cannot touch first within `tol_mm` of `edge`, whatever the
// shape: that touch lies in b's lane (|u| <= half the width) at or past its front, and the edge lies
// wholly more than tol_mm (and 1 um for rounding) to one side of that strip or behind the front. The
// charge search skips such poses before measuring the contact (it would turn the touch away).
bool EdgeOutOfReach(const geom::Base& b, const geom::Segment& edge, double tol_mm);

// The pivot points a route search visits for one pivot angle: base `b` (the charger as it stands,
// forward `f0`) moved forward a = i * step (i = 0..steps; i = steps + 1 for a = first_leg) and turned
// to forward `fa`. Those from `first` to `last` (empty when first > last) are the ones that may have
// the circle (centre, radius) in the lane ahead: the others' poses have it more than a micrometre
// beside the lane or behind the base (by the pose's own axes), so none of them can touch the target
// it bounds. Both tests are linear in a: the interval is worked out with 0.1 um to spare and widened
// by a step each way, so rounding cannot leave out a pose the exact test keeps.
struct PoseSpan {
  int first = 0, last = -1;
};
PoseSpan InLaneSpan(const geom::Base& b, const geom::Vec2& f0, const geom::Vec2& fa, const geom::Vec2& centre, double radius,
                    double first_leg, double step, int steps);

// The rectangles of a ChargeRoute's read_in, for the quick question "may this base reach into one of
// them": no when the base's bounding circle (1 mm to spare) misses their bounding box or every one of
// them. Much tighter than the region the search might reach (its first leg, and round the target): a
// unit moving in that region but clear of every pose the search tried leaves the route as it was.
class RouteReads {
 public:
  explicit RouteReads(std::vector<geom::Base> boxes);
  bool MayReach(const geom::Base& b) const;

 private:
  std::vector<geom::Base> boxes_;
  std::vector<geom::Vec2> forward_;  // each box's unit forward vector
  geom::Vec2 lo_{0, 0}, hi_{0, 0};   // bounding box of all the boxes, table mm
};

}  // namespace vedette::kow
