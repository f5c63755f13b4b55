#pragma once
// The scene: everything on the table that the rules need, as plain values. A scene file (YAML or
// JSON) describes it; a roster is a scene whose units have no pose yet (vision fills them in).
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "rules/geometry/arcs.h"
#include "rules/geometry/base.h"
#include "rules/geometry/polygon.h"

namespace vedette {

enum class UnitType { kInfantry, kCavalry, kArtillery, kGeneral };
std::string_view ToString(UnitType t);  // "infantry", "cavalry", "artillery", "general"
std::optional<UnitType> ParseUnitType(std::string_view s);

struct Pose {
  double x_mm = 0.0;         // table frame, mm
  double y_mm = 0.0;         // table frame, mm
  double heading_deg = 0.0;  // deg counter-clockwise from +x
};

// One rectangle of a unit. Units of several bases keep them in a fixed layout relative to the unit.
struct BaseSpec {
  double width_mm = 40.0;           // frontage, mm
  double depth_mm = 20.0;           // mm
  geom::Vec2 offset_mm{0.0, 0.0};   // centre of this base from the unit's pose, unit frame (right, forward), mm
};

// Where the unit's ArUco marker sits on it.
struct MarkerMount {
  int id = -1;                        // marker ID in the scene's dictionary
  double size_mm = 16.0;              // side of the black square, mm
  geom::Vec2 offset_mm{0.0, 0.0};     // marker centre from the unit's pose, unit frame (right, forward), mm
  double heading_deg = 0.0;           // marker top edge relative to the unit's front, deg counter-clockwise
  double height_mm = 0.0;             // marker face above the table, mm (parallax)
};

struct Unit {
  std::string id;                 // unique in the scene, e.g. "B1"
  std::string side;               // army, e.g. "blue"
  UnitType type = UnitType::kInfantry;
  std::vector<std::string> tags;  // light, heavy, elite, raw, militia, small, large, stubborn, ...
  std::string formation = "line"; // line, column, march_column, square, limbered, unlimbered, ...
  std::vector<BaseSpec> bases;    // at least one
  std::optional<Pose> pose;       // absent in a roster before vision locates the unit
  std::optional<MarkerMount> marker;
  double height_mm = 0.0;         // model height for line of sight, mm (0: by type)
  std::map<std::string, double> stats;  // ruleset numbers (e.g. speed_in, nerve_waver), free keys
  int line = 0;                   // line of the unit in its scene file, for messages

  bool HasTag(std::string_view tag) const;
};

struct Terrain {
  std::string id;
  std::string type;        // one of TerrainTypes()
  geom::Polygon polygon;   // table mm
  double height_mm = 0.0;  // for line of sight (0: by type)
  int line = 0;
};

// What a terrain type means to the rules, in one table so every ruleset reads the same.
struct TerrainKind {
  std::string_view name;
  bool bad_going;      // rough/difficult: slows movement, "bad going"
  bool cover;          // gives cover against fire
  bool defending;      // defending terrain / strong point in melee
  bool fortification;  // works, entrenchments
  bool blocks_sight;   // blocks line of sight through it
  bool impassable;
};
const std::vector<TerrainKind>& TerrainKinds();
const TerrainKind* FindTerrainKind(std::string_view name);

struct Anchor {
  int marker = -1;           // marker ID
  double size_mm = 50.0;     // marker side, mm
  double x_mm = 0.0;         // marker centre, table frame, mm
  double y_mm = 0.0;         // mm
  double heading_deg = 90.0; // direction of the marker's top edge (centre -> midpoint of corners 0,1), deg
  int line = 0;              // line in the scene file, for messages
};

// A loose marker on the table that is neither a unit nor an anchor, e.g. a state token (the states
// ruleset gives a reserved range of IDs a meaning). Several tokens may share an ID.
struct Token {
  int marker = -1;    // marker ID
  double x_mm = 0.0;  // marker centre, table frame, mm
  double y_mm = 0.0;  // mm
  int line = 0;       // line in the scene file, for messages
};

struct Side {
  std::string name;
  double bw_mm = 0.0;   // this army's base width, mm (0: the scene's)
  std::string colour;   // "#rrggbb" for the overlay ("" = default for the side's order)
};

// Something the camera cannot see, said by the players: who is active, a target chosen, a failed
// morale test last turn, a general attached, a unit's state. Values keep their file line.
struct Declared {
  nlohmann::json value;
  int line = 0;
};
struct Declarations {
  std::string active_side;                                           // "" when not said
  // Looked up by string_view (std::less<>): the rulesets ask for a key by its literal name for every
  // unit, thousands of times a frame, and a std::string made for each look-up was a tenth of that.
  using Keys = std::map<std::string, Declared, std::less<>>;
  std::map<std::string, Keys, std::less<>> units;  // unit id -> key -> value
  Keys settings;                                   // ruleset settings (e.g. threat_distance_bw)
  const Declared* Find(std::string_view unit, std::string_view key) const;
  // A unit's declarations (nullptr: none), for a ruleset that asks several keys of every unit: found
  // once per unit, then each key with Find(keys, key).
  const Keys* Of(std::string_view unit) const;
  static const Declared* Find(const Keys* keys, std::string_view key);
  static bool Flag(const Keys* keys, std::string_view key);
  bool Flag(std::string_view unit, std::string_view key) const;  // a true boolean
  // Declared routed (`routed: true`, or `state: routed` as the overlay's state menu sets it): its
  // next move is a flight, not an order.
  bool Routed(std::string_view unit) const;
  static bool Routed(const Keys* keys);  // the same, of a unit's declarations (null: none)
};

struct Scene {
  std::string source;          // file it came from ("" when built in code)
  double bw_mm = 40.0;         // 1 BW, mm
  double table_width_mm = 1800.0;
  double table_depth_mm = 1200.0;
  std::optional<geom::ArcModel> arc_model;  // scene's choice for `measure` (default: totsk)
  std::vector<Side> sides;
  std::vector<Unit> units;
  std::vector<Terrain> terrain;
  Declarations declarations;
  // Roster fields (vision)
  std::string dictionary;      // OpenCV predefined dictionary name, e.g. DICT_4X4_50
  int dictionary_line = 0;     // its line in the file, for messages
  std::vector<Anchor> anchors;
  std::vector<Token> tokens;   // loose markers (state tokens)

  const Unit* FindUnit(std::string_view id) const;
  Unit* FindUnit(std::string_view id);
  const Side* FindSide(std::string_view name) const;
  double BwFor(const Unit& u) const;  // the unit's army's BW, mm
};

// The rectangles of a unit in the table frame (requires a pose).
geom::Base BaseOf(const Unit& u, size_t index);
std::vector<geom::Base> BasesOf(const Unit& u);
// The bounding rectangle of all the unit's bases, in the unit's frame: what the rules treat as the
// unit's outline (one base: that base).
geom::Base Footprint(const Unit& u);

}  // namespace vedette
