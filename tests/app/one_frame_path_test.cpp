// One frame path: `process`, `track`, `demo` and `live` run the same clip through the same RunFrame,
// so they write the same event log (apart from wall-clock fields), and a ruleset setting given with
// --set changes the move verdicts of all of them alike.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/app/run_command.h"
#include "tests/synth/small_table.h"

namespace vedette {
namespace {

using testing::RunShell;
using testing::TestFolder;

using testing::HasDisplay;
using testing::kBin;

// The small table (tests/synth/small_table.h) at 680 x 425 px; B1 (an IM unit) advances twice in blue's turn,
// R1 once; a hand passes over B2.
void WriteClip(const TestFolder& dir) {
  std::ofstream(dir / "roster.yaml") << testing::SmallTableScene("im");
  std::ofstream(dir / "table.clip.yaml") << R"(
roster: roster.yaml
camera: {image_size: [680, 425]}
render: {supersample: 2, blur_sigma_px: 0.7, read_noise: 2.0, jpeg_quality: 0, seed: 3}
fps: 15
duration_s: 3.4
units:
  B1: {keys: [{t: 0.3}, {t: 0.8, y_mm: 170}, {t: 1.4}, {t: 1.9, y_mm: 190}]}
  R1: {keys: [{t: 2.2}, {t: 2.7, y_mm: 240}]}
hands:
  - {radius_mm: 40, height_mm: 80, keys: [{t: 2.0, x_mm: 260, y_mm: 20}, {t: 2.5, x_mm: 260, y_mm: 150}, {t: 3.0, x_mm: 260, y_mm: 20}]}
)";
  const auto r = RunShell(kBin + " clip " + (dir / "table.clip.yaml") + " --video " + (dir / "table.mkv") +
                          " --calib-out " + (dir / "cam.yaml"));
  ASSERT_EQ(r.status, 0) << r.err;
}

// The log's lines without the wall-clock fields; the header and track's summary apart.
std::vector<nlohmann::json> LogLines(const std::string& path) {
  std::ifstream in(path);
  std::vector<nlohmann::json> lines;
  std::string s;
  while (std::getline(in, s)) {
    nlohmann::json j = nlohmann::json::parse(s);
    if (j.contains("log")) {
      EXPECT_EQ(j["log_version"], 2) << path;
      continue;
    }
    if (j.contains("summary")) continue;
    j.erase("ms");
    j.erase("timings_ms");
    lines.push_back(j);
  }
  return lines;
}

std::string Common(const TestFolder& dir) {
  return " --calib " + (dir / "cam.yaml") + " --roster " + (dir / "roster.yaml");
}


std::vector<nlohmann::json> Moves(const std::vector<nlohmann::json>& lines) {
  std::vector<nlohmann::json> moves;
  for (const auto& j : lines)
    if (j.value("event", "") == "move") moves.push_back(j);
  return moves;
}

TEST(OneFramePath, ProcessTrackAndDemoWriteTheSameLog) {
  TestFolder dir;
  WriteClip(dir);
  const std::string clip = dir / "table.clip.yaml";
  auto r = RunShell(kBin + " process --video " + clip + Common(dir) + " --log " + (dir / "process.jsonl") + " --quiet");
  ASSERT_EQ(r.status, 0) << r.err << r.out;
  r = RunShell(kBin + " track --video " + clip + Common(dir) + " --events " + (dir / "track.jsonl") + " --quiet");
  ASSERT_EQ(r.status, 0) << r.err;
  r = RunShell(kBin + " demo --headless --script " + clip + " --out " + (dir / "demo"));
  ASSERT_EQ(r.status, 0) << r.err;
  const auto process = LogLines(dir / "process.jsonl");
  const auto track = LogLines(dir / "track.jsonl");
  const auto demo = LogLines(dir / "demo/demo.jsonl");
  ASSERT_EQ(Moves(process).size(), 3u) << "B1 twice, R1 once";
  ASSERT_EQ(process.size(), track.size());
  ASSERT_EQ(process.size(), demo.size());
  for (size_t i = 0; i < process.size(); ++i) {
    EXPECT_EQ(process[i], track[i]) << "line " << i;
    EXPECT_EQ(process[i], demo[i]) << "line " << i;
  }
}

TEST(OneFramePath, LiveWritesTheSameLogAsProcess) {
  if (!HasDisplay()) GTEST_SKIP() << "no display for the live window";
  TestFolder dir;
  WriteClip(dir);
  const std::string clip = dir / "table.clip.yaml";
  auto r = RunShell(kBin + " process --video " + clip + Common(dir) + " --log " + (dir / "process.jsonl") + " --quiet");
  ASSERT_EQ(r.status, 0) << r.err;
  r = RunShell("HOME=" + dir.path().string() + " " + kBin + " live --video " + clip + Common(dir) + " --record " +
               (dir / "live.mkv") + " --frames 51 --fast");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto process = LogLines(dir / "process.jsonl");
  const auto live = LogLines(dir / "live.jsonl");
  ASSERT_EQ(process.size(), live.size());
  for (size_t i = 0; i < process.size(); ++i) EXPECT_EQ(process[i], live[i]) << "line " << i;
}

// --set second_move=qrs: B1's second move takes TotSK's QRS test (IM Easy) instead of the FAQ's
// standard one, in `process` and in `live` alike.
TEST(OneFramePath, SettingsChangeTheMoveVerdicts) {
  TestFolder dir;
  WriteClip(dir);
  const std::string clip = dir / "table.clip.yaml";
  auto r = RunShell(kBin + " process --video " + clip + Common(dir) + " --log " + (dir / "faq.jsonl") + " --quiet");
  ASSERT_EQ(r.status, 0) << r.err;
  r = RunShell(kBin + " process --video " + clip + Common(dir) + " --set second_move=qrs --log " + (dir / "qrs.jsonl") +
               " --quiet");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto faq = Moves(LogLines(dir / "faq.jsonl"));
  const auto qrs = Moves(LogLines(dir / "qrs.jsonl"));
  ASSERT_EQ(faq.size(), 3u);
  ASSERT_EQ(qrs.size(), 3u);
  ASSERT_TRUE(faq[1]["second_move"].get<bool>()) << faq[1].dump();
  ASSERT_FALSE(faq[1]["tests"].empty()) << faq[1].dump();
  ASSERT_FALSE(qrs[1]["tests"].empty()) << qrs[1].dump();
  EXPECT_NE(faq[1]["tests"][0]["reason"], qrs[1]["tests"][0]["reason"]);
  EXPECT_NE(qrs[1]["tests"][0]["reason"].get<std::string>().find("IM Easy"), std::string::npos) << qrs[1].dump();
  EXPECT_GT(qrs[1]["tests"][0]["p_success"].get<double>(), faq[1]["tests"][0]["p_success"].get<double>());
  EXPECT_EQ(faq[0], qrs[0]) << "a first move takes no second-move test either way";
  if (!HasDisplay()) return;
  r = RunShell("HOME=" + dir.path().string() + " " + kBin + " live --video " + clip + Common(dir) +
               " --set second_move=qrs --record " + (dir / "live.mkv") + " --frames 51 --fast");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto live = Moves(LogLines(dir / "live.jsonl"));
  ASSERT_EQ(live.size(), 3u);
  for (size_t i = 0; i < 3; ++i) EXPECT_EQ(live[i], qrs[i]) << "move " << i;
}

}  // namespace
}  // namespace vedette
