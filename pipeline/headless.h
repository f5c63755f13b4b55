#pragma once
// The frame loop with no window: frames in, an annotated video and a JSONL log out, a progress bar
// on a terminal and a summary at the end. `vedette process`, and `vedette demo` without a display.
#include <signal.h>

#include <string>
#include <vector>

#include "overlay/annotate.h"
#include "pipeline/frame_loop.h"
#include "pipeline/frame_source.h"
#include "pipeline/pipeline.h"

namespace vedette::pipeline {

struct HeadlessOptions {
  std::string video_path;   // .mkv (mp4v) or .avi (MJPG); "" = no video
  std::string log_path;     // JSONL; "" = no log
  overlay::AnnotateOptions annotate;
  bool progress = true;     // a progress bar on stderr when it is a terminal
  std::vector<FrameSink*> extra_sinks;  // after the recording (network streams: streams/); not owned
  bool Check(std::string* error) const { return annotate.Check(error); }
};

// SIGINT/SIGTERM end the run after the frame in hand, so the recording's queue is drained and both
// files are closed (the summary says so); the previous handlers come back when the run ends.
class StopOnSignal {
 public:
  StopOnSignal();
  ~StopOnSignal();
  bool stop() const;

 private:
  struct ::sigaction old_int_ {}, old_term_ {};
};

RunSummary RunHeadless(const HeadlessOptions& options, FrameSource& source, Pipeline& pipeline);

// "\r[####....] 12/120 frames  30.1 fps" on stderr (total <= 0: no bar).
void ProgressBar(int done, int total, double fps);

}  // namespace vedette::pipeline
