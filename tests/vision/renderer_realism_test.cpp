// The synthetic table against a real photo: a rendered marker's edge profile, print levels and
// noise should look like a photographed one's, or the detector's test matrix measures the renderer
// rather than tables. The photo is OpenCV's aruco tutorial picture (tests/data/realdata/SOURCES.md:
// a phone-class camera, JPEG); the render is the condition matrix's baseline
// (synth/table_conditions.h) with the same dictionary.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "calibration/dictionary.h"
#include "synth/detection_score.h"
#include "synth/table_conditions.h"
#include "vision/detect.h"
#include "vision/grey.h"
#include "vision/view_check.h"

namespace vedette::vision {
namespace {

struct Look {
  double rise_px = 0;      // median 10-90 % edge rise of the markers, px
  double black_white = 0;  // median fitted black level / white level
  double noise = 0;        // median |pixel - its 3x3 mean| over the image, grey levels
  int markers = 0;
};

Look LookOf(const cv::Mat& image, const cv::aruco::Dictionary& dict) {
  const cv::Mat gray = GreyFrame(image);
  const Detections d = DetectMarkers(DetectorOptions{}, gray, dict);
  std::vector<double> rise, ratio;
  for (const auto& m : d.markers) {
    const MarkerQuality q = MeasureMarker(gray, m.corners_px, dict.markerSize + 2, calib::MarkerCells(dict, m.id));
    if (q.edge_rise_px <= 0 || q.white_level <= 0) continue;
    rise.push_back(q.edge_rise_px);
    ratio.push_back(q.black_level / q.white_level);
  }
  cv::Mat mean, diff;
  cv::blur(gray, mean, cv::Size(3, 3));
  cv::absdiff(gray, mean, diff);
  std::vector<double> d_all(diff.begin<uchar>(), diff.end<uchar>());
  Look l;
  l.markers = int(rise.size());
  l.rise_px = synth::Median(rise);
  l.black_white = synth::Median(ratio);
  l.noise = synth::Median(d_all);
  return l;
}

// Measured 2026-11-25 over the six photos: edge rise 1.26-1.33 px, black/white 0.17-0.26, noise 1-2
// grey levels; the baseline render: rise 2.4 px (blur sigma 0.8 px: softer than these downscaled
// phone photos, as a 1080p webcam at full resolution is), black/white 0.11 (no veiling flare, so
// deeper blacks than a real lens gives), noise 1. The bounds say "the same regime": a renderer that
// lost its blur, its noise or its print levels fails.
TEST(RendererRealism, EdgesPrintAndNoiseLookLikePhotographedMarkers) {
  const auto dict = calib::DictionaryByName("DICT_6X6_250");
  std::vector<double> rise, black_white, noise;
  for (const char* f : {"singlemarkersoriginal.jpg", "choriginal.jpg", "chocclusion_original.jpg", "img_00.jpg", "img_02.jpg", "img_03.jpg"}) {
    const cv::Mat photo = cv::imread(std::string(VEDETTE_REALDATA) + "/aruco/" + f);
    ASSERT_FALSE(photo.empty()) << f;
    const Look r = LookOf(photo, *dict);
    ASSERT_GE(r.markers, 5) << f;
    rise.push_back(r.rise_px), black_white.push_back(r.black_white), noise.push_back(r.noise);
  }
  synth::TableCondition c = synth::StandardConditions().front();
  c.marker_min_mm = 30, c.marker_max_mm = 36;  // 33-40 px: the photos' markers are 40-90 px
  const synth::ConditionTable t = synth::MakeConditionTable(c, "DICT_6X6_250", 16, 3);
  const Look ours = LookOf(t.rendering.image, *dict);
  ASSERT_GE(ours.markers, 10);
  const double real_rise = synth::Median(rise), real_bw = synth::Median(black_white), real_noise = synth::Median(noise);
  SCOPED_TRACE("photos: rise " + std::to_string(real_rise) + " px, black/white " + std::to_string(real_bw) + ", noise " +
               std::to_string(real_noise) + "; render: rise " + std::to_string(ours.rise_px) + " px, black/white " +
               std::to_string(ours.black_white) + ", noise " + std::to_string(ours.noise));
  EXPECT_GT(ours.rise_px, 0.5 * real_rise);
  EXPECT_LT(ours.rise_px, 2.0 * real_rise);
  EXPECT_GT(ours.black_white, 0.3 * real_bw);
  EXPECT_LT(ours.black_white, 1.5 * real_bw);
  EXPECT_GT(ours.noise, 0.4 * real_noise);
  EXPECT_LT(ours.noise, 2.5 * real_noise);
}

}  // namespace
}  // namespace vedette::vision
