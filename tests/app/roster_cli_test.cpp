// The player's files through every command that reads a roster: the sample roster (no poses) is
// accepted everywhere, and what would fail at the table is refused up front with the file, the
// line and what to do, exit 2, and no output written.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <regex>

#include "tests/app/run_command.h"

namespace vedette {
namespace {

using testing::ReadFile;
using testing::RunVedette;
namespace fs = std::filesystem;

using testing::kAssets;
using testing::kSampleRoster;

class RosterCli : public ::testing::Test {
 protected:
  // A photo of the placed sample table (1600x1200: the 18 mm markers at 22 px, enough for `check`), its camera file, a short video
  // of it, and a camera file of another aspect ratio.
  static void SetUpTestSuite() {
    dir_ = fs::temp_directory_path() / ("vedette_roster_cli_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
    auto r = RunVedette("render " + kAssets + "/scenes/totsk_small_table.yaml --camera 1600x1200 --out " + Path("table.png") +
                        " --camera-out " + Path("cam.yaml"));
    ASSERT_EQ(r.status, 0) << r.err;
    r = RunVedette("render " + kAssets + "/scenes/totsk_small_table.yaml --camera 640x360 --out " + Path("wide.png") +
                   " --camera-out " + Path("wide.yaml"));
    ASSERT_EQ(r.status, 0) << r.err;
    const std::string ffmpeg = "ffmpeg -loglevel error -y -loop 1 -i " + Path("table.png") + " -frames:v 6 -c:v mjpeg -q:v 2 " +
                               Path("table.avi") + " </dev/null";
    ASSERT_EQ(std::system(ffmpeg.c_str()), 0);
  }
  static void TearDownTestSuite() { fs::remove_all(dir_); }
  static std::string Path(const std::string& name) { return (dir_ / name).string(); }

  // The sample roster with one text replacement, written beside the photo.
  static std::string Variant(const std::string& name, const std::string& from, const std::string& to) {
    std::string text = ReadFile(kSampleRoster);
    const auto at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) text.replace(at, from.size(), to);
    std::ofstream(Path(name)) << text;
    return Path(name);
  }

  static fs::path dir_;
};
fs::path RosterCli::dir_;

// Every command that takes --roster, with the photo, video and camera file where it needs them,
// and the outputs it would write.
std::vector<std::pair<std::string, std::vector<std::string>>> Commands(const std::string& roster, const std::string& calib,
                                                                       const std::string& dir) {
  const std::string image = dir + "/table.png", video = dir + "/table.avi";
  const std::string r = " --calib " + calib + " --roster " + roster;
  return {
      {"locate --image " + image + r + " --scene-out " + dir + "/out_scene.yaml", {dir + "/out_scene.yaml"}},
      {"dispute --image " + image + r + " --from B1 --to R1 --evidence " + dir + "/out_ev", {dir + "/out_ev.png", dir + "/out_ev.json"}},
      {"check --image " + image + r, {}},
      {"track --video " + video + r + " --events " + dir + "/out_events.jsonl --quiet", {dir + "/out_events.jsonl"}},
      {"process --video " + video + r + " --out " + dir + "/out.mkv --log " + dir + "/out.jsonl --quiet", {dir + "/out.mkv", dir + "/out.jsonl"}},
      {"live --video " + video + r + " --frames 3 --fast", {}},
      {"print markers --roster " + roster + " --out " + dir + "/out_sheet.svg", {dir + "/out_sheet.svg"}},
  };
}

TEST_F(RosterCli, TheSampleRosterWithoutPosesIsAcceptedByEveryCommand) {
  for (const auto& [args, outputs] : Commands(kSampleRoster, Path("cam.yaml"), dir_.string())) {
    if (args.rfind("live", 0) == 0 && !std::getenv("DISPLAY")) continue;  // the window needs a display
    const auto r = RunVedette(args);
    EXPECT_EQ(r.status, 0) << args << "\n" << r.err;
    EXPECT_EQ(r.err.find("missing field 'pose'"), std::string::npos) << args;
    for (const std::string& o : outputs) {
      EXPECT_TRUE(fs::exists(o)) << args << ": " << o;
      fs::remove(o);
    }
  }
}

TEST_F(RosterCli, ABadRosterIsRefusedByEveryCommandBeforeAnythingIsWritten) {
  struct Case {
    std::string name, from, to, message;
  };
  const Case cases[] = {
      {"twice.yaml", "marker: 11,", "marker: 10,", ":43: unit B2: marker 10 is already unit B1's"},
      {"outside.yaml", "marker: 11,", "marker: 999,", ":42: unit B2: marker 999 is not in DICT_4X4_50 (its IDs are 0-49)"},
      {"too_big.yaml", "marker: 11, marker_size_mm: 18,", "marker: 11, marker_size_mm: 30,",
       ":42: unit B2: its 30.0 mm marker needs a white margin of 2.5 mm on every side"},
      {"no_anchor.yaml", "  - {marker: 3, size_mm: 50, x_mm: 40, y_mm: 860, heading_deg: 90}\n", "",
       "the roster lists 3 anchors"},
  };
  for (const Case& c : cases) {
    const std::string roster = Variant(c.name, c.from, c.to);
    for (const auto& [args, outputs] : Commands(roster, Path("cam.yaml"), dir_.string())) {
      if (c.name == "no_anchor.yaml") continue;  // three anchors still register a table
      const auto r = RunVedette(args);
      EXPECT_EQ(r.status, 2) << args << "\n" << r.err;
      EXPECT_EQ(r.err.rfind("vedette: " + roster + c.message, 0), 0u) << args << "\n" << r.err;
      EXPECT_TRUE(r.out.empty()) << args << "\n" << r.out;
      for (const std::string& o : outputs) EXPECT_FALSE(fs::exists(o)) << args << ": " << o;
    }
  }
  // Two anchors cannot register a table.
  std::string two = ReadFile(kSampleRoster);
  two = std::regex_replace(two, std::regex("  - \\{marker: [23], size_mm: 50[^\\n]*\\n"), "");
  std::ofstream(Path("two_anchors.yaml")) << two;
  const auto r = RunVedette("locate --image " + Path("table.png") + " --calib " + Path("cam.yaml") + " --roster " +
                            Path("two_anchors.yaml"));
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("two_anchors.yaml: the roster lists 2 anchors; the table is registered from at least 3"),
            std::string::npos)
      << r.err;
}

TEST_F(RosterCli, ACalibrationOfAnotherShapeOfPictureIsRefusedNamingTheCameraFile) {
  for (const std::string command : {"locate", "dispute", "check"}) {
    std::string args = command + " --image " + Path("table.png") + " --calib " + Path("wide.yaml") + " --roster " + kSampleRoster;
    if (command == "dispute") args += " --from B1 --to R1";
    const auto r = RunVedette(args);
    EXPECT_EQ(r.status, 2) << args << "\n" << r.err;
    EXPECT_EQ(r.err.rfind("vedette: " + Path("wide.yaml") + ": calibrated at 640x360 but the stream is 1600x1200", 0), 0u)
        << args << "\n" << r.err;
    EXPECT_NE(r.err.find("calibrate again at this size"), std::string::npos) << r.err;
  }
  const auto r = RunVedette("process --video " + Path("table.avi") + " --calib " + Path("wide.yaml") + " --roster " + kSampleRoster +
                            " --log " + Path("mismatch.jsonl") + " --quiet");
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("wide.yaml: calibrated at 640x360"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(Path("mismatch.jsonl")));
}

TEST_F(RosterCli, AnchorsNeverSeenEndTheRunWithWhatToCheck) {
  // The same table, but the roster expects anchors 30-33, which are not on it.
  std::string text = ReadFile(kSampleRoster);
  for (int i = 0; i < 4; ++i)
    text = std::regex_replace(text, std::regex("\\{marker: " + std::to_string(i) + ", size_mm"),
                              "{marker: " + std::to_string(30 + i) + ", size_mm");
  std::ofstream(Path("far_anchors.yaml")) << text;
  const std::string r = " --calib " + Path("cam.yaml") + " --roster " + Path("far_anchors.yaml");
  for (const std::string& args : {"process --video " + Path("table.avi") + r + " --log " + Path("never.jsonl") + " --quiet",
                                  "track --video " + Path("table.avi") + r + " --events " + Path("never_events.jsonl") + " --quiet"}) {
    const auto out = RunVedette(args);
    EXPECT_EQ(out.status, 2) << args;
    EXPECT_NE(out.err.find("table.avi: the table was never registered: in no frame were 3 of the roster's anchors "
                           "(markers 30, 31, 32, 33 of DICT_4X4_50"),
              std::string::npos)
        << out.err;
    EXPECT_NE(out.err.find("vedette check"), std::string::npos) << out.err;
  }
  const auto d = RunVedette("dispute --image " + Path("table.png") + r + " --from B1 --to R1");
  EXPECT_EQ(d.status, 2);
  EXPECT_NE(d.err.find("saw 0 of the roster's 4 anchors"), std::string::npos) << d.err;
}

}  // namespace
}  // namespace vedette
