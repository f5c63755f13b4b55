#pragma once
// Runs the built `vedette` binary for CLI tests: stdout, stderr and the exit status, separately.
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace vedette::testing {

struct CommandResult {
  int status = -1;  // exit status
  std::string out;  // stdout
  std::string err;  // stderr
};

inline std::string ReadFile(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// `args` is appended to the binary path as shell words (quote them yourself).
inline CommandResult RunVedette(const std::string& args) {
  static int counter = 0;
  const auto dir = std::filesystem::temp_directory_path();
  const std::string tag = std::to_string(::getpid()) + "_" + std::to_string(counter++);
  const auto out = dir / ("vedette_out_" + tag), err = dir / ("vedette_err_" + tag);
  const std::string cmd = std::string(VEDETTE_BINARY) + " " + args + " >" + out.string() + " 2>" + err.string();
  const int raw = std::system(cmd.c_str());
  CommandResult r;
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  r.out = ReadFile(out);
  r.err = ReadFile(err);
  std::filesystem::remove(out);
  std::filesystem::remove(err);
  return r;
}

}  // namespace vedette::testing
