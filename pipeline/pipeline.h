#pragma once
// The one stage between a camera frame and what the players see, the same for `live`, `process`,
// `track` and `demo`:
//   frame --(vision::Tracker: detection, registration, filtered poses, states, observed moves)-->
//   scene (pipeline/table_scene.h) --(MoveJudge: each observed move judged by the chosen ruleset)-->
//   --(Ruleset::Analyze)--> Findings --> primitives (the findings' drawing, remembered units dashed)
// One Ruleset, built from the user's options (--set, the scene's settings), judges the moves and
// analyses the table, so the two can never disagree. Each stage is timed for the overlay's panel
// and the benchmark. The loop around it and its sinks (recording, log, window) are in
// pipeline/frame_loop.h.
//
// The rules run again only when a pose or a state changed, so a resting table costs only the
// tracker.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <opencv2/core.hpp>

#include "calibration/camera_model.h"
#include "rules/move_judge.h"
#include "rules/ruleset.h"
#include "rules/scene/scene.h"
#include "vision/track_tracker.h"

namespace vedette::pipeline {

struct PipelineOptions {
  std::string ruleset = "totsk";        // name for MakeRuleset; "": no rules (poses and events only)
  RulesetOptions ruleset_options;       // --set and the scene's settings: they reach analysis and move verdicts alike
  vision::TrackerOptions tracker;
  double reanalyze_mm = 0.05;           // the rules run again when a unit moved more than this from where they last saw it, mm
  double reanalyze_deg = 0.05;          // ... or turned more than this, deg
  bool Check(std::string* error) const;
};

struct StageTimings {
  double track_ms = 0;    // detection, registration, filtering, states, events (vision::Tracker)
  double scene_ms = 0;    // tracked units -> scene
  double judge_ms = 0;    // the frame's observed moves judged (MoveJudge)
  double rules_ms = 0;    // Ruleset::Analyze (0 when nothing changed on the table)
  double overlay_ms = 0;  // primitives -> draw commands -> pixels (set by whoever draws)
  double record_ms = 0;   // video + log writing (set by the recorder's caller)
  double total_ms = 0;    // the sum of the above
};

// A declaration made while the game runs (a clip script's players, the live window's state menu).
struct Declaration {
  std::string unit;       // "" with key "active_side": whose turn it is
  std::string key;        // "state", "firing", "limbered", "active_side", ...
  nlohmann::json value;
  std::string source;     // "script", "live window"
};

// An event of the frame with the rules' word on it.
struct FrameEvent {
  vision::TrackEvent seen;            // what the camera saw
  std::optional<MoveVerdict> move;    // a move: its verdict
  std::optional<GroupVerdict> group;  // a group move: whether it may count as one
};

// A judged move shown on the picture (and in the live window's panel) until the next turn or
// until the players acknowledge it.
struct ShownVerdict {
  std::string unit;
  std::string text;                      // the verdict in words (rules/verdict_drawing.h)
  bool illegal = false;
  bool needs_test = false;
  std::string turn_side;                 // the turn it was made in
  int frame = 0;                         // the frame it was judged on
  std::vector<DrawPrimitive> drawing;    // path, outline where it stopped, card
};

struct PipelineFrame {
  vision::TrackFrame track;              // units (every roster unit), registration, markers (its events are in `events`)
  std::vector<FrameEvent> events;        // the tracker's events, judged
  std::vector<Declaration> declarations; // made with this frame (they count from it on)
  Scene scene;                           // roster + poses of the units on the table
  Findings findings;                     // of `scene`
  std::vector<ShownVerdict> verdicts;    // the moves' verdicts shown now, oldest first
  std::vector<DrawPrimitive> rulers;     // units under way: how far they went and what stopping would mean
  std::vector<DrawPrimitive> primitives; // findings.drawing (remembered units dashed) + the verdicts' drawing
  bool analyzed = false;                 // the rules ran on this frame
  StageTimings timings;
};

class Pipeline {
 public:
  // Throws InputError when the roster has no dictionary or anchors or the ruleset is unknown or
  // refuses a setting, and std::invalid_argument for bad options.
  Pipeline(const PipelineOptions& options, const calib::CameraIntrinsics& intrinsics, const Scene& roster);
  ~Pipeline();

  // image: 8-bit BGR of the intrinsics' size; t in seconds, increasing. `declared` take effect
  // with this frame.
  const PipelineFrame& Process(const cv::Mat& image, double t, const std::vector<Declaration>& declared = {});

  // A declaration made between frames: it joins the roster's declarations (line 0: not from a
  // file), stays for the rest of the run, judges the moves after it, and the rules run again on
  // the next frame even if nothing moved.
  void Declare(const Declaration& d);
  // Runs the rules again on the last frame's poses with the current declarations (a paused window
  // or the last frame of a video still shows a state the player just set).
  const PipelineFrame& Reanalyze();
  // The players have read the verdicts on the picture: they are taken off.
  void AcknowledgeVerdicts();

  const PipelineFrame& last() const { return last_; }
  // The last analysis's JSON report (what `analyze --json` prints for its scene): the frame path
  // builds only the drawing and the tests, so the report is made on the first ask after each analysis.
  const nlohmann::json& Report() const;
  bool has_ruleset() const { return ruleset_ != nullptr; }
  const Ruleset& ruleset() const { return *ruleset_; }  // only with has_ruleset()
  const RulesetInfo& info() const { return info_; }
  const PipelineOptions& options() const { return options_; }
  const Scene& roster() const { return roster_; }
  const calib::CameraIntrinsics& intrinsics() const { return intrinsics_; }
  int frames() const { return frames_; }

 private:
  void ApplyStateChanges(const std::vector<StateChange>& changes, PipelineFrame* f);
  void JudgeEvents(PipelineFrame* f);
  void Analyze(PipelineFrame* f);
  void ShowVerdict(const vision::TrackEvent& e, const MoveVerdict& v, int frame);
  void MeasureMovingUnits(PipelineFrame* f);

  PipelineOptions options_;
  calib::CameraIntrinsics intrinsics_;
  Scene roster_;                         // with the declarations made so far
  std::unique_ptr<Ruleset> ruleset_;
  RulesetInfo info_;
  std::unique_ptr<MoveJudge> judge_;
  cv::Ptr<cv::aruco::Dictionary> dictionary_;
  std::unique_ptr<vision::Tracker> tracker_;
  std::vector<ShownVerdict> shown_;      // verdicts on the picture
  PipelineFrame last_;
  int frames_ = 0;
  bool declarations_changed_ = false;    // a declaration since the last analysis
  int analyses_ = 0;                     // rules runs so far
  mutable nlohmann::json report_;        // Report() of analysis number report_of_
  mutable int report_of_ = -1;
};

}  // namespace vedette::pipeline
