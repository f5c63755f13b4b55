#pragma once
// A synthetic marker whose corners are known exactly. The marker (DICT_4X4_50 id 7, 6 x 6 cells with
// the border) is drawn 8x larger on a white canvas, averaged down 8 x 8 and blurred (sigma 0.7 px),
// so its corners sit at known sub-pixel positions:
//
//   (20.25, 17.125) +--------+ (44.25, 17.125)      24 px side, 4 px cells; corner order as OpenCV's:
//                   | marker |                      top-left, top-right, bottom-right, bottom-left
//   (20.25, 41.125) +--------+ (44.25, 41.125)
//
// Rotated copies turn the hi-res canvas about the marker's centre.
#include <array>
#include <cmath>

#include <opencv2/aruco.hpp>
#include <opencv2/imgproc.hpp>

namespace vedette::vision::testing {

inline constexpr int kSs = 8;  // supersampling

struct Synthetic {
  cv::Mat gray;
  std::array<cv::Point2f, 4> corners;
};

// Hi-res canvas: pixel edges at integers; a lo-res pixel i covers hi-res [8i, 8i + 8) and has its
// centre at lo-res coordinate i, so a hi-res coordinate X is lo-res X / 8 - 0.5.
inline Synthetic Draw(double rotate_deg) {
  const cv::aruco::Dictionary dict = cv::aruco::getPredefinedDictionary(cv::aruco::DICT_4X4_50);
  cv::Mat marker;
  cv::aruco::drawMarker(cv::makePtr<cv::aruco::Dictionary>(dict), 7, 6 * 32, marker, 1);
  cv::Mat hi(64 * kSs, 64 * kSs, CV_8U, cv::Scalar(235));
  marker.convertTo(marker, CV_8U, 200.0 / 255.0, 30);  // dark 30, light 230
  const int x0 = 166, y0 = 141;
  marker.copyTo(hi(cv::Rect(x0, y0, marker.cols, marker.rows)));
  std::array<cv::Point2d, 4> c_hi = {cv::Point2d(x0, y0), cv::Point2d(x0 + 192, y0), cv::Point2d(x0 + 192, y0 + 192),
                                     cv::Point2d(x0, y0 + 192)};
  if (rotate_deg != 0) {
    const cv::Point2f centre(float(x0 + 96), float(y0 + 96));
    const cv::Mat r = cv::getRotationMatrix2D(centre, rotate_deg, 1.0);
    cv::warpAffine(hi, hi, r, hi.size(), cv::INTER_LINEAR, cv::BORDER_CONSTANT, cv::Scalar(235));
    for (auto& p : c_hi) {
      const double x = r.at<double>(0, 0) * p.x + r.at<double>(0, 1) * p.y + r.at<double>(0, 2);
      const double y = r.at<double>(1, 0) * p.x + r.at<double>(1, 1) * p.y + r.at<double>(1, 2);
      p = {x, y};
    }
  }
  Synthetic s;
  cv::resize(hi, s.gray, cv::Size(64, 64), 0, 0, cv::INTER_AREA);
  cv::GaussianBlur(s.gray, s.gray, cv::Size(0, 0), 0.7);
  for (int i = 0; i < 4; ++i) s.corners[i] = cv::Point2f(float(c_hi[i].x / kSs - 0.5), float(c_hi[i].y / kSs - 0.5));
  return s;
}

inline double MaxError(const std::array<cv::Point2f, 4>& a, const std::array<cv::Point2f, 4>& b) {
  double e = 0;
  for (int i = 0; i < 4; ++i) e = std::max(e, double(cv::norm(a[i] - b[i])));
  return e;
}

inline std::array<cv::Point2f, 4> Shifted(std::array<cv::Point2f, 4> c, cv::Point2f d) {
  for (auto& p : c) p += d;
  return c;
}

}  // namespace vedette::vision::testing
