#pragma once
// A base on the table: the rectangle every rule measures from. Plain value, free functions.
#include <array>
#include <string_view>
#include <vector>

#include "rules/geometry/vec.h"

namespace vedette::geom {

struct Base {
  Vec2 centre_mm{0.0, 0.0};  // centre in the table frame, mm
  double heading_deg = 0.0;  // direction the front faces, deg counter-clockwise from +x
  double width_mm = 40.0;    // frontage, along the front edge, mm
  double depth_mm = 20.0;    // front to rear, mm
};

enum class Edge { kFront, kRight, kRear, kLeft };
std::string_view ToString(Edge e);  // "front", "right_flank", "rear", "left_flank"

struct Segment {
  Vec2 a;  // mm
  Vec2 b;  // mm
  double Length() const { return (b - a).norm(); }
};

Vec2 Forward(const Base& b);  // unit vector the front faces
Vec2 Right(const Base& b);    // unit vector to the unit's right (Forward rotated -90 deg)

// Corners in the table frame: front-left, front-right, rear-right, rear-left (counter-clockwise
// order is rear-left, rear-right, front-right, front-left; this order is clockwise seen from above).
std::array<Vec2, 4> Corners(const Base& b);

// An edge as a segment. The front edge runs front-left -> front-right, the right edge
// front-right -> rear-right, the rear edge rear-right -> rear-left, the left edge rear-left -> front-left.
Segment EdgeSegment(const Base& b, Edge e);

// Centre of the front edge.
Vec2 LeaderPoint(const Base& b);

// Table point -> base frame (u to the right, v forward, mm, origin at the centre) and back.
Vec2 ToBaseFrame(const Base& b, const Vec2& point_in_table);
Vec2 ToTableFrame(const Base& b, const Vec2& point_in_base);

// The same rectangle as a counter-clockwise polygon (for clipping and area computations).
std::vector<Vec2> PolygonCcw(const Base& b);
std::array<Vec2, 4> CornersCcw(const Base& b);  // PolygonCcw's vertices, without allocating

// True when the point lies inside or on the rectangle (tolerance mm).
bool Contains(const Base& b, const Vec2& point_in_table, double tolerance_mm = 1e-9);

// A copy moved by a rigid motion of the table: rotate by `angle_deg` about the origin, then translate.
Base Transformed(const Base& b, double angle_deg, const Vec2& translation_mm);

}  // namespace vedette::geom
