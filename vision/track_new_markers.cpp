// Step 3 of the tracker: markers nobody expected. Unexplained change gets a local detection (a
// unit put down shows up in the frame it appears), a band sweeping down the table gets another,
// and a surprise (an unknown or second marker, anchors lost) a full-frame detection.
#include <algorithm>
#include <chrono>
#include <cmath>

#include "vision/change_map.h"
#include "vision/track_stages.h"

namespace vedette::vision {

namespace {

using Clock = std::chrono::steady_clock;
double Ms(Clock::time_point a) { return std::chrono::duration<double, std::milli>(Clock::now() - a).count(); }

// New markers are looked for on the table (grown by a base), not in the room around it: a 4:3
// table in a 16:9 frame leaves a third of the columns to the floor, and the players' arms beside
// the table change the picture all the time.
cv::Rect TableArea(const TrackerState& s, const FrameWork& w) {
  if (s.table_px.empty()) return w.image_rect;
  const int grow = int(std::ceil(1.5 * s.max_unit_side_px));
  const cv::Rect a = cv::Rect(s.table_px.x - grow, s.table_px.y - grow, s.table_px.width + 2 * grow,
                              s.table_px.height + 2 * grow) & w.image_rect;
  return (a.width >= 24 && a.height >= 24) ? a : w.image_rect;
}

void TakeNew(TrackerState& s, FrameWork& w, const std::vector<calib::MarkerObservation>& found) {
  for (const auto& mo : found) {
    if (w.KnownHere(mo)) continue;
    const bool is_unit = s.unit_by_marker.count(mo.id) > 0, is_anchor = s.anchor_by_marker.count(mo.id) > 0;
    if (!is_unit && !is_anchor) w.surprise = true;
    if (std::any_of(w.obs.begin(), w.obs.end(), [&](const auto& o) { return o.id == mo.id; })) w.surprise = true;  // a second spot
    if (is_unit) w.attempted_units.insert(s.unit_by_marker[mo.id]);
    w.obs.push_back(mo);
  }
}

// Change the found markers and their bases do not explain.
void SearchUnexplainedChange(TrackerState& s, FrameWork& w, const cv::Rect& table_area) {
  std::vector<cv::Rect> explained;
  // A base reaches about 1.5 marker sides beyond its marker; a moving one also sweeps its motion.
  for (const auto& o : w.obs) explained.push_back(QuadBounds(o.corners_px, 3 * QuadSide(o.corners_px) + 2 * w.step));
  for (const auto& u : s.units)
    if (u.has_corners && u.vis.v == Visibility::kSeen) explained.push_back(QuadBounds(u.corners, 3 * QuadSide(u.corners) + 2 * w.step));
  // A still table changes nowhere: labelling an empty mask is skipped. (Blanking the explained
  // boxes first is not equivalent: a unit put down between two others lies in their union.)
  const std::vector<cv::Rect> components = w.changed_fraction > 0 ? ChangeComponents(Pool2(w.mask)) : std::vector<cv::Rect>{};
  const int pstep = 2 * w.step;  // px per pooled cell
  std::vector<cv::Rect> regions;
  double area = 0;
  for (const cv::Rect& c : components) {
    const cv::Rect r(c.x * pstep, c.y * pstep, c.width * pstep, c.height * pstep);
    if (std::any_of(explained.begin(), explained.end(), [&](const cv::Rect& e) { return (r & e) == r; })) continue;
    const int grow = int(std::ceil(s.max_side_px)) + w.step;
    const cv::Rect g = cv::Rect(r.x - grow, r.y - grow, r.width + 2 * grow, r.height + 2 * grow) & table_area;
    if (g.empty()) continue;
    regions.push_back(g);
    area += g.area();
  }
  w.out.timing.regions = int(regions.size());
  if (area > 0.35 * w.image_rect.area() && s.CanRunFull(w.t)) {
    w.full = true;
    return;
  }
  for (const cv::Rect& r : regions) TakeNew(s, w, DetectInWindow(s, w, r, r.area() < 0.05 * w.image_rect.area()));
}

// The band owes image rows at image.rows per band_cycle_s; a strip runs once enough are owed, so
// the cost per second does not depend on the frame rate. It sweeps the table, not the room.
void SweepBand(TrackerState& s, FrameWork& w, const cv::Rect& area) {
  const TrackerOptions& o = s.o;
  if (s.band_row >= area.height) s.band_row = 0;  // the camera moved
  if (s.band_last_t >= 0) s.band_rows_owed += std::max(0.0, w.t - s.band_last_t) * area.height / o.band_cycle_s;
  s.band_rows_owed = std::min(s.band_rows_owed, double(area.height));  // after a long gap one sweep is enough
  s.band_last_t = w.t;
  // Anchors are never looked for here (windows and full detections keep them): the overlap only
  // has to hold the largest unit marker.
  const int overlap = int(std::ceil(s.max_unit_side_px * 1.1)) + 2;
  const int min_rows = std::max(16, int(o.band_strip_sides * s.max_unit_side_px));
  const int rows_left = area.height - s.band_row;
  if (!w.full && s.band_rows_owed >= std::min(min_rows, rows_left)) {
    const auto tb = Clock::now();
    const int h = std::min(rows_left, int(s.band_rows_owed));
    const bool half = o.band_half_res_min_side_px > 0 && o.detector.min_marker_side_px >= o.band_half_res_min_side_px;
    TakeNew(s, w, DetectInWindow(s, w, cv::Rect(area.x, area.y + s.band_row - overlap, area.width, h + 2 * overlap) & w.image_rect,
                                 false, half));
    s.band_rows_owed -= h;
    s.band_row = (s.band_row + h) % area.height;
    w.out.timing.band_ms = Ms(tb);
  }
  if (w.full) s.band_rows_owed = 0;  // a full detection has just looked everywhere
}

void RunFullDetection(TrackerState& s, FrameWork& w) {
  const auto tf = Clock::now();
  std::vector<calib::MarkerObservation> windows = std::move(w.obs);
  w.obs = DetectMarkers(s.o.detector, w.image, s.dict).markers;
  s.last_full_t = w.t;
  w.out.timing.full_detection = true;
  w.out.timing.full_ms += Ms(tf);
  for (size_t i = 0; i < s.units.size(); ++i) w.attempted_units.insert(int(i));
  // Keep what the windows found and the full pass missed (e.g. a marker at the image border).
  for (const auto& m : windows)
    if (!w.KnownHere(m)) w.obs.push_back(m);
}

}  // namespace

void FindNewMarkers(TrackerState& s, FrameWork& w) {
  const auto tsur = Clock::now();
  const cv::Rect table_area = TableArea(s, w);
  if (!w.full && !w.mask.empty()) {
    SearchUnexplainedChange(s, w, table_area);
    w.out.timing.regions_ms = Ms(tsur);
  }
  if (s.o.band_cycle_s > 0) SweepBand(s, w, table_area);
  if (!w.full) {
    int anchors_found = 0;
    for (const auto& o : w.obs) anchors_found += s.anchor_by_marker.count(o.id) ? 1 : 0;
    const int needed = std::min<int>(s.o.registration.min_anchors, int(s.anchors.size()));
    if ((anchors_found + w.held_anchors < needed || w.surprise) && s.CanRunFull(w.t)) w.full = true;
  }
  w.out.timing.surprise_ms = Ms(tsur);
  if (w.full) RunFullDetection(s, w);
}

}  // namespace vedette::vision
