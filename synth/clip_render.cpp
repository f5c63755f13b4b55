#include "synth/clip_render.h"

#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <opencv2/calib3d.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/videoio.hpp>

#include "calibration/dictionary.h"
#include "vision/marker_geometry.h"

namespace vedette::synth {

namespace {

using Clock = std::chrono::steady_clock;

// A hand-like blob: a circle with low harmonics, shaped by its seed (fixed over the clip).
std::vector<cv::Point3d> HandOutline(const ClipHandAt& h) {
  cv::RNG rng(uint64_t(h.seed) * 7919 + 17);
  double amp[4], phase[4];
  for (int m = 0; m < 4; ++m) {
    amp[m] = rng.uniform(0.03, 0.12);
    phase[m] = rng.uniform(0.0, 2 * CV_PI);
  }
  std::vector<cv::Point3d> pts;
  constexpr int kPoints = 72;
  for (int i = 0; i < kPoints; ++i) {
    const double th = 2 * CV_PI * i / kPoints;
    double r = h.radius_mm;
    for (int m = 0; m < 4; ++m) r *= 1 + amp[m] * std::cos((m + 2) * th + phase[m]);
    pts.emplace_back(h.x_mm + r * std::cos(th), h.y_mm + r * std::sin(th), h.height_mm);
  }
  return pts;
}

std::string MomentKey(const ClipMoment& m) {
  std::ostringstream k;
  k.precision(12);
  for (const Unit& u : m.scene.units)
    if (u.pose) k << u.id << ':' << u.pose->x_mm << ',' << u.pose->y_mm << ',' << u.pose->heading_deg << ';';
  const cv::Vec3d r = calib::RvecOf(m.camera_from_table);
  k << '|' << r[0] << ',' << r[1] << ',' << r[2] << ',' << m.camera_from_table.translation_mm[0] << ','
    << m.camera_from_table.translation_mm[1] << ',' << m.camera_from_table.translation_mm[2];
  return k.str();
}

// The hands' outlines in the image: anti-aliased coverage (8x sub-pixel precision via fillPoly's
// shift) into *cover, and the whole-pixel polygons returned.
std::vector<std::vector<cv::Point>> HandPolygons(const ClipMoment& m, const calib::CameraIntrinsics& k, cv::Mat* cover) {
  std::vector<std::vector<cv::Point>> hand_polys;
  for (const ClipHandAt& h : m.hands) {
    const std::vector<cv::Point2d> px = calib::ProjectToImage(k, m.camera_from_table, HandOutline(h));
    std::vector<cv::Point> poly, poly_int;
    bool ok = true;
    for (const cv::Point2d& p : px) {
      if (!std::isfinite(p.x) || !std::isfinite(p.y)) ok = false;
      poly.emplace_back(int(std::lround(p.x * 8)), int(std::lround(p.y * 8)));
      poly_int.emplace_back(int(std::lround(p.x)), int(std::lround(p.y)));
    }
    if (!ok) continue;
    cv::fillPoly(*cover, std::vector<std::vector<cv::Point>>{poly}, cv::Scalar(255), cv::LINE_AA, 3);
    hand_polys.push_back(poly_int);
  }
  return hand_polys;
}

void PaintSkin(const cv::Mat& cover, cv::Mat* img) {
  const cv::Vec3f skin(140, 168, 215);
  for (int y = 0; y < img->rows; ++y) {
    cv::Vec3f* p = img->ptr<cv::Vec3f>(y);
    const uchar* a = cover.ptr<uchar>(y);
    for (int x = 0; x < img->cols; ++x)
      if (a[x]) {
        const float w = a[x] / 255.0f;
        p[x] = p[x] * (1 - w) + skin * w;
      }
  }
}

// Markers under a hand: the fraction of 8x8 sample points whose pixel lies inside a hand outline.
void MarkHiddenMarkers(const std::vector<std::vector<cv::Point>>& hand_polys, RenderTruth* truth) {
  for (MarkerTruth& mt : truth->markers) {
    int hidden = 0;
    const auto c = mt.corners_px;
    for (int i = 0; i < 8; ++i)
      for (int j = 0; j < 8; ++j) {
        const double u = (i + 0.5) / 8, v = (j + 0.5) / 8;
        const cv::Point2d q = (c[0] * (1 - u) + c[1] * u) * (1 - v) + (c[3] * (1 - u) + c[2] * u) * v;
        for (const auto& poly : hand_polys)
          if (cv::pointPolygonTest(poly, cv::Point2f(float(q.x), float(q.y)), false) >= 0) {
            ++hidden;
            break;
          }
      }
    mt.occluded_fraction = std::max(mt.occluded_fraction, hidden / 64.0);
  }
}

// The camera: blur, noise (per-frame seed), quantisation, JPEG.
cv::Mat ThroughTheCamera(cv::Mat img, const RenderOptions& o, int frame) {
  if (o.blur_sigma_px > 0) cv::GaussianBlur(img, img, cv::Size(), o.blur_sigma_px);
  if (o.read_noise > 0 || o.shot_noise > 0) {
    cv::RNG rng(o.seed * 0x9E3779B97F4A7C15ULL + uint64_t(frame) * 1000003ULL + 7);
    cv::Mat noise(img.size(), CV_32FC3);
    rng.fill(noise, cv::RNG::NORMAL, 0, 1);
    const float read2 = float(o.read_noise * o.read_noise), shot = float(o.shot_noise);
    for (int y = 0; y < img.rows; ++y) {
      float* p = img.ptr<float>(y);
      const float* q = noise.ptr<float>(y);
      for (int i = 0; i < img.cols * 3; ++i) p[i] += q[i] * std::sqrt(read2 + shot * std::max(0.0f, p[i]));
    }
  }
  cv::Mat out;
  img.convertTo(out, CV_8UC3);
  if (o.jpeg_quality > 0) {
    std::vector<uchar> buf;
    cv::imencode(".jpg", out, buf, {cv::IMWRITE_JPEG_QUALITY, o.jpeg_quality});
    out = cv::imdecode(buf, cv::IMREAD_COLOR);
  }
  return out;
}

nlohmann::json UnitTruth(const Unit& u, const ClipMoment& m, const RenderTruth& truth) {
  nlohmann::json uj;
  uj["id"] = u.id;
  uj["state"] = std::string(ToString(m.states.at(u.id)));
  if (auto p = m.poses.find(u.id); p != m.poses.end()) {
    uj["x_mm"] = p->second.x_mm;
    uj["y_mm"] = p->second.y_mm;
    uj["heading_deg"] = p->second.heading_deg;
  }
  for (const MarkerTruth& mt : truth.markers)
    if (mt.unit == u.id) {
      uj["marker_side_px"] = mt.side_px;
      uj["occluded_fraction"] = mt.occluded_fraction;
      uj["in_image"] = mt.in_image;
      uj["corners"] = nlohmann::json::array();
      for (const cv::Point2d& c : mt.corners_px) uj["corners"].push_back({c.x, c.y});
    }
  return uj;
}

// The frame's truth line: camera pose, every roster unit, the hands.
nlohmann::json TruthLine(const ClipScript& script, const ClipFrame& f) {
  const ClipMoment& m = f.moment;
  nlohmann::json j;
  j["frame"] = f.frame;
  j["t"] = f.t;
  const cv::Vec3d rv = calib::RvecOf(m.camera_from_table);
  const cv::Vec3d& tv = m.camera_from_table.translation_mm;
  j["camera_from_table"] = {{"rvec", {rv[0], rv[1], rv[2]}}, {"tvec_mm", {tv[0], tv[1], tv[2]}}};
  j["units"] = nlohmann::json::array();
  for (const Unit& u : script.roster.units) j["units"].push_back(UnitTruth(u, m, f.render_truth));
  j["hands"] = nlohmann::json::array();
  for (const ClipHandAt& h : m.hands)
    j["hands"].push_back({{"x_mm", h.x_mm}, {"y_mm", h.y_mm}, {"radius_mm", h.radius_mm}, {"height_mm", h.height_mm}});
  return j;
}

}  // namespace

ClipRenderer::ClipRenderer(ClipScript script)
    : script_(std::move(script)),
      camera_(ClipCamera(script_)),
      dictionary_(calib::ResolveDictionary(script_.roster.dictionary)),
      renderer_(camera_.intrinsics) {}

ClipFrame ClipRenderer::Render(int frame) {
  const auto t0 = Clock::now();
  ClipFrame out;
  out.frame = frame;
  out.t = script_.TimeOf(frame);
  out.moment = ClipMomentAt(script_, frame);
  const ClipMoment& m = out.moment;
  // The clean scene, reused while nothing moved.
  const std::string key = MomentKey(m);
  if (key != cached_key_) {
    RenderOptions clean = script_.render;
    clean.blur_sigma_px = 0;
    clean.read_noise = 0;
    clean.shot_noise = 0;
    clean.jpeg_quality = 0;
    clean.occluders = 0;
    cached_ = renderer_.Render(clean, m.scene, m.camera_from_table, *dictionary_);
    cached_key_ = key;
  }
  out.render_truth = cached_.truth;
  cv::Mat img;
  cached_.image.convertTo(img, CV_32FC3);
  if (!m.hands.empty()) {
    cv::Mat cover(img.size(), CV_8U, cv::Scalar(0));
    const std::vector<std::vector<cv::Point>> hand_polys = HandPolygons(m, camera_.intrinsics, &cover);
    PaintSkin(cover, &img);
    MarkHiddenMarkers(hand_polys, &out.render_truth);
  }
  out.image = ThroughTheCamera(img, script_.render, frame);
  out.truth = TruthLine(script_, out);
  out.render_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  return out;
}

void WriteIntrinsicsYaml(const calib::CameraIntrinsics& k, const std::string& path) {
  cv::FileStorage fs(path, cv::FileStorage::WRITE);
  if (!fs.isOpened()) throw std::runtime_error("cannot write " + path);
  fs << "image_width" << k.image_size.width;
  fs << "image_height" << k.image_size.height;
  fs << "camera_matrix" << cv::Mat(k.camera_matrix);
  fs << "distortion_coefficients" << k.distortion;
  fs << "avg_reprojection_error" << k.avg_reprojection_error_px;
  fs.release();
}

namespace {

// cv::VideoWriter::write reports nothing: a video whose file is gone or whose disk has no block
// left has lost what was written last.
bool VideoLost(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return true;
  const std::string folder = std::filesystem::path(path).parent_path().string();
  struct statvfs fs {};
  if (::statvfs(folder.empty() ? "." : folder.c_str(), &fs) != 0) return false;
  return (::geteuid() == 0 ? fs.f_bfree : fs.f_bavail) == 0;
}

std::string Lost(const std::string& path, int frames) {
  return "disk full or output removed while writing " + path + ": kept " + std::to_string(frames) + " frames";
}

}  // namespace

ClipVideoSummary WriteClipVideo(ClipRenderer& renderer, const std::string& video_path, const std::string& truth_path,
                                const std::function<void(int, int)>& progress) {
  const auto t0 = Clock::now();
  ClipVideoSummary s;
  const std::string ext = std::filesystem::path(video_path).extension().string();
  const bool avi = ext == ".avi" || ext == ".AVI";
  s.codec = avi ? "MJPG" : "mp4v";
  const int fourcc = avi ? cv::VideoWriter::fourcc('M', 'J', 'P', 'G') : cv::VideoWriter::fourcc('m', 'p', '4', 'v');
  cv::VideoWriter writer(video_path, cv::CAP_FFMPEG, fourcc, renderer.script().fps, renderer.intrinsics().image_size, true);
  if (!writer.isOpened()) throw std::runtime_error("cannot open " + video_path + " for writing (" + s.codec + ")");
  std::ofstream truth;
  if (!truth_path.empty()) {
    truth.open(truth_path);
    if (!truth) throw std::runtime_error("cannot write " + truth_path);
  }
  double render_total = 0;
  const int n = renderer.FrameCount();
  for (int f = 0; f < n; ++f) {
    ClipFrame frame = renderer.Render(f);
    render_total += frame.render_ms;
    writer.write(frame.image);
    if (VideoLost(video_path)) throw std::runtime_error(Lost(video_path, f));
    if (!truth_path.empty()) {
      truth << frame.truth.dump() << "\n" << std::flush;
      if (!truth) throw std::runtime_error(Lost(truth_path, f));
    }
    if (progress) progress(f + 1, n);
  }
  writer.release();
  if (VideoLost(video_path)) throw std::runtime_error(Lost(video_path, n));
  s.frames = n;
  s.render_ms_mean = render_total / n;
  s.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  return s;
}

}  // namespace vedette::synth
