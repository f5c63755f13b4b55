#include "rules/kow/nerve.h"

#include <cmath>
#include <cstdio>

namespace vedette::kow {

std::string NerveResult(int die1, int die2, int damage, const NerveValues& nerve) {
  // Line 71: "if a double "1" is rolled on the 2d6 the unit passes the Nerve test regardless of the damage".
  if (die1 == 1 && die2 == 1) return "steady";
  const int total = die1 + die2 + damage;
  // Line 69: "equal to or greater than the Routing limit, then the unit is routed".
  if (nerve.rout && total >= *nerve.rout) return "routed";
  // Line 67: "equal to or greater than the Waivering limit"; line 71: a double 6 still suffers Wavering.
  if ((nerve.waver && total >= *nerve.waver) || (die1 == 6 && die2 == 6)) return "wavering";
  return "steady";
}

NerveOdds NerveTestOdds(int damage, const NerveValues& nerve) {
  NerveOdds o;
  for (int a = 1; a <= 6; ++a) {
    for (int b = 1; b <= 6; ++b) {
      const std::string r = NerveResult(a, b, damage, nerve);
      if (r == "steady") ++o.steady;
      else if (r == "wavering") ++o.wavering;
      else ++o.routed;
    }
  }
  return o;
}

std::string FormatNerveOdds(const NerveOdds& o) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "steady %.0f%% / wavering %.0f%% / routed %.0f%%", 100.0 * o.P(o.steady),
                100.0 * o.P(o.wavering), 100.0 * o.P(o.routed));
  return buf;
}

}  // namespace vedette::kow
