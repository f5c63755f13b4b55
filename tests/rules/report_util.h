#pragma once
// Reading a ruleset's report in tests.
#include <cstdio>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "rules/ruleset.h"

namespace vedette {

// The report's entry for one unit (report["units"][i] with "id" == id); throws when absent.
inline nlohmann::json UnitOf(const Findings& f, const std::string& id) {
  for (const nlohmann::json& u : f.report["units"])
    if (u["id"] == id) return u;
  throw std::runtime_error("no unit " + id + " in the report");
}

// Everything a findings' drawing and tests hold, one line each (points to 1e-9 mm), to compare two analyses.
inline std::string DrawingAndTests(const Findings& f) {
  std::string out;
  char buf[96];
  for (const DrawPrimitive& d : f.drawing) {
    std::snprintf(buf, sizeof buf, "draw %d %d %08x %d %d %d %d", static_cast<int>(d.kind), static_cast<int>(d.style), d.rgba,
                  d.filled, d.dashed, static_cast<int>(d.glyph), d.own_place);
    out += buf;
    out += " " + d.layer + " " + d.unit_id + " [" + d.text + "]";
    for (const geom::Vec2& p : d.points_mm) {
      std::snprintf(buf, sizeof buf, " %.9f,%.9f", p.x(), p.y());
      out += buf;
    }
    out += "\n";
  }
  for (const RequiredTest& t : f.tests) {
    std::snprintf(buf, sizeof buf, " %d %.12f ", t.total, t.p_success);
    out += "test " + t.unit + " " + t.kind + buf + t.odds + " [" + t.reason + "]";
    for (const Modifier& m : t.modifiers) out += " (" + std::to_string(m.value) + " " + m.rule + ")";
    out += "\n";
  }
  return out;
}

}  // namespace vedette
