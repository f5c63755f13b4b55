#pragma once
// Reading a YAML data file so that every error names the file and the line (InputError).
#include <string>

#include <yaml-cpp/yaml.h>

namespace vedette {

// The 1-based line of a node, 0 when yaml-cpp has no mark for it (a node made in code).
inline int YamlLine(const YAML::Node& n) { return n.Mark().line >= 0 ? n.Mark().line + 1 : 0; }

// What a YAML text may hold before it is even read as a tree. A few hundred bytes of nested
// aliases ("billion laughs") expand to billions of nodes for anything that walks the tree, and
// deep nesting exhausts the stack: neither has a use in Vedette's files, so both are refused.
struct YamlLimits {
  int max_depth = 64;            // nested mappings and sequences
  long max_nodes = 1'000'000;    // scalars, mappings and sequences in the whole text
  bool allow_aliases = false;    // *name references to &name anchors
};

// Parses `text` (one document) after checking it against `limits`. Throws InputError naming
// `source` and the line: YAML syntax, an alias, nesting deeper than the limit, too many nodes.
YAML::Node ParseYamlText(const std::string& text, const std::string& source, const YamlLimits& limits = {});

// Reads and parses `path` (through ParseYamlText), whose top level must be a mapping. `what` names
// the file for a person ("the states ruleset"). Throws InputError for a missing file, a YAML syntax
// error (with its line) or a top level that is not a mapping.
YAML::Node LoadYamlMapFile(const std::string& path, const std::string& what);

// parent[key], or InputError naming `path`, the parent's line and "missing 'key'".
YAML::Node RequireKey(const std::string& path, const YAML::Node& parent, const char* key);

// A value of the shape a reader expects, or InputError naming `path`, the node's line and `what` (the
// key as the file spells it, "heights.infantry"): yaml-cpp's own exceptions name no file, and a list
// iterated as a mapping reads as nothing at all. The nodes come back by value (a node is a handle):
// `for (auto& e : YamlList(path, parent[key], ...))` must not iterate a reference to a temporary.
std::string YamlText(const std::string& path, const YAML::Node& n, const std::string& what);  // a scalar
double YamlNumber(const std::string& path, const YAML::Node& n, const std::string& what);     // finite
int YamlInteger(const std::string& path, const YAML::Node& n, const std::string& what);       // whole
YAML::Node YamlMap(const std::string& path, const YAML::Node& n, const std::string& what);
YAML::Node YamlList(const std::string& path, const YAML::Node& n, const std::string& what);

}  // namespace vedette
