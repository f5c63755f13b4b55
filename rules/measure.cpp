#include "rules/measure.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "rules/geometry/distance.h"
#include "rules/overlaps.h"

namespace vedette {

namespace {

const Unit& Placed(const Scene& scene, const std::string& id) {
  const Unit* u = scene.FindUnit(id);
  if (!u) throw std::invalid_argument("no unit '" + id + "' in the scene");
  if (!u->pose) throw std::invalid_argument("unit '" + id + "' has no pose");
  return *u;
}

nlohmann::json HitJson(const geom::CorridorHit& h) {
  return {{"inside", h.inside}, {"reach_mm", h.reach_mm}, {"margin_mm", h.margin_mm}};
}

nlohmann::json SharesJson(const geom::ArcShares& s) {
  nlohmann::json j;
  for (geom::Arc a : {geom::Arc::kFront, geom::Arc::kLeftFlank, geom::Arc::kRightFlank, geom::Arc::kRear})
    j[std::string(geom::ToString(a))] = s[a];
  return j;
}

}  // namespace

std::string FormatLength(double mm, double unit_mm, const std::string& unit_name) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "%.1f mm (%.2f %s)", mm, unit_mm > 0 ? mm / unit_mm : 0.0, unit_name.c_str());
  return buf;
}

Measurement Measure(const Scene& scene, const std::string& from, const std::string& to, const MeasureOptions& opt) {
  const Unit& a = Placed(scene, from);
  const Unit& b = Placed(scene, to);
  Measurement m;
  m.from = from;
  m.to = to;
  m.bw_mm = scene.BwFor(a);
  m.unit_mm = opt.unit_mm > 0 ? opt.unit_mm : m.bw_mm;
  m.unit_name = opt.unit_mm > 0 ? opt.unit_name : "BW";
  m.arc_model = opt.arc_model;
  m.distance_mm = std::numeric_limits<double>::infinity();
  for (const geom::Base& ba : BasesOf(a)) {
    for (const geom::Base& bb : BasesOf(b)) {
      const geom::ClosestPoints c = geom::BaseToBase(ba, bb);
      if (c.distance_mm < m.distance_mm) {
        m.distance_mm = c.distance_mm;
        m.closest_on_from = c.on_a;
        m.closest_on_to = c.on_b;
      }
    }
  }
  const geom::Base fa = Footprint(a), fb = Footprint(b);
  m.leader_from_to_mm = geom::LeaderToBase(fa, fb).distance_mm;
  m.leader_to_from_mm = geom::LeaderToBase(fb, fa).distance_mm;
  m.arc_of_to = geom::ArcOfBase(fb, fa, opt.arc_model);
  m.arc_of_from = geom::ArcOfBase(fa, fb, opt.arc_model);
  m.shares_of_to = geom::ArcSharesOf(fb, fa, opt.arc_model);
  m.shares_of_from = geom::ArcSharesOf(fa, fb, opt.arc_model);
  m.contact = geom::FindContact(fa, fb, opt.contact_tolerance_mm);
  m.overlap = UnitsOverlap(a, b);
  m.contact_tolerance_mm = opt.contact_tolerance_mm;
  m.overlapping = m.overlap.overlapping && m.overlap.depth_mm > opt.contact_tolerance_mm;
  m.from_in_zoc_of_to = geom::InCorridor(fb, geom::Edge::kFront, scene.BwFor(b), fa, opt.corridor_tolerance_mm);
  m.to_in_zoc_of_from = geom::InCorridor(fa, geom::Edge::kFront, scene.BwFor(a), fb, opt.corridor_tolerance_mm);
  constexpr double kUnbounded = 1e7;  // mm: the whole table and far beyond
  m.from_ahead_of_to = geom::InCorridor(fb, geom::Edge::kFront, kUnbounded, fa, opt.corridor_tolerance_mm);
  m.to_ahead_of_from = geom::InCorridor(fa, geom::Edge::kFront, kUnbounded, fb, opt.corridor_tolerance_mm);
  return m;
}

nlohmann::json ToJson(const Measurement& m) {
  nlohmann::json j;
  j["from"] = m.from;
  j["to"] = m.to;
  j["bw_mm"] = m.bw_mm;
  j["unit"] = m.unit_name;
  j["unit_mm"] = m.unit_mm;
  j["distance_mm"] = m.distance_mm;
  j["distance_bw"] = m.distance_mm / m.bw_mm;
  if (m.unit_name != "BW") j["distance_" + m.unit_name] = m.distance_mm / m.unit_mm;
  j["closest_points_mm"] = {{m.closest_on_from.x(), m.closest_on_from.y()}, {m.closest_on_to.x(), m.closest_on_to.y()}};
  j["leader_to_closest_mm"] = m.leader_from_to_mm;
  j["leader_to_closest_bw"] = m.leader_from_to_mm / m.bw_mm;
  j["reverse_leader_to_closest_mm"] = m.leader_to_from_mm;
  j["arc_model"] = std::string(geom::ToString(m.arc_model));
  j["arc_of_to"] = std::string(geom::ToString(m.arc_of_to));
  j["arc_of_from"] = std::string(geom::ToString(m.arc_of_from));
  j["arc_shares_of_to"] = SharesJson(m.shares_of_to);
  j["arc_shares_of_from"] = SharesJson(m.shares_of_from);
  // Bases on top of one another are not in contact: the position is impossible and says so.
  j["contact"] = m.contact.in_contact && !m.overlapping;
  j["overlapping"] = m.overlapping;
  j["overlap"] = {{"depth_mm", m.overlap.depth_mm}, {"width_mm", m.overlap.width_mm}, {"area_mm2", m.overlap.area_mm2}};
  if (m.contact.in_contact && !m.overlapping) {
    j["contact_edges"] = {{"from", std::string(geom::ToString(m.contact.edge_a))},
                          {"to", std::string(geom::ToString(m.contact.edge_b))},
                          {"shared_mm", m.contact.shared_mm},
                          {"corner_only", m.contact.corner_only}};
  }
  j["in_zoc_of_to"] = m.from_in_zoc_of_to.inside;
  j["zoc_of_to"] = HitJson(m.from_in_zoc_of_to);
  j["in_zoc_of_from"] = m.to_in_zoc_of_from.inside;
  j["zoc_of_from"] = HitJson(m.to_in_zoc_of_from);
  j["straight_ahead_of_to"] = HitJson(m.from_ahead_of_to);
  j["straight_ahead_of_from"] = HitJson(m.to_ahead_of_from);
  return j;
}

std::string ToText(const Measurement& m) {
  auto len = [&](double mm) { return FormatLength(mm, m.unit_mm, m.unit_name); };
  auto words = [](std::string_view s) {
    std::string out(s);
    std::replace(out.begin(), out.end(), '_', ' ');
    return out;
  };
  const std::string& A = m.from;
  const std::string& B = m.to;
  std::ostringstream t;
  t << A << " -> " << B << "   (1 " << m.unit_name << " = " << m.unit_mm << " mm, arcs: " << geom::ToString(m.arc_model) << ")\n";
  auto row = [&](const std::string& label, const std::string& value) {
    t << "  " << label << std::string(label.size() < 24 ? 24 - label.size() : 1, ' ') << value << "\n";
  };
  row("edge to edge", len(m.distance_mm));
  row(A + " leader -> " + B, len(m.leader_from_to_mm));
  row(B + " leader -> " + A, len(m.leader_to_from_mm));
  row(A + " is in " + B + "'s", words(geom::ToString(m.arc_of_to)) + " arc");
  row(B + " is in " + A + "'s", words(geom::ToString(m.arc_of_from)) + " arc");
  if (m.overlapping) {
    char ov[160];
    std::snprintf(ov, sizeof ov, "YES: %s and %s overlap by %.1f x %.1f mm (%.0f mm^2): bases may not stand on one another", A.c_str(),
                  B.c_str(), m.overlap.depth_mm, m.overlap.width_mm, m.overlap.area_mm2);
    row("overlap", ov);
    char slack[64];
    std::snprintf(slack, sizeof slack, "%g mm", m.contact_tolerance_mm);
    row("contact", std::string("no: the bases overlap by more than the ") + slack + " contact slack");
  } else if (m.contact.in_contact) {
    row("contact", "yes: " + A + "'s " + words(geom::ToString(m.contact.edge_a)) + " to " + B + "'s " +
                       words(geom::ToString(m.contact.edge_b)) + (m.contact.corner_only ? " (corner only)" : ""));
  } else {
    row("contact", "no (gap " + len(m.contact.gap_mm) + ")");
  }
  auto zoc = [&](const geom::CorridorHit& h, const std::string& of) {
    if (h.inside) return "yes: " + len(h.reach_mm) + " ahead of " + of + ", inside its 1 BW by " + len(h.margin_mm);
    return "no: " + len(-h.margin_mm) + " short";
  };
  if (m.unit_name == "BW") {  // a zone of control is 1 BW deep: a BW game's rule
    row(A + " in " + B + "'s ZOC", zoc(m.from_in_zoc_of_to, B));
    row(B + " in " + A + "'s ZOC", zoc(m.to_in_zoc_of_from, A));
  }
  row(A + " ahead of " + B, m.from_ahead_of_to.margin_mm >= 0 ? "yes, at " + len(m.from_ahead_of_to.reach_mm) : "no");
  row(B + " ahead of " + A, m.to_ahead_of_from.margin_mm >= 0 ? "yes, at " + len(m.to_ahead_of_from.reach_mm) : "no");
  return t.str();
}

}  // namespace vedette
