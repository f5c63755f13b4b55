#pragma once
// A move as the camera saw it: a unit left its rest pose and came to rest elsewhere. Perception
// (vision/) reports it; the rules (rules/move_judge.h) judge it.
#include <string>
#include <vector>

#include "rules/scene/scene.h"

namespace vedette {

struct ObservedMove {
  std::string unit;          // unit id
  Pose from;                 // where it rested before, table frame
  Pose to;                   // where it rests now, table frame
  std::vector<Pose> path;    // poses seen on the way, from `from` to `to` inclusive
  double started_t = 0;      // when it started moving, s (the source's clock)
  double ended_t = 0;        // when it came to rest, s
  double sigma_mm = 0;       // 1-sigma of `to`'s position, mm
  double sigma_deg = 0;      // 1-sigma of `to`'s heading, deg
};

}  // namespace vedette
