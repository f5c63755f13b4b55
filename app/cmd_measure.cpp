// vedette measure SCENE --from A --to B [--json] [--arc-model M]
#include <iostream>

#include "app/command.h"
#include "app/scene_args.h"
#include "rules/measure.h"

namespace vedette::app {
namespace {

struct MeasureArgs {
  std::string scene, from, to, arc_model;
  bool json = false;
};

void SetupMeasure(CLI::App& root) {
  auto args = std::make_shared<MeasureArgs>();
  CLI::App* cmd = root.add_subcommand("measure", "Settle a measurement between two units of a scene file");
  cmd->add_option("scene", args->scene, "Scene file (YAML or JSON)")->required();
  cmd->add_option("--from", args->from, "Unit A")->required();
  cmd->add_option("--to", args->to, "Unit B")->required();
  cmd->add_option("--arc-model", args->arc_model, "Arc model: totsk, corner45 or kow (default: the scene's, else totsk)");
  cmd->add_flag("--json", args->json, "Print one JSON object");
  cmd->callback([args] {
    const Scene scene = LoadScene(args->scene);
    RequireUnit(scene, args->from);
    RequireUnit(scene, args->to);
    MeasureOptions options;
    options.arc_model = scene.arc_model.value_or(geom::ArcModel::kTotsk);
    if (!args->arc_model.empty()) {
      auto m = geom::ParseArcModel(args->arc_model);
      if (!m) throw InputError("--arc-model", 0, "unknown arc model '" + args->arc_model + "' (totsk, corner45, kow)");
      options.arc_model = *m;
    }
    const Measurement m = Measure(scene, args->from, args->to, options);
    if (args->json) std::cout << ToJson(m).dump(2) << "\n";
    else std::cout << ToText(m);
  });
}

VEDETTE_COMMAND("measure", SetupMeasure);

}  // namespace
}  // namespace vedette::app
