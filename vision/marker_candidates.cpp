#include "vision/marker_candidates.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>

#include <opencv2/imgproc.hpp>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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

bool MidRangeOptions::Check(std::string* error) const {
  if (window_px >= 3 && window_px % 2 == 1 && window_px <= 101 && min_range >= 0 && min_range < 256) return true;
  if (error) *error = "mid-range threshold: window_px must be odd, 3..101 px, and min_range 0..255 grey levels";
  return false;
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

// Quads found so far, with their centres and sides for spotting the same marker again.
struct QuadList {
  std::vector<Quad>* out;
  std::vector<cv::Point2f> centres;
  std::vector<float> sides;
};

// Where one thresholded image sits in the full image: full = scale * (x + origin) + (scale - 1) / 2
// (pixel centres at integers in both).
struct BinaryPlace {
  int scale = 1;
  cv::Point origin{0, 0};  // the binary image's top-left in the pass's px (a region of the image)
  cv::Size pass;           // the whole image the pass thresholds (full or half size), its px
};

// Outlines of dark convex quads in one binary image (dark = 255). Marker-sized outlines that do not
// close into a quad go to `unclosed` (full-image px boxes) when it is given.
void OutlineQuads(const CandidateOptions& o, const cv::Mat& bin, const BinaryPlace& at, double min_side_px, QuadList* list,
                  std::vector<cv::Rect>* unclosed) {
  std::vector<std::vector<cv::Point>> contours;
  cv::findContours(bin, contours, cv::RETR_LIST, cv::CHAIN_APPROX_NONE);
  // The size limits apply to the marker's side as its corners give it. A contour's point count is
  // not its length: a side at 45 degrees is s / sqrt(2) diagonal steps, so counting points made a
  // 20 px marker turned 45 degrees look 14 px and fall under a 14.4 px limit. Nor is the outline's
  // length the marker's perimeter: the outline runs through the outermost dark pixels, half a pixel
  // inside the edge, and cuts the corners blur has rounded (about 4 px short on a 19 px marker).
  // The outline's length (cv::arcLength, diagonal steps counted sqrt(2)) only makes a loose first
  // cut; the point count bounds it (length / sqrt(2) <= count <= length) for a cheaper one.
  const int scale = at.scale;
  const double min_len = std::max(4.0, 0.75 * 4 * min_side_px / scale);
  const double max_len = 1.25 * 4 * o.max_side_px / scale;
  // A blurred black border breaks into pieces of one or two sides: outlines from a side long.
  const double min_piece = std::max(4.0, 0.75 * 2 * min_side_px / scale);
  // Without a list of pieces (the tracker's windows, every frame) shorter outlines are not measured.
  const double shortest = unclosed ? min_piece : min_len;
  const float border = float(o.min_distance_to_border_px) / scale;
  const size_t first_of_pass = list->out->size();
  // A marker's box is at least a side across whatever its turn; a blurred marker's outline, or the
  // larger part of it, is as wide as a side, and no longer than about two (motion blur, tilt).
  // Texture and a marker's own cells leave far more outlines, mostly thin or small: on the condition
  // matrix's blurred, tilted, glared, dim and 720p tables these bounds kept every outline a second
  // look read a marker in, and 1 in 10 of the others.
  auto piece = [&](const std::vector<cv::Point>& c, double length) {
    if (!unclosed || length < min_piece) return;
    const cv::Rect b = cv::boundingRect(c);
    const double shorter = double(std::min(b.width, b.height)) * scale, longer = double(std::max(b.width, b.height)) * scale;
    if (shorter < 0.6 * min_side_px || longer < min_side_px || longer > 2.5 * shorter) return;
    unclosed->push_back(cv::Rect((b.tl() + at.origin) * scale, b.size() * scale));
  };
  std::vector<cv::Point> poly;
  for (const auto& c : contours) {
    if (double(c.size()) * std::sqrt(2.0) < shortest || double(c.size()) > max_len) continue;
    const double length = cv::arcLength(c, true);
    if (length > max_len) continue;
    if (length < min_len) {
      piece(c, length);
      continue;
    }
    cv::approxPolyDP(c, poly, length * o.polygon_accuracy, true);
    if (poly.size() != 4 || !cv::isContourConvex(poly)) {
      piece(c, length);
      continue;
    }
    const double min_d = length * o.min_corner_distance;
    bool ok = true;
    for (int i = 0; i < 4 && ok; ++i) {
      const cv::Point d = poly[i] - poly[(i + 1) % 4];
      const cv::Point p = poly[i] + at.origin;
      ok = double(d.x) * d.x + double(d.y) * d.y >= min_d * min_d;
      ok = ok && p.x >= border && p.y >= border && p.x < at.pass.width - border && p.y < at.pass.height - border;
    }
    if (!ok) continue;
    Quad q;
    const float offset = 0.5f * float(scale - 1);
    const std::array<cv::Point2d, 4> corners = CornersFromOutline(c, poly);
    for (int i = 0; i < 4; ++i)
      q[i] = cv::Point2f(float((corners[i].x + at.origin.x) * scale) + offset, float((corners[i].y + at.origin.y) * scale) + offset);
    // Clockwise on screen (y down), as OpenCV orders its candidates.
    const cv::Point2f a = q[1] - q[0], b = q[2] - q[0];
    if (a.x * b.y - a.y * b.x < 0) std::swap(q[1], q[3]);
    const cv::Point2f centre = 0.25f * (q[0] + q[1] + q[2] + q[3]);
    const float side = 0.25f * float(cv::norm(q[1] - q[0]) + cv::norm(q[2] - q[1]) + cv::norm(q[3] - q[2]) + cv::norm(q[0] - q[3]));
    if (side < min_side_px || side > o.max_side_px) continue;
    // Another pass finds most markers again: keep the first.
    bool seen = false;
    for (size_t i = 0; i < first_of_pass && !seen; ++i)
      seen = std::abs(list->sides[i] - side) < 0.1f * side && cv::norm(list->centres[i] - centre) < 0.05f * side &&
             SameQuad((*list->out)[i], q, std::max(1.0, 0.02 * side));
    if (seen) continue;
    list->out->push_back(q);
    list->centres.push_back(centre);
    list->sides.push_back(side);
  }
}

// Dark = this far below the mean of a window x window box.
// cv::adaptiveThreshold's per-pixel table is several times slower than a box filter and one
// vectorised comparison (dark: pixel + offset < local mean), which give the same image.
cv::Mat BlurThreshold(const cv::Mat& gray, int window, double offset) {
  cv::Mat mean, lifted, bin;
  cv::blur(gray, mean, cv::Size(window, window), cv::Point(-1, -1), cv::BORDER_REPLICATE);
  cv::add(gray, cv::Scalar(offset), lifted);
  cv::compare(lifted, mean, bin, cv::CMP_LT);
  return bin;
}

// The least box sum whose mean cv::blur rounds above each level, when that is area * (level + 1/2)
// rounded up for every level (empty otherwise). cv::blur's 8-bit mean over a box of up to 256 px
// is ((sum + dd) * ds) >> 23 with its ColumnSum<ushort, uchar>'s constants; this checks them.
bool DarkSums(int area, uint16_t* least) {
  if (area > 256) return false;
  const double scalef0 = double(1 << 23) / area;
  uint64_t ds = uint64_t(std::floor(scalef0)), dd = uint64_t(area / 2);
  if (scalef0 - double(ds) < 0.5) ++dd;
  else ++ds;
  auto mean = [&](uint64_t sum) { return (sum + dd) * ds >> 23; };
  for (int level = 0; level < 256; ++level) {
    const uint64_t t = (uint64_t(area) * (2 * level + 1) + 1) / 2;
    if (mean(t - 1) > uint64_t(level) || (level < 255 && mean(t) <= uint64_t(level))) return false;
    least[level] = uint16_t(t);
  }
  return true;
}

// One row of the threshold from its column sums (cs: the window's sums down each column, the row
// padded by r columns each side as BORDER_REPLICATE pads it): dark where the box sum reaches the
// least dark sum of min(pixel + offset, 255), which is area * level + (area + 1) / 2 (DarkSums).
// kWindow: the box's width when known at compile time (the passes' boxes are 5-9 px: the sum's
// loads unrolled), else 0 and `window` says.
template <int kWindow>
void DarkRow(const uint16_t* cs, const uchar* g, int width, int window, int area, int offset, uchar* out) {
  if (kWindow > 0) window = kWindow;
  const int half_up = (area + 1) / 2;
  int x = 0;
#if defined(__SSE2__)
  const __m128i zero = _mm_setzero_si128(), off = _mm_set1_epi8(char(offset));
  const __m128i va = _mm_set1_epi16(short(area)), vh = _mm_set1_epi16(short(half_up));
  for (; x + 8 <= width; x += 8) {
    __m128i sum = zero;
    // Unrolled where the box is known: -O2 left the loop rolled, which was half the row's cost.
#pragma GCC unroll 16
    for (int k = 0; k < window; ++k) sum = _mm_add_epi16(sum, _mm_loadu_si128(reinterpret_cast<const __m128i*>(cs + x + k)));
    const __m128i level = _mm_unpacklo_epi8(_mm_adds_epu8(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(g + x)), off), zero);
    const __m128i least = _mm_add_epi16(_mm_mullo_epi16(level, va), vh);
    const __m128i dark = _mm_cmpeq_epi16(_mm_subs_epu16(least, sum), zero);  // sum >= least, unsigned
    _mm_storel_epi64(reinterpret_cast<__m128i*>(out + x), _mm_packs_epi16(dark, dark));
  }
#endif
  for (; x < width; ++x) {
    int sum = 0;
    for (int k = 0; k < window; ++k) sum += cs[x + k];
    const int level = std::min(255, g[x] + offset);
    out[x] = sum >= area * level + half_up ? 255 : 0;
  }
}

// The window's column sums one row down: the row entering added, the row leaving taken off (eight
// columns at a time; the scalar loop was half of the threshold's cost, issue 21). Sums stay below
// 2^16 (at most 256 px a box, DarkSums), so 16-bit lanes wrap as the scalar uint16_t does.
void SlideColumns(uint16_t* col, const uchar* in, const uchar* out, int width) {
  int x = 0;
#if defined(__SSE2__)
  const __m128i zero = _mm_setzero_si128();
  for (; x + 8 <= width; x += 8) {
    const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(col + x));
    const __m128i a = _mm_unpacklo_epi8(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(in + x)), zero);
    const __m128i b = _mm_unpacklo_epi8(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(out + x)), zero);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(col + x), _mm_sub_epi16(_mm_add_epi16(c, a), b));
  }
#endif
  for (; x < width; ++x) col[x] = uint16_t(col[x] + in[x] - out[x]);
}

using DarkRowFn = void (*)(const uint16_t*, const uchar*, int, int, int, int, uchar*);

DarkRowFn DarkRowFor(int window) {
  switch (window) {
    case 3: return DarkRow<3>;
    case 5: return DarkRow<5>;
    case 7: return DarkRow<7>;
    case 9: return DarkRow<9>;
    case 11: return DarkRow<11>;
    case 13: return DarkRow<13>;
    case 15: return DarkRow<15>;
    default: return DarkRow<0>;
  }
}

}  // namespace

cv::Mat MeanThreshold(const cv::Mat& gray, int window, double offset) {
  CV_Assert(gray.type() == CV_8UC1 && window >= 3 && window % 2 == 1);
  const int area = window * window, r = window / 2, w = gray.cols, h = gray.rows;
  uint16_t least[256];
  // The box filter, the offset and the comparison in one pass (they were 17 % of a 720p cold frame
  // apart: issue 21), where it gives cv::blur's image to the pixel; else cv::blur itself.
  if (offset != std::floor(offset) || offset < 0 || offset > 255 || !DarkSums(area, least) || w < 1 || h < 1)
    return BlurThreshold(gray, window, offset);
  std::vector<uint16_t> cs(size_t(w + 2 * r + 8), 0);
  uint16_t* col = cs.data() + r;  // col[x]: the window's sum down column x
  auto row = [&](int y) { return gray.ptr<uchar>(std::clamp(y, 0, h - 1)); };
  for (int k = -r; k <= r; ++k) {
    const uchar* g = row(k);
    for (int x = 0; x < w; ++x) col[x] = uint16_t(col[x] + g[x]);
  }
  cv::Mat bin(gray.size(), CV_8UC1);
  const DarkRowFn dark_row = DarkRowFor(window);
  for (int y = 0; y < h; ++y) {
    std::fill(cs.begin(), cs.begin() + r, col[0]);
    std::fill(cs.begin() + r + w, cs.begin() + 2 * r + w, col[w - 1]);
    dark_row(cs.data(), gray.ptr<uchar>(y), w, window, area, int(offset), bin.ptr<uchar>(y));
    SlideColumns(col, row(y + r + 1), row(y - r), w);
  }
  return bin;
}

namespace {

// AprilTag 3's threshold: dark below the middle of the darkest and lightest pixel of the window,
// where they differ by at least min_range (flat ground is neither).
cv::Mat MidRangeThreshold(const cv::Mat& gray, int window, double min_range) {
  cv::Mat lo, hi;
  const cv::Mat box = cv::getStructuringElement(cv::MORPH_RECT, cv::Size(window, window));
  cv::erode(gray, lo, box, cv::Point(-1, -1), 1, cv::BORDER_REPLICATE);
  cv::dilate(gray, hi, box, cv::Point(-1, -1), 1, cv::BORDER_REPLICATE);
  // Below the middle is nearer the darkest than the lightest (whole grey levels, no rounding).
  cv::Mat below, above, bin, range, contrast;
  cv::subtract(gray, lo, below);
  cv::subtract(hi, gray, above);
  cv::compare(below, above, bin, cv::CMP_LT);
  cv::subtract(hi, lo, range);
  cv::compare(range, cv::Scalar(min_range), contrast, cv::CMP_GE);
  cv::bitwise_and(bin, contrast, bin);
  return bin;
}

// Each box grown by `margin` px and clipped to the image; overlapping boxes merged where their union
// is no larger than the two apart (a union of two boxes that barely touch would threshold ground
// neither holds).
std::vector<cv::Rect> MergedRegions(std::vector<cv::Rect> boxes, int margin, cv::Size size) {
  const cv::Rect image(cv::Point(0, 0), size);
  for (cv::Rect& b : boxes) b = cv::Rect(b.x - margin, b.y - margin, b.width + 2 * margin, b.height + 2 * margin) & image;
  std::vector<cv::Rect> merged;
  for (bool changed = true; changed;) {
    changed = false;
    merged.clear();
    for (const cv::Rect& b : boxes) {
      if (b.empty()) continue;
      auto it = std::find_if(merged.begin(), merged.end(), [&](const cv::Rect& m) {
        return (m & b).area() > 0 && double((m | b).area()) <= double(m.area()) + double(b.area());
      });
      if (it == merged.end()) {
        merged.push_back(b);
      } else {
        *it |= b;
        changed = true;
      }
    }
    boxes = merged;
  }
  return merged;
}

}  // namespace

std::vector<Quad> FindMarkerCandidates(const CandidateOptions& o, const cv::Mat& gray, std::vector<cv::Rect>* unclosed) {
  CV_Assert(gray.type() == CV_8UC1);
  std::vector<Quad> out;
  QuadList list{&out, {}, {}};
  cv::Mat half;
  for (const ThresholdPass& p : o.passes) {
    const double min_side = std::max(o.min_side_px, p.min_side_px);
    if (p.scale == 2 && half.empty()) cv::resize(gray, half, cv::Size(gray.cols / 2, gray.rows / 2), 0, 0, cv::INTER_AREA);
    const cv::Mat& image = p.scale == 2 ? half : gray;
    OutlineQuads(o, MeanThreshold(image, p.window_px, o.threshold_offset), {p.scale, {0, 0}, image.size()}, min_side, &list,
                 unclosed);
  }
  return out;
}

std::vector<Quad> FindBlurredCandidates(const CandidateOptions& o, const MidRangeOptions& m, const cv::Mat& gray,
                                        const std::vector<cv::Rect>& unclosed) {
  CV_Assert(gray.type() == CV_8UC1);
  std::vector<Quad> out;
  QuadList list{&out, {}, {}};
  // The window's half width more thresholds the region's edge as the whole image would.
  for (const cv::Rect& r : MergedRegions(unclosed, m.window_px / 2 + 1, gray.size()))
    OutlineQuads(o, MidRangeThreshold(gray(r), m.window_px, m.min_range), {1, r.tl(), gray.size()}, o.min_side_px, &list,
                 nullptr);
  return out;
}

}  // namespace vedette::vision
