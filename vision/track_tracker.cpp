#include "vision/track_tracker.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>

#include <opencv2/calib3d.hpp>
#include <opencv2/imgproc.hpp>

#include "calibration/dictionary.h"
#include "rules/input_error.h"
#include "vision/change_map.h"
#include "vision/grey.h"
#include "vision/locate.h"
#include "vision/marker_geometry.h"
#include "vision/track_verify.h"

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

nlohmann::json PoseJson(const Pose& p) {
  auto r = [](double v, double q) { return std::round(v / q) * q; };
  return {{"x_mm", r(p.x_mm, 1e-3)}, {"y_mm", r(p.y_mm, 1e-3)}, {"heading_deg", r(p.heading_deg, 1e-3)}};
}

nlohmann::json FrameJson(const TrackFrame& f) {
  auto r = [](double v, double q) { return std::round(v / q) * q; };
  nlohmann::json j;
  j["frame"] = f.frame;
  j["t"] = r(f.t, 1e-4);
  j["units"] = nlohmann::json::array();
  for (const TrackedUnit& u : f.units) {
    nlohmann::json uj;
    uj["id"] = u.id;
    if (u.has_pose) {
      uj["x_mm"] = r(u.pose.x_mm, 1e-3);
      uj["y_mm"] = r(u.pose.y_mm, 1e-3);
      uj["heading_deg"] = r(u.pose.heading_deg, 1e-3);
      uj["sigma_mm"] = r(u.sigma_mm, 1e-4);
      uj["sigma_deg"] = r(u.sigma_deg, 1e-4);
      uj["vx_mm_s"] = r(u.vx_mm_s, 1e-2);
      uj["vy_mm_s"] = r(u.vy_mm_s, 1e-2);
    }
    uj["state"] = u.state;
    if (u.state == "occluded" || u.state == "lifted" || u.state == "removed") uj["since_t"] = r(u.since_t, 1e-4);
    j["units"].push_back(uj);
  }
  j["registration"] = {{"ok", f.registration.ok},
                       {"anchors_seen", f.registration.anchors_seen},
                       {"rms_px", r(f.registration.rms_px, 1e-4)}};
  j["ms"] = r(f.timing.total_ms, 1e-3);
  return j;
}

namespace {

using Clock = std::chrono::steady_clock;
double Ms(Clock::time_point a) { return std::chrono::duration<double, std::milli>(Clock::now() - a).count(); }

cv::Point2f Centre(const std::array<cv::Point2f, 4>& c) { return 0.25f * (c[0] + c[1] + c[2] + c[3]); }
double Side(const std::array<cv::Point2f, 4>& c) {
  double s = 0;
  for (int i = 0; i < 4; ++i) s += cv::norm(c[(i + 1) % 4] - c[i]);
  return s / 4;
}
cv::Rect BoundsOf(const std::array<cv::Point2f, 4>& c, double grow) {
  float x0 = c[0].x, x1 = c[0].x, y0 = c[0].y, y1 = c[0].y;
  for (const auto& p : c) {
    x0 = std::min(x0, p.x), x1 = std::max(x1, p.x), y0 = std::min(y0, p.y), y1 = std::max(y1, p.y);
  }
  return cv::Rect(cv::Point(int(std::floor(x0 - grow)), int(std::floor(y0 - grow))),
                  cv::Point(int(std::ceil(x1 + grow)) + 1, int(std::ceil(y1 + grow)) + 1));
}

// The table in the image: its outline at the table top and at the highest unit marker (parallax),
// 8 points a side so a bowed (distorted) side is inside too.
cv::Rect TableInImage(const calib::CameraIntrinsics& k, const calib::CameraFromTable& camera, const Scene& roster) {
  double top = 0;
  for (const Unit& u : roster.units)
    if (u.marker) top = std::max(top, u.marker->height_mm);
  std::vector<cv::Point3d> outline;
  const double w = roster.table_width_mm, d = roster.table_depth_mm;
  for (double z : {0.0, top})
    for (int i = 0; i < 8; ++i) {
      const double f = i / 8.0;
      outline.insert(outline.end(), {{f * w, 0, z}, {w, f * d, z}, {w - f * w, d, z}, {0, d - f * d, z}});
    }
  const std::vector<cv::Point2d> px = calib::ProjectToImage(k, camera, outline);
  double x0 = 1e9, y0 = 1e9, x1 = -1e9, y1 = -1e9;
  for (const auto& p : px) {
    if (!std::isfinite(p.x) || !std::isfinite(p.y)) return {};
    x0 = std::min(x0, p.x), y0 = std::min(y0, p.y), x1 = std::max(x1, p.x), y1 = std::max(y1, p.y);
  }
  const double lim = 1e6;  // a table far outside the picture (a bad registration) is no bound
  if (x0 < -lim || y0 < -lim || x1 > lim || y1 > lim) return {};
  return cv::Rect(cv::Point(int(std::floor(x0)), int(std::floor(y0))), cv::Point(int(std::ceil(x1)) + 1, int(std::ceil(y1)) + 1));
}

bool Finite(const std::array<cv::Point2f, 4>& c) {
  for (const auto& p : c)
    if (!std::isfinite(p.x) || !std::isfinite(p.y)) return false;
  return true;
}

nlohmann::json TestsJson(const std::vector<RequiredTest>& tests) {
  nlohmann::json a = nlohmann::json::array();
  for (const RequiredTest& t : tests) {
    nlohmann::json mods = nlohmann::json::array();
    for (const Modifier& m : t.modifiers) mods.push_back({{"rule", m.rule}, {"value", m.value}, {"by", m.by}});
    a.push_back({{"unit", t.unit}, {"kind", t.kind}, {"reason", t.reason}, {"modifiers", mods}, {"total", t.total},
                 {"p_success", t.p_success}, {"odds", t.odds}});
  }
  return a;
}

}  // namespace

struct Tracker::Impl {
  struct UnitTrack {
    int roster_index = 0;
    PoseFilter filter;
    VisibilityState vis;
    SpotSamples spot_ref;
    int spot_age = 0;              // measurements since spot_ref was taken
    bool spot_stale = false;       // something changed around the spot since spot_ref was taken
    bool has_rest_pose = false;
    Pose rest_pose;
    std::vector<Pose> path;
    double move_start_t = 0;
    double settle_due_t = -1;      // when to judge whether the unit moved (-1: nothing pending)
    bool classified = false;       // "seen" until the filter decided moving or at rest
    std::array<cv::Point2f, 4> corners{};
    bool has_corners = false;
    cv::Rect window;               // last search window, px
    bool dirty = true;
    bool duplicate = false;        // a duplicate_id event is open
    double duplicate_last_t = -1;
  };
  struct AnchorTrack {
    Anchor anchor;
    std::deque<std::pair<double, std::array<cv::Point2f, 4>>> samples;
    std::array<cv::Point2f, 4> last{};
    bool has_last = false;
    cv::Rect window;
    bool dirty = true;
    bool seen_now = false;
  };
  struct RecentMove {
    std::string unit;
    double start_t = 0, end_t = 0;
    Pose from, to;
    bool grouped = false;
    bool second_move = false;  // as judged when it settled
  };

  calib::CameraIntrinsics k;
  cv::aruco::Dictionary dict;
  std::unique_ptr<Ruleset> ruleset;
  std::vector<UnitTrack> units;
  std::vector<AnchorTrack> anchors;
  std::map<int, int> unit_by_marker, anchor_by_marker;
  bool has_camera = false;
  calib::CameraFromTable camera;
  double reg_rms = 0;
  std::vector<calib::MarkerObservation> reg_used;  // the averaged anchor corners of the current camera pose
  double last_fresh_reg_t = -1;
  bool reg_lost_reported = false;
  int frame_index = 0;
  double last_full_t = -1e9;
  std::string turn_side;                       // side whose turn it is (declared, or of the last ordered move)
  std::map<std::string, int> moves_this_turn;  // unit -> ordered moves in this turn
  cv::Rect table_px;           // the table and markers raised above it in the image, px (empty: no camera yet)
  int band_row = 0;            // the sweeping band's next strip starts this many rows below table_px's top
  double band_rows_owed = 0;   // image rows the band is behind, px
  double band_last_t = -1;     // s; < 0: no frame yet
  cv::Mat prev_small;
  std::map<int, double> unknown_last_seen;  // marker id -> t
  std::deque<RecentMove> recent_moves;
  double max_side_px = 20;                  // largest marker side seen, px
  double max_unit_side_px = 16;             // largest unit marker side seen, px
  std::map<int, cv::Mat> cells_of;          // marker id -> its cells (calib::MarkerCells), for the bit checks

  const cv::Mat& CellsOf(int id) {
    auto it = cells_of.find(id);
    if (it == cells_of.end()) {
      cv::Mat c;
      if (id >= 0 && id < calib::DictionarySize(dict)) c = calib::MarkerCells(dict, id);
      it = cells_of.emplace(id, c).first;
    }
    return it->second;
  }
};

Tracker::Tracker(const TrackerOptions& options, const calib::CameraIntrinsics& intrinsics, const Scene& roster,
                 const cv::aruco::Dictionary& dictionary)
    : o_(options), roster_(roster), impl_(std::make_unique<Impl>()) {
  if (o_.detector_from_roster) o_.detector = DetectorOptionsFor(roster_, intrinsics);
  std::string error;
  if (!o_.Check(&error)) throw std::invalid_argument("TrackerOptions: " + error);
  Impl& m = *impl_;
  m.k = intrinsics;
  m.dict = dictionary;
  for (size_t i = 0; i < roster_.units.size(); ++i) {
    Impl::UnitTrack u;
    u.roster_index = int(i);
    u.filter = PoseFilter(o_.filter);
    m.units.push_back(std::move(u));
    if (roster_.units[i].marker) m.unit_by_marker[roster_.units[i].marker->id] = int(i);
  }
  for (const Anchor& a : roster_.anchors) {
    Impl::AnchorTrack at;
    at.anchor = a;
    m.anchor_by_marker[a.marker] = int(m.anchors.size());
    m.anchors.push_back(at);
  }
  if (o_.ruleset.empty()) {
    ruleset_note_ = "no ruleset chosen";
  } else {
    const auto names = RulesetNames();
    if (std::find(names.begin(), names.end(), o_.ruleset) == names.end()) {
      ruleset_note_ = "ruleset '" + o_.ruleset + "' is not available in this build";
    } else {
      try {
        m.ruleset = MakeRuleset(o_.ruleset);
      } catch (const std::exception& e) {
        ruleset_note_ = std::string("ruleset '") + o_.ruleset + "' could not be loaded: " + e.what();
      }
    }
  }
}

Tracker::~Tracker() = default;

void Tracker::SetDeclaration(const std::string& unit, const std::string& key, const nlohmann::json& value) {
  if (unit.empty() && key == "active_side") {
    roster_.declarations.active_side = value.is_string() ? value.get<std::string>() : "";
    return;
  }
  roster_.declarations.units[unit][key] = Declared{value, 0};
}

bool Tracker::classifies_moves() const { return impl_->ruleset != nullptr; }

TrackFrame Tracker::Process(const cv::Mat& image, double t) {
  const auto t_start = Clock::now();
  Impl& m = *impl_;
  TrackFrame out;
  out.frame = m.frame_index++;
  out.t = t;
  const cv::Rect image_rect(0, 0, image.cols, image.rows);
  auto event = [&](const std::string& type, const std::string& unit, nlohmann::json extra) {
    nlohmann::json j = {{"event", type}, {"frame", out.frame}, {"t", std::round(t * 1e4) / 1e4}};
    if (!unit.empty()) j["unit"] = unit;
    for (auto it = extra.begin(); it != extra.end(); ++it) j[it.key()] = it.value();
    out.events.push_back({type, unit, std::move(j)});
  };
  auto gray_of = [&](const cv::Rect& r) { return GreyCrop(image, r); };
  auto can_full = [&]() { return t - m.last_full_t >= 1.0 / o_.max_full_detect_hz - 1e-9; };

  // Step 1: change map against the previous frame, subsampled.
  auto ts = Clock::now();
  const int step = o_.change_step_px > 0 ? o_.change_step_px
                                         : std::clamp(int(o_.detector.min_marker_side_px / 4), 4, 8);
  cv::Mat small = SampleGrey(image, step), mask;
  double changed_fraction = 0;
  if (!m.prev_small.empty() && m.prev_small.size() == small.size()) {
    mask = ChangeMask(small, m.prev_small, o_.change_levels, &changed_fraction);
  }
  m.prev_small = small;
  auto changed_near = [&](const cv::Rect& r) {
    if (mask.empty()) return true;
    cv::Rect s(r.x / step - 1, r.y / step - 1, r.width / step + 3, r.height / step + 3);
    s &= cv::Rect(0, 0, mask.cols, mask.rows);
    return s.area() > 0 && cv::countNonZero(mask(s)) > 0;
  };
  for (auto& a : m.anchors) a.dirty = a.dirty || !a.has_last || changed_near(a.window);
  for (auto& u : m.units) {
    u.dirty = u.dirty || changed_near(u.window);
    if (u.spot_ref.valid && !u.spot_stale) u.spot_stale = u.dirty || changed_near(u.spot_ref.bounds_px);
  }
  out.timing.change_ms = Ms(ts);

  // Full detection: first frame, no camera yet, the periodic one, or most of the image changed.
  bool full = !m.has_camera || out.frame == 0 ||
              (o_.full_detect_every_s > 0 && t - m.last_full_t >= o_.full_detect_every_s) ||
              (changed_fraction > 0.3 && can_full());
  std::vector<calib::MarkerObservation> obs;
  std::set<int> attempted_units;  // roster indices whose window was searched this frame
  auto run_full = [&]() {
    const auto tf = Clock::now();
    Detections d = DetectMarkers(o_.detector, image, m.dict);
    obs = std::move(d.markers);
    m.last_full_t = t;
    out.timing.full_detection = true;
    out.timing.full_ms += Ms(tf);
    for (size_t i = 0; i < m.units.size(); ++i) attempted_units.insert(int(i));
  };

  // A marker already found at this spot this frame.
  auto known_here = [&](const calib::MarkerObservation& mo) {
    for (const auto& o : obs)
      if (o.id == mo.id && cv::norm(Centre(o.corners_px) - Centre(mo.corners_px)) < 0.5 * Side(mo.corners_px)) return true;
    return false;
  };

  // Local detection in a window; returns the markers in image coordinates.
  // Small windows of small markers are searched at twice the resolution (OpenCV's contour stage
  // misses markers of 12-14 px in noise), then refined at the true resolution.
  // half: at half resolution (the band, when every marker is large), new markers refined at 1x.
  auto detect_in = [&](cv::Rect r, bool small_window, bool half = false) {
    r &= image_rect;
    std::vector<calib::MarkerObservation> found;
    if (r.width < 24 || r.height < 24) return found;
    const cv::Mat g = gray_of(r);
    const bool up = small_window && o_.detector.min_marker_side_px < o_.upscale_below_px;
    // The markers measured so far this frame, in the searched image's px: not read again.
    const float scale = up ? 2.0f : half ? 0.5f : 1.0f;
    std::vector<std::array<cv::Point2f, 4>> known;
    for (const auto& o : obs) {
      if ((BoundsOf(o.corners_px, 0) & r).area() == 0) continue;
      std::array<cv::Point2f, 4> k;
      for (int i = 0; i < 4; ++i)
        k[i] = (o.corners_px[i] - cv::Point2f(float(r.x), float(r.y)) + cv::Point2f(0.5f, 0.5f)) * scale - cv::Point2f(0.5f, 0.5f);
      known.push_back(k);
    }
    Detections d;
    if (up) {
      cv::Mat g2;
      cv::resize(g, g2, cv::Size(), 2, 2, cv::INTER_LINEAR);
      DetectorOptions od = o_.detector;
      od.min_marker_side_px *= 2;
      od.max_marker_side_px *= 2;
      od.subpix_window_px = std::clamp(2 * od.subpix_window_px, 1, 20);
      od.edge_search_px = std::min(10.0, 2 * od.edge_search_px);
      od.max_edge_shift_px *= 2;
      d = DetectMarkers(od, g2, m.dict, known);
      for (auto& mo : d.markers) {
        for (auto& c : mo.corners_px) c = (c + cv::Point2f(0.5f, 0.5f)) * 0.5f - cv::Point2f(0.5f, 0.5f);
        std::array<cv::Point2f, 4> refined = mo.corners_px;
        if (RefineMarkerCorners(o_.detector, g, &refined)) {
          const BitCheck bits = CheckMarkerBits(g, refined, m.CellsOf(mo.id));
          if (bits.errors >= 0 && bits.errors <= o_.max_bit_errors) mo.corners_px = refined;
        }
      }
    } else if (half) {
      cv::Mat gh;
      cv::resize(g, gh, cv::Size(g.cols / 2, g.rows / 2), 0, 0, cv::INTER_AREA);
      DetectorOptions od = o_.detector;
      od.min_marker_side_px /= 2;
      od.max_marker_side_px /= 2;
      if (od.subpix_window_px > 0) od.subpix_window_px = std::max(1, od.subpix_window_px / 2);
      od.edge_search_px = std::max(0.5, 0.5 * od.edge_search_px);
      od.max_edge_shift_px *= 0.5;
      d = DetectMarkers(od, gh, m.dict, known);
      for (auto& mo : d.markers) {
        for (auto& c : mo.corners_px) c = (c + cv::Point2f(0.5f, 0.5f)) * 2.0f - cv::Point2f(0.5f, 0.5f);
        std::array<cv::Point2f, 4> refined = mo.corners_px;
        if (RefineMarkerCorners(o_.detector, g, &refined)) {
          const BitCheck bits = CheckMarkerBits(g, refined, m.CellsOf(mo.id));
          if (bits.errors >= 0 && bits.errors <= o_.max_bit_errors) mo.corners_px = refined;
        }
      }
    } else {
      d = DetectMarkers(o_.detector, g, m.dict, known);
    }
    for (calib::MarkerObservation mo : d.markers) {
      for (auto& c : mo.corners_px) c += cv::Point2f(float(r.x), float(r.y));
      found.push_back(mo);
    }
    return found;
  };

  // Searches one marker near a predicted quad: refine + bit check, else a local detection.
  // The prediction is good (a tenth of a pixel at rest, a pixel or two moving), so the marker is
  // first re-measured by RefineEdgeLines (one pass of at most 16 edge profiles a side searched
  // within 1 px at rest, 32 within 2 px moving; no cornerSubPix): a fraction of the general
  // refinement's cost, for every window of every frame. A failure falls back to the
  // general refinement, from the prediction and from the last seen corners, then to a local detection.
  const int cells = m.dict.markerSize + 2;
  auto search = [&](int id, const std::array<cv::Point2f, 4>& predicted, const std::array<cv::Point2f, 4>* last,
                    cv::Rect* window, std::array<cv::Point2f, 4>* found, bool resting) {
    if (!Finite(predicted)) return false;
    const double side = std::max(4.0, Side(predicted));
    // Refinement from a quad: the prediction, then (when it differs) where the marker was last seen.
    // od: the general refinement with these options; null: the predicted-quad refinement po.
    auto refine_from = [&](const std::array<cv::Point2f, 4>& start, const DetectorOptions* od,
                           const EdgeLineOptions* po = nullptr) {
      const cv::Rect tight = BoundsOf(start, 6) & image_rect;
      if (tight.width < 8 || tight.height < 8 || tight != BoundsOf(start, 6)) return false;
      std::array<cv::Point2f, 4> c = start;
      for (auto& p : c) p -= cv::Point2f(float(tight.x), float(tight.y));
      const cv::Mat g = gray_of(tight);
      if (od ? !RefineMarkerCorners(*od, g, &c) : !RefineEdgeLines(*po, g, cells, &c)) return false;
      const BitCheck bits = CheckMarkerBits(g, c, m.CellsOf(id));
      if (bits.errors < 0 || bits.errors > o_.max_bit_errors) return false;
      for (auto& p : c) p += cv::Point2f(float(tight.x), float(tight.y));
      *found = c;
      *window = tight;
      ++out.timing.windows_refined;
      return true;
    };
    if (refine_from(predicted, nullptr, resting ? &o_.rest_refine : &o_.move_refine)) return true;
    if (refine_from(predicted, &o_.detector)) return true;
    if (last && cv::norm(Centre(*last) - Centre(predicted)) > 0.5 && refine_from(*last, &o_.detector)) return true;
    double motion = 0;
    if (last) motion = cv::norm(Centre(predicted) - Centre(*last));
    const cv::Rect wide = BoundsOf(predicted, o_.window_margin_sides * side + motion + 4) & image_rect;
    *window = wide;
    ++out.timing.windows_local;
    double best = 1e18;
    const auto local = detect_in(wide, true);
    for (const auto& mo : local) {
      if (mo.id != id) continue;
      const double d = cv::norm(Centre(mo.corners_px) - Centre(predicted));
      if (d < best) best = d, *found = mo.corners_px;
    }
    return best < 1e18;
  };

  // Step 2: predicted windows.
  const auto tw = Clock::now();
  int held_anchors = 0;            // anchors not searched because nothing changed near them
  if (!full) {
    for (auto& a : m.anchors) {
      a.seen_now = false;
      if (!a.dirty && a.has_last && (out.frame % o_.rest_refine_every) != 0) {
        ++out.timing.windows_skipped;
        ++held_anchors;
        continue;
      }
      const auto tc = calib::AnchorCornersInTable(a.anchor);
      const auto px = calib::ProjectToImage(m.k, m.camera, std::vector<cv::Point3d>(tc.begin(), tc.end()));
      std::array<cv::Point2f, 4> pred;
      for (int i = 0; i < 4; ++i) pred[i] = cv::Point2f(float(px[i].x), float(px[i].y));
      std::array<cv::Point2f, 4> found;
      if (search(a.anchor.marker, pred, a.has_last ? &a.last : nullptr, &a.window, &found, a.has_last && !a.dirty)) {
        obs.push_back({a.anchor.marker, found});
      }
    }
    for (size_t i = 0; i < m.units.size(); ++i) {
      Impl::UnitTrack& u = m.units[i];
      if (u.vis.v == Visibility::kUnseen || u.vis.v == Visibility::kRemoved || !u.filter.initialized()) continue;
      const Unit& ru = roster_.units[u.roster_index];
      if (!ru.marker) continue;
      const bool scheduled = ((out.frame + int(i)) % o_.rest_refine_every) == 0;
      // Seen and resting: re-measured when something changed near it, else on its schedule. Moving:
      // every frame. Occluded or lifted: when something changed there (a hand left, a unit was
      // put back), else on the schedule, so an empty spot is confirmed empty.
      const bool need = u.vis.v == Visibility::kSeen ? (!u.filter.at_rest() || u.dirty || scheduled) : (u.dirty || scheduled);
      if (!need) {
        ++out.timing.windows_skipped;
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
      placed.pose = u.filter.Predict(t);
      const auto tc = MarkerCornersInTable(PlacementOf(placed));
      const auto px = calib::ProjectToImage(m.k, m.camera, std::vector<cv::Point3d>(tc.begin(), tc.end()));
      std::array<cv::Point2f, 4> pred;
      for (int c = 0; c < 4; ++c) pred[c] = cv::Point2f(float(px[c].x), float(px[c].y));
      attempted_units.insert(int(i));
      std::array<cv::Point2f, 4> found;
      if (search(ru.marker->id, pred, u.has_corners ? &u.corners : nullptr, &u.window, &found, resting))
        obs.push_back({ru.marker->id, found});
    }
  }
  out.timing.windows_ms = Ms(tw);

  // Step 3: surprises: unexplained change, the rotating band, lost anchors.
  const auto tsur = Clock::now();
  // New markers are looked for on the table (grown by a base), not in the room around it: a 4:3
  // table in a 16:9 frame leaves a third of the columns to the floor, and the players' arms beside
  // the table change the picture all the time.
  cv::Rect table_area = image_rect;
  if (!m.table_px.empty()) {
    const int grow = int(std::ceil(1.5 * m.max_unit_side_px));
    const cv::Rect a = cv::Rect(m.table_px.x - grow, m.table_px.y - grow, m.table_px.width + 2 * grow,
                                m.table_px.height + 2 * grow) & image_rect;
    if (a.width >= 24 && a.height >= 24) table_area = a;
  }
  bool surprise = false;
  auto take_new = [&](const std::vector<calib::MarkerObservation>& found) {
    for (const auto& mo : found) {
      if (known_here(mo)) continue;
      const bool is_unit = m.unit_by_marker.count(mo.id) > 0, is_anchor = m.anchor_by_marker.count(mo.id) > 0;
      if (!is_unit && !is_anchor) surprise = true;
      if (std::any_of(obs.begin(), obs.end(), [&](const auto& o) { return o.id == mo.id; })) surprise = true;  // a second spot
      if (is_unit) attempted_units.insert(m.unit_by_marker[mo.id]);
      obs.push_back(mo);
    }
  };
  if (!full && !mask.empty()) {
    // Change the found markers and their bases explain.
    std::vector<cv::Rect> explained;
    // A base reaches about 1.5 marker sides beyond its marker; a moving one also sweeps its motion.
    for (const auto& o : obs) explained.push_back(BoundsOf(o.corners_px, 3 * Side(o.corners_px) + 2 * step));
    for (const auto& u : m.units)
      if (u.has_corners && u.vis.v == Visibility::kSeen) explained.push_back(BoundsOf(u.corners, 3 * Side(u.corners) + 2 * step));
    // A still table changes nowhere: labelling an empty mask is skipped. (Blanking the explained
    // boxes first is not equivalent: a unit put down between two others lies in their union.)
    const bool any_unexplained = changed_fraction > 0;
    const std::vector<cv::Rect> components = any_unexplained ? ChangeComponents(Pool2(mask)) : std::vector<cv::Rect>{};
    const int pstep = 2 * step;  // px per pooled cell
    std::vector<cv::Rect> regions;
    double area = 0;
    for (const cv::Rect& s : components) {
      const cv::Rect r(s.x * pstep, s.y * pstep, s.width * pstep, s.height * pstep);
      if (std::any_of(explained.begin(), explained.end(), [&](const cv::Rect& e) { return (r & e) == r; })) continue;
      const int grow = int(std::ceil(m.max_side_px)) + step;
      const cv::Rect g = cv::Rect(r.x - grow, r.y - grow, r.width + 2 * grow, r.height + 2 * grow) & table_area;
      if (g.empty()) continue;
      regions.push_back(g);
      area += g.area();
    }
    out.timing.regions = int(regions.size());
    if (area > 0.35 * image_rect.area() && can_full()) {
      full = true;
    } else {
      for (const cv::Rect& r : regions) take_new(detect_in(r, r.area() < 0.05 * image_rect.area()));
    }
    out.timing.regions_ms = Ms(tsur);
  }
  if (o_.band_cycle_s > 0) {
    // The band owes image rows at image.rows per band_cycle_s; a strip runs once enough are owed,
    // so the cost per second does not depend on the frame rate.
    // It sweeps the table, not the room around it.
    const cv::Rect& area = table_area;
    if (m.band_row >= area.height) m.band_row = 0;  // the camera moved
    if (m.band_last_t >= 0) m.band_rows_owed += std::max(0.0, t - m.band_last_t) * area.height / o_.band_cycle_s;
    m.band_rows_owed = std::min(m.band_rows_owed, double(area.height));  // after a long gap one sweep is enough
    m.band_last_t = t;
    // Anchors are never looked for here (windows and full detections keep them): the overlap only
    // has to hold the largest unit marker.
    const int overlap = int(std::ceil(m.max_unit_side_px * 1.1)) + 2;
    const int min_rows = std::max(16, int(o_.band_strip_sides * m.max_unit_side_px));
    const int rows_left = area.height - m.band_row;
    if (!full && m.band_rows_owed >= std::min(min_rows, rows_left)) {
      const auto tb = Clock::now();
      const int h = std::min(rows_left, int(m.band_rows_owed));
      const bool half = o_.band_half_res_min_side_px > 0 && o_.detector.min_marker_side_px >= o_.band_half_res_min_side_px;
      take_new(detect_in(cv::Rect(area.x, area.y + m.band_row - overlap, area.width, h + 2 * overlap) & image_rect, false, half));
      m.band_rows_owed -= h;
      m.band_row = (m.band_row + h) % area.height;
      out.timing.band_ms = Ms(tb);
    }
    if (full) m.band_rows_owed = 0;  // a full detection has just looked everywhere
  }
  if (!full) {
    int anchors_found = 0;
    for (const auto& o : obs) anchors_found += m.anchor_by_marker.count(o.id) ? 1 : 0;
    const int needed = std::min<int>(o_.registration.min_anchors, int(m.anchors.size()));
    if ((anchors_found + held_anchors < needed || surprise) && can_full()) full = true;
  }
  out.timing.surprise_ms = Ms(tsur);
  if (full) {
    std::vector<calib::MarkerObservation> windows = std::move(obs);
    run_full();
    // Keep what the windows found and the full pass missed (e.g. a marker at the image border).
    for (const auto& w : windows)
      if (!known_here(w)) obs.push_back(w);
  }

  // Step 4: one observation per spot; duplicates and unknown IDs; the registration.
  const auto tu = Clock::now();
  std::map<int, std::vector<calib::MarkerObservation>> by_id;
  for (const auto& o : obs) {
    auto& v = by_id[o.id];
    if (std::none_of(v.begin(), v.end(), [&](const auto& q) {
          return cv::norm(Centre(q.corners_px) - Centre(o.corners_px)) < 0.5 * Side(o.corners_px);
        }))
      v.push_back(o);
  }
  for (const auto& [id, v] : by_id) {
    for (const auto& o : v) {
      m.max_side_px = std::max(m.max_side_px * 0.999, Side(o.corners_px));
      if (m.unit_by_marker.count(id)) m.max_unit_side_px = std::max(m.max_unit_side_px * 0.999, Side(o.corners_px));
    }
    if (m.unit_by_marker.count(id) || m.anchor_by_marker.count(id)) continue;
    auto it = m.unknown_last_seen.find(id);
    if (it == m.unknown_last_seen.end() || t - it->second > 2.0) {
      const cv::Point2f c = Centre(v[0].corners_px);
      event("unknown_marker", "", {{"marker", id}, {"at_px", {std::round(c.x * 10) / 10, std::round(c.y * 10) / 10}}});
    }
    m.unknown_last_seen[id] = t;
  }
  // Registration: anchors seen once each.
  std::vector<int> anchors_now;
  std::map<int, double> shift_of;  // anchor marker -> mean corner jump from its running mean, px
  for (auto& a : m.anchors) {
    a.seen_now = false;
    auto it = by_id.find(a.anchor.marker);
    if (it == by_id.end() || it->second.size() != 1) continue;
    const auto& c = it->second[0].corners_px;
    a.seen_now = true;
    a.dirty = false;
    a.window = BoundsOf(c, 4);
    anchors_now.push_back(a.anchor.marker);
    if (!a.samples.empty()) {
      std::array<cv::Point2f, 4> mean{};
      for (const auto& s : a.samples)
        for (int i = 0; i < 4; ++i) mean[i] += s.second[i];
      double d = 0;
      for (int i = 0; i < 4; ++i) d += cv::norm(c[i] - mean[i] * (1.0f / float(a.samples.size())));
      shift_of[a.anchor.marker] = d / 4;
    }
  }
  // A bump moves every anchor: the median jump decides, so one bad anchor observation does not
  // restart the registration (it is left out of the average instead).
  std::vector<double> shifts;
  for (const auto& [id, d] : shift_of) shifts.push_back(d);
  std::sort(shifts.begin(), shifts.end());
  const double median_shift = shifts.empty() ? 0.0 : shifts[shifts.size() / 2];
  const bool bump = m.has_camera && !shifts.empty() && median_shift > o_.bump_px &&
                    (shifts.size() >= 2 || m.anchors.size() == 1);
  if (!bump)
    for (auto& a : m.anchors)
      if (a.seen_now && shift_of.count(a.anchor.marker) && shift_of[a.anchor.marker] > o_.bump_px) a.seen_now = false;
  if (bump)
    for (auto& a : m.anchors) a.samples.clear();
  for (auto& a : m.anchors) {
    if (!a.seen_now) continue;
    const auto& c = by_id[a.anchor.marker][0].corners_px;
    a.last = c;
    a.has_last = true;
    a.samples.emplace_back(t, c);
    while (a.samples.size() > 1 && t - a.samples.front().first > o_.registration_window_s) a.samples.pop_front();
  }
  out.registration.anchors_seen = int(anchors_now.size()) + (full ? 0 : held_anchors);
  // The camera pose is re-estimated when the averaged anchor corners have moved by more than
  // registration_refresh_px since it was last estimated (or anchors came or went): once the average
  // holds a few samples one more changes it by far less, and the pose would not change either.
  std::vector<calib::MarkerObservation> mean_obs;
  bool refresh = false;
  if (!anchors_now.empty()) {
    for (const auto& a : m.anchors) {
      if (a.samples.empty() || (!a.seen_now && bump)) continue;
      calib::MarkerObservation mo;
      mo.id = a.anchor.marker;
      for (const auto& s : a.samples)
        for (int i = 0; i < 4; ++i) mo.corners_px[i] += s.second[i];
      for (auto& p : mo.corners_px) p *= 1.0f / float(a.samples.size());
      mean_obs.push_back(mo);
    }
    refresh = bump || !m.has_camera || mean_obs.size() != m.reg_used.size();
    for (size_t j = 0; j < mean_obs.size() && !refresh; ++j) {
      refresh = mean_obs[j].id != m.reg_used[j].id;
      for (int i = 0; i < 4 && !refresh; ++i)
        refresh = cv::norm(mean_obs[j].corners_px[i] - m.reg_used[j].corners_px[i]) > o_.registration_refresh_px;
    }
  }
  if (refresh) {
    const calib::Registration reg = calib::RegisterTable(o_.registration, m.k, roster_.anchors, mean_obs);
    if (reg.ok) {
      m.reg_used = mean_obs;
      const calib::CameraFromTable before = m.camera;
      const bool had = m.has_camera;
      m.camera = reg.camera_from_table;
      m.has_camera = true;
      m.table_px = TableInImage(m.k, m.camera, roster_);
      m.reg_rms = reg.rms_px;
      m.last_fresh_reg_t = t;
      m.reg_lost_reported = false;
      out.registration.fresh = true;
      if (bump && had) {
        const cv::Matx33d dr = m.camera.rotation * before.rotation.t();
        cv::Vec3d rv;
        cv::Rodrigues(dr, rv);
        event("camera_moved", "", {{"shift_px", std::round(median_shift * 100) / 100},
                                   {"rotation_deg", std::round(cv::norm(rv) * 180 / CV_PI * 1000) / 1000},
                                   {"registration_rms_px", std::round(reg.rms_px * 1000) / 1000}});
        // Every marker moved in the image: search them all again.
        for (auto& u : m.units) u.dirty = true;
      }
    }
  }
  if (!anchors_now.empty() && m.has_camera) {
    m.last_fresh_reg_t = t;
    m.reg_lost_reported = false;
  }
  if (m.has_camera && !out.registration.fresh && t - m.last_fresh_reg_t > 1.0 && !m.reg_lost_reported) {
    m.reg_lost_reported = true;
    event("registration_lost", "", {{"anchors_seen", out.registration.anchors_seen},
                                    {"note", "anchors not seen for 1 s: holding the last camera pose"}});
  }
  out.registration.ok = m.has_camera;
  out.registration.rms_px = m.reg_rms;
  out.registration.camera_from_table = m.camera;

  // Step 5: the units.
  std::vector<calib::MarkerObservation> chosen;
  std::map<int, int> chosen_for_unit;  // roster index -> index in chosen
  for (auto& [id, v] : by_id) {
    auto it = m.unit_by_marker.find(id);
    if (it == m.unit_by_marker.end()) continue;
    Impl::UnitTrack& u = m.units[it->second];
    const Unit& ru = roster_.units[u.roster_index];
    size_t pick = 0;
    if (v.size() > 1 && u.has_corners && m.has_camera) {
      // The observation nearest the prediction carries the track; the others are reported.
      Unit placed = ru;
      placed.pose = u.filter.Predict(t);
      const auto tc = MarkerCornersInTable(PlacementOf(placed));
      const auto px = calib::ProjectToImage(m.k, m.camera, std::vector<cv::Point3d>(tc.begin(), tc.end()));
      const cv::Point2f pc(float(0.25 * (px[0].x + px[1].x + px[2].x + px[3].x)), float(0.25 * (px[0].y + px[1].y + px[2].y + px[3].y)));
      double best = 1e18;
      for (size_t j = 0; j < v.size(); ++j) {
        const double d = cv::norm(Centre(v[j].corners_px) - pc);
        if (d < best) best = d, pick = j;
      }
    }
    if (v.size() > 1) {
      if (!u.duplicate) {
        nlohmann::json spots = nlohmann::json::array();
        for (const auto& o : v) {
          const cv::Point2f c = Centre(o.corners_px);
          nlohmann::json sj = {{"at_px", {std::round(c.x * 10) / 10, std::round(c.y * 10) / 10}}};
          if (m.has_camera && ru.marker) {
            const MarkerOnPlane mp = MarkerPoseOnPlane(m.k, m.camera, o.corners_px, ru.marker->height_mm, ru.marker->size_mm);
            if (mp.ok) sj["at_mm"] = {std::round(mp.centre_mm.x * 10) / 10, std::round(mp.centre_mm.y * 10) / 10};
          }
          spots.push_back(sj);
        }
        event("duplicate_id", ru.id, {{"marker", id}, {"spots", spots},
                                      {"note", "the same marker at two spots: the track follows the one nearest its last pose"}});
      }
      u.duplicate = true;
      u.duplicate_last_t = t;
    } else if (u.duplicate && t - u.duplicate_last_t > 1.0) {
      u.duplicate = false;
    }
    chosen_for_unit[it->second] = int(chosen.size());
    chosen.push_back(v[pick]);
  }
  std::map<std::string, BasePoseEstimate> estimates;
  if (m.has_camera)
    for (const BasePoseEstimate& e : PosesFromMarkers(m.k, m.camera, roster_, chosen)) estimates[e.unit] = e;

  // The table as the rules see it for judging moves: every unit at rest where it rests (lifted and
  // removed units left out), the units in `at` where their moves started.
  auto scene_with = [&](const std::map<std::string, Pose>& at) {
    Scene scene = roster_;
    std::vector<Unit> kept;
    for (size_t i = 0; i < scene.units.size(); ++i) {
      const Impl::UnitTrack& u = m.units[i];
      Unit su = scene.units[i];
      if (auto it = at.find(su.id); it != at.end()) su.pose = it->second;
      else if (u.vis.v == Visibility::kLifted || u.vis.v == Visibility::kRemoved || !u.filter.initialized()) continue;
      else su.pose = u.has_rest_pose ? u.rest_pose : u.filter.pose();
      kept.push_back(su);
    }
    scene.units = std::move(kept);
    return scene;
  };
  auto check_move = [&](const std::string& unit, const Pose& from, const Pose& to, const std::vector<Pose>& path) {
    nlohmann::json j;
    if (!m.ruleset) {
      j["ruleset"] = nullptr;
      j["classification"] = nullptr;
      j["note"] = ruleset_note_;
      return j;
    }
    j["ruleset"] = o_.ruleset;
    const Scene scene = scene_with({{unit, from}});
    MoveRequest req;
    req.unit = unit;
    req.to = to;
    req.path = path;
    // Whose turn it is: the declared active side, else the side of the last ordered move (a move by
    // the other side starts its turn). A declared rout is a flight, not an order: it neither starts
    // a turn nor counts as a move of the turn. The second or later ordered move of a unit in its
    // side's turn is a second move (QRS: an action test; FAQ: never into contact).
    const Unit* mover = roster_.FindUnit(unit);
    const bool flight = roster_.declarations.Routed(unit);
    const std::string side = mover ? mover->side : "";
    const std::string active = roster_.declarations.active_side;
    if (!active.empty() && active != m.turn_side) {
      m.turn_side = active;
      m.moves_this_turn.clear();
    } else if (active.empty() && !flight && side != m.turn_side) {
      m.turn_side = side;
      m.moves_this_turn.clear();
    }
    if (!flight && side == m.turn_side) req.second_move = m.moves_this_turn[unit]++ >= 1;
    j["turn_side"] = m.turn_side;
    j["second_move"] = req.second_move;
    try {
      const auto tr = Clock::now();
      const MoveCheck mc = m.ruleset->CheckMove(scene, req);
      out.timing.rules_ms += Ms(tr);
      if (!mc.supported) {
        j["classification"] = nullptr;
        j["note"] = "ruleset '" + o_.ruleset + "' does not judge moves";
        return j;
      }
      j["classification"] = mc.kinds;
      j["legal"] = mc.legal;
      if (!mc.legal) j["illegal_reason"] = mc.illegal_reason;
      j["tests"] = TestsJson(mc.tests);
      j["text"] = mc.text;
    } catch (const std::exception& e) {
      j["classification"] = nullptr;
      j["note"] = std::string("the ruleset could not judge this move: ") + e.what();
    }
    return j;
  };

  for (size_t i = 0; i < m.units.size(); ++i) {
    Impl::UnitTrack& u = m.units[i];
    const Unit& ru = roster_.units[u.roster_index];
    auto est = estimates.find(ru.id);
    const bool observed = est != estimates.end();
    const bool attempted = attempted_units.count(int(i)) > 0;
    if (observed) {
      const auto& c = chosen[chosen_for_unit[int(i)]].corners_px;
      u.corners = c;
      u.has_corners = true;
      u.window = BoundsOf(c, 4);
      u.dirty = false;
      PoseMeasurement pm;
      pm.t = t;
      pm.pose = est->second.pose;
      pm.sigma_mm = est->second.sigma_mm;
      pm.sigma_deg = est->second.sigma_deg;
      const bool was_rest = u.filter.initialized() && u.filter.at_rest();
      const PoseFilterStep fs = u.filter.Update(pm);
      const VisibilityStep vs = UpdateVisibility(o_.visibility, &u.vis, true, SpotLook::kUnknown, t);
      if (vs.appeared) {
        u.classified = false;
        event("appeared", ru.id, {{"at", PoseJson(u.filter.pose())}});
      }
      if (vs.returned) {
        u.classified = false;
        event("replaced", ru.id, {{"at", PoseJson(u.filter.pose())}, {"was", std::string(ToString(vs.before))}});
      }
      if (fs.started_moving) {
        u.move_start_t = t;
        u.path.clear();
        if (was_rest && u.has_rest_pose) u.path.push_back(u.rest_pose);
      }
      if (fs.started_moving || fs.came_to_rest || fs.nudged) u.classified = true;
      if (!u.filter.at_rest()) {
        if (u.path.empty()) u.move_start_t = t;
        u.path.push_back(u.filter.pose());
        if (int(u.path.size()) > o_.max_path_points) {
          // Keep the first and every other one after it.
          std::vector<Pose> half;
          for (size_t p = 0; p < u.path.size(); p += 2) half.push_back(u.path[p]);
          u.path = std::move(half);
        }
      }
      // A move is judged once the unit has settled: right when it comes to rest (it has been still
      // for rest_after_s by then), and rest_after_s after a nudge, so a nudge that turns out to be
      // the start of a longer move is not reported as a move of its own.
      if (fs.started_moving) u.settle_due_t = -1;
      if (fs.came_to_rest) u.settle_due_t = t;
      if (fs.nudged) {
        u.settle_due_t = t + o_.filter.rest_after_s;
        if (u.path.empty()) {
          u.move_start_t = t;
          if (u.has_rest_pose) u.path.push_back(u.rest_pose);
        }
      }
      if (u.settle_due_t >= 0 && u.filter.at_rest() && t >= u.settle_due_t - 1e-9) {
        u.settle_due_t = -1;
        const Pose to = u.filter.pose();
        if (u.has_rest_pose) {
          const double d = std::hypot(to.x_mm - u.rest_pose.x_mm, to.y_mm - u.rest_pose.y_mm);
          const double dh = std::abs(AngleDiffDeg(to.heading_deg, u.rest_pose.heading_deg));
          if (d >= o_.move_min_mm || dh >= o_.move_min_deg) {
            std::vector<Pose> path = u.path;
            path.push_back(to);
            nlohmann::json pj = nlohmann::json::array();
            for (const Pose& p : path) pj.push_back(PoseJson(p));
            nlohmann::json j = {{"from", PoseJson(u.rest_pose)}, {"to", PoseJson(to)},
                                {"distance_mm", std::round(d * 1000) / 1000},
                                {"turn_deg", std::round(AngleDiffDeg(to.heading_deg, u.rest_pose.heading_deg) * 1000) / 1000},
                                {"started_t", std::round(u.move_start_t * 1e4) / 1e4},
                                {"path", pj}, {"sigma_mm", u.filter.sigma_mm()}, {"sigma_deg", u.filter.sigma_deg()}};
            const nlohmann::json cls = check_move(ru.id, u.rest_pose, to, path);
            for (auto it = cls.begin(); it != cls.end(); ++it) j[it.key()] = it.value();
            event("move", ru.id, j);
            m.recent_moves.push_back({ru.id, u.move_start_t, t, u.rest_pose, to, false, cls.value("second_move", false)});
          }
        }
        u.rest_pose = to;
        u.has_rest_pose = true;
        u.path.clear();
      }
      // The spot as it looks with the unit on it, for telling occluded from lifted later: taken
      // when the unit settles and refreshed every 8th measurement at rest (neighbours come and go)
      // and every 4th while it moves (a unit lifted mid-move is compared with where it just was).
      ++u.spot_age;
      const bool refresh_spot = u.filter.at_rest() ? (u.spot_stale && u.spot_age >= 8) || u.spot_age >= o_.spot_refresh_max
                                                   : u.spot_age >= 4;
      if (!u.spot_ref.valid || fs.came_to_rest || fs.nudged || refresh_spot) {
        u.spot_ref = SampleSpot(o_.spot, image, m.k, m.camera, ru, u.filter.pose());
        u.spot_age = 0;
        u.spot_stale = false;
      }
    } else if (attempted && u.filter.initialized() && m.has_camera) {
      const SpotSamples now = SampleSpot(o_.spot, image, m.k, m.camera, ru, u.filter.pose());
      const SpotLook look = CompareSpot(o_.spot, u.spot_ref, now);
      const VisibilityStep vs = UpdateVisibility(o_.visibility, &u.vis, false, look, t);
      u.filter.Hold();
      if (vs.occluded) event("occluded", ru.id, {{"at", PoseJson(u.filter.pose())}});
      if (vs.lifted) event("lifted", ru.id, {{"at", PoseJson(u.filter.pose())}});
      if (vs.removed) event("removed", ru.id, {{"at", PoseJson(u.filter.pose())}});
      // A lifted unit's move (if any) is judged when it comes to rest again; its path restarts.
      if (vs.lifted) u.path.clear();
    } else if (!attempted && u.vis.v == Visibility::kLifted && m.has_camera) {
      // Nothing changed at an empty spot: it stays visible and empty, which counts towards removed.
      const VisibilityStep vs = UpdateVisibility(o_.visibility, &u.vis, false, SpotLook::kEmpty, t);
      if (vs.removed) event("removed", ru.id, {{"at", PoseJson(u.filter.pose())}});
    }
  }

  // Group moves: two or more moves that started and ended within group_window_s of each other,
  // once no unit that started with them is still moving.
  while (!m.recent_moves.empty() && t - m.recent_moves.front().end_t > 10 * std::max(1.0, o_.group_window_s))
    m.recent_moves.pop_front();
  for (size_t a = 0; a < m.recent_moves.size(); ++a) {
    if (m.recent_moves[a].grouped) continue;
    std::vector<size_t> group = {a};
    for (size_t b = a + 1; b < m.recent_moves.size(); ++b)
      if (!m.recent_moves[b].grouped && std::abs(m.recent_moves[b].start_t - m.recent_moves[a].start_t) <= o_.group_window_s &&
          std::abs(m.recent_moves[b].end_t - m.recent_moves[a].end_t) <= o_.group_window_s)
        group.push_back(b);
    bool open = t - m.recent_moves[a].end_t <= o_.group_window_s;
    for (size_t i = 0; i < m.units.size() && !open; ++i) {
      const auto& u = m.units[i];
      open = u.vis.v == Visibility::kSeen && !u.filter.at_rest() && std::abs(u.move_start_t - m.recent_moves[a].start_t) <= o_.group_window_s;
    }
    if (open) continue;
    if (group.size() >= 2) {
      nlohmann::json units = nlohmann::json::array(), moves = nlohmann::json::array();
      for (size_t g : group) {
        const auto& rm = m.recent_moves[g];
        units.push_back(rm.unit);
        moves.push_back({{"unit", rm.unit}, {"from", PoseJson(rm.from)}, {"to", PoseJson(rm.to)}});
      }
      nlohmann::json ev = {{"units", units}, {"moves", moves},
                           {"note", "moved together; each unit's classification and tests are in its own move event"}};
      if (m.ruleset) {
        // May the rules take these as one group move (one roll for the group's tests)?
        std::map<std::string, Pose> starts;
        std::vector<MoveRequest> reqs;
        for (size_t g : group) {
          const auto& rm = m.recent_moves[g];
          starts[rm.unit] = rm.from;
          MoveRequest r;
          r.unit = rm.unit;
          r.to = rm.to;
          r.second_move = rm.second_move;
          reqs.push_back(r);
        }
        try {
          const auto tr = Clock::now();
          const GroupMoveCheck gc = m.ruleset->CheckGroupMove(scene_with(starts), reqs);
          out.timing.rules_ms += Ms(tr);
          if (gc.supported) {
            ev["group_allowed"] = gc.allowed;
            ev["rules"] = gc.report;
            ev["tests"] = TestsJson(gc.tests);
            ev["text"] = gc.text;
          }
        } catch (const std::exception& e) {
          ev["note"] = std::string("the ruleset could not judge the group: ") + e.what();
        }
      }
      event("group_move", "", ev);
    }
    for (size_t g : group) m.recent_moves[g].grouped = true;
  }

  // The report.
  for (size_t i = 0; i < m.units.size(); ++i) {
    const Impl::UnitTrack& u = m.units[i];
    const Unit& ru = roster_.units[u.roster_index];
    TrackedUnit tu;
    tu.id = ru.id;
    tu.marker = ru.marker ? ru.marker->id : -1;
    tu.has_pose = u.filter.initialized();
    if (tu.has_pose) {
      tu.pose = u.filter.pose();
      tu.vx_mm_s = u.filter.vx_mm_s();
      tu.vy_mm_s = u.filter.vy_mm_s();
      tu.turn_deg_s = u.filter.vh_deg_s();
      tu.sigma_mm = u.filter.sigma_mm();
      tu.sigma_deg = u.filter.sigma_deg();
    }
    tu.measured = estimates.count(ru.id) > 0;
    switch (u.vis.v) {
      case Visibility::kUnseen: tu.state = "unseen"; break;
      case Visibility::kOccluded: tu.state = "occluded"; tu.since_t = u.vis.missing_since_t; break;
      case Visibility::kLifted: tu.state = "lifted"; tu.since_t = u.vis.missing_since_t; break;
      case Visibility::kRemoved: tu.state = "removed"; tu.since_t = u.vis.missing_since_t; break;
      case Visibility::kSeen: tu.state = !u.classified ? "seen" : (u.filter.at_rest() ? "at_rest" : "moving"); break;
    }
    out.units.push_back(tu);
  }
  out.markers.clear();
  for (const auto& [id, v] : by_id)
    for (const auto& o : v) out.markers.push_back(o);
  out.timing.update_ms = Ms(tu);
  out.timing.total_ms = Ms(t_start);
  return out;
}

}  // namespace vedette::vision
