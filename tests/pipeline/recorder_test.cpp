// The recorder's worker thread (pipeline/recorder.h): frames handed over faster than the encoder
// takes them are waited for, never dropped; the video and the log come out in the order given
// (frame k's line after frame k, its event lines after it); Close() drains the queue; the inline
// mode writes the same files.
//
// Each frame k is a flat grey of level 12 * k (64 x 48 px), so the frame order can be read back
// from the video's pixels despite the lossy codec.
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <opencv2/core.hpp>
#include <opencv2/videoio.hpp>

#include "pipeline/recorder.h"
#include "tests/overlay/test_scenes.h"

namespace vedette::pipeline {

using namespace vedette::overlay;
namespace testing = vedette::overlay::testing;
namespace {

constexpr int kFrames = 20;

std::vector<nlohmann::json> ReadLines(const std::string& path) {
  std::vector<nlohmann::json> out;
  std::ifstream in(path);
  for (std::string s; std::getline(in, s);) out.push_back(nlohmann::json::parse(s));
  return out;
}

// Writes kFrames frames, each followed by one event line, through a recorder with `options`.
void WriteClip(const RecorderOptions& options, const std::string& video, bool rvalue) {
  Recorder r(options, video, LogPathFor(video), cv::Size(64, 48));
  for (int k = 0; k < kFrames; ++k) {
    if (rvalue) {
      cv::Mat buffer = r.Buffer();
      buffer.setTo(cv::Scalar::all(12 * k));
      r.Write(std::move(buffer), nlohmann::json{{"frame", k}, {"units", nlohmann::json::array()}});
    } else {
      cv::Mat frame(48, 64, CV_8UC3, cv::Scalar::all(12 * k));
      r.Write(frame, nlohmann::json{{"frame", k}, {"units", nlohmann::json::array()}});
      frame.setTo(cv::Scalar::all(255));  // the caller may draw into its own buffer at once
    }
    r.Log(nlohmann::json{{"event", "tick"}, {"frame", k}});
  }
  EXPECT_EQ(r.frames(), kFrames);
  r.Close();
  EXPECT_EQ(r.frames_written(), kFrames);
  EXPECT_EQ(r.error(), "");
}

void ExpectClip(const std::string& video) {
  cv::VideoCapture cap(video, cv::CAP_FFMPEG);
  ASSERT_TRUE(cap.isOpened());
  int k = 0;
  for (cv::Mat f; cap.read(f); ++k) {
    ASSERT_LT(k, kFrames);
    // mp4v at this size quantises a flat grey by a few levels; frames are 12 levels apart.
    EXPECT_NEAR(cv::mean(f)[0], 12.0 * k, 5.5) << "frame " << k;
  }
  EXPECT_EQ(k, kFrames);
  const std::vector<nlohmann::json> lines = ReadLines(LogPathFor(video));
  ASSERT_EQ(lines.size(), 2u * kFrames);
  for (int i = 0; i < kFrames; ++i) {
    EXPECT_EQ(lines[2 * i]["frame"], i);
    EXPECT_TRUE(lines[2 * i].contains("units"));
    EXPECT_EQ(lines[2 * i + 1]["event"], "tick");
    EXPECT_EQ(lines[2 * i + 1]["frame"], i);
  }
}

TEST(Recorder, BackgroundQueueOfOneNeverDropsAFrame) {
  const std::string dir = testing::TempDir("recorder_queue");
  RecorderOptions o;
  o.queue_frames = 1;  // every Write waits for the previous frame: the tightest queue
  WriteClip(o, dir + "/copy.mkv", false);
  ExpectClip(dir + "/copy.mkv");
  WriteClip(o, dir + "/moved.mkv", true);
  ExpectClip(dir + "/moved.mkv");
}

TEST(Recorder, InlineModeWritesTheSameFiles) {
  const std::string dir = testing::TempDir("recorder_inline");
  RecorderOptions o;
  o.background = false;
  WriteClip(o, dir + "/inline.mkv", false);
  ExpectClip(dir + "/inline.mkv");
}

TEST(Recorder, LogAloneAndBadOptions) {
  const std::string dir = testing::TempDir("recorder_log");
  {
    Recorder r({}, "", dir + "/only.jsonl", cv::Size(64, 48));
    for (int k = 0; k < 3; ++k) r.Write(cv::Mat(48, 64, CV_8UC3, cv::Scalar::all(0)), nlohmann::json{{"frame", k}});
    EXPECT_EQ(r.frames(), 3);
  }  // the destructor closes
  const std::vector<nlohmann::json> lines = ReadLines(dir + "/only.jsonl");
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[2]["frame"], 2);
  RecorderOptions bad;
  bad.queue_frames = 0;
  std::string error;
  EXPECT_FALSE(bad.Check(&error));
  EXPECT_NE(error.find("queue_frames"), std::string::npos);
  EXPECT_THROW(Recorder(bad, dir + "/x.mkv", "", cv::Size(64, 48)), std::exception);
}

}  // namespace
}  // namespace vedette::pipeline
