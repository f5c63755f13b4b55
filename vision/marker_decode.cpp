#include "vision/marker_decode.h"

#include <algorithm>
#include <cmath>

#include <opencv2/imgproc.hpp>

#include "vision/bilinear.h"

namespace vedette::vision {

bool DecodeOptions::Check(std::string* error) const {
  auto fail = [&](const std::string& m) { if (error) *error = m; return false; };
  if (!(min_contrast >= 0)) return fail("min_contrast must be >= 0 grey levels");
  if (!(border_error_rate >= 0 && border_error_rate < 1)) return fail("border_error_rate must be in [0, 1)");
  if (!(correction_rate >= 0 && correction_rate <= 1)) return fail("correction_rate must be in [0, 1]");
  return true;
}

namespace {

constexpr int kMaxCells = 12;  // up to 10x10 codes with their border


// image_from_cells: cell grid coordinates (0..cells along the marker's x and y) to pixels.
cv::Matx33d ImageFromCells(const Quad& q, int cells) {
  const float c = float(cells);
  const cv::Point2f square[4] = {{0, 0}, {c, 0}, {c, c}, {0, c}};
  const cv::Point2f quad[4] = {q[0], q[1], q[2], q[3]};
  return cv::Matx33d(cv::getPerspectiveTransform(square, quad));
}

cv::Point2d Apply(const cv::Matx33d& h, double u, double v) {
  const double w = h(2, 0) * u + h(2, 1) * v + h(2, 2);
  return {(h(0, 0) * u + h(0, 1) * v + h(0, 2)) / w, (h(1, 0) * u + h(1, 1) * v + h(1, 2)) / w};
}

// Mean brightness of every cell (row-major, border included) from a k x k grid of samples spread
// over the middle half of the cell (k at most 8; the readers use 1 and 3). False if a sample leaves
// the image or k is larger.
bool CellMeans(const cv::Mat& g, const cv::Matx33d& h, int cells, int k, double* means) {
  if (k > 8) return false;
  double at[8];  // the samples' offsets in a cell, divided once rather than per sample
  for (int j = 0; j < k; ++j) at[j] = k == 1 ? 0.0 : 0.5 * j / (k - 1);
  const double first = k == 1 ? 0.5 : 0.25;
  for (int r = 0; r < cells; ++r)
    for (int c = 0; c < cells; ++c) {
      double acc = 0;
      for (int i = 0; i < k; ++i)
        for (int j = 0; j < k; ++j) {
          const double u = c + first + at[j], v = r + first + at[i];
          const cv::Point2d p = Apply(h, u, v);
          double val;
          if (!SampleBilinear(g, p.x, p.y, &val)) return false;
          acc += val;
        }
      means[r * cells + c] = acc / (k * k);
    }
  return true;
}

// Cell means with the blur between neighbouring cells taken back out: v + s (4 v - the four
// neighbours), the ring beyond the border being the quiet zone. A small marker's cells are 2-3 px
// and an optical blur of a pixel bleeds each into its neighbours, so a light cell among dark ones
// reads grey; AprilTag 3 reads its 2 px cells this way (decode_sharpening 0.25). Falls back to the
// plain means when the quiet zone leaves the image.
// The bleed grows as cells shrink against the blur: the strength given is for cells of 3 px or
// more, and rises as 3 px / cell up to 0.6 (12-14 px AprilTag 36h11 markers, 1.5 px cells, read
// at true corners: 19 of 28 at 0.25, 24 at 0.6, with no wrong ID in the condition benchmark).
bool SharpenedCellMeans(const cv::Mat& g, const cv::Matx33d& h, int cells, int k, double sharpening, double* means) {
  const int ext = cells + 2;
  double wide[(kMaxCells + 2) * (kMaxCells + 2)];
  const cv::Matx33d shift(1, 0, -1, 0, 1, -1, 0, 0, 1);  // extended grid -> cell grid
  if (sharpening <= 0 || !CellMeans(g, h * shift, ext, k, wide)) return CellMeans(g, h, cells, k, means);
  const cv::Point2d a = Apply(h, 0, 0), b = Apply(h, cells, 0), c = Apply(h, cells, cells), d = Apply(h, 0, cells);
  const double cell_px = (cv::norm(b - a) + cv::norm(c - b) + cv::norm(d - c) + cv::norm(a - d)) / (4 * cells);
  sharpening = std::clamp(sharpening * 3.0 / std::max(cell_px, 1e-3), sharpening, std::max(sharpening, 0.6));
  for (int r = 0; r < cells; ++r)
    for (int c = 0; c < cells; ++c) {
      const int i = (r + 1) * ext + c + 1;
      const double v = wide[i];
      means[r * cells + c] = v + sharpening * (4 * v - wide[i - 1] - wide[i + 1] - wide[i - ext] - wide[i + ext]);
    }
  return true;
}

// Otsu's split of a few values: the threshold between the two classes with the largest
// between-class variance, and the two class means.
void OtsuSplit(const double* v, int n, double* threshold, double* dark_mean, double* light_mean) {
  double s[kMaxCells * kMaxCells] = {};
  std::copy(v, v + n, s);
  std::sort(s, s + n);
  double total = 0;
  for (int i = 0; i < n; ++i) total += s[i];
  double best = -1, left = 0;
  *threshold = s[0], *dark_mean = s[0], *light_mean = s[n - 1];
  for (int k = 1; k < n; ++k) {
    left += s[k - 1];
    const double m0 = left / k, m1 = (total - left) / (n - k);
    const double between = double(k) * (n - k) * (m1 - m0) * (m1 - m0);
    if (between > best) best = between, *threshold = 0.5 * (s[k - 1] + s[k]), *dark_mean = m0, *light_mean = m1;
  }
}

bool IsBorder(int r, int c, int cells) { return r == 0 || c == 0 || r == cells - 1 || c == cells - 1; }

}  // namespace

namespace {

// Set bits of x. __builtin_popcountll is a libgcc call without -mpopcnt (the build targets plain
// x86-64): 4 % of a 720p cold frame went there.
inline int Popcount(uint64_t x) {
  x -= (x >> 1) & 0x5555555555555555ull;
  x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
  x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
  return int((x * 0x0101010101010101ull) >> 56);
}

// The first code (of `codes`, four rotations each) within max_correction bits of c, and its first
// nearest rotation; -1 when none is.
int FirstWithin(const uint64_t* words, int codes, uint64_t c, int max_correction, int* rotation) {
  for (int m = 0; m < codes; ++m) {
    int best = 65, best_r = -1;
    for (int r = 0; r < 4; ++r) {
      const int d = Popcount(words[4 * m + r] ^ c);
      if (d < best) best = d, best_r = r;
    }
    if (best <= max_correction) return *rotation = best_r, m;
  }
  return -1;
}

#if defined(__GNUC__) && defined(__x86_64__)
#define VEDETTE_POPCNT_DISPATCH 1
// FirstWithin with the CPU's popcnt, where it has one (nearly all x86-64 since 2008; the build
// targets plain x86-64): a third of the reading's look-up on AprilTag 36h11's 587 codes.
__attribute__((target("popcnt"))) int FirstWithinPopcnt(const uint64_t* words, int codes, uint64_t c, int max_correction,
                                                        int* rotation) {
  for (int m = 0; m < codes; ++m) {
    int best = 65, best_r = -1;
    for (int r = 0; r < 4; ++r) {
      const int d = __builtin_popcountll(words[4 * m + r] ^ c);
      if (d < best) best = d, best_r = r;
    }
    if (best <= max_correction) return *rotation = best_r, m;
  }
  return -1;
}
#endif

}  // namespace

CodeBook::CodeBook(const cv::aruco::Dictionary& dict) : dict_(dict) {
  const int nbytes = (dict.markerSize * dict.markerSize + 7) / 8;
  if (nbytes > 8) return;
  nbytes_ = nbytes;
  words_.resize(size_t(4) * dict.bytesList.rows);
  for (int m = 0; m < dict.bytesList.rows; ++m)
    for (int r = 0; r < 4; ++r) {
      // identify() compares rotation r as the nbytes bytes from r * nbytes into the code's row.
      const uchar* b = dict.bytesList.ptr(m) + r * nbytes;
      uint64_t w = 0;
      for (int i = 0; i < nbytes; ++i) w |= uint64_t(b[i]) << (8 * i);
      words_[size_t(4) * m + r] = w;
    }
}

bool CodeBook::Identify(const cv::Mat& bits, double correction_rate, int* id, int* rotation) const {
  if (nbytes_ == 0) return dict_.identify(bits, *id, *rotation, correction_rate);
  CV_Assert(bits.rows == dict_.markerSize && bits.cols == dict_.markerSize && bits.type() == CV_8UC1);
  // The candidate's bytes as Dictionary::getByteListFromBits packs its first rotation: row-major
  // bits, each shifted in from the right, eight to a byte (the last byte's bits low).
  uint64_t c = 0;
  int byte = 0, bit = 0;
  uint64_t cur = 0;
  for (int r = 0; r < bits.rows; ++r)
    for (int k = 0; k < bits.cols; ++k) {
      cur = (cur << 1) | (bits.at<uchar>(r, k) & 1);
      if (++bit == 8) c |= cur << (8 * byte), cur = 0, bit = 0, ++byte;
    }
  if (bit) c |= cur << (8 * byte);
  const int max_correction = int(double(dict_.maxCorrectionBits) * correction_rate);
  const int codes = int(words_.size() / 4);
  // (identify's start, markerSize^2 + 1, and 65 both lie above any distance of a code of <= 64 bits.)
  int r = -1;
#ifdef VEDETTE_POPCNT_DISPATCH
  static const bool popcnt = __builtin_cpu_supports("popcnt");
  *id = popcnt ? FirstWithinPopcnt(words_.data(), codes, c, max_correction, &r) : FirstWithin(words_.data(), codes, c, max_correction, &r);
#else
  *id = FirstWithin(words_.data(), codes, c, max_correction, &r);
#endif
  if (*id < 0) return false;
  *rotation = r;
  return true;
}

DecodeResult DecodeMarker(const DecodeOptions& o, const cv::Mat& gray, const Quad& quad_px, const cv::aruco::Dictionary& dict,
                  DecodedMarker* out, const CodeBook* codes) {
  const int n = dict.markerSize, cells = n + 2;
  if (cells > kMaxCells) return DecodeResult::kNotMarker;
  const cv::Matx33d h = ImageFromCells(quad_px, cells);
  double means[kMaxCells * kMaxCells];
  double t, dark, light;
  // One sample per cell first: most candidates (texture, shadows, other squares) fail here cheaply.
  if (!CellMeans(gray, h, cells, 1, means)) return DecodeResult::kNotMarker;
  OtsuSplit(means, cells * cells, &t, &dark, &light);
  const int allowed_border = int(n * n * o.border_error_rate);
  auto border_errors = [&]() {
    int e = 0;
    for (int r = 0; r < cells; ++r)
      for (int c = 0; c < cells; ++c)
        if (IsBorder(r, c, cells) && means[r * cells + c] > t) ++e;
    return e;
  };
  if (light - dark < o.min_contrast || border_errors() > allowed_border) return DecodeResult::kNotMarker;
  // The read itself samples each cell at its centre, as AprilTag 3 does: under blur the centre is
  // where a cell's own level is strongest, and the sharpening already takes the neighbours' bleed out
  // (the middle half's 3x3 mean read fewer markers: condition benchmark, 8 tables a condition, 36h11
  // at 720p 82.6 -> 83.9 %, 20 deg tilt 96.4 -> 96.9 %, DICT_4X4_50 defocused 88.4 -> 89.7 %, none
  // lower, no wrong ID). The check of a refined quad (CellsAgreeWithId) keeps the 3x3 mean.
  if (!SharpenedCellMeans(gray, h, cells, 1, o.sharpening, means)) return DecodeResult::kNotMarker;
  OtsuSplit(means, cells * cells, &t, &dark, &light);
  if (light - dark < o.min_contrast || border_errors() > allowed_border) return DecodeResult::kUnreadable;
  cv::Mat bits(n, n, CV_8UC1);
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c) bits.at<uchar>(r, c) = means[(r + 1) * cells + c + 1] > t ? 1 : 0;
  int id = -1, rotation = 0;
  const bool known = codes ? codes->Identify(bits, o.correction_rate, &id, &rotation) : dict.identify(bits, id, rotation, o.correction_rate);
  if (!known) return DecodeResult::kUnreadable;
  out->id = id;
  out->corners_px = quad_px;
  // identify() names the rotation that maps the read bits onto the code; OpenCV turns the corners
  // the same way so corner 0 is the marker's own top-left.
  std::rotate(out->corners_px.begin(), out->corners_px.begin() + (4 - rotation) % 4, out->corners_px.end());
  return DecodeResult::kMarker;
}

bool CellsAgreeWithId(const cv::Mat& gray, const Quad& corners_px, const cv::aruco::Dictionary& dict, int id,
                      const AgreeOptions& o) {
  const int n = dict.markerSize, cells = n + 2;
  if (cells > kMaxCells || id < 0 || id >= dict.bytesList.rows) return false;
  double means[kMaxCells * kMaxCells];
  if (!SharpenedCellMeans(gray, ImageFromCells(corners_px, cells), cells, 3, o.sharpening, means)) return false;
  const cv::Mat code = cv::aruco::Dictionary::getBitsFromByteList(dict.bytesList.rowRange(id, id + 1), n);
  double sum_w = 0, sum_b = 0;
  int n_w = 0, n_b = 0;
  auto light = [&](int r, int c) { return !IsBorder(r, c, cells) && code.at<uchar>(r - 1, c - 1) != 0; };
  for (int r = 0; r < cells; ++r)
    for (int c = 0; c < cells; ++c) {
      const bool w = light(r, c);
      (w ? sum_w : sum_b) += means[r * cells + c];
      ++(w ? n_w : n_b);
    }
  if (n_w == 0) return true;  // an all-dark code has nothing to compare
  const double w = sum_w / n_w, b = sum_b / n_b;
  if (w - b < 15) return false;
  const double t = 0.5 * (w + b);
  int wrong = 0;
  for (int r = 0; r < cells; ++r)
    for (int c = 0; c < cells; ++c) {
      const double m = means[r * cells + c];
      if ((m > t) != light(r, c)) ++wrong;
      else if (std::abs(m - t) < o.min_margin * (w - b)) return false;
    }
  return wrong <= o.allowed_mismatches;
}

}  // namespace vedette::vision
