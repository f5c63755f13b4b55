// The scene reader (YAML or JSON): every input is read or refused with an InputError; a scene that
// is read can be written out and read back with the same units and poses.
#include <cmath>

#include "rules/scene/scene_io.h"
#include "tests/fuzz/fuzz_input.h"

using namespace vedette;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Scene scene;
  try {
    scene = ParseScene(fuzz::Text(data, size), "fuzz.yaml");
  } catch (const InputError&) {
    return 0;
  }
  Scene again;
  try {
    again = ParseScene(SceneToYaml(scene), "written.yaml");
  } catch (const InputError& e) {
    std::fprintf(stderr, "%s\n", e.what());
    fuzz::Require(false, "a scene that was read can be written and read back");
  }
  fuzz::Require(again.units.size() == scene.units.size(), "the same number of units after writing");
  for (size_t i = 0; i < scene.units.size(); ++i) {
    fuzz::Require(again.units[i].id == scene.units[i].id, "the same unit ids after writing");
    fuzz::Require(again.units[i].pose.has_value() == scene.units[i].pose.has_value(), "the same poses after writing");
    if (scene.units[i].pose)
      fuzz::Require(std::abs(again.units[i].pose->x_mm - scene.units[i].pose->x_mm) < 1e-6 &&
                        std::abs(again.units[i].pose->y_mm - scene.units[i].pose->y_mm) < 1e-6,
                    "the same positions after writing");
  }
  return 0;
}
