#pragma once
// Why a unit's marker was not seen, and what that makes of its track.
//
// A missed marker has three explanations a player cares about: something is over it (a hand: keep
// the unit where it was, "occluded"), it was taken off the table ("lifted", and after a while
// "removed"), or it is there but was not decoded this frame (blur, glare: also "occluded").
// The tracker tells them apart by looking at the unit's spot in table coordinates, so a camera bump
// does not confuse it: a ring of points just outside the unit's footprint (on the table) and a grid
// over its marker, sampled when the unit was last seen and compared now. A hand changes the ring
// (it is bigger than a base); a lifted unit leaves the ring as it was but its marker is gone.
// "Removed" needs the spot visible and empty for removed_after_s in total (time under a hand does
// not count), as the issue asks: a unit under a resting hand is never declared removed.
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "calibration/camera_model.h"
#include "rules/scene/scene.h"

namespace vedette::vision {

enum class Visibility { kUnseen, kSeen, kOccluded, kLifted, kRemoved };
std::string_view ToString(Visibility v);  // "unseen", "seen", "occluded", "lifted", "removed"

// What the unit's spot looks like now compared with when the unit was last seen.
enum class SpotLook {
  kUnknown,      // outside the image or no reference
  kHidden,       // the surroundings changed: something is over the spot
  kEmpty,        // surroundings unchanged, marker gone
  kMarkerThere,  // surroundings and marker unchanged (not decoded this frame)
};
std::string_view ToString(SpotLook s);

struct VisibilityOptions {
  double lift_confirm_s = 0.2;    // the spot must look empty this long before "lifted", s (a fingertip over the marker)
  double removed_after_s = 5.0;   // visible-and-empty time (summed) before "removed", s
  bool Check(std::string* error) const;
};

struct VisibilityState {
  Visibility v = Visibility::kUnseen;
  double last_seen_t = 0;      // s
  double missing_since_t = 0;  // first frame not seen, s
  double empty_since_t = -1;   // start of the current run of empty looks (-1: none), s
  double empty_total_s = 0;    // summed visible-and-empty time since lifted, s
  double last_t = 0;           // s
};

struct VisibilityStep {
  bool appeared = false;      // first sighting
  bool returned = false;      // seen again after lifted/removed
  bool occluded = false;      // became occluded
  bool lifted = false;        // became lifted
  bool removed = false;       // became removed
  Visibility before = Visibility::kUnseen;
};

VisibilityStep UpdateVisibility(const VisibilityOptions& o, VisibilityState* s, bool observed, SpotLook look, double t);

// ---- the spot test ----

struct SpotOptions {
  double ring_margin_mm = 8.0;    // ring distance outside the unit's footprint, mm
  int ring_points = 48;           // samples on the ring
  int marker_grid = 6;            // marker samples per side
  double diff_levels = 28.0;      // a sample differs when its grey level changed by more than this (of 255)
  double hidden_fraction = 0.2;   // the ring is changed when more than this fraction of its samples differ
  double marker_changed_fraction = 0.25;  // the marker is gone when more than this fraction of its samples differ
  bool Check(std::string* error) const;
};

struct SpotSamples {
  std::vector<float> ring;    // grey levels, NaN outside the image
  std::vector<float> marker;
  bool valid = false;         // at least half of each set inside the image
  cv::Rect bounds_px;         // the image area the samples cover, px (where a change makes them stale)
};

// Samples the unit's spot for the unit (roster entry, for its bases and marker mount) at `pose`.
// image: 8-bit BGR or gray.
SpotSamples SampleSpot(const SpotOptions& o, const cv::Mat& image, const calib::CameraIntrinsics& k,
                       const calib::CameraFromTable& camera_from_table, const Unit& unit, const Pose& pose);
SpotLook CompareSpot(const SpotOptions& o, const SpotSamples& reference, const SpotSamples& now);

// Bilinear grey level of an 8-bit BGR or gray image at (x, y) px; NaN outside.
float GreyAt(const cv::Mat& image, double x, double y);

}  // namespace vedette::vision
