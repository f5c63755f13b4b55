// The Kings of War ruleset file (assets/rulesets/kow.yaml, rules/kow/config.h): a value of the wrong
// shape is refused naming the file, its line and the key, never passed on as a bare YAML exception or
// read as nothing.
#include <gtest/gtest.h>

#include "rules/kow/config.h"
#include "tests/rules/ruleset_file_util.h"

namespace vedette {
namespace {

using testing::ExpectRefused;

TEST(KowRulesetFile, TheShippedFileLoads) {
  const kow::KowConfig c = kow::LoadKowConfig(AssetsDir() + "/rulesets/kow.yaml");
  EXPECT_EQ(c.unit_name, "in");
  EXPECT_DOUBLE_EQ(c.mm_per_unit, 25.4);
  EXPECT_FALSE(c.heights.empty());
  EXPECT_EQ(c.terrain_heights.at("woods"), 4);
}

// These were "yaml-cpp: error at line 5, column 8: bad conversion", exit status 1, no file named.
TEST(KowRulesetFile, AListOrMappingWhereAWordBelongsNamesTheLineAndTheKey) {
  for (const std::string bad : {"[x]", "{a: 1}"}) {
    ExpectRefused("kow", "title:", "title: " + bad, "title must be a word or a phrase");
    ExpectRefused("kow", "unit:", "unit: " + bad, "unit must be a word or a phrase");
  }
}

// `heights: abc` under terrain was read as no heights at all (and a list as a bare YAML exception).
TEST(KowRulesetFile, TerrainHeightsThatAreNotAMappingAreRefused) {
  for (const std::string bad : {"abc", "-1", "0", "[x]"})
    ExpectRefused("kow", "  heights: {wall", "  heights: " + bad, "terrain.heights must be a mapping of terrain types to numbers");
  ExpectRefused("kow", "  heights: {wall", "  heights: {wall: 1, moat: 2}", "terrain.heights: unknown terrain type 'moat'");
}

}  // namespace
}  // namespace vedette
