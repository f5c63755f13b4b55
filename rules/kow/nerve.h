#pragma once
// Kings of War nerve test odds (seed 002, "Testing Nerve", lines 65-71): 2D6 plus the unit's total
// damage against its two nerve values, wavering and routing. A double 6 always gives at least a
// Wavering result; a double 1 always passes. Counted exactly over the 36 rolls.
#include <optional>
#include <string>

namespace vedette::kow {

struct NerveValues {
  std::optional<int> waver;  // wavering limit ("-" in a unit profile: absent)
  std::optional<int> rout;   // routing limit ("-": absent)
};

struct NerveOdds {
  int steady = 0;    // of 36 rolls: the unit is fine
  int wavering = 0;  // of 36
  int routed = 0;    // of 36
  double P(int n) const { return n / 36.0; }
};

NerveOdds NerveTestOdds(int damage, const NerveValues& nerve);

// The result of one roll (dice 1..6 each): "steady", "wavering" or "routed".
std::string NerveResult(int die1, int die2, int damage, const NerveValues& nerve);

// "steady 58% / wavering 17% / routed 25%"
std::string FormatNerveOdds(const NerveOdds& odds);

}  // namespace vedette::kow
