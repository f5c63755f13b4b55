#include "overlay/headless.h"

#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <memory>
#include <set>
#include <sstream>

#include "overlay/recorder.h"

namespace vedette::overlay {

namespace {

void ProgressBar(int done, int total, double fps) {
  constexpr int kWidth = 40;
  if (total > 0) {
    const int filled = static_cast<int>(static_cast<long long>(kWidth) * done / total);
    std::fprintf(stderr, "\r[%s%s] %d/%d frames  %.1f fps ", std::string(filled, '#').c_str(),
                 std::string(kWidth - filled, '.').c_str(), done, total, fps);
  } else {
    std::fprintf(stderr, "\r%d frames  %.1f fps ", done, fps);
  }
  std::fflush(stderr);
}

volatile std::sig_atomic_t g_stop = 0;

extern "C" void OnStopSignal(int sig) {
  g_stop = 1;
  std::signal(sig, SIG_DFL);  // a second Ctrl-C ends the program at once
}

// SIGINT/SIGTERM end the run after the frame in hand, so the recording's queue is drained and both
// files are closed (the summary says so); the previous handlers come back when the run ends.
class StopOnSignal {
 public:
  StopOnSignal() {
    g_stop = 0;
    struct sigaction sa {};
    sa.sa_handler = OnStopSignal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int_);
    sigaction(SIGTERM, &sa, &old_term_);
  }
  ~StopOnSignal() {
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
  }
  bool stop() const { return g_stop != 0; }

 private:
  struct sigaction old_int_ {}, old_term_ {};
};

}  // namespace

void RunSummary::AddTimings(const StageTimings& t) {
  mean.track_ms += t.track_ms;
  mean.scene_ms += t.scene_ms;
  mean.rules_ms += t.rules_ms;
  mean.overlay_ms += t.overlay_ms;
  mean.record_ms += t.record_ms;
  mean.total_ms += t.total_ms;
}

void RunSummary::Finish(const Findings& last) {
  if (frames <= 0) return;
  const double n = frames;
  for (double* v : {&mean.track_ms, &mean.scene_ms, &mean.rules_ms, &mean.overlay_ms, &mean.record_ms, &mean.total_ms})
    *v /= n;
  for (const RequiredTest& t : last.tests) ++tests_by_kind[t.kind];
  tests_required = static_cast<int>(last.tests.size());
}

RunSummary RunHeadless(const HeadlessOptions& options, FrameSource& source, Pipeline& pipeline) {
  std::string error;
  if (!options.Check(&error)) throw std::invalid_argument("headless options: " + error);
  RunSummary s;
  s.units_in_roster = static_cast<int>(pipeline.roster().units.size());
  std::unique_ptr<Recorder> recorder;
  const bool tty = options.progress && isatty(fileno(stderr));
  std::set<std::string> seen;
  AnnotateScratch scratch;
  cv::Mat frame, annotated;
  double t = 0;
  const auto start = std::chrono::steady_clock::now();
  StopOnSignal signals;
  while (!signals.stop() && source.Next(&frame, &t)) {
    // Declarations that come with the frame (a clip script's players) count from this frame on.
    const std::vector<vision::ClipDeclaration> declared = source.declarations();
    for (const auto& d : declared) pipeline.SetDeclaration(d.unit, d.key, d.value);
    const PipelineFrame& f = pipeline.Process(frame, t);
    StageTimings timings = f.timings;
    nlohmann::json line = FrameLogLine(f);
    if (!recorder && (!options.video_path.empty() || !options.log_path.empty())) {
      RecorderOptions ro;
      ro.fps = source.fps();
      recorder = std::make_unique<Recorder>(ro, options.video_path, options.log_path, frame.size());
      s.codec = recorder->codec();
    }
    if (!options.video_path.empty()) {
      // Drawn on a copy (the tracker may keep this frame to compare the next one with), in one of
      // the recorder's buffers, which is then handed over without another copy.
      const auto t0 = std::chrono::steady_clock::now();
      annotated = recorder->Buffer();
      frame.copyTo(annotated);
      AnnotateFrame(options.annotate, f, pipeline.intrinsics(), &annotated, &scratch);
      timings.overlay_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      timings.record_ms = recorder->Write(std::move(annotated));
    } else if (recorder) {
      timings.record_ms = recorder->Write(frame, nullptr);
    }
    line["timings_ms"]["overlay"] = timings.overlay_ms;
    line["timings_ms"]["record"] = timings.record_ms;
    if (recorder) recorder->Log(std::move(line));
    for (const auto& d : declared) {
      ++s.events;
      ++s.event_counts["declare"];
      if (recorder) recorder->Log(DeclareEventLine(f, d.unit, d.key, d.value, "script"));
    }
    for (const vision::TrackEvent& e : f.track.events) {
      ++s.events;
      ++s.event_counts[e.type];
      if (recorder) recorder->Log(e.json);
    }
    for (const vision::TrackedUnit& u : f.track.units)
      if (u.measured) seen.insert(u.id);
    s.frames_registered += f.track.registration.ok;
    timings.total_ms = timings.track_ms + timings.scene_ms + timings.rules_ms + timings.overlay_ms + timings.record_ms;
    s.AddTimings(timings);
    ++s.frames;
    if (tty) {
      const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      ProgressBar(s.frames, source.frame_count(), s.frames / std::max(elapsed, 1e-9));
    }
  }
  if (tty) std::fprintf(stderr, "\n");
  s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  s.corrupt_frames = source.corrupt_frames;
  s.units_seen = static_cast<int>(seen.size());
  s.Finish(pipeline.last().findings);
  s.stopped_by_signal = signals.stop();
  if (recorder) {
    recorder->Close();  // everything queued is written before the summary says where it is
    s.video_path = recorder->video_path();
    s.log_path = recorder->log_path();
    s.write_error = recorder->error();
    s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  return s;
}

std::string SummaryText(const RunSummary& s) {
  std::ostringstream o;
  char buf[256];
  std::snprintf(buf, sizeof buf, "%d frames in %.1f s (%.1f fps)%s\n", s.frames, s.seconds,
                s.seconds > 0 ? s.frames / s.seconds : 0.0,
                s.corrupt_frames ? (", " + std::to_string(s.corrupt_frames) + " corrupt frames skipped").c_str() : "");
  o << buf;
  if (s.stopped_by_signal) o << "stopped by a signal: the recording was closed cleanly after the last frame\n";
  o << "units: " << s.units_seen << " of " << s.units_in_roster << " seen\n";
  o << "events: " << s.events;
  if (!s.event_counts.empty()) {
    o << " (";
    bool first = true;
    for (const auto& [type, n] : s.event_counts) {
      o << (first ? "" : ", ") << type << " " << n;
      first = false;
    }
    o << ")";
  }
  o << "\n";
  o << "tests required at the end: " << s.tests_required;
  if (!s.tests_by_kind.empty()) {
    o << " (";
    bool first = true;
    for (const auto& [kind, n] : s.tests_by_kind) {
      o << (first ? "" : ", ") << kind << " " << n;
      first = false;
    }
    o << ")";
  }
  o << "\n";
  std::snprintf(buf, sizeof buf, "per frame: track %.1f ms, rules %.1f ms, overlay %.1f ms, record %.1f ms, total %.1f ms\n",
                s.mean.track_ms, s.mean.rules_ms, s.mean.overlay_ms, s.mean.record_ms, s.mean.total_ms);
  o << buf;
  if (!s.video_path.empty()) o << "video: " << s.video_path << " (" << s.codec << ")\n";
  if (!s.log_path.empty()) o << "log: " << s.log_path << "\n";
  if (!s.write_error.empty()) o << "WRITE FAILED: " << s.write_error << "\n";
  return o.str();
}

}  // namespace vedette::overlay
