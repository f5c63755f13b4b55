#include "calibration/board_spec.h"

#include <gtest/gtest.h>

#include "calibration/dictionary.h"
#include "rules/input_error.h"

namespace vedette::calib {
namespace {

std::string ErrorOf(const std::string& text) {
  try {
    ParseBoardSpec(text);
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), "--board");
    return e.what();
  }
  return "";
}

TEST(ParseBoardSpec, CharucoAndChessboard) {
  const BoardSpec c = ParseBoardSpec("charuco:5x7:40:20:DICT_6X6_250");
  EXPECT_EQ(c.kind, BoardKind::kCharuco);
  EXPECT_EQ(c.SquaresX(), 5);
  EXPECT_EQ(c.SquaresY(), 7);
  EXPECT_EQ(c.InnerCorners(), 24);  // 4 x 6
  EXPECT_DOUBLE_EQ(c.WidthMm(), 200);
  EXPECT_DOUBLE_EQ(c.marker_mm, 20);
  EXPECT_EQ(ToString(c), "charuco:5x7:40:20:DICT_6X6_250");

  const BoardSpec b = ParseBoardSpec("chessboard:9x6:24.5");
  EXPECT_EQ(b.kind, BoardKind::kChessboard);
  EXPECT_EQ(b.SquaresX(), 10);  // 9 inner corners across: 10 squares
  EXPECT_EQ(b.InnerCorners(), 54);
  EXPECT_DOUBLE_EQ(b.HeightMm(), 7 * 24.5);
  EXPECT_EQ(ToString(b), "chessboard:9x6:24.5");
  // Inner corner 10 of a 9-wide chessboard: second row, second column: (2, 2) squares from the edge.
  EXPECT_EQ(InnerCornerMm(b, 10), cv::Point3f(49, 49, 0));
}

TEST(ParseBoardSpec, SaysWhatIsWrong) {
  EXPECT_NE(ErrorOf("charuco:5x7:40:20").find("5 fields"), std::string::npos);
  EXPECT_NE(ErrorOf("chessboard:9x6").find("3 fields"), std::string::npos);
  EXPECT_NE(ErrorOf("grid:9x6:20").find("unknown board kind 'grid'"), std::string::npos);
  EXPECT_NE(ErrorOf("chessboard:9*6:20").find("COLSxROWS"), std::string::npos);
  EXPECT_NE(ErrorOf("chessboard:9x6:-3").find("SQUARE_MM"), std::string::npos);
  EXPECT_NE(ErrorOf("chessboard:9x6:abc").find("SQUARE_MM"), std::string::npos);
  EXPECT_NE(ErrorOf("charuco:5x7:40:45:DICT_6X6_250").find("smaller than SQUARE_MM"), std::string::npos);
  EXPECT_NE(ErrorOf("charuco:20x20:40:20:DICT_4X4_50").find("has only 50"), std::string::npos);
  EXPECT_NE(ErrorOf("chessboard:6x6:20").find("square chessboard"), std::string::npos);
  EXPECT_THROW(ParseBoardSpec("charuco:5x7:40:20:DICT_NOPE"), InputError);
}

TEST(BoardPattern, CharucoMatchesOpenCvDrawing) {
  // The pattern must be the board OpenCV detects: sample it at the centre of every pixel of
  // CharucoBoard::draw's image (1 mm per pixel, no margin) and compare.
  const BoardSpec spec = ParseBoardSpec("charuco:5x7:40:24:DICT_4X4_50");
  const BoardPattern pattern = MakeBoardPattern(spec);
  cv::Mat drawn;
  MakeCharucoBoard(spec)->draw(cv::Size(200, 280), drawn, 0, 1);
  int differ = 0;
  for (int y = 0; y < drawn.rows; ++y)
    for (int x = 0; x < drawn.cols; ++x)
      differ += (drawn.at<uchar>(y, x) < 128) != IsBlackAt(pattern, {x + 0.5, y + 0.5});
  EXPECT_EQ(differ, 0);
  EXPECT_EQ(pattern.markers.size(), 17u);  // 35 squares, 17 white ones hold markers
}

TEST(BoardPattern, ChessboardTopLeftIsBlackAndCountsSquares) {
  const BoardPattern p = MakeBoardPattern(ParseBoardSpec("chessboard:9x6:10"));
  EXPECT_TRUE(IsBlackAt(p, {5, 5}));
  EXPECT_FALSE(IsBlackAt(p, {15, 5}));
  EXPECT_TRUE(IsBlackAt(p, {15, 15}));
  EXPECT_FALSE(IsBlackAt(p, {-1, 5}));   // outside: paper
  EXPECT_FALSE(IsBlackAt(p, {101, 5}));
  EXPECT_EQ(p.black_mm.size(), 35u);     // 10 x 7 squares, half black
}

}  // namespace
}  // namespace vedette::calib
