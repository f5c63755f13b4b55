#include "rules/geometry/sight.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numbers>

namespace vedette::geom {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Signed angle (rad) from `ref` to `d`.
double RelAngle(const Vec2& ref, const Vec2& d) { return std::atan2(Cross(ref, d), ref.dot(d)); }

Vec2 Rotated(const Vec2& v, double rad) {
  const double c = std::cos(rad), s = std::sin(rad);
  return {c * v.x() - s * v.y(), s * v.x() + c * v.y()};
}

// Smallest t >= 0 where eye + t * dir meets the polygon's outline (dir a unit vector); inf if never.
double RayEntry(const Vec2& eye, const Vec2& dir, const Polygon& poly) {
  double best = kInf;
  for (size_t i = 0; i < poly.size(); ++i) {
    const Vec2& a = poly[i];
    const Vec2 q = poly[(i + 1) % poly.size()] - a;
    const double denom = Cross(dir, q);
    if (std::abs(denom) < 1e-15) continue;
    const Vec2 w = a - eye;
    const double t = Cross(w, q) / denom, u = Cross(w, dir) / denom;
    if (t >= 0 && u >= -1e-12 && u <= 1 + 1e-12) best = std::min(best, t);
  }
  return best;
}

}  // namespace

bool SightOptions::Check(std::string* error) const {
  if (!(tolerance_mm >= 0) || !std::isfinite(tolerance_mm)) {
    if (error) *error = "tolerance_mm must be a finite number >= 0";
    return false;
  }
  return true;
}

bool ConvexForSight(const Polygon& p) {
  return (p.size() == 3 || p.size() == 4) && IsConvex(p) && Area(p) > 1e-6;
}

bool ConvexForSight(const Base& b, const Polygon& ccw) {
  const bool plain = b.width_mm >= 1.0 && b.depth_mm >= 1.0 && b.width_mm < 1e6 && b.depth_mm < 1e6 &&
                     std::abs(b.centre_mm.x()) < 1e6 && std::abs(b.centre_mm.y()) < 1e6;
  return plain || ConvexForSight(ccw);
}

namespace {

// What one trace works in, kept between traces on the same thread (a frame traces thousands of
// lines of sight; allocating these each time was a tenth of a first frame).
struct SightScratch {
  std::vector<size_t> near;                      // the occluders that may stand between, by index
  std::vector<std::pair<double, double>> span;   // each near occluder's angular span, rad
  std::vector<size_t> first_angle;               // where each near occluder's corner angles start in `angles`
  std::vector<double> angles;                    // the corners' angles, rad, worked out once for span and cuts
  std::vector<double> nearest;                   // each near occluder's distance from the eye, mm
  std::vector<double> cuts;                      // directions where the answer may change, rad (the target's corners' first)
  std::vector<int> blocking, obscuring, over;    // tags (sorted and made unique at the end)
  std::vector<std::pair<double, double>> cover;  // the shrunk blockers' angular spans, rad (SurelyHidden)
};

SightScratch& ScratchForSight() {
  thread_local SightScratch scratch;
  return scratch;
}

// Where a trace looks from and at: the eye, the reference direction (eye to the target's centroid),
// the target's angular extent about it (a convex shape seen from outside spans < 180 deg) and how far
// its farthest corner is.
struct SightFrame {
  Vec2 eye{0.0, 0.0};                         // table mm
  Vec2 ref{1.0, 0.0};                         // unit vector
  Vec2 hi_edge{1.0, 0.0}, lo_edge{1.0, 0.0};  // the extent's two edges, unit vectors
  double lo = 0.0, hi = 0.0;                  // the extent's edges from ref, rad
  double reach = 0.0;                         // mm
};
// The target's corners' angles are appended to `corner_angles` (the cuts read them again).
SightFrame FrameOf(const Vec2& eye, const Vec2& ref, const Polygon& target, std::vector<double>* corner_angles) {
  SightFrame f;
  f.eye = eye;
  f.ref = ref;
  f.lo = kInf, f.hi = -kInf;
  for (const Vec2& v : target) {
    const double a = RelAngle(ref, v - eye);
    corner_angles->push_back(a);
    f.lo = std::min(f.lo, a);
    f.hi = std::max(f.hi, a);
    f.reach = std::max(f.reach, (v - eye).norm());
  }
  if (f.hi > f.lo) f.hi_edge = Rotated(ref, f.hi), f.lo_edge = Rotated(ref, f.lo);
  return f;
}

// Whether every corner of `poly` lies clearly beyond one edge of the target's angular extent, on the
// near side of the direction opposite the target: beyond e.hi and below +180 deg, or below e.lo and
// above -180 deg, each by a micro-radian. The angles' test below then finds the polygon aside too (its
// margin is a million times smaller), so skipping it changes no answer; four cross products cost
// what one atan2 does, and most candidates of a crowded table are aside (70 % in Kings of War).
bool ClearlyAside(const Vec2& eye, const Vec2& ref, const Vec2& hi_edge, const Vec2& lo_edge, const Polygon& poly) {
  constexpr double kMargin = 1e-6;  // rad (sine of it, for the cross products of unit vectors)
  bool beyond_hi = true, beyond_lo = true;
  for (const Vec2& v : poly) {
    const Vec2 d = v - eye;
    // A corner within 0.01 mm of the eye is left to the angles' test (which counts an eye within
    // 1e-9 mm of an outline as inside it); beyond that, the margin keeps the eye farther off.
    if (d.squaredNorm() < 1e-4) return false;
    const double m = kMargin * d.norm();
    beyond_hi = beyond_hi && Cross(hi_edge, d) > m && Cross(ref, d) > m;
    beyond_lo = beyond_lo && Cross(d, lo_edge) > m && Cross(d, ref) > m;
    if (!beyond_hi && !beyond_lo) return false;
  }
  return true;
}

// PointToPolygon(eye, poly).distance_mm, to the bit: an eye more than a micrometre outside the
// polygon's box (!in_box) is not in it, and the nearest edge's distance is the square root of the
// least squared one (the root is correctly rounded and increasing), so one root instead of one per edge.
double DistanceFromEye(const Vec2& eye, const Polygon& poly, bool in_box) {
  if (in_box && PolygonContains(poly, eye)) return 0.0;
  double best = kInf;
  for (size_t i = 0; i < poly.size(); ++i) {
    const Vec2& a = poly[i];
    const Vec2 d = poly[(i + 1) % poly.size()] - a;  // as PointToSegment
    const double len2 = d.squaredNorm();
    const double t = std::clamp(len2 > 0 ? (eye - a).dot(d) / len2 : 0.0, 0.0, 1.0);
    const Vec2 q = a + t * d;
    best = std::min(best, (eye - q).squaredNorm());
  }
  return std::sqrt(best);
}

// Whether an occluder may stand between the eye and the target, and when it may, what the trace
// reads of it: its distance from the eye, its corners' angles (appended to `angles`) and its angular
// span (the range of those angles, which holds every direction that meets it; an occluder across the
// direction opposite the target, or holding the eye, gets the whole circle).
struct Admitted {
  double distance = 0, lo = 0, hi = 0;  // mm; rad
};
bool Admit(const SightFrame& f, const Polygon& poly, bool shortcuts, std::vector<double>* angles, Admitted* out) {
  const Vec2& eye = f.eye;
  if (poly.size() < 3 || (shortcuts && ClearlyAside(eye, f.ref, f.hi_edge, f.lo_edge, poly))) return false;
  Vec2 lo = poly[0], hi = poly[0];  // its bounding box: an eye a micrometre outside it is not in it
  for (const Vec2& v : poly) lo = lo.cwiseMin(v), hi = hi.cwiseMax(v);
  const bool in_box = eye.x() >= lo.x() - 1e-6 && eye.x() <= hi.x() + 1e-6 && eye.y() >= lo.y() - 1e-6 && eye.y() <= hi.y() + 1e-6;
  // Wholly farther than the target's farthest corner: behind it on every line (asked before the
  // angles, whose arc tangents cost more than the distance).
  out->distance = DistanceFromEye(eye, poly, in_box);
  if (out->distance > f.reach) return false;
  const size_t first = angles->size();
  out->lo = kInf, out->hi = -kInf;
  for (const Vec2& v : poly) {
    const double a = RelAngle(f.ref, v - eye);
    angles->push_back(a);
    out->lo = std::min(out->lo, a);
    out->hi = std::max(out->hi, a);
  }
  if (out->hi - out->lo > std::numbers::pi - 1e-9 || (in_box && PolygonContains(poly, eye, 1e-9))) out->lo = -kInf, out->hi = kInf;
  if (out->hi < f.lo - 1e-12 || out->lo > f.hi + 1e-12) {  // never in the way of a line to the target
    angles->resize(first);
    return false;
  }
  return true;
}

// The occluders that could stand between (Admit), with what the trace reads of each.
void CollectNearOccluders(const SightFrame& f, const std::vector<OccluderRef>& occluders, bool shortcuts, SightScratch* s) {
  Admitted a;
  for (size_t k = 0; k < occluders.size(); ++k) {
    const size_t first = s->angles.size();
    if (!Admit(f, *occluders[k].polygon, shortcuts, &s->angles, &a)) continue;
    s->near.push_back(k);
    s->span.push_back({a.lo, a.hi});
    s->first_angle.push_back(first);
    s->nearest.push_back(a.distance);
  }
}

// Every direction where the answer can change: the target's corners (FrameOf put their angles in
// already), the near occluders' corners and where their outlines cross the target's; sorted, within
// [lo, hi].
void CollectCuts(const SightFrame& e, const Polygon& target, const std::vector<OccluderRef>& occluders, SightScratch* s) {
  s->cuts.push_back(e.lo);
  s->cuts.push_back(e.hi);
  for (size_t k = 0; k < s->near.size(); ++k) {
    const Polygon& poly = *occluders[s->near[k]].polygon;
    for (size_t i = 0; i < poly.size(); ++i) {
      const Vec2& a = poly[i];
      const Vec2& b = poly[(i + 1) % poly.size()];
      s->cuts.push_back(s->angles[s->first_angle[k] + i]);
      for (size_t j = 0; j < target.size(); ++j) {
        const Segment os{a, b}, ts{target[j], target[(j + 1) % target.size()]};
        if (!SegmentsIntersect(os, ts)) continue;
        const ClosestPoints c = SegmentToSegment(os, ts);
        s->cuts.push_back(RelAngle(e.ref, c.on_a - e.eye));
      }
    }
  }
  std::sort(s->cuts.begin(), s->cuts.end());
  s->cuts.erase(std::remove_if(s->cuts.begin(), s->cuts.end(), [&](double a) { return a < e.lo || a > e.hi; }), s->cuts.end());
}

// The angle's shares so far, and the widest clear and obscured bundles' points on the target.
struct SightTally {
  double clear = 0, obscured = 0, blocked = 0, best_clear = -1, best_obscured = -1;  // rad
  Vec2 clear_point, obscured_point;                                                   // table mm
};

// The line that decides interval i between the cuts: from the eye, in the interval's middle direction
// `mid`, to where it meets the target (`t` mm on). False when the interval is too narrow to count or
// its line misses the target. Both sweeps below take their lines from here: the very same lines.
struct IntervalLine {
  Segment line;
  double width = 0, mid = 0, t = 0;
};
bool LineOf(const Vec2& eye, const Vec2& ref, const Polygon& target, const std::vector<double>& cuts, size_t i, IntervalLine* l) {
  l->width = cuts[i + 1] - cuts[i];
  if (l->width < 1e-12) return false;
  l->mid = (cuts[i] + cuts[i + 1]) / 2.0;
  const Vec2 dir = Rotated(ref, l->mid);
  l->t = RayEntry(eye, dir, target);
  if (!std::isfinite(l->t)) return false;
  l->line = {eye, eye + l->t * dir};
  return true;
}

// Whether near occluder k holds more than the tolerance of the line.
bool Holds(const SightScratch& s, const std::vector<OccluderRef>& occluders, size_t k, const IntervalLine& l,
           const SightOptions& options) {
  if (l.mid < s.span[k].first - 1e-12 || l.mid > s.span[k].second + 1e-12) return false;
  // Every point of the line is within t of the eye: an occluder wholly further (by more than
  // rounding) is behind where this line meets the target and has nothing of it inside.
  if (s.nearest[k] > l.t + 1e-6) return false;
  const OccluderRef& o = occluders[s.near[k]];
  const double inside = o.convex ? SegmentLengthInsideConvex(l.line, *o.polygon) : SegmentLengthInside(l.line, *o.polygon);
  return !(inside <= options.tolerance_mm);
}

// One line per interval between cuts decides it: blocked when a blocking occluder holds more than the
// tolerance of it, else obscured when an obscuring one does, else clear.
void SweepIntervals(const Vec2& eye, const Vec2& ref, const Polygon& target, const std::vector<OccluderRef>& occluders,
                    const SightOptions& options, SightScratch* s, SightTally* tally) {
  IntervalLine l;
  for (size_t i = 0; i + 1 < s->cuts.size(); ++i) {
    if (!LineOf(eye, ref, target, s->cuts, i, &l)) continue;
    bool is_blocked = false;
    s->over.clear();
    for (size_t k = 0; k < s->near.size(); ++k) {
      if (!Holds(*s, occluders, k, l, options)) continue;
      const OccluderRef& o = occluders[s->near[k]];
      if (o.effect == SightEffect::kBlocks) {
        is_blocked = true;
        s->blocking.push_back(o.tag);
      } else {
        s->over.push_back(o.tag);
      }
    }
    if (is_blocked) {
      tally->blocked += l.width;
    } else if (!s->over.empty()) {
      tally->obscured += l.width;
      s->obscuring.insert(s->obscuring.end(), s->over.begin(), s->over.end());
      if (l.width > tally->best_obscured) tally->best_obscured = l.width, tally->obscured_point = l.line.b;
    } else {
      tally->clear += l.width;
      if (l.width > tally->best_clear) tally->best_clear = l.width, tally->clear_point = l.line.b;
    }
  }
}

// SweepIntervals' `visible` alone: whether some interval's line is not blocked, found by stopping at
// the first such line and, on each line, at the first blocker (the last line's blocker asked first:
// neighbouring lines are mostly blocked by the same unit). Obscuring occluders do not change it.
bool AnyLineUnblocked(const Vec2& eye, const Vec2& ref, const Polygon& target, const std::vector<OccluderRef>& occluders,
                      const SightOptions& options, const SightScratch& s) {
  constexpr size_t kNone = static_cast<size_t>(-1);
  size_t last = kNone;
  IntervalLine l;
  for (size_t i = 0; i + 1 < s.cuts.size(); ++i) {
    if (!LineOf(eye, ref, target, s.cuts, i, &l)) continue;
    bool blocked = last != kNone && Holds(s, occluders, last, l, options);
    for (size_t k = 0; k < s.near.size() && !blocked; ++k) {
      if (k == last || occluders[s.near[k]].effect != SightEffect::kBlocks) continue;
      if (Holds(s, occluders, k, l, options)) blocked = true, last = k;
    }
    if (!blocked) return true;
  }
  return false;
}

// A convex occluder (3 or 4 corners) with every edge moved `delta` inwards: false unless each of its
// corners lies at least delta (less a nanometre) inside every edge of the occluder, checked, so that
// the disc of radius delta about any point of the shrunk polygon lies in the occluder.
bool Shrunk(const Polygon& p, double delta, std::array<Vec2, 4>* out) {
  const size_t n = p.size();
  if (n < 3 || n > 4) return false;
  const double turn = SignedAreaOf(p) > 0 ? 1.0 : -1.0;
  std::array<Vec2, 4> normal, on_line;  // each edge's inward unit normal, and a point of its moved line
  for (size_t i = 0; i < n; ++i) {
    const Vec2 e = p[(i + 1) % n] - p[i];
    const double len = e.norm();
    if (!(len > 1e-9)) return false;
    normal[i] = turn * Vec2(-e.y(), e.x()) / len;
    on_line[i] = p[i] + delta * normal[i];
  }
  for (size_t i = 0; i < n; ++i) {  // corner i: where the moved lines of edges i - 1 and i meet
    const size_t h = (i + n - 1) % n;
    const Vec2 eh = p[i] - p[h], ei = p[(i + 1) % n] - p[i];
    const double denom = Cross(eh, ei);
    if (std::abs(denom) < 1e-12) return false;
    (*out)[i] = on_line[h] + (Cross(on_line[i] - on_line[h], ei) / denom) * eh;
  }
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < n; ++j)
      if (!(normal[j].dot((*out)[i] - p[j]) >= delta - 1e-9)) return false;
  return true;
}

// Whether the whole of `p` comes before the whole target on every line from the eye that meets both:
// some axis (the view's, or an edge normal of either) puts the eye and all of p below all the target.
bool AllBefore(const Vec2& eye, const Vec2& ref, const Polygon& p, const Polygon& target) {
  auto below = [&](const Vec2& axis) {
    double p_lo = kInf, p_hi = -kInf, t_lo = kInf, t_hi = -kInf;
    for (const Vec2& v : p) p_lo = std::min(p_lo, axis.dot(v)), p_hi = std::max(p_hi, axis.dot(v));
    for (const Vec2& v : target) t_lo = std::min(t_lo, axis.dot(v)), t_hi = std::max(t_hi, axis.dot(v));
    const double e = axis.dot(eye);
    return (p_hi + 1e-6 < t_lo && e + 1e-6 < t_lo) || (p_lo - 1e-6 > t_hi && e - 1e-6 > t_hi);
  };
  if (below(ref)) return true;
  for (const Polygon* q : {&p, &target})
    for (size_t i = 0; i < q->size(); ++i) {
      const Vec2 e = (*q)[(i + 1) % q->size()] - (*q)[i];
      if (below(Vec2(-e.y(), e.x()))) return true;
    }
  return false;
}

// True only when no line to the target can be unblocked, whatever the cuts: the near convex blockers,
// each shrunk by delta (more than half the tolerance, by 0.05 mm: far above rounding), cover every
// direction to the target, and each stands wholly before it. A line in the direction of a shrunk
// blocker (the eye outside it: a finite span) passes through a point whose delta-disc lies in the
// blocker, before the line meets the target, so it runs at least 2 delta inside: blocked.
bool SurelyHidden(const SightFrame& e, const Polygon& target, const std::vector<OccluderRef>& occluders, const SightOptions& options,
                  SightScratch* s) {
  const double delta = options.tolerance_mm / 2.0 + 0.05;
  s->cover.clear();
  std::array<Vec2, 4> shrunk;
  for (size_t k = 0; k < s->near.size(); ++k) {
    const OccluderRef& o = occluders[s->near[k]];
    if (o.effect != SightEffect::kBlocks || !o.convex || !std::isfinite(s->span[k].first)) continue;
    if (!Shrunk(*o.polygon, delta, &shrunk) || !AllBefore(e.eye, e.ref, *o.polygon, target)) continue;
    double lo = kInf, hi = -kInf;
    for (size_t i = 0; i < o.polygon->size(); ++i) {
      const double a = RelAngle(e.ref, shrunk[i] - e.eye);
      lo = std::min(lo, a), hi = std::max(hi, a);
    }
    if (hi - lo >= std::numbers::pi - 1e-6 || hi - 1e-9 < e.lo || lo + 1e-9 > e.hi) continue;
    s->cover.push_back({lo + 1e-9, hi - 1e-9});
  }
  std::sort(s->cover.begin(), s->cover.end());
  double reached = e.lo;  // every direction from e.lo to here is covered
  for (const auto& [lo, hi] : s->cover) {
    if (lo > reached) return false;
    reached = std::max(reached, hi);
    if (reached >= e.hi) return true;
  }
  return false;
}

void SortedUnique(const std::vector<int>& tags, std::vector<int>* out) {
  out->assign(tags.begin(), tags.end());
  std::sort(out->begin(), out->end());
  out->erase(std::unique(out->begin(), out->end()), out->end());
}

}  // namespace

SightResult TraceSightByRef(const Vec2& eye, const Polygon& target, const std::vector<OccluderRef>& occluders,
                       const SightOptions& options) {
  SightResult r;
  if (target.size() < 3) return r;
  if (PolygonContains(target, eye, 1e-9)) {
    r.visible = r.eye_touches_target = true;
    r.subtended_deg = 180.0;
    r.clear_share = 1.0;
    r.seen_point = eye;
    return r;
  }
  Vec2 centroid(0, 0);
  for (const Vec2& v : target) centroid += v;
  centroid /= static_cast<double>(target.size());
  const Vec2 ref = (centroid - eye).normalized();
  SightScratch& s = ScratchForSight();
  for (auto* v : {&s.near, &s.first_angle}) v->clear();
  for (auto* v : {&s.angles, &s.nearest, &s.cuts}) v->clear();
  for (auto* v : {&s.blocking, &s.obscuring, &s.over}) v->clear();
  s.span.clear();
  const SightFrame e = FrameOf(eye, ref, target, &s.cuts);
  if (!(e.hi > e.lo)) return r;
  CollectNearOccluders(e, occluders, options.shortcuts, &s);
  if (options.need != SightNeed::kAll && SurelyHidden(e, target, occluders, options, &s)) return r;
  CollectCuts(e, target, occluders, &s);
  if (options.need == SightNeed::kVisible) {
    r.visible = AnyLineUnblocked(eye, ref, target, occluders, options, s);
    return r;
  }
  SightTally tally{0, 0, 0, -1, -1, centroid, centroid};
  SweepIntervals(eye, ref, target, occluders, options, &s, &tally);
  const double total = tally.clear + tally.obscured + tally.blocked;
  r.subtended_deg = RadToDeg(e.hi - e.lo);
  if (total > 0) {
    r.clear_share = tally.clear / total;
    r.obscured_share = tally.obscured / total;
    r.blocked_share = tally.blocked / total;
  }
  r.visible = tally.clear + tally.obscured > 0;
  r.seen_point = tally.best_clear >= 0 ? tally.clear_point : tally.obscured_point;
  SortedUnique(s.blocking, &r.blocking_tags);
  SortedUnique(s.obscuring, &r.obscuring_tags);
  return r;
}

SightResult TraceSight(const Vec2& eye, const Polygon& target, const std::vector<Occluder>& occluders,
                       const SightOptions& options) {
  std::vector<OccluderRef> refs;
  refs.reserve(occluders.size());
  for (const Occluder& o : occluders) refs.push_back({&o.polygon, o.effect, o.tag, ConvexForSight(o.polygon)});
  return TraceSightByRef(eye, target, refs, options);
}

}  // namespace vedette::geom
