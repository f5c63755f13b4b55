#include "rules/scene/scene_io.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "rules/yaml_reader.h"

namespace vedette {

const std::vector<std::string>& KnownFormations() {
  static const std::vector<std::string> f = {"line",      "column",     "march_column", "road_column", "square",
                                             "limbered",  "unlimbered", "skirmish",     "dismounted",  "prolonge",
                                             "mixed_order", "wedge",    "horde",        "regiment",    "troop",
                                             "legion",    "individual"};
  return f;
}

namespace {


// Ids and tags are checked by a plain loop over the characters: std::regex_match recurses once
// per character and a 40,000-character id ran it out of stack.
bool ValidId(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](unsigned char c) {
           return std::isalnum(c) || c == '_' || c == '.' || c == '-';
         });
}

bool ValidTag(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](unsigned char c) {
           return std::islower(c) || std::isdigit(c) || c == '_';
         });
}

bool ValidColour(const std::string& s) {
  return s.size() == 7 && s[0] == '#' &&
         std::all_of(s.begin() + 1, s.end(), [](unsigned char c) { return std::isxdigit(c) != 0; });
}

// The first characters of a long name, for a message that must not repeat 300,000 of them.
std::string Shown(const std::string& s) { return s.size() <= 40 ? s : s.substr(0, 40) + "..."; }

// A name (unit or terrain id, tag) within kMaxNameLength characters, read from n.
std::string Name(const YamlReader& r, const YAML::Node& n, const std::string& what) {
  const std::string s = r.String(n, what);
  if (s.size() > kMaxNameLength)
    r.Fail(n, what + " '" + Shown(s) + "' is " + std::to_string(s.size()) + " characters long; at most " +
                  std::to_string(kMaxNameLength) + " are accepted");
  return s;
}

void ReadTags(const YamlReader& r, const YAML::Node& n, const std::string& what, Unit* u) {
  if (!n["tags"]) return;
  if (!n["tags"].IsSequence()) r.Fail(n["tags"], what + ": tags must be a list, e.g. [light, elite]");
  for (const auto& tag : n["tags"]) {
    std::string s = Name(r, tag, what + ": tag");
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    if (!ValidTag(s)) r.Fail(tag, what + ": tag '" + tag.Scalar() + "' must be a word (a-z, 0-9, _)");
    u->tags.push_back(s);
  }
}

void ReadFormation(const YamlReader& r, const YAML::Node& n, const std::string& what, Unit* u) {
  if (!n["formation"]) return;
  u->formation = r.String(n["formation"], what + ": formation");
  const auto& known = KnownFormations();
  if (std::find(known.begin(), known.end(), u->formation) != known.end()) return;
  std::string list;
  for (const auto& f : known) list += (list.empty() ? "" : ", ") + f;
  r.Fail(n["formation"], what + ": unknown formation '" + u->formation + "' (expected one of: " + list + ")");
}

BaseSpec ReadBase(const YamlReader& r, const YAML::Node& b, const std::string& bw) {
  r.ExpectMap(b, bw);
  r.ExpectKeys(b, bw, {"width_mm", "depth_mm", "offset_mm"});
  BaseSpec s;
  s.width_mm = r.PositiveLength(r.Require(b, "width_mm", bw), bw + ": width_mm");
  s.depth_mm = r.PositiveLength(r.Require(b, "depth_mm", bw), bw + ": depth_mm");
  if (b["offset_mm"]) s.offset_mm = r.Pair(b["offset_mm"], bw + ": offset_mm");
  return s;
}

void ReadBases(const YamlReader& r, const YAML::Node& n, const std::string& what, const Scene& scene, Unit* u) {
  if (n["base"] && n["bases"]) r.Fail(n["bases"], what + ": give either base or bases, not both");
  if (n["base"]) {
    u->bases.push_back(ReadBase(r, n["base"], what + ": base"));
  } else if (n["bases"]) {
    if (!n["bases"].IsSequence() || n["bases"].size() == 0) r.Fail(n["bases"], what + ": bases must be a non-empty list");
    for (const auto& b : n["bases"]) u->bases.push_back(ReadBase(r, b, what + ": base"));
  } else {
    BaseSpec s;  // a bare unit: one base one BW wide and half a BW deep
    s.width_mm = scene.bw_mm;
    s.depth_mm = scene.bw_mm / 2;
    u->bases.push_back(s);
  }
}

void ReadPose(const YamlReader& r, const YAML::Node& n, const std::string& what, const SceneLoadOptions& opt, Unit* u) {
  if (!n["pose"]) {
    if (opt.require_poses) r.Fail(n, what + ": missing field 'pose' ({x_mm, y_mm, heading_deg})");
    return;
  }
  const YAML::Node p = n["pose"];
  r.ExpectMap(p, what + ": pose");
  r.ExpectKeys(p, what + ": pose", {"x_mm", "y_mm", "heading_deg"});
  Pose pose;
  pose.x_mm = r.Length(r.Require(p, "x_mm", what + ": pose"), what + ": pose.x_mm");
  pose.y_mm = r.Length(r.Require(p, "y_mm", what + ": pose"), what + ": pose.y_mm");
  pose.heading_deg = r.Angle(r.Require(p, "heading_deg", what + ": pose"), what + ": pose.heading_deg");
  u->pose = pose;
}

void ReadMarker(const YamlReader& r, const YAML::Node& n, const std::string& what, Unit* u) {
  if (!n["marker"]) {
    for (const char* k : {"marker_size_mm", "marker_offset_mm", "marker_heading_deg", "marker_height_mm"})
      if (n[k]) r.Fail(n[k], what + ": " + k + " given without 'marker' (the marker ID)");
    return;
  }
  MarkerMount m;
  m.id = r.Count(n["marker"], what + ": marker");
  if (n["marker_size_mm"]) m.size_mm = r.PositiveLength(n["marker_size_mm"], what + ": marker_size_mm");
  if (n["marker_offset_mm"]) m.offset_mm = r.Pair(n["marker_offset_mm"], what + ": marker_offset_mm");
  if (n["marker_heading_deg"]) m.heading_deg = r.Angle(n["marker_heading_deg"], what + ": marker_heading_deg");
  if (n["marker_height_mm"]) m.height_mm = r.NonNegativeLength(n["marker_height_mm"], what + ": marker_height_mm");
  u->marker = m;
}

Unit ReadUnit(const YamlReader& r, const YAML::Node& n, const Scene& scene, const SceneLoadOptions& opt) {
  r.ExpectMap(n, "a unit");
  Unit u;
  u.line = YamlReader::LineOf(n);
  u.id = Name(r, r.Require(n, "id", "unit"), "unit id");
  if (!ValidId(u.id)) r.Fail(n["id"], "unit id '" + u.id + "' may only hold letters, digits, '_', '-' and '.'");
  const std::string what = "unit " + u.id;
  r.ExpectKeys(n, what, {"id", "side", "type", "tags", "formation", "base", "bases", "pose", "marker", "marker_size_mm",
                         "marker_offset_mm", "marker_heading_deg", "marker_height_mm", "height_mm", "stats", "name"});
  u.side = Name(r, r.Require(n, "side", what), what + ": side");
  const std::string type = r.String(r.Require(n, "type", what), what + ": type");
  auto t = ParseUnitType(type);
  if (!t) r.Fail(n["type"], what + ": unknown type '" + type + "' (expected infantry, cavalry, artillery or general)");
  u.type = *t;
  ReadTags(r, n, what, &u);
  ReadFormation(r, n, what, &u);
  ReadBases(r, n, what, scene, &u);
  ReadPose(r, n, what, opt, &u);
  ReadMarker(r, n, what, &u);
  if (n["height_mm"]) u.height_mm = r.NonNegativeLength(n["height_mm"], what + ": height_mm");
  if (n["stats"]) {
    r.ExpectMap(n["stats"], what + ": stats");
    for (auto it = n["stats"].begin(); it != n["stats"].end(); ++it)
      u.stats[it->first.as<std::string>()] = r.Number(it->second, what + ": stats." + it->first.as<std::string>());
  }
  return u;
}

Terrain ReadTerrain(const YamlReader& r, const YAML::Node& n) {
  r.ExpectMap(n, "a terrain piece");
  Terrain t;
  t.line = YamlReader::LineOf(n);
  t.id = Name(r, r.Require(n, "id", "terrain"), "terrain id");
  const std::string what = "terrain " + t.id;
  r.ExpectKeys(n, what, {"id", "type", "polygon", "height_mm", "name"});
  t.type = r.String(r.Require(n, "type", what), what + ": type");
  if (!FindTerrainKind(t.type)) {
    std::string list;
    for (const auto& k : TerrainKinds()) list += std::string(list.empty() ? "" : ", ") + std::string(k.name);
    r.Fail(n["type"], what + ": unknown type '" + t.type + "' (expected one of: " + list + ")");
  }
  const YAML::Node poly = r.Require(n, "polygon", what);
  if (!poly.IsSequence() || poly.size() < 3) r.Fail(poly, what + ": polygon must list at least 3 points [[x,y],...] in mm");
  for (const auto& p : poly) t.polygon.push_back(r.Pair(p, what + ": polygon point"));
  if (geom::Area(t.polygon) <= 0) r.Fail(poly, what + ": polygon has no area");
  if (n["height_mm"]) t.height_mm = r.NonNegativeLength(n["height_mm"], what + ": height_mm");
  return t;
}

void ReadTable(const YamlReader& r, const YAML::Node& root, Scene* s) {
  if (root["table"]) {
    const YAML::Node t = root["table"];
    r.ExpectMap(t, "table");
    r.ExpectKeys(t, "table", {"width_mm", "depth_mm"});
    s->table_width_mm = r.PositiveLength(r.Require(t, "width_mm", "table"), "table.width_mm");
    s->table_depth_mm = r.PositiveLength(r.Require(t, "depth_mm", "table"), "table.depth_mm");
  }
  if (root["arc_model"]) {
    const std::string m = r.String(root["arc_model"], "arc_model");
    auto model = geom::ParseArcModel(m);
    if (!model) r.Fail(root["arc_model"], "unknown arc_model '" + m + "' (expected totsk, corner45 or kow)");
    s->arc_model = *model;
  }
}

void ReadSides(const YamlReader& r, const YAML::Node& sides, Scene* s) {
  r.ExpectMap(sides, "sides");
  for (auto it = sides.begin(); it != sides.end(); ++it) {
    Side side;
    side.name = it->first.as<std::string>();
    const std::string what = "side " + side.name;
    r.ExpectMap(it->second, what);
    r.ExpectKeys(it->second, what, {"bw_mm", "colour", "color"});
    if (it->second["bw_mm"]) side.bw_mm = r.PositiveLength(it->second["bw_mm"], what + ": bw_mm");
    for (const char* key : {"colour", "color"}) {
      if (!it->second[key]) continue;
      side.colour = r.String(it->second[key], what + ": colour");
      if (!ValidColour(side.colour)) r.Fail(it->second[key], what + ": colour must be #rrggbb");
    }
    s->sides.push_back(side);
  }
}

// Who holds each marker ID: a unit's id, or "anchor".
using MarkerOwners = std::map<int, std::string>;

void ReadUnits(const YamlReader& r, const YAML::Node& root, const SceneLoadOptions& opt, Scene* s, MarkerOwners* markers) {
  const YAML::Node units = r.Require(root, "units", "scene");
  if (!units.IsSequence()) r.Fail(units, "units must be a list");
  std::map<std::string, int> seen;  // unit id -> line
  for (const auto& n : units) {
    Unit u = ReadUnit(r, n, *s, opt);
    if (auto it = seen.find(u.id); it != seen.end())
      r.Fail(n, "duplicate unit id '" + u.id + "' (first at line " + std::to_string(it->second) + ")");
    seen[u.id] = u.line;
    if (u.marker) {
      if (auto m = markers->find(u.marker->id); m != markers->end())
        r.Fail(n["marker"], "unit " + u.id + ": marker " + std::to_string(u.marker->id) + " is already unit " + m->second + "'s");
      (*markers)[u.marker->id] = u.id;
    }
    s->units.push_back(std::move(u));
  }
}

void ReadTerrains(const YamlReader& r, const YAML::Node& list, Scene* s) {
  if (!list.IsSequence()) r.Fail(list, "terrain must be a list");
  std::set<std::string> ids;
  for (const auto& n : list) {
    Terrain t = ReadTerrain(r, n);
    if (!ids.insert(t.id).second) r.Fail(n, "duplicate terrain id '" + t.id + "'");
    s->terrain.push_back(std::move(t));
  }
}

void ReadAnchors(const YamlReader& r, const YAML::Node& list, Scene* s, MarkerOwners* markers) {
  if (!list.IsSequence()) r.Fail(list, "anchors must be a list");
  for (const auto& n : list) {
    r.ExpectMap(n, "an anchor");
    r.ExpectKeys(n, "anchor", {"marker", "size_mm", "x_mm", "y_mm", "heading_deg"});
    Anchor a;
    a.line = YamlReader::LineOf(n);
    a.marker = r.Count(r.Require(n, "marker", "anchor"), "anchor marker");
    const std::string what = "anchor " + std::to_string(a.marker);
    if (n["size_mm"]) a.size_mm = r.PositiveLength(n["size_mm"], what + ": size_mm");
    a.x_mm = r.Length(r.Require(n, "x_mm", what), what + ": x_mm");
    a.y_mm = r.Length(r.Require(n, "y_mm", what), what + ": y_mm");
    if (n["heading_deg"]) a.heading_deg = r.Angle(n["heading_deg"], what + ": heading_deg");
    if (auto m = markers->find(a.marker); m != markers->end())
      r.Fail(n["marker"], what + ": marker " + std::to_string(a.marker) + " is already unit " + m->second + "'s");
    (*markers)[a.marker] = "anchor";
    s->anchors.push_back(a);
  }
}

void ReadTokens(const YamlReader& r, const YAML::Node& list, Scene* s, const MarkerOwners& markers) {
  if (!list.IsSequence()) r.Fail(list, "tokens must be a list");
  for (const auto& n : list) {
    r.ExpectMap(n, "a token");
    r.ExpectKeys(n, "token", {"marker", "x_mm", "y_mm"});
    Token t;
    t.line = YamlReader::LineOf(n);
    t.marker = r.Count(r.Require(n, "marker", "token"), "token marker");
    const std::string what = "token " + std::to_string(t.marker);
    t.x_mm = r.Length(r.Require(n, "x_mm", what), what + ": x_mm");
    t.y_mm = r.Length(r.Require(n, "y_mm", what), what + ": y_mm");
    if (auto m = markers.find(t.marker); m != markers.end())
      r.Fail(n["marker"], what + ": marker " + std::to_string(t.marker) + " is already " +
                              (m->second == "anchor" ? std::string("an anchor") : "unit " + m->second + "'s"));
    s->tokens.push_back(t);
  }
}

void ReadDeclarations(const YamlReader& r, const YAML::Node& d, Scene* s) {
  r.ExpectMap(d, "declarations");
  for (auto it = d.begin(); it != d.end(); ++it) {
    const std::string key = it->first.as<std::string>();
    if (key == "active_side") {
      s->declarations.active_side = r.String(it->second, "declarations.active_side");
    } else if (key == "settings") {
      r.ExpectMap(it->second, "declarations.settings");
      for (auto st = it->second.begin(); st != it->second.end(); ++st)
        s->declarations.settings[st->first.as<std::string>()] = {r.Json(st->second, "setting"), YamlReader::LineOf(st->second)};
    } else {
      if (!s->FindUnit(key)) r.Fail(it->first, "declarations: no unit '" + key + "' in the scene");
      r.ExpectMap(it->second, "declarations for " + key);
      for (auto kv = it->second.begin(); kv != it->second.end(); ++kv)
        s->declarations.units[key][kv->first.as<std::string>()] = {r.Json(kv->second, "declaration"), YamlReader::LineOf(kv->second)};
    }
  }
}

Scene ReadScene(const YamlReader& r, const YAML::Node& root, const SceneLoadOptions& opt) {
  if (!root || root.IsNull()) throw InputError(r.source(), 0, "the scene file is empty");
  r.ExpectMap(root, "the scene");
  r.ExpectKeys(root, "scene", {"bw_mm", "table", "arc_model", "sides", "units", "terrain", "declarations", "dictionary",
                               "anchors", "tokens", "name", "description"});
  Scene s;
  s.source = r.source();
  s.bw_mm = r.PositiveLength(r.Require(root, "bw_mm", "scene"), "bw_mm");
  ReadTable(r, root, &s);
  if (root["sides"]) ReadSides(r, root["sides"], &s);
  MarkerOwners markers;
  ReadUnits(r, root, opt, &s, &markers);
  if (root["terrain"]) ReadTerrains(r, root["terrain"], &s);
  if (root["dictionary"]) {
    s.dictionary = r.String(root["dictionary"], "dictionary");
    s.dictionary_line = YamlReader::LineOf(root["dictionary"]);
  }
  if (root["anchors"]) ReadAnchors(r, root["anchors"], &s, &markers);
  if (root["tokens"]) ReadTokens(r, root["tokens"], &s, markers);
  if (root["declarations"]) ReadDeclarations(r, root["declarations"], &s);
  return s;
}

}  // namespace

Scene ParseScene(const std::string& text, const std::string& source_name, const SceneLoadOptions& options) {
  YamlReader reader(source_name);
  const YAML::Node root = ParseYamlText(text, source_name);
  try {
    return ReadScene(reader, root, options);
  } catch (const YAML::Exception& e) {
    throw InputError(source_name, e.mark.line >= 0 ? e.mark.line + 1 : 0, e.msg);
  }
}

Scene LoadScene(const std::string& path, const SceneLoadOptions& options) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, 0, "cannot open the file");
  std::stringstream ss;
  ss << in.rdbuf();
  return ParseScene(ss.str(), path, options);
}

namespace {

// A JSON value as YAML flow: strings double-quoted (escaped by the emitter, and never read back as a
// number or a boolean), numbers as JSON writes them (the shortest text that reads back exactly).
void EmitJson(YAML::Emitter& out, const nlohmann::json& v) {
  if (v.is_object()) {
    out << YAML::Flow << YAML::BeginMap;
    for (const auto& [k, x] : v.items()) {
      out << YAML::Key << YAML::DoubleQuoted << k << YAML::Value;
      EmitJson(out, x);
    }
    out << YAML::EndMap;
  } else if (v.is_array()) {
    out << YAML::Flow << YAML::BeginSeq;
    for (const nlohmann::json& x : v) EmitJson(out, x);
    out << YAML::EndSeq;
  } else if (v.is_string()) {
    out << YAML::DoubleQuoted << v.get<std::string>();
  } else {
    out << v.dump();  // a number, true, false or null: plain, as in JSON
  }
}

}  // namespace

namespace {

void EmitSides(YAML::Emitter& out, const std::vector<Side>& sides) {
  out << YAML::Key << "sides" << YAML::Value << YAML::BeginMap;
  for (const Side& side : sides) {
    out << YAML::Key << side.name << YAML::Value << YAML::Flow << YAML::BeginMap;
    if (side.bw_mm > 0) out << YAML::Key << "bw_mm" << YAML::Value << side.bw_mm;
    if (!side.colour.empty()) out << YAML::Key << "colour" << YAML::Value << side.colour;
    out << YAML::EndMap;
  }
  out << YAML::EndMap;
}

void EmitMarkersOnTheTable(YAML::Emitter& out, const Scene& s) {
  if (!s.anchors.empty()) {
    out << YAML::Key << "anchors" << YAML::Value << YAML::BeginSeq;
    for (const Anchor& a : s.anchors)
      out << YAML::Flow << YAML::BeginMap << YAML::Key << "marker" << YAML::Value << a.marker << YAML::Key << "size_mm"
          << YAML::Value << a.size_mm << YAML::Key << "x_mm" << YAML::Value << a.x_mm << YAML::Key << "y_mm"
          << YAML::Value << a.y_mm << YAML::Key << "heading_deg" << YAML::Value << a.heading_deg << YAML::EndMap;
    out << YAML::EndSeq;
  }
  if (!s.tokens.empty()) {
    out << YAML::Key << "tokens" << YAML::Value << YAML::BeginSeq;
    for (const Token& t : s.tokens)
      out << YAML::Flow << YAML::BeginMap << YAML::Key << "marker" << YAML::Value << t.marker << YAML::Key << "x_mm"
          << YAML::Value << t.x_mm << YAML::Key << "y_mm" << YAML::Value << t.y_mm << YAML::EndMap;
    out << YAML::EndSeq;
  }
}

void EmitUnit(YAML::Emitter& out, const Unit& u) {
  out << YAML::Flow << YAML::BeginMap;
  out << YAML::Key << "id" << YAML::Value << u.id << YAML::Key << "side" << YAML::Value << u.side;
  out << YAML::Key << "type" << YAML::Value << std::string(ToString(u.type));
  out << YAML::Key << "tags" << YAML::Value << YAML::Flow << u.tags;
  out << YAML::Key << "formation" << YAML::Value << u.formation;
  out << YAML::Key << "bases" << YAML::Value << YAML::BeginSeq;
  for (const BaseSpec& b : u.bases)
    out << YAML::BeginMap << YAML::Key << "width_mm" << YAML::Value << b.width_mm << YAML::Key << "depth_mm"
        << YAML::Value << b.depth_mm << YAML::Key << "offset_mm" << YAML::Value << YAML::Flow << YAML::BeginSeq
        << b.offset_mm.x() << b.offset_mm.y() << YAML::EndSeq << YAML::EndMap;
  out << YAML::EndSeq;
  if (u.pose)
    out << YAML::Key << "pose" << YAML::Value << YAML::BeginMap << YAML::Key << "x_mm" << YAML::Value << u.pose->x_mm
        << YAML::Key << "y_mm" << YAML::Value << u.pose->y_mm << YAML::Key << "heading_deg" << YAML::Value
        << u.pose->heading_deg << YAML::EndMap;
  if (u.marker) {
    out << YAML::Key << "marker" << YAML::Value << u.marker->id;
    out << YAML::Key << "marker_size_mm" << YAML::Value << u.marker->size_mm;
    out << YAML::Key << "marker_offset_mm" << YAML::Value << YAML::BeginSeq << u.marker->offset_mm.x()
        << u.marker->offset_mm.y() << YAML::EndSeq;
    out << YAML::Key << "marker_heading_deg" << YAML::Value << u.marker->heading_deg;
    out << YAML::Key << "marker_height_mm" << YAML::Value << u.marker->height_mm;
  }
  if (u.height_mm > 0) out << YAML::Key << "height_mm" << YAML::Value << u.height_mm;
  if (!u.stats.empty()) {
    out << YAML::Key << "stats" << YAML::Value << YAML::BeginMap;
    for (const auto& [k, v] : u.stats) out << YAML::Key << k << YAML::Value << v;
    out << YAML::EndMap;
  }
  out << YAML::EndMap;
}

void EmitTerrain(YAML::Emitter& out, const std::vector<Terrain>& terrain) {
  out << YAML::Key << "terrain" << YAML::Value << YAML::BeginSeq;
  for (const Terrain& t : terrain) {
    out << YAML::Flow << YAML::BeginMap << YAML::Key << "id" << YAML::Value << t.id << YAML::Key << "type"
        << YAML::Value << t.type;
    out << YAML::Key << "polygon" << YAML::Value << YAML::BeginSeq;
    for (const auto& p : t.polygon) out << YAML::Flow << YAML::BeginSeq << p.x() << p.y() << YAML::EndSeq;
    out << YAML::EndSeq;
    if (t.height_mm > 0) out << YAML::Key << "height_mm" << YAML::Value << t.height_mm;
    out << YAML::EndMap;
  }
  out << YAML::EndSeq;
}

// Written as the JSON they are, so declarations keep their exact values and types.
void EmitDeclarations(YAML::Emitter& out, const Declarations& d) {
  nlohmann::json decl = nlohmann::json::object();
  if (!d.active_side.empty()) decl["active_side"] = d.active_side;
  for (const auto& [k, v] : d.settings) decl["settings"][k] = v.value;
  for (const auto& [unit, kv] : d.units)
    for (const auto& [k, v] : kv) decl[unit][k] = v.value;
  out << YAML::Key << "declarations" << YAML::Value;
  EmitJson(out, decl);
}

}  // namespace

std::string SceneToYaml(const Scene& s) {
  YAML::Emitter out;
  out.SetDoublePrecision(10);
  out << YAML::BeginMap;
  out << YAML::Key << "bw_mm" << YAML::Value << s.bw_mm;
  out << YAML::Key << "table" << YAML::Value << YAML::Flow << YAML::BeginMap << YAML::Key << "width_mm" << YAML::Value
      << s.table_width_mm << YAML::Key << "depth_mm" << YAML::Value << s.table_depth_mm << YAML::EndMap;
  if (s.arc_model) out << YAML::Key << "arc_model" << YAML::Value << std::string(geom::ToString(*s.arc_model));
  if (!s.dictionary.empty()) out << YAML::Key << "dictionary" << YAML::Value << s.dictionary;
  if (!s.sides.empty()) EmitSides(out, s.sides);
  EmitMarkersOnTheTable(out, s);
  out << YAML::Key << "units" << YAML::Value << YAML::BeginSeq;
  for (const Unit& u : s.units) EmitUnit(out, u);
  out << YAML::EndSeq;
  if (!s.terrain.empty()) EmitTerrain(out, s.terrain);
  const Declarations& d = s.declarations;
  if (!d.active_side.empty() || !d.settings.empty() || !d.units.empty()) EmitDeclarations(out, d);
  out << YAML::EndMap;
  return std::string(out.c_str()) + "\n";
}

void SaveScene(const Scene& scene, const std::string& path) {
  const std::string text = SceneToYaml(scene);
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw InputError(path, 0, "cannot write the file");
    out << text;
    out.flush();
    if (!out) throw InputError(path, 0, "writing failed (disk full?)");
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::filesystem::remove(tmp);
    throw InputError(path, 0, "cannot replace the file: " + ec.message());
  }
}

}  // namespace vedette
