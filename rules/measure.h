#pragma once
// What `vedette measure` reports between two units, and what disputes start from: distances both
// ways, arcs both ways, contact, zone of control and the straight-ahead corridor.
#include <string>

#include <nlohmann/json.hpp>

#include "rules/geometry/arcs.h"
#include "rules/geometry/contact.h"
#include "rules/geometry/corridor.h"
#include "rules/scene/scene.h"

namespace vedette {

struct Measurement {
  std::string from, to;               // unit ids (A and B)
  double bw_mm = 0.0;                 // 1 BW of A's army, mm
  double unit_mm = 0.0;               // the unit lengths are shown in, mm (1 BW, or 25.4 for inches)
  std::string unit_name = "BW";       // "BW" or "in"
  double distance_mm = 0.0;           // closest edge to edge, mm
  geom::Vec2 closest_on_from{0, 0};   // table mm
  geom::Vec2 closest_on_to{0, 0};     // table mm
  double leader_from_to_mm = 0.0;     // A's leader point to B's closest point, mm
  double leader_to_from_mm = 0.0;     // B's leader point to A's closest point, mm
  geom::ArcModel arc_model = geom::ArcModel::kTotsk;
  geom::Arc arc_of_to = geom::Arc::kFront;    // the arc of B that A is in
  geom::Arc arc_of_from = geom::Arc::kFront;  // the arc of A that B is in
  geom::ArcShares shares_of_to;               // A's area in each of B's arcs
  geom::ArcShares shares_of_from;             // B's area in each of A's arcs
  geom::Contact contact;                      // edges are A's (edge_a) and B's (edge_b)
  geom::Overlap overlap;                      // how far the bases reach into each other (deepest pair)
  double contact_tolerance_mm = 2.0;          // bases this close touch; an overlap deeper than this is one, mm
  bool overlapping = false;                   // overlap deeper than the contact tolerance: not a contact
                                              // but bases on top of one another, which no rule allows
  geom::CorridorHit from_in_zoc_of_to;        // A in B's zone of control (1 BW of B's army)
  geom::CorridorHit to_in_zoc_of_from;        // B in A's zone of control
  geom::CorridorHit from_ahead_of_to;         // A straight ahead of B (unbounded corridor): reach = how far
  geom::CorridorHit to_ahead_of_from;         // B straight ahead of A
};

struct MeasureOptions {
  geom::ArcModel arc_model = geom::ArcModel::kTotsk;
  // The unit lengths are shown in besides mm: the army's BW (unit_mm = 0), or a ruleset's unit such as
  // the inch (unit_mm = 25.4, unit_name = "in").
  double unit_mm = 0.0;
  std::string unit_name = "BW";
  double contact_tolerance_mm = 2.0;
  double corridor_tolerance_mm = 0.5;
};

// Throws std::invalid_argument when a unit is missing or has no pose.
Measurement Measure(const Scene& scene, const std::string& from, const std::string& to, const MeasureOptions& options);

nlohmann::json ToJson(const Measurement& m);
std::string ToText(const Measurement& m);

// "41.2 mm (1.03 BW)"
std::string FormatLength(double mm, double unit_mm, const std::string& unit_name);

}  // namespace vedette
