// Marker detection: the real photos OpenCV's own tutorial tests use, and synthetic renders whose
// true corners are known.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "calibration/dictionary.h"
#include "tests/vision/vision_scenes.h"
#include "tests/vision/vision_test_util.h"
#include "vision/detect.h"
#include "synth/detection_score.h"
#include "synth/renderer.h"
#include "synth/table_conditions.h"

namespace vedette::vision {

using namespace vedette::synth;  // the synthetic table gives these tests their ground truth
namespace {

using testing::kAruco;

// Expected IDs and corners (OpenCV's order, px) of singlemarkersoriginal.jpg, as opencv_contrib
// 4.6's test CV_ArucoTutorial.can_find_singlemarkersoriginal states them (to 1 px there).
TEST(DetectRealPhotos, SingleMarkersOriginalFindsTheTutorialsSixMarkers) {
  const cv::Mat image = cv::imread(kAruco + "singlemarkersoriginal.jpg");
  ASSERT_FALSE(image.empty());
  const std::map<int, std::array<float, 8>> gold = {
      {40, {359, 310, 404, 310, 410, 350, 362, 350}}, {98, {427, 255, 469, 256, 477, 289, 434, 288}},
      {62, {233, 273, 190, 273, 196, 241, 237, 241}}, {23, {298, 185, 334, 186, 335, 212, 297, 211}},
      {124, {425, 163, 430, 186, 394, 186, 390, 162}}, {203, {195, 155, 230, 155, 227, 178, 190, 178}}};
  const Detections d = DetectMarkers(DetectorOptions{}, image, *calib::DictionaryByName("DICT_6X6_250"));
  ASSERT_EQ(d.markers.size(), gold.size());
  EXPECT_TRUE(d.duplicate_ids.empty());
  for (const auto& m : d.markers) {
    ASSERT_TRUE(gold.count(m.id)) << "unexpected id " << m.id;
    const auto& g = gold.at(m.id);
    // Our corners are refined (the gold ones are OpenCV's unrefined integers): 1.5 px.
    for (int j = 0; j < 4; ++j) {
      EXPECT_NEAR(m.corners_px[j].x, g[2 * j], 1.5) << "id " << m.id << " corner " << j;
      EXPECT_NEAR(m.corners_px[j].y, g[2 * j + 1], 1.5) << "id " << m.id << " corner " << j;
    }
  }
}

// gboriginal.png: a 5x7 grid board in the custom tutorial dictionary; OpenCV's test expects all 35
// markers, IDs 0-34; marker 0's corners about (252,74) (286,81) (274,102) (238,95).
TEST(DetectRealPhotos, GridBoardWithCustomDictionaryFindsAll35) {
  const cv::Mat image = cv::imread(kAruco + "gboriginal.png");
  ASSERT_FALSE(image.empty());
  const auto dict = calib::LoadDictionaryFile(kAruco + "tutorial_dict.yml");
  const Detections d = DetectMarkers(DetectorOptions{}, image, *dict);
  std::vector<int> ids;
  for (const auto& m : d.markers) ids.push_back(m.id);
  std::sort(ids.begin(), ids.end());
  std::vector<int> expected(35);
  for (int i = 0; i < 35; ++i) expected[i] = i;
  EXPECT_EQ(ids, expected);
  for (const auto& m : d.markers) {
    if (m.id != 0) continue;
    const float g[8] = {252, 74, 286, 81, 274, 102, 238, 95};
    for (int j = 0; j < 4; ++j) {
      EXPECT_NEAR(m.corners_px[j].x, g[2 * j], 1.5);
      EXPECT_NEAR(m.corners_px[j].y, g[2 * j + 1], 1.5);
    }
  }
}

struct Rendered {
  Scene scene;
  SyntheticCamera cam;
  Rendering r;
};

Rendered RenderSmall(const RenderOptions& o) {
  Rendered out{testing::SmallTable(), testing::SmallCamera(), {}};
  out.r = SceneRenderer(out.cam.intrinsics).Render(o, out.scene, out.cam.camera_from_table, *calib::DictionaryByName("DICT_4X4_50"));
  return out;
}

double MaxCornerError(const calib::MarkerObservation& m, const MarkerTruth& t) {
  double e = 0;
  for (int j = 0; j < 4; ++j) e = std::max(e, cv::norm(cv::Point2d(m.corners_px[j]) - t.corners_px[j]));
  return e;
}

// Every marker of a blurred, noisy render is found with its true ID, and the edge-line fit puts the
// corners several times closer to the truth than stock detectMarkers' (default parameters: outline
// pixels, about half a pixel inside).
TEST(DetectSynthetic, EdgeRefinementBeatsStockCorners) {
  RenderOptions o;
  o.seed = 7;
  o.blur_sigma_px = 0.9;
  o.read_noise = 2.0;
  const Rendered s = RenderSmall(o);
  const auto dict = calib::DictionaryByName("DICT_4X4_50");
  const DetectorOptions opt = DetectorOptionsFor(s.scene, s.cam.intrinsics, s.cam.centre_in_table_mm.z);
  const Detections ours = DetectMarkers(opt, s.r.image, *dict);
  const Detections stock = DetectMarkersStock(s.r.image, *dict);
  std::map<int, const MarkerTruth*> truth;
  for (const auto& t : s.r.truth.markers) truth[t.placement.id] = &t;
  ASSERT_EQ(ours.markers.size(), truth.size());  // 4 anchors + 4 units
  double worst_ours = 0, sum_ours = 0, sum_plain = 0;
  std::string errors;
  for (const auto& m : ours.markers) {
    ASSERT_TRUE(truth.count(m.id));
    worst_ours = std::max(worst_ours, MaxCornerError(m, *truth[m.id]));
    sum_ours += MaxCornerError(m, *truth[m.id]);
    errors += "id " + std::to_string(m.id) + " side " + std::to_string(truth[m.id]->side_px) + " px: " +
              std::to_string(MaxCornerError(m, *truth[m.id])) + " px; corners (found / true):";
    for (int j = 0; j < 4; ++j)
      errors += " " + std::to_string(m.corners_px[j].x) + "," + std::to_string(m.corners_px[j].y) + " / " +
                std::to_string(truth[m.id]->corners_px[j].x) + "," + std::to_string(truth[m.id]->corners_px[j].y);
    errors += "\n";
  }
  // Stock corners for the markers both found (stock, with its default parameters, may miss some).
  double sum_ours_common = 0;
  for (const auto& m : stock.markers) {
    for (const auto& o : ours.markers)
      if (o.id == m.id) sum_ours_common += MaxCornerError(o, *truth.at(o.id)), sum_plain += MaxCornerError(m, *truth.at(m.id));
  }
  EXPECT_LT(worst_ours, 0.4) << errors;
  EXPECT_LT(sum_ours / ours.markers.size(), 0.2);
  ASSERT_GE(stock.markers.size(), 4u);
  EXPECT_LT(sum_ours_common * 2.5, sum_plain) << "ours " << sum_ours_common << " vs stock " << sum_plain;
}

// Markers the caller has already measured are skipped (the tracker's band and change regions), by
// position, whatever quad the caller had; the others come out exactly as without the list.
TEST(DetectSynthetic, KnownMarkersAreNotReadAgain) {
  RenderOptions o;
  o.seed = 3;
  o.blur_sigma_px = 0.8;
  const Rendered s = RenderSmall(o);
  const auto dict = calib::DictionaryByName("DICT_4X4_50");
  const DetectorOptions opt = DetectorOptionsFor(s.scene, s.cam.intrinsics, s.cam.centre_in_table_mm.z);
  const Detections all = DetectMarkers(opt, s.r.image, *dict);
  ASSERT_EQ(all.markers.size(), 8u);
  std::vector<std::array<cv::Point2f, 4>> known;
  std::set<int> known_ids;
  for (const auto& m : all.markers)
    if (m.id % 2 == 0) {
      auto q = m.corners_px;
      for (auto& p : q) p += cv::Point2f(0.7f, -0.5f);  // the caller's measurement need not be this one
      std::rotate(q.begin(), q.begin() + 1, q.end());
      known.push_back(q);
      known_ids.insert(m.id);
    }
  const Detections rest = DetectMarkers(opt, s.r.image, *dict, known);
  EXPECT_EQ(rest.markers.size(), all.markers.size() - known.size());
  for (const auto& m : rest.markers) {
    EXPECT_FALSE(known_ids.count(m.id)) << "id " << m.id << " was known";
    const auto same = std::find_if(all.markers.begin(), all.markers.end(), [&](const auto& a) { return a.id == m.id; });
    ASSERT_NE(same, all.markers.end());
    for (int j = 0; j < 4; ++j) EXPECT_EQ(m.corners_px[j], same->corners_px[j]) << "id " << m.id << " corner " << j;
  }
}

// The tracker's entry point: a quad about 1 px off in a noise-free render comes back to within
// 0.3 px of the truth (the render's own edges are exact to ~0.08 px at 6x6 supersampling).
TEST(DetectSynthetic, RefineMarkerCornersRecoversFromARoughQuad) {
  RenderOptions o;
  o.blur_sigma_px = 0.7;
  o.read_noise = 0;
  o.shot_noise = 0;
  o.jpeg_quality = 0;
  o.supersample = 6;
  const Rendered s = RenderSmall(o);
  cv::Mat gray;
  cv::cvtColor(s.r.image, gray, cv::COLOR_BGR2GRAY);
  DetectorOptions opt;
  for (const MarkerTruth& t : s.r.truth.markers) {
    std::array<cv::Point2f, 4> q;
    const cv::Point2f push[4] = {{0.8f, -0.6f}, {-0.7f, 0.5f}, {0.6f, 0.9f}, {-0.9f, -0.4f}};
    for (int j = 0; j < 4; ++j) q[j] = cv::Point2f(t.corners_px[j]) + push[j];
    ASSERT_TRUE(RefineMarkerCorners(opt, gray, &q)) << "marker " << t.placement.id;
    for (int j = 0; j < 4; ++j) EXPECT_LT(cv::norm(cv::Point2d(q[j]) - t.corners_px[j]), 0.3) << "marker " << t.placement.id;
  }
  // A degenerate quad is refused and left as it was.
  std::array<cv::Point2f, 4> flat = {cv::Point2f(10, 10), {20, 10}, {30, 10}, {40, 10}};
  const auto before = flat;
  EXPECT_FALSE(RefineMarkerCorners(opt, gray, &flat));
  EXPECT_EQ(flat, before);
}

// Two units carrying the same marker ID: both are reported, and the ID is flagged.
TEST(DetectSynthetic, SameIdAtTwoSpotsIsFlaggedNotMerged) {
  Scene scene = testing::SmallTable();
  scene.units[1].marker->id = scene.units[0].marker->id;  // U1 and U2 both carry marker 10
  const SyntheticCamera cam = testing::SmallCamera();
  RenderOptions o;
  o.read_noise = 1;
  const auto dict = calib::DictionaryByName("DICT_4X4_50");
  const Rendering r = SceneRenderer(cam.intrinsics).Render(o, scene, cam.camera_from_table, *dict);
  const Detections d = DetectMarkers(DetectorOptionsFor(scene, cam.intrinsics), r.image, *dict);
  EXPECT_EQ(d.duplicate_ids, std::vector<int>{10});
  EXPECT_EQ(std::count_if(d.markers.begin(), d.markers.end(), [](const auto& m) { return m.id == 10; }), 2);
}

synth::ConditionTable ConditionTableNamed(const std::string& name, const std::string& dictionary, uint64_t seed) {
  for (const synth::TableCondition& c : synth::StandardConditions())
    if (c.name == name) return synth::MakeConditionTable(c, dictionary, 20, seed);
  throw std::runtime_error("no condition " + name);
}

// Under a 5 px motion streak the box-mean threshold breaks some markers' black borders: the second
// look (the mid-range threshold over the broken outlines) reads markers the first pass cannot, with
// no wrong id (three tables, 72 markers). On a table where every marker of the roster is read at
// once, it does not run.
TEST(DetectSynthetic, SecondLookReadsMotionBlurredMarkersAndRunsOnlyWhenSomeAreMissing) {
  const auto dict = calib::DictionaryByName("DICT_APRILTAG_36h11");
  synth::DetectionScore with, without;
  for (uint64_t seed = 1; seed <= 3; ++seed) {
    const synth::ConditionTable blurred = ConditionTableNamed("motion_blur", "DICT_APRILTAG_36h11", seed);
    DetectorOptions o = DetectorOptionsFor(blurred.scene, blurred.camera.intrinsics);
    EXPECT_EQ(o.expected_markers, int(blurred.scene.units.size() + blurred.scene.anchors.size()));
    const Detections a = DetectMarkers(o, blurred.rendering.image, *dict);
    o.second_look = false;
    const Detections b = DetectMarkers(o, blurred.rendering.image, *dict);
    EXPECT_GT(a.second_look_outlines, 0);
    EXPECT_EQ(b.second_look_outlines, -1);
    with.Add(synth::ScoreDetections({}, blurred.rendering.truth, a.markers));
    without.Add(synth::ScoreDetections({}, blurred.rendering.truth, b.markers));
  }
  SCOPED_TRACE("with the second look " + std::to_string(with.found) + "/" + std::to_string(with.expected) + ", without " +
               std::to_string(without.found));
  EXPECT_GE(with.found, without.found + 5);
  EXPECT_EQ(with.wrong, 0);
  EXPECT_LT(synth::Median(with.corner_error_px), 0.3);

  const synth::ConditionTable clear = ConditionTableNamed("baseline", "DICT_APRILTAG_36h11", 1);
  const Detections all = DetectMarkers(DetectorOptionsFor(clear.scene, clear.camera.intrinsics), clear.rendering.image, *dict);
  const synth::DetectionScore every = synth::ScoreDetections({}, clear.rendering.truth, all.markers);
  ASSERT_EQ(every.found, every.expected);
  EXPECT_EQ(all.second_look_outlines, -1);
}

TEST(DetectorOptions, CheckRejectsNonsense) {
  std::string error;
  DetectorOptions o;
  EXPECT_TRUE(o.Check(&error)) << error;
  o.min_marker_side_px = 2;
  EXPECT_FALSE(o.Check(&error));
  EXPECT_NE(error.find("min_marker_side_px"), std::string::npos);
  o = DetectorOptions{};
  o.max_marker_side_px = 5;
  EXPECT_FALSE(o.Check(&error));
  o = DetectorOptions{};
  o.subpix_window_px = -1;
  EXPECT_FALSE(o.Check(&error));
  o = DetectorOptions{};
  o.expected_markers = -1;
  EXPECT_FALSE(o.Check(&error));
  o = DetectorOptions{};
  o.mid_range.window_px = 4;
  EXPECT_FALSE(o.Check(&error));
  EXPECT_NE(error.find("mid-range"), std::string::npos);
}

// DetectorOptionsFor: the small table's 14-40 mm markers at ~1.8 px/mm are ~25-75 px; the limits
// must include them with room to spare, and the SUBPIX window stays within half a cell (~2 px).
TEST(DetectorOptions, ForRosterCoversItsMarkers) {
  const Scene scene = testing::SmallTable();
  const SyntheticCamera cam = testing::SmallCamera();
  const DetectorOptions o = DetectorOptionsFor(scene, cam.intrinsics, cam.centre_in_table_mm.z);
  std::string error;
  EXPECT_TRUE(o.Check(&error)) << error;
  EXPECT_LT(o.min_marker_side_px, 14.0);
  EXPECT_GT(o.max_marker_side_px, 90.0);
  EXPECT_GE(o.subpix_window_px, 1);
  EXPECT_LE(o.subpix_window_px, 3);
}

}  // namespace
}  // namespace vedette::vision
