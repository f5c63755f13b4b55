#include "rules/kow/config.h"

#include <yaml-cpp/yaml.h>

#include "rules/yaml_file.h"

#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <utility>

#include "rules/input_error.h"
#include "rules/scene/scene.h"

namespace vedette::kow {

namespace {

// The file's reader: each error names the file, the line and the key.
class KowFileReader {
 public:
  explicit KowFileReader(std::string path) : path_(std::move(path)) {}
  KowConfig Read(const YAML::Node& root) const;

 private:
  YAML::Node Need(const YAML::Node& parent, const char* key, const std::string& what) const {
    // yaml-cpp throws its own BadSubscript for a key looked up in a scalar or a list.
    if (!parent.IsMap()) throw InputError(path_, YamlLine(parent), "expected a mapping holding '" + what + "'");
    const YAML::Node n = parent[key];
    if (!n) throw InputError(path_, YamlLine(parent), "missing '" + what + "'");
    return n;
  }
  double Number(const YAML::Node& n, const std::string& what, bool positive) const;
  std::string Text(const YAML::Node& n, const std::string& what) const;
  // The entries of a mapping of type name -> positive number (heights).
  std::map<std::string, double> Numbers(const YAML::Node& n, const std::string& what, bool terrain) const;
  // A list of unit types (terrain = false) or terrain types.
  std::set<std::string> Types(const YAML::Node& n, const std::string& what, bool terrain) const;
  void ReadCharge(const YAML::Node& root, KowConfig* c) const;
  void ReadCover(const YAML::Node& root, KowConfig* c) const;
  void ReadTerrain(const YAML::Node& root, KowConfig* c) const;
  void ReadTolerances(const YAML::Node& root, KowConfig* c) const;

  std::string path_;
};

double KowFileReader::Number(const YAML::Node& n, const std::string& what, bool positive) const {
  double v = 0;
  try {
    v = n.as<double>();
  } catch (const YAML::Exception&) {
    throw InputError(path_, YamlLine(n), what + " must be a number");
  }
  if (!std::isfinite(v) || (positive && v <= 0)) throw InputError(path_, YamlLine(n), what + " must be a positive number");
  return v;
}

std::string KowFileReader::Text(const YAML::Node& n, const std::string& what) const { return YamlText(path_, n, what); }

std::map<std::string, double> KowFileReader::Numbers(const YAML::Node& n, const std::string& what, bool terrain) const {
  if (!n.IsMap()) throw InputError(path_, YamlLine(n), what + " must be a mapping of " + (terrain ? "terrain" : "unit") + " types to numbers");
  std::map<std::string, double> out;
  for (auto it = n.begin(); it != n.end(); ++it) {
    const std::string t = Text(it->first, what + " key");
    if (terrain ? !FindTerrainKind(t) : !ParseUnitType(t))
      throw InputError(path_, YamlLine(it->first), what + ": unknown " + (terrain ? "terrain" : "unit") + " type '" + t + "'");
    out[t] = Number(it->second, what + "." + t, true);
  }
  return out;
}

std::set<std::string> KowFileReader::Types(const YAML::Node& n, const std::string& what, bool terrain) const {
  std::set<std::string> out;
  if (!n.IsSequence()) throw InputError(path_, YamlLine(n), what + " must be a list");
  for (const auto& e : n) {
    const std::string s = Text(e, what + " entry");
    if (terrain ? !FindTerrainKind(s) : !ParseUnitType(s)) throw InputError(path_, YamlLine(e), what + ": unknown type '" + s + "'");
    out.insert(s);
  }
  return out;
}

// In the file's order, so the first error reported is the first in the file.
KowConfig KowFileReader::Read(const YAML::Node& root) const {
  KowConfig c;
  if (!root.IsMap()) throw InputError(path_, 0, "the ruleset file must be a mapping");
  c.title = Text(Need(root, "title", "title"), "title");
  c.unit_name = Text(Need(root, "unit", "unit"), "unit");
  c.mm_per_unit = Number(Need(root, "mm_per_unit", "mm_per_unit"), "mm_per_unit", true);
  ReadCharge(root, &c);
  c.one_inch_in = Number(Need(root, "one_inch_in", "one_inch_in"), "one_inch_in", true);
  if (const YAML::Node r = root["report"]) {
    if (!r.IsMap()) throw InputError(path_, YamlLine(r), "report must be a mapping");
    if (r["charge_near_miss_in"]) c.near_miss_in = Number(r["charge_near_miss_in"], "report.charge_near_miss_in", false);
  }
  if (const YAML::Node w = root["war_engine_range_in"]) c.war_engine_range_in = Number(w, "war_engine_range_in", true);
  ReadCover(root, &c);
  c.heights = Numbers(Need(root, "heights", "heights"), "heights", false);
  ReadTerrain(root, &c);
  c.cannot_charge = Types(Need(root, "cannot_charge", "cannot_charge"), "cannot_charge", false);
  ReadTolerances(root, &c);
  if (const YAML::Node obstacles = root["terrain"]["obstacles"]) c.obstacle_terrain = Types(obstacles, "terrain.obstacles", true);
  return c;
}

void KowFileReader::ReadCharge(const YAML::Node& root, KowConfig* c) const {
  const YAML::Node charge = Need(root, "charge", "charge");
  c->charge_range_factor = Number(Need(charge, "range_factor", "charge.range_factor"), "charge.range_factor", true);
  c->max_pivot_deg = Number(Need(charge, "max_pivot_deg", "charge.max_pivot_deg"), "charge.max_pivot_deg", true);
}

void KowFileReader::ReadCover(const YAML::Node& root, KowConfig* c) const {
  const YAML::Node cover = Need(root, "cover", "cover");
  c->cover_difficult_share = Number(Need(cover, "difficult_share", "cover.difficult_share"), "cover.difficult_share", true);
  c->cover_hidden_share = Number(Need(cover, "hidden_share", "cover.hidden_share"), "cover.hidden_share", true);
  c->cover_modifier = static_cast<int>(Number(Need(cover, "modifier", "cover.modifier"), "cover.modifier", false));
}

void KowFileReader::ReadTerrain(const YAML::Node& root, KowConfig* c) const {
  const YAML::Node terrain = Need(root, "terrain", "terrain");
  c->blocking_terrain = Types(Need(terrain, "blocking", "terrain.blocking"), "terrain.blocking", true);
  c->difficult_terrain = Types(Need(terrain, "difficult", "terrain.difficult"), "terrain.difficult", true);
  c->terrain_heights = Numbers(Need(terrain, "heights", "terrain.heights"), "terrain.heights", true);
}

void KowFileReader::ReadTolerances(const YAML::Node& root, KowConfig* c) const {
  const YAML::Node tol = Need(root, "tolerances", "tolerances");
  c->contact_mm = Number(Need(tol, "contact_mm", "tolerances.contact_mm"), "tolerances.contact_mm", true);
  c->line_mm = Number(Need(tol, "line_mm", "tolerances.line_mm"), "tolerances.line_mm", true);
  if (tol["move_mm"]) c->move_mm = Number(tol["move_mm"], "tolerances.move_mm", true);
  if (tol["move_deg"]) c->move_deg = Number(tol["move_deg"], "tolerances.move_deg", true);
}

}  // namespace

KowConfig LoadKowConfig(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError(path, 0, "cannot open the Kings of War ruleset file");
  std::stringstream ss;
  ss << in.rdbuf();
  return KowFileReader(path).Read(ParseYamlText(ss.str(), path));
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
