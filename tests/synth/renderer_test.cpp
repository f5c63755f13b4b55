// The synthetic camera: its ground truth agrees with the calibration layer's projection, the image
// agrees with its ground truth, and the options do what they say.
#include <gtest/gtest.h>

#include <opencv2/imgproc.hpp>

#include "calibration/dictionary.h"
#include "rules/input_error.h"
#include "tests/vision/vision_scenes.h"
#include "synth/renderer.h"

namespace vedette::synth {

namespace testing = vedette::vision::testing;
using namespace vedette::vision;
namespace {

Rendering RenderSmall(const RenderOptions& o, const Scene& scene = testing::SmallTable()) {
  const SyntheticCamera cam = testing::SmallCamera();
  return SceneRenderer(cam.intrinsics).Render(o, scene, cam.camera_from_table, *calib::DictionaryByName("DICT_4X4_50"));
}

RenderOptions Clean() {
  RenderOptions o;
  o.blur_sigma_px = 0;
  o.read_noise = 0;
  o.shot_noise = 0;
  o.jpeg_quality = 0;
  o.light_gradient = 0;
  o.vignetting = 0;
  o.supersample = 8;
  return o;
}

// Truth corners are the marker corners (mm) through calib::ProjectToImage, to < 0.05 px.
TEST(Renderer, TruthCornersMatchProjectToImage) {
  const SyntheticCamera cam = testing::SmallCamera();
  const Rendering r = RenderSmall(Clean());
  ASSERT_EQ(r.truth.markers.size(), 8u);  // 4 units, then 4 anchors
  for (const MarkerTruth& t : r.truth.markers) {
    const auto c = MarkerCornersInTable(t.placement);
    const auto px = calib::ProjectToImage(cam.intrinsics, cam.camera_from_table, {c.begin(), c.end()});
    for (int j = 0; j < 4; ++j) EXPECT_LT(cv::norm(px[j] - t.corners_px[j]), 0.05) << t.placement.id;
    EXPECT_TRUE(t.in_image);
    EXPECT_EQ(t.occluded_fraction, 0.0);
  }
  EXPECT_EQ(r.truth.units.size(), 4u);
}

// The picture agrees with the truth: without blur and noise, a pixel on the marker's black border
// is pure ink and the area just outside it (the quiet zone) is paper. With 8x8 supersampling a pixel
// cut by an edge averages what it covers, so the coverage of a pixel column across a nearly
// horizontal anchor edge gives the edge's position. The 8 sub-sample rows per pixel quantise it to
// 1/8 px, so it must match the truth to 1/16 px plus 8-bit rounding: 0.075 px.
TEST(Renderer, EdgesLandWhereTheTruthSays) {
  const Rendering r = RenderSmall(Clean());
  cv::Mat gray;
  cv::cvtColor(r.image, gray, cv::COLOR_BGR2GRAY);
  for (const MarkerTruth& t : r.truth.markers) {
    if (!t.unit.empty()) continue;
    // The side from corner 3 to corner 0 or 0 to 1, whichever is more horizontal in the image.
    cv::Point2d a = t.corners_px[3], b = t.corners_px[0];
    if (std::abs(b.y - a.y) / std::abs(b.x - a.x + 1e-9) > 1) a = t.corners_px[0], b = t.corners_px[1];
    if (std::abs(b.y - a.y) / std::abs(b.x - a.x + 1e-9) > 0.2) continue;
    const cv::Point2d c = 0.25 * (t.corners_px[0] + t.corners_px[1] + t.corners_px[2] + t.corners_px[3]);
    const int x = int(std::lround(0.5 * (a.x + b.x)));
    const double y_true = a.y + (x - a.x) / (b.x - a.x) * (b.y - a.y);
    const int dir = c.y > y_true ? 1 : -1;  // towards the inside
    const int y_out = int(std::lround(y_true)) - 3 * dir, y_in = int(std::lround(y_true)) + 3 * dir;
    const double paper = gray.at<uchar>(y_out, x), ink = gray.at<uchar>(y_in, x);
    ASSERT_GT(paper - ink, 150);
    // Sum of "inkness" from y_out to y_in = distance from the edge to the inner end of the range.
    double ink_len = 0;
    for (int y = y_out; y != y_in + dir; y += dir) ink_len += (paper - gray.at<uchar>(y, x)) / (paper - ink);
    const double edge = (y_in + 0.5 * dir) - dir * ink_len;
    EXPECT_NEAR(edge, y_true, 0.075) << "anchor " << t.placement.id;
  }
}

TEST(Renderer, SeedDecidesTheNoise) {
  RenderOptions o;
  o.supersample = 2;
  const cv::Mat a = RenderSmall(o).image, b = RenderSmall(o).image;
  EXPECT_EQ(cv::norm(a, b, cv::NORM_L1), 0.0);
  o.seed = 2;
  const cv::Mat c = RenderSmall(o).image;
  EXPECT_GT(cv::norm(a, c, cv::NORM_L1), 0.0);
}

// Hands over the table hide markers; the truth says by how much.
TEST(Renderer, OccludersHideMarkers) {
  RenderOptions o = Clean();
  o.supersample = 2;
  o.occluders = 12;
  const Rendering r = RenderSmall(o);
  int hidden = 0;
  for (const MarkerTruth& t : r.truth.markers) hidden += t.occluded_fraction > 0;
  EXPECT_GT(hidden, 0);
}

TEST(Renderer, OptionsCheck) {
  std::string error;
  RenderOptions o;
  EXPECT_TRUE(o.Check(&error)) << error;
  o.supersample = 0;
  EXPECT_FALSE(o.Check(&error));
  o = RenderOptions{};
  o.jpeg_quality = 101;
  EXPECT_FALSE(o.Check(&error));
  o = RenderOptions{};
  o.light_gradient = 1.5;
  EXPECT_FALSE(o.Check(&error));
  o = RenderOptions{};
  o.glare_patches = 65;
  EXPECT_FALSE(o.Check(&error));
  o.glare_patches = 64;
  EXPECT_TRUE(o.Check(&error)) << error;
  o.occluders = 65;
  EXPECT_FALSE(o.Check(&error));
}

// A unit whose marker ID the dictionary lacks is an input error naming the unit.
TEST(Renderer, MarkerOutsideTheDictionaryIsAnInputError) {
  Scene s = testing::SmallTable();
  s.units[2].marker->id = 50;  // DICT_4X4_50 holds 0-49
  try {
    RenderSmall(RenderOptions{}, s);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("U3"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace vedette::synth
