#pragma once
// The network outputs every frame-by-frame command offers (`live`, `process`, `track`):
//   --tuio HOST:PORT   TUIO 2.0 over OSC/UDP (streams/tuio.h)
//   --serve PORT       the JSON stream over WebSocket and the spectator page (streams/stream_sink.h)
//   --serve-any        ... listening on every interface instead of loopback only
//   --serve-wait S     wait up to S seconds for a first client before the first frame
//   --serve-linger S   after the last frame, go on serving it for S seconds
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "pipeline/frame_loop.h"
#include "pipeline/pipeline.h"

namespace vedette::app {

struct StreamArgs {
  std::string tuio;        // HOST:PORT; "" = no TUIO
  int serve = -1;          // WebSocket + HTTP port; -1 = no server, 0 = any free port (printed)
  bool serve_any = false;  // listen beyond loopback
  double serve_wait_s = 0; // wait this long for a first client before the first frame
  double serve_linger_s = 0;  // after the last frame, go on serving it this long
};

void AddStreamOptions(CLI::App* cmd, StreamArgs* args);

// The sinks the arguments ask for, alive as long as this object. Opening them may throw InputError
// (a bad HOST:PORT, a port in use).
class StreamSinks {
 public:
  StreamSinks(const StreamArgs& args, const pipeline::Pipeline& pipeline, const std::string& source_name);
  ~StreamSinks();
  std::vector<pipeline::FrameSink*> sinks() const;

 private:
  std::vector<std::unique_ptr<pipeline::FrameSink>> owned_;
};

}  // namespace vedette::app
