// The WebSocket server alone (streams/ws_server.h), in this process: Publish never waits for a
// slow client, which gets the newest message when its socket drains; hostile input (garbage,
// oversized messages, more clients than allowed, thousands of connects) is refused and logged
// while the server goes on serving; it listens on loopback only; it serves the page's files and
// nothing else.
#include <arpa/inet.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <thread>

#include "streams/ws_server.h"
#include "tests/app/run_command.h"
#include "tests/streams/ws_test_client.h"

namespace vedette {
namespace {

using testing::WsTestClient;
using Clock = std::chrono::steady_clock;

// A plain TCP connection to 127.0.0.1:port (-1 when refused).
int Connect(int port, const char* ip = "127.0.0.1") {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<uint16_t>(port));
  ::inet_pton(AF_INET, ip, &a.sin_addr);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

// What an HTTP GET of `path` answers (status line and body).
std::string HttpGet(int port, const std::string& path) {
  const int fd = Connect(port);
  if (fd < 0) return "";
  const std::string req = "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
  ::send(fd, req.data(), req.size(), MSG_NOSIGNAL);
  std::string out;
  char buf[4096];
  for (ssize_t n; (n = ::recv(fd, buf, sizeof buf, 0)) > 0;) out.append(buf, static_cast<size_t>(n));
  ::close(fd);
  return out;
}

struct LogLines {
  std::mutex mu;
  std::vector<std::string> lines;
  std::function<void(const std::string&)> Sink() {
    return [this](const std::string& s) {
      std::lock_guard<std::mutex> lock(mu);
      lines.push_back(s);
    };
  }
  bool Has(const std::string& part) {
    std::lock_guard<std::mutex> lock(mu);
    for (const auto& l : lines)
      if (l.find(part) != std::string::npos) return true;
    return false;
  }
};

TEST(WsServer, PublishNeverWaitsAndASlowClientGetsTheNewest) {
  streams::WsServerOptions o;
  o.send_buffer_bytes = 4096;
  LogLines log;
  o.log = log.Sink();
  streams::WsServer server(o);
  WsTestClient slow(server.port(), 5, 0.05);
  WsTestClient fast(server.port(), 5);
  ASSERT_TRUE(slow.connected() && fast.connected());
  const std::string pad(20000, 'x');
  double worst_ms = 0;
  for (int i = 0; i < 300; ++i) {
    const auto t0 = Clock::now();
    server.Publish(R"({"n":)" + std::to_string(i) + R"(,"pad":")" + pad + R"("})");
    worst_ms = std::max(worst_ms, std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  EXPECT_LT(worst_ms, 20) << "Publish only hands the message over";
  server.Shutdown();
  // What was sent before the server stopped is still on its way through the slow client.
  const auto until = Clock::now() + std::chrono::seconds(5);
  while (Clock::now() < until && (slow.messages().empty() || slow.messages().back().find(R"({"n":299,)") == std::string::npos))
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  const auto s = server.stats();
  EXPECT_EQ(s.published, 300);
  EXPECT_GT(s.dropped, 100) << "the slow client skipped frames; sent " << s.sent << ", slow got " << slow.messages().size() << ", fast got " << fast.messages().size();
  const auto got = slow.messages();
  ASSERT_FALSE(got.empty());
  EXPECT_LT(got.size(), 150u);
  EXPECT_NE(got.back().find(R"({"n":299,)"), std::string::npos) << "its last message is the newest";
  EXPECT_NE(fast.messages().back().find(R"({"n":299,)"), std::string::npos);
}

// The hello given with the options is there from the first accept: a client that connects before
// the caller could call SetHello (CI under ASan once saw a frame come first) still gets it first.
TEST(WsServer, AClientConnectingAtOnceGetsTheHelloBeforeAnyFrame) {
  streams::WsServerOptions o;
  o.hello = R"({"type":"hello"})";
  streams::WsServer server(o);
  WsTestClient client(server.port(), 5);
  ASSERT_TRUE(client.connected());
  server.Publish(R"({"type":"frame"})");
  ASSERT_TRUE(client.WaitForMessages(2, 5));
  EXPECT_EQ(client.messages()[0], o.hello);
  EXPECT_EQ(client.messages()[1], R"({"type":"frame"})");
  server.SetHello(R"({"type":"hello","recent_events":[]})");
  WsTestClient late(server.port(), 5);
  ASSERT_TRUE(late.WaitForMessages(1, 5));
  EXPECT_EQ(late.messages()[0], R"({"type":"hello","recent_events":[]})") << "SetHello replaces it";
}

TEST(WsServer, HostileClientsAreRefusedAndLoggedAndServingGoesOn) {
  streams::WsServerOptions o;
  o.max_clients = 8;
  o.max_message_bytes = 1024;
  o.handshake_timeout_ms = 500;
  LogLines log;
  o.log = log.Sink();
  streams::WsServer server(o);
  const int port = server.port();
  // Garbage instead of a handshake.
  for (int i = 0; i < 20; ++i) {
    const int fd = Connect(port);
    ASSERT_GE(fd, 0);
    const std::string junk = "\x16\x03\x01\xff garbage \r\n\r\n" + std::string(3000, '\x01');
    ::send(fd, junk.data(), junk.size(), MSG_NOSIGNAL);
    ::close(fd);
  }
  // A message over the limit closes that client alone.
  {
    WsTestClient big(port, 5);
    ASSERT_TRUE(big.connected());
    big.Send(std::string(5000, 'a'));
    EXPECT_TRUE(big.WaitClosed(5));
  }
  // Small messages are ignored.
  {
    WsTestClient chatty(port, 5);
    chatty.Send("{\"hello\":1}");
    chatty.Send("\x01\x02 not json");
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  // Thousands of connects that say nothing, 200 at a time.
  const auto t0 = Clock::now();
  for (int round = 0; round < 10; ++round) {
    std::vector<int> fds;
    for (int i = 0; i < 200; ++i)
      if (const int fd = Connect(port); fd >= 0) fds.push_back(fd);
    for (int fd : fds) ::close(fd);
  }
  std::cout << "[ connects ] 2000 in " << std::chrono::duration<double>(Clock::now() - t0).count() << " s\n";
  // More clients than allowed: the extra ones are refused.
  std::vector<std::unique_ptr<WsTestClient>> many;
  for (int i = 0; i < 12; ++i) many.push_back(std::make_unique<WsTestClient>(port, 2));
  int open = 0;
  for (const auto& c : many) open += c->connected() ? 1 : 0;
  EXPECT_EQ(open, 8);
  many.clear();
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  // Still serving.
  server.Publish("{\"after\":true}");
  WsTestClient late(port, 5);
  ASSERT_TRUE(late.connected());
  EXPECT_TRUE(late.WaitForMessages(1, 5));
  EXPECT_EQ(late.messages().front(), "{\"after\":true}");
  const auto s = server.stats();
  EXPECT_GE(s.refused, 4);
  EXPECT_GE(s.failed, 20);
  EXPECT_GE(s.ignored_messages, 2);
  EXPECT_TRUE(log.Has("refused a client"));
  EXPECT_TRUE(log.Has("a connection failed"));
  EXPECT_TRUE(log.Has("over 1024 bytes"));
  EXPECT_TRUE(log.Has("ignored a client message"));
}

TEST(WsServer, ListensOnLoopbackOnlyUnlessAsked) {
  // An address of this machine's that is not loopback, if it has one.
  std::string other;
  ifaddrs* list = nullptr;
  if (::getifaddrs(&list) == 0) {
    for (ifaddrs* a = list; a && other.empty(); a = a->ifa_next) {
      if (!a->ifa_addr || a->ifa_addr->sa_family != AF_INET) continue;
      char buf[INET_ADDRSTRLEN];
      ::inet_ntop(AF_INET, &reinterpret_cast<sockaddr_in*>(a->ifa_addr)->sin_addr, buf, sizeof buf);
      if (std::string(buf).rfind("127.", 0) != 0) other = buf;
    }
    ::freeifaddrs(list);
  }
  if (other.empty()) GTEST_SKIP() << "this machine has no IPv4 address besides loopback";
  streams::WsServerOptions o;
  o.log = [](const std::string&) {};
  {
    streams::WsServer server(o);
    EXPECT_LT(Connect(server.port(), other.c_str()), 0) << "reachable on " << other;
  }
  o.any_interface = true;
  streams::WsServer server(o);
  const int fd = Connect(server.port(), other.c_str());
  EXPECT_GE(fd, 0) << "--serve-any listens on " << other;
  if (fd >= 0) ::close(fd);
}

TEST(WsServer, ServesThePagesFilesAndNothingElse) {
  testing::TestFolder dir;
  std::ofstream(dir / "index.html") << "<html>page</html>";
  std::ofstream(dir / "app.js") << "let x = 1;";
  std::filesystem::create_directory(dir.path() / "sub");
  std::ofstream(dir / "sub/secret.txt") << "secret";
  streams::WsServerOptions o;
  o.web_dir = dir.path().string();
  o.log = [](const std::string&) {};
  streams::WsServer server(o);
  std::string r = HttpGet(server.port(), "/");
  EXPECT_NE(r.find("200"), std::string::npos) << r;
  EXPECT_NE(r.find("<html>page</html>"), std::string::npos);
  EXPECT_NE(r.find("text/html"), std::string::npos);
  r = HttpGet(server.port(), "/app.js?v=1");
  EXPECT_NE(r.find("text/javascript"), std::string::npos) << r;
  for (const std::string bad : {"/../index.html", "/sub/secret.txt", "/%2e%2e/etc/passwd", "/.hidden", "/nothing.html"}) {
    r = HttpGet(server.port(), bad);
    EXPECT_NE(r.find("404"), std::string::npos) << bad << ": " << r;
    EXPECT_EQ(r.find("secret"), std::string::npos) << bad;
  }
}

}  // namespace
}  // namespace vedette
