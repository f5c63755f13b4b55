// Printable sheets: the SVG is parsed back (page size in mm, marker size, cell count) and the PNG is
// decoded with OpenCV's own marker detector.
#include "calibration/print_sheet.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include <opencv2/aruco.hpp>
#include <opencv2/aruco/charuco.hpp>
#include <opencv2/imgcodecs.hpp>

#include "calibration/dictionary.h"
#include "rules/input_error.h"

namespace vedette::calib {
namespace {

std::string TempDir() {
  const auto dir = std::filesystem::temp_directory_path() / "vedette_print_test";
  std::filesystem::create_directories(dir);
  return dir.string();
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

struct ParsedRect {
  double x, y, w, h;
  std::string fill;
};

// The <rect> elements inside <g id="marker-N"> groups of an SVG, by marker ID.
std::map<int, std::vector<ParsedRect>> MarkerGroups(const std::string& svg) {
  std::map<int, std::vector<ParsedRect>> out;
  static const std::regex group_re("<g id=\"marker-([0-9]+)\">([^]*?)</g>");
  static const std::regex rect_re(
      "<rect x=\"([-0-9.]+)\" y=\"([-0-9.]+)\" width=\"([0-9.]+)\" height=\"([0-9.]+)\" fill=\"(#[0-9a-f]+)\"/>");
  for (auto g = std::sregex_iterator(svg.begin(), svg.end(), group_re); g != std::sregex_iterator(); ++g) {
    const std::string body = (*g)[2];
    auto& rects = out[std::stoi((*g)[1])];
    for (auto r = std::sregex_iterator(body.begin(), body.end(), rect_re); r != std::sregex_iterator(); ++r)
      rects.push_back({std::stod((*r)[1]), std::stod((*r)[2]), std::stod((*r)[3]), std::stod((*r)[4]), (*r)[5]});
  }
  return out;
}

TEST(ParseIdList, RangesAndErrors) {
  EXPECT_EQ(ParseIdList("10-13"), (std::vector<int>{10, 11, 12, 13}));
  EXPECT_EQ(ParseIdList("0,3,7-9"), (std::vector<int>{0, 3, 7, 8, 9}));
  EXPECT_THROW(ParseIdList("9-7"), InputError);
  EXPECT_THROW(ParseIdList("a-b"), InputError);
  EXPECT_THROW(ParseIdList("1,1"), InputError);
  EXPECT_THROW(ParseIdList(""), InputError);
}

TEST(PrintMarkers, SvgIsExactScaleWithOneRectPerBlackCell) {
  MarkerSheetOptions o;
  o.ids = ParseIdList("10-49");
  o.size_mm = 16;
  const auto pages = LayoutMarkerSheet(o);
  ASSERT_EQ(pages.size(), 1u);  // 40 tiles of 21.3 x 25.8 mm fit one A4 page (8 x 9)
  const std::string path = TempDir() + "/sheet.svg";
  ASSERT_EQ(WritePages(pages, path, 300), std::vector<std::string>{path});
  const std::string svg = ReadFile(path);
  EXPECT_NE(svg.find("width=\"210mm\" height=\"297mm\" viewBox=\"0 0 210 297\""), std::string::npos);

  const auto groups = MarkerGroups(svg);
  ASSERT_EQ(groups.size(), 40u);
  const auto dictionary = DictionaryByName("DICT_4X4_50");
  for (int id = 10; id <= 49; ++id) {
    ASSERT_TRUE(groups.count(id)) << "marker " << id;
    const auto& rects = groups.at(id);
    const cv::Mat cells = MarkerCells(*dictionary, id);
    int black_rects = 0;
    double min_x = 1e9, max_x = -1e9, min_y = 1e9, max_y = -1e9;
    for (const auto& r : rects) {
      if (r.fill != "#000") continue;
      ++black_rects;
      EXPECT_NEAR(r.w, 16.0 / 6, 1e-3);  // 4x4 bits + border: 6 cells of 2.667 mm
      EXPECT_NEAR(r.h, 16.0 / 6, 1e-3);
      min_x = std::min(min_x, r.x), max_x = std::max(max_x, r.x + r.w);
      min_y = std::min(min_y, r.y), max_y = std::max(max_y, r.y + r.h);
    }
    EXPECT_EQ(black_rects, 36 - cv::countNonZero(cells)) << "marker " << id;
    // The black border makes the black extent exactly the 16 mm square.
    EXPECT_NEAR(max_x - min_x, 16.0, 1e-3);
    EXPECT_NEAR(max_y - min_y, 16.0, 1e-3);
    // A white quiet zone of one cell (2.667 mm) on every side.
    ASSERT_FALSE(rects.empty());
    EXPECT_EQ(rects[0].fill, "#fff");
    EXPECT_NEAR(min_x - rects[0].x, 16.0 / 6, 1e-3);
    EXPECT_NEAR(min_y - rects[0].y, 16.0 / 6, 1e-3);
  }
  EXPECT_NE(svg.find(">10</text>"), std::string::npos);
  EXPECT_NE(svg.find("stroke-dasharray"), std::string::npos);
}

TEST(PrintMarkers, ManyMarkersMakeNumberedPagesOnLetter) {
  MarkerSheetOptions o;
  o.ids = ParseIdList("0-249");
  o.dictionary = "DICT_4X4_250";
  o.size_mm = 20;
  o.paper = Paper::kLetter;
  const auto pages = LayoutMarkerSheet(o);
  ASSERT_GT(pages.size(), 1u);
  size_t total = 0;
  for (const auto& p : pages) {
    total += p.markers.size();
    EXPECT_NEAR(p.size_mm.width, 215.9, 1e-9);
    for (const auto& m : p.markers) {
      // Every tile on the paper inside the 10 mm margin.
      EXPECT_GE(m.quiet_mm.x, 10 - 1e-9);
      EXPECT_LE(m.quiet_mm.x + m.quiet_mm.width, 215.9 - 10 + 1e-9);
      EXPECT_LE(m.quiet_mm.y + m.quiet_mm.height, 279.4 - 10 + 1e-9);
    }
  }
  EXPECT_EQ(total, 250u);
  const std::string path = TempDir() + "/many.svg";
  const auto files = WritePages(pages, path, 300);
  ASSERT_EQ(files.size(), pages.size());
  EXPECT_EQ(files[0], TempDir() + "/many-1.svg");
  EXPECT_TRUE(std::filesystem::exists(TempDir() + "/many-2.svg"));
  EXPECT_THROW(LayoutMarkerSheet([] {
                 MarkerSheetOptions bad;
                 bad.ids = {50};  // DICT_4X4_50 holds 0..49
                 return bad;
               }()),
               InputError);
}

TEST(PrintMarkers, PngDecodesToTheRightIdsAtTheRightScale) {
  MarkerSheetOptions o;
  o.ids = ParseIdList("10-29");
  o.size_mm = 16;
  const std::string path = TempDir() + "/sheet.png";
  WritePages(LayoutMarkerSheet(o), path, 200);
  const cv::Mat img = cv::imread(path, cv::IMREAD_GRAYSCALE);
  ASSERT_EQ(img.cols, 1654);  // 210 mm at 200 dpi
  ASSERT_EQ(img.rows, 2339);
  std::vector<std::vector<cv::Point2f>> corners;
  std::vector<int> ids;
  cv::aruco::detectMarkers(img, DictionaryByName("DICT_4X4_50"), corners, ids);
  std::vector<int> sorted = ids;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(sorted, ParseIdList("10-29"));
  // Each marker's side is 16 mm = 126 px at 200 dpi (corners within a pixel or two).
  for (const auto& c : corners) EXPECT_NEAR(cv::norm(c[1] - c[0]), 16 / 25.4 * 200, 2.0);
}

TEST(PrintBoard, CharucoSvgAndPngDetectAsTheBoard) {
  const BoardSpec spec = ParseBoardSpec("charuco:5x7:30:22:DICT_4X4_50");
  std::string note;
  const SheetPage page = LayoutBoardSheet({}, spec, &note);
  EXPECT_TRUE(note.empty()) << note;
  EXPECT_NEAR(page.board_mm.width, 150, 1e-9);
  EXPECT_NEAR(page.board_mm.height, 210, 1e-9);
  const std::string svg_path = TempDir() + "/board.svg";
  WritePages({page}, svg_path, 300);
  EXPECT_NE(ReadFile(svg_path).find("<g id=\"board\">"), std::string::npos);

  const std::string png_path = TempDir() + "/board.png";
  WritePages({page}, png_path, 150);
  const cv::Mat img = cv::imread(png_path, cv::IMREAD_GRAYSCALE);
  const auto board = MakeCharucoBoard(spec);
  std::vector<std::vector<cv::Point2f>> corners;
  std::vector<int> ids;
  cv::aruco::detectMarkers(img, board->dictionary, corners, ids);
  EXPECT_EQ(ids.size(), 17u);
  std::vector<cv::Point2f> charuco;
  std::vector<int> charuco_ids;
  cv::aruco::interpolateCornersCharuco(corners, ids, img, board, charuco, charuco_ids);
  EXPECT_EQ(charuco_ids.size(), 24u);  // every inner corner
  // A chessboard that does not fit on A4 gets its own page size, with a note.
  const SheetPage big = LayoutBoardSheet({}, ParseBoardSpec("chessboard:12x9:30"), &note);
  EXPECT_FALSE(note.empty());
  EXPECT_NEAR(big.board_mm.width, 390, 1e-9);
  EXPECT_THROW(WritePages({page}, TempDir() + "/board.pdf", 300), InputError);
}

}  // namespace
}  // namespace vedette::calib
