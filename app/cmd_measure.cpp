// vedette measure SCENE --from A --to B [--json] [--arc-model M] [--ruleset NAME] [--set KEY=VALUE]...
// The geometry between two units; with --ruleset, lengths in that ruleset's unit (inches for kow and
// fkoe) besides mm, its arc model, and every threshold the ruleset applies between the two units
// (Ruleset::PairRules: the same list `dispute` judges) with its margin.
#include <cmath>
#include <cstdio>
#include <iostream>

#include "app/command.h"
#include "app/scene_args.h"
#include "rules/measure.h"

namespace vedette::app {
namespace {

struct MeasureArgs {
  std::string scene, from, to, arc_model, ruleset;
  std::vector<std::string> set;
  bool json = false;
};

void SetupMeasure(CLI::App& root) {
  auto args = std::make_shared<MeasureArgs>();
  CLI::App* cmd = root.add_subcommand("measure", "Settle a measurement between two units of a scene file");
  cmd->add_option("scene", args->scene, "Scene file (YAML or JSON)")->required();
  cmd->add_option("--from", args->from, "Unit A")->required();
  cmd->add_option("--to", args->to, "Unit B")->required();
  cmd->add_option("--arc-model", args->arc_model,
                  "Arc model: totsk, corner45 or kow (default: the ruleset's with --ruleset, else the scene's, else totsk)");
  std::string names;
  for (const std::string& n : RulesetNames()) names += (names.empty() ? "" : ", ") + n;
  cmd->add_option("--ruleset", args->ruleset,
                  "Also list this ruleset's thresholds between the two units, lengths in its unit (" + names + ")");
  cmd->add_option("--set", args->set, "Ruleset setting KEY=VALUE (with --ruleset)");
  cmd->add_flag("--json", args->json, "Print one JSON object");
  cmd->callback([args] {
    const Scene scene = LoadScene(args->scene);
    RequireUnit(scene, args->from);
    RequireUnit(scene, args->to);
    if (args->ruleset.empty() && !args->set.empty()) throw InputError("--set", 0, "--set needs --ruleset");
    MeasureOptions options;
    options.arc_model = scene.arc_model.value_or(geom::ArcModel::kTotsk);
    std::unique_ptr<Ruleset> ruleset;
    RulesetInfo info;
    if (!args->ruleset.empty()) {
      ruleset = MakeRuleset(args->ruleset, MakeRulesetOptions(scene, args->set));
      info = ruleset->Info();
      options.arc_model = info.arc_model;
      if (info.unit_mm > 0) {
        options.unit_mm = info.unit_mm;
        options.unit_name = info.unit_name;
      }
    }
    if (!args->arc_model.empty()) {
      auto m = geom::ParseArcModel(args->arc_model);
      if (!m) throw InputError("--arc-model", 0, "unknown arc model '" + args->arc_model + "' (totsk, corner45, kow)");
      options.arc_model = *m;
    }
    const Measurement m = Measure(scene, args->from, args->to, options);
    std::vector<PairRule> rules;
    if (ruleset) rules = ruleset->PairRules(scene, args->from, args->to);
    auto in_unit = [&](double mm) {
      char buf[96];
      std::snprintf(buf, sizeof buf, "%.1f mm (%.2f %s)", mm, mm / m.unit_mm, m.unit_name.c_str());
      return std::string(buf);
    };
    if (args->json) {
      nlohmann::json j = ToJson(m);
      if (ruleset) {
        j["ruleset"] = info.name;
        nlohmann::json jr = nlohmann::json::array();
        for (const PairRule& r : rules)
          jr.push_back({{"rule", r.rule}, {"quantity", r.quantity}, {"threshold_mm", r.threshold_mm},
                        {"measured_mm", r.measured_mm}, {"margin_mm", r.threshold_mm - r.measured_mm},
                        {"holds", r.measured_mm <= r.threshold_mm}});
        j["rules"] = jr;
      }
      std::cout << j.dump(2) << "\n";
      return;
    }
    std::cout << ToText(m);
    if (!ruleset) return;
    std::cout << "  " << info.title << ": the thresholds between " << args->from << " and " << args->to << "\n";
    for (const PairRule& r : rules) {
      const double margin = r.threshold_mm - r.measured_mm;
      std::cout << "    " << (margin >= 0 ? "YES " : "no  ") << r.rule << ": " << in_unit(r.measured_mm) << " of "
                << in_unit(r.threshold_mm) << ", " << (margin >= 0 ? "inside by " : "outside by ") << in_unit(std::abs(margin))
                << "\n";
    }
  });
}

VEDETTE_COMMAND("measure", SetupMeasure);

}  // namespace
}  // namespace vedette::app
