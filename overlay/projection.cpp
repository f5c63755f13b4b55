#include "overlay/projection.h"

#include <cmath>

namespace vedette::overlay {

double LensFoldRadius(const cv::Mat& distortion, double search_limit) {
  double d[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  cv::Mat coeffs;
  if (!distortion.empty()) distortion.reshape(1, 1).convertTo(coeffs, CV_64F);
  for (int i = 0; i < std::min<int>(8, static_cast<int>(coeffs.total())); ++i) d[i] = coeffs.at<double>(0, i);
  const double k1 = d[0], k2 = d[1], k3 = d[4], k4 = d[5], k5 = d[6], k6 = d[7];
  auto distorted = [&](double r) {
    const double r2 = r * r;
    const double num = 1 + r2 * (k1 + r2 * (k2 + r2 * k3));
    const double den = 1 + r2 * (k4 + r2 * (k5 + r2 * k6));
    return r * num / den;
  };
  // Fine steps: the fold of a strong barrel lens sits at r ~ 1 and must not be stepped over.
  constexpr double kStep = 0.002;
  double previous = 0.0;
  for (double r = kStep; r <= search_limit; r += kStep) {
    const double v = distorted(r);
    if (!(v > previous)) return r - kStep;
    previous = v;
  }
  return std::numeric_limits<double>::infinity();
}

CameraView MakeCameraView(const calib::CameraIntrinsics& intrinsics, const calib::CameraFromTable& camera_from_table) {
  CameraView c;
  c.intrinsics = intrinsics;
  c.camera_from_table = camera_from_table;
  c.pinhole = intrinsics.distortion.empty() || cv::countNonZero(intrinsics.distortion.reshape(1, 1) != 0) == 0;
  c.fold_radius = c.pinhole ? std::numeric_limits<double>::infinity() : LensFoldRadius(intrinsics.distortion);
  return c;
}

TableProjection CameraProjection(const CameraView& camera, const ViewTransform& view) {
  TableProjection p;
  p.camera = camera;
  p.view = view;
  return p;
}

TableProjection TopDownProjection(const ViewTransform& view) {
  TableProjection p;
  p.view = view;
  return p;
}

void ProjectTablePoints(const TableProjection& projection, const std::vector<geom::Vec2>& table_mm,
                        std::vector<cv::Point2f>* out_px) {
  out_px->resize(table_mm.size());
  if (table_mm.empty()) return;
  const ViewTransform& v = projection.view;
  if (!projection.camera) {
    for (size_t i = 0; i < table_mm.size(); ++i) {
      const cv::Point2d o = v.Apply({table_mm[i].x(), table_mm[i].y()});
      (*out_px)[i] = cv::Point2f(static_cast<float>(o.x), static_cast<float>(o.y));
    }
    return;
  }
  const CameraView& cam = *projection.camera;
  std::vector<cv::Point3d> points(table_mm.size());
  for (size_t i = 0; i < table_mm.size(); ++i) points[i] = {table_mm[i].x(), table_mm[i].y(), 0.0};
  const std::vector<cv::Point2d> image = calib::ProjectToImage(cam.intrinsics, cam.camera_from_table, points);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const cv::Matx33d& r = cam.camera_from_table.rotation;
  const cv::Vec3d& t = cam.camera_from_table.translation_mm;
  const double fold2 = cam.fold_radius * cam.fold_radius;
  for (size_t i = 0; i < table_mm.size(); ++i) {
    bool ok = std::isfinite(image[i].x) && std::isfinite(image[i].y);
    if (ok && std::isfinite(fold2)) {
      const cv::Vec3d c = r * cv::Vec3d(points[i].x, points[i].y, 0.0) + t;
      const double x = c[0] / c[2], y = c[1] / c[2];
      ok = x * x + y * y <= fold2;
    }
    if (!ok) {
      (*out_px)[i] = cv::Point2f(nan, nan);
      continue;
    }
    const cv::Point2d o = v.Apply(image[i]);
    (*out_px)[i] = cv::Point2f(static_cast<float>(o.x), static_cast<float>(o.y));
  }
}

cv::Point2d ProjectTablePoint(const TableProjection& projection, const geom::Vec2& table_mm) {
  std::vector<cv::Point2f> px;
  ProjectTablePoints(projection, {table_mm}, &px);
  return {px[0].x, px[0].y};
}

geom::Vec2 OutputToTable(const TableProjection& projection, const cv::Point2d& out_px) {
  const cv::Point2d content = projection.view.Inverse(out_px);
  if (!projection.camera) return {content.x, content.y};
  const CameraView& cam = *projection.camera;
  const std::vector<cv::Point2d> t = calib::ImageToTablePlane(cam.intrinsics, cam.camera_from_table, {content}, 0.0);
  return {t[0].x, t[0].y};
}

}  // namespace vedette::overlay
