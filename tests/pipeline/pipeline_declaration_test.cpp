// A state set while the program runs (the live window's state menu -> Pipeline::SetDeclaration)
// reaches the rules on the next frame even when nothing on the table moved, and Reanalyze() applies
// it at once (a paused window). The flank table of test_scenes.h with `--ruleset states`: R is red
// infantry, eager by default (seed 003 line 13); declared shaken it is listed for the morale check
// and labelled "shaken" with its effects; declared routed, labelled "routed".
#include <gtest/gtest.h>

#include "pipeline/frame_source.h"
#include "pipeline/pipeline.h"
#include "tests/overlay/test_scenes.h"
#include "synth/clip_script.h"

namespace vedette::pipeline {

using namespace vedette::overlay;
namespace testing = vedette::overlay::testing;
namespace {

// The state the rules resolved, from the report (made on demand: the frame path builds none).
std::string StateOf(const Pipeline& p, const std::string& unit) {
  for (const nlohmann::json& u : p.Report()["units"])
    if (u["id"] == unit) return u["state"].get<std::string>() + " (" + u["state_source"].get<std::string>() + ")";
  return "";
}

// The unit's labels other than its name (the scene outlines label every unit with its id).
std::string LabelOf(const PipelineFrame& f, const std::string& unit) {
  std::string text;
  for (const DrawPrimitive& p : f.primitives)
    if (p.kind == DrawKind::kLabel && p.unit_id == unit && p.text != unit) text += (text.empty() ? "" : " | ") + p.text;
  return text;
}

bool MoraleTestFor(const PipelineFrame& f, const std::string& unit) {
  for (const RequiredTest& t : f.findings.tests)
    if (t.unit == unit && t.kind == "morale") return true;
  return false;
}

TEST(PipelineDeclarations, AStateSetWhileRunningReachesTheRulesOnTheNextFrame) {
  const std::string dir = testing::TempDir("declare");
  auto renderer = std::make_shared<synth::ClipRenderer>(synth::LoadClipScript(testing::WriteFlankClip(dir, 4, 640, 360)));
  ClipSource source(renderer, 4);
  PipelineOptions po;
  po.ruleset = "states";
  // R2's 20 mm step during the clip must not be what makes the rules run again.
  po.reanalyze_mm = 1000;
  po.reanalyze_deg = 360;
  Pipeline pipeline(po, renderer->intrinsics(), renderer->script().roster);
  cv::Mat frame;
  double t = 0;

  ASSERT_TRUE(source.Next(&frame, &t));
  const PipelineFrame& f0 = pipeline.Process(frame, t);
  ASSERT_TRUE(f0.track.registration.ok);
  ASSERT_TRUE(f0.analyzed);
  EXPECT_EQ(StateOf(pipeline, "R"), "eager (default)");
  EXPECT_FALSE(MoraleTestFor(f0, "R"));

  ASSERT_TRUE(source.Next(&frame, &t));
  EXPECT_FALSE(pipeline.Process(frame, t).analyzed) << "nothing changed: the rules do not run";

  pipeline.Declare({"R", "state", "shaken", "test"});
  ASSERT_TRUE(source.Next(&frame, &t));
  const PipelineFrame& f2 = pipeline.Process(frame, t);
  EXPECT_TRUE(f2.analyzed) << "a new declaration makes the rules run";
  EXPECT_EQ(StateOf(pipeline, "R"), "shaken (declared)");
  EXPECT_EQ(LabelOf(f2, "R"), "shaken: charger's morale +1, firing -1, morale -1") << "the state with its effects (seed 7)";
  EXPECT_TRUE(MoraleTestFor(f2, "R"));
  EXPECT_EQ(StateOf(pipeline, "A"), "eager (default)") << "only R was declared";
  // The declaration stays: the roster carries it for the rest of the run.
  ASSERT_NE(pipeline.roster().declarations.Find("R", "state"), nullptr);
  EXPECT_EQ(pipeline.roster().declarations.Find("R", "state")->value, "shaken");

  // Reanalyze applies a new one without a frame (paused window, end of a video).
  pipeline.Declare({"R", "state", "routed", "test"});
  pipeline.Declare({"A", "firing", true, "test"});
  const PipelineFrame& f3 = pipeline.Reanalyze();
  EXPECT_EQ(StateOf(pipeline, "R"), "routed (declared)");
  EXPECT_EQ(LabelOf(f3, "R"), "routed");
  EXPECT_EQ(LabelOf(f3, "A"), "eager, firing");
  EXPECT_FALSE(MoraleTestFor(f3, "R"));
  // ... and the next frame keeps it without running the rules again.
  ASSERT_TRUE(source.Next(&frame, &t));
  const PipelineFrame& f4 = pipeline.Process(frame, t);
  EXPECT_FALSE(f4.analyzed);
  EXPECT_EQ(StateOf(pipeline, "R"), "routed (declared)");
}

}  // namespace
}  // namespace vedette::pipeline
