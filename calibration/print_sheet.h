#pragma once
// Printable sheets at exact physical scale: ArUco markers (each with a white quiet zone, its ID and
// a dashed cut line) and calibration boards, laid out on A4 or Letter pages. A page is a plain list
// of shapes in mm (origin at the page's top-left, y down); SVG writes them in mm and PNG rasterises
// them at a chosen DPI, so both come from the same layout.
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "calibration/board_spec.h"

namespace vedette::calib {

enum class Paper { kA4, kLetter };
// "a4" / "letter" (any case); InputError (file "--paper") otherwise.
Paper ParsePaper(const std::string& name);
cv::Size2d PaperSizeMm(Paper paper);  // portrait: A4 210 x 297, Letter 215.9 x 279.4

struct SheetLabel {
  cv::Point2d at_mm;       // baseline start (left end), mm
  double height_mm = 3;    // cap height, mm
  std::string text;
};

struct SheetMarker {
  int id = -1;
  cv::Rect2d square_mm;    // the black square (border included), mm
  cv::Rect2d quiet_mm;     // white quiet zone around it, mm
  std::vector<cv::Rect2d> black_cells_mm;  // one rect per black cell (border cells included)
};

struct SheetPage {
  cv::Size2d size_mm;
  std::vector<SheetMarker> markers;        // marker sheets
  std::vector<cv::Rect2d> board_black_mm;  // board sheets: the board's black rects
  cv::Rect2d board_mm;                     // board sheets: the board's outline (empty for markers)
  std::vector<cv::Rect2d> cut_lines_mm;    // dashed outlines to cut along
  std::vector<SheetLabel> labels;
  std::vector<std::pair<cv::Point2d, cv::Point2d>> scale_bar_mm;  // line segments of a 100 mm scale bar
};

struct MarkerSheetOptions {
  std::string dictionary = "DICT_4X4_50";  // predefined name or custom dictionary file
  std::vector<int> ids;                    // markers to print, in this order
  double size_mm = 16;                     // side of the black square, mm
  double quiet_zone_mm = 0;                // white margin around it, mm (0: one cell, at least 2 mm)
  Paper paper = Paper::kA4;
  double page_margin_mm = 10;              // unprinted edge of the page, mm
  double label_height_mm = 2.5;            // ID text, mm
  bool Check(std::string* error) const;
};

struct BoardSheetOptions {
  Paper paper = Paper::kA4;
  double page_margin_mm = 10;
  double quiet_zone_mm = 10;               // white margin around the board, mm
  bool Check(std::string* error) const;
};

// "10-49", "0,3,7-9": ascending ranges and single IDs. InputError (file "--ids") otherwise.
std::vector<int> ParseIdList(const std::string& text);

// Marker pages: as many as the markers need. InputError when an ID is outside the dictionary or
// one marker does not fit on the paper.
std::vector<SheetPage> LayoutMarkerSheet(const MarkerSheetOptions& options);
// One page: the board centred on the paper (turned to landscape when that fits); a board larger
// than the paper gets a page of its own size (print it on bigger paper or at a print shop), and
// `note` says so.
SheetPage LayoutBoardSheet(const BoardSheetOptions& options, const BoardSpec& spec, std::string* note = nullptr);

std::string PageToSvg(const SheetPage& page);
cv::Mat PageToImage(const SheetPage& page, double dpi);  // grey, white paper

// Writes pages to `path` (.svg or .png): one page as path itself, several as stem-1.ext, stem-2.ext,
// ... Returns the files written. InputError for another extension or an unwritable file.
std::vector<std::string> WritePages(const std::vector<SheetPage>& pages, const std::string& path, double png_dpi);

}  // namespace vedette::calib
