// Step 5 of the tracker: each unit's measurement through its filter, its visibility state, the
// moves it settled and the moves made together; then the frame's report.
#include <algorithm>
#include <cmath>

#include "vision/locate.h"
#include "vision/marker_geometry.h"
#include "vision/track_stages.h"

namespace vedette::vision {

namespace {

// The predicted centre of a unit's marker in the image, px.
cv::Point2f PredictedCentre(const TrackerState& s, const UnitTrack& u, double t) {
  Unit placed = s.roster.units[u.roster_index];
  placed.pose = u.filter.Predict(t);
  const auto tc = MarkerCornersInTable(PlacementOf(placed));
  const auto px = calib::ProjectToImage(s.k, s.camera, std::vector<cv::Point3d>(tc.begin(), tc.end()));
  return cv::Point2f(float(0.25 * (px[0].x + px[1].x + px[2].x + px[3].x)), float(0.25 * (px[0].y + px[1].y + px[2].y + px[3].y)));
}

// A marker seen at two spots: the event names both, the track follows the one nearest its prediction.
void ReportDuplicate(TrackerState& s, FrameWork& w, UnitTrack& u, int id, const std::vector<calib::MarkerObservation>& v) {
  const Unit& ru = s.roster.units[u.roster_index];
  if (!u.duplicate) {
    TrackEvent& e = w.AddEvent(TrackEventType::kDuplicateId, ru.id);
    e.marker = id;
    for (const auto& o : v) {
      MarkerSpot spot{QuadCentre(o.corners_px), false, {}};
      if (s.has_camera && ru.marker) {
        const MarkerOnPlane mp = MarkerPoseOnPlane(s.k, s.camera, o.corners_px, ru.marker->height_mm, ru.marker->size_mm);
        if (mp.ok) spot.has_mm = true, spot.at_mm = cv::Point2d(mp.centre_mm.x, mp.centre_mm.y);
      }
      e.spots.push_back(spot);
    }
  }
  u.duplicate = true;
  u.duplicate_last_t = w.t;
}

// One observation per unit (roster index -> observation); the others are reported.
std::map<int, calib::MarkerObservation> ChooseObservations(TrackerState& s, FrameWork& w) {
  std::map<int, calib::MarkerObservation> chosen;
  for (auto& [id, v] : w.by_id) {
    auto it = s.unit_by_marker.find(id);
    if (it == s.unit_by_marker.end()) continue;
    UnitTrack& u = s.units[it->second];
    size_t pick = 0;
    if (v.size() > 1 && u.has_corners && s.has_camera) {
      const cv::Point2f pc = PredictedCentre(s, u, w.t);
      double best = 1e18;
      for (size_t j = 0; j < v.size(); ++j) {
        const double d = cv::norm(QuadCentre(v[j].corners_px) - pc);
        if (d < best) best = d, pick = j;
      }
    }
    if (v.size() > 1) ReportDuplicate(s, w, u, id, v);
    else if (u.duplicate && w.t - u.duplicate_last_t > 1.0) u.duplicate = false;
    chosen[it->second] = v[pick];
  }
  return chosen;
}

// A settled unit that rests away from where it rested before has moved.
void SettleMove(TrackerState& s, FrameWork& w, UnitTrack& u) {
  const std::string& id = s.roster.units[u.roster_index].id;
  u.settle_due_t = -1;
  const Pose to = u.filter.pose();
  if (u.has_rest_pose) {
    const double d = std::hypot(to.x_mm - u.rest_pose.x_mm, to.y_mm - u.rest_pose.y_mm);
    const double dh = std::abs(AngleDiffDeg(to.heading_deg, u.rest_pose.heading_deg));
    if (d >= s.o.move_min_mm || dh >= s.o.move_min_deg) {
      ObservedMove m;
      m.unit = id;
      m.from = u.rest_pose;
      m.to = to;
      m.path = u.path;
      m.path.push_back(to);
      m.started_t = u.move_start_t;
      m.ended_t = w.t;
      m.sigma_mm = u.filter.sigma_mm();
      m.sigma_deg = u.filter.sigma_deg();
      w.AddEvent(TrackEventType::kMove, id).move = m;
      s.recent_moves.push_back({m, false});
    }
  }
  u.rest_pose = to;
  u.has_rest_pose = true;
  u.path.clear();
}

// The path of a move under way, and when it is to be judged settled: right when the unit comes
// to rest (it has been still for rest_after_s by then), and rest_after_s after a nudge, so a nudge
// that turns out to be the start of a longer move is not reported as a move of its own.
void FollowMove(const TrackerOptions& o, UnitTrack& u, const PoseFilterStep& fs, bool was_rest, double t) {
  if (fs.started_moving) {
    u.move_start_t = t;
    u.path.clear();
    if (was_rest && u.has_rest_pose) u.path.push_back(u.rest_pose);
  }
  if (fs.started_moving || fs.came_to_rest || fs.nudged) u.classified = true;
  if (!u.filter.at_rest()) {
    if (u.path.empty()) u.move_start_t = t;
    u.path.push_back(u.filter.pose());
    if (int(u.path.size()) > o.max_path_points) {
      // Keep the first and every other one after it.
      std::vector<Pose> half;
      for (size_t p = 0; p < u.path.size(); p += 2) half.push_back(u.path[p]);
      u.path = std::move(half);
    }
  }
  if (fs.started_moving) u.settle_due_t = -1;
  if (fs.came_to_rest) u.settle_due_t = t;
  if (fs.nudged) {
    u.settle_due_t = t + o.filter.rest_after_s;
    if (u.path.empty()) {
      u.move_start_t = t;
      if (u.has_rest_pose) u.path.push_back(u.rest_pose);
    }
  }
}

void UpdateMeasured(TrackerState& s, FrameWork& w, UnitTrack& u, const calib::MarkerObservation& chosen,
                    const BasePoseEstimate& est) {
  const Unit& ru = s.roster.units[u.roster_index];
  u.corners = chosen.corners_px;
  u.has_corners = true;
  u.window = QuadBounds(chosen.corners_px, 4);
  u.dirty = false;
  const PoseMeasurement pm{w.t, est.pose, est.sigma_mm, est.sigma_deg};
  const bool was_rest = u.filter.initialized() && u.filter.at_rest();
  const PoseFilterStep fs = u.filter.Update(pm);
  const VisibilityStep vs = UpdateVisibility(s.o.visibility, &u.vis, true, SpotLook::kUnknown, w.t);
  if (vs.appeared || vs.returned) {
    u.classified = false;
    TrackEvent& e = w.AddEvent(vs.appeared ? TrackEventType::kAppeared : TrackEventType::kReplaced, ru.id);
    e.at = u.filter.pose();
    e.was = vs.before == Visibility::kOccluded ? UnitState::kOccluded
          : vs.before == Visibility::kRemoved  ? UnitState::kRemoved
          : vs.before == Visibility::kLifted   ? UnitState::kLifted : UnitState::kUnseen;
  }
  FollowMove(s.o, u, fs, was_rest, w.t);
  if (u.settle_due_t >= 0 && u.filter.at_rest() && w.t >= u.settle_due_t - 1e-9) SettleMove(s, w, u);
  // The spot as it looks with the unit on it, for telling occluded from lifted later: taken
  // when the unit settles and refreshed every 8th measurement at rest (neighbours come and go)
  // and every 4th while it moves (a unit lifted mid-move is compared with where it just was).
  ++u.spot_age;
  const bool refresh_spot = u.filter.at_rest() ? (u.spot_stale && u.spot_age >= 8) || u.spot_age >= s.o.spot_refresh_max
                                               : u.spot_age >= 4;
  if (!u.spot_ref.valid || fs.came_to_rest || fs.nudged || refresh_spot) {
    u.spot_ref = SampleSpot(s.o.spot, w.image, s.k, s.camera, ru, u.filter.pose());
    u.spot_age = 0;
    u.spot_stale = false;
  }
}

void UpdateMissing(TrackerState& s, FrameWork& w, UnitTrack& u, bool attempted) {
  const Unit& ru = s.roster.units[u.roster_index];
  if (attempted && u.filter.initialized() && s.has_camera) {
    const SpotSamples now = SampleSpot(s.o.spot, w.image, s.k, s.camera, ru, u.filter.pose());
    const SpotLook look = CompareSpot(s.o.spot, u.spot_ref, now);
    const VisibilityStep vs = UpdateVisibility(s.o.visibility, &u.vis, false, look, w.t);
    u.filter.Hold();
    if (vs.occluded) w.AddEvent(TrackEventType::kOccluded, ru.id).at = u.filter.pose();
    if (vs.lifted) w.AddEvent(TrackEventType::kLifted, ru.id).at = u.filter.pose();
    if (vs.removed) w.AddEvent(TrackEventType::kRemoved, ru.id).at = u.filter.pose();
    // A lifted unit's move (if any) is judged when it comes to rest again; its path restarts.
    if (vs.lifted) u.path.clear();
  } else if (!attempted && u.vis.v == Visibility::kLifted && s.has_camera) {
    // Nothing changed at an empty spot: it stays visible and empty, which counts towards removed.
    const VisibilityStep vs = UpdateVisibility(s.o.visibility, &u.vis, false, SpotLook::kEmpty, w.t);
    if (vs.removed) w.AddEvent(TrackEventType::kRemoved, ru.id).at = u.filter.pose();
  }
}

}  // namespace

void UpdateUnits(TrackerState& s, FrameWork& w) {
  const std::map<int, calib::MarkerObservation> chosen = ChooseObservations(s, w);
  std::map<std::string, BasePoseEstimate> estimates;
  if (s.has_camera) {
    std::vector<calib::MarkerObservation> list;
    for (const auto& [i, o] : chosen) list.push_back(o);
    for (const BasePoseEstimate& e : PosesFromMarkers(s.k, s.camera, s.roster, list)) estimates[e.unit] = e;
  }
  for (size_t i = 0; i < s.units.size(); ++i) {
    UnitTrack& u = s.units[i];
    auto est = estimates.find(s.roster.units[u.roster_index].id);
    u.measured = est != estimates.end();
    if (u.measured) UpdateMeasured(s, w, u, chosen.at(int(i)), est->second);
    else UpdateMissing(s, w, u, w.attempted_units.count(int(i)) > 0);
  }
}

// Two or more moves that started and ended within group_window_s of each other, reported once
// no unit that started with them is still moving.
void GroupMoves(TrackerState& s, FrameWork& w) {
  const double window = s.o.group_window_s;
  auto& recent = s.recent_moves;
  while (!recent.empty() && w.t - recent.front().move.ended_t > 10 * std::max(1.0, window)) recent.pop_front();
  for (size_t a = 0; a < recent.size(); ++a) {
    if (recent[a].grouped) continue;
    const ObservedMove& first = recent[a].move;
    std::vector<size_t> group = {a};
    for (size_t b = a + 1; b < recent.size(); ++b)
      if (!recent[b].grouped && std::abs(recent[b].move.started_t - first.started_t) <= window &&
          std::abs(recent[b].move.ended_t - first.ended_t) <= window)
        group.push_back(b);
    bool open = w.t - first.ended_t <= window;
    for (size_t i = 0; i < s.units.size() && !open; ++i) {
      const UnitTrack& u = s.units[i];
      open = u.vis.v == Visibility::kSeen && !u.filter.at_rest() && std::abs(u.move_start_t - first.started_t) <= window;
    }
    if (open) continue;
    if (group.size() >= 2) {
      TrackEvent& e = w.AddEvent(TrackEventType::kGroupMove, "");
      for (size_t g : group) e.group.push_back(recent[g].move);
    }
    for (size_t g : group) recent[g].grouped = true;
  }
}

void ReportUnits(const TrackerState& s, FrameWork& w) {
  for (const UnitTrack& u : s.units) {
    const Unit& ru = s.roster.units[u.roster_index];
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
    tu.measured = u.measured;
    tu.has_rest_pose = u.has_rest_pose;
    tu.rest_pose = u.rest_pose;
    switch (u.vis.v) {
      case Visibility::kUnseen: tu.state = UnitState::kUnseen; break;
      case Visibility::kOccluded: tu.state = UnitState::kOccluded; break;
      case Visibility::kLifted: tu.state = UnitState::kLifted; break;
      case Visibility::kRemoved: tu.state = UnitState::kRemoved; break;
      case Visibility::kSeen: tu.state = !u.classified ? UnitState::kSeen : (u.filter.at_rest() ? UnitState::kAtRest : UnitState::kMoving); break;
    }
    if (u.vis.v == Visibility::kOccluded || u.vis.v == Visibility::kLifted || u.vis.v == Visibility::kRemoved)
      tu.since_t = u.vis.missing_since_t;
    w.out.units.push_back(tu);
  }
  for (const auto& [id, v] : w.by_id)
    for (const auto& o : v) w.out.markers.push_back(o);
}

}  // namespace vedette::vision
