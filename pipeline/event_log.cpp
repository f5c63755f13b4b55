#include "pipeline/event_log.h"

#include <cmath>

#include "rules/verdict_drawing.h"
#include "vision/track_filter.h"

namespace vedette::pipeline {

namespace {

// To the nearest multiple of q (q = 10^-n): v * 10^n rounded, divided back, so the log shows 89.96
// and not 89.96000000000001.
double Round(double v, double q) {
  const double inv = std::round(1.0 / q);
  return std::round(v * inv) / inv;
}

nlohmann::json TestsJson(const std::vector<RequiredTest>& tests, bool modifiers) {
  nlohmann::json a = nlohmann::json::array();
  for (const RequiredTest& t : tests) {
    nlohmann::json j = {{"unit", t.unit}, {"kind", t.kind}, {"reason", t.reason}};
    if (modifiers) {
      nlohmann::json mods = nlohmann::json::array();
      for (const Modifier& m : t.modifiers) mods.push_back({{"rule", m.rule}, {"value", m.value}, {"by", m.by}});
      j["modifiers"] = mods;
    }
    j["total"] = t.total;
    j["p_success"] = t.p_success;
    j["odds"] = t.odds;
    a.push_back(j);
  }
  return a;
}

nlohmann::json PxJson(const cv::Point2f& p) { return {Round(p.x, 0.1), Round(p.y, 0.1)}; }

void AddMove(const ObservedMove& m, const MoveVerdict* v, const std::string& ruleset, nlohmann::json* j) {
  nlohmann::json path = nlohmann::json::array();
  for (const Pose& p : m.path) path.push_back(PoseJson(p));
  const double d = std::hypot(m.to.x_mm - m.from.x_mm, m.to.y_mm - m.from.y_mm);
  (*j)["from"] = PoseJson(m.from);
  (*j)["to"] = PoseJson(m.to);
  (*j)["distance_mm"] = Round(d, 1e-3);
  (*j)["turn_deg"] = Round(vision::AngleDiffDeg(m.to.heading_deg, m.from.heading_deg), 1e-3);
  (*j)["started_t"] = Round(m.started_t, 1e-4);
  (*j)["path"] = path;
  (*j)["sigma_mm"] = m.sigma_mm;
  (*j)["sigma_deg"] = m.sigma_deg;
  if (!v || ruleset.empty()) {
    (*j)["ruleset"] = nullptr;
    (*j)["classification"] = nullptr;
    (*j)["note"] = v ? v->note : "not judged";
    return;
  }
  (*j)["ruleset"] = ruleset;
  (*j)["turn_side"] = v->turn_side;
  (*j)["second_move"] = v->second_move;
  if (!v->judged) {
    (*j)["classification"] = nullptr;
    (*j)["note"] = v->note;
    return;
  }
  (*j)["classification"] = v->check.kinds;
  (*j)["legal"] = v->check.legal;
  if (!v->check.legal) (*j)["illegal_reason"] = v->check.illegal_reason;
  (*j)["tests"] = TestsJson(v->check.tests, true);
  (*j)["text"] = v->check.text;
  (*j)["says"] = MoveVerdictText(m, *v);  // what the picture and the panel say
}

void AddGroup(const std::vector<ObservedMove>& group, const GroupVerdict* v, nlohmann::json* j) {
  nlohmann::json units = nlohmann::json::array(), moves = nlohmann::json::array();
  for (const ObservedMove& m : group) {
    units.push_back(m.unit);
    moves.push_back({{"unit", m.unit}, {"from", PoseJson(m.from)}, {"to", PoseJson(m.to)}});
  }
  (*j)["units"] = units;
  (*j)["moves"] = moves;
  (*j)["note"] = "moved together; each unit's classification and tests are in its own move event";
  if (!v) return;
  if (v->judged) {
    (*j)["group_allowed"] = v->check.allowed;
    (*j)["rules"] = v->check.report;
    (*j)["tests"] = TestsJson(v->check.tests, true);
    (*j)["text"] = v->check.text;
  } else if (!v->note.empty()) {
    (*j)["note"] = v->note;
  }
}

}  // namespace

nlohmann::json LogHeaderLine(const Pipeline& pipeline, const std::string& source) {
  return {{"log", "vedette"},
          {"log_version", kLogVersion},
          {"ruleset", pipeline.options().ruleset},
          {"roster", pipeline.roster().source},
          {"units", pipeline.roster().units.size()},
          {"source", source}};
}

nlohmann::json PoseJson(const Pose& p) {
  return {{"x_mm", Round(p.x_mm, 1e-3)}, {"y_mm", Round(p.y_mm, 1e-3)}, {"heading_deg", Round(p.heading_deg, 1e-3)}};
}

nlohmann::json EventLine(const FrameEvent& fe, int frame, double t, const std::string& ruleset) {
  const vision::TrackEvent& e = fe.seen;
  nlohmann::json j = {{"event", std::string(vision::ToString(e.type))}, {"frame", frame}, {"t", Round(t, 1e-4)}};
  if (!e.unit.empty()) j["unit"] = e.unit;
  using T = vision::TrackEventType;
  switch (e.type) {
    case T::kMove: AddMove(e.move, fe.move ? &*fe.move : nullptr, ruleset, &j); break;
    case T::kGroupMove: AddGroup(e.group, fe.group ? &*fe.group : nullptr, &j); break;
    case T::kAppeared: case T::kOccluded: case T::kLifted: case T::kRemoved: j["at"] = PoseJson(e.at); break;
    case T::kReplaced:
      j["at"] = PoseJson(e.at);
      j["was"] = std::string(vision::ToString(e.was));
      break;
    case T::kDuplicateId: {
      nlohmann::json spots = nlohmann::json::array();
      for (const vision::MarkerSpot& s : e.spots) {
        nlohmann::json sj = {{"at_px", PxJson(s.at_px)}};
        if (s.has_mm) sj["at_mm"] = {Round(s.at_mm.x, 0.1), Round(s.at_mm.y, 0.1)};
        spots.push_back(sj);
      }
      j["marker"] = e.marker;
      j["spots"] = spots;
      j["note"] = "the same marker at two spots: the track follows the one nearest its last pose";
      break;
    }
    case T::kUnknownMarker:
      j["marker"] = e.marker;
      if (!e.spots.empty()) j["at_px"] = PxJson(e.spots[0].at_px);
      break;
    case T::kCameraMoved:
      j["shift_px"] = Round(e.shift_px, 0.01);
      j["rotation_deg"] = Round(e.rotation_deg, 1e-3);
      j["registration_rms_px"] = Round(e.rms_px, 1e-3);
      break;
    case T::kRegistrationLost:
      j["anchors_seen"] = e.anchors_seen;
      j["note"] = "anchors not seen for 1 s: holding the last camera pose";
      break;
  }
  return j;
}

nlohmann::json DeclareLine(const Declaration& d, int frame, double t) {
  return {{"event", "declare"}, {"frame", frame}, {"t", t}, {"unit", d.unit},
          {"key", d.key}, {"value", d.value}, {"source", d.source}};
}

nlohmann::json FrameLine(const PipelineFrame& f) {
  nlohmann::json j;
  j["frame"] = f.track.frame;
  j["t"] = Round(f.track.t, 1e-4);
  j["units"] = nlohmann::json::array();
  for (const vision::TrackedUnit& u : f.track.units) {
    nlohmann::json uj;
    uj["id"] = u.id;
    if (u.has_pose) {
      uj["x_mm"] = Round(u.pose.x_mm, 1e-3);
      uj["y_mm"] = Round(u.pose.y_mm, 1e-3);
      uj["heading_deg"] = Round(u.pose.heading_deg, 1e-3);
      uj["sigma_mm"] = Round(u.sigma_mm, 1e-4);
      uj["sigma_deg"] = Round(u.sigma_deg, 1e-4);
      uj["vx_mm_s"] = Round(u.vx_mm_s, 1e-2);
      uj["vy_mm_s"] = Round(u.vy_mm_s, 1e-2);
    }
    uj["state"] = std::string(vision::ToString(u.state));
    if (u.state == vision::UnitState::kOccluded || u.state == vision::UnitState::kLifted ||
        u.state == vision::UnitState::kRemoved)
      uj["since_t"] = Round(u.since_t, 1e-4);
    j["units"].push_back(uj);
  }
  const vision::TrackRegistration& r = f.track.registration;
  j["registration"] = {{"ok", r.ok}, {"anchors_seen", r.anchors_seen}, {"rms_px", Round(r.rms_px, 1e-4)}};
  j["ms"] = Round(f.track.timing.total_ms, 1e-3);
  j["tests"] = TestsJson(f.findings.tests, false);
  return j;
}

std::vector<nlohmann::json> FrameLines(const PipelineFrame& f, const std::string& ruleset) {
  std::vector<nlohmann::json> lines;
  lines.push_back(FrameLine(f));
  nlohmann::json events = nlohmann::json::array();
  for (const Declaration& d : f.declarations) lines.push_back(DeclareLine(d, f.track.frame, f.track.t));
  for (const FrameEvent& e : f.events) {
    lines.push_back(EventLine(e, f.track.frame, f.track.t, ruleset));
    events.push_back(lines.back());
  }
  lines[0]["events"] = events;
  lines[0]["timings_ms"] = {{"track", f.timings.track_ms}, {"judge", f.timings.judge_ms}, {"rules", f.timings.rules_ms},
                            {"overlay", f.timings.overlay_ms}, {"record", f.timings.record_ms}};
  return lines;
}

}  // namespace vedette::pipeline
