#pragma once
// Whether a path a user gave names something, without throwing. std::filesystem::exists and
// is_regular_file throw filesystem_error for a name the system cannot look up at all (a component
// longer than 255 bytes, a path longer than 4096): that escaped as a crash where "file not found",
// naming the file, was the answer (found by the roster fuzzer: a 600-character `dictionary:`).
#include <filesystem>
#include <string>

namespace vedette {

inline bool PathExists(const std::filesystem::path& path) {
  std::error_code ec;
  return std::filesystem::exists(path, ec) && !ec;
}

inline bool IsRegularFile(const std::filesystem::path& path) {
  std::error_code ec;
  return std::filesystem::is_regular_file(path, ec) && !ec;
}

}  // namespace vedette
