#pragma once
// A calibration session fed one camera frame at a time (`vedette calibrate --camera N` and
// `--video FILE`): it finds the board in each frame, keeps a frame as a view when the board is
// held still, sharp, and shows something the kept views do not (a part of the image not yet
// covered, or a new tilt or size), recalibrates after every kept view once there are enough, and
// says in words what is still missing before the result can be trusted.
//
// Why "held still": a webcam's exposure smears a moving board, and the smear shifts corners along
// the motion by a fraction of the blur; a board whose corners have not moved between frames is
// sharp. Why "something new": a hundred views of the same pose pin the lens no better than one,
// and each recalibration costs more; views must spread over the image (the lens edges) and over
// tilts (the focal length; see CalibrationOptions::min_tilted_views).
//
// The session holds no window, camera or clock: what it keeps depends on the frames alone, so a
// recorded video gives the same views every time (the tests feed rendered frames).
#include <optional>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "calibration/board_detection.h"
#include "calibration/board_spec.h"
#include "calibration/intrinsic_calibration.h"

namespace vedette::calib {

struct CalibrationSessionOptions {
  BoardDetectionOptions detection;
  CalibrationOptions calibration;  // each recalibration, and the refusal thresholds; recalibrates
                                   // once calibration.min_views views are kept
  int grid_cols = 3;               // coverage grid over the image (cells named "top-left" ... in
  int grid_rows = 3;               // the missing list by where their centre falls)
  int min_cell_corners = 4;        // a cell is covered when one kept view put this many corners in it
                                   // (a board reaching into it, not a few stray corners of several)
  double still_px = 1.0;           // the board is still when its corners moved at most this much
                                   // (mean over the corners seen in both frames) since the previous frame, px...
  int still_frames = 3;            // ...in this many frames in a row (3 at 30 fps: 0.1 s)
  double min_relative_sharpness = 0.5;  // a board region less sharp than this share of the sharpest
                                        // board seen so far is not kept (variance of the Laplacian)
  double new_tilt_deg = 12;        // a view adding no cell is new unless a kept view had its board's
                                   // centre in the same cell, its plane turned less than this, deg...
  double new_scale_share = 0.3;    // ...and its size (square root of the corners' outline area) within
                                   // this share
  double guess_focal_share = 0.8;  // before the first calibration, tilts are judged with fx = fy = this x
                                   // the image width (a 64 deg webcam); rough, only to tell poses apart
  int enough_views = 10;           // fewer kept views: not enough
  double enough_focal_sd_share = 0.01;  // enough only when fx and fy are known to this share (half the
                                        // refusal threshold calibration.max_focal_sd_share)
  int max_views = 40;              // no view is kept beyond this (each recalibration costs more)
  bool Check(std::string* error) const;
};

// What a kept view was, besides its corners.
struct SessionView {
  BoardView view;
  int frame = 0;             // frame number in the session (0-based)
  double tilt_deg = 0;       // board plane against the image plane when kept, deg (rough before calibrating)
  // The board's normal in the camera frame (unit), for "a new tilt": one, or two when the board's
  // image fits both mirror poses about as well (a planar pose is ambiguous under weak perspective;
  // which one wins flips with pixel noise, so a pose counts as seen when either matches).
  std::vector<cv::Vec3d> normals;
  double scale = 0;          // square root of the corners' outline area over the image's, 0..1
  int centre_cell = 0;       // grid cell of the corners' centroid
};

struct SessionState {
  int frames = 0;                  // frames fed so far
  cv::Size image_size;             // px, of the first frame (later frames must match)
  BoardView current;               // the board in the last frame (found() false when not seen)
  std::string current_note;        // why the last frame was or was not kept, in words
  bool current_kept = false;
  int still_count = 0;             // frames in a row the board has been still
  double best_sharpness = 0;       // sharpest board region seen so far
  std::vector<SessionView> kept;
  // Board corners of the kept views per cell of the coverage grid, row-major from the top-left.
  std::vector<int> cell_corners;
  std::vector<int> cell_best;      // the most corners one kept view put in each cell
  int cells_covered = 0;           // cells where cell_best >= min_cell_corners
  std::optional<CalibrationResult> calibration;  // after the last kept view (once enough views)
  bool enough = false;
  std::vector<std::string> missing;  // in words; empty when enough
};

// Where a grid cell lies in the image, in words ("top-left", "top", "centre", "bottom-right"...).
std::string CellName(int col, int row, int cols, int rows);

class CalibrationSession {
 public:
  // Throws vedette::InputError("calibration session", ...) when the options are invalid.
  CalibrationSession(const CalibrationSessionOptions& options, const BoardSpec& board);

  // Feeds the next frame (BGR or grey). True when it was kept as a view (and the calibration and
  // verdict were brought up to date). A frame of another size than the first throws InputError
  // naming `source`.
  bool AddFrame(const cv::Mat& image, const std::string& source);

  const SessionState& state() const { return state_; }
  const CalibrationSessionOptions& options() const { return options_; }
  const BoardSpec& board() const { return board_; }

  // The kept views' board corners, for CalibrateIntrinsics.
  std::vector<BoardView> Views() const;

 private:
  bool Keep(const cv::Mat& image, const BoardView& found);
  SessionView Describe(const BoardView& found) const;  // frame, cell, size and rough pose
  bool AddsCell(const std::vector<int>& corners_per_cell) const;
  bool NewPose(const SessionView& view) const;
  void Recalibrate();
  void UpdateVerdict();

  CalibrationSessionOptions options_;
  BoardSpec board_;
  SessionState state_;
  BoardView previous_;  // the board in the previous frame (for stillness)
};

// One line per kept view for a person: "view 4 (frame 23): 54 corners, tilt 27 deg, cells 6/9,
// RMS 0.061 px".
std::string KeptViewLine(const SessionState& state);

}  // namespace vedette::calib
