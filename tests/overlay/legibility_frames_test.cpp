// The issue's acceptance figures on whole clips, through the real frame path: each clip is rendered
// by the synthetic camera (synth::ClipRenderer) and run frame by frame through pipeline::RunFrame
// (tracker, scene, rules) into pipeline::AnnotateFrame (what recordings, `process` and `demo` draw);
// on every measured frame the overlay description it drew is checked against the markers where the
// renderer put them (its truth, not the tracker's idea of them):
//   0 label boxes overlapping another, 0 label boxes over a marker, text >= 14 px (at 1080 lines and
//   on the 720-line demo alike), every label's text >= 4.5:1 (WCAG 2) over its box on any picture.
// Clips: the demo battle (assets/demo/, what `vedette demo` plays: 20 units, 1280x720, a hand, a
// wheel, a charge, a rout) and a generated table of 60 units at 1080p (two lines of 30 facing each
// other 300 mm apart, TotSK). The figures printed here are the ones in overlay/NOTES.md.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <memory>
#include <sstream>

#include <opencv2/imgcodecs.hpp>

#include <gtest/gtest.h>

#include "overlay/legibility.h"
#include "pipeline/frame_loop.h"
#include "pipeline/frame_picture.h"
#include "pipeline/frame_source.h"
#include "pipeline/pipeline.h"
#include "synth/clip_render.h"
#include "synth/clip_script.h"
#include "tests/overlay/test_scenes.h"

namespace vedette::overlay {
namespace {

struct Figures {
  int frames = 0;            // frames measured
  long labels = 0;           // labels the rules asked for, summed over the frames measured
  long kept = 0, moved = 0, dropped = 0;
  int overlaps = 0;          // overlapping label pairs, summed
  int over_markers = 0;      // (label, marker) pairs, summed
  int markers = 0;           // markers in the picture, summed
  double min_text_px = std::numeric_limits<double>::infinity();
  double min_contrast = std::numeric_limits<double>::infinity();
  double build_ms = 0, layout_ms = 0;  // per frame measured: commands with the layout, of which the layout
  // The same frames drawn as before issue 17 (labels apart but free to cover markers, boxes of alpha
  // 0xA8, colours as the style gives them): shows the clips do test something.
  int over_markers_before = 0;
  double min_contrast_before = std::numeric_limits<double>::infinity();
  std::string worst;         // the first problem seen, for the failure message
  std::string least_contrast;  // the label with the smallest contrast: text and colour
};

// Runs `clip_path` through the pipeline; measures every `every`-th frame from `first` on.
Figures MeasureClip(const std::string& clip_path, int every, int first = 0) {
  auto renderer = std::make_shared<synth::ClipRenderer>(synth::LoadClipScript(clip_path));
  pipeline::ClipSource source(renderer);
  pipeline::PipelineOptions po;
  for (const auto& [key, declared] : renderer->script().roster.declarations.settings)  // as the demo command does
    po.ruleset_options.settings[key] = declared.value.is_string() ? declared.value.get<std::string>() : declared.value.dump();
  pipeline::Pipeline pipeline(po, renderer->intrinsics(), renderer->script().roster);

  struct Measure : pipeline::FrameSink {
    pipeline::ClipSource* source = nullptr;
    const calib::CameraIntrinsics* intrinsics = nullptr;
    int every = 1, first = 0;
    Figures f;
    AnnotateOptions options;
    AnnotateScratch scratch;
    DrawCommands again;
    void OnFrame(pipeline::FrameOutput& out) override {
      const pipeline::PipelineFrame& frame = out.frame;
      if (frame.track.frame < first || (frame.track.frame - first) % every != 0 || !frame.track.registration.ok) return;
      cv::Mat picture = out.image.clone();
      pipeline::AnnotateFrame(options, frame, *intrinsics, &picture, &scratch);
      const DrawCommands& drawn = scratch.commands;
      std::vector<MarkerQuad> markers;
      for (const synth::MarkerTruth& m : source->last().render_truth.markers) {
        if (!m.in_image) continue;
        MarkerQuad q;
        for (int k = 0; k < 4; ++k) q[k] = cv::Point2f(m.corners_px[k]);
        markers.push_back(q);
      }
      const Legibility l = MeasureLegibility({}, drawn, markers);
      ++f.frames;
      f.labels += drawn.label_stats.labels;
      f.kept += l.labels;
      f.moved += drawn.label_stats.moved;
      f.dropped += drawn.label_stats.dropped;
      f.overlaps += static_cast<int>(l.overlapping.size());
      f.over_markers += static_cast<int>(l.over_marker.size());
      f.markers += static_cast<int>(markers.size());
      f.min_text_px = std::min(f.min_text_px, l.labels ? l.min_text_px : f.min_text_px);
      if (l.labels && l.min_contrast < f.min_contrast) {
        f.min_contrast = l.min_contrast;
        char buf[64];
        std::snprintf(buf, sizeof buf, " #%08X", drawn.labels[l.min_contrast_label].text_rgba);
        f.least_contrast = "'" + drawn.labels[l.min_contrast_label].text + "'" + buf;
      }
      std::ostringstream why;
      for (const auto& [i, j] : l.overlapping)
        why << "frame " << frame.track.frame << ": '" << drawn.labels[i].text << "' overlaps '" << drawn.labels[j].text << "'\n";
      for (const auto& [i, m] : l.over_marker)
        why << "frame " << frame.track.frame << ": '" << drawn.labels[i].text << "' at (" << drawn.labels[i].anchor_px.x << ", "
            << drawn.labels[i].anchor_px.y << ") over marker " << m << "\n";
      if (f.worst.size() < 2000) f.worst += why.str();

      // The cost of the commands, with and without the layout, on the same inputs as drawn.
      BuildOptions build = options.build;
      build.scale = ScaleForHeight(picture.rows);
      build.text_scale = TextScaleForHeight(picture.rows);
      build.canvas_px = cv::Rect2f(0, 0, static_cast<float>(picture.cols), static_cast<float>(picture.rows));
      build.markers_mm = &scratch.markers_mm;
      const TableProjection projection = FrameProjection(*intrinsics, frame.track.registration.camera_from_table);
      auto time = [&](bool layout) {
        build.labels.enabled = layout;
        BuildDrawCommands(build, frame.primitives, projection, DefaultStyleTable(), options.layers, &again);  // warm
        const auto t0 = std::chrono::steady_clock::now();
        constexpr int kRuns = 5;
        for (int r = 0; r < kRuns; ++r)
          BuildDrawCommands(build, frame.primitives, projection, DefaultStyleTable(), options.layers, &again);
        return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() / kRuns;
      };
      const double with = time(true), without = time(false);
      f.build_ms += with;
      f.layout_ms += with - without;

      build.labels.enabled = true;
      build.markers_mm = nullptr;
      StyleTable before = DefaultStyleTable();
      before.label_background_rgba = 0x000000A8;
      before.min_text_contrast = 1.0;
      BuildDrawCommands(build, frame.primitives, projection, before, options.layers, &again);
      const Legibility b = MeasureLegibility({}, again, markers);
      f.over_markers_before += static_cast<int>(b.over_marker.size());
      if (b.labels) f.min_contrast_before = std::min(f.min_contrast_before, b.min_contrast);
      if (const char* dump = std::getenv("VEDETTE_LEGIBILITY_DUMP"))
        cv::imwrite(std::string(dump) + "_" + std::to_string(frame.track.frame) + ".png", picture);
    }
  } measure;
  measure.source = &source;
  measure.intrinsics = &renderer->intrinsics();
  measure.every = every;
  measure.first = first;
  while (pipeline::RunFrame(source, pipeline, {&measure})) {
  }
  Figures f = measure.f;
  if (f.frames > 0) {
    f.build_ms /= f.frames;
    f.layout_ms /= f.frames;
  }
  return f;
}

void Report(const char* name, const Figures& f, int image_height) {
  std::printf(
      "%s: %d frames measured, labels %ld asked, %ld kept (%ld moved), %ld dropped; markers %d; overlaps %d, labels over "
      "markers %d; min text %.1f px (%.1f px at 1080 lines), min contrast %.2f:1 (%s); commands %.3f ms per frame, of which "
      "layout %.3f ms; as before: %d labels over markers, min contrast %.2f:1\n",
      name, f.frames, f.labels, f.kept, f.moved, f.dropped, f.markers, f.overlaps, f.over_markers, f.min_text_px,
      f.min_text_px * 1080.0 / image_height, f.min_contrast, f.least_contrast.c_str(), f.build_ms, f.layout_ms, f.over_markers_before, f.min_contrast_before);
}

void ExpectAcceptance(const Figures& f) {
  EXPECT_EQ(f.overlaps, 0) << f.worst;
  EXPECT_EQ(f.over_markers, 0) << f.worst;
  EXPECT_GE(f.min_text_px, 14.0);
  EXPECT_GE(f.min_contrast, 4.5);
  EXPECT_GT(f.kept, 0);
  EXPECT_GT(f.over_markers_before, 0) << "without the markers as obstacles labels cover them: the clip tests that";
  EXPECT_LT(f.min_contrast_before, 4.5) << "the old boxes and colours fall short: the clip tests that";
}

// The demo battle, every 10th frame (24 of 240: before, under and after the hand, during the wheel,
// the charge and the rout).
TEST(LegibilityFrames, DemoBattleMeetsTheAcceptanceFigures) {
  const Figures f = MeasureClip(std::string(VEDETTE_TEST_DATA) + "/../assets/demo/battle.clip.yaml", 10);
  Report("demo battle", f, 720);
  EXPECT_GE(f.frames, 20);
  ExpectAcceptance(f);
}

// 60 units at 1080p: blue's line of 30 at y = 250 facing +y, red's at y = 550 facing -y (300 mm
// apart, 45 mm from centre to centre along each line), on a 1500 x 800 mm table:
//
//   y=800 +--------------------------------------------------+
//         | [3]                                          [2] |
//         |   R0 R1 R2 ...                         ... R29   |  y = 550, facing -y
//         |                                                  |
//         |   B0 B1 B2 ...                         ... B29   |  y = 250, facing +y
//         | [0]                                          [1] |
//   y=0   +--------------------------------------------------+
// B14 steps 40 mm forward during the clip so the rules run again on the way.
std::string SixtyUnitClip(const std::string& dir) {
  std::ostringstream roster;
  roster << "bw_mm: 40\ntable: {width_mm: 1500, depth_mm: 800}\narc_model: totsk\ndictionary: DICT_4X4_100\n"
            "sides:\n  blue: {colour: \"#3060ff\"}\n  red: {colour: \"#e03030\"}\nanchors:\n"
            "  - {marker: 0, size_mm: 40, x_mm: 35, y_mm: 35, heading_deg: 90}\n"
            "  - {marker: 1, size_mm: 40, x_mm: 1465, y_mm: 35, heading_deg: 90}\n"
            "  - {marker: 2, size_mm: 40, x_mm: 1465, y_mm: 765, heading_deg: 90}\n"
            "  - {marker: 3, size_mm: 40, x_mm: 35, y_mm: 765, heading_deg: 90}\nunits:\n";
  for (int side = 0; side < 2; ++side)
    for (int i = 0; i < 30; ++i) {
      roster << "  - {id: " << (side ? "R" : "B") << i << ", side: " << (side ? "red" : "blue")
             << ", type: infantry, formation: line, base: {width_mm: 40, depth_mm: 30},\n"
             << "     pose: {x_mm: " << 97.5 + 45 * i << ", y_mm: " << (side ? 550 : 250) << ", heading_deg: " << (side ? -90 : 90)
             << "},\n     marker: " << 10 + side * 30 + i
             << ", marker_size_mm: 24, marker_offset_mm: [0, 0], marker_heading_deg: 0, marker_height_mm: 3}\n";
    }
  testing::WriteFile(dir + "/roster.yaml", roster.str());
  testing::WriteFile(dir + "/clip.yaml",
                     "roster: roster.yaml\nfps: 5\nduration_s: 1.2\n"
                     "camera: {image_size: [1920, 1080], horizontal_fov_deg: 68, margin: 0.03, k1: -0.05}\n"
                     "render: {supersample: 1, blur_sigma_px: 0.6, read_noise: 1.0, jpeg_quality: 0, seed: 5}\n"
                     "units:\n  B14:\n    keys:\n      - {t: 0.2, x_mm: 727.5, y_mm: 250, heading_deg: 90}\n"
                     "      - {t: 0.8, x_mm: 727.5, y_mm: 290, heading_deg: 90}\n");
  return dir + "/clip.yaml";
}

TEST(LegibilityFrames, SixtyUnitsAt1080pMeetTheAcceptanceFigures) {
  const Figures f = MeasureClip(SixtyUnitClip(testing::TempDir("legibility60")), 1);
  Report("60 units, 1080p", f, 1080);
  EXPECT_GE(f.frames, 4);
  EXPECT_GE(f.markers, f.frames * 60);
  ExpectAcceptance(f);
}

}  // namespace
}  // namespace vedette::overlay
