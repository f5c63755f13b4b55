#pragma once
// Random but plausible battle tables for the rules' benchmark and property tests: two armies facing
// each other across a table, bases never overlapping, a share of them pushed into contact with an
// enemy, some terrain, and the numbers every ruleset reads (Kings of War speeds, nerve and ranges; For
// King or Empress combat values). Deterministic for a seed (its own generator, not <random>'s
// distributions, so the same seed gives the same table with any standard library).
#include <cstdint>
#include <string>

#include "rules/scene/scene.h"

namespace vedette {

struct SyntheticTableOptions {
  int units = 60;                   // units to place (fewer if the table is full)
  double table_width_mm = 1800.0;   // mm
  double table_depth_mm = 1200.0;   // mm
  double bw_mm = 40.0;              // mm
  double contact_share = 0.1;       // share of units put into contact with an enemy front, 0..1
  int terrain_pieces = 6;           // woods, rough, hills, a village
  uint64_t seed = 1;
  bool Check(std::string* error) const;
};

// Units "B1".. (blue, near y = 0, facing +y) and "R1".. (red, facing -y); about 60 % infantry (a
// fifth of them light), 20 % cavalry, 12 % artillery, a few generals. No declarations: each user adds
// the ones its ruleset reads.
Scene MakeSyntheticTable(const SyntheticTableOptions& options);

}  // namespace vedette
