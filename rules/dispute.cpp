#include "rules/dispute.h"

#include <cmath>
#include <cstdio>
#include <sstream>

#include "rules/geometry/distance.h"
#include "rules/input_error.h"

namespace vedette {

namespace {

const Unit& PlacedUnit(const Scene& scene, const std::string& id) {
  const Unit* u = scene.FindUnit(id);
  if (!u) throw InputError(scene.source, 0, "no unit '" + id + "' in the roster");
  if (!u->pose) throw InputError(scene.source, u->line, "unit '" + id + "' was not located (its marker was not seen)");
  return *u;
}

PoseUncertainty SigmaOf(const std::map<std::string, PoseUncertainty>& sigmas, const std::string& id) {
  const auto it = sigmas.find(id);
  return it == sigmas.end() ? PoseUncertainty{} : it->second;
}

}  // namespace

double HeadingLeverMm(const Unit& u) {
  const geom::Base fp = Footprint(u);
  return 0.5 * std::hypot(fp.width_mm, fp.depth_mm);
}

std::string VerdictWord(VerdictKind k) {
  switch (k) {
    case VerdictKind::kYes: return "YES";
    case VerdictKind::kNo: return "NO";
    case VerdictKind::kTooCloseToCall: return "TOO_CLOSE_TO_CALL";
  }
  return "?";
}

Dispute SettleDispute(const DisputeOptions& options, const Ruleset& ruleset, const Scene& scene,
                      const std::map<std::string, PoseUncertainty>& sigmas, const std::string& from,
                      const std::string& to) {
  std::string error;
  if (!options.Check(&error)) throw std::invalid_argument("dispute options: " + error);
  const Unit& a = PlacedUnit(scene, from);
  const Unit& b = PlacedUnit(scene, to);
  if (from == to) throw InputError(scene.source, a.line, "a dispute needs two different units (got '" + from + "' twice)");
  const RulesetInfo info = ruleset.Info();
  MeasureOptions mo;
  mo.arc_model = info.arc_model;
  const Measurement m = Measure(scene, from, to, mo);
  Dispute d;
  d.from = from;
  d.to = to;
  d.unit_name = info.unit_name.empty() ? "BW" : info.unit_name;
  d.unit_mm = d.unit_name == "in" ? 25.4 : scene.BwFor(a);
  d.distance_mm = m.distance_mm;
  d.leader_mm = m.leader_from_to_mm;
  d.closest_on_from = m.closest_on_from;
  d.closest_on_to = m.closest_on_to;
  d.arc_of_to = std::string(geom::ToString(m.arc_of_to));
  d.arc_of_from = std::string(geom::ToString(m.arc_of_from));
  d.from_sigma = SigmaOf(sigmas, from);
  d.to_sigma = SigmaOf(sigmas, to);
  d.sigma_mm = DistanceSigmaMm(d.from_sigma, HeadingLeverMm(a), d.to_sigma, HeadingLeverMm(b));
  d.rules = ruleset.PairRules(scene, from, to);
  d.verdicts = DecideRules(options.verdict, d.rules, d.sigma_mm);
  return d;
}

Dispute SettleDisputeToPoint(const DisputeOptions& options, const Ruleset& ruleset, const Scene& scene,
                             const std::map<std::string, PoseUncertainty>& sigmas, const std::string& from,
                             const geom::Vec2& point_mm) {
  const Unit& a = PlacedUnit(scene, from);
  const RulesetInfo info = ruleset.Info();
  const geom::Base fa = Footprint(a);
  const geom::ClosestPoints c = geom::BaseToPoint(fa, point_mm);
  Dispute d;
  d.from = from;
  d.to_point = point_mm;
  d.unit_name = info.unit_name.empty() ? "BW" : info.unit_name;
  d.unit_mm = d.unit_name == "in" ? 25.4 : scene.BwFor(a);
  d.distance_mm = c.distance_mm;
  d.leader_mm = geom::LeaderToPoint(fa, point_mm);
  d.closest_on_from = c.on_a;
  d.closest_on_to = point_mm;
  d.arc_of_from = std::string(geom::ToString(geom::ArcOfPoint(fa, point_mm, info.arc_model)));
  d.from_sigma = SigmaOf(sigmas, from);
  // A clicked point is exact; only A's pose is uncertain.
  d.sigma_mm = DistanceSigmaMm(d.from_sigma, HeadingLeverMm(a), {}, 0.0);
  // Rules between a unit and a point: the distances a player asks about (no unit-to-unit rule applies).
  d.rules.push_back({"within 1 " + d.unit_name, "edge_to_point", d.unit_mm, d.distance_mm});
  d.rules.push_back({"leader within 1 " + d.unit_name, "leader_to_point", d.unit_mm, d.leader_mm});
  d.verdicts = DecideRules(options.verdict, d.rules, d.sigma_mm);
  return d;
}

nlohmann::json ToJson(const Dispute& d) {
  nlohmann::json j;
  j["from"] = d.from;
  if (d.to_point) j["to"] = {{"x_mm", d.to_point->x()}, {"y_mm", d.to_point->y()}};
  else j["to"] = d.to;
  j["distance_mm"] = d.distance_mm;
  j["sigma_mm"] = d.sigma_mm;
  j["unit"] = d.unit_name;
  j["distance_bw"] = d.distance_mm / d.unit_mm;
  j["leader_mm"] = d.leader_mm;
  if (!d.arc_of_to.empty()) j["arc_of_to"] = d.arc_of_to;
  j["arc_of_from"] = d.arc_of_from;
  j["closest_points_mm"] = {{d.closest_on_from.x(), d.closest_on_from.y()}, {d.closest_on_to.x(), d.closest_on_to.y()}};
  j["pose_sigma"] = {{"from", {{"sigma_mm", d.from_sigma.position_mm}, {"sigma_deg", d.from_sigma.heading_deg}}},
                     {"to", {{"sigma_mm", d.to_sigma.position_mm}, {"sigma_deg", d.to_sigma.heading_deg}}}};
  nlohmann::json verdicts = nlohmann::json::array();
  for (size_t i = 0; i < d.rules.size(); ++i) {
    const PairRule& r = d.rules[i];
    const Verdict& v = d.verdicts[i];
    nlohmann::json e = {{"rule", r.rule},         {"quantity", r.quantity}, {"threshold_mm", r.threshold_mm},
                        {"sigma_mm", v.sigma_mm}, {"verdict", VerdictWord(v.kind)}, {"text", v.text}};
    // JSON has no infinity: a quantity that does not apply (not in the corridor at all) is null.
    e["measured_mm"] = std::isfinite(r.measured_mm) ? nlohmann::json(r.measured_mm) : nlohmann::json(nullptr);
    e["margin_mm"] = std::isfinite(v.margin_mm) ? nlohmann::json(v.margin_mm) : nlohmann::json(nullptr);
    verdicts.push_back(e);
  }
  j["verdicts"] = verdicts;
  return j;
}

std::string ToText(const Dispute& d) {
  std::ostringstream s;
  char buf[256];
  const std::string to = d.to_point ? "point (" + std::to_string(static_cast<int>(std::lround(d.to_point->x()))) + ", " +
                                          std::to_string(static_cast<int>(std::lround(d.to_point->y()))) + ") mm"
                                    : d.to;
  std::snprintf(buf, sizeof buf, "%s -> %s: %s (%.2f %s) edge to edge, leader %.1f mm\n", d.from.c_str(), to.c_str(),
                MmWithSigma(d.distance_mm, d.sigma_mm).c_str(), d.distance_mm / d.unit_mm, d.unit_name.c_str(), d.leader_mm);
  s << buf;
  if (!d.arc_of_to.empty()) s << "  " << d.from << " is in " << d.to << "'s " << d.arc_of_to << "\n";
  s << "  " << (d.to_point ? "the point" : d.to) << " is in " << d.from << "'s " << d.arc_of_from << "\n";
  for (size_t i = 0; i < d.rules.size(); ++i) s << "  " << d.rules[i].rule << ": " << d.verdicts[i].text << "\n";
  return s.str();
}

std::vector<DrawPrimitive> DisputePrimitives(const Dispute& d) {
  std::vector<DrawPrimitive> out;
  DrawPrimitive line;
  line.kind = DrawKind::kPolyline;
  line.style = DrawStyle::kMeasure;
  line.layer = "measure";
  line.points_mm = {d.closest_on_from, d.closest_on_to};
  if ((d.closest_on_to - d.closest_on_from).norm() < 1e-6) line.points_mm[1] += geom::Vec2(1e-3, 0);
  out.push_back(line);
  DrawPrimitive label;
  label.kind = DrawKind::kLabel;
  label.style = DrawStyle::kMeasure;
  label.layer = "measure";
  char buf[96];
  std::snprintf(buf, sizeof buf, "%s (%.2f %s)", MmWithSigma(d.distance_mm, d.sigma_mm).c_str(), d.distance_mm / d.unit_mm,
                d.unit_name.c_str());
  label.text = buf;
  // Beside the gap: offset across it so the label does not hide what it measures.
  geom::Vec2 mid = (d.closest_on_from + d.closest_on_to) / 2.0;
  geom::Vec2 dir = d.closest_on_to - d.closest_on_from;
  geom::Vec2 across = dir.norm() > 1e-6 ? geom::Vec2(-dir.y(), dir.x()) / dir.norm() : geom::Vec2(0, 1);
  label.points_mm = {mid + across * 12.0};
  out.push_back(label);
  return out;
}

}  // namespace vedette
