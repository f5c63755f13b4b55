#pragma once
// Printable sheets at exact physical scale: ArUco markers (each with a white quiet zone, a dashed cut
// line and a label: its ID, or for a roster the unit or anchor it belongs to) and calibration
// boards, laid out on A4 or Letter pages. A page is a plain list
// of shapes in mm (origin at the page's top-left, y down); SVG writes them in mm and PNG rasterises
// them at a chosen DPI, so both come from the same layout.
#include <optional>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "calibration/board_spec.h"
#include "rules/scene/scene.h"

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
  cv::Rect2d quiet_mm;     // white quiet zone around it, mm: the dashed cut line runs along its edge
  std::string label;       // printed just below quiet_mm (outside the cut), e.g. "B1 · 10"
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

// One marker to print. A sheet may mix sizes (a roster's 50 mm anchors and 16 mm unit markers).
struct SheetEntry {
  int id = -1;              // marker ID in the sheet's dictionary
  double size_mm = 16;      // side of the black square, mm
  std::string label;        // printed under its cut line, e.g. "B1 · 10" or "anchor 0 (50 mm)"
  std::string what;         // names it in messages, e.g. "unit B1" ("" for a bare ID)
  int line = 0;             // its line in the sheet's source file, for messages (0: none)
};

// Bare IDs of one size, each labelled with its ID: what `print markers --ids` prints.
std::vector<SheetEntry> IdEntries(const std::vector<int>& ids, double size_mm);

struct MarkerSheetOptions {
  std::string dictionary = "DICT_4X4_50";  // predefined name or custom dictionary file
  std::vector<SheetEntry> markers;         // to print; pages hold them largest first, else in this order
  std::string source;                      // the roster file they come from, named in the footer and in
                                           // errors ("": bare IDs from --ids)
  double quiet_zone_mm = 0;                // white margin around each marker, mm (0: one cell, at least 2 mm)
  Paper paper = Paper::kA4;
  double page_margin_mm = 10;              // unprinted edge of the page, mm
  double label_height_mm = 2.5;            // label text cap height, mm
  bool Check(std::string* error) const;
};

// The roster's anchors (label "anchor 0 (50 mm)") and unit markers (label "B1 · 10") at their
// sizes, in the roster's dictionary; tokens are not printed. InputError naming roster.source when
// it has no dictionary or no markers.
MarkerSheetOptions RosterMarkerSheet(const Scene& roster);
// The same for a roster file (a scene without poses). InputError naming the file.
MarkerSheetOptions LoadRosterMarkerSheet(const std::string& path);

struct BoardSheetOptions {
  Paper paper = Paper::kA4;
  bool own_size = false;                   // a page of the board's own size instead of the paper
                                           // (--paper none: for a large-format printer or a print shop)
  double page_margin_mm = 10;              // unprinted edge of the page, mm
  double quiet_zone_mm = 10;               // white margin around the board, mm
  bool Check(std::string* error) const;
};

// "10-49", "0,3,7-9": ascending ranges and single IDs. InputError (file "--ids") otherwise.
std::vector<int> ParseIdList(const std::string& text);

// Marker pages: as many as the markers need, rows of equal-sized markers packed largest first.
// InputError naming the source (and the unit) when an ID is outside the dictionary or one marker
// does not fit on the paper.
std::vector<SheetPage> LayoutMarkerSheet(const MarkerSheetOptions& options);

// One page: the board centred on the paper (turned to landscape when that fits), or with
// `own_size` on a page of the board's size. A board that does not fit the paper is refused
// (InputError, file "--paper") with the largest square size that fits, so a user is never handed a
// page that the printer would shrink or crop.
SheetPage LayoutBoardSheet(const BoardSheetOptions& options, const BoardSpec& spec);
// The spec with the largest whole-mm square (a ChArUco marker kept in proportion) that fits the
// options' paper; nullopt when not even a 1 mm square does.
std::optional<BoardSpec> LargestFittingBoard(const BoardSheetOptions& options, const BoardSpec& spec);

std::string PageToSvg(const SheetPage& page);
cv::Mat PageToImage(const SheetPage& page, double dpi);  // grey, white paper

// Writes pages to `path` (.svg or .png): one page as path itself, several as stem-1.ext, stem-2.ext,
// ... Returns the files written. InputError for another extension or an unwritable file.
std::vector<std::string> WritePages(const std::vector<SheetPage>& pages, const std::string& path, double png_dpi);

}  // namespace vedette::calib
