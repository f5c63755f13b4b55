#pragma once
// Small 2-D helpers on Eigen vectors: angles in degrees (the convention everywhere outside
// trigonometry), headings as unit vectors, and signed angles.
#include <Eigen/Core>
#include <bit>
#include <cmath>
#include <cstdint>
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

// Unit vector of a heading (deg counter-clockwise from +x). The rules ask for the same few headings
// hundreds of thousands of times a frame (a base's corners, frame and edges; every pose a charge
// search tries at one pivot angle, measured against one target), and the sine and cosine cost more
// than the rest of a corner: the last two headings are remembered per thread, keyed by their bits
// (so -0 and 0, whose sines differ in sign, stay apart).
inline Vec2 HeadingVector(double heading_deg) {
  struct Memo {
    uint64_t bits[2] = {~uint64_t{0}, ~uint64_t{0}};  // a NaN's bits: cos and sin of it are NaN too
    double cos[2] = {NAN, NAN}, sin[2] = {NAN, NAN};
    int next = 0;
  };
  static thread_local Memo memo;
  const uint64_t bits = std::bit_cast<uint64_t>(heading_deg);
  for (int i = 0; i < 2; ++i)
    if (memo.bits[i] == bits) return {memo.cos[i], memo.sin[i]};
  const double r = DegToRad(heading_deg);
  const int i = memo.next;
  memo.next = 1 - i;
  memo.bits[i] = bits;
  memo.cos[i] = std::cos(r);
  memo.sin[i] = std::sin(r);
  return {memo.cos[i], memo.sin[i]};
}

// Heading (deg, (-180, 180]) of a direction vector.
inline double HeadingOf(const Vec2& v) { return RadToDeg(std::atan2(v.y(), v.x())); }

// 2-D cross product z-component: > 0 when b is counter-clockwise of a.
inline double Cross(const Vec2& a, const Vec2& b) { return a.x() * b.y() - a.y() * b.x(); }

}  // namespace vedette::geom
