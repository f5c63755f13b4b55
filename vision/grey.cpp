#include "vision/grey.h"

#include <cstring>
#include <stdexcept>

#include <opencv2/imgproc.hpp>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace vedette::vision {

namespace {

// Asks for the cache lines of region r (inside the image) without waiting for them: rows of a
// region are a frame's stride apart, which the hardware prefetcher does not follow.
void PrefetchRegion(const cv::Mat& image, const cv::Rect& r) {
  if (r.width <= 0 || r.height <= 0) return;
  const size_t row_bytes = size_t(r.width) * image.elemSize();
  for (int y = 0; y < r.height; ++y) {
    const uchar* row = image.ptr<uchar>(r.y + y) + size_t(r.x) * image.elemSize();
    for (size_t b = 0; b < row_bytes; b += 64) __builtin_prefetch(row + b);
    __builtin_prefetch(row + row_bytes - 1);
  }
}

}  // namespace

// The scalar loop's three loads and multiplies per pixel were half of the change map's time.
void GreyOfBgrRow(const uchar* src, int cn, int step, int w, uchar* dst) {
  int x = 0;
#if defined(__SSE2__)
  // Each pixel is read as 4 bytes: with 3 bytes a pixel and no gap, the last one would read past
  // the row, so it is left to the scalar loop.
  const int vector_end = cn == 4 || step > 1 ? w : w - 1;
  const size_t stride = size_t(step) * cn;
  const __m128i weights = _mm_setr_epi16(3735, 19235, 9798, 0, 3735, 19235, 9798, 0);
  const __m128i zero = _mm_setzero_si128(), half = _mm_set1_epi32(1 << 14);
  auto four = [&](int at) {
    // Each pixel straight into a register: four 4-byte stores read back as one 16-byte load
    // stall on store forwarding and made this slower than the scalar loop.
    auto load = [&](int k) {
      int32_t v;
      std::memcpy(&v, src + size_t(at + k) * stride, 4);
      return _mm_cvtsi32_si128(v);
    };
    const __m128i px = _mm_unpacklo_epi64(_mm_unpacklo_epi32(load(0), load(1)), _mm_unpacklo_epi32(load(2), load(3)));
    const __m128i lo = _mm_madd_epi16(_mm_unpacklo_epi8(px, zero), weights);  // b*wb + g*wg, r*wr of 0, 1
    const __m128i hi = _mm_madd_epi16(_mm_unpackhi_epi8(px, zero), weights);  // of pixels 2, 3
    const __m128 l = _mm_castsi128_ps(lo), h = _mm_castsi128_ps(hi);
    const __m128i bg = _mm_castps_si128(_mm_shuffle_ps(l, h, _MM_SHUFFLE(2, 0, 2, 0)));
    const __m128i r = _mm_castps_si128(_mm_shuffle_ps(l, h, _MM_SHUFFLE(3, 1, 3, 1)));
    return _mm_srli_epi32(_mm_add_epi32(_mm_add_epi32(bg, r), half), 15);
  };
  for (; x + 8 <= vector_end; x += 8) {
    const __m128i g16 = _mm_packs_epi32(four(x), four(x + 4));
    _mm_storel_epi64(reinterpret_cast<__m128i*>(dst + x), _mm_packus_epi16(g16, zero));
  }
#endif
  for (; x < w; ++x) dst[x] = GreyOfBgr(src + size_t(x) * step * cn);
}

cv::Mat GreyFrame(const cv::Mat& image) {
  if (image.channels() == 1) return image;
  cv::Mat grey;
  cv::cvtColor(image, grey, image.channels() == 4 ? cv::COLOR_BGRA2GRAY : cv::COLOR_BGR2GRAY);
  return grey;
}

cv::Mat GreyCrop(const cv::Mat& image, const cv::Rect& r) {
  if (image.depth() != CV_8U) throw std::invalid_argument("GreyCrop: the image must be 8-bit");
  const int cn = image.channels();
  if (cn == 1) return image(r);
  if (cn != 3 && cn != 4) throw std::invalid_argument("GreyCrop: the image must have 1, 3 or 4 channels");
  // OpenCV's vector code costs about 0.75 us a call (one core, this machine); the SSE2 rows below
  // have none: a 20 px window 0.26 against 0.58 us (the scalar loop they replaced took 0.67). Above
  // 576 px the two are within a tenth of each other on warm crops (40 px 0.71 against 0.77 us) and
  // OpenCV wins from about 80 x 80 px (the new-marker band's strip 45 against 60 us); in the tracker,
  // where crops come from memory, moving the limit up to 6400 px was no faster, so it stays. Same values.
  if (r.area() >= kGreyCropOpenCvFromPx) {
    cv::Mat out;
    cv::cvtColor(image(r), out, cn == 4 ? cv::COLOR_BGRA2GRAY : cv::COLOR_BGR2GRAY);
    return out;
  }
  PrefetchRegion(image, r);  // all rows' misses at once, not one after another
  cv::Mat out(r.height, r.width, CV_8U);
  for (int y = 0; y < r.height; ++y) {
    const uchar* src = image.ptr<uchar>(r.y + y) + size_t(r.x) * cn;
    GreyOfBgrRow(src, cn, 1, r.width, out.ptr<uchar>(y));
  }
  return out;
}

}  // namespace vedette::vision
