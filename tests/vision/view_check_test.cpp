// The set-up check: the marker measures on a marker drawn with known levels and blur, then whole
// pictures of the small table (vision_scenes.h) on each side of each threshold.
#include <gtest/gtest.h>

#include <algorithm>

#include <opencv2/aruco.hpp>
#include <opencv2/imgproc.hpp>

#include "calibration/dictionary.h"
#include "tests/vision/vision_scenes.h"
#include "synth/renderer.h"
#include "vision/view_check.h"

namespace vedette::vision {

using namespace vedette::synth;  // the synthetic table gives these tests their ground truth
namespace {

// DICT_4X4_50 marker 7, 48 px (8 px cells), black 30 and white 230 on a 235 canvas, drawn 8x larger,
// averaged down and blurred by a Gaussian of sigma `blur` px. Corners at (24, 24) .. (72, 72) in
// pixel-edge coordinates, i.e. (23.5, 23.5) .. (71.5, 71.5) with pixel centres at integers.
struct Drawn {
  cv::Mat gray;
  std::array<cv::Point2f, 4> corners;
};
Drawn DrawMarker(double blur) {
  const auto dict = calib::DictionaryByName("DICT_4X4_50");
  cv::Mat marker;
  cv::aruco::drawMarker(dict, 7, 48 * 8, marker, 1);
  marker.convertTo(marker, CV_8U, 200.0 / 255.0, 30);
  cv::Mat hi(96 * 8, 96 * 8, CV_8U, cv::Scalar(235));
  marker.copyTo(hi(cv::Rect(24 * 8, 24 * 8, marker.cols, marker.rows)));
  Drawn d;
  cv::resize(hi, d.gray, cv::Size(96, 96), 0, 0, cv::INTER_AREA);
  if (blur > 0) cv::GaussianBlur(d.gray, d.gray, cv::Size(0, 0), blur);
  d.corners = {cv::Point2f(23.5f, 23.5f), cv::Point2f(71.5f, 23.5f), cv::Point2f(71.5f, 71.5f), cv::Point2f(23.5f, 71.5f)};
  return d;
}

// A Gaussian edge of sigma s rises 10-90 % over 2.563 s; the pixel's own width adds a box of
// variance 1/12 px^2. Every blur, up to a third of a cell, lands within 12 % of that.
TEST(MeasureMarker, EdgeRiseFollowsTheBlurAndLevelsAreThePrintedOnes) {
  const auto dict = calib::DictionaryByName("DICT_4X4_50");
  for (double blur : {0.7, 1.5, 2.5}) {
    const Drawn d = DrawMarker(blur);
    const MarkerQuality q = MeasureMarker(d.gray, d.corners, 6, calib::MarkerCells(*dict, 7));
    const double expected = 2.563 * std::sqrt(blur * blur + 1.0 / 12.0);
    EXPECT_NEAR(q.edge_rise_px, expected, 0.12 * expected) << "blur sigma " << blur << " px";
    EXPECT_NEAR(q.side_px, 48, 1e-3);
    // The levels are fitted with the blur, so even the widest blur leaves nearly the print's own
    // (the fit's 1D model ignores the cells beside each profile: at sigma 2.5 px that is 5 %).
    EXPECT_NEAR(q.black_level, 30, blur < 2 ? 4 : 12) << blur;
    EXPECT_NEAR(q.white_level, 230, blur < 2 ? 4 : 12) << blur;
    EXPECT_LT(q.clipped_share, 1e-9);
    EXPECT_GT(q.mean_level, 30);
    EXPECT_LT(q.mean_level, 235);
  }
}

// Clipping: the same marker with its white burnt out to 255 (a lamp's reflection).
TEST(MeasureMarker, BurntOutWhiteIsClipped) {
  const auto dict = calib::DictionaryByName("DICT_4X4_50");
  Drawn d = DrawMarker(0.7);
  d.gray.convertTo(d.gray, -1, 1.4);  // saturates at 255
  const MarkerQuality q = MeasureMarker(d.gray, d.corners, 6, calib::MarkerCells(*dict, 7));
  EXPECT_GT(q.clipped_share, 0.3);
}

struct Table {
  Scene scene;
  Scene roster;
  SyntheticCamera cam;
};

// The small table seen by a camera of `width` x 3/4 width px; `drop` a unit taken off the table.
Table SmallTable(int width, const std::string& drop = "") {
  Table t;
  t.scene = testing::SmallTable();
  t.roster = t.scene;
  for (Unit& u : t.roster.units) u.pose.reset();
  if (!drop.empty())
    t.scene.units.erase(std::remove_if(t.scene.units.begin(), t.scene.units.end(), [&](const Unit& u) { return u.id == drop; }),
                        t.scene.units.end());
  SyntheticCameraOptions o;
  o.image_size = {width, width * 3 / 4};
  o.table_width_mm = 400;
  o.table_depth_mm = 300;
  o.tilt_deg = 8;
  o.horizontal_fov_deg = 60;
  t.cam = MakeSyntheticCamera(o);
  return t;
}

cv::Mat Render(const Table& t, double blur = 0.8) {
  RenderOptions o;
  o.seed = 4;
  o.blur_sigma_px = blur;
  return SceneRenderer(t.cam.intrinsics).Render(o, t.scene, t.cam.camera_from_table, *calib::DictionaryByName("DICT_4X4_50")).image;
}

bool AdviceHas(const ViewCheck& v, const std::string& words) {
  return std::any_of(v.advice.begin(), v.advice.end(), [&](const std::string& a) { return a.find(words) != std::string::npos; });
}
std::string AllAdvice(const ViewCheck& v) {
  std::string s;
  for (const auto& a : v.advice) s += "\n  " + a;
  return s;
}

// 800x600 over the 400 x 300 mm table: 14-22 mm markers at 25-40 px, focused, well lit.
TEST(CheckView, WellSetUpTableIsReady) {
  const Table t = SmallTable(800);
  const ViewCheck v = CheckView(ViewCheckOptions{}, Render(t), t.cam.intrinsics, t.roster);
  EXPECT_TRUE(v.ready) << AllAdvice(v);
  EXPECT_TRUE(v.advice.empty()) << AllAdvice(v);
  ASSERT_EQ(v.anchors.size(), 4u);
  ASSERT_EQ(v.units.size(), 4u);
  for (const auto* list : {&v.anchors, &v.units})
    for (const MarkerCheck& c : *list) {
      EXPECT_TRUE(c.quality.seen) << c.name;
      EXPECT_TRUE(c.problems.empty()) << c.name;
      EXPECT_GT(c.quality.side_px, 18) << c.name;
      EXPECT_GT(c.quality.edge_rise_px, 1.0) << c.name;
      EXPECT_LT(c.quality.edge_rise_px, 3.5) << c.name;
      EXPECT_GT(c.quality.contrast, 40) << c.name;
    }
  ASSERT_TRUE(v.registration.ok);
  EXPECT_LT(v.registration.rms_px, 1.0);
  EXPECT_EQ(v.registration.checks.size(), 6u);  // every pair of the 4 anchors
  EXPECT_LT(v.worst_distance_error_mm, 1.0);
}

TEST(CheckView, UnitOffTheTableIsNamed) {
  const Table t = SmallTable(800, "U2");
  const ViewCheck v = CheckView(ViewCheckOptions{}, Render(t), t.cam.intrinsics, t.roster);
  EXPECT_FALSE(v.ready);
  EXPECT_TRUE(AdviceHas(v, "unit U2 not seen")) << AllAdvice(v);
  for (const MarkerCheck& c : v.units) EXPECT_EQ(c.quality.seen, c.name != "U2") << c.name;
}

// 480x360: 1.1 px per mm; the 14 and 16 mm markers fall under 18 px, the 18 and 22 mm ones do not.
TEST(CheckView, SmallMarkersAskForACloserCameraOrBiggerMarkers) {
  const Table t = SmallTable(480);
  const ViewCheck v = CheckView(ViewCheckOptions{}, Render(t), t.cam.intrinsics, t.roster);
  EXPECT_FALSE(v.ready);
  EXPECT_TRUE(AdviceHas(v, "camera lower")) << AllAdvice(v);
  EXPECT_TRUE(AdviceHas(v, "markers of at least")) << AllAdvice(v);
  for (const MarkerCheck& c : v.units) {
    if (!c.quality.seen) continue;
    const bool small = std::find(c.problems.begin(), c.problems.end(), MarkerProblem::kSmall) != c.problems.end();
    EXPECT_EQ(small, c.quality.side_px < 18) << c.name << " " << c.quality.side_px << " px";
  }
  const auto u3 = std::find_if(v.units.begin(), v.units.end(), [](const MarkerCheck& c) { return c.name == "U3"; });
  ASSERT_TRUE(u3->quality.seen);
  EXPECT_GT(u3->quality.side_px, 18);  // 22 mm: still fine
}

// Blur of sigma 2 px: edges rise over about 5 px; the markers are still read, the advice is to refocus.
TEST(CheckView, BlurredPictureAsksToRefocus) {
  const Table t = SmallTable(800);
  const ViewCheck v = CheckView(ViewCheckOptions{}, Render(t, 2.0), t.cam.intrinsics, t.roster);
  EXPECT_FALSE(v.ready);
  EXPECT_TRUE(AdviceHas(v, "refocus")) << AllAdvice(v);
  int seen = 0;
  for (const MarkerCheck& c : v.units)
    if (c.quality.seen) {
      ++seen;
      EXPECT_GT(c.quality.edge_rise_px, 3.5) << c.name;
    }
  EXPECT_GT(seen, 0);
}

// A quarter of the light: white paper at about 50 grey levels.
TEST(CheckView, DarkPictureAsksForMoreLight) {
  const Table t = SmallTable(800);
  cv::Mat dark;
  Render(t).convertTo(dark, -1, 0.25);
  const ViewCheck v = CheckView(ViewCheckOptions{}, dark, t.cam.intrinsics, t.roster);
  EXPECT_FALSE(v.ready);
  EXPECT_TRUE(AdviceHas(v, "more light")) << AllAdvice(v);
  EXPECT_LT(v.image_mean_level, 70);
}

// Twice the light: white paper burnt out at 255 round every marker. Still read, so READY can stand,
// but the advice names the glare.
TEST(CheckView, BurntOutPictureNamesTheGlare) {
  const Table t = SmallTable(800);
  cv::Mat bright;
  Render(t).convertTo(bright, -1, 2.0);
  const ViewCheck v = CheckView(ViewCheckOptions{}, bright, t.cam.intrinsics, t.roster);
  EXPECT_TRUE(AdviceHas(v, "glare/clipped at")) << AllAdvice(v);
  for (const MarkerCheck& c : v.units)
    EXPECT_NE(std::find(c.problems.begin(), c.problems.end(), MarkerProblem::kClipped), c.problems.end()) << c.name;
  EXPECT_GT(v.image_clipped_share, 0.05);
}

// A washed-out picture (haze, or a glossy print under a lamp): a sixth of the contrast on a bright
// ground, white about 185 and black about 155. Bright enough, but too little contrast.
TEST(CheckView, WashedOutPictureIsLowContrastNotDark) {
  const Table t = SmallTable(800);
  cv::Mat hazy;
  Render(t).convertTo(hazy, -1, 1.0 / 6.0, 150);
  const ViewCheck v = CheckView(ViewCheckOptions{}, hazy, t.cam.intrinsics, t.roster);
  EXPECT_FALSE(v.ready);
  EXPECT_TRUE(AdviceHas(v, "low contrast at")) << AllAdvice(v);
  EXPECT_FALSE(AdviceHas(v, "too dark")) << AllAdvice(v);
  for (const MarkerCheck& c : v.units)
    if (c.quality.seen) {
      EXPECT_LT(c.quality.contrast, 40) << c.name;
      EXPECT_GT(c.quality.white_level, 80) << c.name;
    }
}

TEST(ViewCheckOptions, CheckNamesTheBadField) {
  ViewCheckOptions o;
  std::string error;
  EXPECT_TRUE(o.Check(&error));
  o.max_clipped_share = 2;
  EXPECT_FALSE(o.Check(&error));
  EXPECT_NE(error.find("max_clipped_share"), std::string::npos);
}

}  // namespace
}  // namespace vedette::vision
