#include "streams/stream_sink.h"

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <thread>

#include "streams/stream_message.h"

namespace vedette::streams {

constexpr size_t kRecentEvents = 50;

std::string WebDir() {
  namespace fs = std::filesystem;
  if (const char* env = std::getenv("VEDETTE_WEB"); env && *env) return env;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const fs::path installed = exe.parent_path().parent_path() / "share" / "vedette" / "web";
    if (fs::exists(installed / "index.html")) return installed.string();
  }
  return VEDETTE_WEB_SOURCE_DIR;
}

StreamSink::StreamSink(const StreamOptions& options, const pipeline::Pipeline& pipeline, const std::string& source_name)
    : options_(options) {
  WsServerOptions wo;
  wo.port = options.port;
  wo.any_interface = options.any_interface;
  wo.web_dir = options.web_dir.empty() ? WebDir() : options.web_dir;
  // The heartbeat runs on the server's thread: it reads the frame count through an atomic copy.
  auto frames = std::make_shared<std::atomic<long>>(0);
  frames_counter_ = frames;
  wo.heartbeat = [frames, this] {
    const double now = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
    return HeartbeatMessage(frames->load(), clients_.load(), now).dump();
  };
  hello_ = HelloMessage(pipeline, source_name);
  wo.hello = hello_.dump();
  server_ = std::make_unique<WsServer>(wo);
  if (!options.quiet)
    std::cerr << "vedette: streaming on ws://" << (options.any_interface ? "0.0.0.0" : "127.0.0.1") << ":" << server_->port()
              << "/ ; spectator page http://" << (options.any_interface ? "<this host>" : "127.0.0.1") << ":"
              << server_->port() << "/\n";
  // Before the first frame, so the run's clock (and its frames per second) starts after it.
  if (options.wait_for_client_s > 0) server_->WaitForClients(1, options.wait_for_client_s);
}

StreamSink::~StreamSink() {
  if (options_.linger_s > 0) std::this_thread::sleep_for(std::chrono::duration<double>(options_.linger_s));
  server_->Shutdown();  // first: its heartbeat reads the counters below; the last frame goes out before it stops
  if (!options_.quiet) Report();
}

void StreamSink::Report() const {
  const WsServerStats s = server_->stats();
  std::cerr << "vedette: stream: " << s.connections << " client(s) served, " << s.sent << " frame messages sent, "
            << s.dropped << " dropped for slow clients, " << s.refused << " refused, " << s.failed << " failed, "
            << s.ignored_messages << " client messages ignored, " << s.http_requests << " HTTP requests\n";
}

void StreamSink::OnFrame(pipeline::FrameOutput& out) {
  server_->Publish(FrameMessage(out.frame, out.lines, between_).dump());
  // A spectator who joins late gets the last events with the hello (the event log so far).
  bool logged = false;
  for (const auto* lines : {&between_, &out.lines})
    for (const nlohmann::json& line : *lines) {
      if (!line.contains("event")) continue;
      recent_.push_back(line);
      if (recent_.size() > kRecentEvents) recent_.pop_front();
      logged = true;
    }
  if (logged) {
    hello_["recent_events"] = recent_;
    server_->SetHello(hello_.dump());
  }
  between_.clear();
  frames_counter_->store(++frames_);
  clients_.store(server_->stats().clients);
}

void StreamSink::OnLine(const nlohmann::json& line) { between_.push_back(line); }

}  // namespace vedette::streams
