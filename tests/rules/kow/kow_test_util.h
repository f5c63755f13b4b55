#pragma once
// Shared helpers of the Kings of War tests: analysing a scene with the kow ruleset, a unit's report
// entry, a base and two charge routes compared.
#include <cstdint>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "rules/geometry/base.h"
#include "rules/kow/charge.h"
#include "rules/ruleset.h"

namespace vedette::kow_test {

inline Findings Analyze(const Scene& s) { return MakeRuleset("kow")->Analyze(s); }

// The report's entry for one unit (report["units"][i] with "id" == id), by reference; throws when absent.
inline const nlohmann::json& UnitReport(const Findings& f, const std::string& id) {
  for (const nlohmann::json& u : f.report["units"])
    if (u["id"] == id) return u;
  throw std::runtime_error("no unit " + id + " in the report");
}

// A seeded xorshift generator: the same random tables on every machine.
struct Rng {
  uint64_t s = 0x9E3779B97F4A7C15ull;
  double Uniform(double lo, double hi) {
    s ^= s << 13, s ^= s >> 7, s ^= s << 17;
    return lo + (hi - lo) * static_cast<double>(s >> 11) / static_cast<double>(1ull << 53);
  }
};

// A base at c (mm), turned `heading` deg, w x d mm.
inline geom::Base Rect(geom::Vec2 c, double heading, double w, double d) {
  geom::Base b;
  b.centre_mm = c, b.heading_deg = heading, b.width_mm = w, b.depth_mm = d;
  return b;
}

// Two charge routes the same to the bit (all but where the search read obstacles).
inline bool SameRoute(const kow::ChargeRoute& a, const kow::ChargeRoute& b) {
  return a.found == b.found && a.corner_only == b.corner_only && a.advance_mm == b.advance_mm && a.pivot_deg == b.pivot_deg &&
         a.final_mm == b.final_mm && a.length_mm == b.length_mm && a.contact_point == b.contact_point &&
         a.at_contact.centre_mm == b.at_contact.centre_mm && a.at_contact.heading_deg == b.at_contact.heading_deg;
}

}  // namespace vedette::kow_test
