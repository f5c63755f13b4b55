#pragma once
// Bases on top of one another. No ruleset lets a unit stand inside another's base, so every ruleset
// reports the overlaps on the table (Analyze) and refuses a move that ends in one (CheckMove). Bases
// pushed into contact by hand overlap by a fraction of a millimetre: an overlap counts only when it is
// deeper than the contact tolerance (2 mm by default, the slack the contact test already allows), so a
// unit touching another is in contact, and one reaching 4 mm into it overlaps.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "rules/geometry/contact.h"
#include "rules/ruleset.h"
#include "rules/scene/scene.h"

namespace vedette {

class UnitGrid;

struct UnitOverlap {
  std::string a, b;         // unit ids (a before b in scene order for FindOverlaps; a = the mover for OverlapsAt)
  geom::Overlap overlap;    // of the deepest pair of their bases
};

// Deeper than this, an overlap is one (mm): the contact tolerance of the rules.
inline constexpr double kOverlapToleranceMm = 2.0;

// The overlap of two placed units' bases (the deepest pair of bases).
geom::Overlap UnitsOverlap(const Unit& a, const Unit& b);

// Every pair of placed units whose bases overlap by more than tolerance_mm, in scene order.
std::vector<UnitOverlap> FindOverlaps(const Scene& scene, double tolerance_mm = kOverlapToleranceMm);
std::vector<UnitOverlap> FindOverlaps(const Scene& scene, const UnitGrid& grid, double tolerance_mm = kOverlapToleranceMm);

// The placed units (other than `unit`) that `unit` would overlap by more than tolerance_mm standing at
// `pose` (its formation as given in `unit`), in scene order.
std::vector<UnitOverlap> OverlapsAt(const Scene& scene, const Unit& unit, const Pose& pose,
                                    double tolerance_mm = kOverlapToleranceMm);

// Adds the table's overlaps to a ruleset's findings: on the picture, each shared area filled in the
// illegal style with a label at its middle ("OVERLAP B2 / R1: 4.0 mm deep"), so the players see it
// where it is; when asked, report["overlaps"] (ToJson of each, always present) and one text line each
// ("OVERLAP: ... : bases may not stand on one another").
void AppendOverlaps(const Scene& scene, double tolerance_mm, const AnalyzeOptions& options, Findings* findings);
// The same with the ruleset's grid of the scene (not made again).
void AppendOverlaps(const Scene& scene, const UnitGrid& grid, double tolerance_mm, const AnalyzeOptions& options,
                    Findings* findings);
// The shared area of two overlapping units and its label (what AppendOverlaps draws for one overlap).
void AppendOverlapDrawing(const Scene& scene, const UnitOverlap& overlap, std::vector<DrawPrimitive>* drawing);

// The dispute threshold every ruleset shares: the two bases clear of each other, i.e. overlapping at most
// tolerance_mm deep (quantity "overlap_depth", measured = the depth, 0 when apart).
PairRule OverlapRule(const Unit& a, const Unit& b, double tolerance_mm = kOverlapToleranceMm);

// "B2 overlaps R1 by 4.0 x 10.0 mm (40 mm^2)": depth x width
std::string Describe(const UnitOverlap& o);
nlohmann::json ToJson(const UnitOverlap& o);

}  // namespace vedette
