#include "overlay/evidence.h"

#include <fstream>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "overlay/annotate.h"
#include "rules/input_error.h"

namespace vedette::overlay {

cv::Mat EvidenceImage(const EvidenceInput& in) {
  cv::Mat out = in.frame.clone();
  std::vector<DrawPrimitive> prims = in.primitives;
  const std::vector<DrawPrimitive> gap = DisputePrimitives(in.dispute);
  prims.insert(prims.end(), gap.begin(), gap.end());
  AnnotateOptions options;
  AnnotateScratch scratch;
  const TableProjection projection = FrameProjection(in.intrinsics, in.camera_from_table);
  DrawOverlay(options, prims, projection, &out, &scratch);

  // The inset: the frame around the gap, magnified so that the gap plus 2 units' widths fills it,
  // with only the gap drawn on it (thin lines, so the edges under it stay visible).
  const cv::Point2d a = ProjectTablePoint(projection, in.dispute.closest_on_from);
  const cv::Point2d b = ProjectTablePoint(projection, in.dispute.closest_on_to);
  if (IsDrawable(cv::Point2f(a)) && IsDrawable(cv::Point2f(b))) {
    const cv::Point2d mid = (a + b) * 0.5;
    const double half = std::max(20.0, 0.5 * cv::norm(a - b) + 16.0);  // px of the frame each side
    const int inset = std::min(out.cols, out.rows) * 2 / 5;
    const double zoom = inset / (2 * half);
    // Crop-and-scale as an affine warp so a gap near the border still gives a full inset.
    const cv::Matx23d m(zoom, 0, inset / 2.0 - zoom * mid.x, 0, zoom, inset / 2.0 - zoom * mid.y);
    cv::Mat zoomed;
    cv::warpAffine(in.frame, zoomed, m, cv::Size(inset, inset), cv::INTER_CUBIC, cv::BORDER_CONSTANT, cv::Scalar(40, 40, 40));
    ViewTransform v;
    v.scale = zoom;
    v.offset_x = inset / 2.0 - zoom * mid.x;
    v.offset_y = inset / 2.0 - zoom * mid.y;
    AnnotateOptions thin;
    thin.build.scale = 1.0;
    DrawOverlay(thin, gap, CameraProjection(MakeCameraView(in.intrinsics, in.camera_from_table), v), &zoomed, &scratch);
    cv::rectangle(zoomed, cv::Rect(0, 0, inset, inset), cv::Scalar(255, 229, 0), 2);
    zoomed.copyTo(out(cv::Rect(out.cols - inset - 8, 8, inset, inset)));
  }
  return out;
}

nlohmann::json EvidenceJson(const EvidenceInput& in) {
  nlohmann::json j;
  j["source"] = in.source;
  j["dispute"] = ToJson(in.dispute);
  nlohmann::json units = nlohmann::json::array();
  for (const Unit& u : in.scene.units) {
    if (!u.pose) continue;
    nlohmann::json e = {{"id", u.id}, {"side", u.side}, {"x_mm", u.pose->x_mm}, {"y_mm", u.pose->y_mm},
                        {"heading_deg", u.pose->heading_deg}};
    if (auto it = in.sigmas.find(u.id); it != in.sigmas.end()) {
      e["sigma_mm"] = it->second.position_mm;
      e["sigma_deg"] = it->second.heading_deg;
    }
    units.push_back(e);
  }
  j["units"] = units;
  const calib::CameraIntrinsics& k = in.intrinsics;
  std::vector<double> dist;
  if (!k.distortion.empty()) {
    cv::Mat d;
    k.distortion.reshape(1, 1).convertTo(d, CV_64F);
    dist.assign(d.begin<double>(), d.end<double>());
  }
  const cv::Vec3d rvec = calib::RvecOf(in.camera_from_table);
  j["calibration"] = {{"file", k.source},
                      {"image_size", {k.image_size.width, k.image_size.height}},
                      {"camera_matrix", {{k.camera_matrix(0, 0), k.camera_matrix(0, 1), k.camera_matrix(0, 2)},
                                         {k.camera_matrix(1, 0), k.camera_matrix(1, 1), k.camera_matrix(1, 2)},
                                         {k.camera_matrix(2, 0), k.camera_matrix(2, 1), k.camera_matrix(2, 2)}}},
                      {"distortion_coefficients", dist},
                      {"avg_reprojection_error_px", k.avg_reprojection_error_px}};
  j["registration"] = {{"rvec", {rvec[0], rvec[1], rvec[2]}},
                       {"tvec_mm",
                        {in.camera_from_table.translation_mm[0], in.camera_from_table.translation_mm[1],
                         in.camera_from_table.translation_mm[2]}},
                       {"rms_px", in.registration_rms_px},
                       {"anchors_seen", in.anchors_seen}};
  return j;
}

EvidenceFiles SaveEvidence(const EvidenceInput& in, const std::string& prefix) {
  EvidenceFiles f{prefix + ".png", prefix + ".json"};
  if (!cv::imwrite(f.png, EvidenceImage(in))) throw InputError(f.png, 0, "cannot write the evidence image");
  std::ofstream out(f.json);
  if (!out) throw InputError(f.json, 0, "cannot write the evidence record");
  out << EvidenceJson(in).dump(2) << "\n";
  return f;
}

}  // namespace vedette::overlay
