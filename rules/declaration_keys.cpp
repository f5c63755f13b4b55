#include "rules/declaration_keys.h"

#include <algorithm>

#include "rules/input_error.h"

namespace vedette {

const std::vector<std::string>& CommonDeclarationKeys() {
  static const std::vector<std::string> keys = {"state", "routed", "firing", "limbered"};
  return keys;
}

void CheckDeclarationKeys(const Scene& scene, const std::string& ruleset, const std::vector<std::string>& keys) {
  std::vector<std::string> all = keys;
  for (const std::string& k : CommonDeclarationKeys())
    if (std::find(all.begin(), all.end(), k) == all.end()) all.push_back(k);
  for (const auto& [unit, values] : scene.declarations.units) {
    for (const auto& [key, declared] : values) {
      if (std::find(all.begin(), all.end(), key) != all.end()) continue;
      std::string list;
      for (const std::string& k : all) list += (list.empty() ? "" : ", ") + k;
      throw InputError(scene.source, declared.line,
                       "declarations: " + unit + "." + key + " is not something the " + ruleset + " ruleset reads (it reads: " + list + ")");
    }
  }
}

}  // namespace vedette
