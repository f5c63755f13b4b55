// A run stopped from outside keeps what it has. Ctrl-C (SIGINT) or SIGTERM ends `process` after the
// frame in hand: the recording is closed, the summary says so, and the video and the log agree.
// SIGKILL gives the program no say: what reached the disk before is still readable. The log is
// flushed line by line, so every frame before the kill is in it; the Matroska video reaches the
// disk in blocks (FFmpeg's output buffer, 512 KiB), so its last few seconds may be missing, but
// what is there plays.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include <nlohmann/json.hpp>
#include <opencv2/videoio.hpp>

#include "tests/app/run_command.h"
#include "tests/synth/small_table.h"

namespace vedette {
namespace {

using testing::RunShell;
using testing::TestFolder;

const std::string kBin = VEDETTE_BINARY;

// 60 s of the small table at 680 x 425 (900 frames: longer than any test waits), as a synthetic camera.
void WriteLongClip(const TestFolder& dir) {
  std::ofstream(dir / "roster.yaml") << testing::SmallTableScene();
  std::ofstream(dir / "long.clip.yaml") << R"(
roster: roster.yaml
camera: {image_size: [680, 425]}
render: {supersample: 1, blur_sigma_px: 0.7, read_noise: 2.0, jpeg_quality: 0}
fps: 15
duration_s: 60
units:
  B1: {keys: [{t: 0.5}, {t: 10, y_mm: 190}]}
)";
  const auto r = RunShell(kBin + " clip " + (dir / "long.clip.yaml") + " --video " + (dir / "unused.mkv") +
                          " --calib-out " + (dir / "cam.yaml"));
  ASSERT_EQ(r.status, 0) << r.err;
}

// `process` on the clip, sent `signal` once its log has `lines` lines; the shell prints its status.
testing::CommandResult ProcessThenSignal(const TestFolder& dir, const std::string& signal, int lines) {
  return RunShell("cd " + dir.path().string() + " && (" + kBin +
                  " process --video long.clip.yaml --calib cam.yaml --roster roster.yaml --out out.mkv --log out.jsonl "
                  "--quiet > summary.txt 2> errors.txt & pid=$!; "
                  "for i in $(seq 1 3600); do [ $(wc -l < out.jsonl 2>/dev/null || echo 0) -gt " + std::to_string(lines) + " ] && break; sleep 0.05; done; "
                  "kill -" + signal + " $pid; wait $pid; echo status=$?)");
}

struct LogRead {
  int header = 0, frames = 0, whole = 0, partial = 0;  // lines
};

LogRead ReadLog(const std::string& path) {
  LogRead r;
  std::ifstream in(path);
  std::string s;
  while (std::getline(in, s)) {
    nlohmann::json j = nlohmann::json::parse(s, nullptr, false);
    if (j.is_discarded()) {
      ++r.partial;
      continue;
    }
    ++r.whole;
    if (j.contains("log")) ++r.header;
    else if (!j.contains("event")) ++r.frames;
  }
  return r;
}

int VideoFrames(const std::string& path) {
  cv::VideoCapture cap(path);
  int n = 0;
  cv::Mat f;
  while (cap.isOpened() && cap.read(f)) ++n;
  return n;
}

TEST(KilledRun, CtrlCClosesTheRecordingAndTheVideoAndLogAgree) {
  TestFolder dir;
  WriteLongClip(dir);
  const auto r = ProcessThenSignal(dir, "INT", 40);
  EXPECT_NE(r.out.find("status=0"), std::string::npos) << r.out << r.err;
  const std::string summary = testing::ReadFile(dir / "summary.txt");
  EXPECT_NE(summary.find("stopped by a signal"), std::string::npos) << summary;
  const LogRead log = ReadLog(dir / "out.jsonl");
  EXPECT_EQ(log.header, 1);
  EXPECT_EQ(log.partial, 0) << "no half-written line";
  EXPECT_GT(log.frames, 10);
  EXPECT_LT(log.frames, 900) << "stopped early";
  EXPECT_EQ(VideoFrames(dir / "out.mkv"), log.frames) << "every logged frame is in the video";
}

TEST(KilledRun, SigkillKeepsWhatReachedTheDisk) {
  TestFolder dir;
  WriteLongClip(dir);
  const auto r = ProcessThenSignal(dir, "KILL", 180);
  EXPECT_NE(r.out.find("status=137"), std::string::npos) << r.out << r.err;
  const LogRead log = ReadLog(dir / "out.jsonl");
  EXPECT_EQ(log.header, 1);
  EXPECT_LE(log.partial, 1) << "at most the line in flight is cut";
  EXPECT_GT(log.frames, 100) << "the frames logged before the kill are kept";
  const int video = VideoFrames(dir / "out.mkv");
  EXPECT_GT(video, 0) << "the video written so far still plays";
  EXPECT_LE(video, log.frames);
}

}  // namespace
}  // namespace vedette
