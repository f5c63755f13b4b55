#include "vision/track_verify.h"

#include <cmath>

#include <opencv2/imgproc.hpp>

#include "calibration/dictionary.h"
#include "vision/track_state.h"

namespace vedette::vision {

BitCheck CheckMarkerBits(const cv::Mat& image, const std::array<cv::Point2f, 4>& c, const cv::aruco::Dictionary& dict,
                         int id, double min_contrast) {
  BitCheck out;
  if (id < 0 || id >= calib::DictionarySize(dict)) return out;
  const cv::Mat cells = calib::MarkerCells(dict, id);  // 255 = white, row 0 at the top edge (corners 0-1)
  const int n = cells.rows;
  const std::vector<cv::Point2f> src = {{0, 0}, {float(n), 0}, {float(n), float(n)}, {0, float(n)}};
  const std::vector<cv::Point2f> dst(c.begin(), c.end());
  const cv::Matx33d h = cv::getPerspectiveTransform(src, dst);
  // Mean of 4 samples in the middle half of each cell: blur and a sub-pixel misfit stay inside.
  std::vector<double> v(n * n, 0.0);
  for (int r = 0; r < n; ++r)
    for (int col = 0; col < n; ++col) {
      double sum = 0;
      for (int s = 0; s < 4; ++s) {
        const double u = col + 0.5 + ((s & 1) ? 0.2 : -0.2), w = r + 0.5 + ((s & 2) ? 0.2 : -0.2);
        const cv::Vec3d p = h * cv::Vec3d(u, w, 1.0);
        const float g = GreyAt(image, p[0] / p[2], p[1] / p[2]);
        if (!std::isfinite(g)) return out;
        sum += g;
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
