#pragma once
// The annotated picture: a frame with the overlay drawn through the calibration (what recordings,
// `vedette process`, the demo's video and evidence images show), and the top-down rectified table
// view. Both go through BuildDrawCommands + the OpenCV backend; the live window builds the same
// commands and hands them to the ImGui backend instead.
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "calibration/camera_model.h"
#include "overlay/cv_renderer.h"
#include "overlay/draw_commands.h"
#include "overlay/layers.h"
#include "rules/scene/scene.h"
#include "overlay/view_transform.h"
#include "overlay/projection.h"

namespace vedette::overlay {

struct AnnotateOptions {
  LayerVisibility layers;
  BuildOptions build;          // scale 0 below: from the frame height (ScaleForHeight); text_scale 0: TextScaleForHeight
  CvRenderOptions render;
  bool status_line = true;     // frame number, time, units seen, tests, registration at the top left
  double marker_margin_mm = 3.0;  // labels keep this far off every marker (MarkerQuadsOnTable), mm
  bool Check(std::string* error) const { return build.Check(error) && render.Check(error); }
};

// Reused buffers (a frame's path does not allocate once warm).
struct AnnotateScratch {
  DrawCommands commands;
  CvRenderScratch render;
  std::vector<DrawPrimitive> extra;
  std::vector<TableQuad> markers_mm;  // the frame's markers (MarkerQuadsOnTable)
};

// The camera view of a frame: `camera_from_table` from the tracker's registration.
TableProjection FrameProjection(const calib::CameraIntrinsics& intrinsics, const calib::CameraFromTable& camera_from_table);

// Draws `primitives` over `bgr` (in place) through the camera, labels kept off `markers_mm` (nullptr:
// options.build's), reference geometry full for `focus_units` (nullptr: options.build's), labels
// inside `canvas_px` (nullptr: options.build's, else the whole picture). Returns the overlay time, ms.
double DrawOverlay(const AnnotateOptions& options, const std::vector<DrawPrimitive>& primitives,
                   const TableProjection& projection, cv::Mat* bgr, AnnotateScratch* scratch,
                   const std::vector<TableQuad>* markers_mm = nullptr,
                   const std::vector<std::string>* focus_units = nullptr, const cv::Rect2f* canvas_px = nullptr);

// The table seen from straight above: `px_per_mm` output pixels per table mm, player A at the
// bottom, the table's full width and depth plus `margin_mm` all round. Pixels the camera does not
// see are dark grey. The remap table is cached in `cache` while the camera and size stay the same.
struct RectifyCache {
  cv::Mat map_x, map_y;
  cv::Matx33d rotation;
  cv::Vec3d translation_mm;
  cv::Size size;
  double px_per_mm = 0;
};
// The transform the rectified image uses (table mm -> its px).
ViewTransform RectifiedView(const Scene& roster, double px_per_mm, double margin_mm);
cv::Mat RectifyTable(const cv::Mat& frame, const calib::CameraIntrinsics& intrinsics,
                     const calib::CameraFromTable& camera_from_table, const Scene& roster, double px_per_mm,
                     double margin_mm, RectifyCache* cache);

}  // namespace vedette::overlay
