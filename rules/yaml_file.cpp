#include "rules/yaml_file.h"

#include <fstream>
#include <sstream>

#include "rules/input_error.h"

namespace vedette {

YAML::Node LoadYamlMapFile(const std::string& path, const std::string& what) {
  std::ifstream in(path);
  if (!in) throw InputError(path, 0, "cannot open " + what + " file");
  std::stringstream ss;
  ss << in.rdbuf();
  YAML::Node root;
  try {
    root = YAML::Load(ss.str());
  } catch (const YAML::ParserException& e) {
    throw InputError(path, e.mark.line + 1, "YAML syntax: " + e.msg);
  }
  if (!root.IsMap()) throw InputError(path, 0, "the ruleset file must be a mapping");
  return root;
}

}  // namespace vedette
