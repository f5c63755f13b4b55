// vedette review LOG [--video VIDEO] [--json]
// What a recording kept: the event log checked line by line (frames, events, declarations, a last
// line cut short by a kill) and, with its video, how many frames play and whether the two agree.
// For the morning after a crash, a pulled plug or a full disk: the answer is a number of frames
// and seconds, not a guess.
#include <cstdio>
#include <filesystem>
#include <iostream>

#include <nlohmann/json.hpp>
#include <opencv2/videoio.hpp>

#include "app/command.h"
#include "pipeline/event_log_reader.h"
#include "rules/input_error.h"
#include "rules/path_checks.h"

namespace vedette::app {
namespace {

struct ReviewArgs {
  std::string log, video;
  bool json = false;
};

struct VideoRead {
  int frames = 0;
  double fps = 0;
};

VideoRead CountFrames(const std::string& path) {
  if (!IsRegularFile(path)) throw InputError(path, 0, "video not found");
  cv::VideoCapture cap(path, cv::CAP_FFMPEG);
  if (!cap.isOpened()) throw InputError(path, 0, "cannot be played: not a video, or cut before its first frame");
  VideoRead v;
  v.fps = cap.get(cv::CAP_PROP_FPS);
  while (cap.grab()) ++v.frames;  // grab() decodes without converting to BGR: every frame is checked, quickly
  return v;
}

std::string Seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f s", s);
  return buf;
}

void PrintText(const ReviewArgs& a, const pipeline::EventLogSummary& s, const VideoRead* v) {
  std::cout << a.log << ": a Vedette event log (version " << s.header.value("log_version", 0) << ", ruleset "
            << s.header.value("ruleset", std::string("?")) << ", " << s.header.value("units", 0) << " units)\n";
  if (s.frames == 0) std::cout << "  no frame was logged\n";
  else
    std::cout << "  " << s.frames << " frames, the last numbered " << s.last_frame << " at " << Seconds(s.last_t_s) << "; "
              << s.events << " events, " << s.declarations << " declarations\n";
  if (s.cut_last_line)
    std::cout << "  the last line was cut short (the program was stopped while writing it): left out\n";
  if (!v) return;
  std::cout << a.video << ": " << v->frames << " frames play";
  if (v->fps > 0) std::cout << " (" << Seconds(v->frames / v->fps) << " at " << v->fps << " fps)";
  std::cout << "\n";
  const int logged = s.last_frame + 1;
  if (v->frames == logged) std::cout << "  the video and the log agree: every logged frame plays\n";
  else if (v->frames < logged)
    std::cout << "  the video stops " << logged - v->frames << " frames before the log's last"
              << (v->fps > 0 ? " (" + Seconds((logged - v->frames) / v->fps) + ")" : "") << "\n";
  else std::cout << "  the video has " << v->frames - logged << " frames the log does not reach\n";
}

void SetupReview(CLI::App& root) {
  auto args = std::make_shared<ReviewArgs>();
  CLI::App* cmd = root.add_subcommand(
      "review", "What a recording kept: its event log checked line by line, and with --video how many frames play and whether they agree");
  cmd->add_option("log", args->log, "Event log (OUT.jsonl from process, live --record or demo)")->required();
  cmd->add_option("--video", args->video, "The recording beside it (default: the log's name with .mkv, if there is one)");
  cmd->add_flag("--json", args->json, "Print one JSON object");
  cmd->callback([args] {
    const pipeline::EventLogSummary s = pipeline::ReadEventLogFile(args->log);
    if (args->video.empty()) {
      const std::string beside = std::filesystem::path(args->log).replace_extension(".mkv").string();
      if (IsRegularFile(beside)) args->video = beside;
    }
    VideoRead v;
    if (!args->video.empty()) v = CountFrames(args->video);
    if (!args->json) return PrintText(*args, s, args->video.empty() ? nullptr : &v);
    nlohmann::json j = {{"log", args->log},           {"log_version", s.header.value("log_version", 0)},
                        {"frames", s.frames},          {"last_frame", s.last_frame},
                        {"last_t", s.last_t_s},        {"events", s.events},
                        {"declarations", s.declarations}, {"cut_last_line", s.cut_last_line}};
    if (!args->video.empty()) j["video"] = {{"path", args->video}, {"frames", v.frames}, {"fps", v.fps}};
    std::cout << j.dump(2) << "\n";
  });
}

VEDETTE_COMMAND("review", SetupReview);

}  // namespace
}  // namespace vedette::app
