// The live window's set-up panel (S) under a virtual display: the flank table (test_scenes.h,
// 800x450 camera, 20 mm markers at about 24 px) plays for three frames; S pressed through the
// window's own input entry point opens the panel, which checks the current frame like `vedette
// check` does: every anchor and unit seen, READY. Without a display the test is skipped.
#include <gtest/gtest.h>

#include <filesystem>

#include "pipeline/frame_source.h"
#include "ui/live_settings.h"
#include "ui/live_window.h"
#include "tests/overlay/test_scenes.h"
#include "synth/clip_script.h"


namespace vedette::ui {

using namespace vedette::overlay;
namespace testing = vedette::overlay::testing;
using namespace vedette::pipeline;
namespace {

TEST(LiveWindow, SetupPanelChecksTheCurrentFrame) {
  std::string why;
  if (!DisplayAvailable(&why)) GTEST_SKIP() << "no display for the live window: " << why;
  const std::string dir = testing::TempDir("live_setup");
  const std::string clip = testing::WriteFlankClip(dir, 4, 800, 450);
  auto renderer = std::make_shared<synth::ClipRenderer>(synth::LoadClipScript(clip));
  ClipSource source(renderer, 3);
  PipelineOptions po;
  po.ruleset = "totsk";
  Pipeline pipeline(po, renderer->intrinsics(), renderer->script().roster);
  LiveOptions lo;
  lo.window_size = {1280, 720};
  lo.max_frames = 3;
  lo.realtime = false;
  lo.settings_path = dir + "/live.ini";
  lo.screenshot_path = dir + "/shot.png";
  bool pressed = false;
  lo.script = [&](const LiveInteraction&, int frames, std::vector<InputEvent>* ev) {
    if (frames >= 1 && !pressed) {
      ev->push_back(InputEvent::Key('S'));
      pressed = true;
    }
    return frames < 3;
  };
  const LiveResult r = RunLive(lo, source, pipeline);
  ASSERT_TRUE(pressed);
  EXPECT_TRUE(r.settings.show_setup);
  EXPECT_TRUE(LoadLiveSettings(dir + "/live.ini").show_setup) << "the panel stays open next time";
  ASSERT_TRUE(r.setup_check.has_value()) << "the panel checked a frame";
  const vision::ViewCheck& v = *r.setup_check;
  ASSERT_EQ(v.anchors.size(), 4u);
  ASSERT_EQ(v.units.size(), 3u);
  for (const auto* list : {&v.anchors, &v.units})
    for (const vision::MarkerCheck& c : *list) EXPECT_TRUE(c.quality.seen) << c.name;
  std::string advice;
  for (const std::string& a : v.advice) advice += "\n  " + a;
  EXPECT_TRUE(v.ready) << advice;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace vedette::ui
