#include "rules/verdict_drawing.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

namespace vedette {

std::string MoveKindWords(const std::string& kind) {
  static const std::map<std::string, std::string> kWords = {
      {"contact_front", "into contact (front)"}, {"contact_flank", "into contact (flank)"},
      {"contact_rear", "into contact (rear)"},   {"second_move", "second move"},
      {"about_face", "about face"},              {"straight_ahead", "straight ahead"},
      {"straight_back", "straight back"},        {"formation_change", "formation change"},
      {"formation_change_turning", "formation change, turning"}, {"pass_through", "passing through"},
  };
  if (auto it = kWords.find(kind); it != kWords.end()) return it->second;
  std::string s = kind;
  for (char& c : s)
    if (c == '_') c = ' ';
  return s;
}

namespace {

std::string Percent(double p) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%.0f %%", 100.0 * p);
  return buf;
}

std::string Kinds(const std::vector<std::string>& kinds) {
  std::string s;
  for (const std::string& k : kinds) s += (s.empty() ? "" : ", ") + MoveKindWords(k);
  return s.empty() ? "moved" : s;
}

}  // namespace

std::string MoveVerdictText(const ObservedMove& m, const MoveVerdict& v) {
  const double d = std::hypot(m.to.x_mm - m.from.x_mm, m.to.y_mm - m.from.y_mm);
  char dist[32];
  std::snprintf(dist, sizeof dist, "%.0f mm", d);
  if (!v.judged) return m.unit + " moved " + dist + " (not judged: " + v.note + ")";
  if (!v.check.legal) return m.unit + " ILLEGAL MOVE: " + v.check.illegal_reason;
  std::string s = m.unit + " " + Kinds(v.check.kinds) + ", " + dist;
  if (v.check.tests.empty()) s += ": no test";
  for (size_t i = 0; i < v.check.tests.size(); ++i) {
    const RequiredTest& t = v.check.tests[i];
    s += (i == 0 ? ": test " : "; then ") + t.reason + ", pass " + Percent(t.p_success);
  }
  for (const StateChange& c : v.check.state_changes) s += "; " + c.reason;
  return s;
}

std::string MoveVerdictCard(const ObservedMove& m, const MoveVerdict& v) {
  if (!v.judged) return m.unit + " moved (not judged)";
  if (!v.check.legal) {
    std::string why = v.check.illegal_reason;
    if (why.size() > 120) {  // the card wraps it over a few lines; the whole reason is in the panel and the log
      const size_t cut = why.rfind(' ', 117);
      why = why.substr(0, cut == std::string::npos ? 117 : cut) + "...";
    }
    return m.unit + " ILLEGAL MOVE: " + why;
  }
  std::string s = m.unit + " " + Kinds(v.check.kinds);
  for (size_t i = 0; i < v.check.contacts.size(); ++i) s += (i ? ", " : " with ") + v.check.contacts[i];
  if (v.check.tests.empty()) return s + ": no test";
  s += ": test " + Percent(v.check.tests[0].p_success);
  if (v.check.tests.size() > 1) s += " (+" + std::to_string(v.check.tests.size() - 1) + " more)";
  return s;
}

std::vector<DrawPrimitive> MoveVerdictDrawing(const Scene& scene, const ObservedMove& m, const MoveVerdict& v) {
  const bool illegal = v.judged && !v.check.legal;
  const DrawStyle style = illegal ? DrawStyle::kIllegal : DrawStyle::kVerdict;
  std::vector<DrawPrimitive> out;
  DrawPrimitive path;
  path.kind = DrawKind::kPolyline;
  path.style = style;
  path.layer = "tests";
  path.unit_id = m.unit;
  for (const Pose& p : m.path) path.points_mm.push_back({p.x_mm, p.y_mm});
  if (path.points_mm.size() >= 2) out.push_back(path);
  const Unit* u = scene.FindUnit(m.unit);
  if (u) {
    Unit at = *u;
    at.pose = m.to;
    for (const geom::Base& b : BasesOf(at)) {
      DrawPrimitive outline;
      outline.kind = DrawKind::kPolygon;
      outline.style = style;
      outline.filled = illegal;
      const auto c = geom::Corners(b);
      outline.points_mm.assign(c.begin(), c.end());
      outline.layer = "tests";
      outline.unit_id = m.unit;
      out.push_back(outline);
    }
  }
  DrawPrimitive card;
  card.kind = DrawKind::kLabel;
  card.style = style;
  card.text = MoveVerdictCard(m, v);
  card.points_mm = {{m.to.x_mm, m.to.y_mm}};
  card.layer = "tests";
  card.unit_id = m.unit;
  out.push_back(card);
  return out;
}

std::string MoveRulerText(const Scene& scene, const ObservedMove& m, const MoveVerdict& v) {
  double along = 0;  // along the path seen so far
  for (size_t i = 1; i < m.path.size(); ++i)
    along += std::hypot(m.path[i].x_mm - m.path[i - 1].x_mm, m.path[i].y_mm - m.path[i - 1].y_mm);
  along = std::max(along, std::hypot(m.to.x_mm - m.from.x_mm, m.to.y_mm - m.from.y_mm));
  double turned = std::fmod(m.to.heading_deg - m.from.heading_deg, 360.0);
  if (turned > 180) turned -= 360;
  if (turned < -180) turned += 360;
  const Unit* u = scene.FindUnit(m.unit);
  const double bw = u ? scene.BwFor(*u) : scene.bw_mm;
  char buf[96];
  std::snprintf(buf, sizeof buf, "%s %.0f mm (%.1f BW)", m.unit.c_str(), along, bw > 0 ? along / bw : 0.0);
  std::string s = buf;
  if (std::abs(turned) >= 1) {
    std::snprintf(buf, sizeof buf, ", %.0f deg", std::abs(turned));
    s += buf;
  }
  // How much of its move it has used, as the rules count it.
  if (v.judged && v.check.allowance_mm > 0 && v.check.counted_mm >= 0) {
    if (bw > 0)
      std::snprintf(buf, sizeof buf, "; %.1f of %.1f BW allowed", v.check.counted_mm / bw, v.check.allowance_mm / bw);
    else
      std::snprintf(buf, sizeof buf, "; %.0f of %.0f mm allowed", v.check.counted_mm, v.check.allowance_mm);
    s += buf;
  }
  if (v.judged && v.check.charge_reach_mm > 0) {
    if (bw > 0) std::snprintf(buf, sizeof buf, "; charge reach %.1f BW", v.check.charge_reach_mm / bw);
    else std::snprintf(buf, sizeof buf, "; charge reach %.0f mm", v.check.charge_reach_mm);
    s += buf;
  }
  // What stopping here would be, in as few words as the card's, on the ruler's second line.
  if (!v.judged) return s;
  if (!v.check.legal) {  // and why, briefly (the 1-inch rule, too far, ...): the card says it in full
    std::string why = v.check.illegal_reason;
    if (why.size() > 70) why = why.substr(0, std::min(why.size(), why.rfind(' ', 67))) + "...";
    return s + "\nILLEGAL here" + (why.empty() ? "" : ": " + why);
  }
  s += "\n" + Kinds(v.check.kinds);
  for (size_t i = 0; i < v.check.contacts.size(); ++i) s += (i ? ", " : " with ") + v.check.contacts[i];
  if (!v.check.tests.empty()) s += ", test " + Percent(v.check.tests[0].p_success);
  return s;
}

std::vector<DrawPrimitive> MoveRulerDrawing(const Scene& scene, const ObservedMove& m, const MoveVerdict& v) {
  std::vector<DrawPrimitive> out;
  DrawPrimitive line;
  line.kind = DrawKind::kPolyline;
  line.style = DrawStyle::kMeasure;
  line.layer = "tests";
  line.unit_id = m.unit;
  line.dashed = true;
  line.points_mm = {{m.from.x_mm, m.from.y_mm}, {m.to.x_mm, m.to.y_mm}};
  if ((line.points_mm[1] - line.points_mm[0]).norm() < 1e-6) line.points_mm[1] += geom::Vec2(1e-3, 0);
  out.push_back(line);
  DrawPrimitive label;
  label.kind = DrawKind::kLabel;
  label.style = v.judged && !v.check.legal ? DrawStyle::kIllegal : DrawStyle::kMeasure;
  label.layer = "tests";
  label.unit_id = m.unit;
  label.text = MoveRulerText(scene, m, v);
  label.points_mm = {{m.to.x_mm, m.to.y_mm}};
  out.push_back(label);
  return out;
}

}  // namespace vedette
