#include "rules/verdict_drawing.h"

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
  if (v.check.tests.empty()) return s + ": no test";
  for (size_t i = 0; i < v.check.tests.size(); ++i) {
    const RequiredTest& t = v.check.tests[i];
    s += (i == 0 ? ": test " : "; then ") + t.reason + ", pass " + Percent(t.p_success);
  }
  return s;
}

std::string MoveVerdictCard(const ObservedMove& m, const MoveVerdict& v) {
  if (!v.judged) return m.unit + " moved (not judged)";
  if (!v.check.legal) {
    std::string why = v.check.illegal_reason;
    if (why.size() > 60) {  // the whole reason is in the panel and the log
      const size_t cut = why.rfind(' ', 57);
      why = why.substr(0, cut == std::string::npos ? 57 : cut) + "...";
    }
    return m.unit + " ILLEGAL MOVE: " + why;
  }
  std::string s = m.unit + " " + Kinds(v.check.kinds);
  if (v.check.tests.empty()) return s + ": no test";
  s += ": test, pass " + Percent(v.check.tests[0].p_success);
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

}  // namespace vedette
