#pragma once
// Every field of a TotSK analysis as text, numbers to the last digit: two analyses are equal when
// their descriptions are, and a difference shows as the unit's line that differs.
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "rules/totsk/totsk_analysis.h"

namespace vedette::totsk_test {

inline std::string Join(const std::vector<std::string>& v) {
  std::string out;
  for (const std::string& s : v) out += s + ",";
  return out;
}

inline std::string Num(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

inline std::string ModifiersText(const std::vector<Modifier>& mods) {
  std::string out;
  for (const Modifier& m : mods) out += m.rule + " " + std::to_string(m.value) + " by " + Join(m.by) + "; ";
  return out;
}

// Every field of the analysis, one unit per line, numbers to the last digit: two analyses are equal
// when their descriptions are.
inline std::string Describe(const totsk::TotskAnalysis& a) {
  std::ostringstream o;
  for (const totsk::UnitAnalysis& u : a.units) {
    o << u.id << " g" << u.general << " i" << u.infantry << " zoc " << Join(u.zoc_of) << " L " << Join(u.left_flank)
      << " R " << Join(u.right_flank) << " rear " << Join(u.rear) << " light " << Join(u.light_threats) << " secure "
      << u.secure << " " << Join(u.secure_left) << "|" << Join(u.secure_right) << " rs " << Join(u.rear_support);
    for (const totsk::MoraleReason& r : u.reasons)
      o << " reason " << r.by << " " << r.kind << " " << r.reason << " " << Num(r.distance_mm) << " " << Join(r.group) << " "
        << r.imposed;
    o << " must " << u.must_test << " mods " << ModifiersText(u.modifiers) << " total " << u.total << " odds "
      << Num(u.odds.p_pass) << "/" << Num(u.odds.p_lose_fail) << "/" << Num(u.odds.p_rout) << " ctx " << u.terrain_context
      << " reroll " << Join(u.reroll_by) << " assume " << Join(u.assumptions);
    for (const totsk::ActionTest& t : u.action_tests)
      o << " action " << t.key << " " << t.difficulty << " " << t.need << " " << Join(t.by) << " " << t.test.odds << " "
        << ModifiersText(t.test.modifiers);
    o << "\n";
  }
  for (const totsk::TargetChoice& c : a.choices) o << "choice " << c.by << " -> " << c.target << " (" << c.why << ")\n";
  for (const std::string& n : a.notes) o << "note " << n << "\n";
  return o.str();
}

}  // namespace vedette::totsk_test
