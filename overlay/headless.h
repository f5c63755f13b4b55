#pragma once
// The pipeline with no window: frames in, an annotated video and a JSONL log out, a progress bar
// on a terminal and a summary at the end. `vedette process`, and `vedette demo` without a display.
#include <map>
#include <string>

#include "overlay/annotate.h"
#include "overlay/frame_source.h"
#include "overlay/pipeline.h"

namespace vedette::overlay {

struct HeadlessOptions {
  std::string video_path;   // .mkv (mp4v) or .avi (MJPG); "" = no video
  std::string log_path;     // JSONL; "" = no log
  AnnotateOptions annotate;
  bool progress = true;     // a progress bar on stderr when it is a terminal
  bool Check(std::string* error) const { return annotate.Check(error); }
};

struct RunSummary {
  int frames = 0;
  int corrupt_frames = 0;
  int units_in_roster = 0;
  int units_seen = 0;                       // units seen at least once
  int frames_registered = 0;                // frames whose anchors registered the table
  int events = 0;
  std::map<std::string, int> event_counts;  // by type
  int tests_required = 0;                   // required tests at the last frame
  std::map<std::string, int> tests_by_kind; // at the last frame
  StageTimings mean;                        // per frame, ms
  double seconds = 0;                       // wall time (until the recording is closed)
  bool stopped_by_signal = false;           // SIGINT/SIGTERM ended the run early
  std::string video_path, log_path, codec;
  std::string write_error;                  // "" or the recorder's first failed write (disk full, file removed)

  // Per frame: adds the frame's stage timings to the sums that Finish turns into means.
  void AddTimings(const StageTimings& t);
  // At the end, with `frames` set: the means, and the tests required by the last frame's findings.
  void Finish(const Findings& last);
};

RunSummary RunHeadless(const HeadlessOptions& options, FrameSource& source, Pipeline& pipeline);

// For a person: frames, units, events by type, tests, per-stage timings, where the files are.
std::string SummaryText(const RunSummary& s);

}  // namespace vedette::overlay
