#pragma once
// Calibration boards as a user names them on the command line:
//   charuco:COLSxROWS:SQUARE_MM:MARKER_MM:DICT   COLS x ROWS squares (OpenCV's CharucoBoard::create order),
//                                                 e.g. charuco:5x7:40:20:DICT_6X6_250
//   chessboard:COLSxROWS:SQUARE_MM                COLS x ROWS inner corners (what findChessboardCorners
//                                                 counts), e.g. chessboard:9x6:25
// Board frame (OpenCV 4.6's CharucoBoard): mm, origin at the board's top-left outer corner as drawn,
// x to the right, y down, z = 0 on the board.
#include <string>
#include <vector>

#include <opencv2/aruco/charuco.hpp>
#include <opencv2/core.hpp>

namespace vedette::calib {

enum class BoardKind { kChessboard, kCharuco };

struct BoardSpec {
  BoardKind kind = BoardKind::kChessboard;
  int cols = 0;              // charuco: squares across; chessboard: inner corners across
  int rows = 0;              // charuco: squares down; chessboard: inner corners down
  double square_mm = 0.0;    // side of one chessboard square, mm
  double marker_mm = 0.0;    // charuco only: side of the black marker square (its border included), mm
  std::string dictionary;    // charuco only: OpenCV predefined dictionary name
  std::string text;          // the spec as given, for messages

  // Squares across and down (chessboard: inner corners + 1).
  int SquaresX() const { return kind == BoardKind::kCharuco ? cols : cols + 1; }
  int SquaresY() const { return kind == BoardKind::kCharuco ? rows : rows + 1; }
  // Board outline without any margin, mm.
  double WidthMm() const { return SquaresX() * square_mm; }
  double HeightMm() const { return SquaresY() * square_mm; }
  // Inner (saddle) corners of the board: what calibration measures.
  int InnerCorners() const { return (SquaresX() - 1) * (SquaresY() - 1); }
};

// Parses a --board value. Throws vedette::InputError (file "--board") saying what is wrong and
// showing both accepted forms.
BoardSpec ParseBoardSpec(const std::string& text);
std::string ToString(const BoardSpec& spec);

// OpenCV's ChArUco board for a charuco spec (mm units). Throws InputError if the dictionary has too
// few markers for the board.
cv::Ptr<cv::aruco::CharucoBoard> MakeCharucoBoard(const BoardSpec& spec);

// Board-frame position (mm, z = 0) of inner corner `id`: row-major from the top-left, the order
// of both findChessboardCorners (for an upright board) and OpenCV's ChArUco corner IDs.
cv::Point3f InnerCornerMm(const BoardSpec& spec, int id);

// What is printed on a board, as black rectangles in the board frame (mm): the black squares and
// each marker's black cells (its border included). White elsewhere, also outside the board (its
// quiet zone). The printer draws these rectangles and the synthetic renderer samples them, so both
// agree exactly.
struct BoardPattern {
  double width_mm = 0, height_mm = 0;
  std::vector<cv::Rect2d> black_mm;  // disjoint, axis-aligned (x right, y down)
  struct Marker {
    int id;
    cv::Rect2d square_mm;  // the marker's black square (its border included)
    cv::Mat cells;         // (bits+2)^2 cells, 0 = black, 255 = white, row 0 at the top (y smallest)
  };
  std::vector<Marker> markers;       // charuco: where each marker sits
  // Lookup for IsBlackAt: per board square (row-major), -2 black, -1 white, else index in markers.
  int squares_x = 0, squares_y = 0;
  double square_mm = 0;
  std::vector<int> square_content;
};
// Throws InputError like MakeCharucoBoard.
BoardPattern MakeBoardPattern(const BoardSpec& spec);

// Whether a board-frame point (mm) is black. Constant time (one square lookup).
bool IsBlackAt(const BoardPattern& pattern, cv::Point2d p_mm);

}  // namespace vedette::calib
