// Accuracy and speed of marker detection + base poses on synthetic tables with known ground truth,
// Vedette's detector side by side with stock OpenCV detectMarkers (default parameters), both fed to
// the same pose math.
//
//   detect_bench [--quick] [--scenes N] [--seed S] [--json FILE] [--save-images DIR] [--no-calibration]
//                [--calib-width PX] [--threads N]
//
// Scene set (fixed seeds): tables 1200 x 900 and 1800 x 1200 mm, 40-120 bases, markers 12-30 mm
// standing 0-5 mm above the table, cameras 1920x1080 and 3840x2160 with a 60-75 deg field of view
// and 0-20 deg tilt, optical blur 0.6-1.2 px, read + shot noise, uneven light, JPEG 90.
// Pose errors are given three times: with the true camera pose (detection + pose math alone), with
// the camera registered from the four anchors (true lens intrinsics), and with the camera registered
// from the anchors using lens intrinsics calibrated the way a user would: 12 rendered views of a
// ChArUco board (10x7 squares of 25 mm, 18 mm DICT_5X5_100 markers) spread over the image and tilted
// 15-35 deg, through the scene's true lens, with blur and noise, found and calibrated by Vedette's own
// DetectBoard + CalibrateIntrinsics (what `vedette calibrate` runs). Cameras wider than --calib-width
// (default 1920: 4K cameras) are calibrated at that width and the result scaled (calib::ScaledTo), as
// a user calibrating a 1080p mode of a 4K webcam would. Each distinct camera is calibrated once
// (seeded by the first scene using it): a few seconds per camera (ray grid, 12 renders, detection).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <opencv2/core/utility.hpp>
#include <opencv2/imgcodecs.hpp>

#include "calibration/board_detection.h"
#include "calibration/dictionary.h"
#include "calibration/intrinsic_calibration.h"
#include "calibration/synthetic_views.h"
#include "rules/geometry/vec.h"
#include "rules/input_error.h"
#include "vision/detect.h"
#include "vision/locate.h"
#include "synth/random_scene.h"
#include "synth/renderer.h"

using namespace vedette;
using namespace vedette::vision;
using namespace vedette::synth;

namespace {

const double kBins[] = {0, 12, 18, 24, 36, 60, 1e9};
constexpr int kNumBins = 6;

int BinOf(double side_px) {
  for (int b = 0; b < kNumBins; ++b)
    if (side_px < kBins[b + 1]) return b;
  return kNumBins - 1;
}

std::string BinName(int b) {
  if (b == kNumBins - 1) return ">=" + std::to_string(int(kBins[b])) + " px";
  return std::to_string(int(kBins[b])) + "-" + std::to_string(int(kBins[b + 1])) + " px";
}

struct Stats {
  std::array<int, kNumBins> eligible{}, found{};
  int wrong_ids = 0;
  std::vector<double> centre_mm, heading_deg;          // true camera pose
  std::vector<double> reg_centre_mm, reg_heading_deg;  // camera registered from the anchors
  std::vector<double> cal_centre_mm, cal_heading_deg;  // registered from the anchors, calibrated lens
  std::vector<double> ms;
  int registrations_failed = 0;
  int cal_registrations_failed = 0;

  void Add(const Stats& o) {
    for (int b = 0; b < kNumBins; ++b) eligible[b] += o.eligible[b], found[b] += o.found[b];
    wrong_ids += o.wrong_ids;
    registrations_failed += o.registrations_failed;
    cal_registrations_failed += o.cal_registrations_failed;
    for (auto [dst, src] : {std::pair{&centre_mm, &o.centre_mm}, {&heading_deg, &o.heading_deg},
                            {&reg_centre_mm, &o.reg_centre_mm}, {&reg_heading_deg, &o.reg_heading_deg},
                            {&cal_centre_mm, &o.cal_centre_mm}, {&cal_heading_deg, &o.cal_heading_deg}, {&ms, &o.ms}})
      dst->insert(dst->end(), src->begin(), src->end());
  }
  double Recall(int from_bin) const {
    int e = 0, f = 0;
    for (int b = from_bin; b < kNumBins; ++b) e += eligible[b], f += found[b];
    return e ? double(f) / e : std::nan("");
  }
};

double Quantile(std::vector<double> v, double q) {
  if (v.empty()) return std::nan("");
  std::sort(v.begin(), v.end());
  const double pos = q * (v.size() - 1);
  const size_t i = size_t(pos);
  const double f = pos - i;
  return i + 1 < v.size() ? v[i] * (1 - f) + v[i + 1] * f : v[i];
}
double Max(const std::vector<double>& v) { return v.empty() ? std::nan("") : *std::max_element(v.begin(), v.end()); }

// Lens intrinsics calibrated from rendered board views through a scene camera's true lens, and how
// far they are from the truth.
struct LensCalibration {
  calib::CameraIntrinsics at_scene_size;  // the calibrated intrinsics, scaled to the scene camera's size
  cv::Size calibrated_at;                 // px
  int views_used = 0, views_rendered = 0;
  double rms_px = 0;                      // reprojection RMS, px at calibrated_at
  double fx_error_pct = 0, fy_error_pct = 0;
  double cx_error_px = 0, cy_error_px = 0;  // px at calibrated_at
  double fx_sd_pct = 0;                     // the calibration's own standard deviation of fx, %
  calib::ModelDifference vs_truth;          // px at calibrated_at
  std::vector<std::string> warnings;
  std::string error;                        // not empty: the calibration failed (InputError), nothing else is set
  double seconds = 0;
};

const char* kCalibrationBoard = "charuco:10x7:25:18:DICT_5X5_100";

LensCalibration CalibrateLens(const calib::CameraIntrinsics& truth, int max_width, uint64_t seed) {
  const auto t0 = std::chrono::steady_clock::now();
  LensCalibration out;
  calib::CameraIntrinsics cam = truth;
  if (truth.image_size.width > max_width)
    cam = calib::ScaledTo(truth, cv::Size(max_width, truth.image_size.height * max_width / truth.image_size.width));
  out.calibrated_at = cam.image_size;
  const calib::BoardSpec board = calib::ParseBoardSpec(kCalibrationBoard);
  calib::SpreadPoseOptions poses;
  poses.views = 12;
  poses.seed = static_cast<unsigned>(seed);
  calib::BoardRenderOptions render;
  render.image_size = cam.image_size;
  render.supersample = 3;  // 2 leaves the ChArUco corners ~0.09 px RMS off, 3 ~0.055 px (1080p, blur 0.8)
  render.blur_sigma_px = 0.8;
  render.noise_sigma = 2.0;
  render.seed = static_cast<unsigned>(seed);
  const std::vector<cv::Mat> images =
      calib::RenderBoardViews(render, calib::MakeBoardPattern(board), cam, calib::SpreadBoardPoses(poses, board, cam));
  std::vector<calib::BoardView> views;
  for (size_t i = 0; i < images.size(); ++i)
    views.push_back(calib::DetectBoard({}, board, images[i], "view " + std::to_string(i + 1)));
  out.views_rendered = static_cast<int>(images.size());
  const calib::CalibrationResult r = calib::CalibrateIntrinsics({}, board, views);
  for (const auto& v : r.views) out.views_used += v.used ? 1 : 0;
  const auto& k = r.intrinsics.camera_matrix;
  const auto& t = cam.camera_matrix;
  out.rms_px = r.intrinsics.avg_reprojection_error_px;
  out.fx_error_pct = 100 * (k(0, 0) / t(0, 0) - 1);
  out.fy_error_pct = 100 * (k(1, 1) / t(1, 1) - 1);
  out.cx_error_px = k(0, 2) - t(0, 2);
  out.cy_error_px = k(1, 2) - t(1, 2);
  out.fx_sd_pct = r.stddev.empty() ? std::nan("") : 100 * r.stddev[0] / t(0, 0);
  out.vs_truth = calib::CompareCameraModels(cam, r.intrinsics, 8);
  out.warnings = r.warnings;
  out.at_scene_size = r.intrinsics.image_size == truth.image_size ? r.intrinsics : calib::ScaledTo(r.intrinsics, truth.image_size);
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return out;
}

// Cameras repeat only when scenes share a lens: the key is every number of the intrinsics.
std::string CameraKey(const calib::CameraIntrinsics& k) {
  std::string key = cv::format("%dx%d", k.image_size.width, k.image_size.height);
  for (int i = 0; i < 9; ++i) key += cv::format(" %.17g", k.camera_matrix.val[i]);
  for (size_t i = 0; i < k.distortion.total(); ++i) key += cv::format(" %.17g", k.distortion.at<double>(static_cast<int>(i)));
  return key;
}

void Score(const Scene& scene, const SyntheticCamera& cam, const Rendering& r, const Detections& d,
           const LocateOptions& locate, const calib::CameraIntrinsics* calibrated, Stats* s) {
  std::map<int, const MarkerTruth*> truth;
  for (const MarkerTruth& t : r.truth.markers) truth[t.placement.id] = &t;
  std::map<int, const calib::MarkerObservation*> hits;
  for (const auto& m : d.markers) {
    auto it = truth.find(m.id);
    cv::Point2d c(0, 0);
    for (const auto& p : m.corners_px) c += cv::Point2d(p.x, p.y) * 0.25;
    bool right = false;
    if (it != truth.end()) {
      cv::Point2d tc(0, 0);
      for (const auto& p : it->second->corners_px) tc += p * 0.25;
      right = cv::norm(c - tc) < 0.5 * it->second->side_px;
    }
    if (!right) ++s->wrong_ids;
    else hits[m.id] = &m;
  }
  for (const MarkerTruth& t : r.truth.markers) {
    if (t.unit.empty() || !t.in_image || t.occluded_fraction > 0) continue;
    const int b = BinOf(t.side_px);
    ++s->eligible[b];
    if (hits.count(t.placement.id)) ++s->found[b];
  }
  std::vector<calib::MarkerObservation> good;
  for (const auto& [id, m] : hits) good.push_back(*m);
  std::map<std::string, Pose> true_pose(r.truth.units.begin(), r.truth.units.end());
  auto score = [&](const std::vector<BasePoseEstimate>& est, std::vector<double>* mm, std::vector<double>* deg) {
    for (const BasePoseEstimate& e : est) {
      const Pose& t = true_pose.at(e.unit);
      mm->push_back(std::hypot(e.pose.x_mm - t.x_mm, e.pose.y_mm - t.y_mm));
      deg->push_back(std::abs(geom::NormalizeDeg(e.pose.heading_deg - t.heading_deg)));
    }
  };
  score(PosesFromMarkers(cam.intrinsics, cam.camera_from_table, scene, good), &s->centre_mm, &s->heading_deg);
  const Location loc = LocateBases(locate, cam.intrinsics, scene, good);
  if (!loc.registration.ok) ++s->registrations_failed;
  score(loc.units, &s->reg_centre_mm, &s->reg_heading_deg);
  if (calibrated) {
    const Location cal = LocateBases(locate, *calibrated, scene, good);
    if (!cal.registration.ok) ++s->cal_registrations_failed;
    score(cal.units, &s->cal_centre_mm, &s->cal_heading_deg);
  }
  s->ms.push_back(d.ms);
}

nlohmann::json ToJson(const Stats& s) {
  nlohmann::json j;
  j["recall_by_side_px"] = nlohmann::json::array();
  for (int b = 0; b < kNumBins; ++b)
    j["recall_by_side_px"].push_back({{"bin", BinName(b)}, {"markers", s.eligible[b]}, {"found", s.found[b]}});
  j["recall_18px_up"] = s.Recall(2);
  j["recall_all"] = s.Recall(0);
  j["wrong_ids"] = s.wrong_ids;
  auto block = [](const std::vector<double>& mm, const std::vector<double>& deg) {
    return nlohmann::json{{"centre_mm_median", Quantile(mm, 0.5)}, {"centre_mm_p95", Quantile(mm, 0.95)},
                          {"centre_mm_max", Max(mm)}, {"heading_deg_median", Quantile(deg, 0.5)},
                          {"heading_deg_p95", Quantile(deg, 0.95)}, {"bases", mm.size()}};
  };
  j["true_camera"] = block(s.centre_mm, s.heading_deg);
  j["registered_camera"] = block(s.reg_centre_mm, s.reg_heading_deg);
  j["registrations_failed"] = s.registrations_failed;
  j["calibrated_camera"] = block(s.cal_centre_mm, s.cal_heading_deg);
  j["calibrated_registrations_failed"] = s.cal_registrations_failed;
  j["ms_median"] = Quantile(s.ms, 0.5);
  j["ms_max"] = Max(s.ms);
  return j;
}

void PrintRow(const std::string& group, const std::string& who, const Stats& s) {
  std::printf("%-17s %-8s %7.2f%% %7.2f%% %5d | %6.3f %6.3f %6.3f %6.3f %6.3f | %6.3f %6.3f %6.3f | %6.3f %6.3f %6.3f | %6.1f\n",
              group.c_str(), who.c_str(), 100 * s.Recall(2), 100 * s.Recall(0), s.wrong_ids, Quantile(s.centre_mm, 0.5),
              Quantile(s.centre_mm, 0.95), Max(s.centre_mm), Quantile(s.heading_deg, 0.5), Quantile(s.heading_deg, 0.95),
              Quantile(s.reg_centre_mm, 0.5), Quantile(s.reg_centre_mm, 0.95), Quantile(s.reg_heading_deg, 0.5),
              Quantile(s.cal_centre_mm, 0.5), Quantile(s.cal_centre_mm, 0.95), Quantile(s.cal_heading_deg, 0.5),
              Quantile(s.ms, 0.5));
}

nlohmann::json ToJson(const LensCalibration& c) {
  return {{"calibrated_at", {c.calibrated_at.width, c.calibrated_at.height}},
          {"views_used", c.views_used},
          {"views_rendered", c.views_rendered},
          {"rms_px", c.rms_px},
          {"fx_error_pct", c.fx_error_pct},
          {"fy_error_pct", c.fy_error_pct},
          {"fx_sd_pct", c.fx_sd_pct},
          {"cx_error_px", c.cx_error_px},
          {"cy_error_px", c.cy_error_px},
          {"lens_rms_px", c.vs_truth.planar_rms_px},
          {"lens_max_px", c.vs_truth.planar_max_px},
          {"model_rms_px", c.vs_truth.full_rms_px},
          {"model_max_px", c.vs_truth.full_max_px},
          {"warnings", c.warnings},
          {"seconds", c.seconds}};
}

struct BenchArgs {
  int scenes = 16;
  uint64_t seed0 = 1000;
  std::string json_path, save_dir;
  bool calibrate = true;   // the "calibrated" columns
  int calib_width = 1920;  // px: wider cameras are calibrated at this width and the result scaled
  // Cold-frame times compare one core with one core: stock detectMarkers otherwise spreads its
  // thresholds over every core while Vedette's detector runs on one.
  int threads = 1;
};

// The arguments, or a message and exit status 2.
std::optional<BenchArgs> ParseArgs(int argc, char** argv) {
  BenchArgs b;
  bool quick = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--quick") quick = true;
    else if (a == "--scenes" && i + 1 < argc) b.scenes = std::stoi(argv[++i]);
    else if (a == "--seed" && i + 1 < argc) b.seed0 = std::stoull(argv[++i]);
    else if (a == "--json" && i + 1 < argc) b.json_path = argv[++i];
    else if (a == "--save-images" && i + 1 < argc) b.save_dir = argv[++i];
    else if (a == "--no-calibration") b.calibrate = false;
    else if (a == "--calib-width" && i + 1 < argc) b.calib_width = std::stoi(argv[++i]);
    else if (a == "--threads" && i + 1 < argc) b.threads = std::stoi(argv[++i]);
    else {
      std::cerr << "usage: detect_bench [--quick] [--scenes N] [--seed S] [--json FILE] [--save-images DIR] "
                   "[--no-calibration] [--calib-width PX] [--threads N (OpenCV threads, default 1)]\n";
      return std::nullopt;
    }
  }
  if (quick) b.scenes = 4;
  if (b.threads < 1) {
    std::cerr << "detect_bench: --threads must be at least 1\n";
    return std::nullopt;
  }
  if (b.calib_width < 320) {
    std::cerr << "detect_bench: --calib-width must be at least 320 px\n";
    return std::nullopt;
  }
  return b;
}

struct Group {
  std::string name;
  double w, d;  // table, mm
  cv::Size size;
};
const Group kGroups[4] = {{"1200x900 @1080p", 1200, 900, {1920, 1080}},
                          {"1800x1200 @1080p", 1800, 1200, {1920, 1080}},
                          {"1200x900 @4K", 1200, 900, {3840, 2160}},
                          {"1800x1200 @4K", 1800, 1200, {3840, 2160}}};

// What the scenes gather: the scores by group and detector, the lenses calibrated, the times.
struct BenchRun {
  std::map<std::string, std::map<std::string, Stats>> by_group;  // group -> detector -> stats
  double render_s = 0, calibration_s = 0;
  std::map<std::string, LensCalibration> lenses;  // CameraKey -> calibration
  struct SceneLens {
    int scene;
    std::string group, key;
  };
  std::vector<SceneLens> scene_lenses;
};

// The scene camera's lens calibrated once per distinct camera (nullptr when it failed).
const calib::CameraIntrinsics* LensFor(const BenchArgs& b, const SyntheticCamera& cam, uint64_t seed, int scene,
                                       const Group& g, BenchRun* run) {
  const std::string key = CameraKey(cam.intrinsics);
  if (!run->lenses.count(key)) {
    try {
      run->lenses[key] = CalibrateLens(cam.intrinsics, b.calib_width, seed);
    } catch (const InputError& e) {  // too few board views found: reported, the scene scores without it
      run->lenses[key].error = e.what();
    }
    run->calibration_s += run->lenses[key].seconds;
  }
  run->scene_lenses.push_back({scene, g.name, key});
  return run->lenses[key].error.empty() ? &run->lenses[key].at_scene_size : nullptr;
}

void RunScene(const BenchArgs& b, int i, BenchRun* run) {
  const Group& g = kGroups[i % 4];
  const uint64_t seed = b.seed0 + i;
  cv::RNG rng(seed);
  RandomSceneOptions so;
  so.table_width_mm = g.w;
  so.table_depth_mm = g.d;
  so.bases = rng.uniform(40, 121);
  so.seed = seed;
  const Scene scene = MakeRandomScene(so);
  const SyntheticCamera cam = MakeRandomCamera(scene, g.size, 20.0, seed);
  RenderOptions ro;
  ro.seed = seed;
  ro.blur_sigma_px = rng.uniform(0.6, 1.2);
  ro.read_noise = rng.uniform(1.5, 3.5);
  ro.jpeg_quality = 90;
  const auto dict = calib::DictionaryByName(scene.dictionary);
  const auto t0 = std::chrono::steady_clock::now();
  const Rendering r = SceneRenderer(cam.intrinsics).Render(ro, scene, cam.camera_from_table, *dict);
  run->render_s += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!b.save_dir.empty()) cv::imwrite(b.save_dir + "/scene_" + std::to_string(i + 1) + ".png", r.image);
  const DetectorOptions dopt = DetectorOptionsFor(scene, cam.intrinsics, cam.centre_in_table_mm.z);
  // Cold frames: each detector sees the frame once, in alternating order so caches favour neither.
  Detections ours, stock;
  if (i % 2) {
    stock = DetectMarkersStock(r.image, *dict);
    ours = DetectMarkers(dopt, r.image, *dict);
  } else {
    ours = DetectMarkers(dopt, r.image, *dict);
    stock = DetectMarkersStock(r.image, *dict);
  }
  const calib::CameraIntrinsics* calibrated = b.calibrate ? LensFor(b, cam, seed, i + 1, g, run) : nullptr;
  const LocateOptions locate;
  Score(scene, cam, r, ours, locate, calibrated, &run->by_group[g.name]["vedette"]);
  Score(scene, cam, r, stock, locate, calibrated, &run->by_group[g.name]["stock"]);
  std::fprintf(stderr, "scene %d/%d %s: %zu bases, vedette %zu markers %.0f ms, stock %zu markers %.0f ms\n", i + 1, b.scenes,
               g.name.c_str(), scene.units.size(), ours.markers.size(), ours.ms, stock.markers.size(), stock.ms);
}

void PrintDetectorTables(BenchRun& run, nlohmann::json* j) {
  std::map<std::string, Stats> all;
  std::printf("\nCentre/heading errors are of the unit pose (mm / deg); 'true cam' uses the true camera pose,\n"
              "'registered' the pose PnP gives from the 4 anchors with the true lens intrinsics, 'calibrated'\n"
              "the same with intrinsics calibrated from 12 rendered ChArUco views (see the lens table below).\n"
              "Recall: unoccluded unit markers.\n\n");
  std::printf("%-17s %-8s %8s %8s %5s | %-34s | %-20s | %-20s | %6s\n", "", "", "recall", "recall", "wrong",
              "true cam: centre mm     heading deg", "registered: mm  deg", "calibrated: mm  deg", "ms");
  std::printf("%-17s %-8s %8s %8s %5s | %6s %6s %6s %6s %6s | %6s %6s %6s | %6s %6s %6s | %6s\n", "scenes", "detector",
              ">=18px", "all", "IDs", "med", "p95", "max", "med", "p95", "med", "p95", "med", "med", "p95", "med", "median");
  for (const Group& g : kGroups) {
    if (!run.by_group.count(g.name)) continue;
    for (const std::string who : {"vedette", "stock"}) {
      const Stats& s = run.by_group[g.name][who];
      PrintRow(g.name, who, s);
      all[who].Add(s);
      (*j)["groups"][g.name][who] = ToJson(s);
    }
  }
  for (const std::string who : {"vedette", "stock"}) {
    PrintRow("all", who, all[who]);
    (*j)["all"][who] = ToJson(all[who]);
  }
  std::printf("\nRecall by marker side (all scenes):\n%-12s %8s %10s %10s\n", "side", "markers", "vedette", "stock");
  for (int b = 0; b < kNumBins; ++b)
    std::printf("%-12s %8d %9.2f%% %9.2f%%\n", BinName(b).c_str(), all["vedette"].eligible[b],
                all["vedette"].eligible[b] ? 100.0 * all["vedette"].found[b] / all["vedette"].eligible[b] : 0.0,
                all["stock"].eligible[b] ? 100.0 * all["stock"].found[b] / all["stock"].eligible[b] : 0.0);
}

void PrintLensTable(const BenchRun& run, nlohmann::json* j) {
  std::printf("\nLens calibration per scene camera (%s, 12 views, Vedette's DetectBoard + CalibrateIntrinsics);\n"
              "errors against the true lens at the calibration size; 'lens' = the distortion model's error over the\n"
              "whole image after the best homography (what no pose or focal length absorbs on a plane):\n",
              kCalibrationBoard);
  std::printf("%-6s %-17s %-10s %5s %7s %8s %7s %7s %7s %7s %8s %5s\n", "scene", "group", "calib at", "views", "RMS px",
              "fx err%", "sd fx%", "fy err%", "cx err", "cy err", "lens max", "warn");
  nlohmann::json lens_json = nlohmann::json::array();
  std::vector<double> rms, fx_abs, lens_max;
  for (const BenchRun::SceneLens& sl : run.scene_lenses) {
    const LensCalibration& c = run.lenses.at(sl.key);
    if (!c.error.empty()) {
      std::printf("%-6d %-17s calibration failed: %s\n", sl.scene, sl.group.c_str(), c.error.c_str());
      lens_json.push_back({{"scene", sl.scene}, {"group", sl.group}, {"error", c.error}});
      continue;
    }
    std::printf("%-6d %-17s %-10s %2d/%-2d %7.3f %+8.3f %7.3f %+7.3f %+7.2f %+7.2f %8.3f %5zu\n", sl.scene,
                sl.group.c_str(), cv::format("%dx%d", c.calibrated_at.width, c.calibrated_at.height).c_str(),
                c.views_used, c.views_rendered, c.rms_px, c.fx_error_pct, c.fx_sd_pct, c.fy_error_pct, c.cx_error_px,
                c.cy_error_px, c.vs_truth.planar_max_px, c.warnings.size());
    for (const std::string& w : c.warnings) std::printf("       warning: %s\n", w.c_str());
    nlohmann::json e = ToJson(c);
    e["scene"] = sl.scene;
    e["group"] = sl.group;
    lens_json.push_back(e);
    rms.push_back(c.rms_px);
    fx_abs.push_back(std::abs(c.fx_error_pct));
    lens_max.push_back(c.vs_truth.planar_max_px);
  }
  std::printf("median over scenes: RMS %.3f px, |fx error| %.3f %%, lens max %.3f px; %zu distinct cameras "
              "calibrated in %.1f s\n",
              Quantile(rms, 0.5), Quantile(fx_abs, 0.5), Quantile(lens_max, 0.5), run.lenses.size(), run.calibration_s);
  (*j)["lens_calibration"] = {{"board", kCalibrationBoard},
                              {"views", 12},
                              {"cameras_calibrated", run.lenses.size()},
                              {"rms_px_median", Quantile(rms, 0.5)},
                              {"fx_abs_error_pct_median", Quantile(fx_abs, 0.5)},
                              {"lens_max_px_median", Quantile(lens_max, 0.5)},
                              {"per_scene", lens_json}};
}

}  // namespace

int main(int argc, char** argv) {
  const std::optional<BenchArgs> args = ParseArgs(argc, argv);
  if (!args) return 2;
  cv::setNumThreads(args->threads);
  BenchRun run;
  for (int i = 0; i < args->scenes; ++i) RunScene(*args, i, &run);
  nlohmann::json j;
  j["scenes"] = args->scenes;
  j["seed"] = args->seed0;
  j["threads"] = cv::getNumThreads();
  j["render_s"] = run.render_s;
  j["calibration_s"] = run.calibration_s;
  PrintDetectorTables(run, &j);
  if (args->calibrate) PrintLensTable(run, &j);
  if (!args->json_path.empty()) {
    std::ofstream(args->json_path) << j.dump(2) << "\n";
    std::fprintf(stderr, "wrote %s\n", args->json_path.c_str());
  }
  return 0;
}
