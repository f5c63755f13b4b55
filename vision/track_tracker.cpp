#include "vision/track_tracker.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>

#include "calibration/dictionary.h"
#include "vision/track_stages.h"

namespace vedette::vision {

bool TrackerOptions::Check(std::string* error) const {
  auto fail = [&](const std::string& m) { if (error) *error = m; return false; };
  std::string sub;
  if (!detector.Check(&sub)) return fail("detector: " + sub);
  if (!registration.Check(&sub)) return fail("registration: " + sub);
  if (!filter.Check(&sub)) return fail("filter: " + sub);
  if (!visibility.Check(&sub)) return fail("visibility: " + sub);
  if (!spot.Check(&sub)) return fail("spot: " + sub);
  if (!rest_refine.Check(&sub)) return fail("rest_refine: " + sub);
  if (!move_refine.Check(&sub)) return fail("move_refine: " + sub);
  if (change_step_px < 0 || change_step_px > 16) return fail("change_step_px must be 1..16 px (0: automatic)");
  if (!(change_levels > 0 && change_levels < 255)) return fail("change_levels must be in (0, 255)");
  if (rest_refine_every < 1) return fail("rest_refine_every must be >= 1 frame");
  if (!(window_margin_sides > 0)) return fail("window_margin_sides must be positive");
  if (max_bit_errors < 0) return fail("max_bit_errors must be >= 0");
  if (!(upscale_below_px >= 0)) return fail("upscale_below_px must be >= 0 (px)");
  if (!(band_cycle_s >= 0)) return fail("band_cycle_s must be >= 0 (s; 0: no band pass)");
  if (!(band_strip_sides >= 1)) return fail("band_strip_sides must be at least 1 (marker sides)");
  if (!(band_half_res_min_side_px >= 0)) return fail("band_half_res_min_side_px must be >= 0 (px; 0: never)");
  if (!(max_full_detect_hz > 0)) return fail("max_full_detect_hz must be positive");
  if (!(full_detect_every_s >= 0)) return fail("full_detect_every_s must be >= 0 (s)");
  if (!(bump_px > 0)) return fail("bump_px must be positive (px)");
  if (!(registration_window_s > 0)) return fail("registration_window_s must be positive (s)");
  if (!(registration_refresh_px > 0)) return fail("registration_refresh_px must be positive (px)");
  if (spot_refresh_max < 8) return fail("spot_refresh_max must be at least 8 measurements");
  if (!(move_min_mm >= 0) || !(move_min_deg >= 0)) return fail("move_min_mm and move_min_deg must be >= 0");
  if (!(group_window_s >= 0)) return fail("group_window_s must be >= 0 (s)");
  if (max_path_points < 2) return fail("max_path_points must be at least 2");
  return true;
}

std::string_view ToString(UnitState s) {
  switch (s) {
    case UnitState::kUnseen: return "unseen";
    case UnitState::kSeen: return "seen";
    case UnitState::kMoving: return "moving";
    case UnitState::kAtRest: return "at_rest";
    case UnitState::kOccluded: return "occluded";
    case UnitState::kLifted: return "lifted";
    case UnitState::kRemoved: return "removed";
  }
  return "unseen";
}

bool OnTable(UnitState s) {
  return s == UnitState::kSeen || s == UnitState::kMoving || s == UnitState::kAtRest || s == UnitState::kOccluded;
}

std::string_view ToString(TrackEventType t) {
  switch (t) {
    case TrackEventType::kMove: return "move";
    case TrackEventType::kGroupMove: return "group_move";
    case TrackEventType::kAppeared: return "appeared";
    case TrackEventType::kOccluded: return "occluded";
    case TrackEventType::kLifted: return "lifted";
    case TrackEventType::kReplaced: return "replaced";
    case TrackEventType::kRemoved: return "removed";
    case TrackEventType::kDuplicateId: return "duplicate_id";
    case TrackEventType::kUnknownMarker: return "unknown_marker";
    case TrackEventType::kCameraMoved: return "camera_moved";
    case TrackEventType::kRegistrationLost: return "registration_lost";
  }
  return "";
}

cv::Point2f QuadCentre(const Quad& c) { return 0.25f * (c[0] + c[1] + c[2] + c[3]); }

double QuadSide(const Quad& c) {
  double s = 0;
  for (int i = 0; i < 4; ++i) s += cv::norm(c[(i + 1) % 4] - c[i]);
  return s / 4;
}

cv::Rect QuadBounds(const Quad& c, double grow) {
  float x0 = c[0].x, x1 = c[0].x, y0 = c[0].y, y1 = c[0].y;
  for (const auto& p : c) {
    x0 = std::min(x0, p.x), x1 = std::max(x1, p.x), y0 = std::min(y0, p.y), y1 = std::max(y1, p.y);
  }
  return cv::Rect(cv::Point(int(std::floor(x0 - grow)), int(std::floor(y0 - grow))),
                  cv::Point(int(std::ceil(x1 + grow)) + 1, int(std::ceil(y1 + grow)) + 1));
}

bool QuadFinite(const Quad& c) {
  for (const auto& p : c)
    if (!std::isfinite(p.x) || !std::isfinite(p.y)) return false;
  return true;
}

const cv::Mat& TrackerState::CellsOf(int id) {
  auto it = cells_of.find(id);
  if (it == cells_of.end()) {
    cv::Mat c;
    if (id >= 0 && id < calib::DictionarySize(dict)) c = calib::MarkerCells(dict, id);
    it = cells_of.emplace(id, c).first;
  }
  return it->second;
}

TrackEvent& FrameWork::AddEvent(TrackEventType type, const std::string& unit) {
  TrackEvent e;
  e.type = type;
  e.unit = unit;
  out.events.push_back(std::move(e));
  return out.events.back();
}

bool FrameWork::KnownHere(const calib::MarkerObservation& mo) const {
  for (const auto& o : obs)
    if (o.id == mo.id && cv::norm(QuadCentre(o.corners_px) - QuadCentre(mo.corners_px)) < 0.5 * QuadSide(mo.corners_px))
      return true;
  return false;
}

Tracker::Tracker(const TrackerOptions& options, const calib::CameraIntrinsics& intrinsics, const Scene& roster,
                 const cv::aruco::Dictionary& dictionary)
    : o_(options), roster_(roster), state_(std::make_unique<TrackerState>()) {
  if (o_.detector_from_roster) {
    o_.detector = DetectorOptionsFor(roster_, intrinsics);
    o_.detector.edge_bar_model = false;
  }
  std::string error;
  if (!o_.Check(&error)) throw std::invalid_argument("TrackerOptions: " + error);
  TrackerState& s = *state_;
  s.o = o_;
  s.k = intrinsics;
  s.roster = roster_;
  s.dict = dictionary;
  for (size_t i = 0; i < roster_.units.size(); ++i) {
    UnitTrack u;
    u.roster_index = int(i);
    u.filter = PoseFilter(o_.filter);
    s.units.push_back(std::move(u));
    if (roster_.units[i].marker) s.unit_by_marker[roster_.units[i].marker->id] = int(i);
  }
  for (const Anchor& a : roster_.anchors) {
    AnchorTrack at;
    at.anchor = a;
    s.anchor_by_marker[a.marker] = int(s.anchors.size());
    s.anchors.push_back(at);
  }
}

Tracker::~Tracker() = default;

TrackFrame Tracker::Process(const cv::Mat& image, double t) {
  using Clock = std::chrono::steady_clock;
  auto ms = [](Clock::time_point a) { return std::chrono::duration<double, std::milli>(Clock::now() - a).count(); };
  const auto t_start = Clock::now();
  TrackerState& s = *state_;
  TrackFrame out;
  out.frame = s.frame_index++;
  out.t = t;
  FrameWork w(image, t, out);
  auto ts = Clock::now();
  MarkChanges(s, w);
  out.timing.change_ms = ms(ts);
  ts = Clock::now();
  SearchKnownMarkers(s, w);
  out.timing.windows_ms = ms(ts);
  FindNewMarkers(s, w);  // times itself (surprise_ms, full_ms)
  ts = Clock::now();
  GroupObservations(s, w);
  UpdateRegistration(s, w);
  UpdateUnits(s, w);
  GroupMoves(s, w);
  ReportUnits(s, w);
  out.timing.update_ms = ms(ts);
  out.timing.total_ms = ms(t_start);
  return out;
}

}  // namespace vedette::vision
