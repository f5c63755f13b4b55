#include "synth/detection_score.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace vedette::synth {

std::string SizeBinName(int bin) {
  if (bin == 0) return "<16";
  if (bin == kSizeBins - 1) return ">=" + std::to_string(int(kSizeBinEdgesPx[bin]));
  return std::to_string(int(kSizeBinEdgesPx[bin])) + "-" + std::to_string(int(kSizeBinEdgesPx[bin + 1]));
}

void DetectionScore::Add(const DetectionScore& b) {
  expected += b.expected, found += b.found, wrong += b.wrong, ms += b.ms;
  for (int i = 0; i < kSizeBins; ++i) expected_by_size[i] += b.expected_by_size[i], found_by_size[i] += b.found_by_size[i];
  corner_error_px.insert(corner_error_px.end(), b.corner_error_px.begin(), b.corner_error_px.end());
  centre_error_px.insert(centre_error_px.end(), b.centre_error_px.begin(), b.centre_error_px.end());
  heading_error_deg.insert(heading_error_deg.end(), b.heading_error_deg.begin(), b.heading_error_deg.end());
}

double Median(std::vector<double> v) {
  if (v.empty()) return std::numeric_limits<double>::quiet_NaN();
  std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
  return v[v.size() / 2];
}

namespace {

int BinOf(double side_px) {
  for (int b = 0; b < kSizeBins; ++b)
    if (side_px < kSizeBinEdgesPx[b + 1]) return b;
  return kSizeBins - 1;
}

cv::Point2d Centre(const std::array<cv::Point2d, 4>& c) { return 0.25 * (c[0] + c[1] + c[2] + c[3]); }

// Per-corner distances in the cyclic order, either way round, that fits best (AprilTag numbers its
// corners the other way round from OpenCV), and the heading error: the angle between the truth's
// first side and the matching side of the detection, deg.
struct CornerFit {
  std::array<double, 4> errors{};
  double heading_deg = 0;
};

CornerFit FitCorners(const std::array<cv::Point2d, 4>& truth, const std::array<cv::Point2f, 4>& found) {
  CornerFit best;
  double best_sum = 1e18;
  for (int dir : {1, -1})
    for (int s = 0; s < 4; ++s) {
      CornerFit f;
      double sum = 0;
      auto at = [&](int i) { return cv::Point2d(found[(s + dir * i + 8) % 4]); };
      for (int i = 0; i < 4; ++i) sum += f.errors[i] = cv::norm(truth[i] - at(i));
      if (sum >= best_sum) continue;
      const cv::Point2d a = truth[1] - truth[0], b = at(1) - at(0);
      f.heading_deg = std::abs(std::atan2(a.x * b.y - a.y * b.x, a.dot(b))) * 180 / CV_PI;
      best_sum = sum, best = f;
    }
  return best;
}

}  // namespace

DetectionScore ScoreDetections(const ScoreOptions& o, const RenderTruth& truth,
                               const std::vector<calib::MarkerObservation>& detections, int first_id) {
  DetectionScore s;
  std::vector<bool> used(detections.size(), false);
  for (const MarkerTruth& t : truth.markers) {
    if (!t.in_image || t.placement.id < first_id) continue;
    const bool expected = t.occluded_fraction <= o.max_occluded;
    const int bin = BinOf(t.side_px);
    if (expected) ++s.expected, ++s.expected_by_size[bin];
    for (size_t d = 0; d < detections.size(); ++d) {
      if (used[d] || detections[d].id != t.placement.id) continue;
      const auto& c = detections[d].corners_px;
      const cv::Point2d centre = 0.25 * cv::Point2d(c[0] + c[1] + c[2] + c[3]);
      const double err = cv::norm(centre - Centre(t.corners_px));
      if (err > o.match_fraction * t.side_px) continue;
      used[d] = true;  // a hidden marker found anyway is not wrong, but only expected ones count
      if (!expected) break;
      ++s.found, ++s.found_by_size[bin];
      s.centre_error_px.push_back(err);
      const CornerFit fit = FitCorners(t.corners_px, c);
      for (double e : fit.errors) s.corner_error_px.push_back(e);
      s.heading_error_deg.push_back(fit.heading_deg);
      break;
    }
  }
  for (size_t d = 0; d < detections.size(); ++d)
    if (!used[d] && detections[d].id >= first_id) ++s.wrong;
  return s;
}

}  // namespace vedette::synth
