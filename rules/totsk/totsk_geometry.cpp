#include "rules/totsk/totsk_geometry.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace vedette::totsk {

const char* ToString(Side s) {
  switch (s) {
    case Side::kLeftFlank: return "left_flank";
    case Side::kRightFlank: return "right_flank";
    case Side::kRear: return "rear";
  }
  return "?";
}

std::optional<Side> BehindSide(const geom::Base& unit, const geom::Base& enemy_base, double tolerance_mm) {
  if (geom::EntirelyBeyond(enemy_base, geom::BehindRearLine(unit), tolerance_mm)) return Side::kRear;
  const geom::Line front = geom::BehindFrontLine(unit);
  const bool whole_behind_front = geom::EntirelyBeyond(enemy_base, front, tolerance_mm);
  const bool centre_behind_front = front.SignedDistance(enemy_base.centre_mm) > 0.0;
  for (const auto& [line, side] : {std::pair{geom::OutsideLeftLine(unit), Side::kLeftFlank},
                                   std::pair{geom::OutsideRightLine(unit), Side::kRightFlank}}) {
    const bool whole_outside = geom::EntirelyBeyond(enemy_base, line, tolerance_mm);
    const bool centre_outside = line.SignedDistance(enemy_base.centre_mm) > 0.0;
    if ((whole_outside && centre_behind_front) || (whole_behind_front && centre_outside)) return side;
  }
  return std::nullopt;
}

bool FacesAway(const geom::Base& unit, const geom::Base& other, double tolerance_mm) {
  return geom::EntirelyBeyond(other, geom::BehindFrontLine(unit), tolerance_mm);
}

namespace {

template <class Poly>
double SegmentToPolygonOf(const geom::Segment& s, const Poly& poly) {
  if (poly.size() < 3) return std::numeric_limits<double>::infinity();
  if (geom::PolygonContains(poly, s.a) || geom::PolygonContains(poly, s.b)) return 0.0;
  double best = std::numeric_limits<double>::infinity();
  for (size_t i = 0; i < poly.size(); ++i) {
    const geom::Segment e{poly[i], poly[(i + 1) % poly.size()]};
    best = std::min(best, geom::SegmentToSegment(s, e).distance_mm);
  }
  return best;
}

}  // namespace

double SegmentToPolygon(const geom::Segment& s, const geom::Polygon& poly) { return SegmentToPolygonOf(s, poly); }

double SegmentToPolygon(const geom::Segment& s, const std::array<geom::Vec2, 4>& quad) { return SegmentToPolygonOf(s, quad); }

// The segment's distance to a corner is never less than its distance to the outline; a nanometre to
// spare covers the two computations' rounding.
bool SegmentWithin(const geom::Segment& s, const std::array<geom::Vec2, 4>& quad, double limit_mm) {
  for (const geom::Vec2& c : quad)
    if (geom::PointToSegment(c, s).distance_mm <= limit_mm - 1e-9) return true;
  return SegmentToPolygon(s, quad) <= limit_mm;
}

double LateralOffset(const geom::Base& unit, const geom::Base& other) {
  return std::abs(geom::ToBaseFrame(unit, other.centre_mm).x());
}

double HeadingGap(double a_deg, double b_deg) { return std::abs(geom::NormalizeDeg(a_deg - b_deg)); }

}  // namespace vedette::totsk
