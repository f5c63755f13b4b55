// The Generals' command points as the camera sees a turn (TotSK QRS 103: one bonus move per level of
// the General, for units within 6 BW): B1 moves three times beside G1 (rating 1). The first move is
// its own, the second a bonus move on G1's point (declared on the table by the rules, in the log), the
// third finds no point left and the picture says it is illegal and why.
//
//   y=150   [G1] general, rating 1        [B1] infantry facing +y, moves 20 mm at a time
//           x=150                          x=300
#include <gtest/gtest.h>

#include "pipeline/frame_loop.h"
#include "pipeline/frame_source.h"
#include "pipeline/pipeline.h"
#include "synth/clip_script.h"
#include "tests/overlay/test_scenes.h"
#include "tests/pipeline/clip_of.h"

namespace vedette::pipeline {

namespace testing = vedette::overlay::testing;
namespace {

const std::string kRoster = testing::kFlankTable + R"(
units:
  - {id: G1, side: blue, type: general, stats: {rating: 1}, base: {width_mm: 40, depth_mm: 40},
     pose: {x_mm: 150, y_mm: 150, heading_deg: 90}, marker: 12, marker_size_mm: 20, marker_heading_deg: 0, marker_height_mm: 3}
  - {id: B1, side: blue, type: infantry, formation: line, base: {width_mm: 40, depth_mm: 30},
     pose: {x_mm: 300, y_mm: 150, heading_deg: 90}, marker: 10, marker_size_mm: 20, marker_heading_deg: 0, marker_height_mm: 3}
)";

constexpr const char* kThreeMovesClip =
    "roster: roster.yaml\nfps: 10\nduration_s: 5.0\n"
    "camera: {image_size: [640, 360], horizontal_fov_deg: 60, margin: 0.03, k1: -0.05}\n"
    "render: {supersample: 2, blur_sigma_px: 0.6, read_noise: 1.0, jpeg_quality: 0, seed: 5}\n"
    "units:\n  B1:\n    keys:\n"
    "      - {t: 0.5, x_mm: 300, y_mm: 150, heading_deg: 90}\n"
    "      - {t: 1.0, x_mm: 300, y_mm: 170, heading_deg: 90}\n"
    "      - {t: 2.0, x_mm: 300, y_mm: 170, heading_deg: 90}\n"
    "      - {t: 2.5, x_mm: 300, y_mm: 190, heading_deg: 90}\n"
    "      - {t: 3.5, x_mm: 300, y_mm: 190, heading_deg: 90}\n"
    "      - {t: 4.0, x_mm: 300, y_mm: 210, heading_deg: 90}\n";

TEST(CommandPoints, ThePointIsSpentOnTheSecondMoveAndTheThirdIsIllegalOnThePicture) {
  const auto renderer = testing_clip::ClipOf("command_points", kRoster, kThreeMovesClip);
  ClipSource source(renderer);
  PipelineOptions po;
  po.ruleset = "totsk";
  Pipeline pipeline(po, renderer->intrinsics(), renderer->script().roster);
  struct Collect : FrameSink {
    std::vector<nlohmann::json> declarations, moves;
    void OnFrame(FrameOutput& out) override {
      for (const nlohmann::json& j : out.lines) {
        if (j.value("event", "") == "declare") declarations.push_back(j);
        if (j.value("event", "") == "move" && j.value("unit", "") == "B1") moves.push_back(j);
      }
    }
  } collect;
  while (RunFrame(source, pipeline, {&collect})) {
  }

  ASSERT_EQ(collect.moves.size(), 3u);
  EXPECT_TRUE(collect.moves[0]["legal"].get<bool>()) << collect.moves[0].dump();
  EXPECT_TRUE(collect.moves[1]["legal"].get<bool>()) << collect.moves[1].dump();
  EXPECT_FALSE(collect.moves[2]["legal"].get<bool>()) << collect.moves[2].dump();
  ASSERT_EQ(collect.declarations.size(), 1u);
  const nlohmann::json& d = collect.declarations[0];
  EXPECT_EQ(d["unit"], "B1") << d.dump();
  EXPECT_EQ(d["key"], "bonus_move") << d.dump();
  EXPECT_EQ(d["value"], true) << d.dump();
  EXPECT_EQ(d["source"].get<std::string>().rfind("rules: made a bonus move", 0), 0u) << d.dump();
  bool said = false;
  std::string shown;
  for (const ShownVerdict& v : pipeline.last().verdicts) shown += v.unit + ": " + v.text + "\n";
  for (const ShownVerdict& v : pipeline.last().verdicts)
    if (v.unit == "B1" && v.illegal && v.text.find("G1 (rating 1, spent on B1)") != std::string::npos) said = true;
  EXPECT_TRUE(said) << "the picture says the third move is illegal and whose point is gone:\n" << shown;
}

}  // namespace
}  // namespace vedette::pipeline
