// vedette dispute (--image IMG | --camera N | --video FILE) --calib cam.yaml --roster R.yaml --ruleset totsk --from A --to B [--json]
//                 [--evidence PREFIX]
// Settles a measurement from one photograph: locates the units, measures A to B (or to a table
// point given as --to X,Y in mm) and answers every threshold the ruleset applies between them with
// YES / NO / TOO_CLOSE_TO_CALL (|margin| <= 3 sigma).
#include <cmath>
#include <iostream>

#include <opencv2/imgcodecs.hpp>

#include "app/command.h"
#include "app/output_paths.h"
#include "app/scene_args.h"
#include "app/still_input.h"
#include "rules/dispute.h"
#include "overlay/evidence.h"
#include "overlay/still_image.h"
#include "rules/input_error.h"
#include "calibration/roster.h"
#include "rules/scene/scene_io.h"

namespace vedette::app {
namespace {

struct DisputeArgs {
  StillInputArgs input;
  std::string calib, roster, ruleset = "totsk", from, to, evidence;
  std::vector<std::string> set;
  double k_sigma = 3.0;
  bool json = false;
};

// "120,340" -> a table point (mm); otherwise nullopt (a unit id).
std::optional<geom::Vec2> ParsePoint(const std::string& s) {
  const auto comma = s.find(',');
  if (comma == std::string::npos) return std::nullopt;
  double x = 0, y = 0;
  try {
    size_t used = 0;
    x = std::stod(s.substr(0, comma), &used);
    if (used != comma) return std::nullopt;
    const std::string ys = s.substr(comma + 1);
    y = std::stod(ys, &used);
    if (used != ys.size()) return std::nullopt;
  } catch (const std::exception&) {
    return std::nullopt;
  }
  // Two numbers, so a point: "nan,nan" or "1e308,0" is not a place on a table.
  if (!std::isfinite(x) || !std::isfinite(y) || std::abs(x) > kMaxTableMm || std::abs(y) > kMaxTableMm)
    throw InputError("--to", 0, "a table point X,Y must be two finite numbers within +-100000 mm (100 m), got '" + s + "'");
  return geom::Vec2(x, y);
}

void SetupDispute(CLI::App& root) {
  auto args = std::make_shared<DisputeArgs>();
  CLI::App* cmd = root.add_subcommand(
      "dispute", "Settle a measurement between two units from a photo: distance with its uncertainty and a verdict\n"
                 "for every rule threshold between them (YES / NO / TOO_CLOSE_TO_CALL when |margin| <= k sigma)");
  AddStillInputOptions(cmd, &args->input);
  cmd->add_option("--calib", args->calib, "Camera file (vedette calibrate / OpenCV)")->required();
  cmd->add_option("--roster", args->roster, kRosterHelp)->required();
  cmd->add_option("--ruleset", args->ruleset, "Ruleset (default totsk)");
  cmd->add_option("--from", args->from, "Unit A")->required();
  cmd->add_option("--to", args->to, "Unit B, or a table point X,Y in mm")->required();
  cmd->add_option("--set", args->set, "Ruleset setting KEY=VALUE (repeatable)");
  cmd->add_option("--k-sigma", args->k_sigma, "A call needs |margin| > k sigma (default 3)");
  cmd->add_option("--evidence", args->evidence, "Also write PREFIX.png (annotated, with a zoomed inset) and PREFIX.json");
  cmd->add_flag("--json", args->json, "Print one JSON object");
  cmd->callback([args] {
    (void)ParsePoint(args->to);  // "nan,nan" is refused before any work
    if (!args->evidence.empty())
      CheckOutputs({{args->evidence + ".png", "--evidence"}, {args->evidence + ".json", "--evidence"}},
                   {args->input.image, args->input.video, args->calib, args->roster});
    const Scene roster = calib::LoadRoster(args->roster);
    const calib::CameraIntrinsics k = calib::LoadIntrinsics(args->calib);
    const StillInput still_input = GrabStill(args->input, k.image_size);
    const cv::Mat& image = still_input.bgr;
    vedette::DisputeOptions options;
    options.verdict.k_sigma = args->k_sigma;
    if (std::string error; !options.Check(&error)) throw InputError("--k-sigma", 0, error);
    const auto ruleset = MakeRuleset(args->ruleset, MakeRulesetOptions(roster, args->set));
    const overlay::StillLocation still = overlay::LocateStill(image, still_input.name, k, roster);
    for (const std::string& id : {args->from, args->to}) {
      if (id == args->to && ParsePoint(id)) continue;
      const Unit* u = roster.FindUnit(id);
      if (!u) RequireUnit(roster, id);  // throws: names the roster and its units
      if (!still.scene.FindUnit(id)->pose)
        throw InputError(still_input.name, 0, "unit " + id + " (marker " + std::to_string(u->marker ? u->marker->id : -1) +
                                             ") was not found in the image");
    }
    const auto point = ParsePoint(args->to);
    const vedette::Dispute d =
        point ? vedette::SettleDisputeToPoint(options, *ruleset, still.scene, still.sigmas, args->from, *point)
              : vedette::SettleDispute(options, *ruleset, still.scene, still.sigmas, args->from, args->to);
    if (!args->evidence.empty()) {
      overlay::EvidenceInput in;
      in.frame = image;
      in.intrinsics = still.intrinsics;
      in.camera_from_table = still.location.registration.camera_from_table;
      in.registration_rms_px = still.location.registration.rms_px;
      in.anchors_seen = static_cast<int>(still.location.registration.anchors_seen.size());
      in.scene = still.scene;
      in.sigmas = still.sigmas;
      in.primitives = ruleset->Analyze(still.scene, kFramePath).drawing;
      in.dispute = d;
      in.source = still_input.name;
      const overlay::EvidenceFiles f = overlay::SaveEvidence(in, args->evidence);
      std::cerr << "evidence: " << f.png << ", " << f.json << "\n";
    }
    if (args->json) std::cout << vedette::ToJson(d).dump(2) << "\n";
    else std::cout << vedette::ToText(d);
  });
}

VEDETTE_COMMAND("dispute", SetupDispute);

}  // namespace
}  // namespace vedette::app
