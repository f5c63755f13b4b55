#include "rules/yaml_file.h"

#include <fstream>
#include <sstream>

#include <yaml-cpp/eventhandler.h>

#include "rules/input_error.h"

namespace vedette {

namespace {

// Walks the parser's events (no tree is built, aliases are not followed) and stops at the first
// thing the limits refuse.
class LimitChecker : public YAML::EventHandler {
 public:
  LimitChecker(const YamlLimits& limits, const std::string& source) : limits_(limits), source_(source) {}

  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& mark, YAML::anchor_t) override { Count(mark); }
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t) override {
    if (!limits_.allow_aliases)
      throw InputError(source_, Line(mark),
                       "YAML aliases (*name) are not accepted: write the value out in full where it is used");
    Count(mark);
  }
  void OnScalar(const YAML::Mark& mark, const std::string&, YAML::anchor_t, const std::string&) override { Count(mark); }
  void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    Open(mark);
  }
  void OnSequenceEnd() override { --depth_; }
  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    Open(mark);
  }
  void OnMapEnd() override { --depth_; }

 private:
  static int Line(const YAML::Mark& m) { return m.line >= 0 ? m.line + 1 : 0; }
  void Count(const YAML::Mark& mark) {
    if (++nodes_ > limits_.max_nodes)
      throw InputError(source_, Line(mark),
                       "more than " + std::to_string(limits_.max_nodes) + " YAML values: this is not a Vedette file");
  }
  void Open(const YAML::Mark& mark) {
    Count(mark);
    if (++depth_ > limits_.max_depth)
      throw InputError(source_, Line(mark),
                       "lists and mappings nested more than " + std::to_string(limits_.max_depth) + " deep");
  }

  const YamlLimits& limits_;
  const std::string& source_;
  int depth_ = 0;
  long nodes_ = 0;
};

}  // namespace

YAML::Node ParseYamlText(const std::string& text, const std::string& source, const YamlLimits& limits) {
  try {
    std::istringstream in(text);
    YAML::Parser parser(in);
    LimitChecker checker(limits, source);
    while (parser.HandleNextDocument(checker)) {
    }
    return YAML::Load(text);
  } catch (const YAML::ParserException& e) {
    throw InputError(source, e.mark.line >= 0 ? e.mark.line + 1 : 0, "YAML syntax: " + e.msg);
  } catch (const YAML::Exception& e) {
    throw InputError(source, e.mark.line >= 0 ? e.mark.line + 1 : 0, "YAML: " + e.msg);
  }
}

YAML::Node LoadYamlMapFile(const std::string& path, const std::string& what) {
  std::ifstream in(path);
  if (!in) throw InputError(path, 0, "cannot open " + what + " file");
  std::stringstream ss;
  ss << in.rdbuf();
  const YAML::Node root = ParseYamlText(ss.str(), path);
  if (!root.IsMap()) throw InputError(path, 0, "the ruleset file must be a mapping");
  return root;
}

}  // namespace vedette
