// `vedette calibrate` and `vedette print` end to end: exit status, what they print, the files they
// write, and how bad input is reported (exit 2, "vedette: FILE: what is wrong" on stderr).
#include <gtest/gtest.h>

#include <filesystem>

#include "calibration/camera_model.h"
#include "tests/app/run_command.h"

namespace vedette::calib {
namespace {

using vedette::testing::RunVedette;

std::string RealData(const std::string& name) { return std::string(VEDETTE_REALDATA) + "/" + name; }

std::string TempDir() {
  const auto dir = std::filesystem::temp_directory_path() / ("vedette_cli_calib_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return dir.string();
}

TEST(CalibrateCli, ChessboardPhotosWriteACameraFileLoadIntrinsicsReads) {
  std::string images;
  for (int i : {1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 14}) images += " " + RealData(cv::format("chessboard/left%02d.jpg", i));
  const std::string out = TempDir() + "/cam.yaml";
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
  const std::string out = TempDir() + "/charuco4.yaml";
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
  const std::string out = TempDir() + "/bad.yaml";
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
  const std::string dir = TempDir();
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

}  // namespace
}  // namespace vedette::calib
