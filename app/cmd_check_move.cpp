// vedette check-move SCENE --unit ID --to X,Y,HEADING [--second-move] [--formation F] [--json]
//   [--ruleset NAME] [--set KEY=VALUE]...
// Prints the ruleset's verdict on one move: its kind, legality and the action tests in order. Exit 0
// for a legal move, 1 for an illegal one, 2 for bad input.
#include <algorithm>
#include <cmath>
#include <iostream>
#include <sstream>

#include "app/command.h"
#include "app/scene_args.h"

namespace vedette::app {
namespace {

struct CheckMoveArgs {
  std::string scene, unit, to, formation;
  std::string ruleset = "totsk";
  std::vector<std::string> set;
  bool second_move = false;
  bool json = false;
};

Pose ParsePose(const std::string& text) {
  std::stringstream ss(text);
  std::string part;
  std::vector<double> v;
  while (std::getline(ss, part, ',')) {
    try {
      size_t used = 0;
      const double x = std::stod(part, &used);
      if (used != part.size() || !std::isfinite(x)) throw std::invalid_argument(part);
      v.push_back(x);
    } catch (const std::exception&) {
      throw InputError("--to", 0, "expected X,Y,HEADING in mm, mm, deg; '" + part + "' is not a number");
    }
  }
  if (v.size() != 3) throw InputError("--to", 0, "expected X,Y,HEADING (three numbers), got '" + text + "'");
  if (std::abs(v[0]) > kMaxTableMm || std::abs(v[1]) > kMaxTableMm || std::abs(v[2]) > 3600)
    throw InputError("--to", 0, "X and Y must be within +-100000 mm (100 m) and HEADING within +-3600 deg, got '" + text + "'");
  return {v[0], v[1], v[2]};
}

void SetupCheckMove(CLI::App& root) {
  auto args = std::make_shared<CheckMoveArgs>();
  CLI::App* cmd = root.add_subcommand("check-move", "Classify a move, check it against the rules, list its action tests");
  cmd->add_option("scene", args->scene, "Scene file (YAML or JSON); the unit's pose there is the start")->required();
  cmd->add_option("--unit", args->unit, "Unit that moves")->required();
  cmd->add_option("--to", args->to, "End pose X,Y,HEADING (table mm, mm, deg)")->required();
  cmd->add_flag("--second-move", args->second_move, "The unit's second or later move this turn");
  cmd->add_option("--formation", args->formation, "Formation at the end (a change of formation)");
  cmd->add_option("--ruleset", args->ruleset, "Ruleset")->capture_default_str();
  cmd->add_option("--set", args->set, "Ruleset setting KEY=VALUE (overrides the scene's declarations: settings:)");
  cmd->add_flag("--json", args->json, "Print one JSON object");
  cmd->callback([args] {
    const Scene scene = LoadScene(args->scene);
    RequireUnit(scene, args->unit);
    MoveRequest move;
    move.unit = args->unit;
    move.to = ParsePose(args->to);
    move.second_move = args->second_move;
    move.formation = args->formation;
    if (!move.formation.empty()) {
      const auto& known = KnownFormations();
      if (std::find(known.begin(), known.end(), move.formation) == known.end()) {
        std::string list;
        for (const auto& f : known) list += (list.empty() ? "" : ", ") + f;
        throw InputError("--formation", 0, "unknown formation '" + move.formation + "' (expected one of: " + list + ")");
      }
    }
    const auto ruleset = MakeRuleset(args->ruleset, MakeRulesetOptions(scene, args->set));
    const MoveCheck check = ruleset->CheckMove(scene, move);
    if (!check.supported) throw InputError("--ruleset", 0, "ruleset '" + args->ruleset + "' does not judge moves");
    if (args->json) std::cout << check.report.dump(2) << "\n";
    else std::cout << check.text;
    if (!check.legal) SetExitCode(1);
  });
}

VEDETTE_COMMAND("check-move", SetupCheckMove);

}  // namespace
}  // namespace vedette::app
