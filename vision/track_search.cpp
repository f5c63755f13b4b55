// Steps 1 and 2 of the tracker: what changed since the last frame, and every known marker
// re-measured where it is predicted.
#include <algorithm>
#include <chrono>
#include <cmath>

#include <opencv2/imgproc.hpp>

#include "calibration/registration.h"
#include "vision/change_map.h"
#include "vision/grey.h"
#include "vision/marker_geometry.h"
#include "vision/track_stages.h"
#include "vision/track_verify.h"

namespace vedette::vision {

namespace {

Quad Projected(const calib::CameraIntrinsics& k, const calib::CameraFromTable& camera,
               const std::array<cv::Point3d, 4>& table_corners) {
  const auto px = calib::ProjectToImage(k, camera, std::vector<cv::Point3d>(table_corners.begin(), table_corners.end()));
  Quad q;
  for (int i = 0; i < 4; ++i) q[i] = cv::Point2f(float(px[i].x), float(px[i].y));
  return q;
}

// A detector's options for an image scaled by `f` (2: up-sampled, 0.5: halved).
DetectorOptions ScaledDetector(DetectorOptions od, double f) {
  od.min_marker_side_px *= f;
  od.max_marker_side_px *= f;
  if (f > 1) {
    od.subpix_window_px = std::clamp(2 * od.subpix_window_px, 1, 20);
    od.edge_search_px = std::min(10.0, 2 * od.edge_search_px);
  } else {
    if (od.subpix_window_px > 0) od.subpix_window_px = std::max(1, od.subpix_window_px / 2);
    od.edge_search_px = std::max(0.5, 0.5 * od.edge_search_px);
  }
  od.max_edge_shift_px *= f;
  return od;
}

}  // namespace

void MarkChanges(TrackerState& s, FrameWork& w) {
  const TrackerOptions& o = s.o;
  w.step = o.change_step_px > 0 ? o.change_step_px : std::clamp(int(o.detector.min_marker_side_px / 4), 4, 8);
  cv::Mat small = SampleGrey(w.image, w.step);
  if (!s.prev_small.empty() && s.prev_small.size() == small.size())
    w.mask = ChangeMask(small, s.prev_small, o.change_levels, &w.changed_fraction);
  s.prev_small = small;
  auto changed_near = [&](const cv::Rect& r) {
    if (w.mask.empty()) return true;
    cv::Rect c(r.x / w.step - 1, r.y / w.step - 1, r.width / w.step + 3, r.height / w.step + 3);
    c &= cv::Rect(0, 0, w.mask.cols, w.mask.rows);
    return c.area() > 0 && cv::countNonZero(w.mask(c)) > 0;
  };
  for (auto& a : s.anchors) a.dirty = a.dirty || !a.has_last || changed_near(a.window);
  for (auto& u : s.units) {
    u.dirty = u.dirty || changed_near(u.window);
    if (u.spot_ref.valid && !u.spot_stale) u.spot_stale = u.dirty || changed_near(u.spot_ref.bounds_px);
  }
  // Full detection: first frame, no camera yet, the periodic one, or most of the image changed.
  w.full = !s.has_camera || w.out.frame == 0 || (o.full_detect_every_s > 0 && w.t - s.last_full_t >= o.full_detect_every_s) ||
           (w.changed_fraction > 0.3 && s.CanRunFull(w.t));
}

// Small windows of small markers are searched at twice the resolution (OpenCV's contour stage
// misses markers of 12-14 px in noise), then refined at the true resolution.
std::vector<calib::MarkerObservation> DetectInWindow(TrackerState& s, FrameWork& w, cv::Rect r, bool small_window,
                                                     bool half) {
  const TrackerOptions& o = s.o;
  r &= w.image_rect;
  std::vector<calib::MarkerObservation> found;
  if (r.width < 24 || r.height < 24) return found;
  const cv::Mat g = GreyCrop(w.image, r);
  const bool up = small_window && o.detector.min_marker_side_px < o.upscale_below_px;
  // The markers measured so far this frame, in the searched image's px: not read again.
  const float scale = up ? 2.0f : half ? 0.5f : 1.0f;
  std::vector<Quad> known;
  for (const auto& ob : w.obs) {
    if ((QuadBounds(ob.corners_px, 0) & r).area() == 0) continue;
    Quad q;
    for (int i = 0; i < 4; ++i)
      q[i] = (ob.corners_px[i] - cv::Point2f(float(r.x), float(r.y)) + cv::Point2f(0.5f, 0.5f)) * scale - cv::Point2f(0.5f, 0.5f);
    known.push_back(q);
  }
  // Windows and the band run every frame and hold few of the roster's markers: the second look is
  // left to the full detections (cold and periodic frames).
  DetectorOptions od = o.detector;
  od.second_look = false;
  Detections d;
  if (up || half) {
    cv::Mat scaled;
    if (up) cv::resize(g, scaled, cv::Size(), 2, 2, cv::INTER_LINEAR);
    else cv::resize(g, scaled, cv::Size(g.cols / 2, g.rows / 2), 0, 0, cv::INTER_AREA);
    d = DetectMarkers(ScaledDetector(od, scale), scaled, s.dict, known);
    // Found at another scale, refined at the true one (kept only when its bits still read).
    for (auto& mo : d.markers) {
      for (auto& c : mo.corners_px) c = (c + cv::Point2f(0.5f, 0.5f)) * (1.0f / scale) - cv::Point2f(0.5f, 0.5f);
      Quad refined = mo.corners_px;
      if (RefineMarkerCorners(o.detector, g, &refined, s.dict.markerSize + 2)) {
        const BitCheck bits = CheckMarkerBits(g, refined, s.CellsOf(mo.id));
        if (bits.errors >= 0 && bits.errors <= o.max_bit_errors) mo.corners_px = refined;
      }
    }
  } else {
    d = DetectMarkers(od, g, s.dict, known);
  }
  for (calib::MarkerObservation mo : d.markers) {
    for (auto& c : mo.corners_px) c += cv::Point2f(float(r.x), float(r.y));
    found.push_back(mo);
  }
  return found;
}

// The prediction is good (a tenth of a pixel at rest, a pixel or two moving), so the marker is
// first re-measured by RefineEdgeLines (one pass of at most 16 edge profiles a side searched
// within 1 px at rest, 32 within 2 px moving; no cornerSubPix): a fraction of the general
// refinement's cost, for every window of every frame. A failure falls back to the general
// refinement, from the prediction and from the last seen corners, then to a local detection.
bool SearchMarker(TrackerState& s, FrameWork& w, int id, const Quad& predicted, const Quad* last, cv::Rect* window,
                  Quad* found, bool resting) {
  const TrackerOptions& o = s.o;
  if (!QuadFinite(predicted)) return false;
  const int cells = s.dict.markerSize + 2;
  const double side = std::max(4.0, QuadSide(predicted));
  // od: the general refinement with these options; null: the predicted-quad refinement po.
  auto refine_from = [&](const Quad& start, const DetectorOptions* od, const EdgeLineOptions* po = nullptr) {
    const cv::Rect tight = QuadBounds(start, 6) & w.image_rect;
    if (tight.width < 8 || tight.height < 8 || tight != QuadBounds(start, 6)) return false;
    Quad c = start;
    for (auto& p : c) p -= cv::Point2f(float(tight.x), float(tight.y));
    const cv::Mat g = GreyCrop(w.image, tight);
    if (od ? !RefineMarkerCorners(*od, g, &c, cells) : !RefineEdgeLines(*po, g, cells, &c)) return false;
    const BitCheck bits = CheckMarkerBits(g, c, s.CellsOf(id));
    if (bits.errors < 0 || bits.errors > o.max_bit_errors) return false;
    for (auto& p : c) p += cv::Point2f(float(tight.x), float(tight.y));
    *found = c;
    *window = tight;
    ++w.out.timing.windows_refined;
    return true;
  };
  if (refine_from(predicted, nullptr, resting ? &o.rest_refine : &o.move_refine)) return true;
  if (refine_from(predicted, &o.detector)) return true;
  if (last && cv::norm(QuadCentre(*last) - QuadCentre(predicted)) > 0.5 && refine_from(*last, &o.detector)) return true;
  const double motion = last ? cv::norm(QuadCentre(predicted) - QuadCentre(*last)) : 0.0;
  const cv::Rect wide = QuadBounds(predicted, o.window_margin_sides * side + motion + 4) & w.image_rect;
  *window = wide;
  ++w.out.timing.windows_local;
  double best = 1e18;
  for (const auto& mo : DetectInWindow(s, w, wide, true)) {
    if (mo.id != id) continue;
    const double d = cv::norm(QuadCentre(mo.corners_px) - QuadCentre(predicted));
    if (d < best) best = d, *found = mo.corners_px;
  }
  return best < 1e18;
}

void SearchKnownMarkers(TrackerState& s, FrameWork& w) {
  const TrackerOptions& o = s.o;
  if (w.full) return;
  for (auto& a : s.anchors) {
    a.seen_now = false;
    if (!a.dirty && a.has_last && (w.out.frame % o.rest_refine_every) != 0) {
      ++w.out.timing.windows_skipped;
      ++w.held_anchors;
      continue;
    }
    const Quad pred = Projected(s.k, s.camera, calib::AnchorCornersInTable(a.anchor));
    Quad found;
    if (SearchMarker(s, w, a.anchor.marker, pred, a.has_last ? &a.last : nullptr, &a.window, &found, a.has_last && !a.dirty))
      w.obs.push_back({a.anchor.marker, found});
  }
  for (size_t i = 0; i < s.units.size(); ++i) {
    UnitTrack& u = s.units[i];
    if (u.vis.v == Visibility::kUnseen || u.vis.v == Visibility::kRemoved || !u.filter.initialized()) continue;
    const Unit& ru = s.roster.units[u.roster_index];
    if (!ru.marker) continue;
    const bool scheduled = ((w.out.frame + int(i)) % o.rest_refine_every) == 0;
    // Seen and resting: re-measured when something changed near it, else on its schedule. Moving:
    // every frame. Occluded or lifted: when something changed there (a hand left, a unit was
    // put back), else on the schedule, so an empty spot is confirmed empty.
    const bool need = u.vis.v == Visibility::kSeen ? (!u.filter.at_rest() || u.dirty || scheduled) : (u.dirty || scheduled);
    if (!need) {
      ++w.out.timing.windows_skipped;
      continue;
    }
    const bool dirty = u.dirty;
    u.dirty = false;
    const bool resting = u.vis.v == Visibility::kSeen && u.filter.at_rest() && !dirty;
    // The marker is searched where the filter predicts it, not where it was last measured: at rest
    // that is the projection of the averaged pose, so each measurement starts from the mean and
    // not from the last (noisy) measurement, whose pull would make the rest estimate wander
    // (tested: Tracker.MoveEventAndRestJitter).
    Unit placed = ru;
    placed.pose = u.filter.Predict(w.t);
    const Quad pred = Projected(s.k, s.camera, MarkerCornersInTable(PlacementOf(placed)));
    w.attempted_units.insert(int(i));
    Quad found;
    if (SearchMarker(s, w, ru.marker->id, pred, u.has_corners ? &u.corners : nullptr, &u.window, &found, resting))
      w.obs.push_back({ru.marker->id, found});
  }
}

}  // namespace vedette::vision
