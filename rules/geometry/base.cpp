#include "rules/geometry/base.h"

#include <cmath>

namespace vedette::geom {

std::string_view ToString(Edge e) {
  switch (e) {
    case Edge::kFront: return "front";
    case Edge::kRight: return "right_flank";
    case Edge::kRear: return "rear";
    case Edge::kLeft: return "left_flank";
  }
  return "?";
}

Vec2 Forward(const Base& b) { return HeadingVector(b.heading_deg); }

Vec2 Right(const Base& b) {
  const Vec2 f = Forward(b);
  return {f.y(), -f.x()};
}

// The rules ask for corners and frames thousands of times a frame: one sine and cosine per call.
Vec2 ToTableFrame(const Base& b, const Vec2& p) {
  const Vec2 f = Forward(b);
  return b.centre_mm + p.x() * Vec2(f.y(), -f.x()) + p.y() * f;
}

Vec2 ToBaseFrame(const Base& b, const Vec2& p) {
  const Vec2 f = Forward(b);
  const Vec2 d = p - b.centre_mm;
  return {d.dot(Vec2(f.y(), -f.x())), d.dot(f)};
}

namespace {

// Half the base's depth along its heading and half its width to its right, from its centre.
struct HalfAxes {
  Vec2 fw, rw;
};
HalfAxes HalfAxesOf(const Base& b) {
  const Vec2 f = Forward(b);
  const Vec2 r(f.y(), -f.x());
  return {(b.depth_mm / 2.0) * f, (b.width_mm / 2.0) * r};
}

}  // namespace

std::array<Vec2, 4> Corners(const Base& b) {
  const auto [fw, rw] = HalfAxesOf(b);
  const Vec2& c = b.centre_mm;
  return {c - rw + fw, c + rw + fw, c + rw - fw, c - rw - fw};
}

// Two of Corners' corners by the same sums (the same bits), without the other two.
Segment EdgeSegment(const Base& b, Edge e) {
  const auto [fw, rw] = HalfAxesOf(b);
  const Vec2& c = b.centre_mm;
  switch (e) {
    case Edge::kFront: return {c - rw + fw, c + rw + fw};
    case Edge::kRight: return {c + rw + fw, c + rw - fw};
    case Edge::kRear: return {c + rw - fw, c - rw - fw};
    case Edge::kLeft: return {c - rw - fw, c - rw + fw};
  }
  return {c - rw + fw, c + rw + fw};
}

Vec2 LeaderPoint(const Base& b) { return b.centre_mm + (b.depth_mm / 2.0) * Forward(b); }

std::vector<Vec2> PolygonCcw(const Base& b) {
  const auto c = CornersCcw(b);
  return {c.begin(), c.end()};
}

std::array<Vec2, 4> CornersCcw(const Base& b) {
  const auto c = Corners(b);
  return {c[3], c[2], c[1], c[0]};
}

bool Contains(const Base& b, const Vec2& p, double tolerance_mm) {
  const Vec2 q = ToBaseFrame(b, p);
  return std::abs(q.x()) <= b.width_mm / 2.0 + tolerance_mm && std::abs(q.y()) <= b.depth_mm / 2.0 + tolerance_mm;
}

Base Transformed(const Base& b, double angle_deg, const Vec2& t) {
  const double r = DegToRad(angle_deg);
  Eigen::Matrix2d rot;
  rot << std::cos(r), -std::sin(r), std::sin(r), std::cos(r);
  Base out = b;
  out.centre_mm = rot * b.centre_mm + t;
  out.heading_deg = NormalizeDeg(b.heading_deg + angle_deg);
  return out;
}

}  // namespace vedette::geom
