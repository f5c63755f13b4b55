#include "rules/fkoe/config.h"

#include <yaml-cpp/yaml.h>

#include <cmath>
#include <optional>
#include <set>

#include "rules/input_error.h"
#include "rules/yaml_file.h"
#include "rules/scene/scene.h"

namespace vedette::fkoe {

namespace {

// The ruleset file's fields, each error naming the file and the line.
class FkoeFileReader {
 public:
  explicit FkoeFileReader(const std::string& path) : path_(path) {}
  YAML::Node Need(const YAML::Node& parent, const char* key) const { return RequireKey(path_, parent, key); }
  std::string Text(const YAML::Node& n, const std::string& what) const { return YamlText(path_, n, what); }
  double Number(const YAML::Node& n, const std::string& what) const {
    try {
      const double v = n.as<double>();
      if (std::isfinite(v) && v > 0) return v;
    } catch (const YAML::Exception&) {
    }
    throw InputError(path_, YamlLine(n), what + " must be a positive number");
  }
  std::map<std::string, RuleValue> Table(const YAML::Node& n, const std::string& what) const;
  // A table that must hold every one of `keys`.
  std::map<std::string, RuleValue> FullTable(const YAML::Node& root, const char* key, std::initializer_list<const char*> keys) const;
  std::set<std::string> TerrainKinds(const YAML::Node& parent, const char* key, const std::string& what) const;
  void BadGoing(const YAML::Node& root, FkoeConfig* c) const;
  void Distances(const YAML::Node& root, FkoeConfig* c) const;
  void DefendedPlaces(const YAML::Node& root, FkoeConfig* c) const;
  void Artillery(const YAML::Node& root, FkoeConfig* c) const;

 private:
  const std::string& path_;
};

std::map<std::string, RuleValue> FkoeFileReader::Table(const YAML::Node& n, const std::string& what) const {
  std::map<std::string, RuleValue> out;
  YamlMap(path_, n, what);
  for (auto it = n.begin(); it != n.end(); ++it) {
    const std::string key = Text(it->first, what + " key");
    RuleValue v;
    const YAML::Node entry = it->second;  // a copy: the iterator hands out a proxy that dies with the expression
    if (!entry.IsMap() || !entry["value"] || !entry["rule"] || !entry["rule"].IsScalar() ||
        !YAML::convert<int>::decode(entry["value"], v.value))
      throw InputError(path_, YamlLine(entry), what + "." + key + ": needs {value: integer, rule: text}");
    v.rule = entry["rule"].Scalar();
    out[key] = v;
  }
  return out;
}

std::map<std::string, RuleValue> FkoeFileReader::FullTable(const YAML::Node& root, const char* key,
                                                           std::initializer_list<const char*> keys) const {
  const YAML::Node n = Need(root, key);
  std::map<std::string, RuleValue> out = Table(n, key);
  for (const char* k : keys)
    if (!out.count(k)) throw InputError(path_, YamlLine(n), std::string(key) + ": missing '" + k + "'");
  return out;
}

std::set<std::string> FkoeFileReader::TerrainKinds(const YAML::Node& parent, const char* key, const std::string& what) const {
  std::set<std::string> out;
  const YAML::Node list = Need(parent, key);
  if (!list.IsSequence()) throw InputError(path_, YamlLine(list), what + " must be a list");
  for (const auto& t : list) {
    const std::string s = Text(t, what + " entry");
    if (!FindTerrainKind(s)) throw InputError(path_, YamlLine(t), what + ": unknown terrain type '" + s + "'");
    out.insert(s);
  }
  return out;
}

void FkoeFileReader::BadGoing(const YAML::Node& root, FkoeConfig* c) const {
  const YAML::Node bg = Need(root, "bad_going");
  c->bad_going_terrain = TerrainKinds(bg, "terrain", "bad_going.terrain");
  c->bad_going_frontage_share = Number(Need(bg, "frontage_share"), "bad_going.frontage_share");
  c->visibility_in = Number(Need(bg, "visibility_in"), "bad_going.visibility_in");
  if (bg["visibility_report_in"]) c->visibility_report_in = Number(bg["visibility_report_in"], "bad_going.visibility_report_in");
}

void FkoeFileReader::Distances(const YAML::Node& root, FkoeConfig* c) const {
  const YAML::Node rc = Need(root, "recoil");
  c->withdraw_dice = static_cast<int>(Number(Need(rc, "withdraw_dice"), "recoil.withdraw_dice"));
  c->mounted_withdraw_dice = static_cast<int>(Number(Need(rc, "mounted_withdraw_dice"), "recoil.mounted_withdraw_dice"));
  for (const auto& step : YamlList(path_, Need(root, "turn_sequence"), "turn_sequence"))
    c->turn_sequence.push_back(Text(step, "turn_sequence entry"));
  c->support_distance_in = Number(Need(root, "support_distance_in"), "support_distance_in");
  c->support_max_heading_difference_deg =
      Number(Need(root, "support_max_heading_difference_deg"), "support_max_heading_difference_deg");
  c->contact_mm = Number(Need(Need(root, "tolerances"), "contact_mm"), "tolerances.contact_mm");
  c->placement_in = Number(Need(Need(root, "tolerances"), "placement_in"), "tolerances.placement_in");
  c->turn_deg = Number(Need(Need(root, "tolerances"), "turn_deg"), "tolerances.turn_deg");
}

void FkoeFileReader::DefendedPlaces(const YAML::Node& root, FkoeConfig* c) const {
  const YAML::Node def = Need(root, "defended_places");
  c->strong_point_terrain = TerrainKinds(def, "strong_point", "defended_places.strong_point");
  c->village_terrain = TerrainKinds(def, "village", "defended_places.village");
  c->works_terrain = TerrainKinds(def, "works", "defended_places.works");
  c->stream_terrain = TerrainKinds(def, "stream", "defended_places.stream");
  c->defended_share = Number(Need(def, "in_share"), "defended_places.in_share");
  c->at_mm = Number(Need(def, "at_mm"), "defended_places.at_mm");
}

void FkoeFileReader::Artillery(const YAML::Node& root, FkoeConfig* c) const {
  const YAML::Node art = Need(root, "artillery");
  auto optional_range = [&](const char* key) -> std::optional<double> {
    const YAML::Node n = Need(art, key);
    if (n.IsNull()) return std::nullopt;
    return Number(n, std::string("artillery.") + key);
  };
  c->artillery_short_range_in = optional_range("short_range_in");
  c->artillery_long_range_in = optional_range("long_range_in");
  c->artillery_long_range_test = Text(Need(art, "long_range_hit"), "artillery.long_range_hit");
  if (c->artillery_short_range_in && c->artillery_long_range_in && *c->artillery_short_range_in >= *c->artillery_long_range_in)
    throw InputError(path_, YamlLine(art), "artillery.short_range_in must be less than artillery.long_range_in");
}

}  // namespace

FkoeConfig LoadFkoeConfig(const std::string& path, const std::map<std::string, std::string>& settings) {
  const YAML::Node root = LoadYamlMapFile(path, "the For King or Empress ruleset");
  const FkoeFileReader r(path);
  FkoeConfig c;
  c.title = r.Text(r.Need(root, "title"), "title");
  c.unit_name = r.Text(r.Need(root, "unit"), "unit");
  c.mm_per_unit = r.Number(r.Need(root, "mm_per_unit"), "mm_per_unit");
  r.BadGoing(root, &c);
  c.combat_value = r.FullTable(root, "combat_value", {"flank_rear_contact", "road_column", "supporting", "fire_flank_rear",
                                                      "general_attached", "overlapping", "two_disorder", "at_light_infantry",
                                                      "bad_going", "defending_place"});
  c.morale = r.FullTable(root, "morale", {"general_attached", "uphill", "cinc_in_range", "per_disorder", "fired_flank_rear",
                                          "melee_flank_rear", "defending_village_works", "stream_bank", "artillery_short_range",
                                          "cinc_attached", "break_off", "forced_march"});
  c.extra_disorder = r.FullTable(root, "extra_disorder", {"mounted_bad_going", "heavy_cavalry_frontal", "light_cavalry_frontal",
                                                          "muskets_heavy_cavalry", "foot_frontal_artillery",
                                                          "light_infantry_mounted", "artillery_contact", "flank_rear"});
  r.Distances(root, &c);
  r.DefendedPlaces(root, &c);
  r.Artillery(root, &c);
  ApplySettings(settings, &c);
  return c;
}

void ApplySettings(const std::map<std::string, std::string>& settings, FkoeConfig* c) {
  for (const auto& setting : settings) {
    // Named references, not a structured binding: clang 14 (the fuzz build) cannot capture those.
    const std::string& k = setting.first;
    const std::string& v = setting.second;
    auto choice = [&](std::string* out, std::initializer_list<const char*> allowed) {
      std::string list;
      for (const char* a : allowed) {
        if (v == a) {
          *out = v;
          return;
        }
        list += (list.empty() ? "" : " or ") + std::string(a);
      }
      throw InputError("settings", 0, k + "=" + v + ": expected " + list);
    };
    if (k == "step4_markers") {
      choice(&c->step4_markers, {"engaged", "if_hit"});
      continue;
    }
    if (k == "frontal_contact") {
      choice(&c->frontal_contact, {"both_fronts", "own_front"});
      continue;
    }
    if (k == "withdrawal") {
      choice(&c->withdrawal, {"dice", "full_move"});
      continue;
    }
    try {
      size_t used = 0;
      if (k == "command_range_in") {
        c->command_range_in = std::stod(v, &used);
        if (used != v.size() || !(*c->command_range_in > 0)) throw std::invalid_argument(k);
      } else if (k == "artillery_short_range_in" || k == "artillery_long_range_in") {
        const double r = std::stod(v, &used);
        if (used != v.size() || !(r > 0)) throw std::invalid_argument(k);
        (k == "artillery_short_range_in" ? c->artillery_short_range_in : c->artillery_long_range_in) = r;
      } else if (k == "morale_pass_at_least") {
        // A whole number; a scene's YAML number arrives as "11.0".
        const double p = std::stod(v, &used);
        if (used != v.size() || p != std::floor(p) || std::abs(p) > 1000) throw std::invalid_argument(k);
        c->morale_pass_at_least = static_cast<int>(p);
      }
    } catch (const std::exception&) {
      throw InputError("settings", 0, k + "=" + v + ": not a valid number (from --set or the scene's declarations: settings:)");
    }
  }
  if (c->artillery_short_range_in && c->artillery_long_range_in && *c->artillery_short_range_in >= *c->artillery_long_range_in)
    throw InputError("--set", 0, "artillery_short_range_in must be less than artillery_long_range_in");
}

}  // namespace vedette::fkoe
