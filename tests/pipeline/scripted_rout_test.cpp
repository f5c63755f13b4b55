// A declaration made during the game reaches the move judge: on the flank table (test_scenes.h) the
// players mark R2 routed at 0.5 s; from 1.0 to 2.0 s R2 turns about and flees 45 mm towards +y.
// Through the whole chain (clip script -> ClipSource::declarations -> Pipeline::SetDeclaration ->
// tracker -> TotSK CheckMove) the settled move is a rout: legal, no action test. Without the
// declaration the same move is judged as an ordered about face.
#include <gtest/gtest.h>

#include "pipeline/frame_loop.h"

#include "pipeline/frame_source.h"
#include "pipeline/pipeline.h"
#include "tests/overlay/test_scenes.h"
#include "synth/clip_script.h"

namespace vedette::pipeline {

using namespace vedette::overlay;
namespace testing = vedette::overlay::testing;
namespace {

std::string RoutClip(bool declared) {
  return std::string("roster: roster.yaml\nfps: 10\nduration_s: 3.0\n"
                     "camera: {image_size: [640, 360], horizontal_fov_deg: 60, margin: 0.03, k1: -0.05}\n"
                     "render: {supersample: 2, blur_sigma_px: 0.6, read_noise: 1.0, jpeg_quality: 0, seed: 3}\n"
                     "units:\n  R2:\n    keys:\n"
                     "      - {t: 1.0, x_mm: 420, y_mm: 300, heading_deg: -90}\n"
                     "      - {t: 1.4, x_mm: 420, y_mm: 305, heading_deg: 90}\n"
                     "      - {t: 2.0, x_mm: 420, y_mm: 345, heading_deg: 90}\n") +
         (declared ? "declarations:\n  - {t: 0.5, unit: R2, key: state, value: routed}\n" : "");
}

// The settled move events of R2 (their JSON), running the clip through the pipeline the way
// `process`, `demo` and `live` do.
std::vector<nlohmann::json> MovesOfR2(bool declared) {
  const std::string dir = testing::TempDir(declared ? "rout_declared" : "rout_not_declared");
  testing::WriteFile(dir + "/roster.yaml", testing::kFlankRoster);
  testing::WriteFile(dir + "/clip.yaml", RoutClip(declared));
  auto renderer = std::make_shared<synth::ClipRenderer>(synth::LoadClipScript(dir + "/clip.yaml"));
  ClipSource source(renderer);
  Pipeline pipeline(PipelineOptions{}, renderer->intrinsics(), renderer->script().roster);
  struct Collect : FrameSink {
    std::vector<nlohmann::json> moves;
    int declarations = 0;
    void OnFrame(FrameOutput& out) override {
      for (const nlohmann::json& j : out.lines) {
        if (j.value("event", "") == "declare") ++declarations;
        if (j.value("event", "") == "move" && j.value("unit", "") == "R2") moves.push_back(j);
      }
    }
  } collect;
  while (RunFrame(source, pipeline, {&collect})) {
  }
  EXPECT_EQ(collect.declarations, declared ? 1 : 0);
  return collect.moves;
}

TEST(ScriptedDeclarations, ADeclaredRoutIsJudgedAsARout) {
  const auto moves = MovesOfR2(true);
  ASSERT_EQ(moves.size(), 1u);
  const nlohmann::json& m = moves[0];
  EXPECT_EQ(m["classification"], nlohmann::json::array({"rout"})) << m.dump();
  EXPECT_TRUE(m["legal"].get<bool>()) << m.dump();
  EXPECT_TRUE(m["tests"].empty()) << m.dump();
  EXPECT_NEAR(m["to"]["y_mm"].get<double>(), 345, 1.0);
  EXPECT_NEAR(std::abs(m["turn_deg"].get<double>()), 180, 1.0);
}

TEST(ScriptedDeclarations, TheSameMoveUndeclaredIsAnOrderedMove) {
  const auto moves = MovesOfR2(false);
  ASSERT_EQ(moves.size(), 1u);
  const auto kinds = moves[0]["classification"];
  ASSERT_TRUE(kinds.is_array()) << moves[0].dump();
  EXPECT_EQ(std::find(kinds.begin(), kinds.end(), "rout"), kinds.end()) << moves[0].dump();
  EXPECT_NE(std::find(kinds.begin(), kinds.end(), "about_face"), kinds.end()) << moves[0].dump();
}

}  // namespace
}  // namespace vedette::pipeline
