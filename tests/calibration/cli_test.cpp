// `vedette calibrate` and `vedette print` end to end: exit status, what they print, the files they
// write, and how bad input is reported (exit 2, "vedette: FILE: what is wrong" on stderr).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>

#include "calibration/camera_model.h"
#include "tests/app/run_command.h"
#include "tests/calibration/calibration_test_util.h"
#include "tests/calibration/scoped_temp_dir.h"

namespace vedette::calib {
namespace {

using vedette::testing::ReadFile;
using vedette::testing::RunVedette;
using vedette::testing::ScopedTempDir;
using testing::RealData;
using vedette::testing::kSampleRoster;

int Count(const std::string& text, const std::string& what) {
  int n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(CalibrateCli, ChessboardPhotosWriteACameraFileLoadIntrinsicsReads) {
  std::string images;
  for (int i : {1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 14}) images += " " + RealData(cv::format("chessboard/left%02d.jpg", i));
  const ScopedTempDir dir("cli_calibrate");
  const std::string out = dir.File("cam.yaml");
  const auto r = RunVedette("calibrate --board chessboard:9x6:25 --out " + out + images);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("13 of 13 views used"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("wrote " + out), std::string::npos) << r.out;
  const CameraIntrinsics k = LoadIntrinsics(out);
  EXPECT_NEAR(k.camera_matrix(0, 0), 533, 10);
  EXPECT_EQ(k.image_size, cv::Size(640, 480));
  EXPECT_LT(k.avg_reprojection_error_px, 0.5);
}

TEST(CalibrateCli, TooUncertainACalibrationIsRefusedNotWritten) {
  // The aruco tutorial's 4 ChArUco photos pin fx only to +- 12 %: refused (exit 2), with the reason
  // and the views to add, and no file (it used to be written with a warning).
  std::string images;
  for (int i = 0; i < 4; ++i) images += " " + RealData(cv::format("aruco/img_%02d.jpg", i));
  const ScopedTempDir dir("cli_calib_uncertain");
  const std::string out = dir.File("charuco4.yaml");
  const auto r = RunVedette("calibrate --board charuco:5x7:40:20:DICT_6X6_250 --out " + out + images);
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_NE(r.err.find("vedette: " + out + ": not written: the calibration is too uncertain to use:\n  fx is uncertain by"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("add views with the board tilted 20-40 deg"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(out));
}

TEST(CalibrateCli, BadInputExitsTwoNamingTheProblem) {
  const ScopedTempDir dir("cli_calibrate_bad");
  const std::string out = dir.File("bad.yaml");
  auto r = RunVedette("calibrate --board chessboard:9x6 --out " + out + " " + RealData("chessboard/left01.jpg"));
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_NE(r.err.find("vedette: --board: 'chessboard:9x6': a chessboard has 3 fields"), std::string::npos) << r.err;

  r = RunVedette("calibrate --board chessboard:9x6:25 --out " + out + " /nonexistent/left.jpg");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("vedette: /nonexistent/left.jpg: image file not found"), std::string::npos) << r.err;

  // Two views of the board and one photo without it: too few, and each file's problem is named.
  r = RunVedette("calibrate --board chessboard:9x6:25 --out " + out + " " + RealData("chessboard/left01.jpg") + " " +
                 RealData("chessboard/left02.jpg") + " " + RealData("aruco/singlemarkersoriginal.jpg"));
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("only 2 usable view(s) of the board, need at least 3"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("singlemarkersoriginal.jpg: the board chessboard:9x6:25 was not found"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(out));
}

TEST(PrintCli, MarkersAndBoard) {
  const ScopedTempDir temp("cli_print");
  const std::string dir = temp.str();
  auto r = RunVedette("print markers --dict DICT_4X4_50 --ids 10-49 --size-mm 16 --out " + dir + "/sheet.svg");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("wrote " + dir + "/sheet.svg"), std::string::npos) << r.out;
  EXPECT_TRUE(std::filesystem::exists(dir + "/sheet.svg"));

  r = RunVedette("print board charuco:5x7:30:22:DICT_4X4_50 --paper letter --out " + dir + "/board.png --png-dpi 100");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(std::filesystem::exists(dir + "/board.png"));

  r = RunVedette("print markers --dict DICT_4X4_50 --ids 40-60 --out " + dir + "/x.svg");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("marker 50 is not in DICT_4X4_50 (IDs 0..49)"), std::string::npos) << r.err;
  r = RunVedette("print markers --ids 1-3 --paper a3 --out " + dir + "/x.svg");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--paper"), std::string::npos) << r.err;
}

TEST(PrintCli, RosterSheetHoldsTheRostersMarkers) {
  const ScopedTempDir dir("cli_print_roster");
  const std::string svg_path = dir.File("markers.svg");
  auto r = RunVedette("print markers --roster " + kSampleRoster + " --out " + svg_path);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("wrote " + svg_path), std::string::npos) << r.out;
  const std::string svg = ReadFile(svg_path);
  EXPECT_EQ(Count(svg, "<g id=\"marker-"), 16);  // anchors 0-3 and the 12 units' markers 10-21
  EXPECT_EQ(Count(svg, "<g id=\"marker-2\">"), 1);
  EXPECT_EQ(Count(svg, "<g id=\"marker-21\">"), 1);
  EXPECT_NE(svg.find(">anchor 0 (50 mm)</text>"), std::string::npos);
  EXPECT_NE(svg.find(">B1 \u00b7 10</text>"), std::string::npos);
  EXPECT_NE(svg.find(">RA \u00b7 21</text>"), std::string::npos);
  EXPECT_NE(svg.find("totsk_small.yaml \u00b7 page 1 of 1</text>"), std::string::npos);

  r = RunVedette("print markers --roster " + kSampleRoster + " --paper letter --png-dpi 100 --out " + dir.File("m.png"));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(std::filesystem::exists(dir.File("m.png")));

  // A roster names its own dictionary, IDs and sizes: giving them too is refused.
  for (const std::string extra : {"--ids 1-3", "--dict DICT_4X4_50", "--size-mm 20"}) {
    r = RunVedette("print markers --roster " + kSampleRoster + " " + extra + " --out " + dir.File("x.svg"));
    EXPECT_EQ(r.status, 2) << extra;
    EXPECT_NE(r.err.find("--roster excludes " + extra.substr(0, extra.find(' '))), std::string::npos) << r.err;
  }
  r = RunVedette("print markers --out " + dir.File("x.svg"));
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("give --roster R.yaml, or --ids"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir.File("x.svg")));
}

TEST(PrintCli, BadRostersExitTwoNamingTheFile) {
  const ScopedTempDir dir("cli_print_bad_roster");
  auto write = [&](const std::string& name, const std::string& text) {
    std::ofstream(dir.File(name)) << text;
    return dir.File(name);
  };
  const std::string unit = "{id: B1, side: blue, type: infantry, base: {width_mm: 40, depth_mm: 30}, marker: 10}";
  const std::string anchors =
      "anchors:\n  - {marker: 0, x_mm: 40, y_mm: 40}\n  - {marker: 1, x_mm: 1160, y_mm: 40}\n"
      "  - {marker: 2, x_mm: 1160, y_mm: 860}\n";
  const std::string no_dict = write("no_dict.yaml", "bw_mm: 40\n" + anchors + "units:\n  - " + unit + "\n");
  const std::string no_anchors = write("no_anchors.yaml", "bw_mm: 40\ndictionary: DICT_4X4_50\nunits:\n  - " + unit + "\n");
  const std::string outside = write("outside.yaml", "bw_mm: 40\ndictionary: DICT_4X4_50\n" + anchors + "units:\n  - " + unit +
                                                        "\n  - {id: B7, side: blue, type: infantry, base: {width_mm: 40, depth_mm: 30}, marker: 60}\n");
  // The same loader as every other --roster (calib::LoadRoster), so the same messages.
  const std::pair<std::string, std::string> cases[] = {
      {no_dict, "vedette: " + no_dict + ": the roster names no `dictionary:`"},
      {no_anchors, "vedette: " + no_anchors + ": the roster lists 0 anchors"},
      {outside, "vedette: " + outside + ":9: unit B7: marker 60 is not in DICT_4X4_50 (its IDs are 0-49)"},
      {dir.File("missing.yaml"), "vedette: " + dir.File("missing.yaml") + ":"},
  };
  for (const auto& [roster, message] : cases) {
    const auto r = RunVedette("print markers --roster " + roster + " --out " + dir.File("x.svg"));
    EXPECT_EQ(r.status, 2) << roster;
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_EQ(r.err.rfind(message, 0), 0u) << r.err;
  }
  EXPECT_FALSE(std::filesystem::exists(dir.File("x.svg")));
}

TEST(PrintCli, BoardTooLargeForThePaperIsRefusedWithASizeThatFits) {
  const ScopedTempDir dir("cli_print_board");
  const std::string out = dir.File("board.svg");
  auto r = RunVedette("print board charuco:5x7:40:20:DICT_6X6_250 --paper a4 --out " + out);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("it does not fit A4 (210 x 297 mm with 10 mm margins"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(out));
  std::smatch suggestion;
  ASSERT_TRUE(std::regex_search(r.err, suggestion, std::regex("; (charuco:\\S+) fits"))) << r.err;
  r = RunVedette("print board " + suggestion[1].str() + " --paper a4 --out " + out);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(ReadFile(out).find("width=\"210mm\" height=\"297mm\""), std::string::npos);

  r = RunVedette("print board charuco:5x7:40:20:DICT_6X6_250 --paper letter --out " + out + " --force");  // out exists
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("it does not fit Letter (215.9 x 279.4 mm"), std::string::npos) << r.err;
  // Asked for, a page of the board's own size: 200 + 2 x 10 quiet + 2 x 10 margin = 240 mm wide,
  // 280 + 2 x 10 + 12 caption + 2 x 10 = 332 mm high.
  r = RunVedette("print board charuco:5x7:40:20:DICT_6X6_250 --paper none --out " + out + " --force");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(ReadFile(out).find("width=\"240mm\" height=\"332mm\""), std::string::npos);
}

}  // namespace
}  // namespace vedette::calib
