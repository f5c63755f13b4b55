#pragma once
// Reading a YAML tree so that every error is an InputError naming the file and the line of the
// node at fault. Scene files, clip scripts and ruleset data files all read through this one class,
// so a player sees the same kind of message whichever file is wrong.
#include <initializer_list>
#include <string>

#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

#include "rules/geometry/vec.h"
#include "rules/yaml_file.h"

namespace vedette {

class YamlReader {
 public:
  // source: the file name (or "FILE (block)") every error starts with.
  explicit YamlReader(std::string source) : source_(std::move(source)) {}
  const std::string& source() const { return source_; }

  // The 1-based line of a node, 0 when yaml-cpp has no mark for it (a node made in code).
  static int LineOf(const YAML::Node& n) { return YamlLine(n); }
  [[noreturn]] void Fail(const YAML::Node& at, const std::string& what) const;

  void ExpectMap(const YAML::Node& n, const std::string& what) const;
  // Fails on the first key not in `allowed`, listing the allowed ones.
  void ExpectKeys(const YAML::Node& n, const std::string& what, std::initializer_list<const char*> allowed) const;
  YAML::Node Require(const YAML::Node& map, const char* key, const std::string& what) const;
  // map[key], which must exist and be a mapping.
  YAML::Node RequireMap(const YAML::Node& map, const char* key, const std::string& what) const;

  // Numbers larger than these are typing mistakes or attacks (1e308 mm turns into "inf mm" the
  // moment it is squared), refused at load with the limit in the message.
  static constexpr double kMaxNumber = 1e9;        // any number
  static constexpr double kMaxLengthMm = 100'000;  // positions and sizes on a table: +-100 m
  static constexpr double kMaxAngleDeg = 3600;     // headings: ten turns either way

  double Number(const YAML::Node& n, const std::string& what) const;       // finite, |v| <= kMaxNumber
  double Positive(const YAML::Node& n, const std::string& what) const;     // > 0
  double NonNegative(const YAML::Node& n, const std::string& what) const;  // >= 0
  int Integer(const YAML::Node& n, const std::string& what) const;         // whole, |v| <= 1e9
  int Count(const YAML::Node& n, const std::string& what) const;           // whole, 0..1e6
  std::string String(const YAML::Node& n, const std::string& what) const; // non-empty scalar
  double Length(const YAML::Node& n, const std::string& what) const;           // mm, |v| <= kMaxLengthMm
  double PositiveLength(const YAML::Node& n, const std::string& what) const;   // mm, 0 < v <= kMaxLengthMm
  double NonNegativeLength(const YAML::Node& n, const std::string& what) const;  // mm, 0 <= v <= kMaxLengthMm
  double Angle(const YAML::Node& n, const std::string& what) const;            // deg, |v| <= kMaxAngleDeg
  geom::Vec2 Pair(const YAML::Node& n, const std::string& what) const;     // [x, y], mm, each a Length
  // The same for a required field map[key]; errors name it "what.key".
  int IntegerField(const YAML::Node& map, const char* key, const std::string& what) const;
  double NonNegativeField(const YAML::Node& map, const char* key, const std::string& what) const;
  std::string StringField(const YAML::Node& map, const char* key, const std::string& what) const;

  // A YAML value as JSON: plain scalars that read as booleans or numbers become those, quoted ones
  // stay strings. At most kMaxJsonDepth levels and kMaxJsonValues values (a declaration is a
  // handful of values; the limits keep a hostile file from walking a tree without end).
  static constexpr int kMaxJsonDepth = 16;
  static constexpr long kMaxJsonValues = 10'000;
  nlohmann::json Json(const YAML::Node& n, const std::string& what) const;

 private:
  nlohmann::json Json(const YAML::Node& n, const std::string& what, int depth, long* values) const;
  double Finite(const YAML::Node& n, const std::string& what) const;
  double Within(const YAML::Node& n, const std::string& what, double lo, double hi, const char* unit) const;
  std::string source_;
};

}  // namespace vedette
