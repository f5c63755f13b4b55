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
  // Refusal: a calibration this uncertain is not written (`vedette calibrate` exits 2 and says which
  // views to add) instead of being written with a warning nobody reads.
  int min_tilted_views_accepted = 2;  // fewer tilted views: refused (focal length undetermined; with
                                      // one tilted view it rests on that single view's corners)
  double max_focal_sd_share = 0.02;   // std dev of fx or fy over its value, above: refused. A good
                                      // set of 12 views gives 0.02-0.25 %; at 2 % the 95 % band is
                                      // +-4 %, and k1/k2, which trade off against f, are as loose:
                                      // the lens correction at the image edges is then px off
  double max_centre_sd_share = 0.03;  // std dev of cx (cy) over the image width (height), above:
                                      // refused (a good set: < 0.2 %; a set huddled in one corner: 0.4 %)
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
  // Why this calibration must not be used, in words, each saying which views would mend it; empty
  // when it is accepted. Filled by CalibrateIntrinsics (the thresholds are CalibrationOptions').
  std::vector<std::string> refusals;
  bool accepted() const { return refusals.empty(); }
};

// Calibrates from the views where the board was found (views without corners are ignored). Throws
// vedette::InputError when fewer than min_views usable views remain, naming every input and what
// was wrong with it. `rejected` lists inputs that were not views at all (source, reason) for that
// message.
CalibrationResult CalibrateIntrinsics(const CalibrationOptions& options, const BoardSpec& board,
                                      const std::vector<BoardView>& views,
                                      const std::vector<std::pair<std::string, std::string>>& rejected = {});

// Why a calibration must not be used (what CalibrateIntrinsics puts in `refusals`), each with the
// views that would mend it: fewer than min_tilted_views_accepted tilted views, fx or fy deviation
// above max_focal_sd_share of the value, cx (cy) deviation above max_centre_sd_share of the image
// width (height).
std::vector<std::string> CalibrationRefusals(const CalibrationOptions& options, const CalibrationResult& result);

// Throws vedette::InputError(file, 0, "not written: ...every refusal...") when the result is refused
// (`file` is the camera file that would have been written); does nothing when it is accepted.
void ThrowIfRefused(const CalibrationResult& result, const std::string& file);

// Writes OpenCV FileStorage YAML: the keys of OpenCV's calibration sample (camera_matrix,
// distortion_coefficients, image_width, image_height, avg_reprojection_error) which LoadIntrinsics
// reads, plus per_view_reprojection_errors, view_sources, std_deviations, image_coverage and
// warnings. Throws InputError when the file cannot be written.
void SaveCalibration(const CalibrationResult& result, const std::string& path);

// A few lines for a person: the intrinsics with their deviations, RMS, coverage, per-view errors
// (the warnings are left to the caller, which prints them on stderr).
std::string CalibrationSummary(const CalibrationResult& result);

}  // namespace vedette::calib
