// Every subcommand against a corpus of bad files made from the shipped samples: empty, binary,
// truncated, wrong types, NaN and huge numbers, duplicate ids, deep nesting, a folder where a file
// belongs, a text file named .mkv, a 1x1 image, a camera file for another resolution, a log that
// is not ours. Each run must exit 2 with one message that names the file (and its line where the
// problem is at one), within 60 s, and leave every output that existed before byte for byte
// unchanged (outputs are given with --force, so nothing but the input check stands in the way).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <opencv2/imgcodecs.hpp>

#include "tests/app/run_command.h"

namespace vedette {
namespace {

namespace fs = std::filesystem;
using testing::CommandResult;
using testing::ReadFile;
using testing::RunShell;
using testing::TestFolder;

using testing::kBin;
const fs::path kAssetsPath = testing::kAssets;

// The good inputs every case starts from, made once: the sample scene and roster, a camera file
// and a short video of the roster's table from `clip`, and a photo of it from `render`.
class Inputs {
 public:
  static const Inputs& Get() {
    static const Inputs inputs;
    return inputs;
  }
  fs::path dir() const { return dir_.path(); }
  std::string scene, roster;

 private:
  Inputs() {
    scene = ReadFile(kAssetsPath / "scenes/sample_totsk.yaml");
    roster = ReadFile(testing::kSampleRoster);
    std::ofstream(dir_ / "clip.yaml") << "roster: " << (kAssetsPath / "scenes/totsk_small_table.yaml").string()
                                      << "\nfps: 10\nduration_s: 0.3\ncamera: {image_size: [960, 540]}\n"
                                         "render: {supersample: 1, jpeg_quality: 0}\n";
    const CommandResult c = RunShell(kBin + " clip " + (dir_ / "clip.yaml") + " --video " + (dir_ / "table.mkv") +
                                     " --calib-out " + (dir_ / "cam.yaml"));
    EXPECT_EQ(c.status, 0) << c.err;
    const CommandResult r = RunShell(kBin + " render " + (kAssetsPath / "scenes/totsk_small_table.yaml").string() + " --calib " +
                                     (dir_ / "cam.yaml") + " --out " + (dir_ / "photo.png"));
    EXPECT_EQ(r.status, 0) << r.err;
  }
  TestFolder dir_;
};

// `text` with the first `from` replaced by `to`, and the 1-based line where that happened.
struct Mutated {
  std::string text;
  int line = 0;
};
// `line_of`: the line to report instead (the start of the entry that holds `from`).
Mutated Mutate(const std::string& text, const std::string& from, const std::string& to, const std::string& line_of = "") {
  const size_t at = text.find(from);
  if (at == std::string::npos) {
    ADD_FAILURE() << "the sample no longer holds '" << from << "'";
    return {text, 0};
  }
  const size_t line_at = line_of.empty() ? at : text.rfind(line_of, at);
  Mutated m{text, static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(line_at), '\n')) + 1};
  m.text.replace(at, from.size(), to);
  return m;
}

// One bad file and the commands that read it. In `command`, {BAD} is the bad file, {DIR} the
// case's folder, {IN} the folder of the good inputs.
struct BadFile {
  std::string name;      // what is wrong, for the report
  std::string file;      // its name in the case's folder ("" = {BAD} is a folder)
  std::string content;
  int line = 0;          // the line the message must name (0: any or none)
  std::function<void(const fs::path&)> make = nullptr;  // instead of content (images, folders)
};

struct Case {
  BadFile bad;
  std::string command;
};

std::string Expand(std::string s, const std::map<std::string, std::string>& vars) {
  for (const auto& [k, v] : vars)
    for (size_t at; (at = s.find(k)) != std::string::npos;) s.replace(at, k.size(), v);
  return s;
}

// Outputs that exist before a run, with their bytes.
const std::map<std::string, std::string> kOutputs = {
    {"out.mkv", "an earlier recording"}, {"out.jsonl", "{\"log\":\"earlier\"}\n"}, {"out.png", "an earlier picture"},
    {"events.jsonl", "earlier events\n"},  {"new_roster.yaml", "# an earlier roster\n"}, {"new_cam.yaml", "%YAML:1.0\n"}};

void RunCase(const Case& c) {
  const Inputs& in = Inputs::Get();
  TestFolder dir;
  const fs::path bad = dir / (c.bad.file.empty() ? "bad_folder" : c.bad.file);
  if (c.bad.make) c.bad.make(bad);
  else std::ofstream(bad, std::ios::binary) << c.bad.content;
  for (const auto& [name, bytes] : kOutputs) std::ofstream(dir / name, std::ios::binary) << bytes;
  const std::string command =
      Expand(c.command, {{"{BAD}", bad.string()}, {"{DIR}", dir.path().string()}, {"{IN}", in.dir().string()}});
  const CommandResult r = RunShell("cd " + dir.path().string() + " && timeout 60 " + kBin + " --force " + command);
  SCOPED_TRACE(c.bad.name + ": vedette " + command);
  EXPECT_NE(r.status, 124) << "hangs";
  EXPECT_EQ(r.status, 2) << "exit 2 for bad input; stderr: " << r.err;
  const std::string where = bad.string() + (c.bad.line > 0 ? ":" + std::to_string(c.bad.line) + ":" : "");
  EXPECT_NE(r.err.find(where), std::string::npos) << "the message names " << where << ": " << r.err;
  EXPECT_EQ(r.err.find("GStreamer"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("OpenCV("), std::string::npos) << "raw OpenCV text: " << r.err;
  EXPECT_LE(std::count(r.err.begin(), r.err.end(), '\n'), 3) << "one message, not a wall: " << r.err;
  for (const auto& [name, bytes] : kOutputs) EXPECT_EQ(ReadFile(dir / name), bytes) << name << " was touched";
}

// Scene-file faults, from the sample scene.
std::vector<BadFile> BadScenes() {
  const std::string s = Inputs::Get().scene;
  auto m = [&](const std::string& name, const std::string& from, const std::string& to) {
    const Mutated x = Mutate(s, from, to);
    return BadFile{name, "scene.yaml", x.text, x.line};
  };
  std::string deep = "units: ";
  for (int i = 0; i < 200; ++i) deep += "[";
  return {
      {"empty scene", "scene.yaml", ""},
      {"binary scene", "scene.yaml", std::string("\x89PNG\r\n\x1a\n\0\0\0\rIHDR\xff\xfe", 18)},
      {"truncated scene", "scene.yaml", s.substr(0, s.find("pose: {x_mm: 541") + 12)},
      m("a number that is a word", "x_mm: 500", "x_mm: five hundred"),
      m("NaN position", "x_mm: 541", "x_mm: .nan"),
      m("1e308 position", "y_mm: 370", "y_mm: 1e308"),
      m("duplicate id", "id: B2", "id: B1"),
      m("a list for a number", "bw_mm: 40", "bw_mm: [40]"),
      m("negative base width", "base: {width_mm: 40, depth_mm: 30}", "base: {width_mm: -40, depth_mm: 30}"),
      m("unknown formation", "formation: unlimbered", "formation: blob"),
      m("an id of 40,000 characters", "id: R2", "id: " + std::string(40000, 'R')),
      {"nesting 200 deep", "scene.yaml", deep},
      {"a folder", "", "", 0, [](const fs::path& p) { fs::create_directory(p); }},
  };
}

// Roster faults, from the sample roster.
std::vector<BadFile> BadRosters() {
  const std::string s = Inputs::Get().roster;
  auto m = [&](const std::string& name, const std::string& from, const std::string& to, const std::string& line_of = "") {
    const Mutated x = Mutate(s, from, to, line_of);
    return BadFile{name, "roster.yaml", x.text, x.line};
  };
  return {
      {"empty roster", "roster.yaml", ""},
      m("unknown dictionary", "dictionary: DICT_4X4_50", "dictionary: DICT_9X9_1"),
      m("marker outside the dictionary", "marker: 11,", "marker: 999,", "{id: B2"),
      m("the same marker twice", "marker: 11,", "marker: 10,"),
      m("NaN marker size", "marker_size_mm: 18, marker_offset_mm: [0, -3], marker_heading_deg: 0, marker_height_mm: 3}\n  - {id: B2",
        "marker_size_mm: .nan, marker_offset_mm: [0, -3], marker_heading_deg: 0, marker_height_mm: 3}\n  - {id: B2"),
      // Longer than a file name may be: looking it up as a dictionary file threw filesystem_error
      // (found by the roster fuzzer).
      m("a dictionary name of 600 characters", "dictionary: DICT_4X4_50", "dictionary: " + std::string(600, 'D')),
  };
}

// The camera file with its camera_matrix's first entry (fx) made NaN.
std::string NanFirstEntry(std::string cam) {
  const size_t at = cam.find("data: [ ") + 8;
  return cam.replace(at, cam.find(',', at) - at, ".nan");
}

std::vector<BadFile> BadCameras() {
  const std::string good = ReadFile(Inputs::Get().dir() / "cam.yaml");
  const Mutated other = Mutate(Mutate(good, "image_width: 960", "image_width: 640").text, "image_height: 540", "image_height: 480");
  return {
      {"empty camera file", "cam.yaml", ""},
      {"binary camera file", "cam.yaml", std::string("\0\1\2\3\xff\xfe\xfd", 7)},
      {"truncated camera file", "cam.yaml", good.substr(0, good.find("distortion_coefficients"))},
      {"camera file for 640x480", "cam.yaml", other.text},
      {"NaN focal length", "cam.yaml", NanFirstEntry(good)},
  };
}

std::vector<BadFile> BadImages() {
  return {
      {"1x1 image", "photo.png", "", 0, [](const fs::path& p) { cv::imwrite(p.string(), cv::Mat(1, 1, CV_8UC3, cv::Scalar::all(128))); }},
      {"text named .png", "photo.png", "this is not a picture\n"},
      {"empty image", "photo.png", ""},
      {"a folder", "", "", 0, [](const fs::path& p) { fs::create_directory(p); }},
  };
}

std::vector<BadFile> BadVideos() {
  return {
      {"text named .mkv", "table.mkv", "this is not a video\n"},
      {"empty video", "table.mkv", ""},
      {"a folder", "", "", 0, [](const fs::path& p) { fs::create_directory(p); }},
  };
}

const std::string kCam = "{IN}/cam.yaml";
using testing::kSampleRoster;

TEST(BadInput, SceneCommands) {
  for (const BadFile& b : BadScenes())
    for (const std::string& cmd : std::vector<std::string>{"analyze {BAD}", "measure {BAD} --from B1 --to R1", "check-move {BAD} --unit B1 --to 500,410,90",
                                  "render {BAD} --camera 640x360 --out out.png"})
      RunCase({b, cmd});
}

TEST(BadInput, RosterCommands) {
  for (const BadFile& b : BadRosters())
    for (const std::string& cmd : std::vector<std::string>{"locate --image {IN}/photo.png --calib " + kCam + " --roster {BAD}",
                                  "dispute --image {IN}/photo.png --calib " + kCam + " --roster {BAD} --from B1 --to R1",
                                  "check --image {IN}/photo.png --calib " + kCam + " --roster {BAD}",
                                  "track --video {IN}/table.mkv --calib " + kCam + " --roster {BAD} --events events.jsonl",
                                  "process --video {IN}/table.mkv --calib " + kCam + " --roster {BAD} --out out.mkv --quiet"})
      RunCase({b, cmd});
}

TEST(BadInput, CameraFiles) {
  for (const BadFile& b : BadCameras())
    for (const std::string& cmd : std::vector<std::string>{"locate --image {IN}/photo.png --calib {BAD} --roster " + kSampleRoster,
                                  "process --video {IN}/table.mkv --calib {BAD} --roster " + kSampleRoster + " --out out.mkv --quiet",
                                  "track --video {IN}/table.mkv --calib {BAD} --roster " + kSampleRoster + " --events events.jsonl"})
      RunCase({b, cmd});
}

TEST(BadInput, ImagesAndVideos) {
  for (const BadFile& b : BadImages())
    for (const std::string& cmd : std::vector<std::string>{"detect --image {BAD} --dict DICT_4X4_50", "locate --image {BAD} --calib " + kCam + " --roster " + kSampleRoster,
                                  "roster --image {BAD} --calib " + kCam + " --from " + kSampleRoster + " --out new_roster.yaml"})
      RunCase({b, cmd});
  // A picture larger than any webcam's is blamed on the picture, not the camera file.
  const BadFile huge{"a 12000x12000 picture", "photo.png", "", 0,
                     [](const fs::path& p) { cv::imwrite(p.string(), cv::Mat(12000, 12000, CV_8UC1, cv::Scalar::all(0))); }};
  RunCase({huge, "locate --image {BAD} --calib " + kCam + " --roster " + kSampleRoster});
  for (const BadFile& b : BadVideos())
    for (const std::string& cmd : std::vector<std::string>{"process --video {BAD} --calib " + kCam + " --roster " + kSampleRoster + " --out out.mkv --quiet",
                                  "track --video {BAD} --calib " + kCam + " --roster " + kSampleRoster + " --events events.jsonl"})
      RunCase({b, cmd});
}

TEST(BadInput, ClipScriptsAndLogs) {
  for (const BadFile& b : std::vector<BadFile>{{"empty clip script", "s.clip.yaml", ""},
                                              {"clip script with a NaN", "s.clip.yaml", "roster: " + kSampleRoster + "\nfps: .nan\nduration_s: 1\n", 2},
                                              {"clip script without a roster", "s.clip.yaml", "fps: 10\nduration_s: 1\n"}})
    RunCase({b, "clip {BAD} --video out.mkv"});
  for (const BadFile& b : std::vector<BadFile>{{"empty log", "log.jsonl", ""},
                                              {"not our log", "log.jsonl", "{\"hello\": 1}\n", 1},
                                              {"damaged log", "log.jsonl", "{\"log\":\"vedette\",\"log_version\":2}\n{\"frame\":0,\"t\":0}\n{oops\n{\"frame\":1,\"t\":1}\n", 3}})
    RunCase({b, "review {BAD}"});
}

}  // namespace
}  // namespace vedette
