// The live path's speed benchmark (not a timed test; issue 6: "live at 1080p: at least 60 frames per
// second end to end, capture decode excluded, on this 2-core machine with 60 units, recording on").
//
// A synthetic 1080p clip at 30 fps of a 60-unit TotSK battle on a 1200 x 900 mm table (two armies of
// 30 in two lines 130 mm apart, artillery and a general behind each): three blue line units advance
// 60 mm towards the enemy, the blue right-flank cavalry wheels 30 deg, a red unit turns 45 deg and
// another advances 40 mm, and a hand sweeps across the blue rear line. Every frame is rendered into
// memory first, so rendering (and capture decoding) is not timed. Then the same frames go through
// the whole live path, as `vedette live --record OUT.mkv` and `vedette process` run it:
//   Pipeline::Process (vision::Tracker -> scene -> TotSK Analyze -> primitives)
//   -> the annotated copy drawn by the OpenCV backend (annotate.h)
//   -> the recording (pipeline::Recorder: mp4v in Matroska + the JSONL log with every frame line and
//      event line, flushed as it goes).
// Comparison row, same frames, same rules/drawing/recording: stock cv::aruco::detectMarkers (default
// parameters) + LocateBases instead of the tracker; the rules then run on every frame (raw poses
// change every frame; there is no filter to tell a resting unit).
//
// Each path runs with OpenCV on one thread (cv::setNumThreads(1)) and with OpenCV's default. Per
// stage: p50 / p95 ms over the steady frames (every frame after the first); fps = steady frames / wall
// time from the second frame until the recording is closed (the recorder's queue drained, the files
// complete); CPU per frame of the main thread (CLOCK_THREAD_CPUTIME_ID) and of every other thread
// (process CPU minus the main thread's: the recorder worker, OpenCV's pool), which do not depend on
// what else the shared machine runs; the fps bound on two idle cores is 1000 / the larger of the
// two. The recording is then read back (frame count of the video, frame lines of the log) to show
// that no frame was dropped.
//
//   overlay_bench [--frames N] [--quick] [--json FILE] [--keep DIR] [--baseline] [--worker-nice N]
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <opencv2/core/utility.hpp>
#include <opencv2/videoio.hpp>

#include "bench/bench_stats.h"
#include "calibration/dictionary.h"
#include "overlay/annotate.h"
#include "overlay/cv_renderer.h"
#include "overlay/draw_commands.h"
#include "overlay/style.h"
#include "pipeline/event_log.h"
#include "pipeline/frame_picture.h"
#include "pipeline/pipeline.h"
#include "pipeline/table_scene.h"
#include "pipeline/recorder.h"
#include "rules/ruleset.h"
#include "rules/scene/scene_io.h"
#include "synth/clip_render.h"
#include "synth/clip_script.h"
#include "vision/detect.h"
#include "vision/locate.h"

using namespace vedette;
using namespace vedette::overlay;
using namespace vedette::pipeline;
using namespace vedette::synth;
using Clock = std::chrono::steady_clock;

namespace {

double MsSince(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

// CPU time of the calling thread, ms: what a stage costs whether or not other programs took the
// core from it meanwhile (the shared machine is rarely idle).
double CpuSeconds() {
  rusage r{};
  getrusage(RUSAGE_SELF, &r);
  return r.ru_utime.tv_sec + r.ru_stime.tv_sec + 1e-6 * (r.ru_utime.tv_usec + r.ru_stime.tv_usec);
}

using bench::Stats;
using bench::ThreadCpuMs;

// ---------------------------------------------------------------------------------------------
// The battle. Table frame: mm, origin at blue's left corner, blue faces +y (90 deg), red faces -y.
//
//   y=900 +--------------------------------------------------------------+
//         | [3]            RA                 RG                     [2] |  y=750 red rear: guns, general
//         |   r  r  r  r  r  r  r  r  r  r  r  r  r  r                    |  y=650 red second line (14)
//         |   R  R  R  R  R4 R  R  R  R8 R  R  R  RC RC                   |  y=540 red front line (12 inf + 2 cav)
//         |                     130 mm gap                                |
//         |   B  B  B2 B  B  B  B6 B  B  B  B10 B  B  BC13                |  y=380 blue front line
//         |   b  b  b  b  b  b  b  b  b  b  b  b  b  b    <- the hand     |  y=270 blue second line
//         | [0]            BA                 BG                     [1] |  y=170 blue rear
//   y=0   +--------------------------------------------------------------+
//         x = 110 + 75 i, i = 0..13
std::string BattleRosterYaml() {
  std::ostringstream y;
  y << "name: overlay bench battle (60 units)\nbw_mm: 40\ntable: {width_mm: 1200, depth_mm: 900}\narc_model: totsk\n"
       "dictionary: DICT_4X4_100\nsides:\n  blue: {colour: \"#3060ff\"}\n  red: {colour: \"#e03030\"}\n"
       "anchors:\n"
       "  - {marker: 0, size_mm: 50, x_mm: 60, y_mm: 60, heading_deg: 90}\n"
       "  - {marker: 1, size_mm: 50, x_mm: 1140, y_mm: 60, heading_deg: 90}\n"
       "  - {marker: 2, size_mm: 50, x_mm: 1140, y_mm: 840, heading_deg: 90}\n"
       "  - {marker: 3, size_mm: 50, x_mm: 60, y_mm: 840, heading_deg: 90}\n"
       "units:\n";
  int marker = 10;
  auto unit = [&](const std::string& id, const std::string& side, const std::string& type, const std::string& tags,
                  double w, double d, double off, double x, double yy, double heading) {
    y << "  - {id: " << id << ", side: " << side << ", type: " << type << tags
      << ", formation: " << (type == "artillery" ? "unlimbered" : "line") << ", base: {width_mm: " << w << ", depth_mm: " << d
      << "}, pose: {x_mm: " << x << ", y_mm: " << yy << ", heading_deg: " << heading << "}, marker: " << marker++
      << ", marker_size_mm: 20, marker_offset_mm: [0, " << off << "], marker_heading_deg: 0, marker_height_mm: 3}\n";
  };
  for (int s = 0; s < 2; ++s) {
    const bool blue = s == 0;
    const std::string side = blue ? "blue" : "red";
    const char p = blue ? 'B' : 'R';
    const double heading = blue ? 90 : -90;
    const double front = blue ? 380 : 540, second = blue ? 270 : 650, rear = blue ? 170 : 750;
    for (int i = 0; i < 14; ++i) {
      const double x = 110 + 75 * i;
      if (i >= 12) unit(std::string(1, p) + "C" + std::to_string(i), side, "cavalry", "", 40, 40, -6, x, front, heading);
      else unit(std::string(1, p) + std::to_string(i), side, "infantry", "", 40, 30, -2, x, front, heading);
    }
    for (int i = 0; i < 14; ++i) {
      const double x = 110 + 75 * i;
      unit(std::string(1, p) + "S" + std::to_string(i), side, "infantry", i % 5 == 4 ? ", tags: [light]" : "", 40, 30, -2, x,
           second, heading);
    }
    unit(std::string(1, p) + "A", side, "artillery", "", 40, 40, -6, 410, rear, heading);
    unit(std::string(1, p) + "G", side, "general", "", 30, 30, 0, 785, rear, heading);
  }
  return y.str();
}

synth::ClipScript BattleScript(int frames, double fps) {
  synth::ClipScript s;
  s.source = "overlay_bench";
  s.roster = ParseScene(BattleRosterYaml(), "overlay_bench roster");
  s.fps = fps;
  s.duration_s = frames / fps;
  s.camera.image_size = {1920, 1080};
  s.camera.table_width_mm = s.roster.table_width_mm;
  s.camera.table_depth_mm = s.roster.table_depth_mm;
  s.camera.k1 = -0.05;
  s.camera.k2 = 0.0;
  s.render.supersample = 2;
  s.render.jpeg_quality = 0;
  s.render.seed = 7;
  const double D = s.duration_s;
  auto find = [&](const std::string& id) -> const Pose& { return *s.roster.FindUnit(id)->pose; };
  auto move = [&](const std::string& id, double t0, double t1, double dx, double dy, double dh) {
    const Pose& p = find(id);
    synth::ClipUnitScript u;
    u.id = id;
    synth::ClipPoseKey a, b;
    a.t = t0;
    b.t = t1;
    b.x_mm = p.x_mm + dx;
    b.y_mm = p.y_mm + dy;
    b.heading_deg = p.heading_deg + dh;
    u.keys = {a, b};
    s.units.push_back(u);
  };
  // Blue line units advance 60 mm (into 70 mm of the red line: threats, zones of control).
  for (const char* id : {"B2", "B6", "B10"}) move(id, 0.15 * D, 0.45 * D, 0, 60, 0);
  // The blue right-flank cavalry wheels 30 deg to its left; red R4 turns 45 deg; R8 advances 40 mm.
  move("BC13", 0.3 * D, 0.6 * D, -10, 10, 30);
  move("R4", 0.35 * D, 0.65 * D, 0, 0, 45);
  move("R8", 0.5 * D, 0.8 * D, 0, -40, 0);
  // A hand sweeps along the blue second line, 90 mm above the table.
  synth::ClipHand hand;
  hand.radius_mm = 55;
  hand.height_mm = 90;
  hand.seed = 3;
  hand.keys = {{0.4 * D, 60, 250}, {0.95 * D, 1140, 300}};
  s.hands.push_back(hand);
  return s;
}

// ---------------------------------------------------------------------------------------------

struct RunResult {
  std::string path;     // "vedette" (tracker) or "stock" (detectMarkers)
  int cv_threads = 0;
  Stats track, scene, rules, draw, record, total;
  Stats log_line, write;  // inside `record`: building the frame's log line, handing frame + lines over
  Stats main_cpu, pipeline_cpu, draw_cpu, record_cpu;  // the main thread's CPU time per frame, ms
  double main_cpu_total_ms = 0;
  // With 2 idle cores the main thread and everything else (encoder worker, OpenCV's pool) overlap:
  // the frame rate is bounded by the busier of the two.
  double OtherCpuMs() const { return (1000 * cpu_s - main_cpu_total_ms) / frames; }
  double IdleFpsBound() const { return 1000.0 / std::max(main_cpu.Mean(), OtherCpuMs()); }
  int frames = 0, analyzed = 0;
  double wall_s = 0, close_ms = 0, cpu_s = 0;
  size_t primitives = 0;
  int video_frames_read = -1, log_frame_lines = -1;
  nlohmann::json draw_breakdown;
  nlohmann::json Json() const {
    return {{"path", path},
            {"cv_threads", cv_threads},
            {"steady_frames", frames},
            {"rules_ran", analyzed},
            {"primitives_last", primitives},
            {"ms", {{"track", track.Json()}, {"scene", scene.Json()}, {"rules", rules.Json()}, {"draw", draw.Json()},
                    {"record", record.Json()}, {"total", total.Json()}}},
            {"fps", frames / wall_s},
            {"record_parts_ms", {{"log_line", log_line.Json()}, {"write", write.Json()}}},
            {"recorder_close_ms", close_ms},
            {"cpu_ms_per_frame", 1000 * cpu_s / frames},
            {"main_thread_cpu_ms", {{"frame", main_cpu.Json()}, {"pipeline", pipeline_cpu.Json()}, {"draw", draw_cpu.Json()},
                                    {"record", record_cpu.Json()}}},
            {"other_threads_cpu_ms_per_frame", OtherCpuMs()},
            {"fps_bound_two_idle_cores", IdleFpsBound()},
            {"video_frames_read_back", video_frames_read},
            {"log_frame_lines", log_frame_lines},
            {"draw_breakdown", draw_breakdown}};
  }
};

// Reads the recording back: frames in the video, frame lines in the log.
void CheckRecording(const std::string& video, const std::string& log, RunResult* r) {
  cv::VideoCapture cap(video, cv::CAP_FFMPEG);
  int n = 0;
  for (cv::Mat f; cap.grab(); ++n) {
  }
  r->video_frames_read = n;
  std::ifstream in(log);
  int lines = 0;
  for (std::string s; std::getline(in, s);) {
    const nlohmann::json j = nlohmann::json::parse(s, nullptr, false);
    if (!j.is_discarded() && j.contains("units") && !j.contains("event")) ++lines;
  }
  r->log_frame_lines = lines;
}

// The stock path's stand-in for the tracker's frame: every located unit "seen" at its raw pose.
void StockFrame(const vision::Location& loc, const Scene& roster, int frame, double t, vision::TrackFrame* tf) {
  tf->frame = frame;
  tf->t = t;
  tf->events.clear();
  tf->units.clear();
  for (const Unit& u : roster.units) {
    vision::TrackedUnit tu;
    tu.id = u.id;
    tu.marker = u.marker ? u.marker->id : -1;
    tu.state = vision::UnitState::kUnseen;
    for (const auto& e : loc.units)
      if (e.unit == u.id) {
        tu.has_pose = true;
        tu.pose = e.pose;
        tu.sigma_mm = e.sigma_mm;
        tu.sigma_deg = e.sigma_deg;
        tu.state = vision::UnitState::kSeen;
        tu.measured = true;
      }
    tf->units.push_back(tu);
  }
  tf->registration.ok = loc.registration.ok;
  tf->registration.fresh = loc.registration.ok;
  tf->registration.anchors_seen = static_cast<int>(loc.registration.anchors_seen.size());
  tf->registration.rms_px = loc.registration.rms_px;
  tf->registration.camera_from_table = loc.registration.camera_from_table;
}

// Where the overlay draw goes, on one frame's primitives (repeated for a stable figure): building the
// pixel commands, then the OpenCV backend on fills, strokes and labels alone, and the status line.
nlohmann::json DrawBreakdown(const PipelineFrame& f, const calib::CameraIntrinsics& k, const cv::Mat& image,
                             const CvRenderOptions& render) {
  constexpr int kReps = 10;
  AnnotateOptions ao;
  ao.render = render;
  AnnotateScratch scratch;
  const TableProjection projection = FrameProjection(k, f.track.registration.camera_from_table);
  BuildOptions build = ao.build;
  build.scale = ScaleForHeight(image.rows);
  cv::Mat canvas;
  Stats b, fills, strokes, labels, status, copy;
  DrawCommands only_fills, only_strokes, only_labels;
  for (int i = 0; i < kReps; ++i) {
    auto t0 = Clock::now();
    image.copyTo(canvas);
    copy.Add(MsSince(t0));
    t0 = Clock::now();
    BuildDrawCommands(build, f.primitives, projection, DefaultStyleTable(), ao.layers, &scratch.commands);
    b.Add(MsSince(t0));
    if (i == 0) {
      only_fills = only_strokes = only_labels = scratch.commands;
      only_fills.labels.clear();
      only_strokes.labels.clear();
      only_labels.paths.clear();
      for (PathCommand& c : only_fills.paths) c.stroke_rgba = 0;
      for (PathCommand& c : only_strokes.paths) c.fill_rgba = 0;
    }
    for (auto [cmds, stats] : {std::pair{&only_fills, &fills}, std::pair{&only_strokes, &strokes}, std::pair{&only_labels, &labels}}) {
      image.copyTo(canvas);
      t0 = Clock::now();
      RenderCommands(*cmds, &canvas, &scratch.render, ao.render);
      stats->Add(MsSince(t0));
    }
    PipelineFrame no_overlay = f;
    no_overlay.track.registration.ok = false;
    image.copyTo(canvas);
    t0 = Clock::now();
    AnnotateFrame(ao, no_overlay, k, &canvas, &scratch);
    status.Add(MsSince(t0));
  }
  size_t fill_paths = 0, stroke_paths = 0;
  for (const PathCommand& c : scratch.commands.paths) {
    fill_paths += c.fill_rgba != 0;
    stroke_paths += c.stroke_rgba != 0;
  }
  return {{"copy_ms", copy.Pct(0.5)}, {"build_ms", b.Pct(0.5)}, {"fills_ms", fills.Pct(0.5)}, {"strokes_ms", strokes.Pct(0.5)},
          {"labels_ms", labels.Pct(0.5)}, {"status_line_ms", status.Pct(0.5)}, {"primitives", f.primitives.size()},
          {"fill_paths", fill_paths}, {"stroke_paths", stroke_paths}, {"points", scratch.commands.points.size()},
          {"labels", scratch.commands.labels.size()}};
}

// What the overlay stages do (the --baseline switch measures them as they were before the
// recorder worker, the path simplification and the label cache).
struct LiveOptions {
  bool recorder_background = true;
  float simplify_px = CvRenderOptions{}.simplify_px;
  bool cache_labels = true;
  int worker_nice = RecorderOptions{}.worker_nice;
};

RunResult RunPath(bool stock, int cv_threads, const std::vector<synth::ClipFrame>& frames, const synth::ClipRenderer& clip,
                  const std::string& dir, const LiveOptions& live) {
  cv::setNumThreads(cv_threads);
  RunResult r;
  r.path = stock ? "stock detectMarkers" : "vedette tracker";
  r.cv_threads = cv::getNumThreads();
  const Scene& roster = clip.script().roster;
  const calib::CameraIntrinsics& k = clip.intrinsics();
  const std::string base = dir + "/" + (stock ? "stock" : "vedette") + "_t" + std::to_string(r.cv_threads);
  const std::string video = base + ".mkv", log = LogPathFor(video);

  PipelineOptions po;
  po.ruleset = "totsk";
  Pipeline pipeline(po, k, roster);
  auto ruleset = MakeRuleset("totsk");
  const auto dictionary = calib::ResolveDictionary(roster.dictionary);
  RecorderOptions ro;
  ro.fps = clip.script().fps;
  ro.background = live.recorder_background;
  ro.worker_nice = live.worker_nice;
  auto recorder = std::make_unique<Recorder>(ro, video, log, frames[0].image.size());
  AnnotateOptions ao;
  ao.render.simplify_px = live.simplify_px;
  ao.render.cache_labels = live.cache_labels;
  AnnotateScratch scratch;
  PipelineFrame stock_frame;  // the stock path's frame (no tracker)

  Clock::time_point steady_start;
  double cpu0 = 0;
  for (size_t i = 0; i < frames.size(); ++i) {
    if (i == 1) {
      steady_start = Clock::now();
      cpu0 = CpuSeconds();
    }
    const auto t_frame = Clock::now();
    const double c_frame = ThreadCpuMs();
    const cv::Mat& image = frames[i].image;
    const double t = frames[i].t;
    const PipelineFrame* f = nullptr;
    StageTimings st;
    if (!stock) {
      f = &pipeline.Process(image, t);
      st = f->timings;
      r.analyzed += (i > 0 && f->analyzed) ? 1 : 0;
    } else {
      auto t0 = Clock::now();
      const vision::Detections d = vision::DetectMarkersStock(image, *dictionary);
      const vision::Location loc = vision::LocateBases(vision::LocateOptions{}, k, roster, d.markers);
      StockFrame(loc, roster, static_cast<int>(i), t, &stock_frame.track);
      st.track_ms = MsSince(t0);
      t0 = Clock::now();
      stock_frame.scene = TableScene(roster, stock_frame.track.units, TablePoses::kNow);
      st.scene_ms = MsSince(t0);
      t0 = Clock::now();
      stock_frame.findings = ruleset->Analyze(stock_frame.scene, kFramePath);
      stock_frame.primitives = stock_frame.findings.drawing;
      stock_frame.analyzed = true;
      st.rules_ms = MsSince(t0);
      r.analyzed += i > 0 ? 1 : 0;
      f = &stock_frame;
    }
    // Drawn on a copy (the tracker keeps the frame it was given to compare the next one with), in
    // one of the recorder's buffers, as `process` does.
    const double c_draw = ThreadCpuMs();
    auto t0 = Clock::now();
    cv::Mat annotated = recorder->Buffer();
    image.copyTo(annotated);
    AnnotateFrame(ao, *f, k, &annotated, &scratch);
    st.overlay_ms = MsSince(t0);
    const double c_record = ThreadCpuMs();
    // The recording: the frame, its log line and the frame's event lines.
    t0 = Clock::now();
    std::vector<nlohmann::json> lines = FrameLines(*f, "totsk");
    const double log_line_ms = MsSince(t0);
    recorder->Write(std::move(annotated));
    for (nlohmann::json& line : lines) recorder->Log(std::move(line));
    st.record_ms = MsSince(t0);
    const double total = MsSince(t_frame);
    const double c_end = ThreadCpuMs();
    if (i == 0) continue;
    r.main_cpu.Add(c_end - c_frame);
    r.main_cpu_total_ms += c_end - c_frame;
    r.pipeline_cpu.Add(c_draw - c_frame);
    r.draw_cpu.Add(c_record - c_draw);
    r.record_cpu.Add(c_end - c_record);
    r.track.Add(st.track_ms);
    r.scene.Add(st.scene_ms);
    r.rules.Add(st.rules_ms);
    r.draw.Add(st.overlay_ms);
    r.record.Add(st.record_ms);
    r.log_line.Add(log_line_ms);
    r.write.Add(st.record_ms - log_line_ms);
    r.total.Add(total);
    r.primitives = f->primitives.size();
    if (!stock && i + 1 == frames.size() && f->track.registration.ok)
      r.draw_breakdown = DrawBreakdown(*f, k, image, ao.render);
  }
  const auto t_close = Clock::now();
  recorder.reset();  // drains whatever is queued and closes the files
  r.close_ms = MsSince(t_close);
  r.frames = static_cast<int>(frames.size()) - 1;
  r.wall_s = std::chrono::duration<double>(Clock::now() - steady_start).count();
  r.cpu_s = CpuSeconds() - cpu0;
  CheckRecording(video, log, &r);
  return r;
}

std::string Cell(const Stats& s) {
  char b[64];
  std::snprintf(b, sizeof b, "%.1f / %.1f", s.Pct(0.5), s.Pct(0.95));
  return b;
}

void PrintTable(const std::vector<RunResult>& runs, int frames_total, bool baseline) {
  std::printf("\n%s1920x1080, 60 units, %d frames (%d timed: every frame after the first), recording on (mp4v .mkv + JSONL)\n",
              baseline ? "BASELINE (recorder inline, every path point drawn, putText per label): " : "", frames_total, frames_total - 1);
  std::printf("stage columns: wall ms per frame, p50 / p95; fps = timed frames / wall time until the recording is closed;\n"
              "CPU ms per frame (means): the main thread, and every other thread (recorder worker, OpenCV's pool);\n"
              "fps bound = 1000 / the larger of the two (both overlap on 2 idle cores)\n\n");
  std::printf("| path | cv threads | track | scene | rules | overlay draw | record | total | fps | CPU ms/frame: main thread | other threads | fps bound, 2 idle cores | rules ran |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (const RunResult& r : runs)
    std::printf("| %s | %d | %s | %s | %s | %s | %s | %s | %.1f | %.1f | %.1f | %.0f | %d/%d |\n", r.path.c_str(), r.cv_threads,
                Cell(r.track).c_str(), Cell(r.scene).c_str(), Cell(r.rules).c_str(), Cell(r.draw).c_str(),
                Cell(r.record).c_str(), Cell(r.total).c_str(), r.frames / r.wall_s, r.main_cpu.Mean(), r.OtherCpuMs(),
                r.IdleFpsBound(), r.analyzed, r.frames);
  std::printf("\n");
  for (const RunResult& r : runs)
    std::printf("%s, %d cv threads: main-thread CPU ms p50 / p95: pipeline %s, draw %s, record %s; record = log line %s + hand-over %s ms; recorder closed in %.1f ms; read back %d video "
                "frames, %d log frame lines (of %d); %zu primitives on the last frame\n",
                r.path.c_str(), r.cv_threads, Cell(r.pipeline_cpu).c_str(), Cell(r.draw_cpu).c_str(), Cell(r.record_cpu).c_str(),
                Cell(r.log_line).c_str(), Cell(r.write).c_str(), r.close_ms, r.video_frames_read,
                r.log_frame_lines, r.frames + 1, r.primitives);
  for (const RunResult& r : runs)
    if (!r.draw_breakdown.is_null())
      std::printf("overlay draw of the last frame (%d cv threads), ms: copy %.2f, commands %.2f, fills %.2f, strokes %.2f, labels %.2f, "
                  "status line %.2f (%d fill paths, %d stroked paths, %d points, %d labels)\n",
                  r.cv_threads, r.draw_breakdown["copy_ms"].get<double>(), r.draw_breakdown["build_ms"].get<double>(),
                  r.draw_breakdown["fills_ms"].get<double>(), r.draw_breakdown["strokes_ms"].get<double>(),
                  r.draw_breakdown["labels_ms"].get<double>(), r.draw_breakdown["status_line_ms"].get<double>(),
                  r.draw_breakdown["fill_paths"].get<int>(), r.draw_breakdown["stroke_paths"].get<int>(),
                  r.draw_breakdown["points"].get<int>(), r.draw_breakdown["labels"].get<int>());
}

struct Args {
  int frames = 120;
  bool quick = false;
  std::string json_path, keep_dir;
  LiveOptions live;
};

bool Parse(int argc, char** argv, Args* a) {
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--frames") && i + 1 < argc) a->frames = std::max(8, std::atoi(argv[++i]));
    else if (!std::strcmp(argv[i], "--quick")) a->quick = true;
    else if (!std::strcmp(argv[i], "--json") && i + 1 < argc) a->json_path = argv[++i];
    else if (!std::strcmp(argv[i], "--keep") && i + 1 < argc) a->keep_dir = argv[++i];
    else if (!std::strcmp(argv[i], "--baseline")) a->live = LiveOptions{false, 0.0f, false, 0};
    else if (!std::strcmp(argv[i], "--worker-nice") && i + 1 < argc) a->live.worker_nice = std::atoi(argv[++i]);
    else return false;
  }
  if (a->quick) a->frames = std::min(a->frames, 40);
  return true;
}

// Every frame rendered into memory first: rendering is not part of the live path. render_s: its time.
std::vector<synth::ClipFrame> RenderAll(synth::ClipRenderer& clip, double* render_s) {
  std::vector<synth::ClipFrame> frames;
  *render_s = 0;
  for (int f = 0; f < clip.FrameCount(); ++f) {
    synth::ClipFrame cf = clip.Render(f);
    *render_s += cf.render_ms / 1000;
    cf.truth = nullptr;
    frames.push_back(std::move(cf));
    std::fprintf(stderr, "\rrendering frame %d/%d", f + 1, clip.FrameCount());
  }
  std::fprintf(stderr, " (%.1f s)\n", *render_s);
  return frames;
}

}  // namespace

int main(int argc, char** argv) {
  Args a;
  if (!Parse(argc, argv, &a)) {
    std::fprintf(stderr,
                 "usage: overlay_bench [--frames N] [--quick] [--json FILE] [--keep DIR] [--baseline] [--worker-nice N]\n"
                 "  --frames N  clip length (default 120 at 30 fps; --quick: 40)\n"
                 "  --quick     fewer frames, and the stock path on the default threads only\n"
                 "  --keep DIR  write the recordings there and keep them (default: a temp folder, removed)\n"
                 "  --baseline  encode on the calling thread, draw every path point, putText every label (as before)\n"
                 "  --worker-nice N  niceness of the recorder's worker thread (default 5)\n");
    return 2;
  }
  const int default_threads = cv::getNumThreads();
  const double fps = 30;
  synth::ClipRenderer clip(BattleScript(a.frames, fps));
  double render_s = 0;
  const std::vector<synth::ClipFrame> clip_frames = RenderAll(clip, &render_s);
  std::string dir = a.keep_dir;
  if (dir.empty()) dir = (std::filesystem::temp_directory_path() / ("vedette_overlay_bench_" + std::to_string(::getpid()))).string();
  std::filesystem::create_directories(dir);
  std::vector<RunResult> runs;
  for (int threads : {1, default_threads}) {
    std::fprintf(stderr, "vedette tracker, %d cv threads...\n", threads);
    runs.push_back(RunPath(false, threads, clip_frames, clip, dir, a.live));
    if (a.quick && threads == 1) continue;
    std::fprintf(stderr, "stock detectMarkers, %d cv threads...\n", threads);
    runs.push_back(RunPath(true, threads, clip_frames, clip, dir, a.live));
  }
  cv::setNumThreads(default_threads);
  PrintTable(runs, a.frames, !a.live.recorder_background);
  nlohmann::json all = {{"bench", "overlay"}, {"baseline", !a.live.recorder_background}, {"image", {1920, 1080}},
                        {"units", clip.script().roster.units.size()}, {"frames", a.frames}, {"clip_fps", fps},
                        {"render_ms_mean", 1000 * render_s / a.frames}, {"runs", nlohmann::json::array()}};
  for (const RunResult& r : runs) all["runs"].push_back(r.Json());
  if (!a.json_path.empty()) std::ofstream(a.json_path) << all.dump(2) << "\n";
  if (a.keep_dir.empty()) std::filesystem::remove_all(dir);
  return 0;
}
