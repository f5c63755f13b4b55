// vedette live --camera N|--video FILE --calib cam.yaml --roster R.yaml --ruleset totsk [--record OUT.mkv]
// The live window: the table with the rules drawn on it, disputes, panels (see ui/live_window.h).
#include <iostream>

#include "app/command.h"
#include "app/output_paths.h"
#include "app/scene_args.h"
#include "app/stream_args.h"
#include "pipeline/frame_source.h"
#include "ui/live_window.h"
#include "pipeline/recorder.h"
#include "rules/input_error.h"
#include "calibration/roster.h"
#include "rules/scene/scene_io.h"

namespace vedette::app {
namespace {

struct LiveArgs {
  int camera = -1;
  std::string video, calib, roster, ruleset = "totsk", record, screenshot, settings, evidence_dir = ".";
  std::vector<std::string> set;
  int frames = -1;
  bool fast = false;
  StreamArgs streams;
};

void SetupLive(CLI::App& root) {
  auto args = std::make_shared<LiveArgs>();
  CLI::App* cmd = root.add_subcommand("live", "Open the live window: the camera picture with the rules drawn on it");
  auto* camera = cmd->add_option("--camera", args->camera, "Webcam index (0 = /dev/video0)");
  auto* video = cmd->add_option("--video", args->video, "A video file instead of a camera");
  camera->excludes(video);
  cmd->add_option("--calib", args->calib, "Camera file (vedette calibrate / OpenCV)")->required();
  cmd->add_option("--roster", args->roster, kRosterHelp)->required();
  cmd->add_option("--ruleset", args->ruleset, "Ruleset (default totsk)");
  cmd->add_option("--record", args->record, "Also record the annotated view (.mkv) and OUT.jsonl beside it");
  cmd->add_option("--set", args->set, "Ruleset setting KEY=VALUE (repeatable)");
  cmd->add_option("--frames", args->frames, "Close after this many frames")->check(CLI::Range(1, 100000000));
  cmd->add_option("--screenshot", args->screenshot, "Write a PNG of the window after the last frame");
  cmd->add_option("--settings", args->settings, "Settings file (default ~/.config/vedette/live.ini)");
  cmd->add_flag("--fast", args->fast, "Do not pace a video at its frame rate");
  AddStreamOptions(cmd, &args->streams);
  cmd->add_option("--evidence-dir", args->evidence_dir, "Where \"Save evidence\" (E) writes its PNG + JSON (default .)");
  cmd->callback([args] {
    UseOneOpenCvThread();
    if (args->camera < 0 && args->video.empty()) throw InputError("--camera", 0, "give --camera N or --video FILE");
    CheckOutputs({{args->record, "--record"},
                  {args->record.empty() ? "" : pipeline::LogPathFor(args->record), "--record's log"},
                  {args->screenshot, "--screenshot"}},
                 {args->video, args->calib, args->roster});
    const Scene roster = calib::LoadRoster(args->roster);
    calib::CameraIntrinsics k = calib::LoadIntrinsics(args->calib);
    std::unique_ptr<pipeline::FrameSource> source =
        args->video.empty() ? pipeline::OpenCamera(args->camera, 5.0, nullptr, k.image_size) : pipeline::OpenVideo(args->video);
    if (k.image_size != source->size()) k = calib::ScaledTo(k, source->size());
    std::string why;
    if (!ui::DisplayAvailable(&why)) {
      std::cerr << "vedette: cannot open the live window: " << why
                << "\n  (for a run without a window: vedette process --video FILE ... --out OUT.mkv)\n";
      SetExitCode(1);
      return;
    }
    pipeline::PipelineOptions po;
    po.ruleset = args->ruleset;
    po.ruleset_options = MakeRulesetOptions(roster, args->set);
    pipeline::Pipeline pipeline(po, k, roster);
    ui::LiveOptions lo;
    lo.record_path = args->record;
    lo.max_frames = args->frames;
    lo.screenshot_path = args->screenshot;
    lo.settings_path = args->settings;
    lo.realtime = !args->fast;
    lo.evidence_dir = args->evidence_dir;
    StreamSinks streams(args->streams, pipeline, source->name());
    lo.extra_sinks = streams.sinks();
    const ui::LiveResult r = ui::RunLive(lo, *source, pipeline);
    std::cout << pipeline::SummaryText(r.summary);
    FailOnWriteError(r.summary.write_error);
  });
}

VEDETTE_COMMAND("live", SetupLive);

}  // namespace
}  // namespace vedette::app
