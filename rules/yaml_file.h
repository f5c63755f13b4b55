#pragma once
// Reading a YAML data file so that every error names the file and the line (InputError).
#include <string>

#include <yaml-cpp/yaml.h>

namespace vedette {

// The 1-based line of a node, 0 when yaml-cpp has no mark for it (a node made in code).
inline int YamlLine(const YAML::Node& n) { return n.Mark().line >= 0 ? n.Mark().line + 1 : 0; }

// Reads and parses `path`, whose top level must be a mapping. `what` names the file for a person
// ("the states ruleset"). Throws InputError for a missing file, a YAML syntax error (with its line)
// or a top level that is not a mapping.
YAML::Node LoadYamlMapFile(const std::string& path, const std::string& what);

}  // namespace vedette
