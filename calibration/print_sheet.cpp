#include "calibration/print_sheet.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "calibration/dictionary.h"
#include "rules/input_error.h"

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
  if (ids.empty()) return fail("no marker IDs to print");
  if (!(size_mm > 0)) return fail("size_mm must be positive");
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
  if (std::string error; !o.Check(&error)) throw InputError("print markers", 0, error);
  const auto dictionary = ResolveDictionary(o.dictionary);
  const int n = DictionarySize(*dictionary);
  for (int id : o.ids)
    if (id < 0 || id >= n)
      throw InputError("--ids", 0, "marker " + std::to_string(id) + " is not in " + o.dictionary + " (IDs 0.." +
                                       std::to_string(n - 1) + ")");
  const int cells = dictionary->markerSize + 2;
  const double cell = o.size_mm / cells;
  const double quiet = o.quiet_zone_mm > 0 ? o.quiet_zone_mm : std::max(cell, 2.0);
  // A tile: quiet zone, marker, quiet zone across; below the marker's quiet zone the ID label.
  const double tile_w = o.size_mm + 2 * quiet;
  const double label_band = o.label_height_mm * 1.8;
  const double tile_h = o.size_mm + 2 * quiet + label_band;
  const cv::Size2d paper = PaperSizeMm(o.paper);
  const double header = 8;  // title line and scale bar at the top of each page
  const double usable_w = paper.width - 2 * o.page_margin_mm;
  const double usable_h = paper.height - 2 * o.page_margin_mm - header - 6;
  const int per_row = static_cast<int>(std::floor(usable_w / tile_w + 1e-9));
  const int per_col = static_cast<int>(std::floor(usable_h / tile_h + 1e-9));
  if (per_row < 1 || per_col < 1)
    throw InputError("--size-mm", 0, "a " + Num(o.size_mm) + " mm marker with its quiet zone and label does not fit on the page");
  const int per_page = per_row * per_col;

  std::vector<SheetPage> pages;
  const int page_count = (static_cast<int>(o.ids.size()) + per_page - 1) / per_page;
  for (size_t k = 0; k < o.ids.size(); ++k) {
    const int p = static_cast<int>(k) / per_page, slot = static_cast<int>(k) % per_page;
    if (slot == 0) {
      SheetPage page;
      page.size_mm = paper;
      page.labels.push_back({{o.page_margin_mm, o.page_margin_mm + 3}, 3,
                             o.dictionary + ", " + Num(o.size_mm) + " mm markers (black square), page " +
                                 std::to_string(p + 1) + " of " + std::to_string(page_count)});
      AddScaleBar(&page, {o.page_margin_mm, paper.height - o.page_margin_mm});
      pages.push_back(page);
    }
    SheetPage& page = pages.back();
    const double x0 = o.page_margin_mm + (slot % per_row) * tile_w;
    const double y0 = o.page_margin_mm + header + (slot / per_row) * tile_h;
    SheetMarker m;
    m.id = o.ids[k];
    m.quiet_mm = cv::Rect2d(x0, y0, tile_w, tile_h);
    m.square_mm = cv::Rect2d(x0 + quiet, y0 + quiet, o.size_mm, o.size_mm);
    const cv::Mat grid = MarkerCells(*dictionary, m.id);
    for (int r = 0; r < cells; ++r)
      for (int c = 0; c < cells; ++c)
        if (grid.at<uchar>(r, c) == 0)
          m.black_cells_mm.emplace_back(m.square_mm.x + c * cell, m.square_mm.y + r * cell, cell, cell);
    page.markers.push_back(m);
    page.cut_lines_mm.push_back(m.quiet_mm);
    page.labels.push_back({{x0 + quiet, y0 + 2 * quiet + o.size_mm + o.label_height_mm * 1.3}, o.label_height_mm,
                           std::to_string(m.id)});
  }
  return pages;
}

SheetPage LayoutBoardSheet(const BoardSheetOptions& o, const BoardSpec& spec, std::string* note) {
  if (std::string error; !o.Check(&error)) throw InputError("print board", 0, error);
  const BoardPattern pattern = MakeBoardPattern(spec);
  const double label_band = 12;  // spec text and the scale bar below the board
  const double need_w = pattern.width_mm + 2 * o.quiet_zone_mm, need_h = pattern.height_mm + 2 * o.quiet_zone_mm + label_band;
  cv::Size2d paper = PaperSizeMm(o.paper);
  auto fits = [&](cv::Size2d p) {
    return need_w <= p.width - 2 * o.page_margin_mm + 1e-9 && need_h <= p.height - 2 * o.page_margin_mm + 1e-9;
  };
  SheetPage page;
  if (fits(paper)) {
    page.size_mm = paper;
  } else if (fits({paper.height, paper.width})) {
    page.size_mm = {paper.height, paper.width};
  } else {
    page.size_mm = {need_w + 2 * o.page_margin_mm, std::max(need_h, 0.0) + 2 * o.page_margin_mm};
    if (note)
      *note = "the board (" + Num(pattern.width_mm) + " x " + Num(pattern.height_mm) + " mm) does not fit on " +
              (o.paper == Paper::kA4 ? "A4" : "Letter") + "; the page is " + Num(page.size_mm.width) + " x " +
              Num(page.size_mm.height) + " mm: print it at 100 % on larger paper";
  }
  const double x0 = (page.size_mm.width - pattern.width_mm) / 2;
  const double y0 = (page.size_mm.height - label_band - pattern.height_mm) / 2;
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
    const cv::Size one = cv::getTextSize("0", cv::FONT_HERSHEY_SIMPLEX, 1.0, 1, &baseline);
    const double scale = l.height_mm * px_per_mm / one.height;
    cv::putText(img, l.text, to_px(l.at_mm), cv::FONT_HERSHEY_SIMPLEX, scale, cv::Scalar(0),
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
