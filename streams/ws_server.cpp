// Built as C++17: websocketpp 0.8 (Debian 12) does not compile as C++20.
#include "streams/ws_server.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <future>
#include <iostream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

#include <websocketpp/config/asio_no_tls.hpp>
#include <websocketpp/server.hpp>

#include "rules/input_error.h"

namespace vedette::streams {
namespace {

using Server = websocketpp::server<websocketpp::config::asio>;
using Hdl = websocketpp::connection_hdl;

// What a file served to the page is, by its extension.
std::string ContentType(const std::string& name) {
  const std::string ext = std::filesystem::path(name).extension().string();
  if (ext == ".html") return "text/html; charset=utf-8";
  if (ext == ".js") return "text/javascript; charset=utf-8";
  if (ext == ".css") return "text/css; charset=utf-8";
  if (ext == ".json") return "application/json";
  if (ext == ".png") return "image/png";
  if (ext == ".svg") return "image/svg+xml";
  return "application/octet-stream";
}

}  // namespace

std::string ServedFileName(std::string resource) {
  resource = resource.substr(0, resource.find_first_of("?#"));
  if (resource == "/" || resource.empty()) return "index.html";
  if (resource[0] != '/') return "";
  const std::string name = resource.substr(1);
  if (name.empty() || name.size() > 64 || name[0] == '.') return "";
  for (char c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '-' && c != '_') return "";
  return name;
}


bool WsServerOptions::Check(std::string* error) const {
  if (port < 0 || port > 65535) *error = "port must be 0..65535";
  else if (max_clients < 1) *error = "max_clients must be at least 1";
  else if (max_message_bytes < 16) *error = "max_message_bytes must be at least 16";
  else if (handshake_timeout_ms < 100) *error = "handshake_timeout_ms must be at least 100";
  else if (!(heartbeat_s > 0)) *error = "heartbeat_s must be positive";
  else return true;
  return false;
}

struct WsServer::Impl {
  struct Client {
    long sent_seq = 0;  // the newest message this client has been sent
  };

  WsServerOptions o;
  Server server;
  std::thread thread;
  int port = 0;
  // Server thread only.
  std::map<Hdl, Client, std::owner_less<Hdl>> clients;
  std::set<Hdl, std::owner_less<Hdl>> admitted;  // handshakes accepted, open or about to be (the cap counts these)
  std::map<std::string, long> log_counts;
  // Shared with the frame loop.
  mutable std::mutex mu;
  mutable std::condition_variable changed;
  std::shared_ptr<const std::string> latest, hello;
  long seq = 0;
  std::atomic<bool> flush_posted{false};
  std::atomic<bool> stopping{false};  // closing every connection: their failures are ours, not news
  WsServerStats stats;  // under mu

  void Log(const std::string& kind, const std::string& text) {
    const long n = ++log_counts[kind];
    if (n > 5 && n % 100 != 0) return;
    const std::string line = text + (n > 5 ? " (" + std::to_string(n) + " so far)" : "");
    if (o.log) o.log(line);
    else std::cerr << "vedette serve: " << line << "\n";
  }

  template <typename F>
  void Count(F f) {
    std::lock_guard<std::mutex> lock(mu);
    f(stats);
    changed.notify_all();
  }

  // Sends the newest message to each client whose previous one has left its socket.
  void Flush() {
    flush_posted = false;
    std::shared_ptr<const std::string> msg;
    long now = 0;
    {
      std::lock_guard<std::mutex> lock(mu);
      msg = latest;
      now = seq;
    }
    if (!msg) return;
    long sent = 0, dropped = 0;
    for (auto& [hdl, c] : clients) {
      if (c.sent_seq >= now) continue;
      websocketpp::lib::error_code ec;
      Server::connection_ptr con = server.get_con_from_hdl(hdl, ec);
      if (ec || con->get_state() != websocketpp::session::state::open || con->get_buffered_amount() > 0) continue;
      con->send(*msg, websocketpp::frame::opcode::text);
      dropped += now - c.sent_seq - 1;
      c.sent_seq = now;
      ++sent;
    }
    if (sent) Count([&](WsServerStats& s) { s.sent += sent, s.dropped += dropped; });
  }

  // Every 10 ms: a slow client whose socket has drained gets the newest frame.
  void ScheduleCatchUp() {
    server.set_timer(10, [this](const websocketpp::lib::error_code& ec) {
      if (ec) return;
      Flush();
      ScheduleCatchUp();
    });
  }

  void ScheduleHeartbeat() {
    server.set_timer(static_cast<long>(o.heartbeat_s * 1000), [this](const websocketpp::lib::error_code& ec) {
      if (ec) return;
      if (o.heartbeat) {
        const std::string text = o.heartbeat();
        for (auto& [hdl, c] : clients) {
          websocketpp::lib::error_code e;
          Server::connection_ptr con = server.get_con_from_hdl(hdl, e);
          // A client too slow to take its frames gets no heartbeat piled on top of them either.
          if (!e && con->get_buffered_amount() < (1u << 20)) con->send(text, websocketpp::frame::opcode::text);
        }
      }
      ScheduleHeartbeat();
    });
  }

  bool OnValidate(Hdl hdl) {
    if (static_cast<int>(admitted.size()) < o.max_clients) {
      admitted.insert(hdl);
      return true;
    }
    Count([](WsServerStats& s) { ++s.refused; });
    Log("refused", "refused a client: " + std::to_string(o.max_clients) + " already connected");
    server.get_con_from_hdl(hdl)->set_status(websocketpp::http::status_code::service_unavailable);
    return false;
  }

  void OnOpen(Hdl hdl) {
    Client& c = clients[hdl];
    std::shared_ptr<const std::string> h;
    {
      std::lock_guard<std::mutex> lock(mu);
      // A client starts from the newest frame: the ones made before it came were not dropped for it
      // (the count of frames dropped for slow clients is the frames a client fell behind by).
      c.sent_seq = std::max(0L, seq - 1);
      h = hello;
      ++stats.connections;
      stats.clients = static_cast<int>(clients.size());
      changed.notify_all();
    }
    websocketpp::lib::error_code ec;
    if (h) server.send(hdl, *h, websocketpp::frame::opcode::text, ec);
    Flush();
  }

  // The frames a leaving client never got were dropped for it.
  void Forget(Hdl hdl) {
    admitted.erase(hdl);
    const auto it = clients.find(hdl);
    if (it == clients.end()) return;
    const long sent_seq = it->second.sent_seq;
    clients.erase(it);
    Count([&](WsServerStats& s) { s.dropped += std::max(0L, seq - sent_seq); });
  }

  void OnClose(Hdl hdl) {
    Forget(hdl);
    websocketpp::lib::error_code ec;
    Server::connection_ptr con = server.get_con_from_hdl(hdl, ec);
    if (!ec && con->get_local_close_code() == websocketpp::close::status::message_too_big) {
      Count([](WsServerStats& s) { ++s.failed; });
      Log("too_big", "closed a client that sent a message over " + std::to_string(o.max_message_bytes) + " bytes");
    }
    Count([&](WsServerStats& s) { s.clients = static_cast<int>(clients.size()); });
  }

  void OnFail(Hdl hdl) {
    Forget(hdl);
    websocketpp::lib::error_code ec;
    Server::connection_ptr con = server.get_con_from_hdl(hdl, ec);
    const std::string why = ec ? ec.message() : con->get_ec().message();
    if (stopping) return;
    Count([&](WsServerStats& s) { ++s.failed, s.clients = static_cast<int>(clients.size()); });
    Log("failed", "a connection failed: " + why);
  }

  void OnMessage(Hdl, Server::message_ptr msg) {
    Count([](WsServerStats& s) { ++s.ignored_messages; });
    Log("message", "ignored a client message of " + std::to_string(msg->get_payload().size()) +
                       " bytes: the stream takes no input");
  }

  void OnHttp(Hdl hdl) {
    Count([](WsServerStats& s) { ++s.http_requests; });
    Server::connection_ptr con = server.get_con_from_hdl(hdl);
    const std::string name = ServedFileName(con->get_resource());
    const std::filesystem::path file = std::filesystem::path(o.web_dir) / name;
    std::error_code fec;
    if (con->get_request().get_method() != "GET" || o.web_dir.empty() || name.empty() ||
        !std::filesystem::is_regular_file(file, fec)) {
      con->set_status(websocketpp::http::status_code::not_found);
      con->set_body("not found\n");
      Log("http404", "HTTP " + con->get_request().get_method() + " of an unknown resource answered 404");
      return;
    }
    std::ifstream in(file, std::ios::binary);
    std::stringstream body;
    body << in.rdbuf();
    con->set_status(websocketpp::http::status_code::ok);
    con->append_header("Content-Type", ContentType(name));
    con->append_header("Cache-Control", "no-store");
    con->set_body(body.str());
  }

  void Start() {
    server.clear_access_channels(websocketpp::log::alevel::all);
    server.clear_error_channels(websocketpp::log::elevel::all);
    server.init_asio();
    server.set_reuse_addr(true);
    server.set_listen_backlog(128);
    server.set_max_message_size(o.max_message_bytes);
    server.set_max_http_body_size(o.max_message_bytes);
    server.set_open_handshake_timeout(o.handshake_timeout_ms);
    // After accept (before it the socket is not open yet and the options would not take).
    server.set_tcp_post_init_handler([this](Hdl hdl) {
      asio::error_code ec;
      asio::ip::tcp::socket& socket = server.get_con_from_hdl(hdl)->get_raw_socket();
      if (o.send_buffer_bytes > 0) socket.set_option(asio::socket_base::send_buffer_size(o.send_buffer_bytes), ec);
      socket.set_option(asio::ip::tcp::no_delay(true), ec);
    });
    server.set_validate_handler([this](Hdl h) { return OnValidate(h); });
    server.set_open_handler([this](Hdl h) { OnOpen(h); });
    server.set_close_handler([this](Hdl h) { OnClose(h); });
    server.set_fail_handler([this](Hdl h) { OnFail(h); });
    server.set_message_handler([this](Hdl h, Server::message_ptr m) { OnMessage(h, m); });
    server.set_http_handler([this](Hdl h) { OnHttp(h); });
    const auto address = o.any_interface ? asio::ip::address(asio::ip::address_v4::any())
                                         : asio::ip::address(asio::ip::address_v4::loopback());
    websocketpp::lib::error_code ec;
    server.listen(asio::ip::tcp::endpoint(address, static_cast<unsigned short>(o.port)), ec);
    if (ec) throw InputError("--serve", 0, "cannot listen on port " + std::to_string(o.port) + ": " + ec.message());
    server.start_accept(ec);
    if (ec) throw InputError("--serve", 0, "cannot accept connections: " + ec.message());
    port = server.get_local_endpoint(ec).port();
    ScheduleCatchUp();
    ScheduleHeartbeat();
    thread = std::thread([this] { Run(); });
  }

  void Run() {
    for (;;) {
      try {
        server.run();
        return;
      } catch (const std::exception& e) {
        Log("exception", std::string("a client's connection threw: ") + e.what());
      }
    }
  }

  bool AllCaughtUp() {
    std::promise<bool> done;
    auto result = done.get_future();
    asio::post(server.get_io_service(), [&] {
      bool ok = true;
      long now;
      {
        std::lock_guard<std::mutex> lock(mu);
        now = seq;
      }
      for (auto& [hdl, c] : clients) {
        websocketpp::lib::error_code ec;
        Server::connection_ptr con = server.get_con_from_hdl(hdl, ec);
        if (!ec && (c.sent_seq < now || con->get_buffered_amount() > 0)) ok = false;
      }
      done.set_value(ok);
    });
    return result.get();
  }

  void Stop() {
    if (!thread.joinable()) return;
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(1);
    while (std::chrono::steady_clock::now() < until && !AllCaughtUp())
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    stopping = true;
    asio::post(server.get_io_service(), [this] {
      websocketpp::lib::error_code ec;
      server.stop_listening(ec);
      for (auto& [hdl, c] : clients) server.close(hdl, websocketpp::close::status::going_away, "vedette stopped", ec);
    });
    std::unique_lock<std::mutex> lock(mu);
    changed.wait_for(lock, std::chrono::milliseconds(300), [this] { return stats.clients == 0; });
    lock.unlock();
    server.stop();
    if (thread.joinable()) thread.join();
    while (!clients.empty()) Forget(clients.begin()->first);  // the thread is gone: this one owns them now
  }
};

WsServer::WsServer(const WsServerOptions& options) : impl_(std::make_unique<Impl>()) {
  std::string error;
  if (!options.Check(&error)) throw InputError("--serve", 0, error);
  impl_->o = options;
  // Before the first accept: a client quicker than the caller's SetHello would get frames without it.
  if (!options.hello.empty()) impl_->hello = std::make_shared<const std::string>(options.hello);
  impl_->Start();
}

WsServer::~WsServer() { impl_->Stop(); }

void WsServer::Shutdown() { impl_->Stop(); }

int WsServer::port() const { return impl_->port; }

void WsServer::SetHello(std::string message) {
  std::lock_guard<std::mutex> lock(impl_->mu);
  impl_->hello = std::make_shared<const std::string>(std::move(message));
}

void WsServer::Publish(std::string message) {
  {
    std::lock_guard<std::mutex> lock(impl_->mu);
    impl_->latest = std::make_shared<const std::string>(std::move(message));
    ++impl_->seq;
    ++impl_->stats.published;
  }
  if (!impl_->flush_posted.exchange(true)) asio::post(impl_->server.get_io_service(), [impl = impl_.get()] { impl->Flush(); });
}

WsServerStats WsServer::stats() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  return impl_->stats;
}

bool WsServer::WaitForClients(int n, double timeout_s) const {
  std::unique_lock<std::mutex> lock(impl_->mu);
  return impl_->changed.wait_for(lock, std::chrono::duration<double>(timeout_s),
                                 [&] { return impl_->stats.clients >= n; });
}

}  // namespace vedette::streams
