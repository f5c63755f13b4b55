#pragma once
// The clip the stream tests run `vedette` on: the small table (tests/synth/small_table.h) at
// 680 x 425 px, B1 advancing twice in blue's turn and R1 once (as tests/app/one_frame_path_test.cpp),
// and the command-line options that go with it.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/app/run_command.h"
#include "tests/synth/small_table.h"

namespace vedette::testing {

inline constexpr double kTableWidthMm = 600, kTableDepthMm = 400;

// Writes roster.yaml, table.clip.yaml and cam.yaml into `dir`; returns the options naming them
// (" --video CLIP --calib CAM --roster ROSTER"). duration_s: the clip's length.
inline std::string WriteStreamClip(const TestFolder& dir, double duration_s = 3.4) {
  std::ofstream(dir / "roster.yaml") << SmallTableScene("im");
  std::ofstream(dir / "table.clip.yaml") << R"(
roster: roster.yaml
camera: {image_size: [680, 425]}
render: {supersample: 2, blur_sigma_px: 0.7, read_noise: 2.0, jpeg_quality: 0, seed: 3}
fps: 15
duration_s: )" << duration_s << R"(
units:
  B1: {keys: [{t: 0.3}, {t: 0.8, y_mm: 170}, {t: 1.4}, {t: 1.9, y_mm: 190}]}
  R1: {keys: [{t: 2.2}, {t: 2.7, y_mm: 240}]}
)";
  const auto r = RunShell(std::string(VEDETTE_BINARY) + " clip " + (dir / "table.clip.yaml") + " --video " +
                          (dir / "clip.mkv") + " --calib-out " + (dir / "cam.yaml"));
  EXPECT_EQ(r.status, 0) << r.err;
  return " --video " + (dir / "table.clip.yaml") + " --calib " + (dir / "cam.yaml") + " --roster " + (dir / "roster.yaml");
}

// The frame lines of a JSONL log (lines with "frame" and "units", not events).
inline std::vector<nlohmann::json> FrameLinesOf(const std::string& path) {
  std::ifstream in(path);
  std::vector<nlohmann::json> frames;
  std::string s;
  while (std::getline(in, s)) {
    nlohmann::json j = nlohmann::json::parse(s);
    if (j.contains("units") && j.contains("frame") && !j.contains("event")) frames.push_back(j);
  }
  return frames;
}

// A port nobody listens on now (bound to 0 and let go: the process about to start takes it).
inline int FreePort() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
  socklen_t len = sizeof a;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  ::close(fd);
  return ntohs(a.sin_port);
}

}  // namespace vedette::testing
