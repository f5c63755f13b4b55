#pragma once
// Debian's Chromium, headless, driven over its DevTools protocol (a WebSocket): open a page, wait
// until a JavaScript expression holds, take a screenshot. `chromium --screenshot` cannot wait for
// a page that draws what a stream sends it, hence the protocol.
#include <arpa/inet.h>
#include <signal.h>
#include <sys/time.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>
#include <opencv2/imgcodecs.hpp>

#include "tests/app/run_command.h"
#include "tests/streams/ws_test_client.h"

namespace vedette::testing {

inline constexpr const char* kChromium = "/usr/bin/chromium";

inline std::string Base64Decode(const std::string& in) {
  static const std::string kAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  unsigned value = 0;
  int bits = 0;
  for (char c : in) {
    const size_t v = kAlphabet.find(c);
    if (v == std::string::npos) continue;  // '=' and line breaks
    value = value << 6 | static_cast<unsigned>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>((value >> bits) & 0xFF));
    }
  }
  return out;
}

// The body of an HTTP GET to 127.0.0.1:port ("" when nothing answers).
inline std::string HttpBody(int port, const std::string& path) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<uint16_t>(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  std::string out;
  timeval timeout{2, 0};  // a server that keeps the connection open does not hold the test
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0) {
    const std::string req = "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(port) + "\r\nConnection: close\r\n\r\n";
    ::send(fd, req.data(), req.size(), MSG_NOSIGNAL);
    char buf[8192];
    for (ssize_t n; (n = ::recv(fd, buf, sizeof buf, 0)) > 0;) {
      out.append(buf, static_cast<size_t>(n));
      const size_t head = out.find("\r\n\r\n"), length = out.find("Content-Length:");
      if (head != std::string::npos && length != std::string::npos && length < head &&
          out.size() >= head + 4 + std::stoul(out.substr(length + 15)))
        break;
    }
  }
  ::close(fd);
  const size_t body = out.find("\r\n\r\n");
  return body == std::string::npos ? "" : out.substr(body + 4);
}

class HeadlessChromium {
 public:
  // Opens `url` in a window of width x height px; ok() says whether the DevTools connection is up.
  HeadlessChromium(const std::string& url, int width, int height) {
    const std::string cmd = "echo $$ > " + (profile_ / "pid") + "; exec " + kChromium +
                            " --headless --no-sandbox --disable-gpu --disable-quic --no-first-run"
                            " --disable-background-networking --disable-component-update --disable-sync"
                            " --hide-scrollbars --disable-dev-shm-usage --force-device-scale-factor=1 --remote-debugging-port=0"
                            " --remote-allow-origins=* --user-data-dir=" + profile_.path().string() +
                            " --window-size=" + std::to_string(width) + "," + std::to_string(height) + " '" + url + "' >/dev/null 2>&1";
    run_ = std::async(std::launch::async, [cmd] { return RunShell(cmd); });
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    int port = 0;
    while (port == 0 && std::chrono::steady_clock::now() < until) {
      std::ifstream in(profile_.path() / "DevToolsActivePort");
      if (!(in >> port)) port = 0;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    std::string ws;
    while (port && ws.empty() && std::chrono::steady_clock::now() < until) {
      const std::string body = HttpBody(port, "/json/list");
      const auto list = nlohmann::json::parse(body, nullptr, false);
      if (list.is_array())
        for (const auto& t : list)
          if (t.value("type", "") == "page") ws = t.value("webSocketDebuggerUrl", "");
      if (ws.empty()) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    devtools_url_ = "port " + std::to_string(port) + ", page " + ws;
    if (!ws.empty()) devtools_ = std::make_unique<WsTestClient>(ws, 10);
    // --window-size includes the (invisible) browser frame: the page's own size is set here.
    if (ok())
      Call("Emulation.setDeviceMetricsOverride",
           {{"width", width}, {"height", height}, {"deviceScaleFactor", 1}, {"mobile", false}});
  }

  ~HeadlessChromium() {
    if (devtools_ && devtools_->connected()) Call("Browser.close", nlohmann::json::object(), 5);
    devtools_.reset();
    if (run_.valid() && run_.wait_for(std::chrono::seconds(10)) != std::future_status::ready) {
      int pid = 0;  // the shell that became Chromium (exec): this test's own browser, by its id
      if (std::ifstream(profile_ / "pid") >> pid; pid > 0) ::kill(pid, SIGKILL);
      run_.wait_for(std::chrono::seconds(10));
    }
  }

  bool ok() const { return devtools_ && devtools_->connected(); }
  const std::string& devtools() const { return devtools_url_; }  // for messages

  // A DevTools command's "result" (null on a timeout or an error).
  nlohmann::json Call(const std::string& method, const nlohmann::json& params, double timeout_s = 10) {
    const int id = ++next_id_;
    devtools_->Send(nlohmann::json{{"id", id}, {"method", method}, {"params", params}}.dump());
    const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
    while (std::chrono::steady_clock::now() < until) {
      const auto messages = devtools_->messages();
      for (size_t i = seen_; i < messages.size(); ++i) {
        const auto j = nlohmann::json::parse(messages[i], nullptr, false);
        if (j.is_object() && j.value("id", -1) == id) return j.value("result", nlohmann::json());
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return nullptr;
  }

  // The value of a JavaScript expression in the page.
  nlohmann::json Evaluate(const std::string& expression) {
    const auto r = Call("Runtime.evaluate", {{"expression", expression}, {"returnByValue", true}});
    if (r.is_null() || !r.contains("result")) return nullptr;
    return r["result"].value("value", nlohmann::json());
  }

  // Polls `expression` until it is true.
  bool WaitFor(const std::string& expression, double timeout_s) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
    while (std::chrono::steady_clock::now() < until) {
      if (Evaluate(expression) == true) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return false;
  }

  // BGR, or BGRA with `alpha` (what the page leaves transparent shows through: see TransparentBackground).
  cv::Mat Screenshot(bool alpha = false) {
    const auto r = Call("Page.captureScreenshot", {{"format", "png"}}, 20);
    if (r.is_null() || !r.contains("data")) return {};
    const std::string png = Base64Decode(r["data"].get<std::string>());
    return cv::imdecode(std::vector<uchar>(png.begin(), png.end()), alpha ? cv::IMREAD_UNCHANGED : cv::IMREAD_COLOR);
  }

  // The browser's own background made transparent, as an OBS browser source has it.
  void TransparentBackground() {
    Call("Emulation.setDefaultBackgroundColorOverride", {{"color", {{"r", 0}, {"g", 0}, {"b", 0}, {"a", 0}}}});
  }

 private:
  TestFolder profile_;
  std::future<CommandResult> run_;
  std::unique_ptr<WsTestClient> devtools_;
  std::string devtools_url_;
  int next_id_ = 0;
  size_t seen_ = 0;
};

}  // namespace vedette::testing
