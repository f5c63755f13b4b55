#include "vision/roster_draft.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <regex>
#include <sstream>
#include <stdexcept>

#include <opencv2/imgproc.hpp>

#include "calibration/dictionary.h"
#include "rules/input_error.h"
#include "rules/scene/scene_io.h"
#include "vision/detect.h"
#include "vision/locate.h"

namespace vedette::vision {

bool RosterDraftOptions::Check(std::string* error) const {
  auto fail = [&](const char* what) {
    if (error) *error = what;
    return false;
  };
  if (!(min_reliable_side_px > 0)) return fail("min_reliable_side_px must be > 0");
  if (!(max_size_mismatch > 0 && max_size_mismatch < 1)) return fail("max_size_mismatch must be within (0, 1)");
  if (!(size_step_mm > 0)) return fail("size_step_mm must be > 0");
  if (!(new_marker_height_mm >= 0)) return fail("new_marker_height_mm must be >= 0");
  if (!(new_base_margin_cells >= 0.5)) return fail("new_base_margin_cells must be >= 0.5 (what a roster needs)");
  if (!(smallest_marker_mm > 0)) return fail("smallest_marker_mm must be > 0");
  if (new_side.empty()) return fail("new_side must not be empty");
  return registration.Check(error);
}

Scene DefaultRosterTemplate(const std::string& dictionary, double width_mm, double depth_mm, const std::vector<int>& ids,
                            double size_mm, double inset_mm) {
  Scene s;
  s.dictionary = dictionary;
  s.table_width_mm = width_mm;
  s.table_depth_mm = depth_mm;
  const double x[4] = {inset_mm, width_mm - inset_mm, width_mm - inset_mm, inset_mm};
  const double y[4] = {inset_mm, inset_mm, depth_mm - inset_mm, depth_mm - inset_mm};
  for (size_t i = 0; i < ids.size() && i < 4; ++i) s.anchors.push_back(Anchor{ids[i], size_mm, x[i], y[i], 90.0, 0});
  return s;
}

namespace {

std::string Fmt(const char* fmt, double a, double b = 0, double c = 0) {
  char buf[256];
  std::snprintf(buf, sizeof buf, fmt, a, b, c);
  return buf;
}

cv::Point2f Centre(const std::array<cv::Point2f, 4>& c) { return (c[0] + c[1] + c[2] + c[3]) * 0.25f; }
double SidePx(const std::array<cv::Point2f, 4>& c) {
  double s = 0;
  for (int i = 0; i < 4; ++i) s += 0.25 * cv::norm(c[(i + 1) % 4] - c[i]);
  return s;
}

// Markers of the dictionary's family beyond its range: OpenCV's DICT_NxN_50/100/250 are the first
// codes of DICT_NxN_1000, so reading with that one finds the others (IDs past the roster's last).
// Markers the first reading already found are not counted again.
std::vector<calib::MarkerObservation> OutOfRange(const DetectorOptions& dopt, const cv::Mat& gray, const std::string& name,
                                                 int size, const std::vector<calib::MarkerObservation>& found) {
  std::smatch m;
  if (!std::regex_match(name, m, std::regex("DICT_([4-7])X\\1_(50|100|250)"))) return {};
  const auto family = calib::DictionaryByName("DICT_" + m[1].str() + "X" + m[1].str() + "_1000");
  std::vector<calib::MarkerObservation> out;
  for (const auto& o : DetectMarkers(dopt, gray, *family).markers) {
    if (o.id < size) continue;
    bool known = false;
    for (const auto& f : found) known |= cv::norm(Centre(f.corners_px) - Centre(o.corners_px)) < 0.5 * SidePx(o.corners_px);
    if (!known) out.push_back(o);
  }
  return out;
}

// A new unit for a marker the template does not list: its measured size, a square base with the
// margin round it, the marker at the base's centre, top edge to the unit's front.
Unit NewUnit(const RosterDraftOptions& o, int id, double size_mm, int cells, const Scene& roster) {
  Unit u;
  u.id = "U" + std::to_string(id);
  for (int n = 2; roster.FindUnit(u.id); ++n) u.id = "U" + std::to_string(id) + "_" + std::to_string(n);
  u.side = o.new_side;
  const double base = std::ceil(size_mm * (cells + 2 * o.new_base_margin_cells) / cells);
  u.bases = {BaseSpec{base, base, {0, 0}}};
  MarkerMount mount;
  mount.id = id;
  mount.size_mm = size_mm;
  mount.height_mm = o.new_marker_height_mm;
  u.marker = mount;
  return u;
}

struct Sighting {
  int id = -1;
  int count = 0;                         // spots it was seen at
  std::array<cv::Point2f, 4> corners_px; // the first
};

std::vector<Sighting> Sightings(const std::vector<calib::MarkerObservation>& markers, const Scene& from) {
  std::map<int, Sighting> by_id;
  for (const auto& m : markers) {
    if (std::any_of(from.anchors.begin(), from.anchors.end(), [&](const Anchor& a) { return a.marker == m.id; })) continue;
    Sighting& s = by_id[m.id];
    if (s.count++ == 0) s.corners_px = m.corners_px;
    s.id = m.id;
  }
  std::vector<Sighting> out;
  for (const auto& [id, s] : by_id) out.push_back(s);
  return out;
}

}  // namespace

namespace {

// Detection over every size a unit marker might have, not only the template's (a template made
// from --table lists only its large anchors).
Detections DetectAll(const RosterDraftOptions& o, const cv::Mat& gray, const calib::CameraIntrinsics& k, const Scene& from,
                     const cv::aruco::Dictionary& dict, DetectorOptions* used) {
  Scene sizes = from;
  Unit probe;
  probe.marker = MarkerMount{};
  probe.marker->size_mm = o.smallest_marker_mm;
  sizes.units.push_back(probe);
  *used = DetectorOptionsFor(sizes, k);
  return DetectMarkers(*used, gray, dict);
}

// The notes about the picture as a whole: an anchor seen twice, markers beyond the dictionary.
void PictureNotes(const Detections& det, const DetectorOptions& dopt, const cv::Mat& gray, const Scene& from, int dict_size,
                  RosterDraft* d) {
  for (int id : det.duplicate_ids)
    for (const Anchor& a : from.anchors)
      if (a.marker == id) d->notes.push_back("anchor marker " + std::to_string(id) + " seen at two spots: keep one of them");
  for (const auto& m : OutOfRange(dopt, gray, from.dictionary, dict_size, det.markers)) {
    const cv::Point2f c = Centre(m.corners_px);
    d->notes.push_back("marker " + std::to_string(m.id) + Fmt(" at image px (%.0f, %.0f)", c.x, c.y) + " is not in " +
                       from.dictionary + " (IDs 0-" + std::to_string(dict_size - 1) +
                       "): reprint it with a free ID of that dictionary");
  }
}

// One unit marker seen: the template's unit (its size checked) or a new one (its size measured).
// False when its corners do not meet the table plane.
bool DraftUnit(const RosterDraftOptions& o, const calib::CameraIntrinsics& k, const Sighting& s, const Unit* known, int cells,
               const Scene& taken, RosterDraft* d, Unit* out) {
  const double height = known ? known->marker->height_mm : o.new_marker_height_mm;
  const double nominal = known ? known->marker->size_mm : 16.0;  // only the residual uses it
  const MarkerOnPlane p = MarkerPoseOnPlane(k, d->registration.camera_from_table, s.corners_px, height, nominal);
  if (!p.ok) return false;
  const double rounded = std::max(o.size_step_mm, std::round(p.side_mm / o.size_step_mm) * o.size_step_mm);
  *out = known ? *known : NewUnit(o, s.id, rounded, cells, taken);
  out->pose.reset();
  std::vector<std::string>& flags = d->flags[out->id];
  d->seen_at[out->id] = Fmt("marker seen at x %.0f, y %.0f mm, measured %.2f mm across", p.centre_mm.x, p.centre_mm.y, p.side_mm);
  if (s.count > 1)
    flags.push_back("marker " + std::to_string(s.id) + " seen at " + std::to_string(s.count) +
                    " spots: two bases carry one ID; reprint one with a free ID");
  const double side_px = SidePx(s.corners_px);
  if (side_px < o.min_reliable_side_px)
    flags.push_back(Fmt("marker only %.0f px in the picture (read reliably from %.0f px): larger markers or the camera lower",
                        side_px, o.min_reliable_side_px));
  if (known && std::abs(p.side_mm - nominal) > o.max_size_mismatch * nominal)
    flags.push_back(Fmt("marker measures %.1f mm, the roster says %.1f mm: printed at another scale?", p.side_mm, nominal));
  return true;
}

}  // namespace

RosterDraft DraftRoster(const RosterDraftOptions& o, const cv::Mat& image, const calib::CameraIntrinsics& k,
                        const Scene& from, const std::string& image_name) {
  if (std::string error; !o.Check(&error)) throw std::invalid_argument("roster draft options: " + error);
  if (from.dictionary.empty()) throw InputError(from.source, 0, "the roster names no `dictionary:`");
  cv::Mat gray = image;
  if (image.channels() != 1) cv::cvtColor(image, gray, image.channels() == 4 ? cv::COLOR_BGRA2GRAY : cv::COLOR_BGR2GRAY);
  const cv::Ptr<cv::aruco::Dictionary> dict = calib::ResolveDictionary(from.dictionary);
  // Step 1: every marker in view.
  DetectorOptions dopt;
  const Detections det = DetectAll(o, gray, k, from, *dict, &dopt);
  // Step 2: the table, from the template's anchors (an ID seen twice cannot be trusted as one).
  RosterDraft d;
  std::vector<calib::MarkerObservation> usable;
  for (const auto& m : det.markers)
    if (std::find(det.duplicate_ids.begin(), det.duplicate_ids.end(), m.id) == det.duplicate_ids.end()) usable.push_back(m);
  d.registration = calib::RegisterTable(o.registration, k, from.anchors, usable);
  if (!d.registration.ok)
    throw InputError(image_name, 0, "cannot register the table: " + d.registration.message +
                                        " (the anchors must be in view at the roster's positions)");
  PictureNotes(det, dopt, gray, from, calib::DictionarySize(*dict), &d);
  // Step 3: each unit marker seen.
  std::vector<Unit> added;
  std::map<std::string, Unit> kept;
  Scene taken = from;  // ids in use: the template's and the new units' so far
  for (const Sighting& s : Sightings(det.markers, from)) {
    const Unit* known = nullptr;
    for (const Unit& u : from.units)
      if (u.marker && u.marker->id == s.id) known = &u;
    Unit u;
    if (!DraftUnit(o, k, s, known, dict->markerSize + 2, taken, &d, &u)) continue;
    if (known) kept[u.id] = u;
    else {
      taken.units.push_back(u);
      added.push_back(u);
    }
  }
  // Step 4: the template's units in their order (seen or not), then the new ones by marker.
  d.roster = from;
  d.roster.units.clear();
  for (const Unit& u : from.units) {
    Unit copy = u;
    copy.pose.reset();
    d.roster.units.push_back(kept.count(u.id) ? kept[u.id] : copy);
    if (kept.count(u.id)) d.kept.push_back(u.id);
    else if (u.marker) {
      d.not_seen.push_back(u.id);
      d.flags[u.id].push_back("not seen in this picture (kept as the roster had it)");
    }
  }
  for (const Unit& u : added) {
    d.roster.units.push_back(u);
    d.added.push_back(u.id);
  }
  for (auto it = d.flags.begin(); it != d.flags.end();) it = it->second.empty() ? d.flags.erase(it) : std::next(it);
  return d;
}

std::string RosterDraftYaml(const RosterDraft& draft, const std::vector<std::string>& header) {
  std::ostringstream out;
  for (const std::string& h : header) out << "# " << h << "\n";
  for (const std::string& n : draft.notes) out << "# NOTE: " << n << "\n";
  // Flags go on the lines before their unit's entry (SceneToYaml writes one unit per line).
  std::istringstream yaml(SceneToYaml(draft.roster));
  std::map<std::string, bool> placed;
  std::ostringstream body;
  for (std::string line; std::getline(yaml, line);) {
    for (const Unit& u : draft.roster.units) {
      if (placed[u.id] || line.find("{id: " + u.id + ",") == std::string::npos) continue;
      const std::string indent = line.substr(0, line.find('-'));
      if (auto it = draft.seen_at.find(u.id); it != draft.seen_at.end()) body << indent << "# " << u.id << ": " << it->second << "\n";
      if (auto it = draft.flags.find(u.id); it != draft.flags.end())
        for (const std::string& f : it->second) body << indent << "# FLAG " << u.id << ": " << f << "\n";
      placed[u.id] = true;
    }
    body << line << "\n";
  }
  // A unit whose line was not recognised still has its flags written (at the top).
  for (const auto& [id, flags] : draft.flags)
    if (!placed[id])
      for (const std::string& f : flags) out << "# FLAG " << id << ": " << f << "\n";
  out << body.str();
  return out.str();
}

}  // namespace vedette::vision
