// The event log reader (`vedette review`): read or refused at a line, never a crash.
#include <sstream>

#include "pipeline/event_log_reader.h"
#include "tests/fuzz/fuzz_input.h"

using namespace vedette;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::istringstream in(fuzz::Text(data, size));
  try {
    const pipeline::EventLogSummary s = pipeline::ReadEventLog(in, "fuzz.jsonl");
    fuzz::Require(s.frames >= 0 && s.last_frame >= -1 && s.lines >= 1, "counts from zero");
    fuzz::Require(s.header.is_object(), "a header was read");
  } catch (const InputError&) {
  }
  return 0;
}
