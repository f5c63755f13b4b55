#include "rules/states/config.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>

#include "rules/input_error.h"
#include "rules/yaml_file.h"
#include "rules/scene/scene.h"

namespace vedette::states {

namespace {

// The states ruleset file's sections; every error names the file and the line.
class StatesFileReader {
 public:
  explicit StatesFileReader(const std::string& path) : path_(path) {}
  YAML::Node Need(const YAML::Node& parent, const char* key) const { return RequireKey(path_, parent, key); }
  std::string Text(const YAML::Node& n, const std::string& what) const { return YamlText(path_, n, what); }
  YAML::Node Map(const YAML::Node& n, const std::string& what) const { return YamlMap(path_, n, what); }
  YAML::Node List(const YAML::Node& n, const std::string& what) const { return YamlList(path_, n, what); }
  // One of the states listed for unit type t (states: comes first in the file).
  std::string State(const StatesConfig& c, const std::string& t, const YAML::Node& n, const std::string& what) const {
    const std::string s = Text(n, what);
    const auto listed = c.states.find(t);
    if (listed == c.states.end() || std::find(listed->second.begin(), listed->second.end(), s) == listed->second.end())
      throw InputError(path_, YamlLine(n), what + ": '" + s + "' is not one of " + t + "'s states (states." + t + ")");
    return s;
  }
  std::string UnitTypeOf(const YAML::Node& n) const {
    const std::string t = Text(n, "a unit type");
    if (!ParseUnitType(t)) throw InputError(path_, YamlLine(n), "unknown unit type '" + t + "'");
    return t;
  }
  void StatesAndMarkers(const YAML::Node& root, StatesConfig* c) const;
  void Tokens(const YAML::Node& root, StatesConfig* c) const;
  void EffectsAndPassThrough(const YAML::Node& root, StatesConfig* c) const;
  void MoraleCheck(const YAML::Node& root, StatesConfig* c) const;

 private:
  const std::string& path_;
};

void StatesFileReader::StatesAndMarkers(const YAML::Node& root, StatesConfig* c) const {
  const YAML::Node st = Map(Need(root, "states"), "states");
  for (auto it = st.begin(); it != st.end(); ++it) {
    const std::string t = UnitTypeOf(it->first);
    // A copy: yaml-cpp's iterator hands out a proxy that dies at the end of the expression.
    const YAML::Node list = List(it->second, "states." + t);
    for (const auto& s : list) c->states[t].push_back(Text(s, "states." + t + " entry"));
    if (c->states[t].empty()) throw InputError(path_, YamlLine(it->second), "states." + t + " must list at least one state");
  }
  const YAML::Node mk = Map(Need(root, "markers"), "markers");
  for (auto it = mk.begin(); it != mk.end(); ++it) {
    const std::string marker = Text(it->first, "markers key");
    const YAML::Node types = List(it->second, "markers." + marker);
    for (const auto& t : types) c->markers[marker].insert(UnitTypeOf(t));
  }
}

void StatesFileReader::Tokens(const YAML::Node& root, StatesConfig* c) const {
  const YAML::Node tk = Need(root, "tokens");
  c->token_max_distance_mm = YamlNumber(path_, Need(tk, "max_distance_mm"), "tokens.max_distance_mm");
  if (!(c->token_max_distance_mm > 0)) throw InputError(path_, YamlLine(tk["max_distance_mm"]), "tokens.max_distance_mm must be positive");
  const YAML::Node ids = Map(Need(tk, "ids"), "tokens.ids");
  for (auto it = ids.begin(); it != ids.end(); ++it) {
    const std::string meaning = Text(it->second, "tokens.ids entry");
    bool known = c->markers.count(meaning) > 0;
    for (const auto& [t, list] : c->states) known |= std::find(list.begin(), list.end(), meaning) != list.end();
    if (!known) throw InputError(path_, YamlLine(it->second), "tokens.ids: '" + meaning + "' is neither a state nor a marker");
    c->token_ids[YamlInteger(path_, it->first, "tokens.ids key (a marker ID)")] = meaning;
  }
}

void StatesFileReader::EffectsAndPassThrough(const YAML::Node& root, StatesConfig* c) const {
  const YAML::Node ef = Map(Need(root, "effects"), "effects");
  for (auto it = ef.begin(); it != ef.end(); ++it) {
    const std::string name = Text(it->first, "effects key");
    const YAML::Node list = List(it->second, "effects." + name);
    for (const auto& e : list)
      c->effects[name].push_back({Text(Need(e, "what"), "effects." + name + ".what"),
                                  YamlInteger(path_, Need(e, "value"), "effects." + name + ".value"),
                                  Text(Need(e, "rule"), "effects." + name + ".rule")});
  }
  const YAML::Node pt = Map(Need(root, "pass_through"), "pass_through");
  for (auto it = pt.begin(); it != pt.end(); ++it) {
    const std::string key = Text(it->first, "pass_through key");
    if (key == "min_overlap_mm2") {
      c->pass_through_min_overlap_mm2 = YamlNumber(path_, it->second, "pass_through.min_overlap_mm2");
      if (c->pass_through_min_overlap_mm2 < 0)
        throw InputError(path_, YamlLine(it->second), "pass_through.min_overlap_mm2 must be 0 or more (mm^2)");
      continue;
    }
    const std::string t = UnitTypeOf(it->first);
    const YAML::Node rules = Map(it->second, "pass_through." + t);
    for (auto s = rules.begin(); s != rules.end(); ++s) {
      const std::string from = State(*c, t, s->first, "pass_through." + t + " key");
      c->pass_through[t][from] = State(*c, t, s->second, "pass_through." + t + " entry");
    }
  }
}

void StatesFileReader::MoraleCheck(const YAML::Node& root, StatesConfig* c) const {
  const YAML::Node mc = Need(root, "morale_check");
  for (const auto& t : List(Need(mc, "built_up_area"), "morale_check.built_up_area")) {
    const std::string s = Text(t, "morale_check.built_up_area entry");
    if (!FindTerrainKind(s)) throw InputError(path_, YamlLine(t), "morale_check.built_up_area: unknown terrain type '" + s + "'");
    c->built_up_terrain.insert(s);
  }
  c->built_up_share = YamlNumber(path_, Need(mc, "built_up_share"), "morale_check.built_up_share");
  if (!(c->built_up_share > 0 && c->built_up_share <= 1))
    throw InputError(path_, YamlLine(mc["built_up_share"]), "morale_check.built_up_share must be in (0, 1]");
  c->faster_tag = Text(Need(mc, "veteran_tag"), "morale_check.veteran_tag");
  c->slower_tag = Text(Need(mc, "raw_tag"), "morale_check.raw_tag");
}

}  // namespace

StatesConfig LoadStatesConfig(const std::string& path) {
  const YAML::Node root = LoadYamlMapFile(path, "the states ruleset");
  const StatesFileReader r(path);
  StatesConfig c;
  try {
    c.title = r.Text(r.Need(root, "title"), "title");
    c.mm_per_unit = YamlNumber(path, r.Need(root, "mm_per_unit"), "mm_per_unit");
    if (!(c.mm_per_unit > 0)) throw InputError(path, YamlLine(root["mm_per_unit"]), "mm_per_unit must be positive");
    r.StatesAndMarkers(root, &c);
    r.Tokens(root, &c);
    r.EffectsAndPassThrough(root, &c);
    r.MoraleCheck(root, &c);
  } catch (const YAML::Exception& e) {
    throw InputError(path, e.mark.line + 1, e.msg);
  }
  return c;
}

}  // namespace vedette::states
