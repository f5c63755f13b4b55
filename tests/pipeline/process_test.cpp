// `vedette process` on a short synthetic clip of the flank table (test_scenes.h): the annotated
// video reads back with OpenCV with the input's frame count and size, and the JSONL log has one
// frame line per video frame, numbered 0..N-1, with every roster unit; the summary names them.
#include <cstdio>
#include <fstream>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <opencv2/videoio.hpp>

#include "pipeline/recorder.h"
#include "tests/overlay/test_scenes.h"
#include "synth/clip_render.h"
#include "synth/clip_script.h"

namespace vedette::pipeline {

using namespace vedette::overlay;
namespace testing = vedette::overlay::testing;
namespace {

std::string RunCommand(const std::string& cmd, int* status) {
  std::string out;
  FILE* p = popen((cmd + " 2>&1").c_str(), "r");
  char buf[4096];
  while (p && fgets(buf, sizeof buf, p)) out += buf;
  *status = p ? pclose(p) : -1;
  return out;
}

TEST(Process, WritesAVideoAndALogWhoseFramesMatch) {
  const std::string dir = testing::TempDir("process");
  constexpr int kFrames = 8;
  const std::string clip = testing::WriteFlankClip(dir, kFrames, 640, 360);
  synth::ClipRenderer renderer(synth::LoadClipScript(clip));
  const synth::ClipVideoSummary made = synth::WriteClipVideo(renderer, dir + "/in.mkv", "");
  ASSERT_EQ(made.frames, kFrames);
  synth::WriteIntrinsicsYaml(renderer.intrinsics(), dir + "/cam.yaml");

  int status = 0;
  const std::string out = RunCommand(std::string(VEDETTE_BINARY) + " process --video " + dir + "/in.mkv --calib " + dir +
                                  "/cam.yaml --roster " + dir + "/roster.yaml --ruleset totsk --out " + dir +
                                  "/out.mkv --log " + dir + "/out.jsonl --quiet",
                              &status);
  ASSERT_EQ(status, 0) << out;
  EXPECT_NE(out.find("8 frames"), std::string::npos) << out;
  EXPECT_NE(out.find("units: "), std::string::npos) << out;
  EXPECT_NE(out.find("tests required"), std::string::npos) << out;

  cv::VideoCapture cap(dir + "/out.mkv");
  ASSERT_TRUE(cap.isOpened());
  int frames = 0;
  cv::Mat f;
  while (cap.read(f)) {
    EXPECT_EQ(f.cols, 640);
    EXPECT_EQ(f.rows, 360);
    ++frames;
  }
  EXPECT_EQ(frames, kFrames);

  std::ifstream log(dir + "/out.jsonl");
  std::string line;
  ASSERT_TRUE(std::getline(log, line));
  const nlohmann::json header = nlohmann::json::parse(line);
  EXPECT_EQ(header["log"], "vedette") << line;
  EXPECT_EQ(header["log_version"], 2) << line;
  EXPECT_EQ(header["ruleset"], "totsk") << line;
  int next = 0;
  while (std::getline(log, line)) {
    const nlohmann::json j = nlohmann::json::parse(line);
    if (j.contains("event")) {  // an event line belongs to the frame line before it
      EXPECT_EQ(j["frame"].get<int>(), next - 1) << line;
      continue;
    }
    EXPECT_EQ(j["frame"].get<int>(), next) << line;
    EXPECT_EQ(j["units"].size(), 3u);
    EXPECT_TRUE(j.contains("tests"));
    ++next;
  }
  EXPECT_EQ(next, kFrames);
}

TEST(Process, MissingInputsAreClearErrors) {
  int status = 0;
  const std::string out = RunCommand(std::string(VEDETTE_BINARY) +
                                  " process --video /nonexistent.mkv --calib x.yaml --roster y.yaml --out /tmp/o.mkv",
                              &status);
  EXPECT_NE(status, 0);
  EXPECT_NE(out.find("vedette: "), std::string::npos) << out;
}

TEST(Recorder, RefusesContainersThatDoNotSurviveACrash) {
  const std::string dir = testing::TempDir("recorder");
  EXPECT_THROW(Recorder({}, dir + "/out.mp4", "", cv::Size(64, 48)), std::exception);
  EXPECT_EQ(LogPathFor("/a/b/out.mkv"), "/a/b/out.jsonl");
  Recorder r({}, dir + "/ok.mkv", dir + "/ok.jsonl", cv::Size(64, 48));
  EXPECT_EQ(r.codec(), "mp4v");
}

}  // namespace
}  // namespace vedette::pipeline
