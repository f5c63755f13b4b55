#pragma once
// Shared helpers of the unit-states tests: a MoveRequest to a pose.
#include <string>

#include "rules/ruleset.h"

namespace vedette::states_test {

// A move of `unit` to (x, y) facing `heading` degrees.
inline MoveRequest Move(const std::string& unit, double x, double y, double heading) {
  MoveRequest m;
  m.unit = unit;
  m.to = {x, y, heading};
  return m;
}

}  // namespace vedette::states_test
