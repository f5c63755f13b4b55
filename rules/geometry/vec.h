#pragma once
// Small 2-D helpers on Eigen vectors: angles in degrees (the convention everywhere outside
// trigonometry), headings as unit vectors, and signed angles.
#include <Eigen/Core>
#include <cmath>
#include <numbers>

namespace vedette::geom {

using Vec2 = Eigen::Vector2d;  // a point or direction on the table, mm

inline double DegToRad(double deg) { return deg * std::numbers::pi / 180.0; }
inline double RadToDeg(double rad) { return rad * 180.0 / std::numbers::pi; }

// Wraps an angle to (-180, 180] degrees.
inline double NormalizeDeg(double deg) {
  double a = std::fmod(deg, 360.0);
  if (a <= -180.0) a += 360.0;
  if (a > 180.0) a -= 360.0;
  return a;
}

// Unit vector of a heading (deg counter-clockwise from +x).
inline Vec2 HeadingVector(double heading_deg) {
  const double r = DegToRad(heading_deg);
  return {std::cos(r), std::sin(r)};
}

// Heading (deg, (-180, 180]) of a direction vector.
inline double HeadingOf(const Vec2& v) { return RadToDeg(std::atan2(v.y(), v.x())); }

// 2-D cross product z-component: > 0 when b is counter-clockwise of a.
inline double Cross(const Vec2& a, const Vec2& b) { return a.x() * b.y() - a.y() * b.x(); }

}  // namespace vedette::geom
