#pragma once
// Small helpers shared by the calibration tests: paths to the real data, and a substring search over
// lists of messages (the sample roster is tests/app/run_command.h's kSampleRoster).
#include <string>
#include <vector>

namespace vedette::calib::testing {

// A file under tests/data/realdata (see tests/data/realdata/SOURCES.md).
inline std::string RealData(const std::string& name) { return std::string(VEDETTE_REALDATA) + "/" + name; }

// Whether any of `lines` contains `text`.
inline bool AnyHas(const std::vector<std::string>& lines, const std::string& text) {
  for (const std::string& l : lines)
    if (l.find(text) != std::string::npos) return true;
  return false;
}

}  // namespace vedette::calib::testing
