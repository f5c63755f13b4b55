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

void PrintMeasureJson(const Measurement& m, const RulesetInfo* info, const std::vector<PairRule>& rules) {
  nlohmann::json j = ToJson(m);
  if (info) {
    j["ruleset"] = info->name;
    nlohmann::json jr = nlohmann::json::array();
    for (const PairRule& r : rules)
      jr.push_back({{"rule", r.rule}, {"quantity", r.quantity}, {"threshold_mm", r.threshold_mm},
                    {"measured_mm", r.measured_mm}, {"margin_mm", r.threshold_mm - r.measured_mm},
                    {"holds", r.measured_mm <= r.threshold_mm}});
    j["rules"] = jr;
  }
  std::cout << j.dump(2) << "\n";
}

void PrintMeasure(const MeasureArgs& a, const Measurement& m, const RulesetInfo* info, const std::vector<PairRule>& rules) {
  std::cout << ToText(m);
  if (!info) return;
  auto in_unit = [&](double mm) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "%.1f mm (%.2f %s)", mm, mm / m.unit_mm, m.unit_name.c_str());
    return std::string(buf);
  };
  std::cout << "  " << info->title << ": the thresholds between " << a.from << " and " << a.to << "\n";
  for (const PairRule& r : rules) {
    const double margin = r.threshold_mm - r.measured_mm;
    std::cout << "    " << (margin >= 0 ? "YES " : "no  ") << r.rule << ": " << in_unit(r.measured_mm) << " of "
              << in_unit(r.threshold_mm) << ", " << (margin >= 0 ? "inside by " : "outside by ") << in_unit(std::abs(margin))
              << "\n";
  }
}

void RunMeasure(const MeasureArgs& a) {
  const Scene scene = LoadScene(a.scene);
  RequireUnit(scene, a.from);
  RequireUnit(scene, a.to);
  if (a.ruleset.empty() && !a.set.empty()) throw InputError("--set", 0, "--set needs --ruleset");
  MeasureOptions options;
  options.arc_model = scene.arc_model.value_or(geom::ArcModel::kTotsk);
  std::unique_ptr<Ruleset> ruleset;
  RulesetInfo info;
  if (!a.ruleset.empty()) {
    ruleset = MakeRuleset(a.ruleset, MakeRulesetOptions(scene, a.set));
    info = ruleset->Info();
    options.arc_model = info.arc_model;
    if (info.unit_mm > 0) {
      options.unit_mm = info.unit_mm;
      options.unit_name = info.unit_name;
    }
  }
  if (!a.arc_model.empty()) {
    auto m = geom::ParseArcModel(a.arc_model);
    if (!m) throw InputError("--arc-model", 0, "unknown arc model '" + a.arc_model + "' (totsk, corner45, kow)");
    options.arc_model = *m;
  }
  const Measurement m = Measure(scene, a.from, a.to, options);
  std::vector<PairRule> rules;
  if (ruleset) rules = ruleset->PairRules(scene, a.from, a.to);
  if (a.json) PrintMeasureJson(m, ruleset ? &info : nullptr, rules);
  else PrintMeasure(a, m, ruleset ? &info : nullptr, rules);
}

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
  cmd->callback([args] { RunMeasure(*args); });
}

VEDETTE_COMMAND("measure", SetupMeasure);

}  // namespace
}  // namespace vedette::app
