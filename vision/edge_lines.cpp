#include "vision/edge_lines.h"

#include <algorithm>
#include <cmath>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace vedette::vision {

bool EdgeLineOptions::Check(std::string* error) const {
  auto fail = [&](const std::string& m) { if (error) *error = m; return false; };
  if (!(search_px > 0 && search_px <= 4)) return fail("search_px must be in (0, 4] px");
  if (passes < 1 || passes > 2) return fail("passes must be 1 or 2");
  if (!(profiles_per_px > 0)) return fail("profiles_per_px must be positive");
  if (min_profiles < 4 || max_profiles < min_profiles || max_profiles > 64)
    return fail("profiles: need 4 <= min_profiles <= max_profiles <= 64");
  if (!(max_shift_px > 0)) return fail("max_shift_px must be positive (px)");
  return true;
}

namespace {

struct EdgeLine {
  cv::Point2d n;  // unit normal
  double d = 0;   // n . p = d on the line
};

// Total least squares line through p[0..n) (direction = the scatter matrix's major axis).
EdgeLine FitLine(const cv::Point2d* p, int n) {
  cv::Point2d m(0, 0);
  for (int i = 0; i < n; ++i) m += p[i];
  m /= double(n);
  double sxx = 0, sxy = 0, syy = 0;
  for (int i = 0; i < n; ++i) {
    const cv::Point2d d = p[i] - m;
    sxx += d.x * d.x, sxy += d.x * d.y, syy += d.y * d.y;
  }
  const double theta = 0.5 * std::atan2(2 * sxy, sxx - syy);
  EdgeLine l;
  l.n = {-std::sin(theta), std::cos(theta)};
  l.d = l.n.dot(m);
  return l;
}

// np bilinear samples from (x0, y0) in steps (ox, oy), all inside the image, into prof, with their
// range. This is most of a tracked frame's edge work, so four samples go at a time where SSE2 is
// there; both paths do the same float operations in the same order, so they agree to the bit.
inline void SampleProfile(const uchar* data, size_t stride, float x0, float y0, float ox, float oy, int np,
                          float* prof, float* lo, float* hi) {
  int j = 0;
#if defined(__SSE2__)
  __m128 vlo = _mm_set1_ps(*lo), vhi = _mm_set1_ps(*hi);
  const __m128 one = _mm_set1_ps(1.0f);
  for (; j + 4 <= np; j += 4) {
    const __m128 jv = _mm_cvtepi32_ps(_mm_setr_epi32(j, j + 1, j + 2, j + 3));
    const __m128 x = _mm_add_ps(_mm_set1_ps(x0), _mm_mul_ps(jv, _mm_set1_ps(ox)));
    const __m128 y = _mm_add_ps(_mm_set1_ps(y0), _mm_mul_ps(jv, _mm_set1_ps(oy)));
    const __m128i xi = _mm_cvttps_epi32(x), yi = _mm_cvttps_epi32(y);
    const __m128 fx = _mm_sub_ps(x, _mm_cvtepi32_ps(xi)), fy = _mm_sub_ps(y, _mm_cvtepi32_ps(yi));
    alignas(16) int xs[4], ys[4];
    _mm_store_si128(reinterpret_cast<__m128i*>(xs), xi);
    _mm_store_si128(reinterpret_cast<__m128i*>(ys), yi);
    // Each pixel pair of a row in one 16-bit load: the left pixel in the low byte.
    // (Built in registers: a vector loaded from four scalar stores stalls on store forwarding.)
    const uchar* r[4];
    for (int k = 0; k < 4; ++k) r[k] = data + ys[k] * stride + xs[k];
    auto pair = [](const uchar* p) { return int(p[0]) | (int(p[1]) << 8); };
    const __m128i low = _mm_set1_epi32(0xff);
    const __m128i tp = _mm_setr_epi32(pair(r[0]), pair(r[1]), pair(r[2]), pair(r[3]));
    const __m128i bp = _mm_setr_epi32(pair(r[0] + stride), pair(r[1] + stride), pair(r[2] + stride), pair(r[3] + stride));
    const __m128 p00 = _mm_cvtepi32_ps(_mm_and_si128(tp, low)), p01 = _mm_cvtepi32_ps(_mm_srli_epi32(tp, 8));
    const __m128 p10 = _mm_cvtepi32_ps(_mm_and_si128(bp, low)), p11 = _mm_cvtepi32_ps(_mm_srli_epi32(bp, 8));
    const __m128 gx = _mm_sub_ps(one, fx), gy = _mm_sub_ps(one, fy);
    const __m128 top = _mm_add_ps(_mm_mul_ps(gx, p00), _mm_mul_ps(fx, p01));
    const __m128 bottom = _mm_add_ps(_mm_mul_ps(gx, p10), _mm_mul_ps(fx, p11));
    const __m128 v = _mm_add_ps(_mm_mul_ps(gy, top), _mm_mul_ps(fy, bottom));
    _mm_storeu_ps(prof + j, v);
    vlo = _mm_min_ps(vlo, v), vhi = _mm_max_ps(vhi, v);
  }
  alignas(16) float l4[4], h4[4];
  _mm_store_ps(l4, vlo);
  _mm_store_ps(h4, vhi);
  for (int k = 0; k < 4; ++k) *lo = std::min(*lo, l4[k]), *hi = std::max(*hi, h4[k]);
#endif
  for (; j < np; ++j) {
    const float x = x0 + j * ox, y = y0 + j * oy;
    const int xi = int(x), yi = int(y);
    const float fx = x - xi, fy = y - yi;
    const uchar* r0 = data + yi * stride + xi;
    const uchar* r1 = r0 + stride;
    const float v = (1 - fy) * ((1 - fx) * r0[0] + fx * r0[1]) + fy * ((1 - fx) * r1[0] + fx * r1[1]);
    prof[j] = v;
    *lo = std::min(*lo, v), *hi = std::max(*hi, v);
  }
}

// One side a -> b, outward normal `out`: edge points from profiles across the side, each the
// centroid of the dark-to-light rise around its steepest part (unbiased for a symmetrically blurred
// step; a parabola through the derivative's peak is fooled by bilinear sampling, whose derivative is
// flat between pixel rows when the edge runs along the pixel grid: that cost 0.5 px on axis-aligned
// edges), away from the corners where the neighbouring sides bend the profile; then the total least
// squares line with one round of outlier rejection.
bool FitEdgeLine(const cv::Mat& g, const cv::Point2d& a, const cv::Point2d& b, const cv::Point2d& out, double cell_px,
                      double search_px, const EdgeLineOptions& o, EdgeLine* line) {
  const cv::Point2d ab = b - a;
  const double len = std::hypot(ab.x, ab.y);
  if (len < 4) return false;
  const cv::Point2d t = ab / len;
  const double reach = std::min(search_px, 0.9 * cell_px);
  constexpr double kStep = 0.25;
  const int half = std::max(2, int(std::ceil(reach / kStep)));
  // The edge is looked for within +-reach, but the profile runs 1 px further on both sides, so the
  // rise around an edge near the end of the search is measured (nearly) whole: a profile cut at
  // +-reach clips the rise's far tail and pulls the centroid back towards the prediction (measured:
  // a start 0.5 px off kept half of its error). The centroid takes the rise within 1.5 px of its
  // steepest point, as the detector's edge model does.
  const int w = int(std::ceil(1.5 / kStep));
  const int ext = half + int(std::ceil(1.0 / kStep));
  const int n_samples = std::min(64, std::clamp(int(len * o.profiles_per_px), o.min_profiles, o.max_profiles));
  const double margin = std::min(0.25 * len, std::max(0.75 * cell_px, 1.5));
  const int np = 2 * ext + 1;
  float prof[96];
  if (np > 96) return false;
  // Every frame refines dozens of markers: the points live on the stack (max_profiles <= 64).
  cv::Point2d pts[64];
  int n_pts = 0;
  const float ox = float(kStep * out.x), oy = float(kStep * out.y);
  const float xmax = float(g.cols) - 1.001f, ymax = float(g.rows) - 1.001f;
  const size_t stride = g.step[0];
  for (int i = 0; i < n_samples; ++i) {
    const double s = margin + (len - 2 * margin) * (i + 0.5) / n_samples;
    const cv::Point2d c = a + s * t;
    const float x0 = float(c.x) - ext * ox, y0 = float(c.y) - ext * oy;
    const float x1 = float(c.x) + ext * ox, y1 = float(c.y) + ext * oy;
    if (std::min(x0, x1) < 0 || std::min(y0, y1) < 0 || std::max(x0, x1) > xmax || std::max(y0, y1) > ymax) continue;
    float lo = 255, hi = 0;
    SampleProfile(g.data, stride, x0, y0, ox, oy, np, prof, &lo, &hi);
    if (hi - lo < 12) continue;  // no edge here (occluded, washed out)
    // Steepest rise within the search (first differences d_j = prof[j+1] - prof[j] sit at j + 0.5).
    const int m = np - 1;
    int best = -1;
    float best_d = 0;
    const int lo_j = ext - half, hi_j = ext + half - 1;  // differences whose position is within +-reach
    for (int j = lo_j; j <= hi_j; ++j) {
      const float d = prof[j + 1] - prof[j];
      if (d > best_d) best_d = d, best = j;
    }
    if (best <= lo_j || best >= hi_j) continue;  // the steepest rise is at the search's end: not this edge
    int j0 = best, j1 = best;
    while (j0 > 0 && j0 > best - w && prof[j0] - prof[j0 - 1] > 0) --j0;
    while (j1 < m - 1 && j1 < best + w && prof[j1 + 2] - prof[j1 + 1] > 0) ++j1;
    double sw = 0, swx = 0;
    for (int j = j0; j <= j1; ++j) {
      const double d = prof[j + 1] - prof[j];
      sw += d, swx += d * (j + 0.5);
    }
    if (sw <= 0) continue;
    pts[n_pts++] = c + ((swx / sw - ext) * kStep) * out;
  }
  const int need = std::max(4, n_samples / 3);
  if (n_pts < need) return false;
  *line = FitLine(pts, n_pts);
  double res[64], sorted[64];
  for (int i = 0; i < n_pts; ++i) sorted[i] = res[i] = std::abs(line->n.dot(pts[i]) - line->d);
  std::nth_element(sorted, sorted + n_pts / 2, sorted + n_pts);
  const double thr = std::max(0.15, 3.0 * 1.4826 * sorted[n_pts / 2]);
  int n_in = 0;
  for (int i = 0; i < n_pts; ++i)
    if (res[i] <= thr) pts[n_in++] = pts[i];
  if (n_in < need) return false;
  if (n_in < n_pts) *line = FitLine(pts, n_in);
  return true;
}

}  // namespace

bool RefineEdgeLines(const EdgeLineOptions& o, const cv::Mat& gray, int cells,
                           std::array<cv::Point2f, 4>* corners_px) {
  if (gray.empty() || gray.type() != CV_8UC1 || cells < 3) return false;
  auto area_of = [](const std::array<cv::Point2d, 4>& q) {
    double a = 0;
    for (int i = 0; i < 4; ++i) a += 0.5 * (q[i].x * q[(i + 1) % 4].y - q[(i + 1) % 4].x * q[i].y);
    return a;
  };
  std::array<cv::Point2d, 4> start;
  double side = 0;
  for (int i = 0; i < 4; ++i) start[i] = (*corners_px)[i];
  for (int i = 0; i < 4; ++i) side += 0.25 * cv::norm(start[(i + 1) % 4] - start[i]);
  const double area = area_of(start);
  if (!(std::abs(area) >= 9)) return false;
  std::array<cv::Point2d, 4> q = start;
  for (int pass = 0; pass < o.passes; ++pass) {
    const cv::Point2d centre = 0.25 * (q[0] + q[1] + q[2] + q[3]);
    std::array<EdgeLine, 4> lines;
    for (int i = 0; i < 4; ++i) {
      const cv::Point2d a = q[i], b = q[(i + 1) % 4];
      cv::Point2d t = b - a;
      t /= std::max(1e-9, cv::norm(t));
      cv::Point2d n(t.y, -t.x);
      if (n.dot(0.5 * (a + b) - centre) < 0) n = -n;
      const double search = pass == 0 ? o.search_px : std::min(o.search_px, 1.0);
      if (!FitEdgeLine(gray, a, b, n, side / cells, search, o, &lines[i])) return false;
    }
    std::array<cv::Point2d, 4> r;
    for (int i = 0; i < 4; ++i) {
      const EdgeLine &l1 = lines[(i + 3) % 4], &l2 = lines[i];
      const double det = l1.n.x * l2.n.y - l1.n.y * l2.n.x;
      if (std::abs(det) < 1e-9) return false;
      r[i] = cv::Point2d((l1.d * l2.n.y - l1.n.y * l2.d) / det, (l1.n.x * l2.d - l1.d * l2.n.x) / det);
      if (!(cv::norm(r[i] - start[i]) <= o.max_shift_px)) return false;
    }
    if (area_of(r) * area <= 0) return false;
    q = r;
  }
  for (int i = 0; i < 4; ++i) (*corners_px)[i] = cv::Point2f(float(q[i].x), float(q[i].y));
  return true;
}

}  // namespace vedette::vision
