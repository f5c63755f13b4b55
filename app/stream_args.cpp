#include "app/stream_args.h"

#include "rules/input_error.h"
#include "streams/tuio.h"

namespace vedette::app {

void AddStreamOptions(CLI::App* cmd, StreamArgs* args) {
  cmd->add_option("--tuio", args->tuio, "Send TUIO 2.0 (OSC over UDP) to HOST:PORT, e.g. 127.0.0.1:3333");
}

StreamSinks::StreamSinks(const StreamArgs& args, const pipeline::Pipeline& pipeline, const std::string& source_name) {
  if (!args.tuio.empty()) {
    streams::TuioOptions to;
    to.target = args.tuio;
    owned_.push_back(std::make_unique<streams::TuioSink>(to, pipeline.roster()));
  }
}

StreamSinks::~StreamSinks() = default;

std::vector<pipeline::FrameSink*> StreamSinks::sinks() const {
  std::vector<pipeline::FrameSink*> s;
  for (const auto& p : owned_) s.push_back(p.get());
  return s;
}

}  // namespace vedette::app
