// vedette track --video FILE|--camera N --calib cam.yaml --roster R.yaml [--events OUT.jsonl]
//   One JSON line per frame (every roster unit with its state) and one per event, flushed per frame,
//   so a crash loses at most the frame in flight; a summary at the end.
// vedette clip SCRIPT --video OUT.mkv [--truth OUT.jsonl] [--calib-out cam.yaml]
//   Renders a clip script (vision/clip_script.h) into a video with its ground truth: what the tests,
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
#include "overlay/frame_source.h"
#include "calibration/dictionary.h"
#include "rules/input_error.h"
#include "calibration/roster.h"
#include "rules/scene/scene_io.h"
#include "vision/clip_render.h"
#include "vision/track_tracker.h"

namespace vedette::app {
namespace {

std::atomic<bool> g_stop{false};
void OnSignal(int) { g_stop = true; }

struct TrackArgs {
  std::string video, calib, roster, events, ruleset = "totsk";
  int camera = -1;
  int max_frames = 0;
  double removed_after_s = 5.0;
  bool quiet = false;
};

void ProgressBar(int done, int total, double ms_mean) {
  const int width = 40;
  const int filled = total > 0 ? std::min(width, done * width / total) : 0;
  std::fprintf(stderr, "\r[%s%s] %d/%d frames  %.1f ms/frame ", std::string(filled, '#').c_str(),
               std::string(width - filled, '.').c_str(), done, total, ms_mean);
  std::fflush(stderr);
}

void RunTrack(const TrackArgs& a) {
  if (a.video.empty() == (a.camera < 0)) throw InputError("--video/--camera", 0, "give exactly one of --video FILE or --camera N");
  CheckOutputs({{a.events, "--events"}}, {a.video, a.calib, a.roster});
  const calib::CameraIntrinsics k0 = calib::LoadIntrinsics(a.calib);
  const Scene roster = calib::LoadRoster(a.roster);
  const cv::Ptr<cv::aruco::Dictionary> dict = calib::ResolveDictionary(roster.dictionary);

  // Camera: reopened with back-off for as long as it takes (Ctrl-C stops); file: unreadable frames
  // skipped and counted (overlay/frame_source.h).
  const std::unique_ptr<overlay::FrameSource> source =
      a.video.empty() ? overlay::OpenCamera(a.camera, -1, &g_stop, k0.image_size) : overlay::OpenVideo(a.video);
  // The events file is opened with the first frame in hand: a video that yields none leaves an
  // existing file (--force) as it was.
  std::ofstream file;
  std::ostream* out = &std::cout;
  const std::string out_name = (!a.events.empty() && a.events != "-") ? a.events : std::string("standard output");
  auto open_events = [&] {
    if (a.events.empty() || a.events == "-" || file.is_open()) return;
    file.open(a.events);
    if (!file) throw InputError(a.events, 0, "cannot write the events file");
    out = &file;
  };
  std::string write_error;
  std::signal(SIGINT, OnSignal);
  std::signal(SIGTERM, OnSignal);

  const bool progress = !a.video.empty() && !a.quiet && isatty(STDERR_FILENO);
  const int total = std::max(0, source->frame_count());

  std::unique_ptr<vision::Tracker> tracker;
  vision::TrackerOptions options;
  options.ruleset = a.ruleset;
  options.visibility.removed_after_s = a.removed_after_s;
  int frames = 0;
  size_t events = 0;
  int registered = 0;  // frames whose anchors registered the table
  std::map<std::string, int> event_counts;
  std::vector<double> ms;
  cv::Size size;
  cv::Mat image;
  double t = 0;
  while (!g_stop && (a.max_frames <= 0 || frames < a.max_frames) && source->Next(&image, &t)) {
    if (!tracker) {
      open_events();
      size = image.size();
      const calib::CameraIntrinsics k = (k0.image_size == size) ? k0 : calib::ScaledTo(k0, size);
      tracker = std::make_unique<vision::Tracker>(options, k, roster, *dict);
      if (!tracker->classifies_moves()) std::cerr << "vedette: moves are reported unclassified: " << tracker->ruleset_note() << "\n";
    }
    const vision::TrackFrame f = tracker->Process(image, t);
    registered += f.registration.ok;
    nlohmann::json line = vision::FrameJson(f);
    line["frame"] = frames;
    *out << line.dump() << "\n";
    for (const auto& e : f.events) {
      nlohmann::json ej = e.json;
      ej["frame"] = frames;
      *out << ej.dump() << "\n";
      ++event_counts[e.type];
      ++events;
    }
    out->flush();
    if (!*out) {  // disk full, or the file went away: stop rather than track on into nothing
      write_error = WriteFailedMessage(out_name, std::to_string(frames) + " frames");
      break;
    }
    ms.push_back(f.timing.total_ms);
    ++frames;
    if (progress && (frames % 5 == 0 || frames == total)) {
      double sum = 0;
      for (double v : ms) sum += v;
      ProgressBar(frames, total, sum / ms.size());
    }
  }
  if (progress) std::fprintf(stderr, "\n");
  std::vector<double> sorted = ms;
  std::sort(sorted.begin(), sorted.end());
  double mean = 0;
  for (double v : ms) mean += v;
  mean = ms.empty() ? 0 : mean / ms.size();
  const double p95 = sorted.empty() ? 0 : sorted[std::min(sorted.size() - 1, size_t(0.95 * sorted.size()))];
  const int skipped = source->corrupt_frames;
  nlohmann::json summary = {{"frames", frames}, {"skipped_frames", skipped}, {"camera_reopened", source->reopened},
                            {"events", events}, {"event_counts", event_counts}, {"ms_mean", std::round(mean * 1000) / 1000},
                            {"ms_p95", std::round(p95 * 1000) / 1000}, {"stopped_by_signal", bool(g_stop)}};
  if (write_error.empty() && (frames > 0 || out == &std::cout)) {
    *out << nlohmann::json{{"summary", summary}}.dump() << "\n";
    out->flush();
    if (!*out) write_error = WriteFailedMessage(out_name, std::to_string(frames) + " frames");
  }
  if (!a.quiet) {
    std::cerr << "vedette track: " << frames << " frames, " << skipped << " skipped, " << events << " events";
    for (const auto& [type, n] : event_counts) std::cerr << " (" << type << " " << n << ")";
    std::cerr << ", " << mean << " ms/frame mean, " << p95 << " p95\n";
  }
  FailOnWriteError(write_error);
  if (frames == 0) throw InputError(a.video.empty() ? "--camera" : a.video, 0, "no frame could be read");
  if (registered == 0) throw InputError(a.video.empty() ? "--camera" : a.video, 0, calib::AnchorsNotSeenAdvice(roster));
}

void SetupTrack(CLI::App& root) {
  auto a = std::make_shared<TrackArgs>();
  CLI::App* cmd = root.add_subcommand("track", "Track the units of a roster through a video or a live camera");
  cmd->add_option("--video", a->video, "Video file");
  cmd->add_option("--camera", a->camera, "Camera index (retried if it disappears)");
  cmd->add_option("--calib", a->calib, "Camera intrinsics (OpenCV YAML, from `vedette calibrate`)")->required();
  cmd->add_option("--roster", a->roster, kRosterHelp)->required();
  cmd->add_option("--events", a->events, "Output JSONL: one line per frame and per event (default: stdout)");
  cmd->add_option("--ruleset", a->ruleset, "Ruleset that classifies moves (default totsk; '' for none)");
  cmd->add_option("--removed-after", a->removed_after_s, "Seconds a lifted unit's spot must stay visible and empty before it is removed");
  cmd->add_option("--max-frames", a->max_frames, "Stop after this many frames (0: all)");
  cmd->add_flag("--quiet", a->quiet, "No progress bar or summary on stderr");
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
  cmd->add_option("script", a->script, "Clip script (YAML, see vision/clip_script.h)")->required();
  cmd->add_option("--video", a->video, "Output video (.mkv: mp4v, crash-safe; .avi: MJPG)")->required();
  cmd->add_option("--truth", a->truth, "Output ground truth, one JSON line per frame");
  cmd->add_option("--calib-out", a->calib_out, "Write the synthetic camera's intrinsics here (for `vedette track --calib`)");
  cmd->callback([a] {
    CheckOutputs({{a->video, "--video"}, {a->truth, "--truth"}, {a->calib_out, "--calib-out"}}, {a->script});
    vision::ClipRenderer r(vision::LoadClipScript(a->script));
    if (!a->calib_out.empty()) {
      AtomicOutput calib_out(a->calib_out);
      vision::WriteIntrinsicsYaml(r.intrinsics(), calib_out.temp_path());
      calib_out.Commit();
    }
    const bool bar = isatty(STDERR_FILENO);
    const vision::ClipVideoSummary s = vision::WriteClipVideo(r, a->video, a->truth, [&](int done, int total) {
      if (bar) ProgressBar(done, total, 0);
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
