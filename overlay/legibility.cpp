#include "overlay/legibility.h"

#include <algorithm>
#include <cmath>

#include "overlay/contrast.h"
#include "overlay/label_card.h"
#include "overlay/label_layout.h"

namespace vedette::overlay {

bool LegibilityOptions::Check(std::string* error) const {
  if (!(overlap_tolerance_px >= 0)) {
    if (error) *error = "legibility: overlap_tolerance_px must be >= 0 px";
    return false;
  }
  return true;
}

namespace {

// The interval [lo, hi] of the points' projections on `axis`.
template <size_t N>
void ProjectOnAxis(const std::array<cv::Point2f, N>& pts, const cv::Point2d& axis, double* lo, double* hi) {
  *lo = *hi = pts[0].x * axis.x + pts[0].y * axis.y;
  for (size_t i = 1; i < N; ++i) {
    const double d = pts[i].x * axis.x + pts[i].y * axis.y;
    *lo = std::min(*lo, d);
    *hi = std::max(*hi, d);
  }
}

}  // namespace

bool BoxOverlapsQuad(const cv::Rect2f& box, const MarkerQuad& quad, double tolerance_px) {
  // Separating axes of two convex shapes: the box's two and the quad's four edge normals. The shapes
  // share area exactly when their projections overlap by more than the tolerance on every one.
  const std::array<cv::Point2f, 4> corners = {cv::Point2f(box.x, box.y), cv::Point2f(box.x + box.width, box.y),
                                              cv::Point2f(box.x + box.width, box.y + box.height),
                                              cv::Point2f(box.x, box.y + box.height)};
  std::array<cv::Point2d, 6> axes = {cv::Point2d(1, 0), cv::Point2d(0, 1)};
  for (int i = 0; i < 4; ++i) {
    const cv::Point2f e = quad[(i + 1) % 4] - quad[i];
    const double len = std::hypot(e.x, e.y);
    axes[2 + i] = len > 1e-9 ? cv::Point2d(-e.y / len, e.x / len) : cv::Point2d(1, 0);
  }
  for (const cv::Point2d& axis : axes) {
    double a0, a1, b0, b1;
    ProjectOnAxis(corners, axis, &a0, &a1);
    ProjectOnAxis(quad, axis, &b0, &b1);
    // 1e-6 px: shapes that only touch stay apart whatever the rounding of the projections.
    if (std::min(a1, b1) - std::max(a0, b0) <= tolerance_px + 1e-6) return false;
  }
  return true;
}

Legibility MeasureLegibility(const LegibilityOptions& options, const DrawCommands& commands,
                             const std::vector<MarkerQuad>& markers_px) {
  Legibility out;
  const std::vector<LabelCommand>& labels = commands.labels;
  out.labels = static_cast<int>(labels.size());
  std::vector<cv::Rect2f> boxes;
  boxes.reserve(labels.size());
  for (const LabelCommand& l : labels) boxes.push_back(CardBox(l));
  const float tol = static_cast<float>(options.overlap_tolerance_px);
  for (size_t i = 0; i < boxes.size(); ++i) {
    const cv::Rect2f& a = boxes[i];
    for (size_t j = i + 1; j < boxes.size(); ++j) {
      const cv::Rect2f& b = boxes[j];
      const float w = std::min(a.x + a.width, b.x + b.width) - std::max(a.x, b.x);
      const float h = std::min(a.y + a.height, b.y + b.height) - std::max(a.y, b.y);
      if (w > tol && h > tol) out.overlapping.emplace_back(static_cast<int>(i), static_cast<int>(j));
    }
    for (size_t m = 0; m < markers_px.size(); ++m)
      if (BoxOverlapsQuad(a, markers_px[m], options.overlap_tolerance_px))
        out.over_marker.emplace_back(static_cast<int>(i), static_cast<int>(m));
    out.min_text_px = std::min(out.min_text_px, static_cast<double>(labels[i].height_px));
    // Every line of a card in its own colour.
    double c = WorstTextContrast(labels[i].text_rgba, labels[i].background_rgba);
    for (std::uint32_t rgba : labels[i].line_rgba) c = std::min(c, WorstTextContrast(rgba, labels[i].background_rgba));
    if (c < out.min_contrast) {
      out.min_contrast = c;
      out.min_contrast_label = static_cast<int>(i);
    }
  }
  return out;
}

}  // namespace vedette::overlay
