#include "rules/fkoe/config.h"

#include <yaml-cpp/yaml.h>

#include <cmath>

#include "rules/input_error.h"
#include "rules/yaml_file.h"
#include "rules/scene/scene.h"

namespace vedette::fkoe {

FkoeConfig LoadFkoeConfig(const std::string& path, const std::map<std::string, std::string>& settings) {
  const YAML::Node root = LoadYamlMapFile(path, "the For King or Empress ruleset");
  auto need = [&](const YAML::Node& parent, const char* key) {
    const YAML::Node n = parent[key];
    if (!n) throw InputError(path, YamlLine(parent), std::string("missing '") + key + "'");
    return n;
  };
  auto number = [&](const YAML::Node& n, const std::string& what) {
    try {
      const double v = n.as<double>();
      if (std::isfinite(v) && v > 0) return v;
    } catch (const YAML::Exception&) {
    }
    throw InputError(path, YamlLine(n), what + " must be a positive number");
  };
  auto table = [&](const YAML::Node& n, const std::string& what) {
    std::map<std::string, RuleValue> out;
    for (auto it = n.begin(); it != n.end(); ++it) {
      const std::string key = it->first.as<std::string>();
      RuleValue v;
      try {
        v.value = need(it->second, "value").as<int>();
        v.rule = need(it->second, "rule").as<std::string>();
      } catch (const YAML::Exception&) {
        throw InputError(path, YamlLine(it->second), what + "." + key + ": needs {value: integer, rule: text}");
      }
      out[key] = v;
    }
    return out;
  };
  FkoeConfig c;
  c.title = need(root, "title").as<std::string>();
  c.unit_name = need(root, "unit").as<std::string>();
  c.mm_per_unit = number(need(root, "mm_per_unit"), "mm_per_unit");
  const YAML::Node bg = need(root, "bad_going");
  for (const auto& t : need(bg, "terrain")) {
    const std::string s = t.as<std::string>();
    if (!FindTerrainKind(s)) throw InputError(path, YamlLine(t), "bad_going.terrain: unknown terrain type '" + s + "'");
    c.bad_going_terrain.insert(s);
  }
  c.bad_going_frontage_share = number(need(bg, "frontage_share"), "bad_going.frontage_share");
  c.visibility_in = number(need(bg, "visibility_in"), "bad_going.visibility_in");
  if (bg["visibility_report_in"]) c.visibility_report_in = number(bg["visibility_report_in"], "bad_going.visibility_report_in");
  c.combat_value = table(need(root, "combat_value"), "combat_value");
  c.morale = table(need(root, "morale"), "morale");
  for (const char* k : {"flank_rear_contact", "road_column", "supporting", "fire_flank_rear", "general_attached",
                        "overlapping", "two_disorder", "at_light_infantry", "bad_going", "defending_place"})
    if (!c.combat_value.count(k)) throw InputError(path, 0, std::string("combat_value: missing '") + k + "'");
  for (const char* k : {"general_attached", "uphill", "cinc_in_range", "per_disorder", "fired_flank_rear", "melee_flank_rear",
                        "defending_village_works", "stream_bank", "artillery_short_range", "cinc_attached", "break_off",
                        "forced_march"})
    if (!c.morale.count(k)) throw InputError(path, 0, std::string("morale: missing '") + k + "'");
  c.extra_disorder = table(need(root, "extra_disorder"), "extra_disorder");
  for (const char* k : {"mounted_bad_going", "heavy_cavalry_frontal", "light_cavalry_frontal", "muskets_heavy_cavalry",
                        "foot_frontal_artillery", "light_infantry_mounted", "artillery_contact", "flank_rear"})
    if (!c.extra_disorder.count(k)) throw InputError(path, 0, std::string("extra_disorder: missing '") + k + "'");
  const YAML::Node rc = need(root, "recoil");
  c.withdraw_dice = static_cast<int>(number(need(rc, "withdraw_dice"), "recoil.withdraw_dice"));
  c.mounted_withdraw_dice = static_cast<int>(number(need(rc, "mounted_withdraw_dice"), "recoil.mounted_withdraw_dice"));
  for (const auto& step : need(root, "turn_sequence")) c.turn_sequence.push_back(step.as<std::string>());
  c.support_distance_in = number(need(root, "support_distance_in"), "support_distance_in");
  c.support_max_heading_difference_deg =
      number(need(root, "support_max_heading_difference_deg"), "support_max_heading_difference_deg");
  c.contact_mm = number(need(need(root, "tolerances"), "contact_mm"), "tolerances.contact_mm");
  c.placement_in = number(need(need(root, "tolerances"), "placement_in"), "tolerances.placement_in");
  c.turn_deg = number(need(need(root, "tolerances"), "turn_deg"), "tolerances.turn_deg");
  const YAML::Node def = need(root, "defended_places");
  auto kinds = [&](const char* key) {
    std::set<std::string> out;
    const YAML::Node list = need(def, key);
    if (!list.IsSequence()) throw InputError(path, YamlLine(list), std::string("defended_places.") + key + " must be a list");
    for (const auto& t : list) {
      const std::string s = t.as<std::string>();
      if (!FindTerrainKind(s)) throw InputError(path, YamlLine(t), std::string("defended_places.") + key + ": unknown terrain type '" + s + "'");
      out.insert(s);
    }
    return out;
  };
  c.strong_point_terrain = kinds("strong_point");
  c.village_terrain = kinds("village");
  c.works_terrain = kinds("works");
  c.stream_terrain = kinds("stream");
  c.defended_share = number(need(def, "in_share"), "defended_places.in_share");
  c.at_mm = number(need(def, "at_mm"), "defended_places.at_mm");
  const YAML::Node art = need(root, "artillery");
  auto optional_range = [&](const char* key) -> std::optional<double> {
    const YAML::Node n = need(art, key);
    if (n.IsNull()) return std::nullopt;
    return number(n, std::string("artillery.") + key);
  };
  c.artillery_short_range_in = optional_range("short_range_in");
  c.artillery_long_range_in = optional_range("long_range_in");
  c.artillery_long_range_test = need(art, "long_range_hit").as<std::string>();
  if (c.artillery_short_range_in && c.artillery_long_range_in && *c.artillery_short_range_in >= *c.artillery_long_range_in)
    throw InputError(path, YamlLine(art), "artillery.short_range_in must be less than artillery.long_range_in");
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
