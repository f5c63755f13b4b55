#pragma once
// Arcs: which side of a unit something is on. Three named models, because rulesets disagree:
//
//  totsk     Twilight of the Soldier Kings: judged against the lines of the unit's edges. Anything
//            ahead of the front-edge line is in front; anything behind the rear-edge line is in the
//            rear; between those two lines, left or right of the side edges is a flank. (The FAQ's
//            "enemy BW entirely behind the flank/rear" is measured with FrontageBeyond below.)
//  corner45  Quadrants bounded by lines at 45 degrees out of each corner (the common convention of
//            rank-and-flank games).
//  kow       Kings of War: lines from the centre of the unit through its four corners, extended
//            (Mantic, Kings of War rulebook, "Unit Arcs" diagram; see README rules notes).
//
// Inside the base, every model assigns a point to the edge it is nearest (kow: its wedge).
// Ties on an arc line: kow gives the front/rear (the line belongs to the front and rear arcs), the
// other models give the flank.
#include <optional>
#include <string_view>
#include <vector>

#include "rules/geometry/base.h"
#include "rules/geometry/polygon.h"

namespace vedette::geom {

enum class Arc { kFront, kLeftFlank, kRightFlank, kRear };
enum class ArcModel { kTotsk, kCorner45, kKow };

std::string_view ToString(Arc a);  // "front", "left_flank", "right_flank", "rear"
std::optional<Arc> ParseArc(std::string_view s);
std::string_view ToString(ArcModel m);  // "totsk", "corner45", "kow"
std::optional<ArcModel> ParseArcModel(std::string_view s);

// The arc of `unit` that a table point lies in.
Arc ArcOfPoint(const Base& unit, const Vec2& point, ArcModel model);

// The arc of `unit` as convex pieces in table mm, reaching `extent_mm` from the base (for drawing
// and for area shares).
std::vector<Polygon> ArcRegion(const Base& unit, Arc arc, ArcModel model, double extent_mm = 1e5);

// Fractions (0..1, summing to 1) of `other`'s area in each arc of `unit`, indexed by Arc.
struct ArcShares {
  double share[4] = {0, 0, 0, 0};
  double operator[](Arc a) const { return share[static_cast<int>(a)]; }
};
ArcShares ArcSharesOf(const Base& unit, const Base& other, ArcModel model);
// One arc's share, the same number as ArcSharesOf(...)[arc] for a quarter of the clipping (Kings of
// War asks only whether a target is partly in the front arc, for every enemy in reach).
double ArcShareOf(const Base& unit, const Base& other, Arc arc, ArcModel model);

// The arc of `unit` holding the largest share of `other`'s area.
Arc ArcOfBase(const Base& unit, const Base& other, ArcModel model);

// A directed line: the "beyond" side is where (p - point) . normal > 0.
struct Line {
  Vec2 point;   // a point on the line, table mm
  Vec2 normal;  // unit normal pointing to the "beyond" side
  double SignedDistance(const Vec2& p) const { return (p - point).dot(normal); }
};
Line BehindFrontLine(const Base& b);   // beyond = rearward of the front edge line
Line BehindRearLine(const Base& b);    // beyond = rearward of the rear edge line
Line OutsideLeftLine(const Base& b);   // beyond = left of the left edge line
Line OutsideRightLine(const Base& b);  // beyond = right of the right edge line

// Length (mm) of a segment on the beyond side of a line.
double LengthBeyond(const Segment& s, const Line& line);
// Length (mm) of `other`'s front edge (its frontage) on the beyond side of a line.
double FrontageBeyond(const Base& other, const Line& line);
// True when the whole of `other` lies on the beyond side (tolerance mm: corners may sit that far short).
bool EntirelyBeyond(const Base& other, const Line& line, double tolerance_mm = 0.0);

}  // namespace vedette::geom
