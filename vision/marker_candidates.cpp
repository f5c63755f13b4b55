#include "vision/marker_candidates.h"

#include <algorithm>
#include <array>
#include <cmath>

#include <opencv2/imgproc.hpp>

namespace vedette::vision {

bool CandidateOptions::Check(std::string* error) const {
  auto fail = [&](const std::string& m) { if (error) *error = m; return false; };
  if (!(min_side_px >= 4)) return fail("min_side_px must be >= 4 px");
  if (!(max_side_px > min_side_px)) return fail("max_side_px must exceed min_side_px");
  if (passes.empty()) return fail("passes: need at least one threshold pass");
  for (const ThresholdPass& p : passes) {
    if (p.window_px < 3 || p.window_px % 2 == 0) return fail("threshold windows must be odd and >= 3 px, got " + std::to_string(p.window_px));
    if (p.scale != 1 && p.scale != 2) return fail("threshold pass scale must be 1 or 2, got " + std::to_string(p.scale));
    if (!(p.min_side_px >= 0)) return fail("threshold pass min_side_px must be >= 0 px");
  }
  if (!(threshold_offset >= 0 && threshold_offset < 128)) return fail("threshold_offset must be in [0, 128) grey levels");
  if (!(polygon_accuracy > 0 && polygon_accuracy < 0.5)) return fail("polygon_accuracy must be in (0, 0.5)");
  if (!(min_corner_distance >= 0 && min_corner_distance < 0.5)) return fail("min_corner_distance must be in [0, 0.5)");
  if (min_distance_to_border_px < 0) return fail("min_distance_to_border_px must be >= 0");
  return true;
}

std::vector<ThresholdPass> ThresholdPassesFor(double min_side_px, int cells) {
  auto odd = [](double w) { int i = std::max(3, int(std::lround(w))); return i % 2 ? i : i + 1; };
  // One box about two and a half cells of the smallest marker wide: a pixel of its black border
  // then sees the light quiet zone and inner cells, so the border is dark against its mean at
  // every blur we render. Larger markers' borders come out hollow (only their edges are darker than
  // the mean) but their outer outline is still the marker's, so more boxes found nothing more on
  // the benchmark's 16 scenes (markers 6-220 px) while each cost as much as the first.
  // With cells of 8 px or more the outline is taken from the half-size image, at a quarter of the cost.
  const double cell = min_side_px / std::max(cells, 1);
  const int scale = cell >= 8 ? 2 : 1;
  return {{odd(2.5 * cell / scale + 1), scale, 0.0}};
}

namespace {

// Same corners up to a cyclic shift, within tol px on average.
bool SameQuad(const Quad& a, const Quad& b, double tol) {
  for (int s = 0; s < 4; ++s) {
    double d = 0;
    for (int i = 0; i < 4; ++i) d += cv::norm(a[i] - b[(i + s) % 4]);
    if (d < 4 * tol) return true;
  }
  return false;
}

}  // namespace

namespace {

// The quad's corners from lines fitted to the middle of each side's outline: the polygon's
// vertices are outline pixels where blur has rounded the corner off, a pixel or more from the
// corner the sides meet at; the lines meet there. Outline pixels are the outermost dark ones,
// about half a pixel inside the threshold's boundary: the lines are moved out by that much.
std::array<cv::Point2d, 4> CornersFromOutline(const std::vector<cv::Point>& outline, const std::vector<cv::Point>& poly) {
  std::array<cv::Point2d, 4> v;
  for (int i = 0; i < 4; ++i) v[i] = cv::Point2d(poly[i]);
  std::array<size_t, 4> at{};
  for (int i = 0; i < 4; ++i) {
    const auto it = std::find(outline.begin(), outline.end(), poly[i]);
    if (it == outline.end()) return v;
    at[i] = size_t(it - outline.begin());
  }
  const cv::Point2d centre = 0.25 * (v[0] + v[1] + v[2] + v[3]);
  const size_t n = outline.size();
  std::array<cv::Vec3d, 4> lines;  // a x + b y = c, (a, b) unit, pointing out of the quad
  for (int i = 0; i < 4; ++i) {
    const size_t from = at[i], to = at[(i + 1) % 4];
    const size_t len = (to + n - from) % n;
    if (len < 5) return v;
    const size_t skip = len / 5;
    double sx = 0, sy = 0, sxx = 0, sxy = 0, syy = 0;
    int k = 0;
    for (size_t j = skip; j + skip <= len; ++j, ++k) {
      const cv::Point& p = outline[(from + j) % n];
      sx += p.x, sy += p.y;
    }
    if (k < 3) return v;
    const double mx = sx / k, my = sy / k;
    for (size_t j = skip; j + skip <= len; ++j) {
      const cv::Point& p = outline[(from + j) % n];
      const double dx = p.x - mx, dy = p.y - my;
      sxx += dx * dx, sxy += dx * dy, syy += dy * dy;
    }
    const double theta = 0.5 * std::atan2(2 * sxy, sxx - syy);
    cv::Point2d nrm(-std::sin(theta), std::cos(theta));
    if (nrm.dot(cv::Point2d(mx, my) - centre) < 0) nrm = -nrm;
    lines[i] = {nrm.x, nrm.y, nrm.x * mx + nrm.y * my + 0.5};
  }
  std::array<cv::Point2d, 4> out;
  for (int i = 0; i < 4; ++i) {
    // Corner i joins the side ending there (i - 1) and the side starting there (i).
    const cv::Vec3d& a = lines[(i + 3) % 4];
    const cv::Vec3d& b = lines[i];
    const double det = a[0] * b[1] - a[1] * b[0];
    if (std::abs(det) < 1e-6) return v;
    out[i] = {(a[2] * b[1] - a[1] * b[2]) / det, (a[0] * b[2] - a[2] * b[0]) / det};
    if (cv::norm(out[i] - v[i]) > 3.0) return v;
  }
  return out;
}

// Outlines of dark convex quads in one thresholded image; scale maps its pixels to the full
// image's (pixel centres at integers in both: full = scale * x + (scale - 1) / 2).
void CollectQuads(const CandidateOptions& o, const cv::Mat& gray, int window, int scale, double min_side_px,
                  std::vector<Quad>* out, std::vector<cv::Point2f>* centres, std::vector<float>* sides) {
  // cv::adaptiveThreshold's per-pixel table is several times slower than a box filter and one
  // vectorised comparison (dark: pixel + offset < local mean), which give the same image.
  cv::Mat mean, lifted, bin;
  cv::blur(gray, mean, cv::Size(window, window), cv::Point(-1, -1), cv::BORDER_REPLICATE);
  cv::add(gray, cv::Scalar(o.threshold_offset), lifted);
  cv::compare(lifted, mean, bin, cv::CMP_LT);
  std::vector<std::vector<cv::Point>> contours;
  cv::findContours(bin, contours, cv::RETR_LIST, cv::CHAIN_APPROX_NONE);
  // The size limits apply to the marker's side as its corners give it. A contour's point count is
  // not its length: a side at 45 degrees is s / sqrt(2) diagonal steps, so counting points made a
  // 20 px marker turned 45 degrees look 14 px and fall under a 14.4 px limit. Nor is the outline's
  // length the marker's perimeter: the outline runs through the outermost dark pixels, half a pixel
  // inside the edge, and cuts the corners blur has rounded (about 4 px short on a 19 px marker).
  // The outline's length (cv::arcLength, diagonal steps counted sqrt(2)) only makes a loose first
  // cut; the point count bounds it (length / sqrt(2) <= count <= length) for a cheaper one.
  const double min_len = std::max(4.0, 0.75 * 4 * min_side_px / scale);
  const double max_len = 1.25 * 4 * o.max_side_px / scale;
  const float border = float(o.min_distance_to_border_px) / scale;
  const size_t first_of_pass = out->size();
  std::vector<cv::Point> poly;
  for (const auto& c : contours) {
    if (double(c.size()) * std::sqrt(2.0) < min_len || double(c.size()) > max_len) continue;
    const double length = cv::arcLength(c, true);
    if (length < min_len || length > max_len) continue;
    cv::approxPolyDP(c, poly, length * o.polygon_accuracy, true);
    if (poly.size() != 4 || !cv::isContourConvex(poly)) continue;
    const double min_d = length * o.min_corner_distance;
    bool ok = true;
    for (int i = 0; i < 4 && ok; ++i) {
      const cv::Point d = poly[i] - poly[(i + 1) % 4];
      ok = double(d.x) * d.x + double(d.y) * d.y >= min_d * min_d;
      ok = ok && poly[i].x >= border && poly[i].y >= border && poly[i].x < gray.cols - border &&
           poly[i].y < gray.rows - border;
    }
    if (!ok) continue;
    Quad q;
    const float offset = 0.5f * float(scale - 1);
    const std::array<cv::Point2d, 4> corners = CornersFromOutline(c, poly);
    for (int i = 0; i < 4; ++i)
      q[i] = cv::Point2f(float(corners[i].x * scale) + offset, float(corners[i].y * scale) + offset);
    // Clockwise on screen (y down), as OpenCV orders its candidates.
    const cv::Point2f a = q[1] - q[0], b = q[2] - q[0];
    if (a.x * b.y - a.y * b.x < 0) std::swap(q[1], q[3]);
    const cv::Point2f centre = 0.25f * (q[0] + q[1] + q[2] + q[3]);
    const float side = 0.25f * float(cv::norm(q[1] - q[0]) + cv::norm(q[2] - q[1]) + cv::norm(q[3] - q[2]) + cv::norm(q[0] - q[3]));
    if (side < min_side_px || side > o.max_side_px) continue;
    // Another pass finds most markers again: keep the first.
    bool seen = false;
    for (size_t i = 0; i < first_of_pass && !seen; ++i)
      seen = std::abs((*sides)[i] - side) < 0.1f * side && cv::norm((*centres)[i] - centre) < 0.05f * side &&
             SameQuad((*out)[i], q, std::max(1.0, 0.02 * side));
    if (seen) continue;
    out->push_back(q);
    centres->push_back(centre);
    sides->push_back(side);
  }
}

}  // namespace

std::vector<Quad> FindMarkerCandidates(const CandidateOptions& o, const cv::Mat& gray) {
  CV_Assert(gray.type() == CV_8UC1);
  std::vector<Quad> out;
  std::vector<cv::Point2f> centres;
  std::vector<float> sides;
  cv::Mat half;
  for (const ThresholdPass& p : o.passes) {
    const double min_side = std::max(o.min_side_px, p.min_side_px);
    if (p.scale == 2) {
      if (half.empty()) cv::resize(gray, half, cv::Size(gray.cols / 2, gray.rows / 2), 0, 0, cv::INTER_AREA);
      CollectQuads(o, half, p.window_px, 2, min_side, &out, &centres, &sides);
    } else {
      CollectQuads(o, gray, p.window_px, 1, min_side, &out, &centres, &sides);
    }
  }
  return out;
}

}  // namespace vedette::vision
