// The spectator page (streams/web/) in Debian's headless Chromium: `vedette process --serve` runs
// the demo's roster (20 units) while the page is open; the page connects, draws the units, and a
// screenshot shows each base in its side's colour where the stream put it. Set
// VEDETTE_SPECTATOR_PNG=FILE to keep the screenshot (docs/images/spectator.png is one).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <future>
#include <map>

#include <opencv2/imgcodecs.hpp>

#include "rules/geometry/distance.h"
#include "rules/scene/scene_io.h"
#include "tests/streams/headless_chromium.h"
#include "tests/streams/stream_clip.h"

namespace vedette {
namespace {

using testing::FreePort;
using testing::RunShell;
using testing::TestFolder;

constexpr int kWidth = 1280, kHeight = 720, kPanelPx = 320;  // the page's panel: spectator.css #panel
constexpr double kMarginMm = 20;                              // spectator.js MARGIN_MM
// The clip's last frame (1.4 s at 15 fps: frames 0 to 20) is on the page, drawn.
constexpr const char* kLastFrameDrawn =
    "window.vedette && window.vedette.frame && window.vedette.frame.frame.frame === 20 && !window.vedette.dirty";

struct Rgb {
  int r, g, b;
};
Rgb FromHex(const std::string& hex) {
  const unsigned v = std::stoul(hex.substr(1), nullptr, 16);
  return {int(v >> 16 & 255), int(v >> 8 & 255), int(v & 255)};
}

TEST(Spectator, ThePageDrawsEachBaseWhereTheStreamSays) {
  if (!std::filesystem::exists(testing::kChromium))
    GTEST_SKIP() << testing::kChromium << " is absent: install Debian's chromium (scripts/setup.sh does)";
  TestFolder dir;
  const std::string roster = std::string(VEDETTE_SOURCE_DIR) + "/assets/demo/roster.yaml";
  std::ofstream(dir / "demo.clip.yaml") << "roster: " << roster << R"(
fps: 15
duration_s: 1.4
camera: {image_size: [1280, 720], tilt_deg: 0, horizontal_fov_deg: 68, margin: 0.03, k1: -0.06, k2: 0.02}
render: {supersample: 2, blur_sigma_px: 0.7, read_noise: 1.5, jpeg_quality: 0, seed: 7}
)";
  auto r = RunShell(std::string(VEDETTE_BINARY) + " clip " + (dir / "demo.clip.yaml") + " --video " + (dir / "demo.mkv") +
                    " --calib-out " + (dir / "cam.yaml"));
  ASSERT_EQ(r.status, 0) << r.err;
  const int port = FreePort();
  auto run = std::async(std::launch::async, [&] {
    return RunShell(std::string(VEDETTE_BINARY) + " process --video " + (dir / "demo.clip.yaml") + " --calib " +
                    (dir / "cam.yaml") + " --roster " + roster + " --log " + (dir / "run.jsonl") + " --serve " +
                    std::to_string(port) + " --serve-wait 60 --serve-linger 10");
  });
  testing::HeadlessChromium browser("http://127.0.0.1:" + std::to_string(port) + "/", kWidth, kHeight);
  ASSERT_TRUE(browser.ok()) << "no DevTools connection to Chromium: " << browser.devtools();
  // A second spectator: the OBS overlay, ?transparent=1 (no table, no panel).
  testing::HeadlessChromium overlay("http://127.0.0.1:" + std::to_string(port) + "/?transparent=1", kWidth, kHeight);
  ASSERT_TRUE(overlay.ok()) << "no DevTools connection to Chromium: " << overlay.devtools();
  overlay.TransparentBackground();
  ASSERT_TRUE(browser.WaitFor(kLastFrameDrawn, 30));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  const int drawn = browser.Evaluate("window.vedette.frame.frame.frame").get<int>();
  const nlohmann::json hello = browser.Evaluate("window.vedette.hello");
  const cv::Mat shot = browser.Screenshot();
  ASSERT_FALSE(shot.empty());
  if (const char* keep = std::getenv("VEDETTE_SPECTATOR_PNG"); keep && *keep) cv::imwrite(keep, shot);
  ASSERT_EQ(shot.cols, kWidth);
  ASSERT_EQ(shot.rows, kHeight);
  // The overlay's picture too, while the server lingers on the last frame.
  ASSERT_TRUE(overlay.WaitFor(kLastFrameDrawn, 30));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  const int overlay_frame = overlay.Evaluate("window.vedette.frame.frame.frame").get<int>();
  const cv::Mat clear = overlay.Screenshot(true);
  const auto done = run.get();
  ASSERT_EQ(done.status, 0) << done.err;

  // The stream's frame the page drew, as the log of the same run has it.
  nlohmann::json frame;
  for (const auto& f : testing::FrameLinesOf(dir / "run.jsonl"))
    if (f["frame"] == drawn) frame = f;
  ASSERT_FALSE(frame.is_null()) << "frame " << drawn;
  const double w = hello["table"]["width_mm"], d = hello["table"]["depth_mm"];
  const double map_w = kWidth - kPanelPx, map_h = kHeight;
  const double s = std::min(map_w / (w + 2 * kMarginMm), map_h / (d + 2 * kMarginMm));
  const double ox = (map_w - s * (w + 2 * kMarginMm)) / 2, oy = (map_h - s * (d + 2 * kMarginMm)) / 2;
  std::map<std::string, std::string> side_of;
  for (const auto& u : hello["units"]) side_of[u["id"]] = u["side"];
  std::map<std::string, std::string> colour_of;
  for (const auto& sd : hello["sides"]) colour_of[sd["name"]] = sd["colour"];
  int checked = 0;
  for (const auto& u : frame["units"]) {
    if (!u.contains("x_mm")) continue;
    const double x = u["x_mm"], y = u["y_mm"];
    const cv::Point px(static_cast<int>(std::lround(ox + s * (x + kMarginMm))),
                       static_cast<int>(std::lround(oy + s * (d - y + kMarginMm))));
    ASSERT_TRUE(cv::Rect(0, 0, kWidth, kHeight).contains(px)) << u["id"];
    const cv::Vec3b bgr = shot.at<cv::Vec3b>(px);
    const Rgb want = FromHex(colour_of[side_of[u["id"]]]);
    EXPECT_LE(std::abs(bgr[2] - want.r) + std::abs(bgr[1] - want.g) + std::abs(bgr[0] - want.b), 30)
        << u["id"] << " at (" << x << ", " << y << ") mm should be " << side_of[u["id"]] << " at px " << px
        << ", the screenshot has rgb(" << int(bgr[2]) << ", " << int(bgr[1]) << ", " << int(bgr[0]) << ")";
    ++checked;
  }
  EXPECT_EQ(checked, 20) << "the demo's 20 units";

  // The dispute readout: two units picked, the page's gap against the rules' own edge-to-edge
  // distance between the same footprints at the poses of the frame it drew.
  Scene scene = LoadScene(roster, SceneLoadOptions{.require_poses = false});
  for (const auto& u : frame["units"])
    if (u.contains("x_mm"))
      if (Unit* unit = scene.FindUnit(u["id"].get<std::string>()))
        unit->pose = Pose{u["x_mm"].get<double>(), u["y_mm"].get<double>(), u["heading_deg"].get<double>()};
  int disputes = 0;
  for (size_t i = 0; i + 1 < scene.units.size() && disputes < 3; i += 5) {
    const Unit& a = scene.units[i];
    const Unit& b = scene.units[i + 1];
    if (!a.pose || !b.pose) continue;
    double gap = 1e18;
    for (const geom::Base& ba : BasesOf(a))
      for (const geom::Base& bb : BasesOf(b)) gap = std::min(gap, geom::BaseGap(ba, bb));
    const std::string pick = "state.selected = ['" + a.id + "', '" + b.id + "']; drawDispute(); ";
    const nlohmann::json page = browser.Evaluate(pick + "({gap: disputeResult().gap, text: document.getElementById('dispute').textContent})");
    ASSERT_TRUE(page.contains("gap")) << page.dump();
    EXPECT_NEAR(page["gap"].get<double>(), gap, 0.01) << a.id << " to " << b.id;
    EXPECT_NE(page["text"].get<std::string>().find(a.id), std::string::npos) << page["text"];
    ++disputes;
  }
  EXPECT_EQ(disputes, 3);

  // The overlay: the same bases over nothing at all (the map spans the whole window).
  ASSERT_EQ(clear.channels(), 4);
  const double s2 = std::min(kWidth / (w + 2 * kMarginMm), kHeight / (d + 2 * kMarginMm));
  const double ox2 = (kWidth - s2 * (w + 2 * kMarginMm)) / 2, oy2 = (kHeight - s2 * (d + 2 * kMarginMm)) / 2;
  auto at = [&](double x, double y) {
    return clear.at<cv::Vec4b>(cv::Point(static_cast<int>(std::lround(ox2 + s2 * (x + kMarginMm))),
                                         static_cast<int>(std::lround(oy2 + s2 * (d - y + kMarginMm)))));
  };
  EXPECT_EQ(at(500, 350)[3], 0) << "the middle of the table, where nothing stands, is transparent";
  EXPECT_EQ(at(-10, -10)[3], 0) << "so is the margin";
  for (const auto& f : testing::FrameLinesOf(dir / "run.jsonl")) {
    if (f["frame"] != overlay_frame) continue;
    for (const auto& u : f["units"]) {
      const cv::Vec4b p = at(u["x_mm"], u["y_mm"]);
      const Rgb want = FromHex(colour_of[side_of[u["id"]]]);
      EXPECT_EQ(p[3], 255) << u["id"];
      EXPECT_LE(std::abs(p[2] - want.r) + std::abs(p[1] - want.g) + std::abs(p[0] - want.b), 30) << u["id"];
    }
  }
}

}  // namespace
}  // namespace vedette
