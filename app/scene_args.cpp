#include "app/scene_args.h"

namespace vedette::app {

RulesetOptions MakeRulesetOptions(const Scene& scene, const std::vector<std::string>& set_args) {
  RulesetOptions options;
  for (const auto& [key, declared] : scene.declarations.settings)
    options.settings[key] = declared.value.is_string() ? declared.value.get<std::string>() : declared.value.dump();
  for (const std::string& kv : set_args) {
    const auto eq = kv.find('=');
    if (eq == std::string::npos || eq == 0) throw InputError("--set", 0, "expected KEY=VALUE, got '" + kv + "'");
    options.settings[kv.substr(0, eq)] = kv.substr(eq + 1);
    options.strict_keys.push_back(kv.substr(0, eq));
  }
  return options;
}

const Unit& RequireUnit(const Scene& scene, const std::string& id) {
  const Unit* u = scene.FindUnit(id);
  if (!u) {
    std::string ids;
    for (const Unit& x : scene.units) ids += (ids.empty() ? "" : ", ") + x.id;
    throw InputError(scene.source, 0, "no unit '" + id + "' in the scene (units: " + ids + ")");
  }
  if (!u->pose) throw InputError(scene.source, u->line, "unit " + id + " has no pose");
  return *u;
}

}  // namespace vedette::app
