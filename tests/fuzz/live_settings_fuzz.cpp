// The live window's settings file (live.ini): never refused (a bad line is skipped), and what is
// read is always usable: a text size in 0.6..3 and finite, positive view zooms and centres.
#include <cmath>

#include "tests/fuzz/fuzz_input.h"
#include "ui/live_settings.h"

using namespace vedette;

namespace {
bool Usable(const ui::ViewState& v) {
  return !v.centred || (std::isfinite(v.zoom) && v.zoom > 0 && std::isfinite(v.centre.x) && std::isfinite(v.centre.y));
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const ui::LiveSettings s = ui::ParseLiveSettings(fuzz::Text(data, size));
  fuzz::Require(s.text_size >= 0.6 && s.text_size <= 3.0, "text size within 0.6..3");
  fuzz::Require(Usable(s.camera_view) && Usable(s.table_view), "views with a finite positive zoom and a finite centre");
  return 0;
}
