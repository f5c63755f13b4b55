#include "vision/grey.h"

#include <stdexcept>

namespace vedette::vision {

cv::Mat GreyCrop(const cv::Mat& image, const cv::Rect& r) {
  if (image.depth() != CV_8U) throw std::invalid_argument("GreyCrop: the image must be 8-bit");
  const int cn = image.channels();
  if (cn == 1) return image(r);
  if (cn != 3 && cn != 4) throw std::invalid_argument("GreyCrop: the image must have 1, 3 or 4 channels");
  PrefetchRegion(image, r);  // all rows' misses at once, not one after another
  cv::Mat out(r.height, r.width, CV_8U);
  for (int y = 0; y < r.height; ++y) {
    const uchar* src = image.ptr<uchar>(r.y + y) + size_t(r.x) * cn;
    uchar* dst = out.ptr<uchar>(y);
    if (cn == 3)
      for (int x = 0; x < r.width; ++x, src += 3) dst[x] = GreyOfBgr(src);
    else
      for (int x = 0; x < r.width; ++x, src += 4) dst[x] = GreyOfBgr(src);
  }
  return out;
}

}  // namespace vedette::vision
