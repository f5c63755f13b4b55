#include "overlay/pipeline.h"

#include <chrono>
#include <cmath>
#include <stdexcept>

#include "calibration/dictionary.h"
#include "rules/input_error.h"

namespace vedette::overlay {

namespace {

double MsSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// Did anything the rules read change between two scenes (same roster, so units line up)?
bool SceneChanged(const Scene& a, const Scene& b, double mm, double deg) {
  if (a.units.size() != b.units.size()) return true;
  for (size_t i = 0; i < a.units.size(); ++i) {
    const auto &pa = a.units[i].pose, &pb = b.units[i].pose;
    if (pa.has_value() != pb.has_value()) return true;
    if (!pa) continue;
    if (std::hypot(pa->x_mm - pb->x_mm, pa->y_mm - pb->y_mm) > mm) return true;
    double d = std::fmod(std::abs(pa->heading_deg - pb->heading_deg), 360.0);
    if (std::min(d, 360.0 - d) > deg) return true;
  }
  return false;
}

// A unit under a hand is drawn dashed (its pose is remembered, not seen).
void DashStale(PipelineFrame* f) {
  for (DrawPrimitive& p : f->primitives) {
    if (p.unit_id.empty()) continue;
    for (const vision::TrackedUnit& u : f->track.units)
      if (u.id == p.unit_id && Stale(u)) p.dashed = p.kind != DrawKind::kLabel;
  }
}

}  // namespace

bool PipelineOptions::Check(std::string* error) const {
  if (ruleset.empty()) {
    if (error) *error = "ruleset must be named";
    return false;
  }
  if (!(reanalyze_mm >= 0) || !(reanalyze_deg >= 0)) {
    if (error) *error = "reanalyze_mm and reanalyze_deg must be zero or positive (mm, deg)";
    return false;
  }
  return tracker.Check(error);
}

bool OnTable(const vision::TrackedUnit& u) {
  return u.has_pose && u.state != "unseen" && u.state != "lifted" && u.state != "removed";
}

bool Stale(const vision::TrackedUnit& u) { return u.has_pose && u.state == "occluded"; }

Scene SceneOf(const Scene& roster, const std::vector<vision::TrackedUnit>& units) {
  Scene scene = roster;
  for (Unit& u : scene.units) u.pose.reset();
  for (const vision::TrackedUnit& t : units) {
    if (!OnTable(t)) continue;
    if (Unit* u = scene.FindUnit(t.id)) u->pose = t.pose;
  }
  return scene;
}

Pipeline::Pipeline(const PipelineOptions& options, const calib::CameraIntrinsics& intrinsics, const Scene& roster)
    : options_(options), intrinsics_(intrinsics), roster_(roster) {
  std::string error;
  options_.tracker.ruleset = options_.ruleset;
  if (!options_.Check(&error)) throw std::invalid_argument("pipeline options: " + error);
  if (roster_.dictionary.empty())
    throw InputError(roster_.source, 0, "the roster names no marker `dictionary:` (e.g. DICT_4X4_50)");
  if (roster_.anchors.empty())
    throw InputError(roster_.source, 0, "the roster lists no `anchors:`: the table cannot be registered");
  ruleset_ = MakeRuleset(options_.ruleset, options_.ruleset_options);
  info_ = ruleset_->Info();
  dictionary_ = calib::ResolveDictionary(roster_.dictionary);
  tracker_ = std::make_unique<vision::Tracker>(options_.tracker, intrinsics_, roster_, *dictionary_);
}

Pipeline::~Pipeline() = default;

const PipelineFrame& Pipeline::Process(const cv::Mat& image, double t) {
  PipelineFrame& f = last_;
  StageTimings timings;

  // Step 1: the tracker (frame -> tracked units, states, events, registration).
  auto t0 = std::chrono::steady_clock::now();
  f.track = tracker_->Process(image, t);
  timings.track_ms = MsSince(t0);

  // Step 2: the scene the rules see.
  t0 = std::chrono::steady_clock::now();
  Scene scene = SceneOf(roster_, f.track.units);
  const bool changed = frames_ == 0 || declarations_changed_ || SceneChanged(scene, f.scene, options_.reanalyze_mm, options_.reanalyze_deg);
  timings.scene_ms = MsSince(t0);

  // Step 3: the rules, only when the table changed (a resting table keeps its findings).
  f.analyzed = false;
  if (changed) {
    t0 = std::chrono::steady_clock::now();
    f.scene = std::move(scene);
    f.findings = ruleset_->Analyze(f.scene);
    f.analyzed = true;
    declarations_changed_ = false;
    timings.rules_ms = MsSince(t0);
  }

  // Step 4: primitives; a unit under a hand is drawn dashed (its pose is remembered, not seen).
  f.primitives = f.findings.drawing;
  DashStale(&f);
  timings.total_ms = timings.track_ms + timings.scene_ms + timings.rules_ms;
  f.timings = timings;
  ++frames_;
  return f;
}

void Pipeline::SetDeclaration(const std::string& unit, const std::string& key, const nlohmann::json& value) {
  roster_.declarations.units[unit][key] = Declared{value, 0};
  tracker_->SetDeclaration(unit, key, value);  // its moves are judged with it too (a routed unit flees)
  declarations_changed_ = true;
}

const PipelineFrame& Pipeline::Reanalyze() {
  PipelineFrame& f = last_;
  if (frames_ == 0) return f;  // no poses yet: the first frame analyses anyway
  const auto t0 = std::chrono::steady_clock::now();
  f.scene.declarations = roster_.declarations;
  f.findings = ruleset_->Analyze(f.scene);
  f.analyzed = true;
  declarations_changed_ = false;
  f.timings.rules_ms = MsSince(t0);
  f.primitives = f.findings.drawing;
  DashStale(&f);
  return f;
}

nlohmann::json DeclareEventLine(const PipelineFrame& frame, const std::string& unit, const std::string& key,
                                const nlohmann::json& value, const std::string& source) {
  return {{"event", "declare"}, {"frame", frame.track.frame}, {"t", frame.track.t}, {"unit", unit},
          {"key", key},         {"value", value},              {"source", source}};
}

nlohmann::json FrameLogLine(const PipelineFrame& frame) {
  nlohmann::json j = vision::FrameJson(frame.track);
  nlohmann::json tests = nlohmann::json::array();
  for (const RequiredTest& t : frame.findings.tests)
    tests.push_back({{"unit", t.unit}, {"kind", t.kind}, {"reason", t.reason}, {"total", t.total},
                     {"p_success", t.p_success}, {"odds", t.odds}});
  j["tests"] = tests;
  nlohmann::json events = nlohmann::json::array();
  for (const vision::TrackEvent& e : frame.track.events) events.push_back(e.json);
  j["events"] = events;
  j["timings_ms"] = {{"track", frame.timings.track_ms}, {"rules", frame.timings.rules_ms},
                     {"overlay", frame.timings.overlay_ms}, {"record", frame.timings.record_ms}};
  return j;
}

}  // namespace vedette::overlay
