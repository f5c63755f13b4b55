#include "rules/yaml_file.h"

#include <cmath>
#include <fstream>
#include <cstdio>
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

  // A Vedette file is one document. yaml-cpp also starts new, empty documents without end at a
  // token it cannot place (a ',' at the start of a line), never moving on: refused, not looped.
  void OnDocumentStart(const YAML::Mark& mark) override {
    if (++documents_ > 1 && mark.pos == first_document_pos_)
      throw InputError(source_, Line(mark), "YAML syntax: cannot be read past here (a ',' outside [ ] or { }?)");
    if (documents_ > 1)
      throw InputError(source_, Line(mark), "a second YAML document ('---'): a Vedette file is one document");
    first_document_pos_ = mark.pos;
  }
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
  int documents_ = 0;
  int first_document_pos_ = -1;  // where the first document started, in bytes
};

// Length of the UTF-8 sequence at text[i] (RFC 3629: no overlong forms, no surrogates, at most
// U+10FFFF), or 0 when the bytes there are not one.
size_t Utf8Length(const std::string& text, size_t i) {
  auto at = [&](size_t k) { return i + k < text.size() ? static_cast<unsigned char>(text[i + k]) : 0x100u; };
  auto cont = [&](size_t k, unsigned lo = 0x80, unsigned hi = 0xBF) { return at(k) >= lo && at(k) <= hi; };
  const unsigned c = at(0);
  if (c < 0x80) return 1;
  if (c >= 0xC2 && c <= 0xDF) return cont(1) ? 2 : 0;
  if (c == 0xE0) return cont(1, 0xA0) && cont(2) ? 3 : 0;
  if (c == 0xED) return cont(1, 0x80, 0x9F) && cont(2) ? 3 : 0;
  if (c >= 0xE1 && c <= 0xEF) return cont(1) && cont(2) ? 3 : 0;
  if (c == 0xF0) return cont(1, 0x90) && cont(2) && cont(3) ? 4 : 0;
  if (c >= 0xF1 && c <= 0xF3) return cont(1) && cont(2) && cont(3) ? 4 : 0;
  if (c == 0xF4) return cont(1, 0x80, 0x8F) && cont(2) && cont(3) ? 4 : 0;
  return 0;
}

// YAML is Unicode text: a byte that is not UTF-8 (a binary file, a Latin-1 editor) or a control
// character is refused at its line, before yaml-cpp passes it through into names that JSON and the
// screen cannot show.
void RequireUtf8(const std::string& text, const std::string& source) {
  int line = 1;
  for (size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (c == '\n') ++line;
    if (c == '\0') throw InputError(source, line, "a NUL byte: this is not a text file");
    // YAML 1.2 allows tab, line feed and carriage return among the C0 controls, and DEL nowhere
    // (yaml-cpp passes the others through into names its own reader then chokes on).
    if ((static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "0x%02X", static_cast<unsigned char>(c));
      throw InputError(source, line, std::string("control character ") + hex + " is not text: this is not a text file, or it was damaged");
    }
    const size_t n = Utf8Length(text, i);
    if (n == 0) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "0x%02X", static_cast<unsigned char>(c));
      throw InputError(source, line, std::string("byte ") + hex + " is not UTF-8 text: save the file as UTF-8");
    }
    i += n;
  }
}

}  // namespace

YAML::Node ParseYamlText(const std::string& text, const std::string& source, const YamlLimits& limits) {
  RequireUtf8(text, source);
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

YAML::Node RequireKey(const std::string& path, const YAML::Node& parent, const char* key) {
  // yaml-cpp throws its own BadSubscript for a key looked up in a scalar or a list.
  if (!parent.IsMap()) throw InputError(path, YamlLine(parent), std::string("expected a mapping holding '") + key + "'");
  const YAML::Node n = parent[key];
  if (!n) throw InputError(path, YamlLine(parent), std::string("missing '") + key + "'");
  return n;
}

std::string YamlText(const std::string& path, const YAML::Node& n, const std::string& what) {
  if (!n.IsScalar()) throw InputError(path, YamlLine(n), what + " must be a word or a phrase, not a list or a mapping");
  return n.Scalar();
}

double YamlNumber(const std::string& path, const YAML::Node& n, const std::string& what) {
  double v = 0;
  if (!n.IsScalar() || !YAML::convert<double>::decode(n, v) || !std::isfinite(v))
    throw InputError(path, YamlLine(n), what + " must be a number");
  return v;
}

int YamlInteger(const std::string& path, const YAML::Node& n, const std::string& what) {
  const double v = YamlNumber(path, n, what);
  if (v != std::floor(v) || std::abs(v) > 1e9) throw InputError(path, YamlLine(n), what + " must be a whole number");
  return static_cast<int>(v);
}

YAML::Node YamlMap(const std::string& path, const YAML::Node& n, const std::string& what) {
  if (!n.IsMap()) throw InputError(path, YamlLine(n), what + " must be a mapping (key: value, ...)");
  return n;
}

YAML::Node YamlList(const std::string& path, const YAML::Node& n, const std::string& what) {
  if (!n.IsSequence()) throw InputError(path, YamlLine(n), what + " must be a list");
  return n;
}

}  // namespace vedette
