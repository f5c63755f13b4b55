#include "rules/totsk/totsk_dice.h"

namespace vedette::totsk {

MoraleOdds MoraleOddsFor(int total, int pass_at_least, int rout_at_most) {
  int pass = 0, rout = 0;
  for (int a = 1; a <= 6; ++a)
    for (int b = 1; b <= 6; ++b) {
      const int score = a + b + total;
      if (score >= pass_at_least) ++pass;
      else if (score <= rout_at_most) ++rout;
    }
  MoraleOdds o;
  o.p_pass = pass / 36.0;
  o.p_rout = rout / 36.0;
  o.p_lose_fail = (36 - pass - rout) / 36.0;
  return o;
}

double ActionSuccess(int total, int need) {
  int ok = 0;
  for (int a = 1; a <= 6; ++a)
    if (a + total >= need) ++ok;
  return ok / 6.0;
}

}  // namespace vedette::totsk
