// vedette demo [--headless] [--frames N] [--out DIR] [--script FILE]
// A scripted battle of 20 units (assets/demo/battle.clip.yaml), rendered by the synthetic camera
// and run through the whole pipeline: the live window when there is a display, else demo.mkv and
// demo.jsonl.
#include <filesystem>
#include <iostream>

#include "app/command.h"
#include "app/output_paths.h"
#include "app/scene_args.h"
#include "pipeline/event_log_reader.h"
#include "pipeline/frame_source.h"
#include "pipeline/headless.h"
#include "ui/live_window.h"
#include "rules/input_error.h"
#include "rules/ruleset.h"
#include "synth/clip_script.h"
#include "rules/path_checks.h"

namespace vedette::app {
namespace {

struct DemoArgs {
  std::string script, out = ".", ruleset = "totsk", screenshot;
  std::vector<std::string> set;
  int frames = -1;
  bool headless = false;
};

// Whether `log` is the log of an earlier run of this demo: a Vedette event log (ReadEventLogFile's
// checks; a run killed part-way still counts) whose header names the same clip. A new run replaces
// such a run's video and log, so that the documented first command (`scripts/setup.sh demo`, which
// writes them in the project's folder) works every time; a file of the same name that is anything
// else is kept unless --force.
bool EarlierDemoLog(const std::string& log, const std::string& source_name) {
  if (!PathExists(log)) return false;
  try {
    const pipeline::EventLogSummary s = pipeline::ReadEventLogFile(log);
    return s.header.contains("source") && s.header["source"] == source_name;
  } catch (const InputError&) {
    return false;
  }
}

void SetupDemo(CLI::App& root) {
  auto args = std::make_shared<DemoArgs>();
  CLI::App* cmd = root.add_subcommand(
      "demo", "A scripted battle (20 units, a hand, a wheel, a flank charge, a rout) through the whole pipeline:\n"
              "the live window with a display, else demo.mkv + demo.jsonl");
  cmd->add_option("--script", args->script, "Clip script (default: assets/demo/battle.clip.yaml)");
  cmd->add_option("--frames", args->frames, "Only the first N frames")->check(CLI::Range(1, 100000000));
  cmd->add_option("--out", args->out, "Folder for demo.mkv and demo.jsonl (default: the current folder)");
  cmd->add_option("--ruleset", args->ruleset, "Ruleset (default totsk)");
  cmd->add_option("--set", args->set, "Ruleset setting KEY=VALUE (repeatable)");
  cmd->add_option("--screenshot", args->screenshot, "Live window: write a PNG of it after the last frame");
  cmd->add_flag("--headless", args->headless, "No window even with a display: write the video and log");
  cmd->callback([args] {
    // Unlike live and process, the demo keeps OpenCV's pool: its frames come from the synthetic
    // camera, whose renderer spreads each frame over it (240 frames in 7.4 s on two cores, 9.0 s on one).
    const std::string script_path = args->script.empty() ? AssetsDir() + "/demo/battle.clip.yaml" : args->script;
    if (!PathExists(script_path)) throw InputError(script_path, 0, "demo script not found");
    std::cerr << "demo: " << script_path << "\n";
    synth::ClipScript script = synth::LoadClipScript(script_path);
    auto renderer = std::make_shared<synth::ClipRenderer>(script);
    pipeline::ClipSource source(renderer, args->frames);
    pipeline::PipelineOptions po;
    po.ruleset = args->ruleset;
    po.ruleset_options = MakeRulesetOptions(renderer->script().roster, args->set);
    pipeline::Pipeline pipeline(po, renderer->intrinsics(), renderer->script().roster);
    std::string why;
    if (!args->headless && ui::DisplayAvailable(&why)) {
      ui::LiveOptions lo;
      lo.title = "Vedette demo battle";
      lo.max_frames = args->frames;
      lo.screenshot_path = args->screenshot;
      CheckOutputs({{args->screenshot, "--screenshot"}}, {script_path});
      const ui::LiveResult r = ui::RunLive(lo, source, pipeline);
      std::cout << pipeline::SummaryText(r.summary);
      return;
    }
    if (!args->headless) std::cerr << "demo: " << why << ": writing a video instead of opening the window\n";
    std::filesystem::create_directories(args->out);
    pipeline::HeadlessOptions ho;
    ho.video_path = (std::filesystem::path(args->out) / "demo.mkv").string();
    ho.log_path = (std::filesystem::path(args->out) / "demo.jsonl").string();
    const bool earlier = EarlierDemoLog(ho.log_path, source.name());
    CheckOutputs({{ho.video_path, "--out (demo.mkv)", earlier}, {ho.log_path, "--out (demo.jsonl)", earlier}}, {script_path});
    if (earlier) std::cerr << "demo: replacing the last demo's " << ho.video_path << " and " << ho.log_path << "\n";
    const pipeline::RunSummary s = pipeline::RunHeadless(ho, source, pipeline);
    std::cout << pipeline::SummaryText(s);
    FailOnWriteError(s.write_error);
    std::cout << "demo written to " << std::filesystem::absolute(ho.video_path).string() << " and "
              << std::filesystem::absolute(ho.log_path).string() << "\n";
  });
}

VEDETTE_COMMAND("demo", SetupDemo);

}  // namespace
}  // namespace vedette::app
