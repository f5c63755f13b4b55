#pragma once
// The tracker's inside: its state between frames and the stages a frame goes through (the steps
// of vision/track_tracker.h, in that order). Each stage reads and extends one FrameWork; none is
// longer than a screen. Internal to vision/: callers use Tracker.
#include <array>
#include <deque>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <opencv2/aruco.hpp>
#include <opencv2/core.hpp>

#include "calibration/camera_model.h"
#include "calibration/marker_observation.h"
#include "vision/track_tracker.h"

namespace vedette::vision {

using Quad = std::array<cv::Point2f, 4>;  // marker corners, image px, OpenCV's order

cv::Point2f QuadCentre(const Quad& c);
double QuadSide(const Quad& c);                // mean side, px
cv::Rect QuadBounds(const Quad& c, double grow_px);
bool QuadFinite(const Quad& c);

struct UnitTrack {
  int roster_index = 0;
  PoseFilter filter;
  VisibilityState vis;
  SpotSamples spot_ref;
  int spot_age = 0;              // measurements since spot_ref was taken
  bool spot_stale = false;       // something changed around the spot since spot_ref was taken
  bool has_rest_pose = false;
  Pose rest_pose;                // table frame
  std::vector<Pose> path;        // poses of the move under way, table frame
  double move_start_t = 0;       // s
  double settle_due_t = -1;      // when to judge whether the unit moved, s (-1: nothing pending)
  bool classified = false;       // "seen" until the filter decided moving or at rest
  Quad corners{};                // last measured, px
  bool has_corners = false;
  cv::Rect window;               // last search window, px
  bool dirty = true;
  bool measured = false;         // a measurement of this frame went into the pose
  bool duplicate = false;        // a duplicate_id event is open
  double duplicate_last_t = -1;  // s
};

struct AnchorTrack {
  Anchor anchor;
  std::deque<std::pair<double, Quad>> samples;  // (t s, corners px) while the camera is still
  Quad last{};
  bool has_last = false;
  cv::Rect window;
  bool dirty = true;
  bool seen_now = false;
};

struct RecentMove {
  ObservedMove move;
  bool grouped = false;
};

struct TrackerState {
  TrackerOptions o;
  calib::CameraIntrinsics k;
  Scene roster;
  cv::aruco::Dictionary dict;
  std::vector<UnitTrack> units;               // roster order
  std::vector<AnchorTrack> anchors;
  std::map<int, int> unit_by_marker, anchor_by_marker;  // marker id -> index
  bool has_camera = false;
  calib::CameraFromTable camera;
  double reg_rms = 0;                         // px
  std::vector<calib::MarkerObservation> reg_used;  // the averaged anchor corners of the current camera pose
  double last_fresh_reg_t = -1;               // s
  bool reg_lost_reported = false;
  int frame_index = 0;
  double last_full_t = -1e9;                  // s
  cv::Rect table_px;           // the table and markers raised above it in the image, px (empty: no camera yet)
  int band_row = 0;            // the sweeping band's next strip starts this many rows below table_px's top
  double band_rows_owed = 0;   // image rows the band is behind, px
  double band_last_t = -1;     // s; < 0: no frame yet
  cv::Mat prev_small;          // the last frame's change-map samples
  std::map<int, double> unknown_last_seen;  // marker id -> t, s
  std::deque<RecentMove> recent_moves;
  double max_side_px = 20;                  // largest marker side seen, px
  double max_unit_side_px = 16;             // largest unit marker side seen, px
  std::map<int, cv::Mat> cells_of;          // marker id -> its cells (calib::MarkerCells), for the bit checks

  const cv::Mat& CellsOf(int id);
  bool CanRunFull(double t) const { return t - last_full_t >= 1.0 / o.max_full_detect_hz - 1e-9; }
};

// One frame on its way through the stages.
struct FrameWork {
  FrameWork(const cv::Mat& image_, double t_, TrackFrame& out_)
      : image(image_), t(t_), image_rect(0, 0, image_.cols, image_.rows), out(out_) {}
  const cv::Mat& image;
  double t;                                    // s
  cv::Rect image_rect;
  TrackFrame& out;
  int step = 4;                                // change map sample step, px
  cv::Mat mask;                                // changed samples (empty: no previous frame)
  double changed_fraction = 0;
  bool full = false;                           // a full-frame detection runs this frame
  int held_anchors = 0;                        // anchors not searched because nothing changed near them
  bool surprise = false;                       // an unknown or second marker: look at the whole frame
  std::vector<calib::MarkerObservation> obs;   // markers found so far
  std::set<int> attempted_units;               // roster indices whose marker was looked for
  std::map<int, std::vector<calib::MarkerObservation>> by_id;  // one observation per spot, by marker id
  double median_shift_px = 0;                  // anchors' median jump this frame, px
  bool bump = false;                           // the camera moved

  TrackEvent& AddEvent(TrackEventType type, const std::string& unit);
  bool KnownHere(const calib::MarkerObservation& mo) const;  // already found at this spot
};

// Step 1: the change map; marks what changed dirty and decides whether a full detection is due.
void MarkChanges(TrackerState& s, FrameWork& w);
// Step 2: every known marker refined (or locally re-detected) where it is predicted.
void SearchKnownMarkers(TrackerState& s, FrameWork& w);
// One marker near a predicted quad: refine + bit check, else a local detection. false: not found.
bool SearchMarker(TrackerState& s, FrameWork& w, int id, const Quad& predicted, const Quad* last, cv::Rect* window,
                  Quad* found, bool resting);
// Markers in a window (image px in and out); small windows at 2x, `half`: at half resolution.
std::vector<calib::MarkerObservation> DetectInWindow(TrackerState& s, FrameWork& w, cv::Rect r, bool small_window,
                                                     bool half = false);
// Step 3: new markers in unexplained change and the sweeping band; a full detection when due.
void FindNewMarkers(TrackerState& s, FrameWork& w);
// Step 4: one observation per spot, unknown markers reported, the camera pose from the anchors.
void GroupObservations(TrackerState& s, FrameWork& w);
void UpdateRegistration(TrackerState& s, FrameWork& w);
// Step 5: each unit's measurement, state and settled moves; then moves made together.
void UpdateUnits(TrackerState& s, FrameWork& w);
void GroupMoves(TrackerState& s, FrameWork& w);
// The frame's report: every roster unit.
void ReportUnits(const TrackerState& s, FrameWork& w);

}  // namespace vedette::vision
