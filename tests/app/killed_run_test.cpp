// A run stopped from outside keeps what it has, for `process` and for `live` (in a real window).
// Ctrl-C (SIGINT) or SIGTERM ends the run after the frame in hand: the recording is closed and the
// video and the log agree frame for frame. SIGKILL gives Vedette no say: the log is flushed line by
// line, and the encoder (an ffmpeg child process, pipeline/encoder_process.h) sees its input end
// and finishes the file, so the video plays to the last frame logged. Even when the encoder is
// killed too, the video reaches to within half a second of the log. Each check reads the files
// with `vedette review`, the command a player runs after a crash.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/app/run_command.h"
#include "tests/synth/small_table.h"

namespace vedette {
namespace {

using testing::RunShell;
using testing::TestFolder;

using testing::HasDisplay;
using testing::kBin;
constexpr double kFps = 15;

// The small table as a 60 s synthetic camera (longer than any test waits) and its camera file,
// taken from a one-second clip of the same camera.
void WriteInputs(const TestFolder& dir) {
  std::ofstream(dir / "roster.yaml") << testing::SmallTableScene();
  const std::string camera = R"(
roster: roster.yaml
camera: {image_size: [680, 425]}
render: {supersample: 1, blur_sigma_px: 0.7, read_noise: 2.0, jpeg_quality: 0}
fps: 15
)";
  std::ofstream(dir / "long.clip.yaml") << camera << "duration_s: 60\nunits:\n  B1: {keys: [{t: 0.5}, {t: 10, y_mm: 190}]}\n";
  std::ofstream(dir / "short.clip.yaml") << camera << "duration_s: 0.2\n";
  const auto r = RunShell(kBin + " clip " + (dir / "short.clip.yaml") + " --video " + (dir / "short.mkv") +
                          " --calib-out " + (dir / "cam.yaml"));
  ASSERT_EQ(r.status, 0) << r.err;
}

struct Stop {
  std::string signal;         // KILL, INT, TERM
  int lines = 0;              // sent once the log has more lines than this
  bool encoder_too = false;   // SIGKILL the ffmpeg child as well (a power cut, a kill of everything)
};

// Runs `command` (process or live, recording to out.mkv + out.jsonl), stops it as `stop` says,
// waits for the encoder to finish, and prints the shell's status as status=N. (The pattern
// "ffmpe[g]" does not match this shell's own command line, which holds it.)
testing::CommandResult RunThenStop(const TestFolder& dir, const std::string& command, const Stop& stop) {
  const std::string video = (dir / "out.mkv");
  const std::string kill_encoder = stop.encoder_too ? "pkill -KILL -f 'ffmpe[g].*" + video + "'; " : "";
  return RunShell(
      "cd " + dir.path().string() + " && (" + kBin + " " + command + " > summary.txt 2> errors.txt & pid=$!; " +
      "for i in $(seq 1 3600); do [ $(wc -l < out.jsonl 2>/dev/null || echo 0) -gt " + std::to_string(stop.lines) +
      " ] && break; sleep 0.02; done; " + kill_encoder + "kill -" + stop.signal + " $pid; wait $pid; echo status=$?; " +
      "for i in $(seq 1 400); do pgrep -f 'ffmpe[g].*" + video + "' > /dev/null || break; sleep 0.05; done)");
}

std::string ProcessCommand() {
  return "process --video long.clip.yaml --calib cam.yaml --roster roster.yaml --out out.mkv --log out.jsonl --quiet";
}

std::string LiveCommand() {
  return "live --video long.clip.yaml --calib cam.yaml --roster roster.yaml --record out.mkv --fast "
         "--settings live.ini";
}

// `vedette review`'s account of the recording.
nlohmann::json Review(const TestFolder& dir) {
  const auto r = RunShell(kBin + " review " + (dir / "out.jsonl") + " --video " + (dir / "out.mkv") + " --json");
  EXPECT_EQ(r.status, 0) << "the log must read as valid line by line: " << r.out << r.err;
  return nlohmann::json::parse(r.out, nullptr, false);
}

// After a stop: the log is valid (at most its last line cut), the video plays, and it reaches to
// within `lag_s` of the log's last frame.
void ExpectKept(const TestFolder& dir, const Stop& stop, double lag_s) {
  const nlohmann::json j = Review(dir);
  ASSERT_TRUE(j.is_object()) << "review printed no JSON";
  const int logged = j["last_frame"].get<int>() + 1;
  const int played = j["video"]["frames"].get<int>();
  SCOPED_TRACE("stopped with SIG" + stop.signal + " after " + std::to_string(stop.lines) + " log lines: " +
               std::to_string(logged) + " frames logged, " + std::to_string(played) + " play");
  EXPECT_GE(logged, 1) << "the frames logged before the stop are kept";
  EXPECT_GT(played, 0) << "the recording plays";
  EXPECT_LE(played, logged + 1) << "no frame in the video that the log lacks, but the one in flight";
  EXPECT_GE(played, logged - static_cast<int>(lag_s * kFps)) << "the video lags the log by more than " << lag_s << " s";
  if (stop.signal != "KILL") {
    EXPECT_FALSE(j["cut_last_line"].get<bool>()) << "a clean stop writes whole lines";
    EXPECT_EQ(played, logged) << "a clean stop closes the video with every logged frame";
  }
}

TEST(KilledRun, CtrlCAndSigtermCloseTheRecordingOfProcess) {
  for (const std::string signal : {"INT", "TERM"}) {
    TestFolder dir;
    ASSERT_NO_FATAL_FAILURE(WriteInputs(dir));
    const Stop stop{signal, 40};
    const auto r = RunThenStop(dir, ProcessCommand(), stop);
    EXPECT_NE(r.out.find("status=0"), std::string::npos) << r.out << r.err;
    const std::string summary = testing::ReadFile(dir / "summary.txt");
    EXPECT_NE(summary.find("stopped by a signal"), std::string::npos) << summary;
    ExpectKept(dir, stop, 0);
  }
}

// Killed in the first second of the recording, a few seconds in, and later: every logged frame plays.
TEST(KilledRun, SigkillOfProcessAtThreeMomentsKeepsEveryLoggedFrame) {
  for (const int lines : {2, 40, 150}) {
    TestFolder dir;
    ASSERT_NO_FATAL_FAILURE(WriteInputs(dir));
    const Stop stop{"KILL", lines};
    const auto r = RunThenStop(dir, ProcessCommand(), stop);
    EXPECT_NE(r.out.find("status=137"), std::string::npos) << r.out << r.err;
    ExpectKept(dir, stop, 1.0 / kFps);
    if (lines == 2) {
      EXPECT_LT(Review(dir)["last_t"].get<double>(), 1.0) << "the first moment is in the first second";
    }
  }
}

TEST(KilledRun, SigkillOfProcessAndItsEncoderLosesAtMostHalfASecond) {
  for (const int lines : {20, 120}) {
    TestFolder dir;
    ASSERT_NO_FATAL_FAILURE(WriteInputs(dir));
    const Stop stop{"KILL", lines, true};
    RunThenStop(dir, ProcessCommand(), stop);
    ExpectKept(dir, stop, 0.5);
  }
}


TEST(KilledRun, SigkillOfLiveAtThreeMomentsKeepsEveryLoggedFrame) {
  if (!HasDisplay()) GTEST_SKIP() << "no display: run the suite under xvfb-run (scripts/setup.sh test does)";
  for (const int lines : {2, 30, 90}) {
    TestFolder dir;
    ASSERT_NO_FATAL_FAILURE(WriteInputs(dir));
    const Stop stop{"KILL", lines};
    const auto r = RunThenStop(dir, LiveCommand(), stop);
    EXPECT_NE(r.out.find("status=137"), std::string::npos) << r.out << r.err;
    ExpectKept(dir, stop, 1.0 / kFps);
  }
}

TEST(KilledRun, CtrlCAndSigtermCloseTheRecordingOfLive) {
  if (!HasDisplay()) GTEST_SKIP() << "no display: run the suite under xvfb-run (scripts/setup.sh test does)";
  for (const std::string signal : {"INT", "TERM"}) {
    TestFolder dir;
    ASSERT_NO_FATAL_FAILURE(WriteInputs(dir));
    const Stop stop{signal, 30};
    const auto r = RunThenStop(dir, LiveCommand(), stop);
    EXPECT_NE(r.out.find("status=0"), std::string::npos) << r.out << r.err << testing::ReadFile(dir / "errors.txt");
    ExpectKept(dir, stop, 0);
  }
}

}  // namespace
}  // namespace vedette
