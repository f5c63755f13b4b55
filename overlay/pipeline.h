#pragma once
// The one stage between a camera frame and what the players see:
//   frame --(vision::Tracker: detection, registration, filtered poses, states, events)-->
//   scene (the roster with the poses of the units on the table) --(Ruleset::Analyze)--> Findings
//   --> primitives (the findings' drawing, with stale units dashed) --> draw commands (annotate.h).
// `vedette live`, `process`, `demo` and the tests all go through it, so the choice of how frames
// become poses is made here and nowhere else. Each stage is timed for the overlay's panel and the
// benchmark.
//
// Units on the table for the rules: seen, moving, at rest, and occluded (kept at their last pose
// and drawn dashed, since a hand over a unit does not take it off the table). Lifted, removed and
// never-seen units have no pose. The rules run again only when a pose or a state changed, so a
// resting table costs only the tracker.
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <opencv2/core.hpp>

#include "calibration/camera_model.h"
#include "rules/ruleset.h"
#include "rules/scene/scene.h"
#include "vision/track_tracker.h"

namespace vedette::overlay {

struct PipelineOptions {
  std::string ruleset = "totsk";        // name for MakeRuleset
  RulesetOptions ruleset_options;
  vision::TrackerOptions tracker;       // its `ruleset` is set to `ruleset` (move classification)
  double reanalyze_mm = 0.05;           // the rules run again when a unit moved more than this, mm
  double reanalyze_deg = 0.05;          // ... or turned more than this, deg
  bool Check(std::string* error) const;
};

struct StageTimings {
  double track_ms = 0;    // detection, registration, filtering, states, events (vision::Tracker)
  double scene_ms = 0;    // tracked units -> scene
  double rules_ms = 0;    // Ruleset::Analyze (0 when nothing changed on the table)
  double overlay_ms = 0;  // primitives -> draw commands -> pixels (set by whoever draws)
  double record_ms = 0;   // video + log writing (set by the recorder's caller)
  double total_ms = 0;    // the sum of the above
};

struct PipelineFrame {
  vision::TrackFrame track;              // units (every roster unit), events, registration, markers
  Scene scene;                           // roster + poses of the units on the table
  Findings findings;                     // of `scene`
  std::vector<DrawPrimitive> primitives; // findings.drawing; stale (occluded) units dashed
  bool analyzed = false;                 // the rules ran on this frame
  StageTimings timings;
};

class Pipeline {
 public:
  // Throws InputError when the roster has no dictionary or the ruleset is unknown, and
  // std::invalid_argument for bad options.
  Pipeline(const PipelineOptions& options, const calib::CameraIntrinsics& intrinsics, const Scene& roster);
  ~Pipeline();

  // image: 8-bit BGR of the intrinsics' size; t in seconds, increasing.
  const PipelineFrame& Process(const cv::Mat& image, double t);

  // A declaration made while the program runs (the live window's state menu: key "state",
  // "firing", "limbered"): it joins the roster's declarations (line 0: not from a file), stays for
  // the rest of the run, and the rules run again on the next frame even if nothing moved.
  void SetDeclaration(const std::string& unit, const std::string& key, const nlohmann::json& value);
  // Runs the rules again on the last frame's poses with the current declarations (a paused window
  // or the last frame of a video still shows a state the player just set).
  const PipelineFrame& Reanalyze();

  const PipelineFrame& last() const { return last_; }
  const Ruleset& ruleset() const { return *ruleset_; }
  const RulesetInfo& info() const { return info_; }
  const Scene& roster() const { return roster_; }
  const calib::CameraIntrinsics& intrinsics() const { return intrinsics_; }
  int frames() const { return frames_; }

 private:
  PipelineOptions options_;
  calib::CameraIntrinsics intrinsics_;
  Scene roster_;
  std::unique_ptr<Ruleset> ruleset_;
  RulesetInfo info_;
  cv::Ptr<cv::aruco::Dictionary> dictionary_;
  std::unique_ptr<vision::Tracker> tracker_;
  PipelineFrame last_;
  int frames_ = 0;
  bool declarations_changed_ = false;  // SetDeclaration since the last analysis
};

// Is a unit in this state on the table (for the rules)?
bool OnTable(const vision::TrackedUnit& u);
// Is it drawn dashed (its pose is remembered, not seen)?
bool Stale(const vision::TrackedUnit& u);

// The scene the rules see: the roster with the on-table units' poses.
Scene SceneOf(const Scene& roster, const std::vector<vision::TrackedUnit>& units);

// The event line of a declaration made while the game runs, logged after the frame it took effect
// on: {"event":"declare","frame","t","unit","key","value","source"} (source: "live window", "script").
nlohmann::json DeclareEventLine(const PipelineFrame& frame, const std::string& unit, const std::string& key,
                                const nlohmann::json& value, const std::string& source);

// The log line of a frame (JSONL): the tracker's frame line plus "tests" (unit, kind, reason, odds,
// p_success) and "events" (the tracker's event lines). Frames are numbered from 0.
nlohmann::json FrameLogLine(const PipelineFrame& frame);

}  // namespace vedette::overlay
