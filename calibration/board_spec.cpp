#include "calibration/board_spec.h"

#include <cmath>
#include <algorithm>
#include <cctype>

#include "calibration/dictionary.h"
#include "rules/input_error.h"

namespace vedette::calib {
namespace {

[[noreturn]] void Bad(const std::string& text, const std::string& why) {
  throw InputError("--board", 0,
                   "'" + text + "': " + why +
                       " (expected charuco:COLSxROWS:SQUARE_MM:MARKER_MM:DICT, e.g. charuco:5x7:40:20:DICT_6X6_250, "
                       "COLSxROWS counting squares; or chessboard:COLSxROWS:SQUARE_MM, e.g. chessboard:9x6:25, "
                       "counting inner corners)");
}

double PositiveNumber(const std::string& text, const std::string& field, const std::string& what) {
  try {
    size_t used = 0;
    const double v = std::stod(field, &used);
    if (used != field.size() || !std::isfinite(v) || v <= 0) Bad(text, what + " must be a positive number of mm");
    return v;
  } catch (const std::logic_error&) {
    Bad(text, what + " must be a positive number of mm (got '" + field + "')");
  }
}

}  // namespace

BoardSpec ParseBoardSpec(const std::string& text) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    const size_t colon = text.find(':', start);
    parts.push_back(text.substr(start, colon - start));
    if (colon == std::string::npos) break;
    start = colon + 1;
  }
  BoardSpec spec;
  spec.text = text;
  if (parts[0] == "charuco") {
    spec.kind = BoardKind::kCharuco;
    if (parts.size() != 5) Bad(text, "a charuco board has 5 fields separated by ':'");
  } else if (parts[0] == "chessboard") {
    spec.kind = BoardKind::kChessboard;
    if (parts.size() != 3) Bad(text, "a chessboard has 3 fields separated by ':'");
  } else {
    Bad(text, "unknown board kind '" + parts[0] + "'");
  }
  // COLSxROWS by a loop over the characters: std::regex_match recursed once per character and a
  // 100,000-digit size ran it out of stack. Up to 4 digits each way (the limit below is 100).
  const std::string& size = parts[1];
  const size_t x = size.find_first_of("xX");
  auto digits = [](const std::string& d) {
    return !d.empty() && d.size() <= 4 && std::all_of(d.begin(), d.end(), [](unsigned char c) { return std::isdigit(c) != 0; });
  };
  if (x == std::string::npos || !digits(size.substr(0, x)) || !digits(size.substr(x + 1)))
    Bad(text.size() > 80 ? text.substr(0, 80) + "..." : text,
        "size '" + (size.size() > 20 ? size.substr(0, 20) + "..." : size) + "' must be COLSxROWS, e.g. 5x7");
  spec.cols = std::stoi(size.substr(0, x));
  spec.rows = std::stoi(size.substr(x + 1));
  spec.square_mm = PositiveNumber(text, parts[2], "SQUARE_MM");
  if (spec.kind == BoardKind::kCharuco) {
    if (spec.cols < 2 || spec.rows < 2 || spec.cols > 100 || spec.rows > 100)
      Bad(text, "a ChArUco board needs 2 to 100 squares each way");
    spec.marker_mm = PositiveNumber(text, parts[3], "MARKER_MM");
    if (spec.marker_mm >= spec.square_mm) Bad(text, "MARKER_MM must be smaller than SQUARE_MM");
    spec.dictionary = parts[4];
    const auto dictionary = DictionaryByName(spec.dictionary);  // throws naming the valid names
    const int markers = (spec.cols * spec.rows) / 2;
    if (markers > DictionarySize(*dictionary))
      Bad(text, "the board needs " + std::to_string(markers) + " markers but " + spec.dictionary + " has only " +
                    std::to_string(DictionarySize(*dictionary)));
  } else {
    if (spec.cols < 2 || spec.rows < 2 || spec.cols > 100 || spec.rows > 100)
      Bad(text, "a chessboard needs 2 to 100 inner corners each way");
    if (spec.cols == spec.rows)
      Bad(text, "a square chessboard (same count both ways) has no defined orientation; use e.g. 9x6");
  }
  return spec;
}

std::string ToString(const BoardSpec& spec) {
  auto num = [](double v) {
    std::string s = cv::format("%.4f", v);
    s.erase(s.find_last_not_of('0') + 1);
    if (s.back() == '.') s.pop_back();
    return s;
  };
  std::string s = (spec.kind == BoardKind::kCharuco ? "charuco:" : "chessboard:") + std::to_string(spec.cols) + "x" +
                  std::to_string(spec.rows) + ":" + num(spec.square_mm);
  if (spec.kind == BoardKind::kCharuco) s += ":" + num(spec.marker_mm) + ":" + spec.dictionary;
  return s;
}

cv::Ptr<cv::aruco::CharucoBoard> MakeCharucoBoard(const BoardSpec& spec) {
  if (spec.kind != BoardKind::kCharuco) throw InputError("--board", 0, "'" + spec.text + "' is not a ChArUco board");
  return cv::aruco::CharucoBoard::create(spec.cols, spec.rows, static_cast<float>(spec.square_mm),
                                         static_cast<float>(spec.marker_mm), DictionaryByName(spec.dictionary));
}

cv::Point3f InnerCornerMm(const BoardSpec& spec, int id) {
  const int per_row = spec.SquaresX() - 1;
  return {static_cast<float>((id % per_row + 1) * spec.square_mm), static_cast<float>((id / per_row + 1) * spec.square_mm),
          0.0f};
}

BoardPattern MakeBoardPattern(const BoardSpec& spec) {
  BoardPattern p;
  p.squares_x = spec.SquaresX();
  p.squares_y = spec.SquaresY();
  p.square_mm = spec.square_mm;
  p.width_mm = spec.WidthMm();
  p.height_mm = spec.HeightMm();
  p.square_content.assign(p.squares_x * p.squares_y, -1);
  if (spec.kind == BoardKind::kChessboard) {
    // The top-left square black, as OpenCV's own printable pattern.
    for (int y = 0; y < p.squares_y; ++y)
      for (int x = 0; x < p.squares_x; ++x)
        if ((x + y) % 2 == 0) p.square_content[y * p.squares_x + x] = -2;
  } else {
    // OpenCV 4.6 puts markers in the squares it lists in objPoints; every other square is black.
    // Reading the layout from the board object (not re-deriving it) keeps the printout identical to
    // what the detector expects even where OpenCV versions differ (even row counts, 4.5 vs 4.6).
    const auto board = MakeCharucoBoard(spec);
    std::fill(p.square_content.begin(), p.square_content.end(), -2);
    for (size_t i = 0; i < board->objPoints.size(); ++i) {
      const auto& c = board->objPoints[i];
      BoardPattern::Marker m;
      m.id = board->ids[i];
      m.square_mm = cv::Rect2d(c[0].x, c[0].y, c[1].x - c[0].x, c[3].y - c[0].y);
      m.cells = MarkerCells(*board->dictionary, m.id);
      const cv::Point2d centre(m.square_mm.x + m.square_mm.width / 2, m.square_mm.y + m.square_mm.height / 2);
      const int sx = static_cast<int>(centre.x / spec.square_mm), sy = static_cast<int>(centre.y / spec.square_mm);
      p.square_content[sy * p.squares_x + sx] = static_cast<int>(p.markers.size());
      p.markers.push_back(m);
    }
  }
  for (int y = 0; y < p.squares_y; ++y)
    for (int x = 0; x < p.squares_x; ++x)
      if (p.square_content[y * p.squares_x + x] == -2)
        p.black_mm.emplace_back(x * spec.square_mm, y * spec.square_mm, spec.square_mm, spec.square_mm);
  for (const auto& m : p.markers) {
    const int n = m.cells.rows;
    const double cell = m.square_mm.width / n;
    for (int r = 0; r < n; ++r)
      for (int c = 0; c < n; ++c)
        if (m.cells.at<uchar>(r, c) == 0) p.black_mm.emplace_back(m.square_mm.x + c * cell, m.square_mm.y + r * cell, cell, cell);
  }
  return p;
}

bool IsBlackAt(const BoardPattern& p, cv::Point2d q) {
  if (!(q.x >= 0 && q.y >= 0 && q.x < p.width_mm && q.y < p.height_mm)) return false;
  const int sx = std::min(static_cast<int>(q.x / p.square_mm), p.squares_x - 1);
  const int sy = std::min(static_cast<int>(q.y / p.square_mm), p.squares_y - 1);
  const int content = p.square_content[sy * p.squares_x + sx];
  if (content == -2) return true;
  if (content == -1) return false;
  const BoardPattern::Marker& m = p.markers[content];
  if (!m.square_mm.contains(q)) return false;
  const int n = m.cells.rows;
  const int c = std::min(static_cast<int>((q.x - m.square_mm.x) / m.square_mm.width * n), n - 1);
  const int r = std::min(static_cast<int>((q.y - m.square_mm.y) / m.square_mm.height * n), n - 1);
  return m.cells.at<uchar>(r, c) == 0;
}

}  // namespace vedette::calib
