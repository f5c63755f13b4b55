#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "rules/input_error.h"
#include "rules/ruleset.h"

namespace vedette {

#define VEDETTE_RULESET(name, factory) std::unique_ptr<Ruleset> factory(const RulesetOptions&);
#include "rules/rulesets.def"
#undef VEDETTE_RULESET

namespace {

struct Entry {
  const char* name;
  std::unique_ptr<Ruleset> (*make)(const RulesetOptions&);
};

const std::vector<Entry>& Registry() {
  static const std::vector<Entry> entries = {
#define VEDETTE_RULESET(name, factory) {name, &factory},
#include "rules/rulesets.def"
#undef VEDETTE_RULESET
  };
  return entries;
}

}  // namespace

std::vector<std::string> RulesetNames() {
  std::vector<std::string> names;
  for (const Entry& e : Registry()) names.push_back(e.name);
  return names;
}

std::unique_ptr<Ruleset> MakeRuleset(const std::string& name, const RulesetOptions& options) {
  for (const Entry& e : Registry()) {
    if (name != e.name) continue;
    std::unique_ptr<Ruleset> r = e.make(options);
    const std::vector<std::string> known = r->Info().settings;
    for (const std::string& key : options.strict_keys) {
      if (std::find(known.begin(), known.end(), key) != known.end()) continue;
      std::string list;
      for (const std::string& k : known) list += (list.empty() ? "" : ", ") + k;
      throw InputError("--set", 0, "ruleset " + name + " has no setting '" + key + "' (" +
                                       (known.empty() ? std::string("it has no settings") : "its settings: " + list) + ")");
    }
    return r;
  }
  std::string list;
  for (const Entry& e : Registry()) list += std::string(list.empty() ? "" : ", ") + e.name;
  throw InputError("--ruleset", 0, "unknown ruleset '" + name + "' (available: " + list + ")");
}

std::string AssetsDir() {
  namespace fs = std::filesystem;
  if (const char* env = std::getenv("VEDETTE_ASSETS"); env && *env) return env;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const fs::path installed = exe.parent_path().parent_path() / "share" / "vedette" / "assets";
    if (fs::exists(installed / "rulesets")) return installed.string();
  }
  return VEDETTE_ASSETS_DIR;
}

}  // namespace vedette
