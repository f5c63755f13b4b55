#pragma once
// What the tracker reports for one frame, as typed values: every roster unit's pose, uncertainty
// and visibility state, the events of the frame (moves, hands, a bumped camera) and the table
// registration. Perception only: the rules judge the moves (rules/move_judge.h) and the pipeline
// writes the log (pipeline/event_log.h).
#include <string>
#include <string_view>
#include <vector>

#include <opencv2/core.hpp>

#include "calibration/camera_model.h"
#include "calibration/marker_observation.h"
#include "rules/scene/observed_move.h"
#include "rules/scene/scene.h"

namespace vedette::vision {

enum class UnitState {
  kUnseen,    // never seen yet: no pose
  kSeen,      // seen, not yet known to be moving or at rest
  kMoving,
  kAtRest,
  kOccluded,  // not seen, its spot covered (a hand): kept at its last pose
  kLifted,    // not seen, its spot empty: off the table for now
  kRemoved,   // lifted and its spot empty for removed_after_s: out of the game
};
std::string_view ToString(UnitState s);  // "unseen", "seen", "moving", "at_rest", "occluded", "lifted", "removed"
// On the table for the rules: seen, moving, at rest or occluded, with a pose.
bool OnTable(UnitState s);
// Not seen but kept (occluded): drawn dashed.
inline bool Remembered(UnitState s) { return s == UnitState::kOccluded; }

struct TrackedUnit {
  std::string id;
  int marker = -1;
  bool has_pose = false;           // false until first seen
  Pose pose;                       // table frame, mm / deg
  double vx_mm_s = 0, vy_mm_s = 0; // velocity, mm/s
  double turn_deg_s = 0;           // deg/s
  double sigma_mm = 0;             // 1-sigma of the reported position, mm
  double sigma_deg = 0;            // 1-sigma of the reported heading, deg
  UnitState state = UnitState::kUnseen;
  double since_t = 0;              // occluded/lifted/removed: since when, s
  bool measured = false;           // a measurement of this frame went into the pose
  bool has_rest_pose = false;
  Pose rest_pose;                  // where it last came to rest (moves are judged from there), table frame
};

enum class TrackEventType {
  kMove, kGroupMove, kAppeared, kOccluded, kLifted, kReplaced, kRemoved, kDuplicateId, kUnknownMarker,
  kCameraMoved, kRegistrationLost,
};
// "move", "group_move", "appeared", "occluded", "lifted", "replaced", "removed", "duplicate_id",
// "unknown_marker", "camera_moved", "registration_lost"
std::string_view ToString(TrackEventType t);

// Where a marker was seen: image px, and table mm when the camera pose is known.
struct MarkerSpot {
  cv::Point2f at_px;
  bool has_mm = false;
  cv::Point2d at_mm;
};

struct TrackEvent {
  TrackEventType type = TrackEventType::kAppeared;
  std::string unit;                  // "" when not about one unit
  Pose at;                           // appeared, replaced, occluded, lifted, removed: the unit's pose, table frame
  UnitState was = UnitState::kUnseen;  // replaced: the state it came back from
  ObservedMove move;                 // move
  std::vector<ObservedMove> group;   // group_move: the moves made together (each also has its own move event)
  int marker = -1;                   // duplicate_id, unknown_marker: the marker id
  std::vector<MarkerSpot> spots;     // duplicate_id: every spot; unknown_marker: where
  double shift_px = 0;               // camera_moved: median anchor jump, px
  double rotation_deg = 0;           // camera_moved: how far the camera turned, deg
  double rms_px = 0;                 // camera_moved: the new registration's RMS, px
  int anchors_seen = 0;              // registration_lost
};

struct TrackRegistration {
  bool ok = false;                 // a camera pose is known
  bool fresh = false;              // re-estimated from this frame's anchors
  int anchors_seen = 0;
  double rms_px = 0;               // reprojection RMS of the averaged anchors, px
  calib::CameraFromTable camera_from_table;
};

struct TrackTiming {
  double total_ms = 0, change_ms = 0, windows_ms = 0, surprise_ms = 0, full_ms = 0, update_ms = 0;
  double regions_ms = 0, band_ms = 0;  // the two parts of surprise_ms: change regions, rotating band
  bool full_detection = false;
  int windows_refined = 0, windows_local = 0, windows_skipped = 0, regions = 0;
};

struct TrackFrame {
  int frame = 0;                   // from 0, in the order the frames were given
  double t = 0;                    // s
  std::vector<TrackedUnit> units;  // every roster unit, roster order
  std::vector<TrackEvent> events;
  TrackRegistration registration;
  TrackTiming timing;
  std::vector<calib::MarkerObservation> markers;  // every marker measured this frame (anchors and units)
};

}  // namespace vedette::vision
