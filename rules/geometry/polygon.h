#pragma once
// Polygons on the table (terrain, arc regions, swept corridors): area, containment, convex
// clipping, and closest distances. Polygons are vertex lists in table mm; orientation is free unless
// a function says otherwise.
#include <vector>

#include "rules/geometry/base.h"
#include "rules/geometry/vec.h"

namespace vedette::geom {

using Polygon = std::vector<Vec2>;

double SignedArea(const Polygon& p);  // mm^2, > 0 when counter-clockwise
double Area(const Polygon& p);        // mm^2
Polygon MakeCcw(Polygon p);
bool IsConvex(const Polygon& p);

// Even-odd rule; points on the boundary count as inside.
bool PolygonContains(const Polygon& p, const Vec2& point, double tolerance_mm = 1e-9);

// Sutherland-Hodgman: `subject` (any simple polygon) clipped by a convex counter-clockwise `clip`.
Polygon ClipConvex(const Polygon& subject, const Polygon& convex_ccw_clip);

// The part of `subject` on the left of the directed line a->b (the half-plane cross(b-a, p-a) >= 0).
Polygon ClipHalfPlane(const Polygon& subject, const Vec2& a, const Vec2& b);

struct ClosestPoints {
  double distance_mm = 0.0;  // 0 when the shapes touch or overlap
  Vec2 on_a{0.0, 0.0};       // closest point on the first shape, table mm
  Vec2 on_b{0.0, 0.0};       // closest point on the second shape, table mm
  bool overlap = false;      // the interiors intersect (distance is then 0)
};

ClosestPoints PointToSegment(const Vec2& p, const Segment& s);
ClosestPoints SegmentToSegment(const Segment& s, const Segment& t);
bool SegmentsIntersect(const Segment& s, const Segment& t);

// Closest points between two polygons (boundaries), 0 and overlap=true if one reaches into the other
// (a shared area; shapes touching along an edge have distance 0 and no overlap when b is convex).
ClosestPoints PolygonToPolygon(const Polygon& a, const Polygon& b);
ClosestPoints PointToPolygon(const Vec2& p, const Polygon& poly);

// Length (mm) of the part of segment `s` inside polygon `poly` (any simple polygon).
double SegmentLengthInside(const Segment& s, const Polygon& poly);

}  // namespace vedette::geom
