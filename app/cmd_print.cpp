// vedette print markers --dict D --ids 10-49 --size-mm 16 --out sheet.svg [--paper a4|letter] [--png-dpi 300]
// vedette print board SPEC --out board.svg [--paper a4|letter] [--png-dpi 300]
#include <iostream>

#include "app/command.h"
#include "calibration/print_sheet.h"
#include "rules/input_error.h"

namespace vedette::app {
namespace {

struct PrintArgs {
  std::string dict = "DICT_4X4_50", ids, out, paper = "a4", board;
  double size_mm = 16, quiet_mm = 0, dpi = 300;
};

void Report(const std::vector<std::string>& files) {
  for (const auto& f : files) std::cout << "wrote " << f << "\n";
  std::cout << "print at 100 % (\"actual size\", no fit-to-page) and check the 100 mm scale bar with a ruler\n";
}

void SetupPrint(CLI::App& root) {
  CLI::App* cmd = root.add_subcommand("print", "Printable marker sheets and calibration boards at exact scale (SVG in mm, or PNG)");
  cmd->require_subcommand(1);

  auto m = std::make_shared<PrintArgs>();
  CLI::App* markers = cmd->add_subcommand("markers", "ArUco markers with quiet zone, ID label and cut line, on A4/Letter pages");
  markers->add_option("--dict", m->dict, "Predefined dictionary name or custom dictionary file (default DICT_4X4_50)");
  markers->add_option("--ids", m->ids, "Marker IDs, e.g. 10-49 or 0,3,7-9")->required();
  markers->add_option("--size-mm", m->size_mm, "Side of the black square, mm (default 16)");
  markers->add_option("--quiet-mm", m->quiet_mm, "White margin around each marker, mm (default: one cell, at least 2)");
  markers->add_option("--out", m->out, "sheet.svg or sheet.png; several pages become sheet-1.svg, sheet-2.svg, ...")->required();
  markers->add_option("--paper", m->paper, "a4 (default) or letter");
  markers->add_option("--png-dpi", m->dpi, "Resolution of PNG output (default 300)");
  markers->callback([m] {
    calib::MarkerSheetOptions o;
    o.dictionary = m->dict;
    o.ids = calib::ParseIdList(m->ids);
    o.size_mm = m->size_mm;
    o.quiet_zone_mm = m->quiet_mm;
    o.paper = calib::ParsePaper(m->paper);
    if (std::string error; !o.Check(&error)) throw InputError("print markers", 0, error);
    Report(calib::WritePages(calib::LayoutMarkerSheet(o), m->out, m->dpi));
  });

  auto b = std::make_shared<PrintArgs>();
  CLI::App* board = cmd->add_subcommand("board", "A ChArUco board or chessboard centred on a page");
  board->add_option("board", b->board, "charuco:COLSxROWS:SQUARE_MM:MARKER_MM:DICT or chessboard:COLSxROWS:SQUARE_MM")->required();
  board->add_option("--out", b->out, "board.svg or board.png")->required();
  board->add_option("--paper", b->paper, "a4 (default) or letter");
  board->add_option("--png-dpi", b->dpi, "Resolution of PNG output (default 300)");
  board->callback([b] {
    calib::BoardSheetOptions o;
    o.paper = calib::ParsePaper(b->paper);
    std::string note;
    const calib::SheetPage page = calib::LayoutBoardSheet(o, calib::ParseBoardSpec(b->board), &note);
    Report(calib::WritePages({page}, b->out, b->dpi));
    if (!note.empty()) std::cerr << "vedette: note: " << note << "\n";
  });
}

VEDETTE_COMMAND("print", SetupPrint);

}  // namespace
}  // namespace vedette::app
