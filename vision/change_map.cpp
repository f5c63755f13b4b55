#include "vision/change_map.h"

#include <algorithm>
#include <cmath>

#include <opencv2/core.hpp>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "vision/grey.h"

namespace vedette::vision {

cv::Mat SampleGrey(const cv::Mat& image, int step) {
  const int w = std::max(1, image.cols / step), h = std::max(1, image.rows / step), cn = image.channels();
  cv::Mat out(h, w, CV_8U);
  const size_t row_bytes = size_t(image.cols) * cn;
  for (int y = 0; y < h; ++y) {
    const uchar* src = image.ptr<uchar>(y * step);
    uchar* dst = out.ptr<uchar>(y);
    // The next sampled row is far away in memory (a 4K frame is 24 MB): ask for it now, so its
    // fetch overlaps this row's work instead of stalling on every cache line.
    if (y + 1 < h) {
      const uchar* next = image.ptr<uchar>((y + 1) * step);
      for (size_t b = 0; b < row_bytes; b += 64) __builtin_prefetch(next + b);
    }
    if (cn == 1) {
      for (int x = 0; x < w; ++x) dst[x] = src[x * step];
    } else {
      GreyOfBgrRow(src, cn, step, w, dst);
    }
  }
  return out;
}

// One pass with no difference image: absdiff, compare and countNonZero read the map three times
// and allocate twice.
cv::Mat ChangeMask(const cv::Mat& now, const cv::Mat& before, double levels, double* fraction) {
  CV_Assert(now.type() == CV_8UC1 && before.type() == CV_8UC1 && now.size() == before.size());
  const double floor_levels = std::floor(levels);
  cv::Mat mask(now.size(), CV_8U, cv::Scalar(floor_levels < 0 ? 255 : 0));
  *fraction = floor_levels < 0 ? 1.0 : 0.0;
  if (floor_levels < 0 || floor_levels >= 255 || mask.empty()) return mask;
  const uchar t = uchar(floor_levels);
  size_t changed = 0;
  for (int y = 0; y < now.rows; ++y) {
    const uchar* a = now.ptr<uchar>(y);
    const uchar* b = before.ptr<uchar>(y);
    uchar* m = mask.ptr<uchar>(y);
    int x = 0;
#if defined(__SSE2__)
    const __m128i level = _mm_set1_epi8(char(t)), zero = _mm_setzero_si128(), one = _mm_set1_epi8(1);
    __m128i counts = zero;
    for (; x + 16 <= now.cols; x += 16) {
      const __m128i va = _mm_loadu_si128(reinterpret_cast<const __m128i*>(a + x));
      const __m128i vb = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b + x));
      const __m128i diff = _mm_or_si128(_mm_subs_epu8(va, vb), _mm_subs_epu8(vb, va));
      const __m128i same = _mm_cmpeq_epi8(_mm_subs_epu8(diff, level), zero);  // diff <= t
      const __m128i set = _mm_andnot_si128(same, _mm_set1_epi8(char(255)));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(m + x), set);
      counts = _mm_add_epi64(counts, _mm_sad_epu8(_mm_and_si128(set, one), zero));
    }
    changed += size_t(_mm_cvtsi128_si64(counts)) + size_t(_mm_cvtsi128_si64(_mm_unpackhi_epi64(counts, counts)));
#endif
    for (; x < now.cols; ++x) {
      const bool c = std::abs(int(a[x]) - int(b[x])) > t;
      m[x] = c ? 255 : 0;
      changed += c;
    }
  }
  *fraction = double(changed) / double(mask.total());
  return mask;
}

// Output cell by cell from its (up to) four inputs: a loop the compiler turns into vector code, where
// or-ing each input into d[x / 2] was not.
cv::Mat Pool2(const cv::Mat& mask) {
  CV_Assert(mask.type() == CV_8UC1);
  cv::Mat out((mask.rows + 1) / 2, (mask.cols + 1) / 2, CV_8U);
  const int pairs = mask.cols / 2;
  for (int y = 0; y < out.rows; ++y) {
    const uchar* a = mask.ptr<uchar>(2 * y);
    const uchar* b = mask.ptr<uchar>(std::min(2 * y + 1, mask.rows - 1));  // an odd last row pairs with itself
    uchar* d = out.ptr<uchar>(y);
    for (int x = 0; x < pairs; ++x) d[x] = uchar(a[2 * x] | a[2 * x + 1] | b[2 * x] | b[2 * x + 1]);
    if (mask.cols % 2) d[pairs] = uchar(a[mask.cols - 1] | b[mask.cols - 1]);
  }
  return out;
}

// Dilated by one cell, two set cells' squares touch or overlap (8-connectivity) exactly when the
// cells are at most 3 apart in both directions; a component's box is its set cells' box grown by
// the dilation's one cell, inside the mask.
std::vector<cv::Rect> ChangeComponents(const cv::Mat& mask) {
  CV_Assert(mask.type() == CV_8UC1);
  std::vector<cv::Rect> out;
  cv::Mat seen(mask.size(), CV_8U, cv::Scalar(0));
  std::vector<cv::Point> stack;
  for (int y = 0; y < mask.rows; ++y) {
    const uchar* row = mask.ptr<uchar>(y);
    for (int x = 0; x < mask.cols; ++x) {
      if (!row[x] || seen.at<uchar>(y, x)) continue;
      int x0 = x, x1 = x, y0 = y, y1 = y;
      seen.at<uchar>(y, x) = 1;
      stack.assign(1, cv::Point(x, y));
      while (!stack.empty()) {
        const cv::Point p = stack.back();
        stack.pop_back();
        x0 = std::min(x0, p.x), x1 = std::max(x1, p.x), y0 = std::min(y0, p.y), y1 = std::max(y1, p.y);
        for (int qy = std::max(0, p.y - 3); qy <= std::min(mask.rows - 1, p.y + 3); ++qy) {
          const uchar* m = mask.ptr<uchar>(qy);
          uchar* s = seen.ptr<uchar>(qy);
          for (int qx = std::max(0, p.x - 3); qx <= std::min(mask.cols - 1, p.x + 3); ++qx)
            if (m[qx] && !s[qx]) {
              s[qx] = 1;
              stack.emplace_back(qx, qy);
            }
        }
      }
      const cv::Rect box(cv::Point(x0 - 1, y0 - 1), cv::Point(x1 + 2, y1 + 2));
      out.push_back(box & cv::Rect(0, 0, mask.cols, mask.rows));
    }
  }
  return out;
}

}  // namespace vedette::vision
