#pragma once
// Bilinear sampling of an 8-bit grey image at sub-pixel positions (pixel centres at integers), for
// the edge profiles and cell readings that work between pixels.
#include <opencv2/core.hpp>

namespace vedette::vision {

// False (v untouched) outside the image or at NaN; the last row and column are not sampled so
// that the four neighbours always exist.
inline bool SampleBilinear(const cv::Mat& gray, double x, double y, double* v) {
  if (!(x >= 0 && y >= 0 && x < gray.cols - 1.001 && y < gray.rows - 1.001)) return false;
  const int x0 = int(x), y0 = int(y);
  const double fx = x - x0, fy = y - y0;
  const uchar* r0 = gray.ptr<uchar>(y0) + x0;
  const uchar* r1 = gray.ptr<uchar>(y0 + 1) + x0;
  *v = (1 - fy) * ((1 - fx) * r0[0] + fx * r0[1]) + fy * ((1 - fx) * r1[0] + fx * r1[1]);
  return true;
}

}  // namespace vedette::vision
