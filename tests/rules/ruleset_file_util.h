#pragma once
// A shipped ruleset file with one line replaced, in an assets folder of its own: how the rulesets'
// file readers are tested on values of the wrong shape (each error must name the file and the line).
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "rules/input_error.h"
#include "rules/ruleset.h"

namespace vedette::testing {

struct EditedRulesetFile {
  std::string assets_dir;  // holds rulesets/<ruleset>.yaml only
  std::string path;        // that file
  int line = 0;            // the replaced line, 1-based
};

// rulesets/<ruleset>.yaml as shipped, with the first line that starts with `line_start` replaced by
// `with` ("" deletes it), written under a temporary folder named after `tag`.
inline EditedRulesetFile EditRulesetFile(const std::string& ruleset, const std::string& line_start, const std::string& with,
                                         const std::string& tag) {
  std::ifstream in(AssetsDir() + "/rulesets/" + ruleset + ".yaml");
  std::stringstream text;
  text << in.rdbuf();
  std::string yaml = text.str();
  EditedRulesetFile out;
  const size_t at = yaml.find("\n" + line_start);
  EXPECT_NE(at, std::string::npos) << ruleset << ".yaml has no line starting '" << line_start << "'";
  if (at == std::string::npos) return out;
  const size_t end = yaml.find('\n', at + 1);
  out.line = static_cast<int>(std::count(yaml.begin(), yaml.begin() + static_cast<long>(at) + 1, '\n')) + 1;
  if (with.empty()) yaml.erase(at, end - at);
  else yaml.replace(at + 1, end - at - 1, with);
  // ctest runs tests side by side: each edit gets a folder of its own process and number.
  static int edits = 0;
  out.assets_dir = ::testing::TempDir() + "ruleset_file_" + tag + "_" + std::to_string(::getpid()) + "_" + std::to_string(++edits);
  std::filesystem::create_directories(out.assets_dir + "/rulesets");
  out.path = out.assets_dir + "/rulesets/" + ruleset + ".yaml";
  std::ofstream(out.path) << yaml;
  return out;
}

// MakeRuleset's InputError message on the edited file ("" when it loads).
inline std::string RulesetFileError(const std::string& ruleset, const EditedRulesetFile& f) {
  RulesetOptions o;
  o.assets_dir = f.assets_dir;
  try {
    MakeRuleset(ruleset, o);
    return "";
  } catch (const InputError& e) {
    return e.what();
  }
}

// The error for one edit, checked to name the file and the replaced line before `message`.
inline void ExpectRefused(const std::string& ruleset, const std::string& line_start, const std::string& with,
                          const std::string& message) {
  const EditedRulesetFile f = EditRulesetFile(ruleset, line_start, with, ruleset);
  const std::string what = RulesetFileError(ruleset, f);
  EXPECT_NE(what.find(f.path + ":" + std::to_string(f.line) + ": " + message), std::string::npos)
      << "'" << with << "' for '" << line_start << "': " << what;
  if (!f.assets_dir.empty()) std::filesystem::remove_all(f.assets_dir);
}

}  // namespace vedette::testing
