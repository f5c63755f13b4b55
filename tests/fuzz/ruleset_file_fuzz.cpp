// The ruleset files' readers (assets/rulesets/*.yaml): every input goes through all four, each of
// which must load it or throw InputError. The readers take a path, so the input is written to a file
// of this process's own first.
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "rules/fkoe/config.h"
#include "rules/kow/config.h"
#include "rules/states/config.h"
#include "rules/totsk/totsk_data.h"
#include "tests/fuzz/fuzz_input.h"

using namespace vedette;

namespace {

// This process's file, removed when it ends.
struct TempFile {
  std::string path = "/tmp/vedette_ruleset_file_fuzz_" + std::to_string(::getpid()) + ".yaml";
  ~TempFile() { std::remove(path.c_str()); }
};

template <class F>
void Reads(F read) {
  try {
    read();
  } catch (const InputError&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const TempFile file;
  const std::string& path = file.path;
  const std::string text = fuzz::Text(data, size);
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
  Reads([&] { kow::LoadKowConfig(path); });
  Reads([&] { fkoe::LoadFkoeConfig(path, {}); });
  Reads([&] { states::LoadStatesConfig(path); });
  Reads([&] { totsk::ParseTotskData(text, "fuzz_totsk.yaml"); });
  return 0;
}
