#pragma once
// A JSON Schema (2020-12) validator for the subset docs/stream.schema.json uses: $ref (within the
// document), type, const, enum, properties, required, additionalProperties, items, minItems,
// maxItems, minimum, maximum, pattern, oneOf, anyOf. A keyword outside the subset is an error, so
// the schema cannot silently say more than the tests check.
#include <regex>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

namespace vedette::testing {

class JsonSchema {
 public:
  explicit JsonSchema(nlohmann::json root) : root_(std::move(root)) {}

  // "" when `value` is valid against the schema at `pointer` ("" = the root), else the first
  // reason it is not, with the path into the value.
  std::string Validate(const nlohmann::json& value, const std::string& pointer = "") const {
    return Check(value, pointer.empty() ? root_ : root_.at(nlohmann::json::json_pointer(pointer)), "$");
  }

 private:
  static bool HasType(const nlohmann::json& v, const std::string& t) {
    if (t == "object") return v.is_object();
    if (t == "array") return v.is_array();
    if (t == "string") return v.is_string();
    if (t == "boolean") return v.is_boolean();
    if (t == "null") return v.is_null();
    if (t == "number") return v.is_number();
    if (t == "integer") return v.is_number_integer() || (v.is_number_float() && v.get<double>() == static_cast<long long>(v.get<double>()));
    return false;
  }

  std::string Check(const nlohmann::json& v, const nlohmann::json& s, const std::string& at) const {
    static const std::set<std::string> kKnown = {"$schema", "$id", "title", "description", "$defs", "$ref", "type", "const",
                                                 "enum", "properties", "required", "additionalProperties", "items", "minItems",
                                                 "maxItems", "minimum", "maximum", "pattern", "oneOf", "anyOf"};
    for (const auto& [k, _] : s.items())
      if (!kKnown.count(k)) return "schema keyword '" + k + "' is not supported by the test's validator";
    if (s.contains("$ref")) {
      const std::string ref = s["$ref"];
      if (ref.rfind("#", 0) != 0) return "only local $ref";
      if (auto e = Check(v, root_.at(nlohmann::json::json_pointer(ref.substr(1))), at); !e.empty()) return e;
    }
    if (s.contains("type")) {
      bool ok = false;
      if (s["type"].is_string()) ok = HasType(v, s["type"]);
      else for (const auto& t : s["type"]) ok = ok || HasType(v, t);
      if (!ok) return at + ": " + v.dump().substr(0, 80) + " is not of type " + s["type"].dump();
    }
    if (s.contains("const") && v != s["const"]) return at + ": " + v.dump().substr(0, 80) + " is not " + s["const"].dump();
    if (s.contains("enum") && std::find(s["enum"].begin(), s["enum"].end(), v) == s["enum"].end())
      return at + ": " + v.dump().substr(0, 80) + " is not one of " + s["enum"].dump();
    if (v.is_number()) {
      if (s.contains("minimum") && v.get<double>() < s["minimum"].get<double>()) return at + ": below the minimum";
      if (s.contains("maximum") && v.get<double>() > s["maximum"].get<double>()) return at + ": above the maximum";
    }
    if (v.is_string() && s.contains("pattern") && !std::regex_search(v.get<std::string>(), std::regex(s["pattern"].get<std::string>())))
      return at + ": '" + v.get<std::string>() + "' does not match " + s["pattern"].get<std::string>();
    if (v.is_object()) {
      if (s.contains("required"))
        for (const auto& r : s["required"])
          if (!v.contains(r.get<std::string>())) return at + ": missing '" + r.get<std::string>() + "'";
      for (const auto& [k, item] : v.items()) {
        if (s.contains("properties") && s["properties"].contains(k)) {
          if (auto e = Check(item, s["properties"][k], at + "." + k); !e.empty()) return e;
        } else if (s.contains("additionalProperties")) {
          const auto& ap = s["additionalProperties"];
          if (ap.is_boolean() && !ap.get<bool>()) return at + ": unexpected property '" + k + "'";
          if (ap.is_object())
            if (auto e = Check(item, ap, at + "." + k); !e.empty()) return e;
        }
      }
    }
    if (v.is_array()) {
      if (s.contains("minItems") && v.size() < s["minItems"].get<size_t>()) return at + ": too few items";
      if (s.contains("maxItems") && v.size() > s["maxItems"].get<size_t>()) return at + ": too many items";
      if (s.contains("items"))
        for (size_t i = 0; i < v.size(); ++i)
          if (auto e = Check(v[i], s["items"], at + "[" + std::to_string(i) + "]"); !e.empty()) return e;
    }
    if (s.contains("oneOf")) {
      int matched = 0;
      std::string reasons;
      for (const auto& sub : s["oneOf"]) {
        const std::string e = Check(v, sub, at);
        if (e.empty()) ++matched;
        else reasons += "\n    " + e;
      }
      if (matched != 1) return at + ": matches " + std::to_string(matched) + " of oneOf, not 1" + (matched ? "" : reasons);
    }
    if (s.contains("anyOf")) {
      bool any = false;
      for (const auto& sub : s["anyOf"]) any = any || Check(v, sub, at).empty();
      if (!any) return at + ": matches none of anyOf";
    }
    return "";
  }

  nlohmann::json root_;
};

}  // namespace vedette::testing
