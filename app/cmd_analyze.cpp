// vedette analyze SCENE [--ruleset NAME] [--json] [--set KEY=VALUE]...
#include <iostream>

#include "app/command.h"
#include "app/scene_args.h"

namespace vedette::app {
namespace {

struct AnalyzeArgs {
  std::string scene;
  std::string ruleset = "totsk";
  std::vector<std::string> set;
  bool json = false;
};

void SetupAnalyze(CLI::App& root) {
  auto args = std::make_shared<AnalyzeArgs>();
  CLI::App* cmd = root.add_subcommand("analyze", "Report what a ruleset says about every unit of a scene file");
  cmd->add_option("scene", args->scene, "Scene file (YAML or JSON)")->required();
  std::string names;
  for (const std::string& n : RulesetNames()) names += (names.empty() ? "" : ", ") + n;
  cmd->add_option("--ruleset", args->ruleset, "Ruleset: " + names)->capture_default_str();
  cmd->add_option("--set", args->set, "Ruleset setting KEY=VALUE (overrides the scene's declarations: settings:)");
  cmd->add_flag("--json", args->json, "Print one JSON object");
  cmd->callback([args] {
    const Scene scene = LoadScene(args->scene);
    const auto ruleset = MakeRuleset(args->ruleset, MakeRulesetOptions(scene, args->set));
    const Findings f = ruleset->Analyze(scene, {.text = !args->json, .report = args->json, .picture = false});
    if (args->json) std::cout << f.report.dump(2) << "\n";
    else std::cout << f.text;
  });
}

VEDETTE_COMMAND("analyze", SetupAnalyze);

}  // namespace
}  // namespace vedette::app
