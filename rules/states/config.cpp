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
  std::string UnitTypeOf(const YAML::Node& n) const {
    const std::string t = n.as<std::string>();
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
  const YAML::Node st = Need(root, "states");
  for (auto it = st.begin(); it != st.end(); ++it) {
    const std::string t = UnitTypeOf(it->first);
    // A copy: yaml-cpp's iterator hands out a proxy that dies at the end of the expression.
    const YAML::Node list = it->second;
    for (const auto& s : list) c->states[t].push_back(s.as<std::string>());
    if (c->states[t].empty()) throw InputError(path_, YamlLine(it->second), "states." + t + " must list at least one state");
  }
  const YAML::Node mk = Need(root, "markers");
  for (auto it = mk.begin(); it != mk.end(); ++it) {
    const YAML::Node types = it->second;
    for (const auto& t : types) c->markers[it->first.as<std::string>()].insert(UnitTypeOf(t));
  }
}

void StatesFileReader::Tokens(const YAML::Node& root, StatesConfig* c) const {
  const YAML::Node tk = Need(root, "tokens");
  c->token_max_distance_mm = Need(tk, "max_distance_mm").as<double>();
  if (!(c->token_max_distance_mm > 0)) throw InputError(path_, YamlLine(tk["max_distance_mm"]), "tokens.max_distance_mm must be positive");
  const YAML::Node ids = Need(tk, "ids");
  for (auto it = ids.begin(); it != ids.end(); ++it) {
    const std::string meaning = it->second.as<std::string>();
    bool known = c->markers.count(meaning) > 0;
    for (const auto& [t, list] : c->states) known |= std::find(list.begin(), list.end(), meaning) != list.end();
    if (!known) throw InputError(path_, YamlLine(it->second), "tokens.ids: '" + meaning + "' is neither a state nor a marker");
    c->token_ids[it->first.as<int>()] = meaning;
  }
}

void StatesFileReader::EffectsAndPassThrough(const YAML::Node& root, StatesConfig* c) const {
  const YAML::Node ef = Need(root, "effects");
  for (auto it = ef.begin(); it != ef.end(); ++it) {
    const YAML::Node list = it->second;
    for (const auto& e : list)
      c->effects[it->first.as<std::string>()].push_back({Need(e, "what").as<std::string>(), Need(e, "value").as<int>(),
                                                        Need(e, "rule").as<std::string>()});
  }
  const YAML::Node pt = Need(root, "pass_through");
  for (auto it = pt.begin(); it != pt.end(); ++it) {
    const std::string key = it->first.as<std::string>();
    if (key == "min_overlap_mm2") {
      c->pass_through_min_overlap_mm2 = it->second.as<double>();
      continue;
    }
    const std::string t = UnitTypeOf(it->first);
    for (auto s = it->second.begin(); s != it->second.end(); ++s)
      c->pass_through[t][s->first.as<std::string>()] = s->second.as<std::string>();
  }
}

void StatesFileReader::MoraleCheck(const YAML::Node& root, StatesConfig* c) const {
  const YAML::Node mc = Need(root, "morale_check");
  for (const auto& t : Need(mc, "built_up_area")) {
    const std::string s = t.as<std::string>();
    if (!FindTerrainKind(s)) throw InputError(path_, YamlLine(t), "morale_check.built_up_area: unknown terrain type '" + s + "'");
    c->built_up_terrain.insert(s);
  }
  c->built_up_share = Need(mc, "built_up_share").as<double>();
  if (!(c->built_up_share > 0 && c->built_up_share <= 1))
    throw InputError(path_, YamlLine(mc["built_up_share"]), "morale_check.built_up_share must be in (0, 1]");
  c->faster_tag = Need(mc, "veteran_tag").as<std::string>();
  c->slower_tag = Need(mc, "raw_tag").as<std::string>();
}

}  // namespace

StatesConfig LoadStatesConfig(const std::string& path) {
  const YAML::Node root = LoadYamlMapFile(path, "the states ruleset");
  const StatesFileReader r(path);
  StatesConfig c;
  try {
    c.title = r.Need(root, "title").as<std::string>();
    c.mm_per_unit = r.Need(root, "mm_per_unit").as<double>();
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
