#pragma once
// Kings of War multiple charges against one target (seed 002, "Multiple Unit Charges", lines 21-24):
// several units that each meet every requirement to charge the same enemy may charge it together "so
// long as both units can fit into base contact in some manner", and "units that have charged the same
// facing will have to share the enemy facing as equal as possible as long as they can fit after all
// chargers have moved".
//
// FitChargers decides whether one set of chargers fits, and where each ends. Each charger ends flush
// against the facing it hits (its front edge on that edge's line, facing the target). On one facing the
// chargers stand side by side without overlapping, in some order along the edge; each must touch the
// edge by more than a corner (seed 17), so only the two outermost may overhang the target's corners,
// and the ones between them must fit within the edge. A charger overhanging a corner stands in front
// of the neighbouring facing's edge line, so two facings that meet at a corner cannot both overhang
// it. Within those limits the chargers share the edge as equally as possible (each centred on an equal
// share of the edge, moved as little as the limits allow). Final positions may not overlap other units
// or blocking terrain (the chargers' own starting positions do not count: they move).
#include <string>
#include <vector>

#include "rules/geometry/base.h"
#include "rules/geometry/polygon.h"

namespace vedette::kow {

struct MultiChargeOptions {
  double min_contact_mm = 1.0;   // a charger touching the edge by less than this touches a corner only, mm
  double clear_area_mm2 = 1.0;   // a final position overlapping something by less than this is clear, mm^2
  double shift_step_mm = 1.0;    // search step when the equal-share placement runs into something, mm
  int max_orders = 24;           // orders of the chargers along one edge tried (4! = 24)
  bool Check(std::string* error) const;
};

struct ChargerOnFacing {
  std::string unit;       // id
  geom::Base base;        // where it stands now
  geom::Edge facing;      // the target's edge it hits
};

struct PlacedCharger {
  std::string unit;
  geom::Edge facing;
  geom::Base at_contact;   // flush against the facing, table frame
  double contact_mm = 0.0; // length of the target's edge it touches, mm
};

struct ChargersFit {
  bool fits = false;
  std::vector<PlacedCharger> placed;  // when fits, in the order given
  std::string why_not;                // when not, in words
};

// `obstacles`: other units' bases and blocking terrain (not the target, not these chargers); `names`
// names them for why_not (same order).
ChargersFit FitChargers(const geom::Base& target, const std::vector<ChargerOnFacing>& chargers,
                        const std::vector<geom::Polygon>& obstacles, const std::vector<std::string>& names,
                        const MultiChargeOptions& options = {});

// The 1-D test behind FitChargers for one edge of length `edge_mm`: chargers of frontages `widths_mm`
// side by side in this order; may the first overhang the edge's start corner, the last its end corner?
// Returns the left ends (from the start corner, mm) of the as-equal-as-possible placement, or an empty
// vector when they cannot fit.
std::vector<double> PlaceAlongEdge(double edge_mm, const std::vector<double>& widths_mm, bool overhang_start,
                                   bool overhang_end, double min_contact_mm);

}  // namespace vedette::kow
