// The live window under a virtual display (the test command runs ctest under xvfb-run): a
// synthetic clip of the flank table (test_scenes.h) plays for a few frames, and a screenshot
// (glReadPixels) shows A's threatened right flank in the threat colour exactly where the
// calibration and the window's view put it. Without a display the test is skipped (it says why).
#include <gtest/gtest.h>

#include <fstream>
#include <optional>

#include <opencv2/imgcodecs.hpp>

#include "calibration/camera_model.h"
#include "pipeline/frame_source.h"
#include "ui/live_settings.h"
#include "ui/live_window.h"
#include "overlay/style.h"
#include "rules/dispute.h"
#include "rules/geometry/base.h"
#include "tests/overlay/test_scenes.h"
#include "synth/clip_script.h"

// Mesa's GL driver is dlopen()ed by GLX and dlclose()d when GLFW terminates; the allocations it keeps
// until exit then belong to an unloaded module, which LeakSanitizer cannot name, so the suppressions
// for system libraries (tests/sanitizer/lsan.supp) cannot match them. Keeping every module loaded in
// this test binary lets them match; leaks in Vedette's own code are still reported.
extern "C" int dlclose(void*) { return 0; }

namespace vedette::ui {

using namespace vedette::overlay;
namespace testing = vedette::overlay::testing;
using namespace vedette::pipeline;
namespace {

int ColourDistance(const cv::Vec3b& a, const cv::Vec3b& b) {
  return std::abs(a[0] - b[0]) + std::abs(a[1] - b[1]) + std::abs(a[2] - b[2]);
}

// The smallest colour distance to `want` in the 3x3 pixels around p.
int NearestColour(const cv::Mat& img, const cv::Point2d& p, const cv::Vec3b& want) {
  int best = 1 << 20;
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx) {
      const int x = cvRound(p.x) + dx, y = cvRound(p.y) + dy;
      if (x < 0 || y < 0 || x >= img.cols || y >= img.rows) continue;
      best = std::min(best, ColourDistance(img.at<cv::Vec3b>(y, x), want));
    }
  return best;
}

TEST(LiveWindow, ScreenshotShowsTheThreatenedFlankWhereTheGeometrySays) {
  std::string why;
  if (!DisplayAvailable(&why)) GTEST_SKIP() << "no display for the live window: " << why;
  const std::string dir = testing::TempDir("live");
  const std::string clip = testing::WriteFlankClip(dir, 4, 800, 450);
  auto renderer = std::make_shared<synth::ClipRenderer>(synth::LoadClipScript(clip));
  ClipSource source(renderer, 3);
  PipelineOptions po;
  po.ruleset = "totsk";
  Pipeline pipeline(po, renderer->intrinsics(), renderer->script().roster);

  // Settings persist: this file hides labels and tests (their text would cover the edge), and the
  // window must read it.
  LiveSettings settings;
  settings.layers = LayerVisibility::FromHiddenList("labels,tests");
  ASSERT_TRUE(SaveLiveSettings(settings, dir + "/live.ini"));
  LiveOptions lo;
  lo.window_size = {1280, 720};
  lo.max_frames = 3;
  lo.realtime = false;
  lo.settings_path = dir + "/live.ini";
  lo.screenshot_path = dir + "/shot.png";
  const LiveResult r = RunLive(lo, source, pipeline);
  ASSERT_EQ(r.frames, 3);
  ASSERT_FALSE(r.screenshot.empty());
  EXPECT_FALSE(r.top_down);
  const PipelineFrame& f = pipeline.last();
  ASSERT_TRUE(f.track.registration.ok) << "the clip's anchors must register the table";
  ASSERT_NE(f.scene.FindUnit("A"), nullptr);
  ASSERT_TRUE(f.scene.FindUnit("A")->pose.has_value()) << "A must be located";

  // The threatened edge, from the rules' own output: A's right flank.
  const DrawPrimitive* edge = nullptr;
  for (const DrawPrimitive& p : f.primitives)
    if (p.style == DrawStyle::kThreat && p.unit_id == "A" && p.text == "right flank") edge = &p;
  ASSERT_NE(edge, nullptr) << "totsk must report A's right flank threatened by R";
  // ... and from the geometry: A's footprint's right edge at the located pose (front-right to rear-right).
  const geom::Segment right = geom::EdgeSegment(Footprint(*f.scene.FindUnit("A")), geom::Edge::kRight);
  EXPECT_LT((edge->points_mm[0] - right.a).norm(), 1e-6);
  EXPECT_LT((edge->points_mm[1] - right.b).norm(), 1e-6);

  const cv::Vec3b threat(Blue(DefaultStyleTable().For(DrawStyle::kThreat).rgba),
                         Green(DefaultStyleTable().For(DrawStyle::kThreat).rgba),
                         Red(DefaultStyleTable().For(DrawStyle::kThreat).rgba));
  const calib::CameraFromTable& pose = f.track.registration.camera_from_table;
  auto window_px = [&](const geom::Vec2& t) {
    const cv::Point2d img = calib::ProjectToImage(renderer->intrinsics(), pose, {cv::Point3d(t.x(), t.y(), 0)})[0];
    return r.camera_view.Apply(img);
  };
  // A quarter and three quarters along the edge (its middle carries the dashed link to R, also in
  // the threat colour, so it would prove less).
  for (double s : {0.25, 0.75}) {
    const cv::Point2d p = window_px(right.a + (right.b - right.a) * s);
    EXPECT_LE(NearestColour(r.screenshot, p, threat), 45)
        << "at " << s << " along A's right edge, window px (" << p.x << ", " << p.y << ")";
  }
  // Inside A, 10 mm left of the edge, nothing is drawn in the threat colour.
  const cv::Point2d inside = window_px((right.a + right.b) * 0.5 - geom::Right(Footprint(*f.scene.FindUnit("A"))) * 10.0);
  EXPECT_GT(NearestColour(r.screenshot, inside, threat), 90) << "at (" << inside.x << ", " << inside.y << ")";
  // The settings file was read (labels hidden) and, with save_settings, written back.
  EXPECT_EQ(LoadLiveSettings(dir + "/live.ini").layers.HiddenList(), "labels,tests");
  cv::imwrite(dir + "/shot_checked.png", r.screenshot);
}

// The window driven through its own input entry point (LiveOptions::script hands events to the same
// LiveInteraction::Handle the mouse and keyboard use), on the flank table with the states ruleset:
// click A then R (dispute), E (evidence), zoom and pan then click A and a table point, T (top-down)
// then A and R again, 3 (hide ranges), right-click R and set it shaken, Esc. The screenshot shows the
// measured gap in the measure colour where the top-down view puts it; the pipeline's findings, the
// recording's log and the result carry the declared state.
TEST(LiveWindow, ScriptedInputGivesDisputeEvidenceViewAndState) {
  std::string why;
  if (!DisplayAvailable(&why)) GTEST_SKIP() << "no display for the live window: " << why;
  const std::string dir = testing::TempDir("live_script");
  const std::string clip = testing::WriteFlankClip(dir, 4, 800, 450);
  auto renderer = std::make_shared<synth::ClipRenderer>(synth::LoadClipScript(clip));
  ClipSource source(renderer, 3);
  PipelineOptions po;
  po.ruleset = "states";
  Pipeline pipeline(po, renderer->intrinsics(), renderer->script().roster);

  LiveOptions lo;
  lo.window_size = {1280, 720};
  lo.max_frames = 3;
  lo.realtime = false;
  lo.settings_path = dir + "/live.ini";
  lo.screenshot_path = dir + "/shot.png";
  lo.evidence_dir = dir;
  lo.record_path = dir + "/rec.mkv";
  int step = 0;
  std::optional<geom::Vec2> point_after_pan;
  std::string menu_unit;
  double camera_scale_zoomed = 0, camera_scale_fit = 0;
  auto centre = [&](const char* id) {
    const Pose& p = *pipeline.last().scene.FindUnit(id)->pose;
    return geom::Vec2(p.x_mm, p.y_mm);
  };
  auto click = [](std::vector<InputEvent>* ev, const cv::Point2d& p) {
    ev->push_back(InputEvent::MouseMove(p));
    ev->push_back(InputEvent::MouseDown(MouseButton::kLeft, p));
    ev->push_back(InputEvent::MouseUp(MouseButton::kLeft, p));
  };
  lo.script = [&](const LiveInteraction& ui, int frames, std::vector<InputEvent>* ev) {
    if (frames < 3) return true;  // let the clip play first
    switch (step++) {
      case 0: click(ev, ui.WindowPxOf(centre("A"))); click(ev, ui.WindowPxOf(centre("R"))); break;
      case 1: ev->push_back(InputEvent::Key('E')); break;
      case 2: {
        camera_scale_fit = ui.View().scale;
        const cv::Point2d a = ui.WindowPxOf(centre("A"));
        ev->push_back(InputEvent::Wheel(a, 2));
        ev->push_back(InputEvent::MouseDown(MouseButton::kRight, a));
        for (int i = 1; i <= 3; ++i) ev->push_back(InputEvent::MouseMove(a + cv::Point2d(40, 25) * (i / 3.0)));
        ev->push_back(InputEvent::MouseUp(MouseButton::kRight, a + cv::Point2d(40, 25)));
        break;
      }
      case 3:
        camera_scale_zoomed = ui.View().scale;
        click(ev, ui.WindowPxOf(centre("A")));
        click(ev, ui.WindowPxOf({200, 320}));
        break;
      case 4:
        point_after_pan = ui.pick_point();
        ev->push_back(InputEvent::Key('T'));
        break;
      case 5: click(ev, ui.WindowPxOf(centre("A"))); click(ev, ui.WindowPxOf(centre("R"))); break;
      case 6: {
        ev->push_back(InputEvent::Key('3'));
        const cv::Point2d r = ui.WindowPxOf(centre("R"));
        ev->push_back(InputEvent::MouseDown(MouseButton::kRight, r));
        ev->push_back(InputEvent::MouseUp(MouseButton::kRight, r));
        break;
      }
      case 7:
        menu_unit = ui.state_menu_unit();
        ev->push_back(InputEvent::Declare("R", "state", "shaken"));
        break;
      case 8: ev->push_back(InputEvent::Key(kKeyEscape)); break;
      default: return false;
    }
    return true;
  };
  const LiveResult r = RunLive(lo, source, pipeline);
  ASSERT_EQ(r.frames, 3);
  ASSERT_FALSE(r.screenshot.empty());
  ASSERT_TRUE(pipeline.last().track.registration.ok);
  EXPECT_GT(step, 8) << "the script ran to its end";

  // Evidence of the first dispute (A -> R in the camera view).
  ASSERT_EQ(r.evidence.size(), 1u);
  std::ifstream ej(r.evidence[0].json);
  const nlohmann::json evidence = nlohmann::json::parse(ej);
  EXPECT_EQ(evidence["dispute"]["from"], "A");
  EXPECT_EQ(evidence["dispute"]["to"], "R");
  EXPECT_FALSE(cv::imread(r.evidence[0].png).empty());
  // Zoom then pan in the camera view, and the click after them found the table point.
  EXPECT_NEAR(camera_scale_zoomed, camera_scale_fit * 1.15 * 1.15, 1e-9);
  ASSERT_TRUE(point_after_pan.has_value());
  EXPECT_NEAR(point_after_pan->x(), 200.0, 1e-3);
  EXPECT_NEAR(point_after_pan->y(), 320.0, 1e-3);
  // The last dispute, picked in the top-down view: A -> R as the dispute tool gives it.
  EXPECT_TRUE(r.top_down);
  ASSERT_TRUE(r.dispute.has_value());
  EXPECT_EQ(r.dispute->from, "A");
  EXPECT_EQ(r.dispute->to, "R");
  const Dispute direct = SettleDispute(DisputeOptions{}, pipeline.ruleset(), pipeline.last().scene, {}, "A", "R");
  EXPECT_NEAR(r.dispute->distance_mm, direct.distance_mm, 1e-9);
  EXPECT_NEAR(r.dispute->distance_mm, 35.0, 1.5) << "the located poses are within a mm or so of the script's";
  EXPECT_FALSE(r.settings.layers.Visible("ranges"));
  // The state: the menu opened for R, the rules saw the declaration, it was logged.
  EXPECT_EQ(menu_unit, "R");
  ASSERT_EQ(r.declarations.size(), 1u);
  EXPECT_EQ(r.declarations[0]["unit"], "R");
  EXPECT_EQ(r.declarations[0]["value"], "shaken");
  std::string state_of_r;
  for (const nlohmann::json& u : pipeline.Report()["units"])
    if (u["id"] == "R") state_of_r = u["state"].get<std::string>() + " " + u["state_source"].get<std::string>();
  EXPECT_EQ(state_of_r, "shaken declared");
  bool logged = false;
  std::ifstream log(dir + "/rec.jsonl");
  for (std::string line; std::getline(log, line);)
    if (!line.empty() && nlohmann::json::parse(line).value("event", "") == "declare") logged = true;
  EXPECT_TRUE(logged) << "the recording's log has the declaration";

  // The screenshot: A, selected, is outlined in the measure colour where the top-down view puts it
  // (r.camera_view is the last view: table mm -> window px). Its rear edge (corners rear-right ->
  // rear-left), away from the gap whose distance label covers the middle of the pair.
  const std::uint32_t m = DefaultStyleTable().For(DrawStyle::kMeasure).rgba;
  const cv::Vec3b measure(Blue(m), Green(m), Red(m));
  const auto corners = geom::Corners(Footprint(*pipeline.last().scene.FindUnit("A")));
  for (double s : {0.3, 0.7}) {
    const geom::Vec2 t = corners[2] + (corners[3] - corners[2]) * s;
    const cv::Point2d p = r.camera_view.Apply({t.x(), t.y()});
    EXPECT_LE(NearestColour(r.screenshot, p, measure), 60) << "at (" << p.x << ", " << p.y << ")";
    // 6 mm inside A, behind its rear edge: not the measure colour.
    const geom::Vec2 in = t + geom::Forward(Footprint(*pipeline.last().scene.FindUnit("A"))) * 6.0;
    const cv::Point2d q = r.camera_view.Apply({in.x(), in.y()});
    EXPECT_GT(NearestColour(r.screenshot, q, measure), 90) << "at (" << q.x << ", " << q.y << ")";
  }
  cv::imwrite(dir + "/shot_checked.png", r.screenshot);
}

TEST(LiveSettingsFile, RoundTripsAndIgnoresUnknownKeys) {
  const std::string dir = testing::TempDir("settings");
  LiveSettings s;
  s.layers = LayerVisibility::FromHiddenList("zoc,ranges");
  s.top_down = true;
  s.show_help = false;
  s.table_view.zoom = 2.5;
  s.table_view.centre = {300.5, 120.25};
  s.table_view.centred = true;
  s.text_size = 1.75;
  s.full_screen = true;
  ASSERT_TRUE(SaveLiveSettings(s, dir + "/a/live.ini"));
  testing::WriteFile(dir + "/a/live.ini.extra", "");
  {
    std::ofstream out(dir + "/a/live.ini", std::ios::app);
    out << "some_future_key = 7\nnot a key line\n";
  }
  const LiveSettings t = LoadLiveSettings(dir + "/a/live.ini");
  EXPECT_EQ(t.layers.HiddenList(), "zoc,ranges");
  EXPECT_TRUE(t.top_down);
  EXPECT_FALSE(t.show_help);
  EXPECT_TRUE(t.table_view.centred);
  EXPECT_DOUBLE_EQ(t.table_view.zoom, 2.5);
  EXPECT_DOUBLE_EQ(t.table_view.centre.x, 300.5);
  EXPECT_FALSE(t.camera_view.centred);
  EXPECT_DOUBLE_EQ(t.text_size, 1.75);
  EXPECT_TRUE(t.full_screen);
  // A missing file gives the defaults.
  EXPECT_EQ(LoadLiveSettings(dir + "/nothing.ini").layers.HiddenList(), "");
}

}  // namespace
}  // namespace vedette::ui
