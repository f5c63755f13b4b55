// The For King or Empress ruleset file (assets/rulesets/fkoe.yaml, rules/fkoe/config.h): values of the
// wrong shape are refused naming the file, the line and the key.
#include <gtest/gtest.h>

#include "tests/rules/ruleset_file_util.h"

namespace vedette {
namespace {

using testing::ExpectRefused;

// These were bare yaml-cpp exceptions ("bad conversion", "invalid node"), exit status 1, no file named.
TEST(FkoeRulesetFile, ValuesOfTheWrongShapeNameTheLineAndTheKey) {
  for (const std::string bad : {"[x]", "{a: 1}"}) {
    ExpectRefused("fkoe", "title:", "title: " + bad, "title must be a word or a phrase");
    ExpectRefused("fkoe", "unit:", "unit: " + bad, "unit must be a word or a phrase");
    ExpectRefused("fkoe", "  long_range_hit:", "  long_range_hit: " + bad, "artillery.long_range_hit must be a word or a phrase");
  }
  ExpectRefused("fkoe", "  terrain: [steep", "  terrain: {a: 1}", "bad_going.terrain must be a list");
  ExpectRefused("fkoe", "  - \"General makes", "  - [bogus]", "turn_sequence entry must be a word or a phrase");
}

}  // namespace
}  // namespace vedette
