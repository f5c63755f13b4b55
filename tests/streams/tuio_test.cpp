// TUIO 2.0 out: the OSC encoding against the OSC 1.0 specification's own example, and
// `vedette process --tuio` decoded by a receiver of the test's own against the log of the same run
// (within 0.01 mm and 0.01 deg), with the TUIO 2.0 message layouts (frm, tok, bnd, alv).
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>

#include "streams/osc.h"
#include "tests/streams/osc_decoder.h"
#include "tests/streams/stream_clip.h"

namespace vedette {
namespace {

using testing::RunShell;
using testing::TestFolder;

// OSC 1.0 specification, "Examples": /foo with 1000, -1, "hello", 1.234, 5.678.
TEST(Osc, EncodesTheSpecificationsExample) {
  const std::string bytes =
      streams::OscMessage("/foo").Int(1000).Int(-1).String("hello").Float(1.234f).Float(5.678f).Bytes();
  const unsigned char expected[] = {0x2f, 0x66, 0x6f, 0x6f, 0, 0, 0, 0, 0x2c, 0x69, 0x69, 0x73, 0x66, 0x66, 0, 0,
                                    0, 0, 0x03, 0xe8, 0xff, 0xff, 0xff, 0xff, 0x68, 0x65, 0x6c, 0x6c, 0x6f, 0, 0, 0,
                                    0x3f, 0x9d, 0xf3, 0xb6, 0x40, 0xb5, 0xb2, 0x2d};
  ASSERT_EQ(bytes.size(), sizeof expected);
  for (size_t i = 0; i < sizeof expected; ++i) EXPECT_EQ(static_cast<unsigned char>(bytes[i]), expected[i]) << "byte " << i;
}

TEST(Osc, BundleAndTimetag) {
  const streams::OscTimetag t = streams::TimetagFromUnix(1.5);
  EXPECT_EQ(t.seconds, 2208988801u);
  EXPECT_EQ(t.fraction, 0x80000000u);
  const std::string m = streams::OscMessage("/a").Int(7).Bytes();
  const auto b = testing::DecodeOscBundle(streams::OscBundle(t, {m, m}));
  EXPECT_EQ(b.time.seconds, t.seconds);
  ASSERT_EQ(b.messages.size(), 2u);
  EXPECT_EQ(b.messages[1].address, "/a");
  EXPECT_EQ(b.messages[1].I(0), 7);
}

// A UDP socket on 127.0.0.1 with a free port and a buffer for a whole clip's datagrams.
class UdpReceiver {
 public:
  UdpReceiver() {
    fd_ = ::socket(AF_INET, SOCK_DGRAM, 0);
    int size = 4 << 20;
    ::setsockopt(fd_, SOL_SOCKET, SO_RCVBUF, &size, sizeof size);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a);
    socklen_t len = sizeof a;
    ::getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len);
    port_ = ntohs(a.sin_port);
  }
  ~UdpReceiver() { ::close(fd_); }
  int port() const { return port_; }
  std::vector<std::string> Drain() {
    std::vector<std::string> out;
    char buf[65536];
    for (;;) {
      const ssize_t n = ::recv(fd_, buf, sizeof buf, MSG_DONTWAIT);
      if (n < 0) break;
      out.emplace_back(buf, static_cast<size_t>(n));
    }
    return out;
  }

 private:
  int fd_ = -1, port_ = 0;
};

double AngleDiffDeg(double a, double b) {
  double d = std::fmod(a - b, 360.0);
  if (d > 180) d -= 360;
  if (d < -180) d += 360;
  return d;
}

bool OnTable(const std::string& state) {
  return state == "seen" || state == "moving" || state == "at_rest" || state == "occluded";
}

TEST(Tuio, ProcessSendsTheTrackersPosesAsTuio20) {
  TestFolder dir;
  const std::string common = testing::WriteStreamClip(dir);
  UdpReceiver rx;
  const auto r = RunShell(std::string(VEDETTE_BINARY) + " process" + common + " --log " + (dir / "run.jsonl") +
                          " --quiet --tuio 127.0.0.1:" + std::to_string(rx.port()));
  ASSERT_EQ(r.status, 0) << r.err << r.out;
  const auto frames = testing::FrameLinesOf(dir / "run.jsonl");
  const auto packets = rx.Drain();
  ASSERT_EQ(packets.size(), frames.size()) << "one bundle per frame";
  ASSERT_GT(frames.size(), 40u);
  int toks = 0;
  for (size_t i = 0; i < packets.size(); ++i) {
    SCOPED_TRACE("frame " + std::to_string(i));
    const testing::OscBundleIn b = testing::DecodeOscBundle(packets[i]);
    ASSERT_GE(b.messages.size(), 2u);
    // /tuio2/frm f_id(int32) time(OSC time) dim(int32: width << 16 | height) source(string)
    const testing::OscMsg& frm = b.messages.front();
    ASSERT_EQ(frm.address, "/tuio2/frm");
    ASSERT_EQ(frm.types, "itis");
    EXPECT_EQ(frm.I(0), frames[i]["frame"].get<int>());
    EXPECT_EQ(static_cast<std::uint32_t>(frm.I(2)), 600u << 16 | 400u);
    EXPECT_EQ(std::get<std::string>(frm.args[3]), "vedette");
    EXPECT_EQ(std::get<testing::OscTime>(frm.args[1]).seconds, b.time.seconds);
    // /tuio2/alv s_id0 ... s_idN (int32) closes the frame
    const testing::OscMsg& alv = b.messages.back();
    ASSERT_EQ(alv.address, "/tuio2/alv");
    ASSERT_EQ(alv.types, std::string(alv.args.size(), 'i'));
    std::map<int, testing::OscMsg> tok, bnd;
    for (size_t m = 1; m + 1 < b.messages.size(); ++m) {
      const testing::OscMsg& msg = b.messages[m];
      if (msg.address == "/tuio2/tok") {
        // s_id tu_id c_id (int32) x_pos y_pos angle (float32)
        ASSERT_EQ(msg.types, "iiifff");
        tok[msg.I(0)] = msg;
      } else {
        // s_id (int32) x_pos y_pos angle width height area (float32)
        ASSERT_EQ(msg.address, "/tuio2/bnd");
        ASSERT_EQ(msg.types, "iffffff");
        bnd[msg.I(0)] = msg;
      }
    }
    std::set<int> alive;
    for (size_t k = 0; k < alv.args.size(); ++k) alive.insert(alv.I(k));
    const nlohmann::json& units = frames[i]["units"];
    std::set<int> expected_alive;
    for (size_t u = 0; u < units.size(); ++u) {
      const nlohmann::json& ju = units[u];
      if (!ju.contains("x_mm") || !OnTable(ju["state"])) continue;
      const int s_id = static_cast<int>(u) + 1;
      expected_alive.insert(s_id);
      ASSERT_TRUE(tok.count(s_id)) << ju["id"];
      ASSERT_TRUE(bnd.count(s_id)) << ju["id"];
      const testing::OscMsg& t = tok[s_id];
      EXPECT_EQ(t.I(1), 1) << "tu_id: user 0, type 1 (infantry)";
      EXPECT_EQ(t.I(2), 10 + static_cast<int>(u)) << "c_id: the marker";
      const double x_mm = t.F(3) * testing::kTableWidthMm;
      const double y_mm = (1.0 - t.F(4)) * testing::kTableDepthMm;
      const double heading = -t.F(5) * 180.0 / M_PI;
      EXPECT_GE(t.F(5), 0.0f);
      EXPECT_LT(t.F(5), 2 * M_PI);
      EXPECT_NEAR(x_mm, ju["x_mm"].get<double>(), 0.01) << ju["id"];
      EXPECT_NEAR(y_mm, ju["y_mm"].get<double>(), 0.01) << ju["id"];
      EXPECT_NEAR(AngleDiffDeg(heading, ju["heading_deg"].get<double>()), 0.0, 0.01) << ju["id"];
      // One base of 40 x 20 mm centred on the pose: the footprint is the base.
      const testing::OscMsg& bd = bnd[s_id];
      EXPECT_NEAR(bd.F(1) * testing::kTableWidthMm, ju["x_mm"].get<double>(), 0.01);
      EXPECT_NEAR((1.0 - bd.F(2)) * testing::kTableDepthMm, ju["y_mm"].get<double>(), 0.01);
      EXPECT_FLOAT_EQ(bd.F(3), t.F(5));
      EXPECT_NEAR(bd.F(4) * testing::kTableWidthMm, 40.0, 1e-4);
      EXPECT_NEAR(bd.F(5) * testing::kTableWidthMm, 20.0, 1e-4);
      EXPECT_NEAR(bd.F(6) * testing::kTableWidthMm * testing::kTableDepthMm, 800.0, 1e-3);
      ++toks;
    }
    EXPECT_EQ(alive, expected_alive);
    EXPECT_EQ(tok.size(), expected_alive.size());
  }
  EXPECT_GT(toks, 100) << "three units over most of the clip";
}

// `track` and `live` take the same option and send a bundle per frame too.
TEST(Tuio, TrackAndLiveSendABundlePerFrame) {
  TestFolder dir;
  const std::string common = testing::WriteStreamClip(dir, 1.0);
  UdpReceiver rx;
  const std::string to = " --tuio 127.0.0.1:" + std::to_string(rx.port());
  auto r = RunShell(std::string(VEDETTE_BINARY) + " track" + common + " --events " + (dir / "track.jsonl") + " --quiet" + to);
  ASSERT_EQ(r.status, 0) << r.err;
  const size_t frames = testing::FrameLinesOf(dir / "track.jsonl").size();
  EXPECT_EQ(rx.Drain().size(), frames);
  if (!std::getenv("DISPLAY") || !*std::getenv("DISPLAY")) GTEST_SKIP() << "no display for the live window";
  r = RunShell("HOME=" + dir.path().string() + " " + VEDETTE_BINARY + " live" + common + " --frames 10 --fast" + to);
  ASSERT_EQ(r.status, 0) << r.err;
  const auto packets = rx.Drain();
  ASSERT_EQ(packets.size(), 10u);
  EXPECT_EQ(testing::DecodeOscBundle(packets.back()).messages.front().I(0), 9);
}

TEST(Tuio, ABadTargetIsRefusedByName) {
  TestFolder dir;
  const std::string common = testing::WriteStreamClip(dir, 0.2);
  const auto r = RunShell(std::string(VEDETTE_BINARY) + " process" + common + " --log " + (dir / "run.jsonl") +
                          " --quiet --tuio localhost");
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.err.find("--tuio"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace vedette
