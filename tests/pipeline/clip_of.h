#pragma once
// A clip script and its roster, written to a temporary folder and loaded: the renderer a ClipSource
// plays (the pipeline tests that follow a scripted game through the whole frame path).
#include <memory>
#include <string>

#include "synth/clip_script.h"
#include "tests/overlay/test_scenes.h"

namespace vedette::pipeline::testing_clip {

inline std::shared_ptr<synth::ClipRenderer> ClipOf(const std::string& name, const std::string& roster_yaml,
                                                   const std::string& clip_yaml) {
  const std::string dir = overlay::testing::TempDir(name);
  overlay::testing::WriteFile(dir + "/roster.yaml", roster_yaml);
  overlay::testing::WriteFile(dir + "/clip.yaml", clip_yaml);
  return std::make_shared<synth::ClipRenderer>(synth::LoadClipScript(dir + "/clip.yaml"));
}

}  // namespace vedette::pipeline::testing_clip
