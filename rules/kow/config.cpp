#include "rules/kow/config.h"

#include <yaml-cpp/yaml.h>

#include "rules/yaml_file.h"

#include <cmath>
#include <fstream>
#include <sstream>

#include "rules/input_error.h"
#include "rules/scene/scene.h"

namespace vedette::kow {

namespace {

int LineOf(const YAML::Node& n) { return n.Mark().line >= 0 ? n.Mark().line + 1 : 0; }

}  // namespace

KowConfig LoadKowConfig(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError(path, 0, "cannot open the Kings of War ruleset file");
  std::stringstream ss;
  ss << in.rdbuf();
  KowConfig c;
  const YAML::Node root = ParseYamlText(ss.str(), path);
  auto need = [&](const YAML::Node& parent, const char* key, const std::string& what) {
    const YAML::Node n = parent[key];
    if (!n) throw InputError(path, LineOf(parent), "missing '" + what + "'");
    return n;
  };
  auto number = [&](const YAML::Node& n, const std::string& what, bool positive) {
    double v = 0;
    try {
      v = n.as<double>();
    } catch (const YAML::Exception&) {
      throw InputError(path, LineOf(n), what + " must be a number");
    }
    if (!std::isfinite(v) || (positive && v <= 0)) throw InputError(path, LineOf(n), what + " must be a positive number");
    return v;
  };
  auto types = [&](const YAML::Node& n, const std::string& what, bool terrain) {
    std::set<std::string> out;
    if (!n.IsSequence()) throw InputError(path, LineOf(n), what + " must be a list");
    for (const auto& e : n) {
      const std::string s = e.as<std::string>();
      if (terrain ? !FindTerrainKind(s) : !ParseUnitType(s)) throw InputError(path, LineOf(e), what + ": unknown type '" + s + "'");
      out.insert(s);
    }
    return out;
  };
  if (!root.IsMap()) throw InputError(path, 0, "the ruleset file must be a mapping");
  c.title = need(root, "title", "title").as<std::string>();
  c.unit_name = need(root, "unit", "unit").as<std::string>();
  c.mm_per_unit = number(need(root, "mm_per_unit", "mm_per_unit"), "mm_per_unit", true);
  const YAML::Node charge = need(root, "charge", "charge");
  c.charge_range_factor = number(need(charge, "range_factor", "charge.range_factor"), "charge.range_factor", true);
  c.max_pivot_deg = number(need(charge, "max_pivot_deg", "charge.max_pivot_deg"), "charge.max_pivot_deg", true);
  c.one_inch_in = number(need(root, "one_inch_in", "one_inch_in"), "one_inch_in", true);
  if (const YAML::Node r = root["report"]) {
    if (!r.IsMap()) throw InputError(path, LineOf(r), "report must be a mapping");
    if (r["charge_near_miss_in"]) c.near_miss_in = number(r["charge_near_miss_in"], "report.charge_near_miss_in", false);
  }
  if (const YAML::Node w = root["war_engine_range_in"]) c.war_engine_range_in = number(w, "war_engine_range_in", true);
  const YAML::Node cover = need(root, "cover", "cover");
  c.cover_difficult_share = number(need(cover, "difficult_share", "cover.difficult_share"), "cover.difficult_share", true);
  c.cover_hidden_share = number(need(cover, "hidden_share", "cover.hidden_share"), "cover.hidden_share", true);
  c.cover_modifier = static_cast<int>(number(need(cover, "modifier", "cover.modifier"), "cover.modifier", false));
  const YAML::Node heights = need(root, "heights", "heights");
  for (auto it = heights.begin(); it != heights.end(); ++it) {
    const std::string t = it->first.as<std::string>();
    if (!ParseUnitType(t)) throw InputError(path, LineOf(it->first), "heights: unknown unit type '" + t + "'");
    c.heights[t] = number(it->second, "heights." + t, true);
  }
  const YAML::Node terrain = need(root, "terrain", "terrain");
  c.blocking_terrain = types(need(terrain, "blocking", "terrain.blocking"), "terrain.blocking", true);
  c.difficult_terrain = types(need(terrain, "difficult", "terrain.difficult"), "terrain.difficult", true);
  const YAML::Node th = need(terrain, "heights", "terrain.heights");
  for (auto it = th.begin(); it != th.end(); ++it) {
    const std::string t = it->first.as<std::string>();
    if (!FindTerrainKind(t)) throw InputError(path, LineOf(it->first), "terrain.heights: unknown terrain type '" + t + "'");
    c.terrain_heights[t] = number(it->second, "terrain.heights." + t, true);
  }
  c.cannot_charge = types(need(root, "cannot_charge", "cannot_charge"), "cannot_charge", false);
  const YAML::Node tol = need(root, "tolerances", "tolerances");
  c.contact_mm = number(need(tol, "contact_mm", "tolerances.contact_mm"), "tolerances.contact_mm", true);
  c.line_mm = number(need(tol, "line_mm", "tolerances.line_mm"), "tolerances.line_mm", true);
  if (tol["move_mm"]) c.move_mm = number(tol["move_mm"], "tolerances.move_mm", true);
  if (tol["move_deg"]) c.move_deg = number(tol["move_deg"], "tolerances.move_deg", true);
  if (terrain["obstacles"]) c.obstacle_terrain = types(terrain["obstacles"], "terrain.obstacles", true);
  return c;
}

const std::vector<std::string>& KowSettingKeys() {
  static const std::vector<std::string> keys = {"one_inch_rule", "post_combat_back"};
  return keys;
}

void ApplyKowSettings(const std::map<std::string, std::string>& settings, KowConfig* c) {
  for (const auto& [k, v] : settings) {
    if (k == "post_combat_back") {
      if (v == "full") c->post_combat_back_up_to = false;
      else if (v == "up_to") c->post_combat_back_up_to = true;
      else throw InputError("settings", 0, "post_combat_back=" + v + ": expected full or up_to (seed 59; from --set or the scene's declarations: settings:)");
      continue;
    }
    if (k != "one_inch_rule") continue;
    if (v == "approach") c->one_inch_strict = false;
    else if (v == "strict") c->one_inch_strict = true;
    else throw InputError("settings", 0, "one_inch_rule=" + v + ": expected approach or strict (seed 10; from --set or the scene's declarations: settings:)");
  }
}

}  // namespace vedette::kow
