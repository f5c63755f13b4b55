#pragma once
// What every harness shares: the input as text, and the one exception a reader may throw.
// Anything else escaping a reader (YAML::Exception, cv::Exception, std::out_of_range, ...) is a
// bug the fuzzer reports as a crash: every bad file must end as an InputError naming its line.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <string>

#include "rules/input_error.h"

namespace vedette::fuzz {

inline std::string Text(const uint8_t* data, size_t size) { return std::string(reinterpret_cast<const char*>(data), size); }

// A property that must hold for every input: stop with a crash the fuzzer keeps.
inline void Require(bool ok, const char* what) {
  if (ok) return;
  std::fprintf(stderr, "property broken: %s\n", what);
  std::abort();
}

}  // namespace vedette::fuzz
