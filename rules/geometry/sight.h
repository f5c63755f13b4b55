#pragma once
// Lines of sight across the table: from an eye point to a target shape, past occluders that either
// block sight or let it pass over them (low units and terrain: the target is then "obscured", which
// rulesets turn into cover). Which bases and terrain block and which obscure is the ruleset's choice
// (Kings of War by unit and terrain heights, For King or Empress by bad going); this file only traces.
//
// The answer is exact for polygons: along the directions seen from the eye, whether a line is clear,
// obscured or blocked changes only at the direction of a polygon corner or of a point where an
// occluder's outline crosses the target's. One line per angular interval between those directions
// therefore decides the whole interval. A line that only grazes a corner (an interval of zero width)
// does not count as a line of sight.
#include <string>
#include <vector>

#include "rules/geometry/base.h"
#include "rules/geometry/polygon.h"

namespace vedette::geom {

enum class SightEffect {
  kBlocks,    // no line of sight through it
  kObscures,  // sight passes over it, but the target is partly hidden (cover)
};

struct Occluder {
  Polygon polygon;                            // table mm
  SightEffect effect = SightEffect::kBlocks;
  int tag = -1;                               // the caller's index, reported back in SightResult
};

// An occluder whose polygon the caller keeps (a ruleset's table of unit outlines): lines of sight
// without copying polygons. `convex`: the polygon is convex and not degenerate (ConvexForSight), so a
// line's length inside it is found by a clip (SegmentLengthInsideConvex) instead of the general way.
struct OccluderRef {
  const Polygon* polygon = nullptr;           // table mm; must outlive the TraceSight call
  SightEffect effect = SightEffect::kBlocks;
  int tag = -1;
  bool convex = false;
};
// Whether TraceSight may measure `p` as convex: a triangle or quadrilateral (a base) turning one way,
// with some area (a self-crossing or longer outline, like some terrain, takes the general way).
bool ConvexForSight(const Polygon& p);
// The same of `ccw` = PolygonCcw(b), without looking at it for a base 1 mm or more each way within
// 1 km of the origin: its corners turn one way and enclose at least 1 mm^2, far beyond the rounding
// of their coordinates (~1e-12 mm), so the answer is yes. (A table is made every call; its outlines
// are bases.)
bool ConvexForSight(const Base& b, const Polygon& ccw);

// What the caller reads of a SightResult, so that a trace may stop as soon as that is known. Ordered
// from most to least: a trace made for one need serves every later one.
enum class SightNeed {
  kAll,          // every field
  kWhenVisible,  // every field when `visible`; only `visible` when not (a shot at a target it cannot see)
  kVisible,      // only `visible` (a charge: the other fields are left as they start)
};

struct SightOptions {
  // An occluder counts only when a sight line runs more than this far inside it, mm: a base merely
  // touching the line (bases side by side, a unit in contact with the target) does not hide anything.
  double tolerance_mm = 0.5;
  // Less than kAll lets the trace stop early; `visible` is always the full trace's. Not visible is
  // settled before the intervals are cut when the blocking occluders, each shrunk by more than half
  // the tolerance, cover every direction to the target and all stand before it (every line then runs
  // more than the tolerance inside one of them); kVisible stops at the first unblocked interval.
  SightNeed need = SightNeed::kAll;
  // Leave out, unmeasured, the occluders clearly beside the target's directions (by a micro-radian, a
  // million times the rounding): the answer is the same to the bit, the arc tangents fewer. False
  // works every one out (the tests that compare the two).
  bool shortcuts = true;
  bool Check(std::string* error) const;
};

struct SightResult {
  bool visible = false;             // some line from the eye reaches the target without being blocked
  bool eye_touches_target = false;  // the eye is on or inside the target (units in contact): all clear
  double subtended_deg = 0.0;       // angle of the target seen from the eye, deg
  // Shares (0..1, summing to 1) of that angle whose lines are clear, pass over obscuring occluders
  // only, or are blocked.
  double clear_share = 0.0;
  double obscured_share = 0.0;
  double blocked_share = 0.0;
  std::vector<int> blocking_tags;   // occluders blocking some line (sorted, unique)
  std::vector<int> obscuring_tags;  // occluders some unblocked line passes over (sorted, unique)
  Vec2 seen_point{0.0, 0.0};        // where the widest unblocked bundle of lines meets the target, table mm
};

// Sight lines from `eye` to the convex polygon `target` (any orientation).
SightResult TraceSight(const Vec2& eye, const Polygon& target, const std::vector<Occluder>& occluders,
                       const SightOptions& options = {});
// The same, the occluders by reference: the same answer (bit for bit when none is flagged convex;
// a convex one's length inside agrees to rounding, and only its comparison with the tolerance is read).
SightResult TraceSightByRef(const Vec2& eye, const Polygon& target, const std::vector<OccluderRef>& occluders,
                       const SightOptions& options = {});

}  // namespace vedette::geom
