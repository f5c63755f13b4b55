#pragma once
// `--serve PORT`: the live JSON stream (streams/stream_message.h) over WebSocket and the spectator
// page (streams/web/) over HTTP on the same port, as a FrameSink. The frame loop's cost is the
// frame's message made into text and handed over: the server's own thread does the sending
// (streams/ws_server.h).
#include <atomic>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "pipeline/frame_loop.h"
#include "pipeline/pipeline.h"
#include "streams/ws_server.h"

namespace vedette::streams {

struct StreamOptions {
  int port = 8765;            // 0: any free port
  bool any_interface = false; // listen beyond 127.0.0.1 (--serve-any)
  double wait_for_client_s = 0;  // before the first frame, wait this long for a first client (tests, recordings)
  double linger_s = 0;        // after the last frame, go on serving it this long (late spectators see the end)
  std::string web_dir;        // "" = WebDir()
  bool quiet = false;         // no "serving on" line on stderr
};

// Where the spectator page's files are: $VEDETTE_WEB, else share/vedette/web beside the installed
// executable, else the source tree's streams/web.
std::string WebDir();

class StreamSink : public pipeline::FrameSink {
 public:
  // Starts the server; throws InputError when the port cannot be bound.
  StreamSink(const StreamOptions& options, const pipeline::Pipeline& pipeline, const std::string& source_name);
  ~StreamSink() override;
  void OnFrame(pipeline::FrameOutput& out) override;
  void OnLine(const nlohmann::json& line) override;
  int port() const { return server_->port(); }
  WsServerStats stats() const { return server_->stats(); }
  // "vedette: stream: N client(s) served, ..., D dropped for slow clients, ..." on stderr.
  void Report() const;

 private:
  StreamOptions options_;
  std::unique_ptr<WsServer> server_;
  std::vector<nlohmann::json> between_;
  nlohmann::json hello_;                  // the hello message; its recent_events follow the run
  std::deque<nlohmann::json> recent_;     // the last kRecentEvents event and declare lines
  long frames_ = 0;
  std::shared_ptr<std::atomic<long>> frames_counter_;  // frames_, for the heartbeat on the server's thread
  std::atomic<int> clients_{0};
};

}  // namespace vedette::streams
