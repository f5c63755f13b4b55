// `vedette detect`, `vedette locate` and `vedette render` end to end, and their error paths.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "rules/scene/scene_io.h"
#include "tests/app/run_command.h"
#include "tests/vision/vision_scenes.h"
#include "tests/vision/vision_test_util.h"

namespace vedette::vision {
namespace {

using vedette::testing::RunVedette;
namespace fs = std::filesystem;

using testing::kAruco;

fs::path TempDir(const std::string& name) {
  const fs::path d = fs::temp_directory_path() / ("vedette_vision_cli_" + std::to_string(::getpid()) + "_" + name);
  fs::create_directories(d);
  return d;
}

TEST(DetectCli, JsonListsTheTutorialMarkers) {
  const auto r = RunVedette("detect --image " + kAruco + "singlemarkersoriginal.jpg --dict DICT_6X6_250 --json");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  std::vector<int> ids;
  for (const auto& m : j["markers"]) {
    ids.push_back(m["id"]);
    ASSERT_EQ(m["corners"].size(), 4u);
    ASSERT_EQ(m["corners"][0].size(), 2u);
  }
  EXPECT_EQ(ids, (std::vector<int>{23, 40, 62, 98, 124, 203}));  // sorted by ID
}

TEST(DetectCli, CustomDictionaryFileWins) {
  const auto r = RunVedette("detect --image " + kAruco + "gboriginal.png --dict DICT_4X4_50 --dict-file " + kAruco +
                            "tutorial_dict.yml --json");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["markers"].size(), 35u);
}

TEST(DetectCli, Errors) {
  auto r = RunVedette("detect --image " + kAruco + "singlemarkersoriginal.jpg");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--dict"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty());
  r = RunVedette("detect --image /nonexistent/photo.jpg --dict DICT_4X4_50");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("/nonexistent/photo.jpg"), std::string::npos) << r.err;
  r = RunVedette("detect --image " + kAruco + "singlemarkersoriginal.jpg --dict DICT_9X9_7");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("DICT_9X9_7"), std::string::npos) << r.err;
}

// render -> locate -> measure: the small table drawn by the synthetic camera, its camera file
// written beside it, located again from the picture, and the scene it writes read by `measure`.
TEST(LocateCli, RenderThenLocateRoundTrip) {
  const fs::path dir = TempDir("roundtrip");
  const Scene scene = testing::SmallTable();
  SaveScene(scene, (dir / "scene.yaml").string());
  Scene roster = scene;
  for (Unit& u : roster.units) u.pose.reset();
  SaveScene(roster, (dir / "roster.yaml").string());
  auto r = RunVedette("render " + (dir / "scene.yaml").string() + " --camera 800x600 --fov-deg 60 --tilt-deg 8 --out " +
                      (dir / "table.png").string() + " --truth " + (dir / "truth.json").string() + " --camera-out " +
                      (dir / "cam.yaml").string() + " --seed 5");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto truth = nlohmann::json::parse(vedette::testing::ReadFile(dir / "truth.json"));
  EXPECT_EQ(truth["units"].size(), 4u);
  EXPECT_EQ(truth["markers"].size(), 8u);

  r = RunVedette("locate --image " + (dir / "table.png").string() + " --calib " + (dir / "cam.yaml").string() +
                 " --roster " + (dir / "roster.yaml").string() + " --json --scene-out " + (dir / "located.yaml").string());
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["anchors_seen"], 4);
  EXPECT_LT(j["registration_rms_px"].get<double>(), 0.5);
  ASSERT_EQ(j["units"].size(), 4u);
  for (const auto& u : j["units"]) {
    const Pose& t = *scene.FindUnit(u["id"].get<std::string>())->pose;
    EXPECT_NEAR(u["x_mm"].get<double>(), t.x_mm, 0.4) << u.dump();
    EXPECT_NEAR(u["y_mm"].get<double>(), t.y_mm, 0.4) << u.dump();
    EXPECT_GT(u["sigma_mm"].get<double>(), 0);
  }
  r = RunVedette("measure " + (dir / "located.yaml").string() + " --from U1 --to U2 --json");
  EXPECT_EQ(r.status, 0) << r.err;
  fs::remove_all(dir);
}

TEST(LocateCli, TooFewAnchorsIsAnErrorNamingThoseSeen) {
  const fs::path dir = TempDir("anchors");
  Scene scene = testing::SmallTable();
  scene.anchors.erase(scene.anchors.begin() + 1, scene.anchors.end());  // draw only anchor 0
  SaveScene(scene, (dir / "scene.yaml").string());
  auto r = RunVedette("render " + (dir / "scene.yaml").string() + " --camera 800x600 --fov-deg 60 --out " +
                      (dir / "table.png").string() + " --camera-out " + (dir / "cam.yaml").string() + " --supersample 2");
  ASSERT_EQ(r.status, 0) << r.err;
  Scene roster = testing::SmallTable();  // the roster lists all four
  for (Unit& u : roster.units) u.pose.reset();
  SaveScene(roster, (dir / "roster.yaml").string());
  r = RunVedette("locate --image " + (dir / "table.png").string() + " --calib " + (dir / "cam.yaml").string() +
                 " --roster " + (dir / "roster.yaml").string());
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(r.out.empty());
  EXPECT_NE(r.err.find("seen: 0"), std::string::npos) << r.err;
  fs::remove_all(dir);
}

TEST(RenderCli, Errors) {
  auto r = RunVedette("render /nonexistent.yaml --camera 640x480 --out /tmp/x.png");
  EXPECT_EQ(r.status, 2);
  const fs::path dir = TempDir("render_errors");
  SaveScene(testing::SmallTable(), (dir / "scene.yaml").string());
  r = RunVedette("render " + (dir / "scene.yaml").string() + " --camera 640by480 --out " + (dir / "x.png").string());
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("640by480"), std::string::npos) << r.err;
  r = RunVedette("render " + (dir / "scene.yaml").string() + " --out " + (dir / "x.png").string());
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--calib"), std::string::npos) << r.err;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace vedette::vision
