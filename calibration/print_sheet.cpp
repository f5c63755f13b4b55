#include "calibration/print_sheet.h"

#include "calibration/roster.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <sstream>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "calibration/dictionary.h"
#include "rules/input_error.h"
#include "rules/scene/scene_io.h"

namespace vedette::calib {
namespace {

std::string Num(double v) {
  std::string s = cv::format("%.4f", v);
  s.erase(s.find_last_not_of('0') + 1);
  if (s.back() == '.') s.pop_back();
  return s == "-0" ? "0" : s;
}

std::string Escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '&') out += "&amp;";
    else if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '"') out += "&quot;";
    else out += c;
  }
  return out;
}

// A 100 mm bar with end ticks and 10 mm ticks, for checking the print scale with a ruler.
void AddScaleBar(SheetPage* page, cv::Point2d left_mm) {
  const cv::Point2d right = left_mm + cv::Point2d(100, 0);
  page->scale_bar_mm.emplace_back(left_mm, right);
  for (int i = 0; i <= 10; ++i) {
    const double tick = (i == 0 || i == 10) ? 3 : (i == 5 ? 2 : 1.2);
    page->scale_bar_mm.emplace_back(left_mm + cv::Point2d(10 * i, 0), left_mm + cv::Point2d(10 * i, -tick));
  }
  page->labels.push_back({left_mm + cv::Point2d(102, 0), 2.5, "100 mm: check with a ruler"});
}

// PNG bytes with a pHYs chunk (pixels per metre) after IHDR, so printers and viewers know the
// physical size; cv::imwrite does not write one.
std::vector<uchar> PngWithDpi(const cv::Mat& img, double dpi) {
  std::vector<uchar> png;
  cv::imencode(".png", img, png);
  static const auto table = [] {
    std::array<uint32_t, 256> t{};
    for (uint32_t n = 0; n < 256; ++n) {
      uint32_t c = n;
      for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      t[n] = c;
    }
    return t;
  }();
  const uint32_t ppm = static_cast<uint32_t>(std::lround(dpi / 0.0254));
  std::vector<uchar> chunk = {0, 0, 0, 9, 'p', 'H', 'Y', 's'};
  for (int i = 0; i < 2; ++i)
    for (int b = 3; b >= 0; --b) chunk.push_back(static_cast<uchar>((ppm >> (8 * b)) & 0xFF));
  chunk.push_back(1);  // unit: metre
  uint32_t crc = 0xFFFFFFFFu;
  for (size_t i = 4; i < chunk.size(); ++i) crc = table[(crc ^ chunk[i]) & 0xFF] ^ (crc >> 8);
  crc ^= 0xFFFFFFFFu;
  for (int b = 3; b >= 0; --b) chunk.push_back(static_cast<uchar>((crc >> (8 * b)) & 0xFF));
  const size_t after_ihdr = 8 + 25;  // signature, then IHDR (length, type, 13 data bytes, CRC)
  png.insert(png.begin() + static_cast<std::ptrdiff_t>(after_ihdr), chunk.begin(), chunk.end());
  return png;
}

const char* PaperName(Paper paper) { return paper == Paper::kA4 ? "A4" : "Letter"; }

// PNG labels are drawn with OpenCV's Hershey font, which has ASCII only: the middle dot of
// "B1 · 10" becomes '-', any other non-ASCII character '?'.
std::string AsciiText(const std::string& text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      out += static_cast<char>(c);
      continue;
    }
    out += text.compare(i, 2, "\u00b7") == 0 ? '-' : '?';
    while (i + 1 < text.size() && (static_cast<unsigned char>(text[i + 1]) & 0xC0) == 0x80) ++i;
  }
  return out;
}

constexpr int kLabelFont = cv::FONT_HERSHEY_SIMPLEX;

// Width of a label as PageToImage draws it; SVG's sans-serif is no wider, so this bounds both, mm.
double LabelWidthMm(const std::string& text, double height_mm) {
  int baseline = 0;
  const cv::Size one = cv::getTextSize("0", kLabelFont, 1.0, 1, &baseline);
  const cv::Size all = cv::getTextSize(AsciiText(text), kLabelFont, 1.0, 1, &baseline);
  return all.width * height_mm / one.height;
}

// Marker pages: a title line at the top; the footer (source, page i of n) and the scale bar at the bottom.
constexpr double kHeaderMm = 8;
constexpr double kFooterMm = 12;

double LabelBandMm(const MarkerSheetOptions& o) { return o.label_height_mm * 1.8; }

// A marker's tile: its quiet square (the cut line) with the label band below; a label wider than
// the square widens the tile so that neighbours' labels never run together.
struct Tile {
  double quiet_mm = 0;  // white margin around the black square, mm
  double side_mm = 0;   // quiet square: black square plus two quiet margins, mm
  cv::Size2d size_mm;   // whole tile, mm
};

Tile TileFor(const SheetEntry& e, int cells, const MarkerSheetOptions& o) {
  Tile t;
  t.quiet_mm = o.quiet_zone_mm > 0 ? o.quiet_zone_mm : std::max(e.size_mm / cells, 2.0);
  t.side_mm = e.size_mm + 2 * t.quiet_mm;
  t.size_mm = {std::max(t.side_mm, LabelWidthMm(e.label, o.label_height_mm)), t.side_mm + LabelBandMm(o)};
  return t;
}

// Names the source (and the unit) in errors: the roster file, or the option that gave bare IDs.
[[noreturn]] void EntryError(const MarkerSheetOptions& o, const SheetEntry& e, const std::string& option,
                             const std::string& why) {
  throw InputError(o.source.empty() ? option : o.source, e.line, (e.what.empty() ? "" : e.what + ": ") + why);
}

void CheckEntries(const MarkerSheetOptions& o, int dictionary_size, const std::vector<Tile>& tiles, cv::Size2d area) {
  for (size_t i = 0; i < o.markers.size(); ++i) {
    const SheetEntry& e = o.markers[i];
    if (e.id < 0 || e.id >= dictionary_size)
      EntryError(o, e, "--ids", "marker " + std::to_string(e.id) + " is not in " + o.dictionary + " (IDs 0.." +
                                    std::to_string(dictionary_size - 1) + ")");
    if (tiles[i].size_mm.width > area.width + 1e-9 || tiles[i].size_mm.height > area.height + 1e-9)
      EntryError(o, e, "--size-mm", "a " + Num(e.size_mm) + " mm marker with its quiet zone and label (" +
                                        Num(tiles[i].size_mm.width) + " x " + Num(tiles[i].size_mm.height) +
                                        " mm) does not fit on " + PaperName(o.paper) + " inside " +
                                        Num(o.page_margin_mm) + " mm margins");
  }
}

// A roster's bad `dictionary:` is reported against the roster, where it has to be fixed.
cv::Ptr<cv::aruco::Dictionary> SheetDictionary(const MarkerSheetOptions& o) {
  try {
    return ResolveDictionary(o.dictionary);
  } catch (const InputError& e) {
    if (o.source.empty()) throw;
    throw InputError(o.source, 0, std::string("dictionary: ") + e.what());
  }
}

struct Placement {
  int page = 0;
  cv::Point2d at_mm;  // tile's top-left on its page, mm
};

// Shelf packing: tiles go left to right in rows; a row that would cross the right margin, or a
// tile of another height, starts a new row, and a row that would cross the bottom a new page.
// `order` is tallest first, so big markers come first and every row is one straight strip that a
// single cut separates from the next.
std::vector<Placement> PackRows(const std::vector<Tile>& tiles, const std::vector<size_t>& order, cv::Rect2d area) {
  std::vector<Placement> out(tiles.size());
  int page = 0;
  double x = area.x, y = area.y, row_h = 0;
  for (size_t i : order) {
    const cv::Size2d t = tiles[i].size_mm;
    const bool other_height = std::abs(t.height - row_h) > 1e-9;
    if (x > area.x && (other_height || x + t.width > area.br().x + 1e-9)) x = area.x, y += row_h, row_h = 0;
    if (y > area.y && y + t.height > area.br().y + 1e-9) x = area.x, y = area.y, row_h = 0, ++page;
    out[i] = {page, {x, y}};
    x += t.width;
    row_h = std::max(row_h, t.height);
  }
  return out;
}

// "16" or "50 and 16": the sheet's black-square sizes, largest first.
std::string SizesText(const std::vector<SheetEntry>& markers) {
  std::vector<double> sizes;
  for (const SheetEntry& e : markers) sizes.push_back(e.size_mm);
  std::sort(sizes.rbegin(), sizes.rend());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  std::string text;
  for (size_t i = 0; i < sizes.size(); ++i)
    text += (i == 0 ? "" : i + 1 == sizes.size() ? " and " : ", ") + Num(sizes[i]);
  return text;
}

SheetPage MarkerPage(const MarkerSheetOptions& o, int index, int count) {
  SheetPage page;
  page.size_mm = PaperSizeMm(o.paper);
  const double m = o.page_margin_mm, bottom = page.size_mm.height - m;
  page.labels.push_back({{m, m + 3}, 3, o.dictionary + ", " + SizesText(o.markers) + " mm markers (black square)"});
  const std::string name = o.source.empty() ? o.dictionary + " markers" : o.source;
  page.labels.push_back({{m, bottom - 7}, 2.5,
                         name + " \u00b7 page " + std::to_string(index + 1) + " of " + std::to_string(count)});
  AddScaleBar(&page, {m, bottom});
  return page;
}

SheetMarker MakeMarker(const cv::aruco::Dictionary& dictionary, const SheetEntry& e, const Tile& t, cv::Point2d at) {
  const int cells = dictionary.markerSize + 2;
  const double cell = e.size_mm / cells;
  SheetMarker m;
  m.id = e.id;
  m.label = e.label;
  m.quiet_mm = cv::Rect2d(at.x, at.y, t.side_mm, t.side_mm);
  m.square_mm = cv::Rect2d(at.x + t.quiet_mm, at.y + t.quiet_mm, e.size_mm, e.size_mm);
  const cv::Mat grid = MarkerCells(dictionary, e.id);
  for (int r = 0; r < cells; ++r)
    for (int c = 0; c < cells; ++c)
      if (grid.at<uchar>(r, c) == 0)
        m.black_cells_mm.emplace_back(m.square_mm.x + c * cell, m.square_mm.y + r * cell, cell, cell);
  return m;
}

// The label under the cut line, in line with the black square when it fits there.
SheetLabel MarkerLabel(const SheetMarker& m, const Tile& t, const MarkerSheetOptions& o) {
  const double width = LabelWidthMm(m.label, o.label_height_mm);
  const double x = width <= t.side_mm - t.quiet_mm ? m.square_mm.x : m.quiet_mm.x;
  return {{x, m.quiet_mm.br().y + o.label_height_mm * 1.3}, o.label_height_mm, m.label};
}

// Board pages: below the board's quiet zone a caption band holds the spec and the scale bar.
constexpr double kBoardCaptionMm = 12;

// The board with its quiet zone all round and the caption band below, mm.
cv::Size2d BoardNeedMm(const BoardSheetOptions& o, const BoardSpec& spec) {
  return {spec.WidthMm() + 2 * o.quiet_zone_mm, spec.HeightMm() + 2 * o.quiet_zone_mm + kBoardCaptionMm};
}

// The paper portrait, else landscape, if `need` fits inside its margins.
std::optional<cv::Size2d> FittingOrientation(const BoardSheetOptions& o, cv::Size2d need) {
  const cv::Size2d paper = PaperSizeMm(o.paper);
  for (const cv::Size2d page : {paper, cv::Size2d(paper.height, paper.width)})
    if (need.width <= page.width - 2 * o.page_margin_mm + 1e-9 && need.height <= page.height - 2 * o.page_margin_mm + 1e-9)
      return page;
  return std::nullopt;
}

std::string DoesNotFitMessage(const BoardSheetOptions& o, const BoardSpec& spec) {
  const cv::Size2d paper = PaperSizeMm(o.paper);
  std::string m = ToString(spec) + " is " + Num(spec.WidthMm()) + " x " + Num(spec.HeightMm()) + " mm plus a " +
                  Num(o.quiet_zone_mm) + " mm quiet zone and a " + Num(kBoardCaptionMm) +
                  " mm caption: it does not fit " + PaperName(o.paper) + " (" + Num(paper.width) + " x " +
                  Num(paper.height) + " mm with " + Num(o.page_margin_mm) + " mm margins, either way up); ";
  if (const auto fitted = LargestFittingBoard(o, spec))
    m += ToString(*fitted) + " fits";
  else
    m += "no whole-mm square and marker size fits";
  return m + " (or --paper none prints a page of the board's own size, for larger paper)";
}

}  // namespace

Paper ParsePaper(const std::string& name) {
  std::string n = name;
  std::transform(n.begin(), n.end(), n.begin(), [](unsigned char c) { return std::tolower(c); });
  if (n == "a4") return Paper::kA4;
  if (n == "letter") return Paper::kLetter;
  throw InputError("--paper", 0, "unknown paper '" + name + "' (expected a4 or letter)");
}

cv::Size2d PaperSizeMm(Paper paper) { return paper == Paper::kA4 ? cv::Size2d(210, 297) : cv::Size2d(215.9, 279.4); }

bool MarkerSheetOptions::Check(std::string* error) const {
  auto fail = [&](const std::string& m) {
    if (error) *error = m;
    return false;
  };
  if (markers.empty()) return fail("no markers to print");
  for (const SheetEntry& e : markers)
    if (!(e.size_mm > 0)) return fail("marker " + std::to_string(e.id) + ": size_mm must be positive");
  if (!(quiet_zone_mm >= 0)) return fail("quiet_zone_mm must be >= 0");
  if (!(page_margin_mm >= 0)) return fail("page_margin_mm must be >= 0");
  if (!(label_height_mm > 0)) return fail("label_height_mm must be positive");
  return true;
}

bool BoardSheetOptions::Check(std::string* error) const {
  if (!(page_margin_mm >= 0) || !(quiet_zone_mm >= 0)) {
    if (error) *error = "page_margin_mm and quiet_zone_mm must be >= 0";
    return false;
  }
  return true;
}

std::vector<SheetEntry> IdEntries(const std::vector<int>& ids, double size_mm) {
  std::vector<SheetEntry> entries;
  for (int id : ids) entries.push_back({id, size_mm, std::to_string(id), "", 0});
  return entries;
}

MarkerSheetOptions RosterMarkerSheet(const Scene& roster) {
  MarkerSheetOptions o;
  o.source = roster.source.empty() ? "roster" : roster.source;
  if (roster.dictionary.empty())
    throw InputError(o.source, 0, "the roster has no 'dictionary:' (e.g. dictionary: DICT_4X4_50), so its markers cannot be drawn");
  o.dictionary = roster.dictionary;
  for (const Anchor& a : roster.anchors) {
    const std::string id = std::to_string(a.marker);
    o.markers.push_back({a.marker, a.size_mm, "anchor " + id + " (" + Num(a.size_mm) + " mm)", "anchor " + id, 0});
  }
  for (const Unit& u : roster.units)
    if (u.marker)
      o.markers.push_back({u.marker->id, u.marker->size_mm, u.id + " \u00b7 " + std::to_string(u.marker->id),
                           "unit " + u.id, u.line});
  if (o.markers.empty()) throw InputError(o.source, 0, "the roster has no anchors and no unit markers to print");
  return o;
}

MarkerSheetOptions LoadRosterMarkerSheet(const std::string& path) {
  // Read by the loader every --roster goes through, so a sheet is never printed for a roster
  // that `live` would refuse.
  return RosterMarkerSheet(LoadRoster(path));
}

std::vector<int> ParseIdList(const std::string& text) {
  std::vector<int> ids;
  std::stringstream in(text);
  std::string item;
  auto bad = [&](const std::string& why) {
    throw InputError("--ids", 0, "'" + text + "': " + why + " (expected e.g. 10-49 or 0,3,7-9)");
  };
  auto number = [&](const std::string& s) {
    if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos) bad("'" + s + "' is not a marker ID");
    if (s.size() > 6) bad("'" + s + "' is too large");
    return std::stoi(s);
  };
  while (std::getline(in, item, ',')) {
    item.erase(std::remove(item.begin(), item.end(), ' '), item.end());
    const size_t dash = item.find('-');
    if (dash == std::string::npos) {
      ids.push_back(number(item));
    } else {
      const int a = number(item.substr(0, dash)), b = number(item.substr(dash + 1));
      if (b < a) bad("range " + item + " runs backwards");
      for (int i = a; i <= b; ++i) ids.push_back(i);
    }
  }
  if (ids.empty()) bad("no IDs");
  std::vector<int> sorted = ids;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) bad("an ID is listed twice");
  return ids;
}

std::vector<SheetPage> LayoutMarkerSheet(const MarkerSheetOptions& o) {
  if (std::string error; !o.Check(&error)) throw InputError(o.source.empty() ? "print markers" : o.source, 0, error);
  const auto dictionary = SheetDictionary(o);
  std::vector<Tile> tiles;
  for (const SheetEntry& e : o.markers) tiles.push_back(TileFor(e, dictionary->markerSize + 2, o));
  const cv::Size2d paper = PaperSizeMm(o.paper);
  const cv::Rect2d area(o.page_margin_mm, o.page_margin_mm + kHeaderMm, paper.width - 2 * o.page_margin_mm,
                        paper.height - 2 * o.page_margin_mm - kHeaderMm - kFooterMm);
  CheckEntries(o, DictionarySize(*dictionary), tiles, area.size());

  std::vector<size_t> order(tiles.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return tiles[a].size_mm.height > tiles[b].size_mm.height; });
  const std::vector<Placement> placed = PackRows(tiles, order, area);
  const int page_count = placed[order.back()].page + 1;
  std::vector<SheetPage> pages;
  for (int p = 0; p < page_count; ++p) pages.push_back(MarkerPage(o, p, page_count));
  for (size_t i : order) {
    SheetPage& page = pages[static_cast<size_t>(placed[i].page)];
    const SheetMarker m = MakeMarker(*dictionary, o.markers[i], tiles[i], placed[i].at_mm);
    page.cut_lines_mm.push_back(m.quiet_mm);
    page.labels.push_back(MarkerLabel(m, tiles[i], o));
    page.markers.push_back(m);
  }
  return pages;
}

SheetPage LayoutBoardSheet(const BoardSheetOptions& o, const BoardSpec& spec) {
  if (std::string error; !o.Check(&error)) throw InputError("print board", 0, error);
  const BoardPattern pattern = MakeBoardPattern(spec);
  const cv::Size2d need = BoardNeedMm(o, spec);
  SheetPage page;
  if (o.own_size) {
    page.size_mm = {need.width + 2 * o.page_margin_mm, need.height + 2 * o.page_margin_mm};
  } else if (const auto fitted = FittingOrientation(o, need)) {
    page.size_mm = *fitted;
  } else {
    throw InputError("--paper", 0, DoesNotFitMessage(o, spec));
  }
  const double x0 = (page.size_mm.width - pattern.width_mm) / 2;
  const double y0 = (page.size_mm.height - kBoardCaptionMm - pattern.height_mm) / 2;
  page.board_mm = cv::Rect2d(x0, y0, pattern.width_mm, pattern.height_mm);
  for (const cv::Rect2d& r : pattern.black_mm) page.board_black_mm.emplace_back(r.x + x0, r.y + y0, r.width, r.height);
  page.cut_lines_mm.emplace_back(x0 - o.quiet_zone_mm, y0 - o.quiet_zone_mm, pattern.width_mm + 2 * o.quiet_zone_mm,
                                 pattern.height_mm + 2 * o.quiet_zone_mm);
  const double below = y0 + pattern.height_mm + o.quiet_zone_mm;
  page.labels.push_back({{x0, below + 4}, 3,
                         ToString(spec) + (spec.kind == BoardKind::kCharuco ? " (COLSxROWS squares)" : " (inner corners)")});
  AddScaleBar(&page, {std::min(x0, o.page_margin_mm + 5), below + 10});
  return page;
}

std::optional<BoardSpec> LargestFittingBoard(const BoardSheetOptions& o, const BoardSpec& spec) {
  const cv::Size2d paper = PaperSizeMm(o.paper);
  double best = 0;
  for (const cv::Size2d page : {paper, cv::Size2d(paper.height, paper.width)}) {
    const double across = (page.width - 2 * o.page_margin_mm - 2 * o.quiet_zone_mm) / spec.SquaresX();
    const double down = (page.height - 2 * o.page_margin_mm - 2 * o.quiet_zone_mm - kBoardCaptionMm) / spec.SquaresY();
    best = std::max(best, std::min(across, down));
  }
  BoardSpec fitted = spec;
  fitted.square_mm = std::floor(best + 1e-9);
  // A ChArUco marker keeps its share of the square, so the board detects as well as the one asked for.
  if (spec.kind == BoardKind::kCharuco) fitted.marker_mm = std::floor(spec.marker_mm / spec.square_mm * fitted.square_mm + 1e-9);
  if (fitted.square_mm < 1 || (spec.kind == BoardKind::kCharuco && fitted.marker_mm < 1)) return std::nullopt;
  fitted.text = ToString(fitted);
  return fitted;
}

std::string PageToSvg(const SheetPage& page) {
  std::ostringstream s;
  s << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    << "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"" << Num(page.size_mm.width) << "mm\" height=\""
    << Num(page.size_mm.height) << "mm\" viewBox=\"0 0 " << Num(page.size_mm.width) << " " << Num(page.size_mm.height)
    << "\" shape-rendering=\"crispEdges\">\n";
  s << "<rect x=\"0\" y=\"0\" width=\"" << Num(page.size_mm.width) << "\" height=\"" << Num(page.size_mm.height)
    << "\" fill=\"#fff\"/>\n";
  auto rect = [&](const cv::Rect2d& r, const char* fill) {
    s << "<rect x=\"" << Num(r.x) << "\" y=\"" << Num(r.y) << "\" width=\"" << Num(r.width) << "\" height=\""
      << Num(r.height) << "\" fill=\"" << fill << "\"/>\n";
  };
  for (const SheetMarker& m : page.markers) {
    s << "<g id=\"marker-" << m.id << "\">\n";
    rect(m.quiet_mm, "#fff");
    for (const cv::Rect2d& r : m.black_cells_mm) rect(r, "#000");
    s << "</g>\n";
  }
  if (!page.board_black_mm.empty()) {
    s << "<g id=\"board\">\n";
    for (const cv::Rect2d& r : page.board_black_mm) rect(r, "#000");
    s << "</g>\n";
  }
  s << "<g id=\"cut-lines\" fill=\"none\" stroke=\"#888\" stroke-width=\"0.2\" stroke-dasharray=\"2,1.5\">\n";
  for (const cv::Rect2d& r : page.cut_lines_mm)
    s << "<rect x=\"" << Num(r.x) << "\" y=\"" << Num(r.y) << "\" width=\"" << Num(r.width) << "\" height=\""
      << Num(r.height) << "\"/>\n";
  s << "</g>\n";
  if (!page.scale_bar_mm.empty()) {
    s << "<g id=\"scale-bar\" stroke=\"#000\" stroke-width=\"0.25\">\n";
    for (const auto& [a, b] : page.scale_bar_mm)
      s << "<line x1=\"" << Num(a.x) << "\" y1=\"" << Num(a.y) << "\" x2=\"" << Num(b.x) << "\" y2=\"" << Num(b.y) << "\"/>\n";
    s << "</g>\n";
  }
  s << "<g id=\"labels\" font-family=\"Helvetica, Arial, sans-serif\" fill=\"#000\">\n";
  for (const SheetLabel& l : page.labels)
    // Font size is the em height; a sans-serif cap height is about 0.72 em.
    s << "<text x=\"" << Num(l.at_mm.x) << "\" y=\"" << Num(l.at_mm.y) << "\" font-size=\"" << Num(l.height_mm / 0.72)
      << "\">" << Escape(l.text) << "</text>\n";
  s << "</g>\n</svg>\n";
  return s.str();
}

cv::Mat PageToImage(const SheetPage& page, double dpi) {
  const double px_per_mm = dpi / 25.4;
  cv::Mat img(static_cast<int>(std::lround(page.size_mm.height * px_per_mm)),
              static_cast<int>(std::lround(page.size_mm.width * px_per_mm)), CV_8UC1, cv::Scalar(255));
  // A pixel is black when its centre is inside the rect; edges snap to the pixel grid, so cells of
  // one marker share edges exactly with no seams.
  auto fill = [&](const cv::Rect2d& r, int value) {
    const int x0 = static_cast<int>(std::lround(r.x * px_per_mm)), x1 = static_cast<int>(std::lround((r.x + r.width) * px_per_mm));
    const int y0 = static_cast<int>(std::lround(r.y * px_per_mm)), y1 = static_cast<int>(std::lround((r.y + r.height) * px_per_mm));
    const cv::Rect px = cv::Rect(x0, y0, x1 - x0, y1 - y0) & cv::Rect(0, 0, img.cols, img.rows);
    if (px.area() > 0) img(px).setTo(value);
  };
  auto to_px = [&](cv::Point2d p) { return cv::Point(static_cast<int>(std::lround(p.x * px_per_mm)), static_cast<int>(std::lround(p.y * px_per_mm))); };
  for (const SheetMarker& m : page.markers) {
    fill(m.quiet_mm, 255);
    for (const cv::Rect2d& r : m.black_cells_mm) fill(r, 0);
  }
  for (const cv::Rect2d& r : page.board_black_mm) fill(r, 0);
  const int thin = std::max(1, static_cast<int>(std::lround(0.2 * px_per_mm)));
  for (const cv::Rect2d& r : page.cut_lines_mm) {
    const cv::Point2d c[4] = {{r.x, r.y}, {r.x + r.width, r.y}, {r.x + r.width, r.y + r.height}, {r.x, r.y + r.height}};
    for (int e = 0; e < 4; ++e) {
      const cv::Point2d a = c[e], b = c[(e + 1) % 4];
      const double len = cv::norm(b - a);
      for (double t = 0; t < len; t += 3.5) {
        const double t1 = std::min(len, t + 2.0);
        cv::line(img, to_px(a + (b - a) * (t / len)), to_px(a + (b - a) * (t1 / len)), cv::Scalar(136), thin);
      }
    }
  }
  for (const auto& [a, b] : page.scale_bar_mm) cv::line(img, to_px(a), to_px(b), cv::Scalar(0), thin);
  for (const SheetLabel& l : page.labels) {
    int baseline = 0;
    const cv::Size one = cv::getTextSize("0", kLabelFont, 1.0, 1, &baseline);
    const double scale = l.height_mm * px_per_mm / one.height;
    cv::putText(img, AsciiText(l.text), to_px(l.at_mm), kLabelFont, scale, cv::Scalar(0),
                std::max(1, static_cast<int>(std::lround(scale * 1.5))), cv::LINE_AA);
  }
  return img;
}

std::vector<std::string> WritePages(const std::vector<SheetPage>& pages, const std::string& path, double png_dpi) {
  const std::filesystem::path p(path);
  std::string ext = p.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  if (ext != ".svg" && ext != ".png") throw InputError(path, 0, "the output must end in .svg or .png");
  if (ext == ".png" && !(png_dpi >= 30 && png_dpi <= 2400)) throw InputError("--png-dpi", 0, "must be between 30 and 2400");
  std::vector<std::string> written;
  for (size_t i = 0; i < pages.size(); ++i) {
    std::string name = path;
    if (pages.size() > 1) name = (p.parent_path() / (p.stem().string() + "-" + std::to_string(i + 1) + p.extension().string())).string();
    if (ext == ".svg") {
      std::ofstream out(name);
      out << PageToSvg(pages[i]);
      if (!out) throw InputError(name, 0, "cannot be written");
    } else {
      const std::vector<uchar> png = PngWithDpi(PageToImage(pages[i], png_dpi), png_dpi);
      std::ofstream out(name, std::ios::binary);
      out.write(reinterpret_cast<const char*>(png.data()), static_cast<std::streamsize>(png.size()));
      if (!out) throw InputError(name, 0, "cannot be written");
    }
    written.push_back(name);
  }
  return written;
}

}  // namespace vedette::calib
