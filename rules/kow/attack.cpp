#include "rules/kow/attack.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace vedette::kow {

namespace {

// A single die rolling `need` or more, a 1 always failing; above 6: never.
double PDie(int need) { return need > 6 ? 0.0 : (7 - std::max(need, 2)) / 6.0; }

}  // namespace

AttackOdds AttackOddsOf(int attacks, int hit_on, int modifier, int defence) {
  AttackOdds a;
  a.hit_on = hit_on - modifier;
  a.halved = a.hit_on > 6;
  a.dice = std::max(0, a.halved ? attacks / 2 : attacks);
  a.p_hit = a.halved ? 1.0 / 6.0 : PDie(a.hit_on);
  a.damage_on = defence;
  a.p_damage = PDie(defence);
  const double p = a.p_hit * a.p_damage;
  a.expected_hits = a.dice * a.p_hit;
  a.expected_damage = a.dice * p;
  // Binomial(dice, p), built up one die at a time.
  a.damage.assign(a.dice + 1, 0.0);
  a.damage[0] = 1.0;
  for (int i = 0; i < a.dice; ++i)
    for (int k = i + 1; k >= 0; --k) a.damage[k] = a.damage[k] * (1.0 - p) + (k > 0 ? a.damage[k - 1] * p : 0.0);
  a.p_any_damage = 1.0 - a.damage[0];
  return a;
}

NerveChances NerveAfter(const AttackOdds& a, int damage_before, const NerveValues& nerve) {
  double steady = 0, wavering = 0, routed = 0;
  for (size_t k = 0; k < a.damage.size(); ++k) {
    if (k == 0) {
      steady += a.damage[0];
      continue;
    }
    const NerveOdds o = NerveTestOdds(damage_before + static_cast<int>(k), nerve);
    steady += a.damage[k] * o.P(o.steady);
    wavering += a.damage[k] * o.P(o.wavering);
    routed += a.damage[k] * o.P(o.routed);
  }
  return {steady, wavering, routed};
}

std::string FormatNerveChances(const NerveChances& n) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "steady %.0f%% / wavering %.0f%% / routed %.0f%%", 100.0 * n.steady, 100.0 * n.wavering,
                100.0 * n.routed);
  return buf;
}

std::string Describe(const AttackOdds& a) {
  char buf[200];
  std::string hit = a.halved ? "hits only on a 6 (needs " + std::to_string(a.hit_on) + "+: half the attacks, seed 38)"
                             : "hits on " + std::to_string(std::max(a.hit_on, 2)) + "+";
  std::string dmg = a.damage_on > 6 ? "cannot damage (Defence " + std::to_string(a.damage_on) + "+)"
                                    : "damages on " + std::to_string(std::max(a.damage_on, 2)) + "+";
  std::snprintf(buf, sizeof buf, ": %d dice, %.1f hits, %.1f damage expected, %.0f%% at least one", a.dice, a.expected_hits,
                a.expected_damage, 100.0 * a.p_any_damage);
  return hit + ", " + dmg + buf;
}

}  // namespace vedette::kow
