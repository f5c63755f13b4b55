#include "vision/track_state.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "rules/geometry/base.h"
#include "vision/marker_geometry.h"

namespace vedette::vision {

std::string_view ToString(Visibility v) {
  switch (v) {
    case Visibility::kUnseen: return "unseen";
    case Visibility::kSeen: return "seen";
    case Visibility::kOccluded: return "occluded";
    case Visibility::kLifted: return "lifted";
    case Visibility::kRemoved: return "removed";
  }
  return "?";
}

std::string_view ToString(SpotLook s) {
  switch (s) {
    case SpotLook::kUnknown: return "unknown";
    case SpotLook::kHidden: return "hidden";
    case SpotLook::kEmpty: return "empty";
    case SpotLook::kMarkerThere: return "marker_there";
  }
  return "?";
}

bool VisibilityOptions::Check(std::string* error) const {
  auto fail = [&](const std::string& m) { if (error) *error = m; return false; };
  if (!(lift_confirm_s >= 0)) return fail("lift_confirm_s must be >= 0 (s)");
  if (!(removed_after_s > 0)) return fail("removed_after_s must be positive (s)");
  return true;
}

bool SpotOptions::Check(std::string* error) const {
  auto fail = [&](const std::string& m) { if (error) *error = m; return false; };
  if (!(ring_margin_mm > 0)) return fail("ring_margin_mm must be positive (mm)");
  if (ring_points < 8) return fail("ring_points must be at least 8");
  if (marker_grid < 2 || marker_grid > 16) return fail("marker_grid must be 2..16");
  if (!(diff_levels > 0 && diff_levels < 255)) return fail("diff_levels must be in (0, 255)");
  if (!(hidden_fraction > 0 && hidden_fraction < 1)) return fail("hidden_fraction must be in (0, 1)");
  if (!(marker_changed_fraction > 0 && marker_changed_fraction < 1)) return fail("marker_changed_fraction must be in (0, 1)");
  return true;
}

VisibilityStep UpdateVisibility(const VisibilityOptions& o, VisibilityState* s, bool observed, SpotLook look, double t) {
  VisibilityStep step;
  step.before = s->v;
  const double dt = s->v == Visibility::kUnseen ? 0.0 : std::max(0.0, t - s->last_t);
  s->last_t = t;
  if (observed) {
    step.appeared = s->v == Visibility::kUnseen;
    step.returned = s->v == Visibility::kLifted || s->v == Visibility::kRemoved;
    s->v = Visibility::kSeen;
    s->last_seen_t = t;
    s->empty_since_t = -1;
    s->empty_total_s = 0;
    return step;
  }
  switch (s->v) {
    case Visibility::kUnseen:
    case Visibility::kRemoved:
      return step;
    case Visibility::kSeen:
      s->missing_since_t = t;
      [[fallthrough]];
    case Visibility::kOccluded:
      if (look == SpotLook::kEmpty) {
        if (s->empty_since_t < 0) s->empty_since_t = t;
        if (t - s->empty_since_t >= o.lift_confirm_s - 1e-9) {
          s->v = Visibility::kLifted;
          s->empty_total_s = t - s->empty_since_t;
          step.lifted = true;
          return step;
        }
      } else {
        s->empty_since_t = -1;
      }
      if (s->v != Visibility::kOccluded) {
        s->v = Visibility::kOccluded;
        step.occluded = true;
      }
      return step;
    case Visibility::kLifted:
      // Only time the spot was seen empty counts towards "removed".
      if (look == SpotLook::kEmpty) s->empty_total_s += dt;
      if (s->empty_total_s >= o.removed_after_s - 1e-9) {
        s->v = Visibility::kRemoved;
        step.removed = true;
      }
      return step;
  }
  return step;
}

float GreyAt(const cv::Mat& image, double x, double y) {
  if (!(x >= 0 && y >= 0 && x <= image.cols - 1.001 && y <= image.rows - 1.001))
    return std::numeric_limits<float>::quiet_NaN();
  const int x0 = int(x), y0 = int(y);
  const float fx = float(x - x0), fy = float(y - y0);
  auto grey = [&](int xx, int yy) -> float {
    if (image.channels() == 1) return image.at<uchar>(yy, xx);
    const cv::Vec3b& p = image.at<cv::Vec3b>(yy, xx);
    return 0.114f * p[0] + 0.587f * p[1] + 0.299f * p[2];
  };
  return (1 - fy) * ((1 - fx) * grey(x0, y0) + fx * grey(x0 + 1, y0)) +
         fy * ((1 - fx) * grey(x0, y0 + 1) + fx * grey(x0 + 1, y0 + 1));
}

SpotSamples SampleSpot(const SpotOptions& o, const cv::Mat& image, const calib::CameraIntrinsics& k,
                       const calib::CameraFromTable& camera_from_table, const Unit& unit, const Pose& pose) {
  Unit placed = unit;
  placed.pose = pose;
  std::vector<cv::Point3d> ring;
  geom::Base fp = Footprint(placed);
  fp.width_mm += 2 * o.ring_margin_mm;
  fp.depth_mm += 2 * o.ring_margin_mm;
  const auto c = geom::Corners(fp);
  const double perimeter = 2 * (fp.width_mm + fp.depth_mm);
  for (int i = 0; i < o.ring_points; ++i) {
    double s = perimeter * (i + 0.5) / o.ring_points;
    for (int e = 0; e < 4; ++e) {
      const geom::Vec2 a = c[e], b = c[(e + 1) % 4];
      const double len = (b - a).norm();
      if (s <= len || e == 3) {
        const geom::Vec2 p = a + (b - a) * std::min(1.0, s / len);
        ring.emplace_back(p.x(), p.y(), 0.0);
        break;
      }
      s -= len;
    }
  }
  std::vector<cv::Point3d> marker;
  if (unit.marker) {
    const auto mc = MarkerCornersInTable(PlacementOf(placed));
    const int n = o.marker_grid;
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        const double u = (j + 0.5) / n, v = (i + 0.5) / n;
        marker.push_back((mc[0] * (1 - u) + mc[1] * u) * (1 - v) + (mc[3] * (1 - u) + mc[2] * u) * v);
      }
  }
  SpotSamples out;
  float x0 = 1e9f, y0 = 1e9f, x1 = -1e9f, y1 = -1e9f;
  auto sample = [&](const std::vector<cv::Point3d>& pts, std::vector<float>* v) {
    int inside = 0;
    if (pts.empty()) return true;
    for (const cv::Point2d& p : calib::ProjectToImage(k, camera_from_table, pts)) {
      if (std::isfinite(p.x) && std::isfinite(p.y))
        x0 = std::min(x0, float(p.x)), y0 = std::min(y0, float(p.y)), x1 = std::max(x1, float(p.x)), y1 = std::max(y1, float(p.y));
      const float g = std::isfinite(p.x) && std::isfinite(p.y) ? GreyAt(image, p.x, p.y) : std::numeric_limits<float>::quiet_NaN();
      v->push_back(g);
      inside += std::isfinite(g) ? 1 : 0;
    }
    return 2 * inside >= int(pts.size());
  };
  const bool a = sample(ring, &out.ring);
  const bool b = sample(marker, &out.marker);
  out.valid = a && b;
  if (x1 >= x0 && y1 >= y0)
    out.bounds_px = cv::Rect(cv::Point(int(std::floor(x0)) - 1, int(std::floor(y0)) - 1), cv::Point(int(std::ceil(x1)) + 2, int(std::ceil(y1)) + 2));
  return out;
}

namespace {

// Fraction of comparable samples that differ by more than diff_levels; -1 when too few compare.
double ChangedFraction(const std::vector<float>& a, const std::vector<float>& b, double levels) {
  if (a.size() != b.size() || a.empty()) return -1;
  int n = 0, changed = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    if (!std::isfinite(a[i]) || !std::isfinite(b[i])) continue;
    ++n;
    if (std::abs(a[i] - b[i]) > levels) ++changed;
  }
  return 2 * n >= int(a.size()) ? double(changed) / n : -1;
}

}  // namespace

SpotLook CompareSpot(const SpotOptions& o, const SpotSamples& reference, const SpotSamples& now) {
  if (!reference.valid || !now.valid) return SpotLook::kUnknown;
  const double ring = ChangedFraction(reference.ring, now.ring, o.diff_levels);
  const double marker = ChangedFraction(reference.marker, now.marker, o.diff_levels);
  if (ring < 0 || marker < 0) return SpotLook::kUnknown;
  if (ring > o.hidden_fraction) return SpotLook::kHidden;
  if (marker > o.marker_changed_fraction) return SpotLook::kEmpty;
  return SpotLook::kMarkerThere;
}

}  // namespace vedette::vision
