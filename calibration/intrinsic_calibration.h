#pragma once
// Lens intrinsics from views of a calibration board (OpenCV's calibrateCameraExtended), with what a
// user needs to judge the result: per-view errors, the standard deviation of every intrinsic, how
// much of the image the views covered, and warnings in words. Views that fit far worse than the
// rest (a mis-detected board, motion blur) are dropped once and the calibration rerun without them.
#include <string>
#include <vector>

#include "calibration/board_detection.h"
#include "calibration/board_spec.h"
#include "calibration/camera_model.h"

namespace vedette::calib {

struct CalibrationOptions {
  int min_views = 3;                // fewer usable views: an error (InputError)
  int recommended_views = 10;       // fewer: a warning
  double high_rms_px = 1.0;         // overall RMS above this: a warning, px
  double outlier_factor = 3.0;      // a view is an outlier when its RMS exceeds factor x the median view RMS...
  double outlier_floor_px = 0.5;    // ...and also this, px (so a uniformly good set drops nothing)
  double max_dropped_fraction = 0.25;  // never drop more than this share of the views
  double min_coverage = 0.5;        // share of the image the boards' outlines covered, below: a warning
  bool fix_k3 = false;              // hold the 6th-order radial term k3 at 0...
  bool auto_fix_k3 = true;          // ...also whenever fewer than recommended_views views are used (few
                                    // views cannot pin k3; a free k3 then takes wild values)
  double tilted_view_deg = 15;      // a view counts as tilted when the board's plane is this far from
                                    // the image plane, deg...
  int min_tilted_views = 3;         // ...fewer tilted views: a warning (a board facing the camera
                                    // squarely looks the same to a longer lens further away, so the
                                    // focal length is not determined, whatever its std dev says)
  bool Check(std::string* error) const;
};

struct CalibrationViewResult {
  std::string source;
  int corners = 0;
  double rms_px = 0;     // this view's reprojection RMS, px (in the final calibration when used)
  bool used = true;      // false: dropped as an outlier
  double tilt_deg = 0;   // angle between the board's plane and the image plane, deg
};

struct CalibrationResult {
  CameraIntrinsics intrinsics;         // avg_reprojection_error_px = overall RMS of the used views
  BoardSpec board;
  int flags = 0;                       // OpenCV calibration flags used
  std::vector<CalibrationViewResult> views;
  // Standard deviations (px for fx fy cx cy, unitless for distortion) in OpenCV's order:
  // fx fy cx cy k1 k2 p1 p2 k3.
  std::vector<double> stddev;
  double coverage = 0;                 // share of the image inside some board outline, 0..1
  int grid_cells_covered = 0;          // of a 3x3 grid over the image, cells that hold a corner (0..9)
  std::vector<std::string> warnings;   // in words; empty when nothing looks weak
};

// Calibrates from the views where the board was found (views without corners are ignored). Throws
// vedette::InputError when fewer than min_views usable views remain, naming every input and what
// was wrong with it. `rejected` lists inputs that were not views at all (source, reason) for that
// message.
CalibrationResult CalibrateIntrinsics(const CalibrationOptions& options, const BoardSpec& board,
                                      const std::vector<BoardView>& views,
                                      const std::vector<std::pair<std::string, std::string>>& rejected = {});

// Writes OpenCV FileStorage YAML: the keys of OpenCV's calibration sample (camera_matrix,
// distortion_coefficients, image_width, image_height, avg_reprojection_error) which LoadIntrinsics
// reads, plus per_view_reprojection_errors, view_sources, std_deviations, image_coverage and
// warnings. Throws InputError when the file cannot be written.
void SaveCalibration(const CalibrationResult& result, const std::string& path);

// A few lines for a person: the intrinsics with their deviations, RMS, coverage, per-view errors
// (the warnings are left to the caller, which prints them on stderr).
std::string CalibrationSummary(const CalibrationResult& result);

}  // namespace vedette::calib
