// Hours of play: the whole frame path (synthetic camera -> tracker -> rules -> overlay -> recording
// of video and log) over a generated game of --minutes (default 60) of table time, printing the
// process's memory, open files and threads and the frame time as the game goes on.
//
//   soak_bench [--minutes 60] [--fps 5] [--size 960x540] [--roster assets/demo/roster.yaml]
//              [--check] [--max-growth-mb 5] [--max-drift 1.5]
//
// The game is generated, not stored: every unit of the roster advances a few mm and back along its
// facing, turning a little, on its own period; a hand sweeps across the table every two minutes.
// An identity swap is a unit reported more than 15 mm from where it is but within 5 mm of where
// another unit is. With --check (the CI test runs two minutes) the exit status is 1 when memory
// grows by more than --max-growth-mb (median of the last four reports against the first four), files or threads pile up, any swap
// happens, or the last report's frame time exceeds the second's (the first holds the start) by
// more than --max-drift times.
#include <malloc.h>
#include <sys/types.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "pipeline/frame_loop.h"
#include "pipeline/frame_source.h"
#include "pipeline/sinks.h"
#include "rules/scene/scene_io.h"
#include "synth/clip_render.h"
#include "synth/clip_script.h"

namespace fs = std::filesystem;
using namespace vedette;

namespace {

struct Args {
  double minutes = 60, fps = 5;
  int width = 960, height = 540;
  std::string roster = std::string(VEDETTE_ASSETS_DIR) + "/demo/roster.yaml";
  bool check = false;
  double max_growth_mb = 5, max_drift = 1.5;
};

// The process's resident memory (MB) and threads, from /proc/self/status; open files from /proc/self/fd.
struct Usage {
  double rss_mb = 0;
  double heap_mb = 0;  // malloc'd and not freed, MB: RSS rising while this stays is the allocator, not a leak
  int threads = 0, files = 0;
};

Usage ReadUsage() {
  Usage u;
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("VmRSS:", 0) == 0) u.rss_mb = std::atof(line.c_str() + 6) / 1024.0;
    if (line.rfind("Threads:", 0) == 0) u.threads = std::atoi(line.c_str() + 8);
  }
  for ([[maybe_unused]] const auto& e : fs::directory_iterator("/proc/self/fd")) ++u.files;
  u.heap_mb = static_cast<double>(mallinfo2().uordblks) / (1024.0 * 1024.0);
  return u;
}

// The clip script of the generated game (YAML text).
std::string GameScript(const Args& a, const Scene& roster) {
  const double seconds = a.minutes * 60;
  std::ostringstream s;
  s << "roster: " << a.roster << "\nfps: " << a.fps << "\nduration_s: " << seconds << "\n"
    << "camera: {image_size: [" << a.width << ", " << a.height << "]}\n"
    << "render: {supersample: 1, blur_sigma_px: 0.7, read_noise: 1.5, light_gradient: 0.15, jpeg_quality: 0, seed: 3}\n";
  std::ostringstream units;
  int index = 0;
  for (const Unit& u : roster.units) {
    if (!u.pose || !u.marker) continue;
    const double period = 40 + 7 * (index % 5), phase = 3.0 * index++;
    const double h = u.pose->heading_deg * M_PI / 180;
    std::ostringstream keys;
    for (double t = phase; t + 24 < seconds; t += period) {
      const double x = u.pose->x_mm, y = u.pose->y_mm, dx = 8 * std::cos(h), dy = 8 * std::sin(h);
      keys << "{t: " << t << ", x_mm: " << x << ", y_mm: " << y << ", heading_deg: " << u.pose->heading_deg << "}, "
           << "{t: " << t + 2 << ", x_mm: " << x + dx << ", y_mm: " << y + dy << ", heading_deg: " << u.pose->heading_deg + 4 << "}, "
           << "{t: " << t + 22 << ", x_mm: " << x + dx << ", y_mm: " << y + dy << ", heading_deg: " << u.pose->heading_deg + 4 << "}, "
           << "{t: " << t + 24 << ", x_mm: " << x << ", y_mm: " << y << ", heading_deg: " << u.pose->heading_deg << "}, ";
    }
    if (!keys.str().empty()) units << "  " << u.id << ": {keys: [" << keys.str() << "]}\n";
  }
  if (!units.str().empty()) s << "units:\n" << units.str();
  if (seconds > 63) s << "hands:\n";
  for (double t = 60; t + 3 < seconds; t += 120)
    s << "  - {radius_mm: 45, height_mm: 90, seed: " << static_cast<int>(t) << ", keys: [{t: " << t << ", x_mm: -50, y_mm: "
      << roster.table_depth_mm * 0.4 << "}, {t: " << t + 3 << ", x_mm: " << roster.table_width_mm + 50 << ", y_mm: "
      << roster.table_depth_mm * 0.6 << "}]}\n";
  return s.str();
}

int Swaps(const vision::TrackFrame& track, const synth::ClipMoment& truth) {
  int swaps = 0;
  for (const vision::TrackedUnit& u : track.units) {
    const auto own = truth.poses.find(u.id);
    if (!u.has_pose || !u.measured || own == truth.poses.end()) continue;
    auto dist = [&](const Pose& p) { return std::hypot(u.pose.x_mm - p.x_mm, u.pose.y_mm - p.y_mm); };
    if (dist(own->second) <= 15) continue;
    for (const auto& [id, p] : truth.poses)
      if (id != u.id && dist(p) < 5) ++swaps;
  }
  return swaps;
}

bool Parse(int argc, char** argv, Args* a) {
  for (int i = 1; i < argc; ++i) {
    const std::string k = argv[i];
    const char* v = i + 1 < argc ? argv[i + 1] : nullptr;
    if (k == "--check") a->check = true;
    else if (k == "--minutes" && v) a->minutes = std::atof(argv[++i]);
    else if (k == "--fps" && v) a->fps = std::atof(argv[++i]);
    else if (k == "--size" && v && std::sscanf(argv[++i], "%dx%d", &a->width, &a->height) == 2) continue;
    else if (k == "--roster" && v) a->roster = argv[++i];
    else if (k == "--max-growth-mb" && v) a->max_growth_mb = std::atof(argv[++i]);
    else if (k == "--max-drift" && v) a->max_drift = std::atof(argv[++i]);
    else return false;
  }
  return a->minutes > 0 && a->fps > 0 && a->width >= 320 && a->height >= 240;
}

// What the game's run left: the resources at each report, the frame time of each window between
// reports, the identity swaps, the frames run, and the recording's summary.
struct Run {
  std::vector<Usage> usage;
  std::vector<double> window_ms;
  int swaps = 0, frames = 0;  // frames run
  int frames_expected = 0;     // the clip's
  pipeline::RunSummary summary;
};

// The game through the whole frame path with its recording, a report line every twelfth of it.
Run RunGame(const Args& a, const Scene& roster, const fs::path& dir) {
  auto renderer = std::make_shared<synth::ClipRenderer>(
      synth::ParseClipScript(GameScript(a, roster), (dir / "game.clip.yaml").string(), fs::path(a.roster).parent_path().string()));
  pipeline::ClipSource source(renderer);
  pipeline::Pipeline pipeline({}, renderer->intrinsics(), renderer->script().roster);
  pipeline::RecordingOptions ro;
  ro.video_path = (dir / "game.mkv").string();
  ro.log_path = (dir / "game.jsonl").string();
  ro.fps = a.fps;
  pipeline::RecordingSink recording(ro, pipeline);
  pipeline::SummarySink summary(static_cast<int>(roster.units.size()));
  const int frames = source.frame_count(), every = std::max(1, frames / 12);
  std::printf("soak: %.0f min of table time at %.0f fps (%d frames), %dx%d, %zu units, recording video and log\n", a.minutes,
              a.fps, frames, a.width, a.height, roster.units.size());
  std::printf("%8s %8s %9s %9s %7s %8s %11s %6s\n", "minute", "frames", "RSS MB", "heap MB", "files", "threads", "frame ms",
              "swaps");
  Run run;
  run.frames_expected = frames;
  double sum_ms = 0;
  int& n = run.frames;
  for (;;) {
    const auto t0 = std::chrono::steady_clock::now();
    if (!pipeline::RunFrame(source, pipeline, {&recording, &summary})) break;
    sum_ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    run.swaps += Swaps(pipeline.last().track, source.last().moment);
    if (++n % every == 0 || n == frames) {
      run.usage.push_back(ReadUsage());
      run.window_ms.push_back(sum_ms / (n % every == 0 ? every : n % every));
      sum_ms = 0;
      const Usage& u = run.usage.back();
      std::printf("%8.1f %8d %9.1f %9.1f %7d %8d %11.2f %6d\n", n / a.fps / 60, n, u.rss_mb, u.heap_mb, u.files, u.threads,
                  run.window_ms.back(), run.swaps);
      std::fflush(stdout);
    }
  }
  run.summary = summary.Finish(pipeline.last().findings, 0);
  recording.Close(&run.summary);
  return run;
}

// The allocator gives memory back and takes it again (+-5 MB between reports): growth is the
// median of the last four reports against the median of the first four.
double RssGrowthMb(const std::vector<Usage>& usage) {
  auto median_rss = [&](size_t from, size_t to) {
    std::vector<double> v;
    for (size_t i = from; i < to && i < usage.size(); ++i) v.push_back(usage[i].rss_mb);
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
  };
  const size_t quarter = std::min<size_t>(4, usage.size());
  return median_rss(usage.size() - quarter, usage.size()) - median_rss(0, quarter);
}

}  // namespace

int main(int argc, char** argv) {
  Args a;
  if (!Parse(argc, argv, &a)) {
    std::fprintf(stderr, "usage: soak_bench [--minutes M] [--fps F] [--size WxH] [--roster FILE] [--check] "
                         "[--max-growth-mb MB] [--max-drift X]\n");
    return 2;
  }
  const fs::path dir = fs::temp_directory_path() / ("vedette_soak_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const Scene roster = LoadScene(a.roster, SceneLoadOptions{.require_poses = false});
  const Run run = RunGame(a, roster, dir);
  std::error_code ec;
  fs::remove_all(dir, ec);
  if (run.usage.empty()) return 1;
  const double growth = RssGrowthMb(run.usage);
  // The first window holds the start (ray map, first registration): drift is measured from the second.
  const double drift = run.window_ms.back() / run.window_ms[std::min<size_t>(1, run.window_ms.size() - 1)];
  const int more_files = run.usage.back().files - run.usage.front().files;
  const int more_threads = run.usage.back().threads - run.usage.front().threads;
  const std::string& write_error = run.summary.write_error;
  std::printf("RSS growth (median of the last 4 reports - median of the first 4): %.2f MB; files %+d, threads %+d; frame time last/second report %.2f; swaps %d; %s\n",
              growth, more_files, more_threads, drift, run.swaps, write_error.empty() ? "recording written" : write_error.c_str());
  if (!a.check) return 0;
  const bool ok = growth <= a.max_growth_mb && more_files <= 0 && more_threads <= 0 && run.swaps == 0 && drift <= a.max_drift &&
                  write_error.empty() && run.frames == run.frames_expected;
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
