#include "calibration/roster.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <set>

#include "calibration/dictionary.h"
#include "rules/geometry/vec.h"
#include "rules/input_error.h"
#include "rules/scene/scene_io.h"
#include "rules/path_checks.h"

namespace vedette::calib {
namespace {

std::string Mm(double v) {
  char s[32];
  std::snprintf(s, sizeof s, "%.1f", v);
  return s;
}

// A roster's custom dictionary file may be named relative to the roster itself.
std::string DictionaryPath(const Scene& roster) {
  namespace fs = std::filesystem;
  const fs::path name(roster.dictionary);
  if (name.is_absolute() || PathExists(name) || roster.source.empty()) return roster.dictionary;
  const fs::path beside = fs::path(roster.source).parent_path() / name;
  return PathExists(beside) ? beside.string() : roster.dictionary;
}

cv::Ptr<cv::aruco::Dictionary> RosterDictionary(const Scene& roster) {
  if (roster.dictionary.empty())
    throw InputError(roster.source, 0,
                     "the roster names no `dictionary:` (the marker family printed on the bases, e.g. "
                     "`dictionary: DICT_4X4_50`)");
  try {
    return ResolveDictionary(DictionaryPath(roster));
  } catch (const InputError& e) {
    throw InputError(roster.source, roster.dictionary_line, "dictionary: " + e.message());
  }
}

// Is a point of the unit's frame (right, forward; mm) on one of its bases?
bool OnBases(const Unit& u, geom::Vec2 p, double tolerance_mm) {
  for (const BaseSpec& b : u.bases) {
    const geom::Vec2 d = p - b.offset_mm;
    if (std::abs(d.x()) <= b.width_mm / 2 + tolerance_mm && std::abs(d.y()) <= b.depth_mm / 2 + tolerance_mm) return true;
  }
  return false;
}

// Does a square of half side `half_mm` about the marker's centre, turned with it, lie on the bases?
bool SquareOnBases(const Unit& u, double half_mm, double tolerance_mm) {
  const MarkerMount& m = *u.marker;
  const double a = m.heading_deg * M_PI / 180.0;
  const geom::Vec2 across(std::cos(a), std::sin(a)), along(-std::sin(a), std::cos(a));
  for (int sx : {-1, 1})
    for (int sy : {-1, 1})
      if (!OnBases(u, m.offset_mm + half_mm * (sx * across + sy * along), tolerance_mm)) return false;
  return true;
}

void CheckUnitMarker(const Scene& roster, const Unit& u, const cv::aruco::Dictionary& dict, const RosterOptions& o) {
  if (!u.marker)
    throw InputError(roster.source, u.line,
                     "unit " + u.id + " has no marker: the camera cannot place it (give it `marker: ID` and "
                     "`marker_size_mm`)");
  const MarkerMount& m = *u.marker;
  const int size = DictionarySize(dict);
  if (m.id >= size)
    throw InputError(roster.source, u.line,
                     "unit " + u.id + ": marker " + std::to_string(m.id) + " is not in " + roster.dictionary +
                         " (its IDs are 0-" + std::to_string(size - 1) + ")");
  const int cells = dict.markerSize + 2;
  const double margin = o.margin_cells * m.size_mm / cells;
  if (SquareOnBases(u, m.size_mm / 2 + margin, o.fit_tolerance_mm)) return;
  const double largest = LargestMarkerThatFits(u, cells, o.margin_cells);
  throw InputError(roster.source, u.line,
                   "unit " + u.id + ": its " + Mm(m.size_mm) + " mm marker needs a white margin of " + Mm(margin) +
                       " mm on every side, and that runs off its base: the cloth would touch the "
                       "marker's black border and no detector could read it. " +
                       (largest > 0 ? "Use a marker of at most " + Mm(std::floor(largest * 10) / 10) +
                                          " mm (marker_size_mm) or move it (marker_offset_mm)"
                                    : "Move it onto the base (marker_offset_mm)"));
}

}  // namespace

bool RosterOptions::Check(std::string* error) const {
  if (min_anchors < 3) return *error = "min_anchors must be at least 3 (a table is registered from 3 anchors)", false;
  if (!(margin_cells >= 0)) return *error = "margin_cells must be >= 0", false;
  if (!(fit_tolerance_mm >= 0)) return *error = "fit_tolerance_mm must be >= 0", false;
  return true;
}

double LargestMarkerThatFits(const Unit& unit, int cells, double margin_cells) {
  if (!unit.marker) return 0;
  const double grow = 1.0 + 2.0 * margin_cells / cells;  // quiet square side over marker side
  double lo = 0, hi = 0;
  for (const BaseSpec& b : unit.bases) hi = std::max(hi, std::max(b.width_mm, b.depth_mm));
  if (!SquareOnBases(unit, 1e-6, 0)) return 0;
  for (int i = 0; i < 50; ++i) {
    const double mid = (lo + hi) / 2;
    (SquareOnBases(unit, mid * grow / 2, 0) ? lo : hi) = mid;
  }
  return lo;
}

void CheckRoster(const Scene& roster, const RosterOptions& options) {
  if (std::string error; !options.Check(&error)) throw std::invalid_argument("RosterOptions: " + error);
  const cv::Ptr<cv::aruco::Dictionary> dict = RosterDictionary(roster);
  if (static_cast<int>(roster.anchors.size()) < options.min_anchors)
    throw InputError(roster.source, 0,
                     "the roster lists " + std::to_string(roster.anchors.size()) +
                         " anchors; the table is registered from at least " + std::to_string(options.min_anchors) +
                         " (markers lying at known spots, e.g. one 40 mm in from each corner: see "
                         "assets/rosters/totsk_small.yaml)");
  const int size = DictionarySize(*dict);
  for (const Anchor& a : roster.anchors)
    if (a.marker >= size)
      throw InputError(roster.source, a.line,
                       "anchor " + std::to_string(a.marker) + " is not in " + roster.dictionary + " (its IDs are 0-" +
                           std::to_string(size - 1) + ")");
  if (roster.units.empty()) throw InputError(roster.source, 0, "the roster lists no units");
  for (const Unit& u : roster.units) CheckUnitMarker(roster, u, *dict, options);
}

std::string AnchorsNotSeenAdvice(const Scene& roster) {
  std::string ids;
  for (const Anchor& a : roster.anchors) ids += (ids.empty() ? "" : ", ") + std::to_string(a.marker);
  return "the table was never registered: in no frame were 3 of the roster's anchors (markers " + ids + " of " +
         roster.dictionary + ", " + roster.source +
         ") seen together. Are they in view, lying flat where the roster says, and printed from that "
         "dictionary? `vedette check` shows what the camera sees";
}

Scene LoadRoster(const std::string& path, const RosterOptions& options) {
  return FinishRoster(LoadScene(path, SceneLoadOptions{.require_poses = false}), options);
}

Scene ParseRoster(const std::string& text, const std::string& source, const RosterOptions& options) {
  return FinishRoster(ParseScene(text, source, SceneLoadOptions{.require_poses = false}), options);
}

Scene FinishRoster(Scene roster, const RosterOptions& options) {
  for (Unit& u : roster.units) u.pose.reset();
  CheckRoster(roster, options);
  roster.dictionary = DictionaryPath(roster);  // later lookups need not know where the roster was
  return roster;
}

}  // namespace vedette::calib
