#include "pipeline/headless.h"

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>

#include "pipeline/sinks.h"

namespace vedette::pipeline {

namespace {

volatile std::sig_atomic_t g_stop = 0;

extern "C" void OnStopSignal(int sig) {
  g_stop = 1;
  std::signal(sig, SIG_DFL);  // a second Ctrl-C ends the program at once
}

}  // namespace

StopOnSignal::StopOnSignal() {
  g_stop = 0;
  struct sigaction sa {};
  sa.sa_handler = OnStopSignal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, &old_int_);
  sigaction(SIGTERM, &sa, &old_term_);
}

StopOnSignal::~StopOnSignal() {
  sigaction(SIGINT, &old_int_, nullptr);
  sigaction(SIGTERM, &old_term_, nullptr);
}

bool StopOnSignal::stop() const { return g_stop != 0; }

void ProgressBar(int done, int total, double fps) {
  constexpr int kWidth = 40;
  if (total > 0) {
    const int filled = static_cast<int>(static_cast<long long>(kWidth) * std::min(done, total) / total);
    std::fprintf(stderr, "\r[%s%s] %d/%d frames  %.1f fps ", std::string(filled, '#').c_str(),
                 std::string(kWidth - filled, '.').c_str(), done, total, fps);
  } else {
    std::fprintf(stderr, "\r%d frames  %.1f fps ", done, fps);
  }
  std::fflush(stderr);
}

RunSummary RunHeadless(const HeadlessOptions& options, FrameSource& source, Pipeline& pipeline) {
  std::string error;
  if (!options.Check(&error)) throw std::invalid_argument("headless options: " + error);
  RecordingOptions ro;
  ro.video_path = options.video_path;
  ro.log_path = options.log_path;
  ro.annotate = options.annotate;
  ro.fps = source.fps();
  ro.source_name = source.name();
  RecordingSink recording(ro, pipeline);
  SummarySink summary(static_cast<int>(pipeline.roster().units.size()));
  const bool tty = options.progress && isatty(fileno(stderr));
  const auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  StopOnSignal signals;
  std::vector<FrameSink*> sinks = {&recording};
  sinks.insert(sinks.end(), options.extra_sinks.begin(), options.extra_sinks.end());
  sinks.push_back(&summary);
  while (!signals.stop() && RunFrame(source, pipeline, sinks)) {
    const int n = summary.running().frames;
    if (tty) ProgressBar(n, source.frame_count(), n / std::max(elapsed(), 1e-9));
  }
  if (tty) std::fprintf(stderr, "\n");
  RunSummary s = summary.Finish(pipeline.last().findings, source.corrupt_frames);
  s.stopped_by_signal = signals.stop();
  recording.Close(&s);
  s.seconds = elapsed();
  return s;
}

}  // namespace vedette::pipeline
