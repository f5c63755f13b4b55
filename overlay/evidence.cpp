#include "overlay/evidence.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "overlay/annotate.h"
#include "overlay/cv_renderer.h"
#include "overlay/marker_quads.h"
#include "rules/input_error.h"

namespace vedette::overlay {

namespace {

// The box of a unit's footprint in the picture, px (empty when it is not placed or not seen).
cv::Rect2f UnitBox(const EvidenceInput& in, const TableProjection& projection, const std::string& id) {
  const Unit* u = in.scene.FindUnit(id);
  if (!u || !u->pose) return {};
  cv::Rect2f box;
  bool any = false;
  for (const geom::Base& b : BasesOf(*u))
    for (const geom::Vec2& c : geom::Corners(b)) {
      const cv::Point2f p(ProjectTablePoint(projection, c));
      if (!IsDrawable(p)) continue;
      box = any ? (box | cv::Rect2f(p, cv::Size2f(1, 1))) : cv::Rect2f(p, cv::Size2f(1, 1));
      any = true;
    }
  return box;
}

// The verdict lines at the bottom of the picture, on a dark band: the PNG says what was settled.
void DrawVerdictLines(const std::vector<std::string>& lines, cv::Mat* out) {
  const double scale = std::max(0.5, out->rows / 1080.0 * 0.7);
  const int line_h = static_cast<int>(std::lround(30 * scale));
  const int band = line_h * static_cast<int>(lines.size()) + line_h / 2;
  const cv::Rect r = cv::Rect(0, out->rows - band, out->cols, band) & cv::Rect(0, 0, out->cols, out->rows);
  (*out)(r) *= 0.25;
  for (size_t i = 0; i < lines.size(); ++i)
    cv::putText(*out, lines[i], cv::Point(10, r.y + line_h * static_cast<int>(i + 1)), cv::FONT_HERSHEY_SIMPLEX, scale,
                cv::Scalar(235, 235, 235), std::max(1, static_cast<int>(std::lround(scale * 1.5))), cv::LINE_AA);
}

}  // namespace

std::vector<std::string> EvidenceLines(const EvidenceInput& in) {
  std::vector<std::string> lines;
  std::istringstream text(ToText(in.dispute));
  for (std::string l; std::getline(text, l);) {
    l = HersheyText(l);
    while (!l.empty() && l[0] == ' ') l.erase(0, 1);
    if (!l.empty()) lines.push_back(l);
  }
  return lines;
}

cv::Rect EvidenceInsetRect(const EvidenceInput& in, int inset) {
  const TableProjection projection = FrameProjection(in.intrinsics, in.camera_from_table);
  std::vector<cv::Rect2f> keep_clear;
  for (const std::string& id : {in.dispute.from, in.dispute.to})
    if (!id.empty())
      if (const cv::Rect2f b = UnitBox(in, projection, id); b.area() > 0) keep_clear.push_back(b);
  for (const geom::Vec2& p : {in.dispute.closest_on_from, in.dispute.closest_on_to}) {
    const cv::Point2f q(ProjectTablePoint(projection, p));
    if (IsDrawable(q)) keep_clear.push_back(cv::Rect2f(q.x - 4, q.y - 4, 8, 8));
  }
  const int w = in.frame.cols, h = in.frame.rows, m = 8;
  const cv::Rect corners[] = {{w - inset - m, m, inset, inset}, {m, m, inset, inset},
                              {w - inset - m, h - inset - m, inset, inset}, {m, h - inset - m, inset, inset}};
  for (const cv::Rect& c : corners) {
    const cv::Rect2f cf(c);
    if (std::none_of(keep_clear.begin(), keep_clear.end(), [&](const cv::Rect2f& k) { return (cf & k).area() > 0; })) return c;
  }
  return corners[0];
}

cv::Mat EvidenceImage(const EvidenceInput& in) {
  cv::Mat out = in.frame.clone();
  std::vector<DrawPrimitive> prims = in.primitives;
  const std::vector<DrawPrimitive> gap = DisputePrimitives(in.dispute);
  prims.insert(prims.end(), gap.begin(), gap.end());
  AnnotateOptions options;
  AnnotateScratch scratch;
  const TableProjection projection = FrameProjection(in.intrinsics, in.camera_from_table);
  MarkerQuadsOnTable(in.scene, options.marker_margin_mm, &scratch.markers_mm);  // labels keep off them, as on screen
  DrawOverlay(options, prims, projection, &out, &scratch, &scratch.markers_mm);

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
    zoomed.copyTo(out(EvidenceInsetRect(in, inset)));
  }
  DrawVerdictLines(EvidenceLines(in), &out);
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
