#pragma once
// Keys of what a ruleset reads, for the reuse between calls on a table watched frame after frame (the
// live window, `process`): equal keys mean the same input, so the last call's answer stands. 64-bit
// mixes: a collision would reuse a stale answer, at odds of about 2^-64 per comparison.
#include <bit>
#include <cstdint>
#include <string>

#include "rules/scene/scene.h"

namespace vedette {

struct KeyMix {
  uint64_t h = 1469598103934665603ull;
  void U(uint64_t v) { h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2); }
  void D(double v) { U(std::bit_cast<uint64_t>(v)); }
  void S(const std::string& s) { U(std::hash<std::string>{}(s)); }
};

// The unit's own data: id, side, type, formation, tags, bases, pose, height and stats (not its
// declarations, which live in the scene's Declarations).
uint64_t UnitKey(const Unit& u);
// The unit's declarations (0 mixed in when it has none).
uint64_t UnitDeclarationsKey(const Declarations& d, const std::string& unit);
// Every terrain piece: id, type, height and outline.
uint64_t TerrainKey(const Scene& scene);
// Every declaration of the scene: each unit's keys and values, the settings and the active side.
uint64_t DeclarationsKey(const Declarations& d);

}  // namespace vedette
