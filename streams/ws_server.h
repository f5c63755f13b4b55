#pragma once
// A WebSocket server (websocketpp over standalone Asio) on a thread of its own, and an HTTP server
// on the same port for the spectator page's files. The frame loop hands it each frame's message
// with Publish, which only swaps a pointer under a lock and wakes the server's thread: a slow or
// stalled client never slows the loop. Each client is sent the newest message whenever its
// previous one has left the socket; the frames in between are dropped for that client alone
// ("drop to latest") and counted.
//
// Hostile input: client messages are limited to max_message_bytes (bigger ones close the
// connection with 1009) and otherwise ignored; a handshake must finish within
// handshake_timeout_ms; at most max_clients are connected (more are refused with 503); each kind
// of trouble is logged, the first few times and then every 100th. By default it listens on
// 127.0.0.1 only.
//
// The interface is plain C++: websocketpp 0.8 does not compile as C++20, so ws_server.cpp alone is
// built as C++17 (streams/CMakeLists.txt).
#include <cstddef>
#include <functional>
#include <memory>
#include <string>

namespace vedette::streams {

// The file of web_dir an HTTP request's resource names: a plain file name (no folders, no dot
// first, at most 64 characters of [A-Za-z0-9._-]), "index.html" for "/", or "" for anything else,
// so nothing outside web_dir can be named. Query and fragment are dropped.
std::string ServedFileName(std::string resource);

struct WsServerOptions {
  int port = 0;                        // 0: any free port (see WsServer::port())
  bool any_interface = false;          // false: 127.0.0.1 only; true: every interface (IPv4)
  std::string web_dir;                 // files served over HTTP GET ("/" is index.html); "" = none
  int max_clients = 32;                // WebSocket clients at once; more are refused
  std::size_t max_message_bytes = 4096;  // largest client message accepted, bytes
  int send_buffer_bytes = 64 * 1024;   // kernel send buffer per client: what a slow client can have in flight
                                       // (smaller: a slow client's frames are fresher, 0: the system's)
  int handshake_timeout_ms = 3000;     // a connection that has not finished its handshake by then is closed
  double heartbeat_s = 1.0;            // a heartbeat message to every client this often, s
  std::string hello;                   // the first message each client gets, from the first accept on
                                       // (SetHello replaces it; "" = none)
  std::function<std::string()> heartbeat;        // its text (called on the server's thread); null: none
  std::function<void(const std::string&)> log;   // null: "vedette serve: ..." on stderr
  bool Check(std::string* error) const;
};

struct WsServerStats {
  int clients = 0;              // connected now
  long connections = 0;         // WebSocket clients accepted so far
  long refused = 0;             // refused: max_clients reached
  long failed = 0;              // connections that failed (handshake garbage, timeout, oversized messages)
  long ignored_messages = 0;    // client messages (the stream takes no input)
  long http_requests = 0;
  long sent = 0;                // frame messages sent (all clients)
  long dropped = 0;             // frame messages a slow client skipped (drop to latest)
  long published = 0;           // Publish calls
};

class WsServer {
 public:
  // Binds and starts the server's thread; throws InputError("--serve", ...) when the port cannot
  // be bound.
  explicit WsServer(const WsServerOptions& options);
  ~WsServer();  // Shutdown()
  // Sends the last message to every client that has not had it yet (up to 1 s), closes the
  // connections and stops the thread. Idempotent; stats() still answers after it.
  void Shutdown();
  WsServer(const WsServer&) = delete;
  WsServer& operator=(const WsServer&) = delete;

  int port() const;                    // the port listened on
  void SetHello(std::string message);  // the first message each new client gets (the scene)
  void Publish(std::string message);   // the newest frame; returns at once
  WsServerStats stats() const;
  // Blocks until `n` clients are connected or `timeout_s` has passed; true when they are.
  bool WaitForClients(int n, double timeout_s) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace vedette::streams
