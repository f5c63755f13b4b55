#pragma once
// Detections scored against a rendering's truth: recall by marker size, wrong or invented IDs,
// corner and centre errors. One scorer for every detector (Vedette, stock OpenCV, AprilTag), so the
// condition test and benchmark compare like with like.
#include <array>
#include <string>
#include <vector>

#include "calibration/marker_observation.h"
#include "synth/renderer.h"

namespace vedette::synth {

inline constexpr std::array<double, 6> kSizeBinEdgesPx = {0, 16, 20, 28, 40, 1e9};  // marker side bins, px
inline constexpr int kSizeBins = 5;
std::string SizeBinName(int bin);  // "<16", "16-20", ..., ">=40"

struct ScoreOptions {
  double max_occluded = 0.3;       // markers hidden more than this (fraction) are not expected to be found
  double match_fraction = 0.25;    // a detection of the right ID within this fraction of the side of the truth is that marker
};

struct DetectionScore {
  int expected = 0, found = 0;               // markers expected (in the image, hidden at most max_occluded) and found
  int wrong = 0;                             // detections matching no expected marker of their ID (misread or invented)
  std::array<int, kSizeBins> expected_by_size{}, found_by_size{};
  std::vector<double> corner_error_px;       // every corner of every found marker, px
  std::vector<double> centre_error_px;       // every found marker's centre, px
  std::vector<double> heading_error_deg;     // every found marker's heading in the image (its first side's direction), deg
  double ms = 0;                             // detection time, summed over the frames scored
  void Add(const DetectionScore& other);
  double Recall() const { return expected ? double(found) / expected : 1.0; }
};

// Corners are compared in whichever cyclic order fits best, so detectors that number corners
// differently (AprilTag) are measured on geometry alone.
DetectionScore ScoreDetections(const ScoreOptions& o, const RenderTruth& truth,
                               const std::vector<calib::MarkerObservation>& detections, int first_id = 0);

double Median(std::vector<double> v);  // NaN when empty

}  // namespace vedette::synth
