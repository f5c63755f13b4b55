// Clip scripts: parsing (errors name the file and line), what is true at a given time, rendering
// (markers land where the truth says; hands hide what they cover) and the video round trip.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>

#include <opencv2/videoio.hpp>

#include "rules/input_error.h"
#include "synth/clip_render.h"
#include "synth/clip_script.h"
#include "tests/synth/small_table.h"
#include "vision/detect.h"

namespace vedette::synth {

using vision::DetectMarkers;
using vision::Detections;
using vision::DetectorOptions;
using vision::DetectorOptionsFor;
namespace {

// The small table (tests/synth/small_table.h) seen by a 640 x 400 camera.
const std::string kRoster = testing::SmallTableClipRoster() + R"(
camera: {image_size: [640, 400]}
render: {supersample: 2, blur_sigma_px: 0.7, jpeg_quality: 0}
)";

ClipScript Script(const std::string& extra) { return ParseClipScript(std::string(kRoster) + extra, "test.clip.yaml"); }

TEST(ClipScript, ErrorsNameFileAndLine) {
  // Line numbers count from the first line of the text (kRoster starts with an empty line).
  const int lines = int(std::count(kRoster.begin(), kRoster.end(), '\n'));
  auto line_of = [&](const std::string& extra) {
    try {
      Script(extra);
    } catch (const InputError& e) {
      EXPECT_EQ(e.file(), "test.clip.yaml");
      return e.line();
    }
    ADD_FAILURE() << "no error for: " << extra;
    return -1;
  };
  EXPECT_EQ(line_of("fps: 15\nspeed: 3\n"), lines + 2);                       // unknown field
  EXPECT_EQ(line_of("fps: fast\n"), lines + 1);                               // not a number
  EXPECT_EQ(line_of("units:\n  Z9: {keys: [{t: 0}]}\n"), lines + 2);         // no such unit
  EXPECT_EQ(line_of("units:\n  B1:\n    keys:\n      - {t: 1}\n      - {t: 0.5}\n"), lines + 5);  // times must increase
  EXPECT_EQ(line_of("hands:\n  - {radius_mm: -4, keys: [{t: 0, x_mm: 1, y_mm: 1}]}\n"), lines + 2);
  try {
    Script("units:\n  B1: {lifted: [[2, 1]]}\n");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("interval end must be after its start"), std::string::npos) << e.what();
  }
}

// Declarations take effect with the first frame at or after their time, once each; a unit not in the
// roster is an error on its line.
TEST(ClipScript, DeclarationsArriveWithTheirFrame) {
  const ClipScript s = Script("fps: 10\nduration_s: 1\ndeclarations:\n  - {t: 0.25, unit: B1, key: state, value: routed}\n"
                              "  - {t: 0.0, unit: B2, key: failed_morale, value: true}\n");
  ASSERT_EQ(s.declarations.size(), 2u);
  EXPECT_EQ(s.declarations[0].unit, "B2");  // sorted by time
  int seen_b1 = 0;
  for (int f = 0; f < s.FrameCount(); ++f) {
    for (const ClipDeclaration& d : ClipDeclarationsAt(s, f)) {
      if (d.unit == "B1") {
        ++seen_b1;
        EXPECT_EQ(f, 3) << "0.25 s falls in frame 3's span (0.2, 0.3]";
        EXPECT_EQ(d.value, "routed");
      } else {
        EXPECT_EQ(f, 0);
        EXPECT_EQ(d.value, true);
      }
    }
  }
  EXPECT_EQ(seen_b1, 1);
  const int lines = int(std::count(kRoster.begin(), kRoster.end(), '\n'));
  try {
    Script("declarations:\n  - {t: 1, unit: Z9, key: state, value: shaken}\n");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.line(), lines + 2);
    EXPECT_NE(std::string(e.what()).find("no unit 'Z9'"), std::string::npos) << e.what();
  }
}

TEST(ClipScript, MomentFollowsKeysLiftsHandsAndBumps) {
  const ClipScript s = Script(R"(
fps: 10
duration_s: 3
units:
  B1:
    keys: [{t: 1.0}, {t: 2.0, y_mm: 190, heading_deg: 100}]
  B2: {lifted: [[0.5, 1.0]], removed_at: 2.5}
  R1: {placed_at: 1.0}
hands:
  - {radius_mm: 40, height_mm: 80, keys: [{t: 1.0, x_mm: 100, y_mm: 250}, {t: 2.0, x_mm: 500, y_mm: 250}]}
camera_moves:
  - {t: 2.0, rotate_deg: [1, 0, 0]}
)");
  EXPECT_EQ(s.FrameCount(), 30);
  const ClipMoment m15 = ClipMomentAt(s, 15);  // t = 1.5: halfway through B1's move
  EXPECT_NEAR(m15.poses.at("B1").y_mm, 170, 1e-9);
  EXPECT_NEAR(m15.poses.at("B1").heading_deg, 95, 1e-9);
  EXPECT_NEAR(m15.poses.at("B1").x_mm, 200, 1e-9);  // held from the roster
  ASSERT_EQ(m15.hands.size(), 1u);
  EXPECT_NEAR(m15.hands[0].x_mm, 300, 1e-9);
  EXPECT_EQ(ClipMomentAt(s, 7).states.at("B2"), ClipUnitState::kLifted);
  EXPECT_FALSE(ClipMomentAt(s, 7).scene.FindUnit("B2")->pose.has_value());
  EXPECT_EQ(ClipMomentAt(s, 10).states.at("B2"), ClipUnitState::kOnTable);
  EXPECT_EQ(ClipMomentAt(s, 25).states.at("B2"), ClipUnitState::kRemoved);
  EXPECT_EQ(ClipMomentAt(s, 5).states.at("R1"), ClipUnitState::kAbsent);
  EXPECT_EQ(ClipMomentAt(s, 5).poses.count("R1"), 0u);
  EXPECT_TRUE(ClipMomentAt(s, 5).hands.empty());
  // The bump turns the camera by 1 deg about its x axis from t = 2.0 on.
  const cv::Matx33d r0 = ClipMomentAt(s, 19).camera_from_table.rotation, r1 = ClipMomentAt(s, 20).camera_from_table.rotation;
  const cv::Matx33d d = r1 * r0.t();
  EXPECT_NEAR(std::acos(std::clamp((d(0, 0) + d(1, 1) + d(2, 2) - 1) / 2, -1.0, 1.0)) * 180 / CV_PI, 1.0, 1e-6);
}

// The rendered markers are where the truth says (the detector finds them within half a pixel), and
// a hand over R1 hides it in the image and in the truth.
TEST(ClipRender, MarkersWhereTruthSaysAndHandsHide) {
  ClipRenderer r(Script(R"(
fps: 10
duration_s: 1
hands:
  - {radius_mm: 45, height_mm: 80, keys: [{t: 0.5, x_mm: 300, y_mm: 260}, {t: 1.0, x_mm: 300, y_mm: 260}]}
)"));
  const ClipFrame f0 = r.Render(0);
  ASSERT_EQ(f0.image.size(), cv::Size(640, 400));
  const DetectorOptions o = DetectorOptionsFor(r.script().roster, r.intrinsics());
  const Detections d = DetectMarkers(o, f0.image, r.dictionary());
  int matched = 0;
  for (const auto& u : f0.truth["units"]) {
    for (const auto& m : d.markers) {
      if (m.id != r.script().roster.FindUnit(u["id"].get<std::string>())->marker->id) continue;
      for (int c = 0; c < 4; ++c) {
        EXPECT_NEAR(m.corners_px[c].x, u["corners"][c][0].get<double>(), 0.75) << u["id"] << " corner " << c;
        EXPECT_NEAR(m.corners_px[c].y, u["corners"][c][1].get<double>(), 0.75) << u["id"] << " corner " << c;
      }
      ++matched;
    }
  }
  std::string ids;
  for (const auto& m : d.markers) ids += std::to_string(m.id) + " ";
  EXPECT_EQ(matched, 3) << "detected: " << ids;
  const ClipFrame f7 = r.Render(7);
  const Detections d7 = DetectMarkers(o, f7.image, r.dictionary());
  for (const auto& m : d7.markers) EXPECT_NE(m.id, 12) << "R1 is under the hand";
  for (const auto& u : f7.truth["units"])
    if (u["id"] == "R1") EXPECT_GT(u["occluded_fraction"].get<double>(), 0.99);
    else EXPECT_LT(u["occluded_fraction"].get<double>(), 0.01);
  // Frames differ by their sensor noise even where nothing moved.
  const ClipFrame f1 = r.Render(1);
  EXPECT_GT(cv::norm(f0.image, f1.image, cv::NORM_L1), 0.0);
}

// A clip written to Matroska (mp4v) reads back with every frame, at the right size, close to the
// rendered pixels; the truth file has one line per frame.
TEST(ClipRender, VideoAndTruthRoundTrip) {
  ClipRenderer r(Script("fps: 10\nduration_s: 0.6\nunits:\n  B1: {keys: [{t: 0}, {t: 0.5, x_mm: 220}]}\n"));
  const auto dir = std::filesystem::temp_directory_path() / ("vedette_clip_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string video = (dir / "clip.mkv").string(), truth = (dir / "clip.truth.jsonl").string();
  int calls = 0;
  const ClipVideoSummary s = WriteClipVideo(r, video, truth, [&](int, int) { ++calls; });
  EXPECT_EQ(s.frames, 6);
  EXPECT_EQ(calls, 6);
  cv::VideoCapture cap(video, cv::CAP_FFMPEG);
  ASSERT_TRUE(cap.isOpened());
  int n = 0;
  cv::Mat frame;
  while (cap.read(frame)) {
    EXPECT_EQ(frame.size(), cv::Size(640, 400));
    if (n == 0) {
      const cv::Mat ref = r.Render(0).image;
      EXPECT_LT(cv::norm(frame, ref, cv::NORM_L1) / double(ref.total() * 3), 4.0) << "mean abs grey difference after the codec";
    }
    ++n;
  }
  EXPECT_EQ(n, 6);
  std::ifstream in(truth);
  std::string line;
  int lines = 0;
  while (std::getline(in, line)) {
    const auto j = nlohmann::json::parse(line);
    EXPECT_EQ(j["frame"].get<int>(), lines);
    ++lines;
  }
  EXPECT_EQ(lines, 6);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace vedette::synth
