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

namespace {

// The projective map of the unit square onto a quad (corners in order from (0,0) round to (0,1)),
// in closed form (Heckbert): cv::getPerspectiveTransform solves an 8 x 8 system for the same map
// and was a third of a check. x = (a u + b v + c) / w, y = (d u + e v + f) / w, w = g u + h v + 1.
struct SquareToQuad {
  double a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, g = 0, h = 0;
  bool ok = false;  // false for a quad with three corners on a line
};

SquareToQuad MapSquareTo(const std::array<cv::Point2f, 4>& q) {
  SquareToQuad m;
  const double x0 = q[0].x, y0 = q[0].y, x1 = q[1].x, y1 = q[1].y, x2 = q[2].x, y2 = q[2].y, x3 = q[3].x, y3 = q[3].y;
  const double sx = x0 - x1 + x2 - x3, sy = y0 - y1 + y2 - y3;
  const double dx1 = x1 - x2, dx2 = x3 - x2, dy1 = y1 - y2, dy2 = y3 - y2;
  const double den = dx1 * dy2 - dx2 * dy1;
  if (!(std::abs(den) > 1e-12)) return m;
  m.g = (sx * dy2 - dx2 * sy) / den;
  m.h = (dx1 * sy - sx * dy1) / den;
  m.a = x1 - x0 + m.g * x1, m.b = x3 - x0 + m.h * x3, m.c = x0;
  m.d = y1 - y0 + m.g * y1, m.e = y3 - y0 + m.h * y3, m.f = y0;
  m.ok = true;
  return m;
}

// Mean of 4 samples in the middle half of each of the n x n cells (blur and a sub-pixel misfit
// stay inside), row by row into v; false when a sample leaves the image.
bool CellMeans(const cv::Mat& image, const SquareToQuad& m, int n, double* v) {
  const bool gray = image.type() == CV_8UC1;
  for (int r = 0; r < n; ++r)
    for (int col = 0; col < n; ++col) {
      double sum = 0;
      for (int s = 0; s < 4; ++s) {
        const double u = (col + 0.5 + ((s & 1) ? 0.2 : -0.2)) / n, w = (r + 0.5 + ((s & 2) ? 0.2 : -0.2)) / n;
        const double iz = 1.0 / (m.g * u + m.h * w + 1);
        const double x = (m.a * u + m.b * w + m.c) * iz, y = (m.d * u + m.e * w + m.f) * iz;
        double g;
        if (gray) {
          // The tracker's crops are grey: plain bilinear (GreyAt's colour handling is the slow part).
          if (!SampleBilinear(image, x, y, &g)) return false;
        } else {
          g = GreyAt(image, x, y);
          if (!std::isfinite(g)) return false;
        }
        sum += g;
      }
      v[r * n + col] = sum / 4;
    }
  return true;
}

}  // namespace

BitCheck CheckMarkerBits(const cv::Mat& image, const std::array<cv::Point2f, 4>& c, const cv::Mat& cells, double min_contrast) {
  BitCheck out;
  if (cells.empty() || cells.rows != cells.cols || cells.type() != CV_8UC1) return out;
  const int n = cells.rows;
  if (n > 16) return out;
  const SquareToQuad map = MapSquareTo(c);
  const cv::Mat code = cells.isContinuous() ? cells : cells.clone();
  double v[16 * 16];
  if (!map.ok || !CellMeans(image, map, n, v)) return out;
  double white = 0, black = 0;
  int nw = 0, nb = 0;
  for (int i = 0; i < n * n; ++i) {
    if (code.data[i]) white += v[i], ++nw;
    else black += v[i], ++nb;
  }
  if (nw == 0 || nb == 0) return out;
  white /= nw;
  black /= nb;
  out.contrast = white - black;
  if (out.contrast < min_contrast) return out;
  const double mid = 0.5 * (white + black);
  out.errors = 0;
  for (int i = 0; i < n * n; ++i)
    if ((v[i] > mid) != (code.data[i] != 0)) ++out.errors;
  return out;
}

}  // namespace vedette::vision
