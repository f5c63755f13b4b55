#include "vision/track_verify.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include <opencv2/imgproc.hpp>

#include "calibration/dictionary.h"
#include "vision/bilinear.h"
#include "vision/track_state.h"

namespace vedette::vision {

BitCheck CheckMarkerBits(const cv::Mat& image, const std::array<cv::Point2f, 4>& c, const cv::aruco::Dictionary& dict,
                         int id, double min_contrast) {
  if (id < 0 || id >= calib::DictionarySize(dict)) return BitCheck{};
  return CheckMarkerBits(image, c, calib::MarkerCells(dict, id), min_contrast);
}

BitCheck CheckMarkerBits(const cv::Mat& image, const std::array<cv::Point2f, 4>& c, const cv::Mat& cells, double min_contrast) {
  BitCheck out;
  if (cells.empty() || cells.rows != cells.cols || cells.type() != CV_8UC1) return out;
  const int n = cells.rows;
  if (n > 16) return out;
  const cv::Point2f src[4] = {{0, 0}, {float(n), 0}, {float(n), float(n)}, {0, float(n)}};
  const cv::Matx33d h = cv::getPerspectiveTransform(src, c.data());
  const bool gray = image.type() == CV_8UC1;
  // Mean of 4 samples in the middle half of each cell: blur and a sub-pixel misfit stay inside.
  double v[16 * 16];
  for (int r = 0; r < n; ++r)
    for (int col = 0; col < n; ++col) {
      double sum = 0;
      for (int s = 0; s < 4; ++s) {
        const double u = col + 0.5 + ((s & 1) ? 0.2 : -0.2), w = r + 0.5 + ((s & 2) ? 0.2 : -0.2);
        const double z = h(2, 0) * u + h(2, 1) * w + h(2, 2);
        const double x = (h(0, 0) * u + h(0, 1) * w + h(0, 2)) / z, y = (h(1, 0) * u + h(1, 1) * w + h(1, 2)) / z;
        if (gray) {
          // The tracker's crops are grey: plain bilinear (GreyAt's colour handling is the slow part).
          double g;
          if (!SampleBilinear(image, x, y, &g)) return out;
          sum += g;
        } else {
          const float g = GreyAt(image, x, y);
          if (!std::isfinite(g)) return out;
          sum += g;
        }
      }
      v[r * n + col] = sum / 4;
    }
  double white = 0, black = 0;
  int nw = 0, nb = 0;
  for (int r = 0; r < n; ++r)
    for (int col = 0; col < n; ++col) {
      if (cells.at<uchar>(r, col)) white += v[r * n + col], ++nw;
      else black += v[r * n + col], ++nb;
    }
  if (nw == 0 || nb == 0) return out;
  white /= nw;
  black /= nb;
  out.contrast = white - black;
  if (out.contrast < min_contrast) return out;
  const double mid = 0.5 * (white + black);
  out.errors = 0;
  for (int r = 0; r < n; ++r)
    for (int col = 0; col < n; ++col)
      if ((v[r * n + col] > mid) != (cells.at<uchar>(r, col) != 0)) ++out.errors;
  return out;
}

}  // namespace vedette::vision
