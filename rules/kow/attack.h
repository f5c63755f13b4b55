#pragma once
// Kings of War attack odds (seed 002): roll the unit's Attacks, each die hitting on its Ranged (seed 36)
// or Melee (seed 51) value or more after modifiers, a 1 always missing (seed 38, 55); re-roll the hits,
// each damaging on the target's Defence or more, a 1 always failing (seed 44, 57). Needing more than a 6
// to hit, a 6 still hits but only half the attacks are rolled, rounded down (seed 38). Counted exactly
// (binomial), with what the damage does to the target's nerve (seed 48, 57, 65-71).
#include <optional>
#include <string>
#include <vector>

#include "rules/kow/nerve.h"

namespace vedette::kow {

struct AttackOdds {
  int dice = 0;              // dice rolled to hit (half the attacks when halved)
  int hit_on = 0;            // the roll needed to hit after modifiers (may be above 6)
  bool halved = false;       // hit_on > 6: a 6 hits, half the attacks (seed 38)
  double p_hit = 0.0;        // per die, 0..1
  int damage_on = 0;         // the roll needed to damage (the target's Defence)
  double p_damage = 0.0;     // per hit, 0..1 (0 when damage_on > 6)
  double expected_hits = 0.0;
  double expected_damage = 0.0;
  double p_any_damage = 0.0;     // at least one point of damage
  std::vector<double> damage;    // P(k points of damage), k = 0..dice
};

// attacks: dice before halving; hit_on: the unit's Ranged or Melee value (4 for 4+); modifier: the sum
// of the to-hit modifiers (-1 each: the roll needed goes up by one); defence: the target's (4 for 4+).
AttackOdds AttackOddsOf(int attacks, int hit_on, int modifier, int defence);

// The target's nerve after the attack: damage suffered before (`damage_before`) plus this attack's. No
// damage, no test (seed 48: a unit that suffered damage tests): counted as steady.
struct NerveChances {
  double steady = 0.0, wavering = 0.0, routed = 0.0;  // 0..1, summing to 1
};
NerveChances NerveAfter(const AttackOdds& a, int damage_before, const NerveValues& nerve);
// "steady 58% / wavering 17% / routed 25%"
std::string FormatNerveChances(const NerveChances& n);

// "hits on 4+, damages on 5+: 10 dice, 5.0 hits, 1.7 damage expected, 86% at least one"
std::string Describe(const AttackOdds& a);

}  // namespace vedette::kow
