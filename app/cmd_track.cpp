// vedette track --video FILE|--camera N --calib cam.yaml --roster R.yaml [--events OUT.jsonl]
//   The event log of `process` (pipeline/event_log.h: a header, per frame the frame line and its
//   events, moves judged by the ruleset) without the video, flushed per frame so a crash loses at
//   most the frame in flight; a summary line at the end.
// vedette clip SCRIPT --video OUT.mkv [--truth OUT.jsonl] [--calib-out cam.yaml]
//   Renders a clip script (synth/clip_script.h) into a video with its ground truth: what the tests,
//   the benchmark and the demo feed to `track`.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <thread>

#include <opencv2/videoio.hpp>

#include "app/command.h"
#include "app/output_paths.h"
#include "app/scene_args.h"
#include "app/stream_args.h"
#include "pipeline/event_log.h"
#include "pipeline/frame_loop.h"
#include "pipeline/frame_source.h"
#include "pipeline/headless.h"
#include "pipeline/pipeline.h"
#include "pipeline/sinks.h"
#include "calibration/dictionary.h"
#include "rules/input_error.h"
#include "calibration/roster.h"
#include "rules/scene/scene_io.h"
#include "synth/clip_render.h"

namespace vedette::app {
namespace {

std::atomic<bool> g_stop{false};
void OnSignal(int) { g_stop = true; }

struct TrackArgs {
  std::string video, calib, roster, events, ruleset = "totsk";
  std::vector<std::string> set;
  int camera = -1;
  int max_frames = 0;
  double removed_after_s = 5.0;
  bool quiet = false;
  StreamArgs streams;
};

// The tracker's time per frame: mean and 95th percentile, ms.
struct TrackTimes {
  double mean = 0.0, p95 = 0.0;
};
TrackTimes TimesOf(const std::vector<double>& ms) {
  TrackTimes t;
  std::vector<double> sorted = ms;
  std::sort(sorted.begin(), sorted.end());
  for (double v : ms) t.mean += v;
  t.mean = ms.empty() ? 0 : t.mean / ms.size();
  t.p95 = sorted.empty() ? 0 : sorted[std::min(sorted.size() - 1, size_t(0.95 * sorted.size()))];
  return t;
}

// Every frame through the pipeline until the source ends, a signal, --max-frames or a write error;
// the tracker's ms per frame.
std::vector<double> TrackFrames(const TrackArgs& a, pipeline::FrameSource& source, pipeline::Pipeline& pipeline,
                                const std::vector<pipeline::FrameSink*>& sinks, const pipeline::JsonlSink& jsonl,
                                const pipeline::SummarySink& summary) {
  const bool progress = !a.video.empty() && !a.quiet && isatty(STDERR_FILENO);
  const int total = std::max(0, source.frame_count());
  std::vector<double> ms;
  while (!g_stop && (a.max_frames <= 0 || summary.running().frames < a.max_frames) && pipeline::RunFrame(source, pipeline, sinks)) {
    ms.push_back(pipeline.last().track.timing.total_ms);
    if (!jsonl.error().empty()) break;  // disk full, or the file went away: stop rather than track on into nothing
    const int frames = summary.running().frames;
    if (progress && (frames % 5 == 0 || frames == total)) {
      double sum = 0;
      for (double v : ms) sum += v;
      pipeline::ProgressBar(frames, total, 1000.0 / std::max(1e-9, sum / ms.size()));
    }
  }
  if (progress) std::fprintf(stderr, "\n");
  return ms;
}

// The summary line closing the event log, and the same on stderr.
void ReportTrack(const TrackArgs& a, const pipeline::RunSummary& s, int reopened, const TrackTimes& t, pipeline::JsonlSink* jsonl) {
  nlohmann::json line = {{"summary", {{"frames", s.frames}, {"skipped_frames", s.corrupt_frames},
                                      {"camera_reopened", reopened}, {"events", s.events},
                                      {"event_counts", s.event_counts}, {"ms_mean", std::round(t.mean * 1000) / 1000},
                                      {"ms_p95", std::round(t.p95 * 1000) / 1000}, {"stopped_by_signal", bool(g_stop)}}}};
  if (jsonl->opened()) jsonl->OnLine(line);
  if (a.quiet) return;
  std::cerr << "vedette track: " << s.frames << " frames, " << s.corrupt_frames << " skipped, " << s.events << " events";
  for (const auto& [type, n] : s.event_counts) std::cerr << " (" << type << " " << n << ")";
  std::cerr << ", " << t.mean << " ms/frame mean, " << t.p95 << " p95\n";
}

void RunTrack(const TrackArgs& a) {
  if (a.video.empty() == (a.camera < 0)) throw InputError("--video/--camera", 0, "give exactly one of --video FILE or --camera N");
  CheckOutputs({{a.events, "--events"}}, {a.video, a.calib, a.roster});
  const calib::CameraIntrinsics k0 = calib::LoadIntrinsics(a.calib);
  const Scene roster = calib::LoadRoster(a.roster);
  pipeline::PipelineOptions po;
  po.ruleset = a.ruleset;
  po.ruleset_options = MakeRulesetOptions(roster, a.set);
  po.tracker.visibility.removed_after_s = a.removed_after_s;

  // Camera: reopened with back-off for as long as it takes (Ctrl-C stops); file: unreadable frames
  // skipped and counted (pipeline/frame_source.h).
  const std::unique_ptr<pipeline::FrameSource> source =
      a.video.empty() ? pipeline::OpenCamera(a.camera, -1, &g_stop, k0.image_size) : pipeline::OpenVideo(a.video);
  const calib::CameraIntrinsics k = (k0.image_size == source->size()) ? k0 : calib::ScaledTo(k0, source->size());
  pipeline::Pipeline pipeline(po, k, roster);
  if (a.ruleset.empty()) std::cerr << "vedette: no ruleset: moves are reported unjudged\n";

  pipeline::JsonlSink jsonl(a.events, pipeline::LogHeaderLine(pipeline, source->name()));
  pipeline::SummarySink summary(int(roster.units.size()));
  StreamSinks streams(a.streams, pipeline, source->name());
  std::vector<pipeline::FrameSink*> sinks = {&jsonl};
  for (pipeline::FrameSink* s : streams.sinks()) sinks.push_back(s);
  sinks.push_back(&summary);
  std::signal(SIGINT, OnSignal);
  std::signal(SIGTERM, OnSignal);
  const std::vector<double> ms = TrackFrames(a, *source, pipeline, sinks, jsonl, summary);
  const pipeline::RunSummary s = summary.Finish(pipeline.last().findings, source->corrupt_frames);
  ReportTrack(a, s, source->reopened, TimesOf(ms), &jsonl);
  FailOnWriteError(jsonl.error());
  if (s.frames == 0) throw InputError(a.video.empty() ? "--camera" : a.video, 0, "no frame could be read");
  if (s.frames_registered == 0) throw InputError(a.video.empty() ? "--camera" : a.video, 0, calib::AnchorsNotSeenAdvice(roster));
}

void SetupTrack(CLI::App& root) {
  auto a = std::make_shared<TrackArgs>();
  CLI::App* cmd = root.add_subcommand("track", "Track the units of a roster through a video or a live camera");
  cmd->add_option("--video", a->video, "Video file");
  cmd->add_option("--camera", a->camera, "Camera index (retried if it disappears)");
  cmd->add_option("--calib", a->calib, "Camera intrinsics (OpenCV YAML, from `vedette calibrate`)")->required();
  cmd->add_option("--roster", a->roster, kRosterHelp)->required();
  cmd->add_option("--events", a->events, "Output JSONL: one line per frame and per event (default: stdout)");
  cmd->add_option("--ruleset", a->ruleset, "Ruleset that judges moves and analyses the table (default totsk; '' for none)");
  cmd->add_option("--set", a->set, "Ruleset setting KEY=VALUE (repeatable)");
  cmd->add_option("--removed-after", a->removed_after_s, "Seconds a lifted unit's spot must stay visible and empty before it is removed");
  cmd->add_option("--max-frames", a->max_frames, "Stop after this many frames (0: all)");
  cmd->add_flag("--quiet", a->quiet, "No progress bar or summary on stderr");
  AddStreamOptions(cmd, &a->streams);
  cmd->callback([a] {
    UseOneOpenCvThread();
    RunTrack(*a);
  });
}

struct ClipArgs {
  std::string script, video, truth, calib_out;
};

void SetupClip(CLI::App& root) {
  auto a = std::make_shared<ClipArgs>();
  CLI::App* cmd = root.add_subcommand("clip", "Render a clip script into a synthetic video with its ground truth");
  cmd->add_option("script", a->script, "Clip script (YAML, see synth/clip_script.h)")->required();
  cmd->add_option("--video", a->video, "Output video (.mkv: mp4v, crash-safe; .avi: MJPG)")->required();
  cmd->add_option("--truth", a->truth, "Output ground truth, one JSON line per frame");
  cmd->add_option("--calib-out", a->calib_out, "Write the synthetic camera's intrinsics here (for `vedette track --calib`)");
  cmd->callback([a] {
    CheckOutputs({{a->video, "--video"}, {a->truth, "--truth"}, {a->calib_out, "--calib-out"}}, {a->script});
    synth::ClipRenderer r(synth::LoadClipScript(a->script));
    if (!a->calib_out.empty()) {
      AtomicOutput calib_out(a->calib_out);
      synth::WriteIntrinsicsYaml(r.intrinsics(), calib_out.temp_path());
      calib_out.Commit();
    }
    const bool bar = isatty(STDERR_FILENO);
    const synth::ClipVideoSummary s = synth::WriteClipVideo(r, a->video, a->truth, [&](int done, int total) {
      if (bar) pipeline::ProgressBar(done, total, 0);
    });
    if (bar) std::fprintf(stderr, "\n");
    std::cout << "wrote " << a->video << ": " << s.frames << " frames (" << s.codec << "), " << s.render_ms_mean
              << " ms/frame to render\n";
  });
}

VEDETTE_COMMAND("track", SetupTrack);
VEDETTE_COMMAND("clip", SetupClip);

}  // namespace
}  // namespace vedette::app
