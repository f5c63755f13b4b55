// vedette process --video IN --calib cam.yaml --roster R.yaml --ruleset totsk --out OUT.mkv --log OUT.jsonl
// The live pipeline without a window: an annotated video, a frame-numbered JSONL log (one line per
// frame, then that frame's events), a progress bar, and a summary.
#include <iostream>

#include "app/command.h"
#include "app/output_paths.h"
#include "app/scene_args.h"
#include "app/stream_args.h"
#include "pipeline/frame_source.h"
#include "pipeline/headless.h"
#include "overlay/layers.h"
#include "pipeline/recorder.h"
#include "rules/input_error.h"
#include "calibration/roster.h"
#include "rules/scene/scene_io.h"

namespace vedette::app {
namespace {

struct ProcessArgs {
  std::string video, calib, roster, ruleset = "totsk", out, log, hide;
  std::vector<std::string> set;
  bool quiet = false;
  StreamArgs streams;
};

void SetupProcess(CLI::App& root) {
  auto args = std::make_shared<ProcessArgs>();
  CLI::App* cmd = root.add_subcommand(
      "process", "Run a video through the whole pipeline without a window: annotated video + JSONL log + summary");
  cmd->add_option("--video", args->video, "Input video")->required();
  cmd->add_option("--calib", args->calib, "Camera file (vedette calibrate / OpenCV)")->required();
  cmd->add_option("--roster", args->roster, kRosterHelp)->required();
  cmd->add_option("--ruleset", args->ruleset, "Ruleset (default totsk)");
  cmd->add_option("--out", args->out, "Annotated video to write (.mkv: MPEG-4 in Matroska; .avi: MJPG)");
  cmd->add_option("--log", args->log, "JSONL log (default: beside --out, .jsonl)");
  cmd->add_option("--hide", args->hide, "Layers not drawn, comma-separated (bases,zoc,ranges,threats,contacts,support,tests,terrain,labels)");
  cmd->add_option("--set", args->set, "Ruleset setting KEY=VALUE (repeatable)");
  cmd->add_flag("--quiet", args->quiet, "No progress bar");
  AddStreamOptions(cmd, &args->streams);
  cmd->callback([args] {
    UseOneOpenCvThread();
    if (args->out.empty() && args->log.empty()) throw InputError("--out", 0, "nothing to write: give --out and/or --log");
    if (std::string error; !overlay::CheckLayerList(args->hide, &error)) throw InputError("--hide", 0, error);
    const std::string log_path = !args->log.empty() ? args->log : pipeline::LogPathFor(args->out);
    CheckOutputs({{args->out, "--out"}, {log_path, args->log.empty() ? "--out's log" : "--log"}},
                 {args->video, args->calib, args->roster});
    const Scene roster = calib::LoadRoster(args->roster);
    calib::CameraIntrinsics k = calib::LoadIntrinsics(args->calib);
    const auto source = pipeline::OpenVideo(args->video);
    if (k.image_size != source->size()) k = calib::ScaledTo(k, source->size());
    pipeline::PipelineOptions po;
    po.ruleset = args->ruleset;
    po.ruleset_options = MakeRulesetOptions(roster, args->set);
    pipeline::Pipeline pipeline(po, k, roster);
    pipeline::HeadlessOptions ho;
    ho.video_path = args->out;
    ho.log_path = log_path;
    ho.annotate.layers = overlay::LayerVisibility::FromHiddenList(args->hide);
    ho.progress = !args->quiet;
    StreamSinks streams(args->streams, pipeline, source->name());
    ho.extra_sinks = streams.sinks();
    const pipeline::RunSummary s = pipeline::RunHeadless(ho, *source, pipeline);
    if (s.frames == 0) throw InputError(args->video, 0, "no frame could be read");
    std::cout << pipeline::SummaryText(s);
    FailOnWriteError(s.write_error);
    if (s.frames_registered == 0) throw InputError(args->video, 0, calib::AnchorsNotSeenAdvice(roster));
  });
}

VEDETTE_COMMAND("process", SetupProcess);

}  // namespace
}  // namespace vedette::app
