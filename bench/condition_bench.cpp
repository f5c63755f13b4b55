// Marker detection under the conditions real tables have (synth/table_conditions.h): Vedette beside
// stock OpenCV 4.6 and AprilTag 3 in the same run, on the same renders, scored by one scorer
// (synth/detection_score.h) against the renderer's truth.
//
//   condition_bench [--tables N] [--units N] [--only NAME,NAME] [--json FILE] [--no-apriltag] [--repeat N]
//
// --repeat N: each detector runs N times on each table, the detectors taking turns, and its fastest
// run is its time there (the machine is shared: one run each moved single figures by half). The
// detections, and so the recall and errors, are the same in every run.
//
// Detectors, each at its best documented settings for small markers, one thread each
// (cv::setNumThreads(1), AprilTag nthreads 1), timed in thread CPU ms:
// - Vedette: DetectMarkers with the options the roster gives (DetectorOptionsFor: what `locate`,
//   `live` and the tracker's cold frames use).
// - stock default: cv::aruco::detectMarkers with a fresh DetectorParameters.
// - stock best: CORNER_REFINE_SUBPIX and minMarkerPerimeterRate lowered to admit 8 px markers
//   (OpenCV's tutorial advice for small markers); everything else default.
// - AprilTag 3 (libapriltag 3.3, tag36h11 only): quad_decimate 1 and 2, refine_edges on, the
//   library's defaults otherwise. AprilTag puts pixel centres at 0.5; its corners are moved by
//   -0.5 px to the convention of OpenCV and the truth (centres at integers).
// Two dictionaries: DICT_4X4_50 (Vedette and stock) and DICT_APRILTAG_36h11 (all of them).
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <opencv2/core/utility.hpp>

#include "bench/apriltag_reference.h"
#include "bench/bench_stats.h"
#include "calibration/dictionary.h"
#include "synth/detection_score.h"
#include "synth/table_conditions.h"
#include "vision/detect.h"
#include "vision/grey.h"

using namespace vedette;
using namespace vedette::synth;

namespace {

using Observations = std::vector<calib::MarkerObservation>;
using Detector = std::function<Observations(const ConditionTable&, const cv::Mat& gray, const cv::aruco::Dictionary&)>;

struct Contender {
  std::string name;
  bool apriltag_only = false;  // runs on 36h11 renders alone
  Detector detect;
};

Observations Vedette(const ConditionTable& t, const cv::Mat& gray, const cv::aruco::Dictionary& dict) {
  return vision::DetectMarkers(vision::DetectorOptionsFor(t.scene, t.camera.intrinsics), gray, dict).markers;
}

std::vector<Contender> Contenders(bool with_apriltag) {
  std::vector<Contender> c = {
      {"Vedette", false, Vedette},
      {"stock default", false,
       [](const ConditionTable&, const cv::Mat& g, const cv::aruco::Dictionary& d) { return vision::DetectMarkersStock(g, d).markers; }},
      {"stock best", false,
       [](const ConditionTable&, const cv::Mat& g, const cv::aruco::Dictionary& d) { return vision::DetectMarkersStockBest(g, d).markers; }},
  };
  if (with_apriltag) {
    c.push_back({"AprilTag qd1", true, [](const ConditionTable&, const cv::Mat& g, const cv::aruco::Dictionary&) { return bench::AprilTag36h11(g, 1); }});
    c.push_back({"AprilTag qd2", true, [](const ConditionTable&, const cv::Mat& g, const cv::aruco::Dictionary&) { return bench::AprilTag36h11(g, 2); }});
  }
  return c;
}

struct Args {
  int tables = 3, units = 24;
  std::vector<std::string> only;
  std::string json_path;
  bool apriltag = true;
  int repeat = 1;  // runs per detector and table; the fastest is timed
};

Args Parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string s = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) throw std::runtime_error(s + " needs a value");
      return argv[++i];
    };
    if (s == "--tables") a.tables = std::stoi(next());
    else if (s == "--units") a.units = std::stoi(next());
    else if (s == "--json") a.json_path = next();
    else if (s == "--no-apriltag") a.apriltag = false;
    else if (s == "--repeat") a.repeat = std::max(1, std::stoi(next()));
    else if (s == "--only") {
      std::stringstream ss(next());
      for (std::string n; std::getline(ss, n, ',');) a.only.push_back(n);
    } else throw std::runtime_error("unknown option " + s + " (see the comment at the top of bench/condition_bench.cpp)");
  }
  return a;
}

using Scores = std::map<std::string, DetectionScore>;  // by contender

// One condition on one dictionary: every table rendered once, every contender run on it.
Scores RunCondition(const TableCondition& c, const std::string& dict_name, const std::vector<Contender>& contenders,
                    const Args& a) {
  const bool apriltag_dict = dict_name == "DICT_APRILTAG_36h11";
  const auto dict = calib::DictionaryByName(dict_name);
  Scores scores;
  for (int s = 1; s <= a.tables; ++s) {
    const ConditionTable t = MakeConditionTable(c, dict_name, a.units, uint64_t(s));
    const cv::Mat gray = vision::GreyFrame(t.rendering.image);
    std::map<std::string, double> fastest;
    std::map<std::string, Observations> found;
    for (int r = 0; r < a.repeat; ++r)
      for (const Contender& k : contenders) {
        if (k.apriltag_only && !apriltag_dict) continue;
        const double t0 = bench::ThreadCpuMs();
        found[k.name] = k.detect(t, gray, *dict);
        const double ms = bench::ThreadCpuMs() - t0;
        if (r == 0 || ms < fastest[k.name]) fastest[k.name] = ms;
      }
    for (const auto& [name, obs] : found) {
      DetectionScore score = ScoreDetections(ScoreOptions{}, t.rendering.truth, obs);
      score.ms = fastest[name];
      scores[name].Add(score);
    }
  }
  return scores;
}

std::string Cell(const DetectionScore& s, int frames) {
  char buf[112];
  std::snprintf(buf, sizeof buf, "%.1f / %d / %.3f / %.3f / %.3f / %.1f", 100 * s.Recall(), s.wrong, Median(s.centre_error_px),
                Median(s.corner_error_px), Median(s.heading_error_deg), s.ms / std::max(frames, 1));
  return buf;
}

}  // namespace

int main(int argc, char** argv) try {
  const Args a = Parse(argc, argv);
  cv::setNumThreads(1);
  const std::vector<Contender> contenders = Contenders(a.apriltag);
  nlohmann::json json = nlohmann::json::array();
  std::map<std::string, std::map<std::string, DetectionScore>> totals;  // dictionary -> contender
  for (const std::string dict : {"DICT_4X4_50", "DICT_APRILTAG_36h11"}) {
    std::cout << "\n### " << dict << ": recall % / wrong IDs / median centre error px / median corner error px / median heading error deg / ms per frame\n\n";
    std::cout << "| condition |";
    for (const Contender& k : contenders)
      if (!k.apriltag_only || dict == std::string("DICT_APRILTAG_36h11")) std::cout << " " << k.name << " |";
    std::cout << "\n|---|";
    for (const Contender& k : contenders)
      if (!k.apriltag_only || dict == std::string("DICT_APRILTAG_36h11")) std::cout << "---|";
    std::cout << "\n";
    for (const TableCondition& c : StandardConditions()) {
      if (!a.only.empty() && std::find(a.only.begin(), a.only.end(), c.name) == a.only.end()) continue;
      const Scores scores = RunCondition(c, dict, contenders, a);
      std::cout << "| " << c.name << " |";
      for (const auto& k : contenders) {
        const auto it = scores.find(k.name);
        if (it == scores.end()) continue;
        std::cout << " " << Cell(it->second, a.tables) << " |";
        totals[dict][k.name].Add(it->second);
        json.push_back({{"dictionary", dict}, {"condition", c.name}, {"detector", k.name}, {"recall", it->second.Recall()},
                        {"wrong", it->second.wrong}, {"centre_px_p50", Median(it->second.centre_error_px)},
                        {"corner_px_p50", Median(it->second.corner_error_px)}, {"heading_deg_p50", Median(it->second.heading_error_deg)}, {"ms_per_frame", it->second.ms / a.tables},
                        {"found_by_size", it->second.found_by_size}, {"expected_by_size", it->second.expected_by_size}});
      }
      std::cout << std::endl;
    }
  }
  for (const auto& [dict, by] : totals) {
    std::cout << "\n### " << dict << ", every condition: recall % by marker side\n\n| detector |";
    for (int b = 0; b < kSizeBins; ++b) std::cout << " " << SizeBinName(b) << " px |";
    std::cout << "\n|---|";
    for (int b = 0; b < kSizeBins; ++b) std::cout << "---|";
    std::cout << "\n";
    for (const auto& [name, s] : by) {
      std::cout << "| " << name << " |";
      for (int b = 0; b < kSizeBins; ++b) {
        char buf[32];
        std::snprintf(buf, sizeof buf, " %.1f (%d) |", s.expected_by_size[b] ? 100.0 * s.found_by_size[b] / s.expected_by_size[b] : 0.0,
                      s.expected_by_size[b]);
        std::cout << buf;
      }
      std::cout << "\n";
    }
  }
  if (!a.json_path.empty()) std::ofstream(a.json_path) << json.dump(1) << "\n";
  return 0;
} catch (const std::exception& e) {
  std::cerr << "condition_bench: " << e.what() << "\n";
  return 2;
}
