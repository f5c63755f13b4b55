// The roster reader: a scene without poses, its markers checked against the dictionary.
#include "calibration/roster.h"
#include "tests/fuzz/fuzz_input.h"

using namespace vedette;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    const Scene roster = calib::ParseRoster(fuzz::Text(data, size), "fuzz_roster.yaml");
    for (const Unit& u : roster.units) fuzz::Require(!u.pose.has_value(), "a roster's units have no pose");
  } catch (const InputError&) {
  }
  return 0;
}
