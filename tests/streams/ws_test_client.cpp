// Built as C++17: websocketpp 0.8 (Debian 12) does not compile as C++20.
#include "tests/streams/ws_test_client.h"

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include <websocketpp/client.hpp>
#include <websocketpp/config/asio_no_tls_client.hpp>

namespace vedette::testing {

using Client = websocketpp::client<websocketpp::config::asio_client>;

struct WsTestClient::Impl {
  Client client;
  websocketpp::connection_hdl hdl;
  std::thread thread;
  mutable std::mutex mu;
  mutable std::condition_variable cv;
  std::vector<std::string> messages;
  bool open = false, done = false;
  double delay_s = 0;

  bool TryConnect(const std::string& url, double timeout_s) {
    std::unique_lock<std::mutex> lock(mu);
    open = done = false;
    lock.unlock();
    websocketpp::lib::error_code ec;
    Client::connection_ptr con = client.get_connection(url, ec);
    if (ec) return false;
    hdl = con->get_handle();
    client.connect(con);
    lock.lock();
    cv.wait_for(lock, std::chrono::duration<double>(timeout_s), [&] { return open || done; });
    return open;
  }
};

WsTestClient::WsTestClient(int port, double connect_timeout_s, double delay_per_message_s, int receive_buffer_bytes)
    : impl_(std::make_unique<Impl>()) {
  Start("ws://127.0.0.1:" + std::to_string(port) + "/", connect_timeout_s, delay_per_message_s, receive_buffer_bytes);
}

WsTestClient::WsTestClient(const std::string& url, double connect_timeout_s) : impl_(std::make_unique<Impl>()) {
  Start(url, connect_timeout_s, 0, 0);
}

void WsTestClient::Start(const std::string& url, double connect_timeout_s, double delay_per_message_s,
                         int receive_buffer_bytes) {
  Impl& m = *impl_;
  m.client.set_tcp_post_init_handler([&m, receive_buffer_bytes](websocketpp::connection_hdl hdl) {
    asio::error_code ec;
    if (receive_buffer_bytes > 0)
      m.client.get_con_from_hdl(hdl)->get_raw_socket().set_option(asio::socket_base::receive_buffer_size(receive_buffer_bytes), ec);
  });
  m.delay_s = delay_per_message_s;
  m.client.clear_access_channels(websocketpp::log::alevel::all);
  m.client.clear_error_channels(websocketpp::log::elevel::all);
  m.client.init_asio();
  m.client.start_perpetual();
  m.client.set_max_message_size(64 << 20);
  m.client.set_open_handler([&m](websocketpp::connection_hdl) {
    std::lock_guard<std::mutex> lock(m.mu);
    m.open = true;
    m.cv.notify_all();
  });
  auto finish = [&m](websocketpp::connection_hdl) {
    std::lock_guard<std::mutex> lock(m.mu);
    m.done = true;
    m.cv.notify_all();
  };
  m.client.set_close_handler(finish);
  m.client.set_fail_handler(finish);
  m.client.set_message_handler([&m](websocketpp::connection_hdl, Client::message_ptr msg) {
    if (m.delay_s > 0) std::this_thread::sleep_for(std::chrono::duration<double>(m.delay_s));
    std::lock_guard<std::mutex> lock(m.mu);
    m.messages.push_back(msg->get_payload());
    m.cv.notify_all();
  });
  m.thread = std::thread([&m] { m.client.run(); });
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(connect_timeout_s);
  while (std::chrono::steady_clock::now() < until && !m.TryConnect(url, 0.5))
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
}

WsTestClient::~WsTestClient() {
  Impl& m = *impl_;
  m.delay_s = 0;
  m.client.stop_perpetual();
  websocketpp::lib::error_code ec;
  m.client.close(m.hdl, websocketpp::close::status::normal, "", ec);
  m.client.stop();
  if (m.thread.joinable()) m.thread.join();
}

bool WsTestClient::connected() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  return impl_->open;
}

bool WsTestClient::closed() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  return impl_->done;
}

std::vector<std::string> WsTestClient::messages() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  return impl_->messages;
}

void WsTestClient::Send(const std::string& text) {
  websocketpp::lib::error_code ec;
  impl_->client.send(impl_->hdl, text, websocketpp::frame::opcode::text, ec);
}

bool WsTestClient::WaitClosed(double timeout_s) const {
  std::unique_lock<std::mutex> lock(impl_->mu);
  return impl_->cv.wait_for(lock, std::chrono::duration<double>(timeout_s), [&] { return impl_->done; });
}

bool WsTestClient::WaitForMessages(size_t n, double timeout_s) const {
  std::unique_lock<std::mutex> lock(impl_->mu);
  return impl_->cv.wait_for(lock, std::chrono::duration<double>(timeout_s), [&] { return impl_->messages.size() >= n; });
}

}  // namespace vedette::testing
