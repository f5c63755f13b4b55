// Looking up a path a user gave never throws (rules/path_checks.h).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "rules/path_checks.h"
#include "tests/calibration/scoped_temp_dir.h"

namespace vedette {
namespace {

namespace fs = std::filesystem;

TEST(PathChecks, ThereOrNot) {
  const testing::ScopedTempDir dir("path_checks");
  std::ofstream(dir.File("file.txt")) << "x";
  EXPECT_TRUE(PathExists(dir.File("file.txt")));
  EXPECT_TRUE(IsRegularFile(dir.File("file.txt")));
  EXPECT_TRUE(PathExists(dir.str()));
  EXPECT_FALSE(IsRegularFile(dir.str()));
  EXPECT_FALSE(PathExists(dir.File("missing.txt")));
  EXPECT_FALSE(IsRegularFile(dir.File("missing.txt")));
}

TEST(PathChecks, NamesTheSystemCannotLookUpAreNotThereAndDoNotThrow) {
  const testing::ScopedTempDir dir("path_checks");
  std::ofstream(dir.File("file.txt")) << "x";
  const fs::path too_long_name = dir.File(std::string(600, 'D'));  // a component over 255 bytes
  fs::path too_long_path = dir.str();                               // 20 legal components, over 4096 bytes in all
  for (int i = 0; i < 20; ++i) too_long_path /= std::string(250, 'a' + i);
  const fs::path through_a_file = dir.File("file.txt/inside");     // a component that is a file
  // What the plain call does with the first two: the crash this header is for.
  EXPECT_THROW((void)fs::exists(too_long_name), fs::filesystem_error);
  EXPECT_THROW((void)fs::exists(too_long_path), fs::filesystem_error);
  for (const fs::path& p : {too_long_name, too_long_path, through_a_file}) {
    EXPECT_NO_THROW(EXPECT_FALSE(PathExists(p)));
    EXPECT_NO_THROW(EXPECT_FALSE(IsRegularFile(p)));
  }
}

}  // namespace
}  // namespace vedette
