#pragma once
// Exact dice odds for the two TotSK procedures: the morale test (2D6 + modifiers against the morale
// table) and the action test (1D6 + modifiers against a difficulty's score).
namespace vedette::totsk {

struct MoraleOdds {
  double p_pass = 0.0;       // modified score >= pass_at_least
  double p_lose_fail = 0.0;  // between the two
  double p_rout = 0.0;       // modified score <= rout_at_most
};

// 2D6 + total; the three probabilities sum to 1 (each a multiple of 1/36).
MoraleOdds MoraleOddsFor(int total, int pass_at_least, int rout_at_most);

// P(1D6 + total >= need), a multiple of 1/6 in [0, 1]. The QRS gives no automatic success or failure
// on a natural 6 or 1, so a large enough modifier makes a test certain either way.
double ActionSuccess(int total, int need);

}  // namespace vedette::totsk
