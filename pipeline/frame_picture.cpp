#include "pipeline/frame_picture.h"

#include <chrono>
#include <cstdio>
#include <string>

#include <opencv2/imgproc.hpp>

#include "overlay/draw_commands.h"
#include "overlay/focus.h"
#include "overlay/marker_quads.h"
#include "overlay/style.h"

namespace vedette::pipeline {

std::string StatusLine(const PipelineFrame& frame) {
  // Counted by state, not by this frame's measurements: the tracker re-measures a resting marker only
  // every few frames (TrackerOptions::rest_refine_every), so "seen this frame" halved and doubled
  // from frame to frame while every unit stood in plain view.
  int on_table = 0, hidden = 0, lifted = 0;
  for (const vision::TrackedUnit& u : frame.track.units) {
    on_table += u.has_pose && vision::OnTable(u.state) ? 1 : 0;
    hidden += vision::Remembered(u.state) ? 1 : 0;
    lifted += u.state == vision::UnitState::kLifted ? 1 : 0;
  }
  char buf[256];
  const vision::TrackRegistration& r = frame.track.registration;
  if (!r.ok) {
    std::snprintf(buf, sizeof buf, "frame %d  t %.2f s  TABLE NOT REGISTERED (%d anchors seen)", frame.track.frame,
                  frame.track.t, r.anchors_seen);
    return buf;
  }
  std::string units = "units " + std::to_string(on_table) + " on table";
  if (hidden > 0) units += " (" + std::to_string(hidden) + " hidden)";
  if (lifted > 0) units += ", " + std::to_string(lifted) + " lifted";
  std::snprintf(buf, sizeof buf, "frame %d  t %.2f s  %s  tests %zu  anchors %d  rms %.2f px", frame.track.frame, frame.track.t,
                units.c_str(), frame.findings.tests.size(), r.anchors_seen, r.rms_px);
  return buf;
}

double AnnotateFrame(const overlay::AnnotateOptions& options, const PipelineFrame& frame, const calib::CameraIntrinsics& intrinsics,
                     cv::Mat* bgr, overlay::AnnotateScratch* scratch, const std::vector<DrawPrimitive>* extra) {
  const auto t0 = std::chrono::steady_clock::now();
  const std::vector<DrawPrimitive>* primitives = &frame.primitives;
  if (extra && !extra->empty()) {
    scratch->extra = frame.primitives;
    scratch->extra.insert(scratch->extra.end(), extra->begin(), extra->end());
    primitives = &scratch->extra;
  }
  // The status line: its band at the top is kept free of labels (a card there would lose its first line).
  const overlay::StyleTable& styles = overlay::DefaultStyleTable();
  const std::string s = options.status_line ? StatusLine(frame) : std::string();
  const float height_px = overlay::LabelHeight(styles.For(DrawStyle::kInfo), overlay::TextScaleForHeight(bgr->rows), styles);
  const double scale = height_px / 22.0;  // Hershey simplex: a scale of 1 is 22 px tall
  int baseline = 0;
  const cv::Size size = options.status_line ? cv::getTextSize(s, cv::FONT_HERSHEY_SIMPLEX, scale, 1, &baseline) : cv::Size();
  const cv::Rect box = cv::Rect(0, 0, size.width + 12, size.height + baseline + 10) & cv::Rect(0, 0, bgr->cols, bgr->rows);
  if (frame.track.registration.ok) {
    overlay::MarkerQuadsOnTable(frame.scene, options.marker_margin_mm, &scratch->markers_mm);  // labels stay off them
    // Reference geometry is drawn full for the side whose turn it is (the hierarchy, draw_commands.h).
    const std::vector<std::string> focus = overlay::FocusUnits(frame.scene, options.build.focus_units);
    const float top = options.status_line ? static_cast<float>(box.height) : 0.0f;
    const cv::Rect2f canvas = options.build.canvas_px.empty()
                                  ? cv::Rect2f(0, top, static_cast<float>(bgr->cols), static_cast<float>(bgr->rows) - top)
                                  : options.build.canvas_px;
    overlay::DrawOverlay(options, *primitives, overlay::FrameProjection(intrinsics, frame.track.registration.camera_from_table), bgr,
                         scratch, &scratch->markers_mm, &focus, &canvas);
  }
  if (options.status_line) {
    // Read like the labels: their height for the frame (never under the floor), on the labels'
    // backing, in a colour that keeps their contrast over any picture.
    (*bgr)(box) *= 1.0 - overlay::Alpha(styles.label_background_rgba) / 255.0;
    const std::uint32_t rgba = overlay::LabelTextColour(frame.track.registration.ok ? 0xEBEBEBFFu : 0xFF3C3CFFu, styles);
    cv::putText(*bgr, s, cv::Point(6, 5 + size.height), cv::FONT_HERSHEY_SIMPLEX, scale,
                cv::Scalar(overlay::Blue(rgba), overlay::Green(rgba), overlay::Red(rgba)), 1, cv::LINE_AA);
  }
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace vedette::pipeline
