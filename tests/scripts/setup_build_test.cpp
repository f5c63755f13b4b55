// scripts/setup.sh's first run compiles the rules and the WebSocket server while the big packages
// install (a subset configured with VEDETTE_EARLY_LIBS_ONLY), then configures the whole in the same
// folder. That saves a minute only if the whole keeps the subset's objects: the same compile commands,
// the unity sources not rewritten. The test configures both ways in a folder of its own.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <map>
#include <string>

#include "tests/app/run_command.h"

namespace vedette::testing {
namespace {

namespace fs = std::filesystem;

std::string Configure(const fs::path& dir, const std::string& args) {
  const CommandResult r = RunShell("cmake -S " + std::string(VEDETTE_SOURCE_DIR) + " -B " + dir.string() +
                                   " -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo " + args);
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  return r.out;
}

std::string Ninja(const fs::path& dir, const std::string& args) {
  const CommandResult r = RunShell("ninja -C " + dir.string() + " " + args);
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  return r.out;
}

// Modification times of the rules' generated unity sources, in nanoseconds.
std::map<std::string, long long> UnitySourceTimes(const fs::path& dir) {
  std::map<std::string, long long> times;
  const fs::path unity = dir / "rules/CMakeFiles/vedette_rules.dir/Unity";
  if (!fs::exists(unity)) return times;
  for (const auto& e : fs::directory_iterator(unity)) {
    struct stat st {};
    if (::stat(e.path().c_str(), &st) == 0)
      times[e.path().filename().string()] = st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec;
  }
  return times;
}

TEST(SetupBuild, TheEarlySubsetNeedsNoOpenCvAndTheWholeKeepsItsObjects) {
  const fs::path dir = ProcessTempDir() / "early";
  Configure(dir, "-DVEDETTE_EARLY_LIBS_ONLY=ON");
  const std::string early_targets = Ninja(dir, "-t targets all");
  EXPECT_NE(early_targets.find("vedette_rules"), std::string::npos);
  EXPECT_NE(early_targets.find("vedette_ws_server"), std::string::npos);
  for (const char* later : {"vedette_vision", "vedette_calibration", "vedette_ui", "app/vedette"})
    EXPECT_EQ(early_targets.find(later), std::string::npos) << later << " is in the early subset";
  const std::string early_commands = Ninja(dir, "-t commands rules/libvedette_rules.a streams/libvedette_ws_server.a");
  const auto early_times = UnitySourceTimes(dir);
  ASSERT_FALSE(early_times.empty());
  // The server is small: built for real, then the whole must find it up to date.
  Ninja(dir, "streams/libvedette_ws_server.a");

  Configure(dir, "-DVEDETTE_EARLY_LIBS_ONLY=OFF -DVEDETTE_BUILD_TESTS=OFF -DVEDETTE_BUILD_BENCH=OFF");
  EXPECT_NE(Ninja(dir, "-t targets all").find("app/vedette"), std::string::npos);
  EXPECT_EQ(Ninja(dir, "-t commands rules/libvedette_rules.a streams/libvedette_ws_server.a"), early_commands)
      << "the whole compiles the subset differently: setup.sh's early compile would be thrown away";
  EXPECT_EQ(UnitySourceTimes(dir), early_times) << "the unity sources were rewritten";
  // Built for real: a dry run always re-runs CMake (it cannot re-check the globbed folders).
  const std::string again = Ninja(dir, "streams/libvedette_ws_server.a");
  EXPECT_EQ(again.find("Building CXX"), std::string::npos) << "the subset's server is compiled again:\n" << again;
}

}  // namespace
}  // namespace vedette::testing
