#pragma once
// Live tracking: frames in, steady unit tracks and events out.
//
// Design ("track, don't rediscover"). Between frames the tracker knows where every marker was, so a
// frame normally costs little:
//  Step 1  change map: the frame subsampled (every change_step_px px) is compared with the last one;
//          what changed marks the markers near it dirty and names regions nobody explains.
//  Step 2  predicted windows: each known marker (anchors, units not removed) is projected at its
//          predicted pose (constant velocity) through the current camera; dirty markers, and resting
//          ones every rest_refine_every frames, are refined there (RefineEdgeLines,
//          vision/track_verify.h; the general RefineMarkerCorners when that fails) and their bits
//          checked against their ID; when that fails a local detection runs in a window grown by the
//          marker's speed.
//  Step 3  surprises: unexplained change regions get a local detection (a unit put down shows up in
//          the frame it appears), and a band sweeping down the table gets a detection, so anything
//          the rest missed is found within band_cycle_s; both look on the table only and skip the
//          markers the windows measured. A surprise (an unknown or duplicated ID, anchors lost)
//          triggers a full-frame detection, at most max_full_detect_hz times a second.
//  Step 4  registration from the anchors, averaged while the camera is still; an anchor jump larger
//          than bump_px is a camera bump: the average restarts and the frame is re-registered at once,
//          so units keep their table coordinates.
//  Step 5  each unit: its measurement goes through its PoseFilter (vision/track_filter.h); an unseen
//          unit's spot is checked (vision/track_state.h) to tell occluded from lifted; a unit that
//          comes to rest away from its last rest pose makes a `move` event (an ObservedMove: start,
//          end, path); moves that start and end together make a `group_move`. Judging them is the
//          rules' work (rules/move_judge.h), not the tracker's.
// Each step is a stage function of its own (vision/track_stages.h); every one is timed
// (TrackTiming) for the benchmark and the overlay.
#include <memory>
#include <string>

#include <opencv2/aruco.hpp>
#include <opencv2/core.hpp>

#include "calibration/camera_model.h"
#include "calibration/registration.h"
#include "rules/scene/scene.h"
#include "vision/detect.h"
#include "vision/edge_lines.h"
#include "vision/track_filter.h"
#include "vision/track_frame.h"
#include "vision/track_state.h"

namespace vedette::vision {

struct TrackerOptions {
  DetectorOptions detector;            // full and local detection; the Tracker fills it from the roster when left default
  bool detector_from_roster = true;    // true: replace `detector` by DetectorOptionsFor(roster, intrinsics), edge_bar_model off
                                       // (as the windows below: one edge model for every measurement of a track)
  calib::RegistrationOptions registration;
  PoseFilterOptions filter;
  VisibilityOptions visibility;
  SpotOptions spot;
  int change_step_px = 0;              // change map samples every this many px (larger: cheaper, coarser); 0: a quarter
                                       // of the smallest marker side, 4..8 px (8 at 4K, where the map costs 4x)
  double change_levels = 30;           // a sample changed when its grey level moved by more than this (of 255)
  int rest_refine_every = 2;           // a resting, undisturbed marker is re-measured every this many frames (1: every frame)
  // The tracker measures edges by the centroid of the rise, not the bar model (vision/edge_lines.h):
  // the bar model costs 1.2 ms a 1080p frame of 41 windows (2.0 -> 3.2 ms) and did not make the
  // tracked centres better in track_bench (vision/NOTES.md, "Edge lines: the bar model"). Cold
  // detections (locate, detect, dispute) use it.
  EdgeLineOptions rest_refine = {1.0, 1, 0.6, 8, 16, 1.0, false};  // how a resting marker is re-measured from its prediction (vision/edge_lines.h): one pass within 1 px, 8-16 profiles a side (its pose averages many measurements)
  EdgeLineOptions move_refine = {1.5, 1, 1.0, 8, 32, 2.5, false};  // ... and a moving one (one pass within 1.5 px
                                       // measured as well as two passes in track_bench; the general refinement of
                                       // vision/detect.h, which searches 2 px, when it fails)
  double window_margin_sides = 0.75;   // local detection window: the predicted marker grown by this many sides, plus its motion
  double upscale_below_px = 20;        // local windows are searched at 2x when the smallest marker is below this side, px
  int max_bit_errors = 1;              // a refined marker whose cells disagree with its ID in more cells is not accepted
  double band_cycle_s = 2.0;           // the sweeping detection band covers the whole image once per this long, s (0: no band)
  double band_strip_sides = 4;         // a band strip is at least this many marker sides tall: strips overlap by one
                                       // marker, so taller, rarer strips waste less (larger: lumpier frame times)
  double band_half_res_min_side_px = 24;  // the band is searched at half resolution (a quarter of the work) when the
                                          // smallest marker side looked for (detector.min_marker_side_px, a margin below
                                          // the smallest marker expected) is at least this, px; halved, every marker is
                                          // still at least 12 px, which the full-frame detection handles (0: never)
  double max_full_detect_hz = 4;       // surprise-driven full detections per second at most (the first frame always)
  double full_detect_every_s = 0;      // also a full detection this often, s (0: only on surprise)
  double bump_px = 1.0;                // anchors moved by more than this (mean over their corners): the camera moved, px
  double registration_window_s = 10;   // anchor corners averaged over at most this long while the camera is still, s
  double registration_refresh_px = 0.02;  // the camera pose is re-estimated when an averaged anchor corner moved this far, px
  int spot_refresh_max = 240;          // a resting unit's spot reference (track_state.h) is retaken after this many
                                       // measurements even when nothing changed around it (slow light drift)
  double move_min_mm = 1.0;            // a unit resting this far from its last rest pose has moved, mm
  double move_min_deg = 0.5;           // ... or turned this much, deg
  double group_window_s = 0.75;        // moves starting and ending within this of each other form a group, s
  int max_path_points = 24;            // poses kept on a move's path
  bool Check(std::string* error) const;
};

struct TrackerState;  // vision/track_stages.h

class Tracker {
 public:
  // Throws std::invalid_argument for bad options (naming the constraint).
  Tracker(const TrackerOptions& options, const calib::CameraIntrinsics& intrinsics, const Scene& roster,
          const cv::aruco::Dictionary& dictionary);
  ~Tracker();

  // image: 8-bit BGR or gray of the intrinsics' size; t in seconds, increasing.
  TrackFrame Process(const cv::Mat& image, double t);

  const TrackerOptions& options() const { return o_; }
  const Scene& roster() const { return roster_; }

 private:
  TrackerOptions o_;
  Scene roster_;
  std::unique_ptr<TrackerState> state_;
};

}  // namespace vedette::vision
