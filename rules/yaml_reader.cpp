#include "rules/yaml_reader.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>

#include "rules/input_error.h"

namespace vedette {

void YamlReader::Fail(const YAML::Node& at, const std::string& what) const { throw InputError(source_, LineOf(at), what); }

void YamlReader::ExpectMap(const YAML::Node& n, const std::string& what) const {
  if (!n.IsMap()) Fail(n, what + " must be a mapping ({key: value, ...})");
}

void YamlReader::ExpectKeys(const YAML::Node& n, const std::string& what, std::initializer_list<const char*> allowed) const {
  for (auto it = n.begin(); it != n.end(); ++it) {
    const std::string key = it->first.as<std::string>();
    if (std::none_of(allowed.begin(), allowed.end(), [&](const char* a) { return key == a; })) {
      std::string list;
      for (const char* a : allowed) list += std::string(list.empty() ? "" : ", ") + a;
      Fail(it->first, what + ": unknown field '" + key + "' (expected one of: " + list + ")");
    }
  }
}

YAML::Node YamlReader::Require(const YAML::Node& map, const char* key, const std::string& what) const {
  YAML::Node n = map[key];
  if (!n) Fail(map, what + ": missing field '" + key + "'");
  return n;
}

YAML::Node YamlReader::RequireMap(const YAML::Node& map, const char* key, const std::string& what) const {
  YAML::Node n = Require(map, key, what);
  if (!n.IsMap()) Fail(n, what + "." + key + " must be a mapping");
  return n;
}

double YamlReader::Finite(const YAML::Node& n, const std::string& what) const {
  if (!n.IsScalar()) Fail(n, what + " must be a number");
  double v = 0;
  try {
    v = n.as<double>();
  } catch (const YAML::Exception&) {
    Fail(n, what + " must be a number, got '" + n.Scalar() + "'");
  }
  if (!std::isfinite(v)) Fail(n, what + " must be a finite number, got '" + n.Scalar() + "'");
  return v;
}

double YamlReader::Number(const YAML::Node& n, const std::string& what) const {
  const double v = Finite(n, what);
  if (std::abs(v) > kMaxNumber) Fail(n, what + " must be within +-1e9, got " + n.Scalar());
  return v;
}

namespace {
std::string Plain(double v) {
  std::string s = std::to_string(v);
  while (!s.empty() && s.back() == '0') s.pop_back();
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s;
}
}  // namespace

double YamlReader::Within(const YAML::Node& n, const std::string& what, double lo, double hi, const char* unit) const {
  const double v = Finite(n, what);
  if (v < lo || v > hi)
    Fail(n, what + " must be between " + Plain(lo) + " and " + Plain(hi) + " " + unit + ", got " + n.Scalar());
  return v;
}

double YamlReader::Length(const YAML::Node& n, const std::string& what) const {
  return Within(n, what, -kMaxLengthMm, kMaxLengthMm, "mm (100 m)");
}

double YamlReader::PositiveLength(const YAML::Node& n, const std::string& what) const {
  const double v = Finite(n, what);
  if (v <= 0) Fail(n, what + " must be positive, got " + n.Scalar());
  if (v > kMaxLengthMm) Fail(n, what + " must be at most " + Plain(kMaxLengthMm) + " mm (100 m), got " + n.Scalar());
  return v;
}

double YamlReader::NonNegativeLength(const YAML::Node& n, const std::string& what) const {
  const double v = Finite(n, what);
  if (v < 0) Fail(n, what + " must not be negative, got " + n.Scalar());
  if (v > kMaxLengthMm) Fail(n, what + " must be at most " + Plain(kMaxLengthMm) + " mm (100 m), got " + n.Scalar());
  return v;
}

double YamlReader::Angle(const YAML::Node& n, const std::string& what) const {
  return Within(n, what, -kMaxAngleDeg, kMaxAngleDeg, "deg");
}

double YamlReader::Positive(const YAML::Node& n, const std::string& what) const {
  const double v = Number(n, what);
  if (v <= 0) Fail(n, what + " must be positive, got " + n.Scalar());
  return v;
}

double YamlReader::NonNegative(const YAML::Node& n, const std::string& what) const {
  const double v = Number(n, what);
  if (v < 0) Fail(n, what + " must not be negative, got " + n.Scalar());
  return v;
}

int YamlReader::Integer(const YAML::Node& n, const std::string& what) const {
  const double v = Number(n, what);
  if (v != std::floor(v) || std::abs(v) > 1e9) Fail(n, what + " must be a whole number, got " + n.Scalar());
  return static_cast<int>(v);
}

int YamlReader::Count(const YAML::Node& n, const std::string& what) const {
  const double v = Number(n, what);
  if (v != std::floor(v) || v < 0 || v > 1e6) Fail(n, what + " must be a whole number >= 0, got " + n.Scalar());
  return static_cast<int>(v);
}

std::string YamlReader::String(const YAML::Node& n, const std::string& what) const {
  if (!n.IsScalar() || n.Scalar().empty()) Fail(n, what + " must be a non-empty string");
  return n.Scalar();
}

geom::Vec2 YamlReader::Pair(const YAML::Node& n, const std::string& what) const {
  if (!n.IsSequence() || n.size() != 2) Fail(n, what + " must be a pair [x, y] in mm");
  return {Length(n[0], what + "[0]"), Length(n[1], what + "[1]")};
}

int YamlReader::IntegerField(const YAML::Node& map, const char* key, const std::string& what) const {
  return Integer(Require(map, key, what), what + "." + key);
}

double YamlReader::NonNegativeField(const YAML::Node& map, const char* key, const std::string& what) const {
  return NonNegative(Require(map, key, what), what + "." + key);
}

std::string YamlReader::StringField(const YAML::Node& map, const char* key, const std::string& what) const {
  return String(Require(map, key, what), what + "." + key);
}

nlohmann::json YamlReader::Json(const YAML::Node& n, const std::string& what) const {
  long values = 0;
  return Json(n, what, 0, &values);
}

nlohmann::json YamlReader::Json(const YAML::Node& n, const std::string& what, int depth, long* values) const {
  if (depth > kMaxJsonDepth) Fail(n, what + ": nested more than " + std::to_string(kMaxJsonDepth) + " deep");
  if (++*values > kMaxJsonValues) Fail(n, what + ": more than " + std::to_string(kMaxJsonValues) + " values");
  if (n.IsScalar()) {
    const std::string& s = n.Scalar();
    if (n.Tag() != "!") {  // plain (unquoted) scalars may be booleans or numbers
      if (s == "true" || s == "True" || s == "yes") return true;
      if (s == "false" || s == "False" || s == "no") return false;
      // strtod, not stod: a number too large for a double ("1e400") is HUGE_VAL here, not an
      // exception that would pass it on as a string.
      char* end = nullptr;
      const double v = s.empty() ? 0.0 : std::strtod(s.c_str(), &end);
      if (!s.empty() && end == s.c_str() + s.size() && !std::isspace(static_cast<unsigned char>(s[0]))) {
        if (!std::isfinite(v) || std::abs(v) > kMaxNumber) Fail(n, what + " must be a finite number within +-1e9, got " + s);
        return v;
      }
    }
    return s;
  }
  if (n.IsSequence()) {
    nlohmann::json arr = nlohmann::json::array();
    for (const auto& e : n) arr.push_back(Json(e, what, depth + 1, values));
    return arr;
  }
  if (n.IsMap()) {
    nlohmann::json obj = nlohmann::json::object();
    for (auto it = n.begin(); it != n.end(); ++it) obj[it->first.as<std::string>()] = Json(it->second, what, depth + 1, values);
    return obj;
  }
  return nullptr;
}

}  // namespace vedette
