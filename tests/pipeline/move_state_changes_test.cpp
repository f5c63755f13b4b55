// A move that changes another unit's state changes it on the table without a click: blue cavalry C
// charges red guns G from the front (seed 003 line 79: "artillery automatically begin firing when
// charged from the front"). Through the whole chain (clip -> tracker -> states CheckMove ->
// Pipeline) the guns are in a state of Firing on the frames after the charge, the log has the
// declaration with the rule as its source, and the move's verdict says it in words.
//
//   y=300   [G]  guns facing -y, front edge at y = 280
//             ^
//   y=150   [C]  cavalry facing +y; moves to y = 260 (its front at y = 280) between 0.5 and 1.5 s
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

// The flank table (test_scenes.h) with the guns and the cavalry.
const std::string kGunsRoster = testing::kFlankTable + R"(
units:
  - {id: C, side: blue, type: cavalry, base: {width_mm: 40, depth_mm: 40}, pose: {x_mm: 300, y_mm: 150, heading_deg: 90},
     marker: 10, marker_size_mm: 20, marker_heading_deg: 0, marker_height_mm: 3}
  - {id: G, side: red, type: artillery, base: {width_mm: 40, depth_mm: 40}, pose: {x_mm: 300, y_mm: 300, heading_deg: 270},
     marker: 11, marker_size_mm: 20, marker_heading_deg: 0, marker_height_mm: 3}
)";

constexpr const char* kChargeClip =
    "roster: roster.yaml\nfps: 10\nduration_s: 3.0\n"
    "camera: {image_size: [640, 360], horizontal_fov_deg: 60, margin: 0.03, k1: -0.05}\n"
    "render: {supersample: 2, blur_sigma_px: 0.6, read_noise: 1.0, jpeg_quality: 0, seed: 3}\n"
    "units:\n  C:\n    keys:\n"
    "      - {t: 0.5, x_mm: 300, y_mm: 150, heading_deg: 90}\n"
    "      - {t: 1.5, x_mm: 300, y_mm: 260, heading_deg: 90}\n";

bool GunsFiring(const Pipeline& p) {
  for (const nlohmann::json& u : p.Report()["units"])
    if (u["id"] == "G") return u["firing"].get<bool>();
  return false;
}

TEST(MoveStateChanges, GunsChargedFromTheFrontBeginFiring) {
  const auto renderer = testing_clip::ClipOf("guns_charged", kGunsRoster, kChargeClip);
  ClipSource source(renderer);
  PipelineOptions po;
  po.ruleset = "states";
  Pipeline pipeline(po, renderer->intrinsics(), renderer->script().roster);
  struct Collect : FrameSink {
    std::vector<nlohmann::json> declarations, moves;
    int firing_frames = 0, frames_after_charge = 0;
    const Pipeline* pipeline = nullptr;
    void OnFrame(FrameOutput& out) override {
      for (const nlohmann::json& j : out.lines) {
        if (j.value("event", "") == "declare") declarations.push_back(j);
        if (j.value("event", "") == "move" && j.value("unit", "") == "C") moves.push_back(j);
      }
      if (!declarations.empty()) {
        ++frames_after_charge;
        if (GunsFiring(*pipeline)) ++firing_frames;
      }
    }
  } collect;
  collect.pipeline = &pipeline;
  bool firing_before = false;
  while (RunFrame(source, pipeline, {&collect}))
    if (collect.declarations.empty() && GunsFiring(pipeline)) firing_before = true;

  EXPECT_FALSE(firing_before) << "the guns fire only once charged";
  ASSERT_EQ(collect.moves.size(), 1u);
  EXPECT_TRUE(collect.moves[0]["legal"].get<bool>()) << collect.moves[0].dump();
  EXPECT_NE(collect.moves[0].value("says", "").find("G charged from the front by C"), std::string::npos)
      << "the log's move line says what the picture says";
  ASSERT_EQ(collect.declarations.size(), 1u);
  const nlohmann::json& d = collect.declarations[0];
  EXPECT_EQ(d["unit"], "G") << d.dump();
  EXPECT_EQ(d["key"], "firing") << d.dump();
  EXPECT_EQ(d["value"], true) << d.dump();
  EXPECT_EQ(d["source"].get<std::string>().rfind("rules: G charged from the front by C", 0), 0u) << d.dump();
  EXPECT_GT(collect.frames_after_charge, 5);
  EXPECT_EQ(collect.firing_frames, collect.frames_after_charge) << "from the charge on, the guns are firing";
  ASSERT_NE(pipeline.roster().declarations.Find("G", "firing"), nullptr);
  bool said = false;
  for (const ShownVerdict& v : pipeline.last().verdicts)
    if (v.unit == "C" && v.text.find("artillery automatically begin firing") != std::string::npos) said = true;
  EXPECT_TRUE(said) << "the verdict on the picture says what the charge did";
}

}  // namespace
}  // namespace vedette::pipeline
