#include "streams/stream_message.h"

#include <cmath>
#include <cstdio>

#include "pipeline/event_log.h"
#include "rules/scene_drawing.h"

namespace vedette::streams {
namespace {

double R3(double v) { return std::round(v * 1000) / 1000; }

const char* KindName(DrawKind k) {
  switch (k) {
    case DrawKind::kPolygon: return "polygon";
    case DrawKind::kPolyline: return "polyline";
    case DrawKind::kArrow: return "arrow";
    case DrawKind::kLabel: return "label";
    case DrawKind::kGlyph: return "glyph";
  }
  return "polygon";
}

const char* StyleName(DrawStyle s) {
  switch (s) {
    case DrawStyle::kBase: return "base";
    case DrawStyle::kFacing: return "facing";
    case DrawStyle::kZoneOfControl: return "zone_of_control";
    case DrawStyle::kRange: return "range";
    case DrawStyle::kThreat: return "threat";
    case DrawStyle::kContact: return "contact";
    case DrawStyle::kSupport: return "support";
    case DrawStyle::kTest: return "test";
    case DrawStyle::kMeasure: return "measure";
    case DrawStyle::kTerrain: return "terrain";
    case DrawStyle::kVerdict: return "verdict";
    case DrawStyle::kIllegal: return "illegal";
    case DrawStyle::kInfo: return "info";
  }
  return "info";
}

nlohmann::json Points(const std::vector<geom::Vec2>& points) {
  nlohmann::json a = nlohmann::json::array();
  for (const geom::Vec2& p : points) a.push_back({R3(p.x()), R3(p.y())});
  return a;
}

nlohmann::json UnitJson(const Unit& u) {
  nlohmann::json bases = nlohmann::json::array();
  for (const BaseSpec& b : u.bases)
    bases.push_back({{"width_mm", b.width_mm}, {"depth_mm", b.depth_mm}, {"offset_mm", {b.offset_mm.x(), b.offset_mm.y()}}});
  nlohmann::json j = {{"id", u.id}, {"side", u.side}, {"type", std::string(ToString(u.type))}, {"bases", bases}};
  j["marker"] = u.marker ? u.marker->id : -1;
  return j;
}

}  // namespace

std::string HexColour(std::uint32_t rgba) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "#%06x", static_cast<unsigned>(rgba >> 8));
  return buf;
}

nlohmann::json HelloMessage(const pipeline::Pipeline& pipeline, const std::string& source) {
  const Scene& roster = pipeline.roster();
  nlohmann::json sides = nlohmann::json::array(), units = nlohmann::json::array(), terrain = nlohmann::json::array();
  std::vector<std::string> names;
  for (const Side& s : roster.sides) names.push_back(s.name);
  for (const Unit& u : roster.units)
    if (std::find(names.begin(), names.end(), u.side) == names.end()) names.push_back(u.side);
  for (const std::string& n : names) sides.push_back({{"name", n}, {"colour", HexColour(SideColour(roster, n))}});
  for (const Unit& u : roster.units) units.push_back(UnitJson(u));
  for (const Terrain& t : roster.terrain) terrain.push_back({{"id", t.id}, {"type", t.type}, {"polygon_mm", Points(t.polygon)}});
  return {{"type", "hello"},
          {"stream", "vedette"},
          {"stream_version", kStreamVersion},
          {"log_version", pipeline::kLogVersion},
          {"ruleset", pipeline.options().ruleset},
          {"source", source},
          {"table", {{"width_mm", roster.table_width_mm}, {"depth_mm", roster.table_depth_mm}}},
          {"bw_mm", roster.bw_mm},
          {"sides", sides},
          {"units", units},
          {"terrain", terrain},
          {"recent_events", nlohmann::json::array()}};
}

nlohmann::json PrimitiveJson(const DrawPrimitive& p) {
  nlohmann::json j = {{"kind", KindName(p.kind)}, {"style", StyleName(p.style)}, {"layer", p.layer},
                      {"points_mm", Points(p.points_mm)}};
  if (!p.text.empty()) j["text"] = p.text;
  if (p.kind == DrawKind::kGlyph) j["glyph"] = GlyphWord(p.glyph);
  if (p.rgba != 0) {
    char buf[10];
    std::snprintf(buf, sizeof buf, "#%08x", static_cast<unsigned>(p.rgba));
    j["colour"] = buf;
  }
  if (p.filled) j["filled"] = true;
  if (p.dashed) j["dashed"] = true;
  if (!p.unit_id.empty()) j["unit"] = p.unit_id;
  return j;
}

nlohmann::json FrameMessage(const pipeline::PipelineFrame& frame, const std::vector<nlohmann::json>& lines,
                            const std::vector<nlohmann::json>& between) {
  nlohmann::json declarations = between;
  if (declarations.is_null()) declarations = nlohmann::json::array();
  for (size_t i = 1; i < lines.size(); ++i)
    if (lines[i].value("event", "") == "declare") declarations.push_back(lines[i]);
  nlohmann::json verdicts = nlohmann::json::array();
  for (const pipeline::ShownVerdict& v : frame.verdicts)
    verdicts.push_back({{"unit", v.unit}, {"text", v.text}, {"illegal", v.illegal}, {"needs_test", v.needs_test},
                        {"turn_side", v.turn_side}, {"frame", v.frame}});
  nlohmann::json overlay = nlohmann::json::array();
  for (const DrawPrimitive& p : frame.primitives) overlay.push_back(PrimitiveJson(p));
  return {{"type", "frame"},
          {"stream", "vedette"},
          {"stream_version", kStreamVersion},
          {"frame", lines.empty() ? pipeline::FrameLine(frame) : lines[0]},
          {"declarations", declarations},
          {"verdicts", verdicts},
          {"overlay", overlay}};
}

nlohmann::json HeartbeatMessage(long frames, int clients, double unix_s) {
  return {{"type", "heartbeat"}, {"stream", "vedette"}, {"stream_version", kStreamVersion},
          {"frames", frames}, {"clients", clients}, {"unix_s", std::round(unix_s * 1000) / 1000}};
}

}  // namespace vedette::streams
