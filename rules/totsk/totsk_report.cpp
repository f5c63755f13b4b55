#include "rules/totsk/totsk_report.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <iomanip>
#include <sstream>
#include <string_view>
#include <unordered_map>

#include "rules/geometry/corridor.h"
#include "rules/json_object.h"
#include "rules/scene_drawing.h"
#include "rules/totsk/totsk_units.h"

namespace vedette::totsk {

namespace {

int Percent(double p) { return static_cast<int>(std::lround(p * 100.0)); }

nlohmann::json ModifiersJson(const std::vector<Modifier>& mods) {
  nlohmann::json out = nlohmann::json::array();
  for (const Modifier& m : mods) out.push_back(JsonObject("rule", m.rule, "value", m.value, "by", m.by));
  return out;
}


DrawPrimitive Prim(DrawKind kind, DrawStyle style, std::vector<geom::Vec2> pts, const std::string& layer,
                   const std::string& unit) {
  DrawPrimitive p;
  p.kind = kind;
  p.style = style;
  p.points_mm = std::move(pts);
  p.layer = layer;
  p.unit_id = unit;
  return p;
}

}  // namespace

std::string MoraleOddsText(const MoraleOdds& o) {
  // Joined, not streamed: a stream's set-up (its locale) costs more than this text, for every unit.
  return "pass " + std::to_string(Percent(o.p_pass)) + "% / fail " + std::to_string(Percent(o.p_lose_fail)) + "% / rout " +
         std::to_string(Percent(o.p_rout)) + "%";
}

nlohmann::json SettingsJson(const TotskData& data, const TotskSettings& settings) {
  const MoraleRanges& r = settings.Ranges(data);
  return {{"threat_distance", {{"source", settings.threat_distance_bw ? "threat_distance_bw" : settings.threat_distance},
                               {"bw", settings.ThreatBw(data)}}},
          {"morale_ranges",
           {{"source", settings.morale_ranges},
            {"foot_bw", r.foot},
            {"light_infantry_bw", r.light_infantry},
            {"cavalry_bw", r.cavalry},
            {"artillery_bw", r.artillery}}},
          {"charged_by_cavalry", {{"source", settings.charged_by_cavalry}, {"value", settings.ChargedByCavalry(data).value}}},
          {"second_move", {{"source", settings.second_move}}},
          {"pursuit", {{"source", settings.pursuit}, {"who", settings.pursuit == "qrs" ? "any unit" : "cavalry"}}},
          {"forced_back", {{"source", settings.forced_back},
                           {"bw", settings.forced_back == "qrs" ? data.after.forced_back_qrs_bw : data.after.forced_back_faq_bw}}},
          {"army_morale", {{"source", settings.army_morale},
                           {"after", settings.army_morale == "qrs" ? "half its units lost" : "half or more of its wings lost"}}},
          {"ignored", settings.ignored}};
}

nlohmann::json ActionTestJson(const ActionTest& t) {
  return JsonObject("action", t.key,
                    "reason", t.test.reason,
                    "difficulty", t.difficulty,
                    "need", t.need,
                    "modifiers", ModifiersJson(t.test.modifiers),
                    "total", t.test.total,
                    "p_success", t.test.p_success,
                    "by", t.by);
}

namespace {

// The text's first line: the settings the findings rest on.
std::string Heading(const TotskData& data, const TotskSettings& settings, const std::string& active) {
  const MoraleRanges& r = settings.Ranges(data);
  const std::string source = settings.morale_ranges == "qrs" ? "QRS" : "FAQ";
  std::ostringstream text;
  text << "Twilight of the Soldier Kings (threat distance " << settings.ThreatBw(data) << " BW"
       << (settings.threat_distance_bw ? " as set" : settings.threat_distance == "qrs" ? " (QRS)" : " (FAQ)")
       << "; ranges that cause a test (" << source << "): foot " << r.foot << " BW, light infantry " << r.light_infantry
       << " BW, cavalry " << r.cavalry << " BW, artillery " << r.artillery << " BW";
  text << (active.empty() ? "; no active side declared: every unit's tests shown"
                          : "; active side " + active + ": the other side's morale tests, " + active + "'s action tests")
       << "; units with nothing to report are not listed)\n";
  return text.str();
}

// What a unit's findings are, whoever writes them: whether it tests its morale (passive units test;
// with no active side declared every unit is shown as if passive) and takes its action tests.
struct UnitRole {
  bool tests = false;  // takes its morale test
  bool acts = false;   // its action tests are shown
};
UnitRole RoleOf(const Scene& scene, const Unit& u, const UnitAnalysis& a) {
  const std::string& active = scene.declarations.active_side;
  return {a.must_test && (active.empty() || u.side != active), active.empty() || u.side == active};
}

// The generals' risk on the unit's morale test (QRS 101 "Generals attached to a unit are killed if an
// unmodified 4 is rolled on the morale test of that unit"; FAQ 324: one re-rolling dies "on a natural 2
// or 3 or if the unit they reroll the morale for routs in the 2nd roll"), exact over the 36 rolls of 2D6.
struct GeneralRisk {
  std::string attached;       // the attached general's id ("" when none is declared)
  double p_attached = 0.0;    // that he is killed, 0..1
  double p_reroll = 0.0;      // that a general who re-rolls the test dies, 0..1
};
GeneralRisk GeneralRiskOf(const TotskData& data, const Scene& scene, const UnitAnalysis& a) {
  GeneralRisk g;
  for (int d1 = 1; d1 <= 6; ++d1)
    for (int d2 = 1; d2 <= 6; ++d2) {
      const int n = d1 + d2;
      if (n == data.general_killed_on_natural) g.p_attached += 1.0 / 36.0;
      const bool natural = std::find(data.general_reroll_killed_on_natural.begin(), data.general_reroll_killed_on_natural.end(),
                                     n) != data.general_reroll_killed_on_natural.end();
      if (natural || n + a.total <= data.morale_rout_at_most) g.p_reroll += 1.0 / 36.0;
    }
  const Declared* att = scene.declarations.Find(a.id, "general_attached");
  if (att && att->value.is_string()) g.attached = att->value.get<std::string>();
  return g;
}

nlohmann::json UnitReport(const TotskData& data, const Scene& scene, const Unit& u, const UnitAnalysis& a) {
  nlohmann::json j = JsonObject("id", a.id, "side", u.side, "type", std::string(ToString(u.type)));
  if (a.general) {
    j["general"] = true;
    return j;
  }
  const UnitRole role = RoleOf(scene, u, a);
  j["zoc_of"] = a.zoc_of;
  j["threats"] = JsonObject("left_flank", a.left_flank,
                            "right_flank", a.right_flank,
                            "rear", a.rear,
                            "light_troops", a.light_threats);
  j["secure"] = a.infantry ? nlohmann::json(a.secure) : nlohmann::json(nullptr);
  j["secure_flanks"] = JsonObject("left", a.secure_left, "right", a.secure_right);
  j["rear_support"] = a.rear_support;
  nlohmann::json reasons = nlohmann::json::array();
  for (const MoraleReason& r : a.reasons) {
    nlohmann::json rj = JsonObject("by", r.by,
                                   "kind", r.kind,
                                   "reason", r.reason,
                                   "imposed", r.imposed,
                                   "distance_mm", std::round(r.distance_mm * 10.0) / 10.0,
                                   "distance_bw", std::round(r.distance_mm / scene.BwFor(u) * 100.0) / 100.0);
    if (!r.group.empty()) rj["guns"] = r.group;
    reasons.push_back(std::move(rj));
  }
  j["morale"] = JsonObject("tests", role.tests,
                           "reasons", std::move(reasons),
                           "modifiers", ModifiersJson(a.modifiers),
                           "total", a.total,
                           "p_pass", a.odds.p_pass,
                           "p_lose_fail", a.odds.p_lose_fail,
                           "p_rout", a.odds.p_rout,
                           "terrain_column", a.terrain_context,
                           "reroll_by", a.reroll_by);
  if (role.tests) {
    const GeneralRisk g = GeneralRiskOf(data, scene, a);
    if (!g.attached.empty()) j["morale"]["general_attached_p_killed"] = g.p_attached;
    if (!a.reroll_by.empty()) j["morale"]["reroll_p_general_killed"] = g.p_reroll;
  }
  nlohmann::json actions = nlohmann::json::array();
  if (role.acts)
    for (const ActionTest& t : a.action_tests) actions.push_back(ActionTestJson(t));
  j["action_tests"] = std::move(actions);
  j["assumptions"] = a.assumptions;
  return j;
}

std::string Ids(const std::vector<std::string>& v) {
  std::string out;
  for (const std::string& x : v) {
    if (!out.empty()) out += ", ";
    out += x;
  }
  return out;
}

std::string SignedValue(int v) { return (v > 0 ? "+" : "") + std::to_string(v); }

void AppendModifier(std::string* out, const Modifier& m) {
  *out += SignedValue(m.value);
  *out += ' ';
  *out += m.rule;
  if (!m.by.empty()) *out += " (" + Ids(m.by) + ")";
}

// The tests a unit must take, why, by whom, with every modifier and the unit causing it.
std::string TestsText(const TotskData& data, const Scene& scene, const UnitAnalysis& a, const UnitRole& role) {
  std::string out;
  if (role.tests) {
    std::string why;
    for (const MoraleReason& r : a.reasons)
      if (r.imposed) why += (why.empty() ? "" : "; ") + r.reason + " (" + (r.group.empty() ? r.by : Ids(r.group)) + ")";
    out += "      morale test: " + why + "\n        ";
    if (a.modifiers.empty()) out += "no modifier";
    for (size_t i = 0; i < a.modifiers.size(); ++i) {
      if (i) out += ", ";
      AppendModifier(&out, a.modifiers[i]);
    }
    out += "; total " + SignedValue(a.total) + " on 2D6: " + MoraleOddsText(a.odds);
    if (!a.reroll_by.empty()) out += "; " + Ids(a.reroll_by) + " may re-roll it";
    const GeneralRisk g = GeneralRiskOf(data, scene, a);
    if (!g.attached.empty())
      out += "; " + g.attached + " (attached) is killed on an unmodified " + std::to_string(data.general_killed_on_natural) + ": " +
             std::to_string(Percent(g.p_attached)) + "% (QRS 101)";
    if (!a.reroll_by.empty())
      out += "; a general who re-rolls dies on a natural 2 or 3 or if the re-roll routs: " + std::to_string(Percent(g.p_reroll)) +
             "% (FAQ 324)";
    out += '\n';
  }
  if (role.acts)
    for (const ActionTest& t : a.action_tests) {
      out += "      action test before it acts: " + t.test.reason;
      if (!t.by.empty()) out += " (" + Ids(t.by) + ")";
      std::string diff = t.difficulty;
      if (!diff.empty()) diff[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(diff[0])));
      out += ": " + diff + ", " + std::to_string(t.need) + "+ on 1D6";
      for (const Modifier& m : t.test.modifiers) {
        out += ", ";
        AppendModifier(&out, m);
      }
      out += ": " + std::to_string(Percent(t.test.p_success)) + "% to pass\n";
    }
  return out;
}

// What holds for the unit, in words, then its tests; "" for a unit with nothing of the kind (not listed).
// Appended to strings, not streamed: a stream's set-up per unit cost more than its text on a 300-unit table.
std::string UnitText(const TotskData& data, const Scene& scene, const Unit& u, const UnitAnalysis& a) {
  if (a.general) return "";
  const UnitRole role = RoleOf(scene, u, a);
  std::vector<std::string> facts;
  if (!a.zoc_of.empty()) facts.push_back("in the zone of control of " + Ids(a.zoc_of) + " (may only move straight ahead or back)");
  if (!a.left_flank.empty()) facts.push_back("enemy behind its left flank: " + Ids(a.left_flank));
  if (!a.right_flank.empty()) facts.push_back("enemy behind its right flank: " + Ids(a.right_flank));
  if (!a.rear.empty()) facts.push_back("enemy behind its rear: " + Ids(a.rear));
  if (!a.light_threats.empty()) facts.push_back("light troops behind a flank or the rear: " + Ids(a.light_threats) + " (no penalty)");
  if (!a.rear_support.empty()) facts.push_back("rear support from " + Ids(a.rear_support));
  const std::string tests_text = TestsText(data, scene, a, role);
  if (facts.empty() && tests_text.empty()) return "";
  if (a.infantry) facts.push_back(a.secure ? "secure (friends or terrain on both flanks)" : "not secure");
  std::string line = "  " + a.id + ": ";
  for (size_t i = 0; i < facts.size(); ++i) {
    if (i) line += "; ";
    line += facts[i];
  }
  if (facts.empty()) line += "no threat";
  line += '\n';
  return line + tests_text;
}

// Overlay: zone of control, threatened edges linked to their threats, test labels; and the tests.
void UnitDrawing(const TotskData& data, const Scene& scene, const Unit& u, const UnitAnalysis& a,
                 const std::unordered_map<std::string_view, const Unit*>& by_id, Findings* f) {
  if (a.general) return;
  const UnitRole role = RoleOf(scene, u, a);
  const geom::Base fp = Footprint(u);
  DrawPrimitive zoc = Prim(DrawKind::kPolygon, DrawStyle::kZoneOfControl,
                           geom::Corridor(fp, geom::Edge::kFront, data.zoc_depth_bw * scene.BwFor(u)), "zoc", a.id);
  zoc.filled = true;
  zoc.rgba = (SideColour(scene, u.side) & 0xFFFFFF00u) | 0x40u;
  f->drawing.push_back(std::move(zoc));
  for (const auto& [edge, list] : {std::pair{geom::Edge::kLeft, &a.left_flank}, std::pair{geom::Edge::kRight, &a.right_flank},
                                   std::pair{geom::Edge::kRear, &a.rear}}) {
    if (list->empty()) continue;
    const geom::Segment s = geom::EdgeSegment(fp, edge);
    DrawPrimitive e = Prim(DrawKind::kPolyline, DrawStyle::kThreat, {s.a, s.b}, "threats", a.id);
    e.text = edge == geom::Edge::kLeft ? "left flank" : edge == geom::Edge::kRight ? "right flank" : "rear";
    f->drawing.push_back(std::move(e));
    for (const std::string& id : *list) {
      // An arrow from the threatening unit onto the threatened edge: who threatens what, at a glance.
      DrawPrimitive link = Prim(DrawKind::kArrow, DrawStyle::kThreat,
                                {Footprint(*by_id.at(id)).centre_mm, (s.a + s.b) / 2.0}, "threats", a.id);
      link.dashed = true;
      link.text = id;
      f->drawing.push_back(std::move(link));
    }
  }
  if (role.tests) {
    RequiredTest t;
    t.unit = a.id;
    t.kind = "morale";
    for (const MoraleReason& r : a.reasons)
      if (r.imposed) t.reason += (t.reason.empty() ? "" : "; ") + r.reason + " (" + r.by + ")";
    t.modifiers = a.modifiers;
    t.total = a.total;
    t.p_success = a.odds.p_pass;
    t.odds = MoraleOddsText(a.odds);
    DrawPrimitive label = Prim(DrawKind::kLabel, DrawStyle::kTest, {fp.centre_mm}, "tests", a.id);
    label.text = a.id + " morale test " + std::string(a.total > 0 ? "+" : "") + std::to_string(a.total) + ": " + t.odds;
    if (!t.reason.empty()) label.text += "\n" + t.reason;  // why, on the card's next line
    f->tests.push_back(std::move(t));
    f->drawing.push_back(std::move(label));
  }
  if (role.acts)
    for (const ActionTest& t : a.action_tests) {
      f->tests.push_back(t.test);
      DrawPrimitive label =
          Prim(DrawKind::kLabel, DrawStyle::kTest, {fp.centre_mm - geom::Forward(fp) * fp.depth_mm}, "tests", a.id);
      label.text = a.id + " action test: " + t.test.odds;
      if (!t.test.reason.empty()) label.text += "\n" + t.test.reason;
      f->drawing.push_back(std::move(label));
    }
}

// Range corridors of every unit that can make another test from a distance.
void RangeDrawing(const TotskData& data, const TotskSettings& settings, const Scene& scene, Findings* f) {
  const MoraleRanges& r = settings.Ranges(data);
  for (const Unit& u : scene.units) {
    if (!u.pose) continue;
    const geom::Base fp = Footprint(u);
    const double bw = scene.BwFor(u);
    if (IsLightInfantry(u)) {
      const double R = r.light_infantry * bw, w = fp.width_mm / 2, v = fp.depth_mm / 2;
      DrawPrimitive p = Prim(DrawKind::kPolygon, DrawStyle::kRange,
                             {geom::ToTableFrame(fp, {-w - R, v}), geom::ToTableFrame(fp, {w + R, v}),
                              geom::ToTableFrame(fp, {w + R, v + R}), geom::ToTableFrame(fp, {-w - R, v + R})},
                             "ranges", u.id);
      p.text = "LI fire";
      f->drawing.push_back(std::move(p));
    } else if (u.type == UnitType::kInfantry || (u.type == UnitType::kArtillery && !Limbered(u))) {
      const double R = (u.type == UnitType::kArtillery ? r.artillery : r.foot) * bw;
      DrawPrimitive p = Prim(DrawKind::kPolygon, DrawStyle::kRange, geom::Corridor(fp, geom::Edge::kFront, R), "ranges", u.id);
      // Every line unit has a fire zone: only the guns' is named on the picture.
      if (u.type == UnitType::kArtillery) p.text = "artillery fire";
      f->drawing.push_back(std::move(p));
    }
  }
}

// The picture: outlines, each unit's zone, threats and test cards (and its tests), the fire zones and
// who makes whom test.
void AppendPicture(const TotskData& data, const TotskSettings& settings, const Scene& scene, const TotskAnalysis& analysis,
                   const std::unordered_map<std::string_view, const Unit*>& by_id, Findings* f) {
  f->drawing.reserve(scene.terrain.size() + 6 * scene.units.size());  // outlines, zones, threats: about what a table draws
  AppendSceneOutlines(scene, &f->drawing);
  for (const UnitAnalysis& a : analysis.units) UnitDrawing(data, scene, *by_id.at(a.id), a, by_id, f);
  RangeDrawing(data, settings, scene, f);
  for (const TargetChoice& c : analysis.choices) {
    DrawPrimitive p = Prim(DrawKind::kArrow, DrawStyle::kThreat,
                           {Footprint(*by_id.at(c.by)).centre_mm, Footprint(*by_id.at(c.target)).centre_mm}, "threats", c.by);
    f->drawing.push_back(std::move(p));  // the arrow says who makes whom test; why is in the report
  }
}

}  // namespace

Findings MakeFindings(const TotskData& data, const TotskSettings& settings, const Scene& scene,
                      const TotskAnalysis& analysis, const AnalyzeOptions& options) {
  Findings f;
  f.ruleset = "totsk";
  const std::string& active = scene.declarations.active_side;
  // Units by id, looked up once each (Scene::FindUnit scans the scene: on a 300-unit table that was
  // most of the report's time).
  std::unordered_map<std::string_view, const Unit*> by_id;
  for (const Unit& x : scene.units) by_id.emplace(x.id, &x);
  if (options.picture) AppendPicture(data, settings, scene, analysis, by_id, &f);
  if (options.text) {
    f.text = Heading(data, settings, active);
    for (const UnitAnalysis& a : analysis.units) f.text += UnitText(data, scene, *by_id.at(a.id), a);
    for (const std::string& n : analysis.notes) f.text += "  note: " + n + "\n";
  }
  if (options.report) {
    nlohmann::json units = nlohmann::json::array();
    for (const UnitAnalysis& a : analysis.units) units.push_back(UnitReport(data, scene, *by_id.at(a.id), a));
    nlohmann::json choices = nlohmann::json::array();
    for (const TargetChoice& c : analysis.choices) choices.push_back(JsonObject("by", c.by,
                                                                                "target", c.target,
                                                                                "why", c.why));
    f.report = {{"ruleset", "totsk"},
                {"settings", SettingsJson(data, settings)},
                {"active_side", active.empty() ? nlohmann::json(nullptr) : nlohmann::json(active)},
                {"test_targets", std::move(choices)},
                {"notes", analysis.notes},
                {"units", std::move(units)}};  // moved, not copied: a large list on a big table
  }
  return f;
}

}  // namespace vedette::totsk
