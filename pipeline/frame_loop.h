#pragma once
// RunFrame: the frame path every command walks, from capture to sinks:
//   FrameSource::Next --> Pipeline::Process (perception, scene, move verdicts, rules, overlay
//   description) --> FrameLines (the log, pipeline/event_log.h) --> each sink in turn.
// `live`, `process`, `track` and `demo` differ only in their sinks: a recording (video + log), a
// JSONL stream, the summary, the live window.
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <opencv2/core.hpp>

#include "pipeline/frame_source.h"
#include "pipeline/pipeline.h"

namespace vedette::pipeline {

// One frame as the sinks see it.
struct FrameOutput {
  const PipelineFrame& frame;
  const cv::Mat& image;                    // the camera frame, unannotated: sinks draw on copies
  std::vector<nlohmann::json>& lines;      // the frame's log lines: frame line, declarations, events
  StageTimings timings;                    // the pipeline's; a sink that draws or writes adds its own ms
};

class FrameSink {
 public:
  virtual ~FrameSink() = default;
  virtual void OnFrame(FrameOutput& out) = 0;
  // A log line made between frames (a declaration from the live window's menu).
  virtual void OnLine(const nlohmann::json& line) {}
};

// Pulls one frame from `source`, runs it through `pipeline` with the declarations that come with
// it (a clip script's players), and hands the result to `sinks` in order. false: the source has
// ended (nothing else happened).
bool RunFrame(FrameSource& source, Pipeline& pipeline, const std::vector<FrameSink*>& sinks);

// What a run did, for the summary at its end (a sink: put it after the ones that draw and write).
struct RunSummary {
  int frames = 0;
  int corrupt_frames = 0;
  int units_in_roster = 0;
  int units_seen = 0;                       // units seen at least once
  int frames_registered = 0;                // frames whose anchors registered the table
  int events = 0;                           // declarations included
  std::map<std::string, int> event_counts;  // by type
  int tests_required = 0;                   // required tests at the last frame
  std::map<std::string, int> tests_by_kind; // at the last frame
  StageTimings mean;                        // per frame, ms
  double seconds = 0;                       // wall time (until the recording is closed)
  bool stopped_by_signal = false;           // SIGINT/SIGTERM ended the run early
  std::string video_path, log_path, codec;
  std::string write_error;                  // "" or the first failed write (disk full, file removed)
};

class SummarySink : public FrameSink {
 public:
  explicit SummarySink(int units_in_roster);
  void OnFrame(FrameOutput& out) override;
  void OnLine(const nlohmann::json& line) override;
  // The means, and the tests required by the last frame's findings.
  RunSummary Finish(const Findings& last, int corrupt_frames) const;
  const RunSummary& running() const { return s_; }  // sums so far (means not divided)
  const StageTimings& last_timings() const { return last_; }

 private:
  RunSummary s_;
  std::map<std::string, bool> seen_;
  StageTimings last_;
};

// For a person: frames, units, events by type, tests, per-stage timings, where the files are.
std::string SummaryText(const RunSummary& s);

}  // namespace vedette::pipeline
