// Accuracy and speed of marker detection + base poses on synthetic tables with known ground truth,
// Vedette's detector side by side with stock OpenCV detectMarkers (default parameters), both fed to
// the same pose math.
//
//   detect_bench [--quick] [--scenes N] [--seed S] [--json FILE] [--save-images DIR]
//
// Scene set (fixed seeds): tables 1200 x 900 and 1800 x 1200 mm, 40-120 bases, markers 12-30 mm
// standing 0-5 mm above the table, cameras 1920x1080 and 3840x2160 with a 60-75 deg field of view
// and 0-20 deg tilt, optical blur 0.6-1.2 px, read + shot noise, uneven light, JPEG 90.
// Pose errors are given twice: with the true camera pose (detection + pose math alone) and with the
// camera registered from the four anchors (what a real table adds on top, short of lens calibration
// error).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <opencv2/core/utility.hpp>
#include <opencv2/imgcodecs.hpp>

#include "calibration/dictionary.h"
#include "rules/geometry/vec.h"
#include "vision/detect.h"
#include "vision/locate.h"
#include "vision/random_scene.h"
#include "vision/renderer.h"

using namespace vedette;
using namespace vedette::vision;

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
  std::vector<double> ms;
  int registrations_failed = 0;

  void Add(const Stats& o) {
    for (int b = 0; b < kNumBins; ++b) eligible[b] += o.eligible[b], found[b] += o.found[b];
    wrong_ids += o.wrong_ids;
    registrations_failed += o.registrations_failed;
    for (auto [dst, src] : {std::pair{&centre_mm, &o.centre_mm}, {&heading_deg, &o.heading_deg},
                            {&reg_centre_mm, &o.reg_centre_mm}, {&reg_heading_deg, &o.reg_heading_deg}, {&ms, &o.ms}})
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

void Score(const Scene& scene, const SyntheticCamera& cam, const Rendering& r, const Detections& d,
           const LocateOptions& locate, Stats* s) {
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
  j["ms_median"] = Quantile(s.ms, 0.5);
  j["ms_max"] = Max(s.ms);
  return j;
}

void PrintRow(const std::string& group, const std::string& who, const Stats& s) {
  std::printf("%-22s %-8s %7.2f%% %7.2f%% %5d | %6.3f %6.3f %6.3f %6.3f %6.3f | %6.3f %6.3f %6.3f | %7.1f\n", group.c_str(),
              who.c_str(), 100 * s.Recall(2), 100 * s.Recall(0), s.wrong_ids, Quantile(s.centre_mm, 0.5),
              Quantile(s.centre_mm, 0.95), Max(s.centre_mm), Quantile(s.heading_deg, 0.5), Quantile(s.heading_deg, 0.95),
              Quantile(s.reg_centre_mm, 0.5), Quantile(s.reg_centre_mm, 0.95), Quantile(s.reg_heading_deg, 0.5),
              Quantile(s.ms, 0.5));
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = false;
  int scenes = 16;
  uint64_t seed0 = 1000;
  std::string json_path, save_dir;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--quick") quick = true;
    else if (a == "--scenes" && i + 1 < argc) scenes = std::stoi(argv[++i]);
    else if (a == "--seed" && i + 1 < argc) seed0 = std::stoull(argv[++i]);
    else if (a == "--json" && i + 1 < argc) json_path = argv[++i];
    else if (a == "--save-images" && i + 1 < argc) save_dir = argv[++i];
    else {
      std::cerr << "usage: detect_bench [--quick] [--scenes N] [--seed S] [--json FILE] [--save-images DIR]\n";
      return 2;
    }
  }
  if (quick) scenes = 4;
  struct Group { std::string name; double w, d; cv::Size size; };
  const Group groups[4] = {{"1200x900 @1080p", 1200, 900, {1920, 1080}},
                           {"1800x1200 @1080p", 1800, 1200, {1920, 1080}},
                           {"1200x900 @4K", 1200, 900, {3840, 2160}},
                           {"1800x1200 @4K", 1800, 1200, {3840, 2160}}};
  std::map<std::string, std::map<std::string, Stats>> by_group;  // group -> detector -> stats
  LocateOptions locate;
  double render_s = 0;
  for (int i = 0; i < scenes; ++i) {
    const Group& g = groups[i % 4];
    const uint64_t seed = seed0 + i;
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
    render_s += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!save_dir.empty()) cv::imwrite(save_dir + "/scene_" + std::to_string(i + 1) + ".png", r.image);
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
    Score(scene, cam, r, ours, locate, &by_group[g.name]["vedette"]);
    Score(scene, cam, r, stock, locate, &by_group[g.name]["stock"]);
    std::fprintf(stderr, "scene %d/%d %s: %zu bases, vedette %zu markers %.0f ms, stock %zu markers %.0f ms\n", i + 1, scenes,
                 g.name.c_str(), scene.units.size(), ours.markers.size(), ours.ms, stock.markers.size(), stock.ms);
  }
  std::map<std::string, Stats> all;
  nlohmann::json j;
  j["scenes"] = scenes;
  j["seed"] = seed0;
  j["threads"] = cv::getNumThreads();
  j["render_s"] = render_s;
  std::printf("\nCentre/heading errors are of the unit pose (mm / deg); 'true cam' uses the true camera pose,\n"
              "'registered' the pose PnP gives from the 4 anchors. Recall: unoccluded unit markers.\n\n");
  std::printf("%-22s %-8s %8s %8s %5s | %-34s | %-20s | %7s\n", "", "", "recall", "recall", "wrong",
              "true cam: centre mm     heading deg", "registered: mm  deg", "ms");
  std::printf("%-22s %-8s %8s %8s %5s | %6s %6s %6s %6s %6s | %6s %6s %6s | %7s\n", "scenes", "detector", ">=18px", "all",
              "IDs", "med", "p95", "max", "med", "p95", "med", "p95", "med", "median");
  for (const Group& g : groups) {
    if (!by_group.count(g.name)) continue;
    for (const std::string who : {"vedette", "stock"}) {
      const Stats& s = by_group[g.name][who];
      PrintRow(g.name, who, s);
      all[who].Add(s);
      j["groups"][g.name][who] = ToJson(s);
    }
  }
  for (const std::string who : {"vedette", "stock"}) {
    PrintRow("all", who, all[who]);
    j["all"][who] = ToJson(all[who]);
  }
  std::printf("\nRecall by marker side (all scenes):\n%-12s %8s %10s %10s\n", "side", "markers", "vedette", "stock");
  for (int b = 0; b < kNumBins; ++b)
    std::printf("%-12s %8d %9.2f%% %9.2f%%\n", BinName(b).c_str(), all["vedette"].eligible[b],
                all["vedette"].eligible[b] ? 100.0 * all["vedette"].found[b] / all["vedette"].eligible[b] : 0.0,
                all["stock"].eligible[b] ? 100.0 * all["stock"].found[b] / all["stock"].eligible[b] : 0.0);
  if (!json_path.empty()) {
    std::ofstream(json_path) << j.dump(2) << "\n";
    std::fprintf(stderr, "wrote %s\n", json_path.c_str());
  }
  return 0;
}
