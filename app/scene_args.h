#pragma once
// Shared pieces of the scene-reading commands.
#include <map>
#include <string>
#include <vector>

#include "rules/ruleset.h"
#include "rules/scene/scene_io.h"

namespace vedette::app {

// The help of every --roster option (all read it with calib::LoadRoster).
inline constexpr const char* kRosterHelp =
    "Roster: units with markers and bases, anchors, dictionary (poses in it are ignored: the camera places the units)";

// The farthest a point typed on the command line may be from the table's origin, mm (as in scene
// files: rules/yaml_reader.h kMaxLengthMm).
inline constexpr double kMaxTableMm = 100'000;

// --set KEY=VALUE pairs on top of the scene's `declarations: settings:`; throws InputError on a
// malformed pair.
RulesetOptions MakeRulesetOptions(const Scene& scene, const std::vector<std::string>& set_args);

// The unit or an InputError naming the scene file and the unit's absence.
const Unit& RequireUnit(const Scene& scene, const std::string& id);

}  // namespace vedette::app
