#include "overlay/annotate.h"

#include <chrono>
#include <cstdio>

#include <opencv2/imgproc.hpp>

namespace vedette::overlay {

TableProjection FrameProjection(const calib::CameraIntrinsics& intrinsics, const calib::CameraFromTable& camera_from_table) {
  return CameraProjection(MakeCameraView(intrinsics, camera_from_table));
}

double DrawOverlay(const AnnotateOptions& options, const std::vector<DrawPrimitive>& primitives,
                   const TableProjection& projection, cv::Mat* bgr, AnnotateScratch* scratch,
                   const std::vector<TableQuad>* markers_mm, const std::vector<std::string>* focus_units,
                   const cv::Rect2f* canvas_px) {
  const auto t0 = std::chrono::steady_clock::now();
  BuildOptions build = options.build;
  if (build.scale == 0) build.scale = ScaleForHeight(bgr->rows);
  if (build.text_scale == 0) build.text_scale = TextScaleForHeight(bgr->rows);
  if (markers_mm) build.markers_mm = markers_mm;
  if (focus_units) build.focus_units = *focus_units;
  if (canvas_px) build.canvas_px = *canvas_px;
  if (build.canvas_px.empty()) build.canvas_px = cv::Rect2f(0, 0, static_cast<float>(bgr->cols), static_cast<float>(bgr->rows));
  BuildDrawCommands(build, primitives, projection, DefaultStyleTable(), options.layers, &scratch->commands);
  RenderCommands(scratch->commands, bgr, &scratch->render, options.render);
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

ViewTransform RectifiedView(const Scene& roster, double px_per_mm, double margin_mm) {
  ViewTransform v;
  v.scale = px_per_mm;
  v.flip_y = true;
  v.offset_x = margin_mm * px_per_mm;
  v.offset_y = (roster.table_depth_mm + margin_mm) * px_per_mm;
  return v;
}

cv::Mat RectifyTable(const cv::Mat& frame, const calib::CameraIntrinsics& intrinsics,
                     const calib::CameraFromTable& camera_from_table, const Scene& roster, double px_per_mm,
                     double margin_mm, RectifyCache* cache) {
  const ViewTransform view = RectifiedView(roster, px_per_mm, margin_mm);
  const cv::Size size(static_cast<int>(std::ceil((roster.table_width_mm + 2 * margin_mm) * px_per_mm)),
                      static_cast<int>(std::ceil((roster.table_depth_mm + 2 * margin_mm) * px_per_mm)));
  // The tracker refines the camera pose a little every frame; a remap table is rebuilt only when the
  // camera really moved (0.05 mm, 1e-5 rad: far below a pixel on the table).
  const bool same = cache->size == size && cache->px_per_mm == px_per_mm && !cache->map_x.empty() &&
                    cv::norm(cache->rotation - camera_from_table.rotation, cv::NORM_INF) < 1e-5 &&
                    cv::norm(cache->translation_mm - camera_from_table.translation_mm, cv::NORM_INF) < 0.05;
  if (!same) {
    // One ProjectToImage call for every output pixel centre: exact lens model, done once per camera pose.
    std::vector<cv::Point3d> pts;
    pts.reserve(static_cast<size_t>(size.area()));
    for (int y = 0; y < size.height; ++y)
      for (int x = 0; x < size.width; ++x) {
        const cv::Point2d t = view.Inverse({static_cast<double>(x), static_cast<double>(y)});
        pts.emplace_back(t.x, t.y, 0.0);
      }
    const std::vector<cv::Point2d> img = calib::ProjectToImage(intrinsics, camera_from_table, pts);
    cache->map_x.create(size, CV_32F);
    cache->map_y.create(size, CV_32F);
    for (int y = 0, i = 0; y < size.height; ++y)
      for (int x = 0; x < size.width; ++x, ++i) {
        const bool ok = std::isfinite(img[i].x) && std::isfinite(img[i].y);
        cache->map_x.at<float>(y, x) = ok ? static_cast<float>(img[i].x) : -1.f;
        cache->map_y.at<float>(y, x) = ok ? static_cast<float>(img[i].y) : -1.f;
      }
    cache->size = size;
    cache->px_per_mm = px_per_mm;
    cache->rotation = camera_from_table.rotation;
    cache->translation_mm = camera_from_table.translation_mm;
  }
  cv::Mat out;
  cv::remap(frame, out, cache->map_x, cache->map_y, cv::INTER_LINEAR, cv::BORDER_CONSTANT, cv::Scalar(40, 40, 40));
  return out;
}

}  // namespace vedette::overlay
