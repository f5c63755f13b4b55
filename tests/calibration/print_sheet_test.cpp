// Printable sheets: the SVG is parsed back (page size in mm, marker size, cell count) and the PNG is
// decoded with OpenCV's own marker detector. Roster sheets (assets/rosters/totsk_small.yaml: anchors
// 0-3 at 50 mm, units B1..RA with markers 10-21 at 18 mm) are checked marker by marker.
#include "calibration/print_sheet.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include <opencv2/aruco.hpp>
#include <opencv2/aruco/charuco.hpp>
#include <opencv2/imgcodecs.hpp>

#include "calibration/dictionary.h"
#include "rules/input_error.h"
#include "rules/scene/scene.h"
#include "tests/app/run_command.h"
#include "tests/calibration/calibration_test_util.h"
#include "tests/calibration/scoped_temp_dir.h"

namespace vedette::calib {
namespace {

using vedette::testing::kSampleRoster;
using vedette::testing::ScopedTempDir;

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
  o.markers = IdEntries(ParseIdList("10-49"), 16);
  const auto pages = LayoutMarkerSheet(o);
  ASSERT_EQ(pages.size(), 1u);  // 40 tiles of 21.3 x 25.8 mm fit one A4 page (8 x 9)
  const ScopedTempDir dir("print_svg");
  const std::string path = dir.File("sheet.svg");
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
  o.markers = IdEntries(ParseIdList("0-249"), 20);
  o.dictionary = "DICT_4X4_250";
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
  const ScopedTempDir dir("print_many");
  const auto files = WritePages(pages, dir.File("many.svg"), 300);
  ASSERT_EQ(files.size(), pages.size());
  EXPECT_EQ(files[0], dir.File("many-1.svg"));
  EXPECT_TRUE(std::filesystem::exists(dir.File("many-2.svg")));
  EXPECT_THROW(LayoutMarkerSheet([] {
                 MarkerSheetOptions bad;
                 bad.markers = IdEntries({50}, 16);  // DICT_4X4_50 holds 0..49
                 return bad;
               }()),
               InputError);
}

TEST(PrintMarkers, PngDecodesToTheRightIdsAtTheRightScale) {
  MarkerSheetOptions o;
  o.markers = IdEntries(ParseIdList("10-29"), 16);
  const ScopedTempDir dir("print_png");
  const std::string path = dir.File("sheet.png");
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
  const SheetPage page = LayoutBoardSheet({}, spec);
  const ScopedTempDir dir("print_board");
  EXPECT_NEAR(page.board_mm.width, 150, 1e-9);
  EXPECT_NEAR(page.board_mm.height, 210, 1e-9);
  const std::string svg_path = dir.File("board.svg");
  WritePages({page}, svg_path, 300);
  EXPECT_NE(ReadFile(svg_path).find("<g id=\"board\">"), std::string::npos);

  const std::string png_path = dir.File("board.png");
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
  EXPECT_THROW(WritePages({page}, dir.File("board.pdf"), 300), InputError);
}

// The message of the InputError `f` throws ("" when it throws none).
std::string InputErrorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

// Quiet zones on a page never overlap (neighbours may share a cut line), and every quiet zone and
// label sits inside the page's margins, each label just below its own marker's cut line.
void ExpectTidyPages(const std::vector<SheetPage>& pages, double margin) {
  for (size_t p = 0; p < pages.size(); ++p) {
    const SheetPage& page = pages[p];
    const cv::Rect2d printable(margin, margin, page.size_mm.width - 2 * margin, page.size_mm.height - 2 * margin);
    for (size_t i = 0; i < page.markers.size(); ++i) {
      const SheetMarker& m = page.markers[i];
      EXPECT_NEAR((m.quiet_mm & printable).area(), m.quiet_mm.area(), 1e-6) << "page " << p + 1 << ": marker " << m.id;
      for (size_t j = i + 1; j < page.markers.size(); ++j)
        EXPECT_LT((m.quiet_mm & page.markers[j].quiet_mm).area(), 1e-9)
            << "page " << p + 1 << ": markers " << m.id << " and " << page.markers[j].id << " overlap";
      const auto label = std::find_if(page.labels.begin(), page.labels.end(), [&](const SheetLabel& l) {
        return l.text == m.label && l.at_mm.x >= m.quiet_mm.x - 1e-9 && l.at_mm.x < m.quiet_mm.br().x &&
               l.at_mm.y > m.quiet_mm.br().y && l.at_mm.y <= m.quiet_mm.br().y + 2 * l.height_mm;
      });
      ASSERT_NE(label, page.labels.end()) << "page " << p + 1 << ": no label '" << m.label << "' under marker " << m.id;
      EXPECT_TRUE(printable.contains(label->at_mm)) << m.label;
    }
  }
}

// The black cells of a marker span exactly its square (the border is black all round).
double BlackExtentMm(const SheetMarker& m) {
  double min_x = 1e9, max_x = -1e9;
  for (const cv::Rect2d& r : m.black_cells_mm) min_x = std::min(min_x, r.x), max_x = std::max(max_x, r.br().x);
  return max_x - min_x;
}

// totsk_small.yaml: anchors 0-3 (50 mm), then B1 B2 B3 B4 BC BA R1 R2 R3 R4 RC RA with markers 10-21 (18 mm).
std::map<int, std::pair<double, std::string>> TotskSmallMarkers() {
  std::map<int, std::pair<double, std::string>> expected;
  for (int a = 0; a < 4; ++a) expected[a] = {50, "anchor " + std::to_string(a) + " (50 mm)"};
  const char* units[] = {"B1", "B2", "B3", "B4", "BC", "BA", "R1", "R2", "R3", "R4", "RC", "RA"};
  for (int i = 0; i < 12; ++i) expected[10 + i] = {18, std::string(units[i]) + " \u00b7 " + std::to_string(10 + i)};
  return expected;
}

class TotskRosterSheet : public ::testing::TestWithParam<Paper> {};

TEST_P(TotskRosterSheet, HoldsExactlyItsMarkersAtTheirSizesLabelledInsideTheMargins) {
  MarkerSheetOptions o = LoadRosterMarkerSheet(kSampleRoster);
  o.paper = GetParam();
  const auto pages = LayoutMarkerSheet(o);
  const auto expected = TotskSmallMarkers();
  std::map<int, int> seen;
  for (const SheetPage& page : pages) {
    EXPECT_EQ(page.size_mm, PaperSizeMm(o.paper));
    for (const SheetMarker& m : page.markers) {
      ++seen[m.id];
      ASSERT_TRUE(expected.count(m.id)) << "marker " << m.id << " is not in the roster";
      EXPECT_NEAR(m.square_mm.width, expected.at(m.id).first, 1e-9) << "marker " << m.id;
      EXPECT_NEAR(BlackExtentMm(m), expected.at(m.id).first, 1e-9) << "marker " << m.id;
      EXPECT_EQ(m.label, expected.at(m.id).second);
    }
    // Largest first: the anchors' rows lie above the unit markers' rows.
    for (const SheetMarker& big : page.markers)
      for (const SheetMarker& small : page.markers)
        if (big.square_mm.width > small.square_mm.width) {
          EXPECT_LE(big.quiet_mm.br().y, small.quiet_mm.y + 1e-9) << big.label << " beside " << small.label;
        }
  }
  EXPECT_EQ(seen.size(), expected.size());
  for (const auto& [id, size_label] : expected) EXPECT_EQ(seen[id], 1) << "marker " << id << " printed " << seen[id] << " times";
  ExpectTidyPages(pages, o.page_margin_mm);
  // 16 tiles fit one page of either paper; its footer names the roster.
  ASSERT_EQ(pages.size(), 1u);
  const auto footer = std::find_if(pages[0].labels.begin(), pages[0].labels.end(), [](const SheetLabel& l) {
    return l.text == kSampleRoster + " \u00b7 page 1 of 1";
  });
  EXPECT_NE(footer, pages[0].labels.end());
  EXPECT_FALSE(pages[0].scale_bar_mm.empty());
}

INSTANTIATE_TEST_SUITE_P(Papers, TotskRosterSheet, ::testing::Values(Paper::kA4, Paper::kLetter),
                         [](const auto& info) { return info.param == Paper::kA4 ? "A4" : "Letter"; });

// A roster of 4 anchors of 80 mm and 150 units with 25 mm markers (DICT_4X4_250, IDs 10..159).
Scene BigRoster() {
  Scene s;
  s.source = "big_roster.yaml";
  s.dictionary = "DICT_4X4_250";
  for (int a = 0; a < 4; ++a) s.anchors.push_back({a, 80.0, 0, 0, 90});
  for (int i = 0; i < 150; ++i) {
    Unit u;
    u.id = "U" + std::to_string(i);
    u.line = 20 + i;
    u.marker = MarkerMount{.id = 10 + i, .size_mm = 25};
    s.units.push_back(u);
  }
  return s;
}

TEST(RosterSheet, ManyMarkersFlowOntoNumberedPages) {
  const MarkerSheetOptions o = RosterMarkerSheet(BigRoster());
  const auto pages = LayoutMarkerSheet(o);
  // A4 inside 10 mm margins, an 8 mm header and a 12 mm footer: 190 x 257 mm. Anchor tiles are
  // 106.7 x 111.2 mm (2 to a page), unit tiles 33.3 x 37.8 mm (5 x 6 = 30 to a page).
  ASSERT_GE(pages.size(), 6u);
  std::set<int> ids;
  size_t total = 0;
  for (size_t p = 0; p < pages.size(); ++p) {
    total += pages[p].markers.size();
    for (const SheetMarker& m : pages[p].markers) {
      EXPECT_TRUE(ids.insert(m.id).second) << "marker " << m.id << " printed twice";
      EXPECT_NEAR(m.square_mm.width, m.id < 4 ? 80 : 25, 1e-9) << "marker " << m.id;
    }
    const std::string footer = "big_roster.yaml \u00b7 page " + std::to_string(p + 1) + " of " + std::to_string(pages.size());
    EXPECT_TRUE(std::any_of(pages[p].labels.begin(), pages[p].labels.end(), [&](const SheetLabel& l) { return l.text == footer; }))
        << "page " << p + 1 << " has no footer '" << footer << "'";
  }
  EXPECT_EQ(total, 154u);
  EXPECT_EQ(ids.size(), 154u);
  ExpectTidyPages(pages, o.page_margin_mm);
}

TEST(RosterSheet, BadRostersNameTheFileAndTheUnit) {
  Scene s;
  s.source = "r.yaml";
  EXPECT_EQ(InputErrorOf([&] { RosterMarkerSheet(s); }).rfind("r.yaml: the roster has no 'dictionary:'", 0), 0u);
  s.dictionary = "DICT_4X4_50";
  EXPECT_EQ(InputErrorOf([&] { RosterMarkerSheet(s); }), "r.yaml: the roster has no anchors and no unit markers to print");

  Unit b7;
  b7.id = "B7";
  b7.line = 12;
  b7.marker = MarkerMount{.id = 60, .size_mm = 16};
  s.units.push_back(b7);
  EXPECT_EQ(InputErrorOf([&] { LayoutMarkerSheet(RosterMarkerSheet(s)); }),
            "r.yaml:12: unit B7: marker 60 is not in DICT_4X4_50 (IDs 0..49)");
  s.units[0].marker = MarkerMount{.id = 7, .size_mm = 500};
  EXPECT_EQ(InputErrorOf([&] { LayoutMarkerSheet(RosterMarkerSheet(s)); }).rfind("r.yaml:12: unit B7: a 500 mm marker", 0), 0u);
  s.dictionary = "DICT_NOPE";
  EXPECT_EQ(InputErrorOf([&] { LayoutMarkerSheet(RosterMarkerSheet(s)); }).rfind("r.yaml: dictionary: DICT_NOPE: ", 0), 0u);
  s.dictionary = "DICT_4X4_50";
  s.units.clear();
  s.anchors.push_back({50, 50.0, 0, 0, 90});
  EXPECT_EQ(InputErrorOf([&] { LayoutMarkerSheet(RosterMarkerSheet(s)); }),
            "r.yaml: anchor 50: marker 50 is not in DICT_4X4_50 (IDs 0..49)");
}

TEST(RosterSheet, PngDetectsEveryMarkerAtItsSizeInPixels) {
  const MarkerSheetOptions o = LoadRosterMarkerSheet(kSampleRoster);
  const double dpi = 300;
  const ScopedTempDir dir("print_roster_png");
  const auto files = WritePages(LayoutMarkerSheet(o), dir.File("roster.png"), dpi);
  auto params = cv::aruco::DetectorParameters::create();
  params->cornerRefinementMethod = cv::aruco::CORNER_REFINE_SUBPIX;
  std::map<int, double> side_px;  // mean of the four sides
  for (const std::string& file : files) {
    const cv::Mat img = cv::imread(file, cv::IMREAD_GRAYSCALE);
    ASSERT_EQ(img.cols, std::lround(210 / 25.4 * dpi)) << file;
    std::vector<std::vector<cv::Point2f>> corners;
    std::vector<int> ids;
    cv::aruco::detectMarkers(img, DictionaryByName("DICT_4X4_50"), corners, ids, params);
    for (size_t i = 0; i < ids.size(); ++i) {
      double sum = 0;
      for (int k = 0; k < 4; ++k) sum += cv::norm(corners[i][(k + 1) % 4] - corners[i][k]);
      side_px[ids[i]] = sum / 4;
    }
  }
  const auto expected = TotskSmallMarkers();
  EXPECT_EQ(side_px.size(), expected.size());
  for (const auto& [id, size_label] : expected) {
    ASSERT_TRUE(side_px.count(id)) << "marker " << id << " (" << size_label.second << ") not detected";
    const double want = size_label.first * dpi / 25.4;  // 50 mm: 590.6 px, 18 mm: 212.6 px
    EXPECT_NEAR(side_px[id], want, 0.01 * want) << "marker " << id;
  }
}

TEST(PrintBoard, TooLargeForThePaperIsRefusedWithTheLargestThatFits) {
  // 5 x 7 squares of 40 mm: 200 x 280 mm, 220 x 300 with its quiet zone, and a 12 mm caption below.
  // A4 inside 10 mm margins is 190 x 277 mm. Largest square: portrait min((210-20-20)/5,
  // (297-20-20-12)/7) = min(34, 35) = 34; landscape min((297-40)/5, (210-52)/7) = min(51.4, 22.6).
  const BoardSpec spec = ParseBoardSpec("charuco:5x7:40:20:DICT_6X6_250");
  const std::string why = InputErrorOf([&] { LayoutBoardSheet({}, spec); });
  EXPECT_EQ(why.rfind("--paper: charuco:5x7:40:20:DICT_6X6_250 is 200 x 280 mm plus a 10 mm quiet zone", 0), 0u) << why;
  EXPECT_NE(why.find("it does not fit A4 (210 x 297 mm with 10 mm margins"), std::string::npos) << why;
  EXPECT_NE(why.find("; charuco:5x7:34:17:DICT_6X6_250 fits"), std::string::npos) << why;

  const auto fitted = LargestFittingBoard({}, spec);
  ASSERT_TRUE(fitted.has_value());
  EXPECT_EQ(ToString(*fitted), "charuco:5x7:34:17:DICT_6X6_250");
  const SheetPage page = LayoutBoardSheet({}, ParseBoardSpec(fitted->text));  // the suggestion really fits
  EXPECT_EQ(page.size_mm, PaperSizeMm(Paper::kA4));
  const cv::Rect2d printable(10, 10, 190, 277);
  EXPECT_NEAR((page.cut_lines_mm[0] & printable).area(), page.cut_lines_mm[0].area(), 1e-6);
  BoardSpec bigger = *fitted;
  bigger.square_mm += 1;
  EXPECT_THROW(LayoutBoardSheet({}, bigger), InputError);

  // Letter: min((215.9-40)/5, (279.4-52)/7) = min(35.2, 32.5) -> 32, the marker kept at half.
  BoardSheetOptions letter;
  letter.paper = Paper::kLetter;
  EXPECT_EQ(ToString(LargestFittingBoard(letter, spec).value()), "charuco:5x7:32:16:DICT_6X6_250");
  // 12 x 9 inner corners = 13 x 10 squares: A4 landscape min((297-40)/13, (210-52)/10) = 15.
  EXPECT_EQ(ToString(LargestFittingBoard({}, ParseBoardSpec("chessboard:12x9:30")).value()), "chessboard:12x9:15");
  // A marker 1/40 of its square rounds to 0 mm at 34 mm: nothing to suggest.
  const BoardSpec thin = ParseBoardSpec("charuco:5x7:40:1:DICT_6X6_250");
  EXPECT_FALSE(LargestFittingBoard({}, thin).has_value());
  EXPECT_NE(InputErrorOf([&] { LayoutBoardSheet({}, thin); }).find("no whole-mm square and marker size fits"),
            std::string::npos);

  // Asked for explicitly, a page of the board's own size: the board, its quiet zone, the margins.
  BoardSheetOptions own;
  own.own_size = true;
  const SheetPage big = LayoutBoardSheet(own, ParseBoardSpec("chessboard:12x9:30"));
  EXPECT_NEAR(big.board_mm.width, 390, 1e-9);
  EXPECT_NEAR(big.size_mm.width, 390 + 2 * 10 + 2 * 10, 1e-9);
}

// Every `vedette print board` line of the README fits the paper it names (A4 when it names none).
TEST(PrintBoard, ReadmeExamplesFitTheirPaper) {
  std::ifstream in(std::string(VEDETTE_TEST_DATA) + "/../README.md");
  ASSERT_TRUE(in) << "README.md not found";
  static const std::regex board_re("vedette print board (\\S+)");
  static const std::regex paper_re("--paper (\\S+)");
  int examples = 0;
  for (std::string line; std::getline(in, line);) {
    std::smatch board, paper;
    if (!std::regex_search(line, board, board_re)) continue;
    ++examples;
    BoardSheetOptions o;
    if (std::regex_search(line, paper, paper_re)) {
      if (paper[1] == "none") continue;  // a page of the board's own size fits by definition
      o.paper = ParsePaper(paper[1]);
    }
    EXPECT_NO_THROW(LayoutBoardSheet(o, ParseBoardSpec(board[1]))) << line;
    o.paper = Paper::kLetter;  // and the other common paper, so the example works for everyone
    EXPECT_NO_THROW(LayoutBoardSheet(o, ParseBoardSpec(board[1]))) << line;
  }
  EXPECT_GE(examples, 1);
}

}  // namespace
}  // namespace vedette::calib
