#include "vision/edge_lines.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

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

// What the bar model needs of a side: the marker's cells per side, border included, and one cell's
// width across the side (the neighbouring sides' extent along this side's normal, over the cells:
// under tilt it differs from this side's own cells), px.
struct BarCells {
  int cells = 6;
  double across_px = 0;
};

double SignedQuadArea(const std::array<cv::Point2d, 4>& q) {
  double a = 0;
  for (int i = 0; i < 4; ++i) a += 0.5 * (q[i].x * q[(i + 1) % 4].y - q[(i + 1) % 4].x * q[i].y);
  return a;
}

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

#if defined(__SSE2__)
// The top-left pixels of four samples at (xi, yi), px (inside the image). Offsets y * stride + x in
// one multiply-add of 16-bit halves where they fit (rows of up to 32767 bytes, every camera's; wider
// ones take the scalar path) instead of four scalar multiplies from the lanes stored and reloaded (a
// quarter of the sampling's instructions, issue 21).
inline void PixelAddresses(const uchar* data, size_t stride, __m128i xi, __m128i yi, const uchar* r[4]) {
  if (stride <= 32767) {
    const __m128i xy = _mm_or_si128(_mm_and_si128(xi, _mm_set1_epi32(0xffff)), _mm_slli_epi32(yi, 16));
    const __m128i off = _mm_madd_epi16(xy, _mm_set1_epi32(int((stride << 16) | 1)));
    r[0] = data + _mm_cvtsi128_si32(off);
    r[1] = data + _mm_cvtsi128_si32(_mm_shuffle_epi32(off, 1));
    r[2] = data + _mm_cvtsi128_si32(_mm_shuffle_epi32(off, 2));
    r[3] = data + _mm_cvtsi128_si32(_mm_shuffle_epi32(off, 3));
    return;
  }
  alignas(16) int xs[4], ys[4];
  _mm_store_si128(reinterpret_cast<__m128i*>(xs), xi);
  _mm_store_si128(reinterpret_cast<__m128i*>(ys), yi);
  for (int k = 0; k < 4; ++k) r[k] = data + ys[k] * stride + xs[k];
}
#endif

// np bilinear samples from (x0, y0) in steps (ox, oy), all inside the image, into prof, with their
// range. This is most of a tracked frame's edge work, so four samples go at a time where SSE2 is
// there; both paths do the same float operations in the same order, so they agree to the bit.
inline void SampleProfile(const uchar* data, size_t stride, float x0, float y0, float ox, float oy, int np,
                          float* prof, float* lo, float* hi) {
  int j = 0;
#if defined(__SSE2__)
  __m128 vlo = _mm_set1_ps(*lo), vhi = _mm_set1_ps(*hi);
  const __m128 one = _mm_set1_ps(1.0f), four = _mm_set1_ps(4.0f);
  // The sample numbers as floats, counted up by four (exact: small integers).
  __m128 jv = _mm_setr_ps(0.0f, 1.0f, 2.0f, 3.0f);
  for (; j + 4 <= np; j += 4, jv = _mm_add_ps(jv, four)) {
    const __m128 x = _mm_add_ps(_mm_set1_ps(x0), _mm_mul_ps(jv, _mm_set1_ps(ox)));
    const __m128 y = _mm_add_ps(_mm_set1_ps(y0), _mm_mul_ps(jv, _mm_set1_ps(oy)));
    const __m128i xi = _mm_cvttps_epi32(x), yi = _mm_cvttps_epi32(y);
    const __m128 fx = _mm_sub_ps(x, _mm_cvtepi32_ps(xi)), fy = _mm_sub_ps(y, _mm_cvtepi32_ps(yi));
    // Each pixel pair of a row in one 16-bit load, the left pixel in the low byte, inserted into the
    // low half of its 32-bit lane (pinsrw: fewer instructions than building the lanes from scalars;
    // a vector loaded from four scalar stores stalls on store forwarding).
    const uchar* r[4];
    PixelAddresses(data, stride, xi, yi, r);
    auto pair = [](const uchar* p) {
      uint16_t v;
      std::memcpy(&v, p, 2);
      return int(v);
    };
    const __m128i low = _mm_set1_epi32(0xff);
    __m128i tp = _mm_setzero_si128(), bp = _mm_setzero_si128();
    tp = _mm_insert_epi16(tp, pair(r[0]), 0), bp = _mm_insert_epi16(bp, pair(r[0] + stride), 0);
    tp = _mm_insert_epi16(tp, pair(r[1]), 2), bp = _mm_insert_epi16(bp, pair(r[1] + stride), 2);
    tp = _mm_insert_epi16(tp, pair(r[2]), 4), bp = _mm_insert_epi16(bp, pair(r[2] + stride), 4);
    tp = _mm_insert_epi16(tp, pair(r[3]), 6), bp = _mm_insert_epi16(bp, pair(r[3] + stride), 6);
    const __m128 p00 = _mm_cvtepi32_ps(_mm_and_si128(tp, low)), p01 = _mm_cvtepi32_ps(_mm_srli_epi32(tp, 8));
    const __m128 p10 = _mm_cvtepi32_ps(_mm_and_si128(bp, low)), p11 = _mm_cvtepi32_ps(_mm_srli_epi32(bp, 8));
    const __m128 gx = _mm_sub_ps(one, fx), gy = _mm_sub_ps(one, fy);
    const __m128 top = _mm_add_ps(_mm_mul_ps(gx, p00), _mm_mul_ps(fx, p01));
    const __m128 bottom = _mm_add_ps(_mm_mul_ps(gx, p10), _mm_mul_ps(fx, p11));
    const __m128 v = _mm_add_ps(_mm_mul_ps(gy, top), _mm_mul_ps(fy, bottom));
    _mm_storeu_ps(prof + j, v);
    vlo = _mm_min_ps(vlo, v), vhi = _mm_max_ps(vhi, v);
  }
  // The lanes' least and greatest (they started at *lo and *hi): halves, then neighbours.
  vlo = _mm_min_ps(vlo, _mm_shuffle_ps(vlo, vlo, 0x4e)), vhi = _mm_max_ps(vhi, _mm_shuffle_ps(vhi, vhi, 0x4e));
  vlo = _mm_min_ps(vlo, _mm_shuffle_ps(vlo, vlo, 0xb1)), vhi = _mm_max_ps(vhi, _mm_shuffle_ps(vhi, vhi, 0xb1));
  *lo = _mm_cvtss_f32(vlo), *hi = _mm_cvtss_f32(vhi);
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

// Weighted total least squares line (weights w[i] >= 0, not all 0).
EdgeLine FitLineWeighted(const cv::Point2d* p, const double* w, int n) {
  cv::Point2d m(0, 0);
  double sw = 0;
  for (int i = 0; i < n; ++i) m += w[i] * p[i], sw += w[i];
  m /= sw;
  double sxx = 0, sxy = 0, syy = 0;
  for (int i = 0; i < n; ++i) {
    const cv::Point2d d = p[i] - m;
    sxx += w[i] * d.x * d.x, sxy += w[i] * d.x * d.y, syy += w[i] * d.y * d.y;
  }
  const double theta = 0.5 * std::atan2(2 * sxy, sxx - syy);
  EdgeLine l;
  l.n = {-std::sin(theta), std::cos(theta)};
  l.d = l.n.dot(m);
  return l;
}

// The normal distribution's cdf and density from a table over [-6, 6] (linear between entries,
// 1e-5 off at most): a side's fit evaluates a few thousand.
struct GaussTable {
  static constexpr int kPerUnit = 64, kN = 12 * kPerUnit;
  float cdf[kN + 1], pdf[kN + 1];
  GaussTable() {
    for (int i = 0; i <= kN; ++i) {
      const double z = double(i) / kPerUnit - 6;
      cdf[i] = float(0.5 * std::erfc(-z / std::sqrt(2.0)));
      pdf[i] = float(std::exp(-0.5 * z * z) / std::sqrt(2 * CV_PI));
    }
  }
  void At(double z, double* c, double* p) const {
    const double t = std::clamp((z + 6) * kPerUnit, 0.0, double(kN) - 1e-9);
    const int i = int(t);
    const double f = t - i;
    *c = cdf[i] + f * (cdf[i + 1] - cdf[i]);
    *p = pdf[i] + f * (pdf[i + 1] - pdf[i]);
  }
};

// Cholesky factor L (lower triangle, row-major n x n, n <= 8) of a symmetric positive definite A, in place.
bool CholeskyInPlace(double* A, int n) {
  for (int j = 0; j < n; ++j) {
    double d = A[j * n + j];
    for (int k = 0; k < j; ++k) d -= A[j * n + k] * A[j * n + k];
    if (!(d > 1e-12)) return false;
    d = std::sqrt(d);
    A[j * n + j] = d;
    for (int i = j + 1; i < n; ++i) {
      double v = A[i * n + j];
      for (int k = 0; k < j; ++k) v -= A[i * n + k] * A[j * n + k];
      A[i * n + j] = v / d;
    }
  }
  return true;
}

// Solves L L^T x = b in place (L from CholeskyInPlace).
void SolveCholesky(const double* L, double* b, int n) {
  for (int i = 0; i < n; ++i) {
    for (int k = 0; k < i; ++k) b[i] -= L[i * n + k] * b[k];
    b[i] /= L[i * n + i];
  }
  for (int i = n - 1; i >= 0; --i) {
    for (int k = i + 1; k < n; ++k) b[i] -= L[k * n + i] * b[k];
    b[i] /= L[i * n + i];
  }
}

bool SolveSpd(double* A, double* b, int n) {
  if (!CholeskyInPlace(A, n)) return false;
  SolveCholesky(A, b, n);
  return true;
}

// The bar model of a profile y_j at x_j = x0 + j h (px, outward), j < n: o + sum_k a_k Phi((x - e - k c) / s),
// the edge at e and its neighbours whole cells away with free amplitudes (the black border's inner
// edge against a light code cell, the white quiet zone's outer edge against the base, the next code
// cell), one Gaussian blur s for all. Fitting the neighbours is what takes their pull off the edge:
// a centroid of the rise is pulled towards whichever neighbour falls more, and so moves with the code.
// Damped Gauss-Newton on all parameters from (e0, *s_io); on success *s_io is the fitted blur, px.
// False: no rise, or the fit ran off (a blur outside 0.25-5 px, the edge moved 1 px or more).
bool FitBar(const float* y, int n, double x0, double h, double c, double reach, double e0, double* e_out, double* s_io) {
  static const GaussTable kGauss;
  int ks[5], nk = 0;
  for (int k = -2; k <= 2; ++k)
    if (std::abs(k) * c < reach + 1.0) ks[nk++] = k;
  const int np = nk + 3;  // o, a_k..., e, s
  double th[8] = {0};
  th[np - 2] = e0, th[np - 1] = *s_io;
  double lambda = 1e-3, cost = 1e300;
  // (The first step finds the amplitudes: with them at 0, e and s do not move the model.)
  for (int it = 0; it < 8; ++it) {
    double A[64] = {0}, g[8] = {0}, r2 = 0;
    const double e = th[np - 2], inv_s = 1 / th[np - 1];
    for (int j = 0; j < n; ++j) {
      const double x = x0 + j * h;
      double J[8], model = th[0], de = 0, ds = 0;
      J[0] = 1;
      for (int q = 0; q < nk; ++q) {
        const double z = (x - e - ks[q] * c) * inv_s;
        double cdf, pdf;
        kGauss.At(z, &cdf, &pdf);
        J[1 + q] = cdf;
        model += th[1 + q] * cdf;
        de -= th[1 + q] * pdf, ds -= th[1 + q] * pdf * z;
      }
      J[np - 2] = de * inv_s, J[np - 1] = ds * inv_s;
      const double r = y[j] - model;
      r2 += r * r;
      for (int a = 0; a < np; ++a) {
        g[a] += J[a] * r;
        for (int b = 0; b <= a; ++b) A[a * np + b] += J[a] * J[b];
      }
    }
    if (it > 0 && r2 > cost) lambda *= 10;  // the last step raised the cost: damp the next harder
    else lambda = std::max(1e-6, lambda * 0.3);
    cost = r2;
    for (int a = 0; a < np; ++a) {
      for (int b = 0; b < a; ++b) A[b * np + a] = A[a * np + b];
      A[a * np + a] *= 1 + lambda;
      A[a * np + a] += 1e-9;
    }
    if (!SolveSpd(A, g, np)) return false;
    g[np - 2] = std::clamp(g[np - 2], -0.5, 0.5);
    g[np - 1] = std::clamp(g[np - 1], -0.5 * th[np - 1], 0.5 * th[np - 1]);
    for (int a = 0; a < np; ++a) th[a] += g[a];
    if (it > 0 && std::abs(g[np - 2]) < 1e-3 && std::abs(g[np - 1]) < 1e-3) break;
  }
  int k0 = 0;
  while (ks[k0] != 0) ++k0;
  const double e = th[np - 2], s = th[np - 1];
  if (!(th[1 + k0] > 8) || !(s > 0.25 && s < 5) || !(std::abs(e - e0) < 1.0)) return false;
  *e_out = e, *s_io = s;
  return true;
}

// The Gram matrix of the bar model's step columns at the side's fit, for one Gauss-Newton step of
// each cell's edge from there (the columns are shared by every cell, so one Cholesky serves all).
struct BarBasis {
  static constexpr int kMaxM = 32;
  int m = 0, nk = 0;
  int ks[5];
  float cdf[5][kMaxM], pdf[5][kMaxM];  // Phi and phi of each step at each sample
  double gram[36];                     // (1 + nk)^2, its Cholesky factor
};

// The columns at edge e and blur s (px) for m samples from x0 in steps h (px); c, reach as FitBar's.
bool MakeBasis(int m, double x0, double h, double c, double reach, double e, double s, BarBasis* b) {
  static const GaussTable kGauss;
  b->m = m, b->nk = 0;
  for (int k = -2; k <= 2; ++k)
    if (std::abs(k) * c < reach + 1.0) b->ks[b->nk++] = k;
  const int p = b->nk + 1;
  std::fill(b->gram, b->gram + 36, 0.0);
  for (int j = 0; j < m; ++j) {
    double col[6] = {1};
    for (int q = 0; q < b->nk; ++q) {
      double cdf, pdf;
      kGauss.At((x0 + j * h - e - b->ks[q] * c) / s, &cdf, &pdf);
      b->cdf[q][j] = float(cdf), b->pdf[q][j] = float(pdf / s);
      col[1 + q] = cdf;
    }
    for (int u = 0; u < p; ++u)
      for (int v = 0; v <= u; ++v) b->gram[u * p + v] += col[u] * col[v];
  }
  for (int u = 0; u < p; ++u) {
    for (int v = 0; v < u; ++v) b->gram[v * p + u] = b->gram[u * p + v];
    b->gram[u * p + u] += 1e-9;
  }
  return CholeskyInPlace(b->gram, p);
}

// One Gauss-Newton step of a cell's edge from the side's fit: the step amplitudes by linear least
// squares on the shared columns, then the shift that best explains what they leave, with the
// amplitudes free (the shift's column projected off theirs). px outward; false: no rise here.
bool CellShift(const BarBasis& b, const float* y, double* shift) {
  const int p = b.nk + 1, m = b.m;
  double amp[6] = {0};
  for (int j = 0; j < m; ++j) {
    amp[0] += y[j];
    for (int q = 0; q < b.nk; ++q) amp[1 + q] += b.cdf[q][j] * y[j];
  }
  SolveCholesky(b.gram, amp, p);
  int k0 = 0;
  while (b.ks[k0] != 0) ++k0;
  if (!(amp[1 + k0] > 8)) return false;
  double jr = 0, jj = 0, bj[6] = {0};
  for (int j = 0; j < m; ++j) {
    double model = amp[0], de = 0;
    for (int q = 0; q < b.nk; ++q) model += amp[1 + q] * b.cdf[q][j], de += amp[1 + q] * b.pdf[q][j];
    // de: the model's slope, d model / dx = -d model / de.
    jr += de * (y[j] - model), jj += de * de;
    bj[0] += de;
    for (int q = 0; q < b.nk; ++q) bj[1 + q] += b.cdf[q][j] * de;
  }
  double g[6];
  std::copy(bj, bj + p, g);
  SolveCholesky(b.gram, g, p);
  double proj = 0;
  for (int u = 0; u < p; ++u) proj += bj[u] * g[u];
  const double den = jj - proj;
  if (!(den > 1e-6 * jj)) return false;
  *shift = std::clamp(-jr / den, -0.5, 0.5);
  return true;
}

// The edge of a side's mean profile (px from x = 0) and its blur *s: fitted in full (FitBar) when
// *s is 0, else two Gauss-Newton steps of the edge alone at the blur *s, measured on the opposite
// side (parallel sides share the blur, motion blur's included): half the full fits of a refinement,
// which the tracker pays for every window of every frame.
bool SideEdge(const float* y, int m, double x0, double h, double c, double reach, double* s, double* e) {
  if (*s <= 0) {
    double blur = 1.0;
    if (!FitBar(y, m, x0, h, c, reach, 0.0, e, &blur)) return false;
    *s = blur;
    return true;
  }
  *e = 0;
  BarBasis b;
  for (int step = 0; step < 2; ++step) {
    double shift = 0;
    if (!MakeBasis(m, x0, h, c, reach, *e, *s, &b) || !CellShift(b, y, &shift)) return false;
    *e += shift;
  }
  return std::abs(*e) < 1.0;
}

// The side's line again from the bar model, one edge point per cell along the side. Every inlying
// profile is sampled across the centroid line; the mean of all is fitted (SideEdge: the edge, the
// blur and the neighbours' mean pull), then each cell's mean from there (CellShift): a cell's
// profiles share what lies inward of the edge (the code cells of one column), so each cell's pull is
// taken off its own point. The steps of every column lie the same distance in from the edge, so the
// side's mean profile is again a sum of steps a cell apart. *blur_io: the blur measured on the
// opposite side, px (0: none yet; then set). Left as it is when the side's fit fails or fewer than
// 3 cells are measured.
void BarModelLine(const cv::Mat& g, const cv::Point2d& a, const cv::Point2d& t, const cv::Point2d& out, double len,
                  const BarCells& bc, const double* along, int n, double* blur_io, EdgeLine* line) {
  constexpr int kMaxCells = 16;
  constexpr double kH = 0.5;                                    // profile step, px
  const double across = bc.across_px;
  const double reach = std::clamp(1.5 * across, 2.5, 5.0);      // fitted within this of the edge, px
  const int half = int(std::ceil(reach / kH)), m = 2 * half + 1;
  if (bc.cells > kMaxCells || m > BarBasis::kMaxM) return;
  const double cl = len / bc.cells, x0 = -half * kH;
  const float xmax = float(g.cols) - 1.001f, ymax = float(g.rows) - 1.001f;
  const double sign = line->n.dot(out) >= 0 ? 1 : -1;  // the line's normal as `out`
  float cell_sum[kMaxCells][BarBasis::kMaxM] = {}, all[BarBasis::kMaxM] = {}, prof[BarBasis::kMaxM];
  double cell_along[kMaxCells] = {};
  int cell_n[kMaxCells] = {}, used = 0;
  for (int k = 0; k < n; ++k) {
    const cv::Point2d p = a + along[k] * t;
    const cv::Point2d c = p + (sign * (line->d - line->n.dot(p)) + x0) * out, c1 = c + (2 * half * kH) * out;
    if (std::min(c.x, c1.x) < 0 || std::min(c.y, c1.y) < 0 || std::max(c.x, c1.x) > xmax || std::max(c.y, c1.y) > ymax) continue;
    float lo = 255, hi = 0;
    SampleProfile(g.data, g.step[0], float(c.x), float(c.y), float(kH * out.x), float(kH * out.y), m, prof, &lo, &hi);
    const int cell = std::clamp(int(along[k] / cl), 0, bc.cells - 1);
    for (int j = 0; j < m; ++j) cell_sum[cell][j] += prof[j], all[j] += prof[j];
    cell_along[cell] += along[k], ++cell_n[cell], ++used;
  }
  if (used < 3) return;
  for (int j = 0; j < m; ++j) all[j] /= used;
  double e = 0;
  BarBasis basis;
  if (!SideEdge(all, m, x0, kH, across, reach, blur_io, &e) || !MakeBasis(m, x0, kH, across, reach, e, *blur_io, &basis))
    return;
  cv::Point2d pts[kMaxCells];
  double w[kMaxCells];
  int n_pts = 0;
  for (int cell = 0; cell < bc.cells; ++cell) {
    if (cell_n[cell] == 0) continue;
    for (int j = 0; j < m; ++j) cell_sum[cell][j] /= cell_n[cell];
    double shift = 0;
    if (!CellShift(basis, cell_sum[cell], &shift)) continue;
    const cv::Point2d p = a + (cell_along[cell] / cell_n[cell]) * t;
    pts[n_pts] = p + (sign * (line->d - line->n.dot(p)) + e + shift) * out;
    w[n_pts++] = cell_n[cell];
  }
  if (n_pts < 3) return;
  // One round of outlier rejection, as for the centroid points: a cell a hand or a chip of paint
  // crosses would tilt a line through a handful of points.
  EdgeLine fit = FitLineWeighted(pts, w, n_pts);
  double res[kMaxCells], sorted[kMaxCells];
  for (int i = 0; i < n_pts; ++i) sorted[i] = res[i] = std::abs(fit.n.dot(pts[i]) - fit.d);
  std::nth_element(sorted, sorted + n_pts / 2, sorted + n_pts);
  const double thr = std::max(0.1, 3.0 * 1.4826 * sorted[n_pts / 2]);
  int n_in = 0;
  for (int i = 0; i < n_pts; ++i)
    if (res[i] <= thr) pts[n_in] = pts[i], w[n_in] = w[i], ++n_in;
  if (n_in < n_pts && n_in >= 3) fit = FitLineWeighted(pts, w, n_in);
  *line = fit;
}

// One side's centroid line and what the bar model needs to fit it again (BarModelLine), so the
// bar lines can wait until the caller knows it wants them (a candidate read only through refined
// corners: issue 21).
struct SideFit {
  cv::Point2d a, t, out;  // the side's start, its unit direction and outward normal
  double len = 0;         // px
  BarCells bc;
  double along[64];       // the inlying edge points' places along the side, px
  int n = 0;              // how many
  EdgeLine line;          // the centroid line
};

// One side a -> b, outward normal `out`: edge points from profiles across the side, each the
// centroid of the dark-to-light rise around its steepest part (unbiased for a symmetrically blurred
// step; a parabola through the derivative's peak is fooled by bilinear sampling, whose derivative is
// flat between pixel rows when the edge runs along the pixel grid: that cost 0.5 px on axis-aligned
// edges), away from the corners where the neighbouring sides bend the profile; then the total least
// squares line with one round of outlier rejection, into fit (its bc left to the caller).
bool FitEdgeLine(const cv::Mat& g, const cv::Point2d& a, const cv::Point2d& b, const cv::Point2d& out, double cell_px,
                 double search_px, const EdgeLineOptions& o, SideFit* fit) {
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
  double* along = fit->along;  // each point's place along the side, px
  int n_pts = 0;
  const float ox = float(kStep * out.x), oy = float(kStep * out.y);
  const float xmax = float(g.cols) - 1.001f, ymax = float(g.rows) - 1.001f;
  const size_t stride = g.step[0];
  const int need = std::max(4, n_samples / 3);
  for (int i = 0; i < n_samples; ++i) {
    if (n_pts + (n_samples - i) < need) return false;  // the rest cannot make up the points
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
    along[n_pts] = s;
    pts[n_pts++] = c + ((swx / sw - ext) * kStep) * out;
  }
  if (n_pts < need) return false;
  EdgeLine* line = &fit->line;
  *line = FitLine(pts, n_pts);
  double res[64], sorted[64];
  for (int i = 0; i < n_pts; ++i) sorted[i] = res[i] = std::abs(line->n.dot(pts[i]) - line->d);
  std::nth_element(sorted, sorted + n_pts / 2, sorted + n_pts);
  const double thr = std::max(0.15, 3.0 * 1.4826 * sorted[n_pts / 2]);
  int n_in = 0;
  for (int i = 0; i < n_pts; ++i)
    if (res[i] <= thr) pts[n_in] = pts[i], along[n_in] = along[i], ++n_in;
  if (n_in < need) return false;
  if (n_in < n_pts) *line = FitLine(pts, n_in);
  fit->a = a, fit->t = t, fit->out = out, fit->len = len, fit->n = n_in;
  return true;
}

// Corner where line l1 (the side ending there) meets l2 (the side starting there); false when they
// are parallel or the corner moves more than max_shift_px from start.
bool CornerAt(const EdgeLine& l1, const EdgeLine& l2, const cv::Point2d& start, double max_shift_px, cv::Point2d* r) {
  const double det = l1.n.x * l2.n.y - l1.n.y * l2.n.x;
  if (std::abs(det) < 1e-9) return false;
  *r = cv::Point2d((l1.d * l2.n.y - l1.n.y * l2.d) / det, (l1.n.x * l2.d - l1.d * l2.n.x) / det);
  return cv::norm(*r - start) <= max_shift_px;
}

// The corners where adjacent lines meet; false when two are parallel, a corner moves more than
// max_shift_px from start, or the quad flips.
bool Corners(const std::array<EdgeLine, 4>& lines, const std::array<cv::Point2d, 4>& start, double max_shift_px,
             std::array<cv::Point2d, 4>* r) {
  for (int i = 0; i < 4; ++i)
    if (!CornerAt(lines[(i + 3) % 4], lines[i], start[i], max_shift_px, &(*r)[i])) return false;
  return SignedQuadArea(*r) * SignedQuadArea(start) > 0;
}

// The bar model's corners from the last pass's sides, fitted in side order (sides 2 and 3 take the
// blur sides 0 and 1 measured). False: the corners move too far or the quad flips.
bool BarCorners(const cv::Mat& gray, const SideFit* sides, const std::array<cv::Point2d, 4>& start, double max_shift_px,
                std::array<cv::Point2d, 4>* r) {
  double blur[2] = {0, 0};  // px: sides 0 and 1's fitted blur, for sides 2 and 3 (0: not yet measured)
  std::array<EdgeLine, 4> lines;
  for (int i = 0; i < 4; ++i) {
    const SideFit& f = sides[i];
    lines[i] = f.line;
    BarModelLine(gray, f.a, f.t, f.out, f.len, f.bc, f.along, f.n, &blur[i % 2], &lines[i]);
  }
  return Corners(lines, start, max_shift_px, r);
}

std::array<cv::Point2f, 4> ToFloat(const std::array<cv::Point2d, 4>& q) {
  std::array<cv::Point2f, 4> r;
  for (int i = 0; i < 4; ++i) r[i] = cv::Point2f(float(q[i].x), float(q[i].y));
  return r;
}

}  // namespace

bool RefineEdgeLines(const EdgeLineOptions& o, const cv::Mat& gray, int cells, std::array<cv::Point2f, 4>* corners_px,
                     std::array<cv::Point2f, 4>* centroid_px, const BarGate& bar_if) {
  if (gray.empty() || gray.type() != CV_8UC1 || cells < 3) return false;
  std::array<cv::Point2d, 4> start;
  double side = 0;
  for (int i = 0; i < 4; ++i) start[i] = (*corners_px)[i];
  for (int i = 0; i < 4; ++i) side += 0.25 * cv::norm(start[(i + 1) % 4] - start[i]);
  if (!(std::abs(SignedQuadArea(start)) >= 9)) return false;
  std::array<cv::Point2d, 4> q = start;
  SideFit sides[4];
  for (int pass = 0; pass < o.passes; ++pass) {
    std::array<cv::Point2d, 4> r;
    const cv::Point2d centre = 0.25 * (q[0] + q[1] + q[2] + q[3]);
    for (int i = 0; i < 4; ++i) {
      const cv::Point2d a = q[i], b = q[(i + 1) % 4];
      cv::Point2d t = b - a;
      t /= std::max(1e-9, cv::norm(t));
      cv::Point2d n(t.y, -t.x);
      if (n.dot(0.5 * (a + b) - centre) < 0) n = -n;
      const double search = pass == 0 ? o.search_px : std::min(o.search_px, 1.0);
      // One cell across this side: the neighbouring sides' extent along its normal (under tilt, not
      // this side's own cells).
      sides[i].bc = {cells, 0.5 * (std::abs((q[(i + 3) % 4] - a).dot(n)) + std::abs((q[(i + 2) % 4] - b).dot(n))) / cells};
      if (!FitEdgeLine(gray, a, b, n, side / cells, search, o, &sides[i])) return false;
      // Each corner as soon as both its sides are fitted (as Corners would, which fails on any): most
      // outlines read again through refined corners fail, at a side or a corner (issue 21).
      if (i > 0 && !CornerAt(sides[i - 1].line, sides[i].line, start[i], o.max_shift_px, &r[i])) return false;
    }
    if (!CornerAt(sides[3].line, sides[0].line, start[0], o.max_shift_px, &r[0])) return false;
    if (!(SignedQuadArea(r) * SignedQuadArea(start) > 0)) return false;
    q = r;
  }
  const std::array<cv::Point2f, 4> centroid = ToFloat(q);
  if (centroid_px) *centroid_px = centroid;
  std::array<cv::Point2d, 4> with_bar;
  const bool want_bar = bar_if ? bar_if(centroid) : true;
  if (o.bar_model && want_bar && BarCorners(gray, sides, start, o.max_shift_px, &with_bar)) q = with_bar;
  *corners_px = ToFloat(q);
  return true;
}

}  // namespace vedette::vision
