// The live window under a virtual display (the test command runs ctest under xvfb-run): a
// synthetic clip of the flank table (test_scenes.h) plays for a few frames, and a screenshot
// (glReadPixels) shows A's threatened right flank in the threat colour exactly where the
// calibration and the window's view put it. Without a display the test is skipped (it says why).
#include <gtest/gtest.h>

#include <opencv2/imgcodecs.hpp>

#include "calibration/camera_model.h"
#include "overlay/frame_source.h"
#include "overlay/live_settings.h"
#include "overlay/live_window.h"
#include "overlay/style.h"
#include "rules/geometry/base.h"
#include "tests/overlay/test_scenes.h"
#include "vision/clip_script.h"

// Mesa's GL driver is dlopen()ed by GLX and dlclose()d when GLFW terminates; the allocations it keeps
// until exit then belong to an unloaded module, which LeakSanitizer cannot name, so the suppressions
// for system libraries (tests/sanitizer/lsan.supp) cannot match them. Keeping every module loaded in
// this test binary lets them match; leaks in Vedette's own code are still reported.
extern "C" int dlclose(void*) { return 0; }

namespace vedette::overlay {
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
  auto renderer = std::make_shared<vision::ClipRenderer>(vision::LoadClipScript(clip));
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
    if (p.style == DrawStyle::kThreat && p.unit_id == "A" && p.text == "right_flank") edge = &p;
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

TEST(LiveSettingsFile, RoundTripsAndIgnoresUnknownKeys) {
  const std::string dir = testing::TempDir("settings");
  LiveSettings s;
  s.layers = LayerVisibility::FromHiddenList("zoc,ranges");
  s.top_down = true;
  s.show_help = false;
  s.table_view.zoom = 2.5;
  s.table_view.centre = {300.5, 120.25};
  s.table_view.centred = true;
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
  // A missing file gives the defaults.
  EXPECT_EQ(LoadLiveSettings(dir + "/nothing.ini").layers.HiddenList(), "");
}

}  // namespace
}  // namespace vedette::overlay
