// vedette check (--image IMG | --camera N | --video FILE) --calib cam.yaml --roster R.yaml [--json]
// Is the camera set up well enough to play? Per anchor and unit: seen, marker size against the
// smallest read reliably, sharpness, contrast, exposure; the registration and the anchors' known
// distances; what to change; READY (exit 0) or NOT READY (exit 3). Bad input: exit 2.
#include <cmath>
#include <cstdio>
#include <iostream>

#include <nlohmann/json.hpp>

#include "app/command.h"
#include "app/scene_args.h"
#include "app/still_input.h"
#include "calibration/roster.h"
#include "rules/input_error.h"
#include "vision/view_check.h"

namespace vedette::app {
namespace {

// The exit status of a check that ran but found the set-up not ready (2 is bad input, 1 a crash).
constexpr int kNotReadyExit = 3;

struct CheckArgs {
  StillInputArgs frame;
  std::string calib, roster;
  bool json = false;
  vision::ViewCheckOptions options;
};

std::string Problems(const vision::MarkerCheck& c) {
  std::string s;
  for (vision::MarkerProblem p : c.problems) s += (s.empty() ? "" : ", ") + std::string(vision::ToString(p));
  return s.empty() ? "ok" : s;
}

void PrintRow(const vision::MarkerCheck& c) {
  const vision::MarkerQuality& q = c.quality;
  const std::string name = c.name + (c.anchor ? "" : " (" + std::to_string(q.marker) + ")");
  char line[256];
  // Not seen: the side it would have at the anchors' scale, marked with ~.
  const std::string expected = c.expected_side_px > 0 ? "~" + std::to_string(std::lround(c.expected_side_px)) : "-";
  if (!q.seen)
    std::snprintf(line, sizeof line, "  %-16s %-4s %8s %8s %12s %6s %8s  %s\n", name.c_str(), "no", expected.c_str(), "-", "-",
                  "-", "-", Problems(c).c_str());
  else
    std::snprintf(line, sizeof line, "  %-16s %-4s %8.1f %8.2f %5.0f-%-6.0f %6.0f %7.1f%%  %s\n", name.c_str(), "yes", q.side_px,
                  q.edge_rise_px, q.white_level, q.black_level, q.mean_level, 100.0 * q.clipped_share, Problems(c).c_str());
  std::fputs(line, stdout);
}

void PrintText(const vision::ViewCheck& v, const vision::ViewCheckOptions& o, const std::string& source) {
  std::printf("view check of %s\n", source.c_str());
  std::printf("  %-16s %-4s %8s %8s %12s %6s %8s  %s\n", "", "seen", "side px", "edge px", "white-black", "mean", "clipped", "");
  std::printf("anchors\n");
  for (const auto& c : v.anchors) PrintRow(c);
  std::printf("units (marker)\n");
  for (const auto& c : v.units) PrintRow(c);
  std::printf("limits: side >= %.0f px, edge rise <= %.1f px, contrast >= %.0f, white >= %.0f, clipped <= %.0f %%\n",
              o.min_reliable_side_px, o.max_edge_rise_px, o.min_contrast, o.min_white_level, 100.0 * o.max_clipped_share);
  const calib::Registration& r = v.registration;
  if (r.ok) {
    std::printf("registration: %zu of %zu anchors used, RMS %.2f px (limit %.2f)\n", r.anchors_used.size(), v.anchors.size(),
                r.rms_px, o.max_registration_rms_px);
    for (const auto& c : r.checks)
      std::printf("  anchors %d-%d: known %.1f mm, measured %.1f mm (%+.1f)\n", c.a, c.b, c.known_mm, c.measured_mm,
                  c.measured_mm - c.known_mm);
  } else {
    std::printf("registration: failed: %s\n", r.message.c_str());
  }
  if (!v.unknown_markers.empty()) {
    std::printf("markers not in the roster:");
    for (int id : v.unknown_markers) std::printf(" %d", id);
    std::printf("\n");
  }
  std::printf("picture: mean grey %.0f, %.1f %% clipped\n", v.image_mean_level, 100.0 * v.image_clipped_share);
  if (!v.advice.empty()) std::printf("what to change:\n");
  for (const std::string& a : v.advice) std::printf("  - %s\n", a.c_str());
  std::printf("%s\n", v.ready ? "READY" : "NOT READY");
}

nlohmann::json ToJson(const vision::MarkerCheck& c) {
  const vision::MarkerQuality& q = c.quality;
  nlohmann::json j = {{"name", c.name}, {"marker", q.marker}, {"size_mm", c.size_mm}, {"seen", q.seen}};
  if (q.seen)
    j.update({{"side_px", q.side_px}, {"edge_rise_px", q.edge_rise_px}, {"white_level", q.white_level},
              {"black_level", q.black_level}, {"contrast", q.contrast}, {"mean_level", q.mean_level},
              {"clipped_share", q.clipped_share}});
  else if (c.expected_side_px > 0) j["expected_side_px"] = c.expected_side_px;
  j["problems"] = nlohmann::json::array();
  for (vision::MarkerProblem p : c.problems) j["problems"].push_back(std::string(vision::ToString(p)));
  return j;
}

nlohmann::json ToJson(const vision::ViewCheck& v) {
  nlohmann::json j;
  j["anchors"] = nlohmann::json::array();
  for (const auto& c : v.anchors) j["anchors"].push_back(ToJson(c));
  j["units"] = nlohmann::json::array();
  for (const auto& c : v.units) j["units"].push_back(ToJson(c));
  const calib::Registration& r = v.registration;
  j["registration"] = {{"ok", r.ok}, {"rms_px", r.rms_px}, {"anchors_seen", r.anchors_seen},
                       {"anchors_used", r.anchors_used}, {"message", r.message}};
  j["anchor_checks"] = nlohmann::json::array();
  for (const auto& c : r.checks)
    j["anchor_checks"].push_back({{"a", c.a}, {"b", c.b}, {"known_mm", c.known_mm}, {"measured_mm", c.measured_mm}});
  j["unknown_markers"] = v.unknown_markers;
  j["duplicate_ids"] = v.duplicate_ids;
  j["image_mean_level"] = v.image_mean_level;
  j["image_clipped_share"] = v.image_clipped_share;
  j["advice"] = v.advice;
  j["ready"] = v.ready;
  j["ms"] = v.ms;
  return j;
}

void SetupCheck(CLI::App& root) {
  auto a = std::make_shared<CheckArgs>();
  CLI::App* cmd = root.add_subcommand(
      "check",
      "Check the camera's view before a game: each anchor and unit seen, marker size, sharpness, contrast, exposure, "
      "registration; what to change; READY (exit 0) or NOT READY (exit 3). With --camera or --video about a second "
      "is read first (auto-exposure settles) and the last frame is checked.");
  AddStillInputOptions(cmd, &a->frame);
  cmd->add_option("--calib", a->calib, "Camera file from `vedette calibrate`")->required();
  cmd->add_option("--roster", a->roster, kRosterHelp)->required();
  cmd->add_option("--min-side-px", a->options.min_reliable_side_px, "Smallest marker side read reliably, px (default 18)");
  cmd->add_option("--max-edge-px", a->options.max_edge_rise_px, "Widest 10-90 % edge rise counted sharp, px (default 3.5)");
  cmd->add_option("--min-contrast", a->options.min_contrast, "Least white-minus-black at a marker, grey levels (default 40)");
  cmd->add_flag("--json", a->json, "Print one JSON object");
  cmd->callback([a] {
    if (std::string error; !a->options.Check(&error)) throw InputError("check", 0, error);
    const Scene roster = calib::LoadRoster(a->roster);
    const calib::CameraIntrinsics calibrated = calib::LoadIntrinsics(a->calib);
    const StillInput still = GrabStill(a->frame, calibrated.image_size);
    const cv::Mat& image = still.bgr;
    const std::string& source = still.name;
    const calib::CameraIntrinsics k = LensForPicture(calibrated, image.size());
    const vision::ViewCheck v = vision::CheckView(a->options, image, k, roster);
    if (a->json) std::printf("%s\n", ToJson(v).dump(2).c_str());
    else PrintText(v, a->options, source);
    std::fflush(stdout);
    if (!v.ready) SetExitCode(kNotReadyExit);
  });
}

VEDETTE_COMMAND("check", SetupCheck);

}  // namespace
}  // namespace vedette::app
