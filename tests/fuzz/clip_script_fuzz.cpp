// The clip script reader (synth/clip_script.h): the scripted synthetic videos `vedette clip` renders.
// Relative roster paths resolve in the shipped clips' folder, so the seeds load their rosters.
#include "synth/clip_script.h"
#include "tests/fuzz/fuzz_input.h"

using namespace vedette;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    const synth::ClipScript s = synth::ParseClipScript(fuzz::Text(data, size), "fuzz.clip.yaml", VEDETTE_FUZZ_CLIPS_DIR);
    fuzz::Require(s.fps > 0 && s.duration_s > 0, "a clip runs forward in time");
    fuzz::Require(s.FrameCount() >= 1, "a clip has a frame");
  } catch (const InputError&) {
  }
  return 0;
}
