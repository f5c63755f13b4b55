#include "rules/geometry/arcs.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <initializer_list>

namespace vedette::geom {

std::string_view ToString(Arc a) {
  switch (a) {
    case Arc::kFront: return "front";
    case Arc::kLeftFlank: return "left_flank";
    case Arc::kRightFlank: return "right_flank";
    case Arc::kRear: return "rear";
  }
  return "?";
}

std::optional<Arc> ParseArc(std::string_view s) {
  for (Arc a : {Arc::kFront, Arc::kLeftFlank, Arc::kRightFlank, Arc::kRear})
    if (ToString(a) == s) return a;
  return std::nullopt;
}

std::string_view ToString(ArcModel m) {
  switch (m) {
    case ArcModel::kTotsk: return "totsk";
    case ArcModel::kCorner45: return "corner45";
    case ArcModel::kKow: return "kow";
  }
  return "?";
}

std::optional<ArcModel> ParseArcModel(std::string_view s) {
  for (ArcModel m : {ArcModel::kTotsk, ArcModel::kCorner45, ArcModel::kKow})
    if (ToString(m) == s) return m;
  return std::nullopt;
}

namespace {

// Nearest edge for a point inside the rectangle (u right, v forward, half sizes w, d).
Arc InteriorArc(double u, double v, double w, double d) {
  const double to_front = d - v, to_rear = d + v, to_left = w + u, to_right = w - u;
  const double side = std::min(to_left, to_right);
  const double end = std::min(to_front, to_rear);
  if (side <= end) return to_left <= to_right ? Arc::kLeftFlank : Arc::kRightFlank;
  return to_front <= to_rear ? Arc::kFront : Arc::kRear;
}

Arc ArcInBaseFrame(double u, double v, double w, double d, ArcModel model) {
  if (model == ArcModel::kKow) {
    // Wedges bounded by the diagonals through the centre; the diagonal itself goes to front/rear.
    if (std::abs(u) * d <= std::abs(v) * w) return v >= 0 ? Arc::kFront : Arc::kRear;
    return u < 0 ? Arc::kLeftFlank : Arc::kRightFlank;
  }
  if (std::abs(u) <= w && std::abs(v) <= d) return InteriorArc(u, v, w, d);
  if (model == ArcModel::kTotsk) {
    if (v > d) return Arc::kFront;
    if (v < -d) return Arc::kRear;
    return u < 0 ? Arc::kLeftFlank : Arc::kRightFlank;
  }
  // corner45: 45-degree lines out of the corners; a point on a line goes to the flank.
  const double ex = std::abs(u) - w, ey = std::abs(v) - d;  // how far beyond the side / end lines
  if (ey > ex) return v > 0 ? Arc::kFront : Arc::kRear;
  return u < 0 ? Arc::kLeftFlank : Arc::kRightFlank;
}

// A convex polygon of a few vertices, on the stack: an arc piece has at most 4, and a base's 4
// corners clipped by one of them at most 8. The share computation runs for thousands of pairs a frame.
class SmallPolygon {
 public:
  SmallPolygon() = default;
  SmallPolygon(std::initializer_list<Vec2> v) {
    for (const Vec2& p : v) push_back(p);
  }
  size_t size() const { return n_; }
  const Vec2& operator[](size_t i) const { return v_[i]; }
  Vec2& operator[](size_t i) { return v_[i]; }
  void clear() { n_ = 0; }
  void push_back(const Vec2& p) { v_[n_++] = p; }
  Vec2* begin() { return v_.data(); }
  Vec2* end() { return v_.data() + n_; }

 private:
  std::array<Vec2, 12> v_;
  size_t n_ = 0;
};

// Clip(subject by convex ccw clip)'s area, as Area(ClipConvex(...)) computes it.
double ClippedArea(const SmallPolygon& subject, const SmallPolygon& clip) {
  SmallPolygon out = subject, next;
  for (size_t i = 0; i < clip.size() && out.size() > 0; ++i) {
    ClipHalfPlaneInto(out, clip[i], clip[(i + 1) % clip.size()], &next);
    std::swap(out, next);
  }
  return std::abs(SignedAreaOf(out));
}

// The pieces of an arc region (one or two), in base frame, counter-clockwise.
struct Pieces {
  std::array<SmallPolygon, 2> piece;
  size_t n = 0;
  void push_back(const SmallPolygon& p) {
    piece[n] = p;
    if (SignedAreaOf(piece[n]) < 0) std::reverse(piece[n].begin(), piece[n].end());  // as MakeCcw
    ++n;
  }
};

// The interior pieces of the medial-axis split of the rectangle, in base frame.
SmallPolygon InteriorPiece(Arc arc, double w, double d) {
  if (w >= d) {
    const Vec2 pl(-(w - d), 0), pr(w - d, 0);
    switch (arc) {
      case Arc::kFront: return {{-w, d}, pl, pr, {w, d}};
      case Arc::kRear: return {{w, -d}, pr, pl, {-w, -d}};
      case Arc::kLeftFlank: return {{-w, -d}, pl, {-w, d}};
      case Arc::kRightFlank: return {{w, d}, pr, {w, -d}};
    }
  }
  const Vec2 pf(0, d - w), pb(0, -(d - w));
  switch (arc) {
    case Arc::kFront: return {{-w, d}, pf, {w, d}};
    case Arc::kRear: return {{w, -d}, pb, {-w, -d}};
    case Arc::kLeftFlank: return {{-w, -d}, pb, pf, {-w, d}};
    case Arc::kRightFlank: return {{w, d}, pf, pb, {w, -d}};
  }
  return {};
}

Pieces PiecesInBaseFrame(Arc arc, double w, double d, ArcModel model, double L) {
  Pieces pieces;
  if (model == ArcModel::kKow) {
    const double n = std::hypot(w, d);
    const Vec2 fl = Vec2(-w, d) * (L / n), fr = Vec2(w, d) * (L / n);
    const Vec2 rr = -fl, rl = -fr;
    const Vec2 o(0, 0);
    switch (arc) {
      case Arc::kFront: pieces.push_back({o, fr, fl}); break;
      case Arc::kRear: pieces.push_back({o, rl, rr}); break;
      case Arc::kLeftFlank: pieces.push_back({o, fl, rl}); break;
      case Arc::kRightFlank: pieces.push_back({o, rr, fr}); break;
    }
    return pieces;
  }
  pieces.push_back(InteriorPiece(arc, w, d));
  if (model == ArcModel::kTotsk) {
    switch (arc) {
      case Arc::kFront: pieces.push_back({{-L, d}, {L, d}, {L, d + L}, {-L, d + L}}); break;
      case Arc::kRear: pieces.push_back({{-L, -d - L}, {L, -d - L}, {L, -d}, {-L, -d}}); break;
      case Arc::kLeftFlank: pieces.push_back({{-w - L, -d}, {-w, -d}, {-w, d}, {-w - L, d}}); break;
      case Arc::kRightFlank: pieces.push_back({{w, -d}, {w + L, -d}, {w + L, d}, {w, d}}); break;
    }
    return pieces;
  }
  switch (arc) {  // corner45
    case Arc::kFront: pieces.push_back({{-w, d}, {w, d}, {w + L, d + L}, {-w - L, d + L}}); break;
    case Arc::kRear: pieces.push_back({{w, -d}, {-w, -d}, {-w - L, -d - L}, {w + L, -d - L}}); break;
    case Arc::kLeftFlank: pieces.push_back({{-w, -d}, {-w, d}, {-w - L, d + L}, {-w - L, -d - L}}); break;
    case Arc::kRightFlank: pieces.push_back({{w, d}, {w, -d}, {w + L, -d - L}, {w + L, d + L}}); break;
  }
  return pieces;
}

// Whether the interiors of two rectangles meet (separating axes: the four edge normals).
bool RectanglesOverlap(const Base& a, const Base& b) {
  const std::array<Vec2, 4> ca = Corners(a), cb = Corners(b);
  for (const Vec2& n : {Forward(a), Right(a), Forward(b), Right(b)}) {
    double amin = 1e300, amax = -1e300, bmin = 1e300, bmax = -1e300;
    for (const Vec2& p : ca) amin = std::min(amin, p.dot(n)), amax = std::max(amax, p.dot(n));
    for (const Vec2& p : cb) bmin = std::min(bmin, p.dot(n)), bmax = std::max(bmax, p.dot(n));
    if (amax <= bmin || bmax <= amin) return false;
  }
  return true;
}

// ArcSharesOf for the TotSK model when `poly` (in the unit's frame, ccw, of area `total`) lies clear of
// the unit's rectangle: nothing of it is in the rectangle's inside pieces, so the arcs are the
// half-planes beyond the front and rear lines and the strip between them split at x = 0. Six
// half-plane clips instead of clipping against the eight pieces of the four arcs: bases straddling an
// arc line are a good part of every pair a 300-unit table measures.
ArcShares TotskSharesClear(const SmallPolygon& poly, double total, double d) {
  auto clip = [](const SmallPolygon& in, const Vec2& a, const Vec2& b) {
    SmallPolygon out;
    ClipHalfPlaneInto(in, a, b, &out);  // keeps the left of a -> b
    return out;
  };
  auto share = [total](const SmallPolygon& p) { return std::abs(SignedAreaOf(p)) / total; };
  ArcShares s;
  s.share[static_cast<int>(Arc::kFront)] = share(clip(poly, {0, d}, {1, d}));     // y >= d
  s.share[static_cast<int>(Arc::kRear)] = share(clip(poly, {0, -d}, {-1, -d}));   // y <= -d
  const SmallPolygon strip = clip(clip(poly, {0, d}, {-1, d}), {0, -d}, {1, -d});  // -d <= y <= d
  s.share[static_cast<int>(Arc::kLeftFlank)] = share(clip(strip, {0, 0}, {0, 1}));    // x <= 0
  s.share[static_cast<int>(Arc::kRightFlank)] = share(clip(strip, {0, 0}, {0, -1}));  // x >= 0
  return s;
}

}  // namespace

Arc ArcOfPoint(const Base& unit, const Vec2& point, ArcModel model) {
  const Vec2 q = ToBaseFrame(unit, point);
  return ArcInBaseFrame(q.x(), q.y(), unit.width_mm / 2.0, unit.depth_mm / 2.0, model);
}

std::vector<Polygon> ArcRegion(const Base& unit, Arc arc, ArcModel model, double extent_mm) {
  const Pieces in_base = PiecesInBaseFrame(arc, unit.width_mm / 2.0, unit.depth_mm / 2.0, model, extent_mm);
  std::vector<Polygon> pieces;
  pieces.reserve(in_base.n);
  for (size_t i = 0; i < in_base.n; ++i) {
    Polygon p;
    p.reserve(in_base.piece[i].size());
    for (size_t k = 0; k < in_base.piece[i].size(); ++k) p.push_back(ToTableFrame(unit, in_base.piece[i][k]));
    pieces.push_back(MakeCcw(std::move(p)));
  }
  return pieces;
}

namespace {

// The shares of `arcs` (the others stay 0): ArcSharesOf's work for the arcs asked for, each arc worked
// out the same way whichever others are asked, so one arc's share is the same number either way.
ArcShares SharesOf(const Base& unit, const Base& other, ArcModel model, std::initializer_list<Arc> arcs) {
  ArcShares s;
  // Everything in the unit's own frame (one sine and cosine per call, not one per vertex): the
  // rules ask this for every pair in reach, thousands of times a frame.
  const Vec2 f = Forward(unit), r(f.y(), -f.x());
  const double w = unit.width_mm / 2.0, d = unit.depth_mm / 2.0;
  auto in_base = [&](const Vec2& p) {
    const Vec2 q = p - unit.centre_mm;
    return Vec2(q.dot(r), q.dot(f));  // as ToBaseFrame
  };
  const std::array<Vec2, 4> corners = Corners(other);
  std::array<Vec2, 4> q;
  for (size_t i = 0; i < 4; ++i) q[i] = in_base(corners[i]);
  // Most bases lie wholly in one arc: all four corners in it, and (except for kow's wedges, which
  // reach into the base) clear of the unit's own rectangle, whose inside is split among the arcs. Every
  // arc region outside the rectangle is convex, so the whole base is then in it.
  const Arc first = ArcInBaseFrame(q[0].x(), q[0].y(), w, d, model);
  bool one_arc = true;
  for (size_t i = 1; i < 4 && one_arc; ++i) one_arc = ArcInBaseFrame(q[i].x(), q[i].y(), w, d, model) == first;
  const bool clear = model == ArcModel::kKow || ((one_arc || model == ArcModel::kTotsk) && !RectanglesOverlap(unit, other));
  if (one_arc && clear) {
    s.share[static_cast<int>(first)] = 1.0;
    return s;
  }
  const SmallPolygon poly = {q[3], q[2], q[1], q[0]};  // PolygonCcw(other), in the unit's frame
  const double total = std::abs(SignedAreaOf(poly));
  if (model == ArcModel::kTotsk && clear && total > 0) return TotskSharesClear(poly, total, d);
  // Large enough to hold `other` whole, small enough to keep clipping well conditioned.
  const double extent = 4.0 * ((other.centre_mm - unit.centre_mm).norm() + other.width_mm + other.depth_mm +
                               unit.width_mm + unit.depth_mm);
  for (Arc a : arcs) {
    double area = 0.0;
    const Pieces pieces = PiecesInBaseFrame(a, w, d, model, extent);
    for (size_t i = 0; i < pieces.n; ++i) area += ClippedArea(poly, pieces.piece[i]);
    s.share[static_cast<int>(a)] = total > 0 ? area / total : 0.0;
  }
  return s;
}

}  // namespace

ArcShares ArcSharesOf(const Base& unit, const Base& other, ArcModel model) {
  return SharesOf(unit, other, model, {Arc::kFront, Arc::kLeftFlank, Arc::kRightFlank, Arc::kRear});
}

double ArcShareOf(const Base& unit, const Base& other, Arc arc, ArcModel model) {
  return SharesOf(unit, other, model, {arc})[arc];
}

Arc ArcOfBase(const Base& unit, const Base& other, ArcModel model) {
  const ArcShares s = ArcSharesOf(unit, other, model);
  constexpr Arc kArcs[] = {Arc::kFront, Arc::kLeftFlank, Arc::kRightFlank, Arc::kRear};
  // An arc ahead of every other by more than the tie margin wins wherever the centre is (the loop
  // below would end on it too): no need to place the centre.
  Arc top = Arc::kFront;
  for (Arc a : kArcs) top = s[a] > s[top] ? a : top;
  bool clear_winner = true;
  for (Arc a : kArcs) clear_winner = clear_winner && (a == top || s[top] > s[a] + 1e-9);
  if (clear_winner) return top;
  Arc best = ArcOfPoint(unit, other.centre_mm, model);  // tie-break: where the centre is
  for (Arc a : kArcs)
    if (s[a] > s[best] + 1e-9) best = a;
  return best;
}

Line BehindFrontLine(const Base& b) { return {LeaderPoint(b), -Forward(b)}; }
Line BehindRearLine(const Base& b) { return {b.centre_mm - (b.depth_mm / 2.0) * Forward(b), -Forward(b)}; }
Line OutsideLeftLine(const Base& b) { return {b.centre_mm - (b.width_mm / 2.0) * Right(b), -Right(b)}; }
Line OutsideRightLine(const Base& b) { return {b.centre_mm + (b.width_mm / 2.0) * Right(b), Right(b)}; }

double LengthBeyond(const Segment& s, const Line& line) {
  const double da = line.SignedDistance(s.a), db = line.SignedDistance(s.b);
  const double len = s.Length();
  if (da >= 0 && db >= 0) return len;
  if (da <= 0 && db <= 0) return 0.0;
  const double t = da / (da - db);  // where the segment crosses the line
  return da > 0 ? t * len : (1.0 - t) * len;
}

double FrontageBeyond(const Base& other, const Line& line) { return LengthBeyond(EdgeSegment(other, Edge::kFront), line); }

bool EntirelyBeyond(const Base& other, const Line& line, double tolerance_mm) {
  for (const Vec2& c : Corners(other))
    if (line.SignedDistance(c) < -tolerance_mm) return false;
  return true;
}

}  // namespace vedette::geom
