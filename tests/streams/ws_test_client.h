#pragma once
// A WebSocket client for the stream tests (websocketpp, on a thread of its own). Built as C++17
// beside the tests (websocketpp 0.8 does not compile as C++20), hence this plain interface.
#include <memory>
#include <string>
#include <vector>

namespace vedette::testing {

class WsTestClient {
 public:
  // Connects to ws://127.0.0.1:PORT/, retrying until connect_timeout_s. delay_per_message_s: the
  // client sleeps this long in each message's handler (a slow client: the server's writes back up).
  // receive_buffer_bytes: the socket's receive buffer (0: the system's; small: a slow link).
  WsTestClient(int port, double connect_timeout_s, double delay_per_message_s = 0, int receive_buffer_bytes = 0);
  // Any ws:// address (Chromium's DevTools endpoint, for one).
  WsTestClient(const std::string& url, double connect_timeout_s);
  ~WsTestClient();
  bool connected() const;
  bool closed() const;                    // the server closed the connection (or it failed)
  std::vector<std::string> messages() const;
  void Send(const std::string& text);
  bool WaitClosed(double timeout_s) const;
  bool WaitForMessages(size_t n, double timeout_s) const;

 private:
  void Start(const std::string& url, double connect_timeout_s, double delay_per_message_s, int receive_buffer_bytes);
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace vedette::testing
