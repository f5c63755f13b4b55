#pragma once
// The Generals' command points: which General's point serves each bonus move of a turn. QRS 103:
// "1 bonus move/action test permitted per level of the General if unit within 6 BW of a General";
// FAQ "Extra moves": "A general need to use one of his command ratings to give a chance of a second
// or more moves". Used by the analysis (bonus moves declared) and by the move check (a second move
// seen by the camera spends a point; with none left in reach it is illegal).
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "rules/scene/scene.h"

namespace vedette::totsk {

int Rating(const Unit& general);  // stats: rating, rounded; 0 when not given

struct CommandPoints {
  struct General {
    const Unit* unit = nullptr;
    int rating = 0;                     // points a turn
    std::vector<std::string> in_reach;  // units of its side within reach (ids, scene order)
    std::vector<std::string> used_by;   // the bonus moves its points serve (unit ids, sorted)
  };
  std::vector<General> generals;                        // every General on the table and not lost, scene order
  std::map<std::string, std::vector<size_t>> servers;   // unit id -> the generals (indices) with a rating in its reach
  std::vector<std::string> unserved;                    // bonus moves no point serves (unit ids, in the order given)
};

struct CommandReach {
  double reach_bw = 6.0;  // a General's points serve units within this of its base, BW (QRS 103)
  double tol_mm = 0.0;    // measuring tolerance added to the reach, mm
  // false: only the units making bonus moves are measured (`in_reach` lists no other unit); the
  // matching is the same. The live frame draws the matching alone, and measuring every unit of a
  // 300-unit table against every General was a sixth of its TotSK frame.
  bool every_unit = true;
};

// bonus_moves: one entry per bonus move made this turn (a unit that made two is named twice), in the
// order they were made. As many as possible are served (augmenting paths over the points); one made
// later never takes an earlier one's point, so when the last is unserved it is the one left out.
// lost(u): a General that is lost gives no points. Units are measured where they stand in `scene`.
CommandPoints MatchCommandPoints(const Scene& scene, const std::vector<std::string>& bonus_moves, const CommandReach& reach,
                                 const std::function<bool(const Unit&)>& lost);

}  // namespace vedette::totsk
