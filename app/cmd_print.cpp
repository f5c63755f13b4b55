// vedette print markers --roster R.yaml --out sheet.svg [--paper a4|letter] [--png-dpi 300]
// vedette print markers --dict D --ids 10-49 --size-mm 16 --out sheet.svg [--paper a4|letter] [--png-dpi 300]
// vedette print board SPEC --out board.svg [--paper a4|letter|none] [--png-dpi 300]
#include <algorithm>
#include <iostream>

#include "app/command.h"
#include "app/output_paths.h"
#include "calibration/print_sheet.h"
#include "rules/input_error.h"

namespace vedette::app {
namespace {

struct PrintArgs {
  std::string dict = "DICT_4X4_50", ids, roster, out, paper = "a4", board;
  double size_mm = 16, quiet_mm = 0, dpi = 300;
};

void Report(const std::vector<std::string>& files) {
  for (const auto& f : files) std::cout << "wrote " << f << "\n";
  std::cout << "print at 100 % (\"actual size\", no fit-to-page) and check the 100 mm scale bar with a ruler\n";
}

// The roster's own markers, or bare IDs of one size: CLI11 has already refused both at once.
calib::MarkerSheetOptions MarkerSheetFromArgs(const PrintArgs& a) {
  if (a.roster.empty() && a.ids.empty())
    throw InputError("print markers", 0, "give --roster R.yaml, or --ids (with --dict and --size-mm)");
  calib::MarkerSheetOptions o;
  if (!a.roster.empty()) {
    o = calib::LoadRosterMarkerSheet(a.roster);
  } else {
    o.dictionary = a.dict;
    o.markers = calib::IdEntries(calib::ParseIdList(a.ids), a.size_mm);
  }
  o.quiet_zone_mm = a.quiet_mm;
  o.paper = calib::ParsePaper(a.paper);
  return o;
}

void SetupMarkers(CLI::App& cmd) {
  auto m = std::make_shared<PrintArgs>();
  CLI::App* markers = cmd.add_subcommand("markers", "ArUco markers with quiet zone, label and cut line, on A4/Letter pages");
  auto* roster = markers->add_option("--roster", m->roster, "Roster (scene) file: print its anchors and unit markers at their sizes");
  auto* dict = markers->add_option("--dict", m->dict, "Predefined dictionary name or custom dictionary file (default DICT_4X4_50)");
  auto* ids = markers->add_option("--ids", m->ids, "Marker IDs, e.g. 10-49 or 0,3,7-9");
  auto* size = markers->add_option("--size-mm", m->size_mm, "Side of the black square, mm (default 16)");
  // A roster names its own dictionary, IDs and sizes: a second source for them would be ambiguous.
  roster->excludes(dict)->excludes(ids)->excludes(size);
  markers->add_option("--quiet-mm", m->quiet_mm, "White margin around each marker, mm (default: one cell, at least 2)");
  markers->add_option("--out", m->out, "sheet.svg or sheet.png; several pages become sheet-1.svg, sheet-2.svg, ...")->required();
  markers->add_option("--paper", m->paper, "a4 (default) or letter");
  markers->add_option("--png-dpi", m->dpi, "Resolution of PNG output (default 300)");
  markers->callback([m] {
    CheckOutputs({{m->out, "--out"}}, {m->roster});
    Report(calib::WritePages(calib::LayoutMarkerSheet(MarkerSheetFromArgs(*m)), m->out, m->dpi));
  });
}

calib::BoardSheetOptions BoardSheetFromArgs(const PrintArgs& a) {
  calib::BoardSheetOptions o;
  std::string paper = a.paper;
  std::transform(paper.begin(), paper.end(), paper.begin(), [](unsigned char c) { return std::tolower(c); });
  if (paper == "none")
    o.own_size = true;
  else
    o.paper = calib::ParsePaper(a.paper);
  return o;
}

void SetupBoard(CLI::App& cmd) {
  auto b = std::make_shared<PrintArgs>();
  CLI::App* board = cmd.add_subcommand("board", "A ChArUco board or chessboard centred on a page");
  board->add_option("board", b->board, "charuco:COLSxROWS:SQUARE_MM:MARKER_MM:DICT or chessboard:COLSxROWS:SQUARE_MM")->required();
  board->add_option("--out", b->out, "board.svg or board.png")->required();
  board->add_option("--paper", b->paper,
                    "a4 (default) or letter: a board too large for it is refused with the largest size that fits; "
                    "none: a page of the board's own size");
  board->add_option("--png-dpi", b->dpi, "Resolution of PNG output (default 300)");
  board->callback([b] {
    CheckOutputs({{b->out, "--out"}}, {});
    const calib::SheetPage page = calib::LayoutBoardSheet(BoardSheetFromArgs(*b), calib::ParseBoardSpec(b->board));
    Report(calib::WritePages({page}, b->out, b->dpi));
  });
}

void SetupPrint(CLI::App& root) {
  CLI::App* cmd = root.add_subcommand("print", "Printable marker sheets and calibration boards at exact scale (SVG in mm, or PNG)");
  cmd->require_subcommand(1);
  SetupMarkers(*cmd);
  SetupBoard(*cmd);
}

VEDETTE_COMMAND("print", SetupPrint);

}  // namespace
}  // namespace vedette::app
