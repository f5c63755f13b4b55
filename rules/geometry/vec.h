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

// Unit vector of a heading (deg counter-clockwise from +x). The rules ask for the same few hundred
// headings (one per base on the table, plus the poses a charge search tries) hundreds of thousands of
// times a frame, and the sine and cosine cost more than the rest of a corner: they are remembered per
// thread in a small table keyed by the heading's bits (so -0 and 0, whose sines differ in sign, stay
// apart), each slot holding the last heading that hashed to it.
inline Vec2 HeadingVector(double heading_deg) {
  constexpr int kSlotBits = 9;
  struct Memo {
    uint64_t bits[1 << kSlotBits];
    double cos[1 << kSlotBits], sin[1 << kSlotBits];
    Memo() {
      // Empty slots hold a NaN's bits and NaN answers, which is what cos and sin of that NaN give.
      for (int i = 0; i < (1 << kSlotBits); ++i) bits[i] = ~uint64_t{0}, cos[i] = sin[i] = NAN;
    }
  };
  static thread_local Memo memo;
  const uint64_t bits = std::bit_cast<uint64_t>(heading_deg);
  const size_t i = static_cast<size_t>((bits * 0x9E3779B97F4A7C15ull) >> (64 - kSlotBits));
  if (memo.bits[i] == bits) return {memo.cos[i], memo.sin[i]};
  const double r = DegToRad(heading_deg);
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
