#include "pipeline/pipeline.h"

#include <chrono>
#include <optional>
#include <cmath>
#include <stdexcept>

#include "calibration/dictionary.h"
#include "pipeline/table_scene.h"
#include "rules/input_error.h"
#include "rules/verdict_drawing.h"

namespace vedette::pipeline {

namespace {

using Clock = std::chrono::steady_clock;
double MsSince(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

// What the picture shows: the findings (a unit under a hand dashed: its pose is remembered, not
// seen) and the verdicts of the moves of this turn.
void BuildPrimitives(PipelineFrame* f, const std::vector<ShownVerdict>& shown) {
  f->primitives = f->findings.drawing;
  for (DrawPrimitive& p : f->primitives) {
    if (p.unit_id.empty()) continue;
    for (const vision::TrackedUnit& u : f->track.units)
      if (u.id == p.unit_id && u.has_pose && vision::Remembered(u.state)) p.dashed = p.kind != DrawKind::kLabel;
  }
  f->verdicts = shown;
  for (const ShownVerdict& v : shown) f->primitives.insert(f->primitives.end(), v.drawing.begin(), v.drawing.end());
  f->primitives.insert(f->primitives.end(), f->rulers.begin(), f->rulers.end());
}

void ApplyDeclaration(Scene* roster, const Declaration& d) {
  if (d.unit.empty() && d.key == "active_side") {
    roster->declarations.active_side = d.value.is_string() ? d.value.get<std::string>() : "";
    return;
  }
  roster->declarations.units[d.unit][d.key] = Declared{d.value, 0};
}

}  // namespace

bool PipelineOptions::Check(std::string* error) const {
  if (!(reanalyze_mm >= 0) || !(reanalyze_deg >= 0)) {
    if (error) *error = "reanalyze_mm and reanalyze_deg must be zero or positive (mm, deg)";
    return false;
  }
  return tracker.Check(error);
}

Pipeline::Pipeline(const PipelineOptions& options, const calib::CameraIntrinsics& intrinsics, const Scene& roster)
    : options_(options), intrinsics_(intrinsics), roster_(roster) {
  std::string error;
  if (!options_.Check(&error)) throw std::invalid_argument("pipeline options: " + error);
  if (roster_.dictionary.empty())
    throw InputError(roster_.source, 0, "the roster names no marker `dictionary:` (e.g. DICT_4X4_50)");
  if (roster_.anchors.empty())
    throw InputError(roster_.source, 0, "the roster lists no `anchors:`: the table cannot be registered");
  if (!options_.ruleset.empty()) {
    ruleset_ = MakeRuleset(options_.ruleset, options_.ruleset_options);
    info_ = ruleset_->Info();
  }
  judge_ = std::make_unique<MoveJudge>(ruleset_.get(), "no ruleset chosen");
  dictionary_ = calib::ResolveDictionary(roster_.dictionary);
  tracker_ = std::make_unique<vision::Tracker>(options_.tracker, intrinsics_, roster_, *dictionary_);
}

Pipeline::~Pipeline() = default;

void Pipeline::Declare(const Declaration& d) {
  ApplyDeclaration(&roster_, d);
  declarations_changed_ = true;
}

// Each move is judged on the table as it stood when the move started: the mover where it set out,
// every other unit where it rests; a group on the table with all its members at their starts.
void Pipeline::JudgeEvents(PipelineFrame* f) {
  f->events.clear();
  for (vision::TrackEvent& e : f->track.events) {
    FrameEvent fe;
    if (e.type == vision::TrackEventType::kMove) {
      const Scene before = TableScene(roster_, f->track.units, TablePoses::kAtRest, {{e.move.unit, e.move.from}});
      fe.move = judge_->JudgeMove(before, e.move);
      ShowVerdict(e, *fe.move, f->track.frame);
      ApplyStateChanges(fe.move->turn_start, f);
      if (fe.move->judged) ApplyStateChanges(fe.move->check.state_changes, f);
    } else if (e.type == vision::TrackEventType::kGroupMove) {
      std::map<std::string, Pose> starts;
      for (const ObservedMove& m : e.group) starts[m.unit] = m.from;
      fe.group = judge_->JudgeGroupMove(TableScene(roster_, f->track.units, TablePoses::kAtRest, starts), e.group);
    }
    fe.seen = std::move(e);
    f->events.push_back(std::move(fe));
  }
  f->track.events.clear();
}

// What a move did to units' states (a flight through them, guns charged from the front) becomes their
// declared state, as a click in the state menu would: the next analysis, the picture and the log
// follow the game without the players marking it.
void Pipeline::ApplyStateChanges(const std::vector<StateChange>& changes, PipelineFrame* f) {
  for (const StateChange& c : changes) {
    Declaration d{c.unit, c.key, c.value, "rules: " + c.reason};
    Declare(d);
    f->declarations.push_back(std::move(d));
  }
}

void Pipeline::ShowVerdict(const vision::TrackEvent& e, const MoveVerdict& v, int frame) {
  // A new turn takes the last turn's verdicts off; a unit's new move replaces its old verdict.
  std::erase_if(shown_, [&](const ShownVerdict& s) { return s.turn_side != v.turn_side || s.unit == e.move.unit; });
  ShownVerdict s;
  s.unit = e.move.unit;
  s.text = MoveVerdictText(e.move, v);
  s.illegal = v.judged && !v.check.legal;
  s.needs_test = v.judged && !v.check.tests.empty();
  s.turn_side = v.turn_side;
  s.frame = frame;
  s.drawing = MoveVerdictDrawing(roster_, e.move, v);
  shown_.push_back(std::move(s));
}

// Players ask to see a move measured while it happens: each unit under way gets a ruler from where
// it rested, with what the rules would say if it stopped now (judged without changing the turn).
void Pipeline::MeasureMovingUnits(PipelineFrame* f) {
  f->rulers.clear();
  // A unit under way still has the rest pose it set out from: one table at rest serves every ruler,
  // built only when something moves.
  std::optional<Scene> before;
  for (const vision::TrackedUnit& u : f->track.units) {
    if (u.state != vision::UnitState::kMoving || !u.has_pose || !u.has_rest_pose) continue;
    if (!before) before = TableScene(roster_, f->track.units, TablePoses::kAtRest);
    ObservedMove m;
    m.unit = u.id;
    m.from = u.rest_pose;
    m.to = u.pose;
    m.path = {u.rest_pose, u.pose};
    const std::vector<DrawPrimitive> ruler = MoveRulerDrawing(roster_, m, judge_->PreviewMove(*before, m));
    f->rulers.insert(f->rulers.end(), ruler.begin(), ruler.end());
  }
}

void Pipeline::AcknowledgeVerdicts() {
  shown_.clear();
  BuildPrimitives(&last_, shown_);
}

void Pipeline::Analyze(PipelineFrame* f) {
  auto t0 = Clock::now();
  Scene scene = TableScene(roster_, f->track.units, TablePoses::kNow);
  const bool moved = HoldStillPoses(&scene, f->scene, options_.reanalyze_mm, options_.reanalyze_deg);
  const bool changed = frames_ == 0 || declarations_changed_ || moved;
  f->timings.scene_ms = MsSince(t0);
  f->analyzed = false;
  if (!changed) return;
  t0 = Clock::now();
  f->scene = std::move(scene);
  f->findings = ruleset_ ? ruleset_->Analyze(f->scene, kFramePath) : Findings{};
  ++analyses_;
  f->analyzed = true;
  declarations_changed_ = false;
  f->timings.rules_ms = MsSince(t0);
}

const PipelineFrame& Pipeline::Process(const cv::Mat& image, double t, const std::vector<Declaration>& declared) {
  PipelineFrame& f = last_;
  f.timings = StageTimings{};
  f.declarations = declared;
  for (const Declaration& d : declared) Declare(d);
  auto t0 = Clock::now();
  f.track = tracker_->Process(image, t);
  f.timings.track_ms = MsSince(t0);
  t0 = Clock::now();
  JudgeEvents(&f);
  MeasureMovingUnits(&f);
  f.timings.judge_ms = MsSince(t0);
  Analyze(&f);
  BuildPrimitives(&f, shown_);
  f.timings.total_ms = f.timings.track_ms + f.timings.scene_ms + f.timings.judge_ms + f.timings.rules_ms;
  ++frames_;
  return f;
}

const nlohmann::json& Pipeline::Report() const {
  if (report_of_ != analyses_) {
    report_ = ruleset_ && analyses_ > 0 ? ruleset_->Analyze(last_.scene, {.text = false, .report = true, .picture = false}).report : nlohmann::json();
    report_of_ = analyses_;
  }
  return report_;
}

const PipelineFrame& Pipeline::Reanalyze() {
  PipelineFrame& f = last_;
  if (frames_ == 0) return f;  // no poses yet: the first frame analyses anyway
  const auto t0 = Clock::now();
  f.scene.declarations = roster_.declarations;
  if (ruleset_) f.findings = ruleset_->Analyze(f.scene, kFramePath);
  ++analyses_;
  f.analyzed = true;
  declarations_changed_ = false;
  f.timings.rules_ms = MsSince(t0);
  BuildPrimitives(&f, shown_);
  return f;
}

}  // namespace vedette::pipeline
