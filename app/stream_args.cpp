#include "app/stream_args.h"

#include "rules/input_error.h"
#include "streams/stream_sink.h"
#include "streams/tuio.h"

namespace vedette::app {

void AddStreamOptions(CLI::App* cmd, StreamArgs* args) {
  cmd->add_option("--tuio", args->tuio, "Send TUIO 2.0 (OSC over UDP) to HOST:PORT, e.g. 127.0.0.1:3333");
  cmd->add_option("--serve", args->serve,
                  "Stream every frame as JSON over WebSocket on PORT and serve the spectator page there (127.0.0.1 only; 0: any free port)")
      ->check(CLI::Range(0, 65535));
  cmd->add_flag("--serve-any", args->serve_any, "With --serve: listen on every network interface, not only this machine");
  cmd->add_option("--serve-wait", args->serve_wait_s, "With --serve: wait up to this many seconds for a first client before the first frame")
      ->check(CLI::Range(0.0, 3600.0));
  cmd->add_option("--serve-linger", args->serve_linger_s, "With --serve: after the last frame, go on serving it for this many seconds")
      ->check(CLI::Range(0.0, 3600.0));
}

StreamSinks::StreamSinks(const StreamArgs& args, const pipeline::Pipeline& pipeline, const std::string& source_name) {
  if (!args.tuio.empty()) {
    streams::TuioOptions to;
    to.target = args.tuio;
    owned_.push_back(std::make_unique<streams::TuioSink>(to, pipeline.roster()));
  }
  if (args.serve_any && args.serve < 0) throw InputError("--serve-any", 0, "give --serve PORT too");
  if (args.serve >= 0) {
    streams::StreamOptions so;
    so.port = args.serve;
    so.any_interface = args.serve_any;
    so.wait_for_client_s = args.serve_wait_s;
    so.linger_s = args.serve_linger_s;
    owned_.push_back(std::make_unique<streams::StreamSink>(so, pipeline, source_name));
  }
}

StreamSinks::~StreamSinks() = default;

std::vector<pipeline::FrameSink*> StreamSinks::sinks() const {
  std::vector<pipeline::FrameSink*> s;
  for (const auto& p : owned_) s.push_back(p.get());
  return s;
}

}  // namespace vedette::app
