// vedette locate --image IMG --calib cam.yaml --roster ROSTER.yaml [--json] [--scene-out SCENE.yaml]
// Base poses in table mm from one photo: anchors register the table, each unit's marker gives its
// pose (parallax-corrected for the marker's height) with an uncertainty.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <set>

#include <nlohmann/json.hpp>
#include <opencv2/imgcodecs.hpp>

#include "app/command.h"
#include "app/still_input.h"
#include "app/output_paths.h"
#include "app/scene_args.h"
#include "calibration/dictionary.h"
#include "rules/input_error.h"
#include "calibration/roster.h"
#include "rules/scene/scene_io.h"
#include "vision/detect.h"
#include "vision/locate.h"

namespace vedette::app {
namespace {

struct LocateArgs {
  std::string image, calib, roster, scene_out;
  int min_anchors = 3;
  bool json = false;
};

std::string IdList(const std::vector<int>& ids) {
  std::string s;
  for (int id : ids) s += (s.empty() ? "" : ", ") + std::to_string(id);
  return s.empty() ? "none" : s;
}

// The located units as a scene file: the roster with each located unit's pose, unlocated units left out.
void WriteLocatedScene(const Scene& roster, const vision::Location& loc, const std::string& path) {
  Scene out = roster;
  out.source = path;
  out.units.clear();
  for (const Unit& u : roster.units) {
    auto it = std::find_if(loc.units.begin(), loc.units.end(), [&](const auto& e) { return e.unit == u.id; });
    if (it == loc.units.end()) continue;
    Unit placed = u;
    placed.pose = it->pose;
    out.units.push_back(placed);
  }
  SaveScene(out, path);
}

void PrintLocationJson(const vision::Location& loc, const std::vector<std::string>& missing, double detection_ms) {
  nlohmann::json j;
  j["units"] = nlohmann::json::array();
  for (const auto& u : loc.units)
    j["units"].push_back({{"id", u.unit}, {"marker", u.marker}, {"x_mm", u.pose.x_mm}, {"y_mm", u.pose.y_mm},
                          {"heading_deg", u.pose.heading_deg}, {"sigma_mm", u.sigma_mm}, {"sigma_deg", u.sigma_deg}});
  j["units_not_seen"] = missing;
  j["unknown_markers"] = loc.unknown_markers;
  j["duplicate_ids"] = loc.duplicate_ids;
  j["anchors_seen"] = loc.registration.anchors_seen.size();
  j["anchors_seen_ids"] = loc.registration.anchors_seen;
  j["anchors_used_ids"] = loc.registration.anchors_used;
  j["registration_rms_px"] = loc.registration.rms_px;
  j["anchor_checks"] = nlohmann::json::array();
  for (const auto& c : loc.registration.checks)
    j["anchor_checks"].push_back({{"a", c.a}, {"b", c.b}, {"known_mm", c.known_mm}, {"measured_mm", c.measured_mm}});
  j["detection_ms"] = detection_ms;
  std::cout << j.dump(2) << "\n";
}

void PrintLocation(const vision::Location& loc, const std::vector<std::string>& missing) {
  char line[256];
  std::snprintf(line, sizeof line, "table registered from anchors %s (of %zu seen), reprojection RMS %.2f px\n",
                IdList(loc.registration.anchors_used).c_str(), loc.registration.anchors_seen.size(), loc.registration.rms_px);
  std::cout << line;
  for (const auto& c : loc.registration.checks) {
    std::snprintf(line, sizeof line, "  anchors %d-%d: known %.1f mm, measured %.1f mm (%+.1f)\n", c.a, c.b, c.known_mm,
                  c.measured_mm, c.measured_mm - c.known_mm);
    std::cout << line;
  }
  std::cout << loc.units.size() << " units located:\n";
  for (const auto& u : loc.units) {
    std::snprintf(line, sizeof line, "  %-10s x %8.2f mm  y %8.2f mm  heading %7.2f deg  (+- %.2f mm, %.2f deg)\n",
                  u.unit.c_str(), u.pose.x_mm, u.pose.y_mm, u.pose.heading_deg, u.sigma_mm, u.sigma_deg);
    std::cout << line;
  }
  if (!missing.empty()) {
    std::cout << "not seen:";
    for (const auto& id : missing) std::cout << " " << id;
    std::cout << "\n";
  }
  if (!loc.unknown_markers.empty()) std::cout << "markers not in the roster: " << IdList(loc.unknown_markers) << "\n";
  if (!loc.duplicate_ids.empty())
    std::cout << "same marker ID at two spots (units not located): " << IdList(loc.duplicate_ids) << "\n";
}

void RunLocate(const LocateArgs& a) {
  CheckOutputs({{a.scene_out, "--scene-out"}}, {a.image, a.calib, a.roster});
  calib::RosterOptions ro;
  ro.min_anchors = std::max(3, a.min_anchors);
  const Scene roster = calib::LoadRoster(a.roster, ro);
  const cv::Ptr<cv::aruco::Dictionary> dict = calib::ResolveDictionary(roster.dictionary);
  calib::CameraIntrinsics k = calib::LoadIntrinsics(a.calib);
  const cv::Mat image = cv::imread(a.image, cv::IMREAD_GRAYSCALE);
  if (image.empty()) throw InputError(a.image, 0, "cannot read the image (missing file or unknown format)");
  CheckPictureSize(image.size(), a.image);
  if (k.image_size.width > 0 && k.image_size != image.size()) k = calib::ScaledTo(k, image.size());
  if (k.image_size.width == 0) k.image_size = image.size();

  const vision::DetectorOptions dopt = vision::DetectorOptionsFor(roster, k);
  const vision::Detections det = vision::DetectMarkers(dopt, image, *dict);
  vision::LocateOptions lopt;
  lopt.registration.min_anchors = a.min_anchors;
  if (std::string error; !lopt.Check(&error)) throw InputError("--min-anchors", 0, error);
  const vision::Location loc = vision::LocateBases(lopt, k, roster, det.markers);
  if (!loc.registration.ok) throw InputError(a.image, 0, "cannot register the table: " + loc.registration.message);

  std::set<std::string> located;
  for (const auto& u : loc.units) located.insert(u.unit);
  std::vector<std::string> missing;
  for (const Unit& u : roster.units)
    if (u.marker && !located.count(u.id)) missing.push_back(u.id);
  if (!a.scene_out.empty()) WriteLocatedScene(roster, loc, a.scene_out);
  if (a.json) PrintLocationJson(loc, missing, det.ms);
  else PrintLocation(loc, missing);
}

void SetupLocate(CLI::App& root) {
  auto args = std::make_shared<LocateArgs>();
  CLI::App* cmd = root.add_subcommand("locate", "Unit poses in table mm from a photo, a camera calibration and a roster");
  cmd->add_option("--image", args->image, "Photo of the table")->required();
  cmd->add_option("--calib", args->calib, "Camera file from `vedette calibrate` (or OpenCV's calibration sample)")->required();
  cmd->add_option("--roster", args->roster, kRosterHelp)->required();
  cmd->add_option("--min-anchors", args->min_anchors, "Anchors that must be seen (default 3)");
  cmd->add_option("--scene-out", args->scene_out, "Write the located units as a scene file (for measure/analyze)");
  cmd->add_flag("--json", args->json, "Print one JSON object");
  cmd->callback([args] { RunLocate(*args); });
}

VEDETTE_COMMAND("locate", SetupLocate);

}  // namespace
}  // namespace vedette::app
