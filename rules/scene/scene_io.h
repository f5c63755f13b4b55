#pragma once
// Reading and writing scene files (YAML; JSON parses too). A bad file throws InputError naming the
// file, the line and what is wrong; nothing is half-read.
#include <string>
#include <vector>

#include "rules/input_error.h"
#include "rules/scene/scene.h"

namespace vedette {

// The longest unit id, terrain id, side name or tag a scene may hold, characters.
inline constexpr size_t kMaxNameLength = 64;

// The formations a unit may be in (`formation:` in a scene, `check-move --formation`).
const std::vector<std::string>& KnownFormations();

struct SceneLoadOptions {
  bool require_poses = true;  // false for a roster, whose units are placed by vision
};

Scene LoadScene(const std::string& path, const SceneLoadOptions& options = {});
Scene ParseScene(const std::string& text, const std::string& source_name, const SceneLoadOptions& options = {});

// YAML text that ParseScene reads back to the same scene.
std::string SceneToYaml(const Scene& scene);
// Writes atomically (a temporary file renamed over the target): a crash leaves the old file or the new.
void SaveScene(const Scene& scene, const std::string& path);

}  // namespace vedette
