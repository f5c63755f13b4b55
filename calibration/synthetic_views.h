#pragma once
// Rendered calibration view sets through a known camera, for tests and benchmarks that check a
// calibration against the truth: board poses spread over the image with varied tilts (what a user is
// told to do), the views rendered through the lens, and how far an estimated lens model is from the
// true one in pixels (coefficients alone are a poor yardstick: k1, k2, k3 and fx trade off against
// each other while the image mapping stays the same).
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "calibration/board_render.h"
#include "calibration/board_spec.h"
#include "calibration/camera_model.h"

namespace vedette::calib {

struct SpreadPoseOptions {
  int views = 12;                   // poses: a 3x3 grid of image positions, then the centre, repeated
  double board_width_share = 0.45;  // board width over image width, at the board's distance (frontal), 0..1
  double min_tilt_deg = 15;         // tilt of the board away from facing the camera, deg...
  double max_tilt_deg = 35;         // ...drawn from this range, about a random in-plane axis
  double max_turn_deg = 20;         // turn of the board about its own normal, +- deg
  double edge_margin_px = 4;        // the board outline stays this far inside the image, px
  unsigned seed = 1;                // for the tilts, turns and scales
  bool Check(std::string* error) const;
};

// Board poses (board frame of BoardSpec: x right, y down, z into the board, mm) whose views fill
// the image: board centres aimed at a 3x3 grid of image positions (20/50/80 % of width and height),
// pulled towards the centre just enough for the whole board outline to stay in the image, each tilted
// and turned differently and at a slightly different distance (board width share x 0.85..1.15).
std::vector<CameraFromTable> SpreadBoardPoses(const SpreadPoseOptions& options, const BoardSpec& board,
                                              const CameraIntrinsics& camera);

// The same board frame, facing the camera squarely (no tilt, no turn), centred on the given pixel,
// board width = share x image width.
CameraFromTable FrontalBoardPose(const BoardSpec& board, const CameraIntrinsics& camera, cv::Point2d centre_px,
                                 double board_width_share);

// Renders one image per pose, the same picture RenderBoard(options, pattern, camera, pose) draws,
// faster: the lens is inverted once per camera (exact rays on a per-pixel grid, bilinear between
// them: ~1e-5 px), and a pixel whose footprint lies inside one region of constant colour (a square,
// a marker cell, the margin) takes that colour instead of averaging s x s samples (the others
// average the same samples RenderBoard takes). View i uses noise seed options.seed + i.
// camera.image_size must equal options.image_size.
std::vector<cv::Mat> RenderBoardViews(const BoardRenderOptions& options, const BoardPattern& pattern,
                                      const CameraIntrinsics& camera, const std::vector<CameraFromTable>& poses);

// A video of a calibration board as a webcam records it while a person shows the board: each pose
// held still for `frames_per_pose` frames, then the next pose (no frames in between: the session
// sees a jump, as it would see a fast move). Every frame has its own sensor noise, so corners of a
// held pose jitter as a real camera's do (hundredths of a px).
struct SyntheticVideoOptions {
  SpreadPoseOptions spread;            // the poses, when `poses` is empty
  std::vector<CameraFromTable> poses;  // camera_from_board of each pose; empty: SpreadBoardPoses(spread, ...)
  BoardRenderOptions render;           // image_size is the camera's; noise_sigma is applied per frame
  int frames_per_pose = 5;             // frames each pose is held (a session keeps a view once the board
                                       // was still for CalibrationSessionOptions::still_frames frames)
  double fps = 10;                     // written frame rate, frames/s
  bool Check(std::string* error) const;
};

// What a player calibrating in front of the camera is told to do (docs/GETTING_STARTED.md): the
// board held still in every part of the picture, tilted another way each time, at arm's length
// (board_width_share 0.36) and further off (0.22): two SpreadBoardPoses sets, 24 poses, enough for
// a CalibrationSession to keep the views it wants.
std::vector<CameraFromTable> PlayerBoardPoses(const BoardSpec& board, const CameraIntrinsics& camera, unsigned seed = 1);

// Renders the poses through `camera` (RenderBoardViews) and writes the video to `path` (a new file,
// its folder must exist). The codec follows the extension: .avi Motion JPEG at quality 100 (OpenCV's
// own encoder, always there), .mkv FFV1 (lossless, FFmpeg). Returns the number of frames written.
// Throws vedette::InputError naming `path` for another extension or a file that cannot be written.
// Example (tests, docs): a 12-pose video of a 9x6 chessboard through a known lens:
//   WriteSyntheticBoardVideo({}, ParseBoardSpec("chessboard:9x6:25"), camera, dir + "/board.avi");
int WriteSyntheticBoardVideo(const SyntheticVideoOptions& options, const BoardSpec& board,
                             const CameraIntrinsics& camera, const std::string& path);

// How far an estimated camera model is from the true one over the whole image, px, on a grid of
// pixels p every `step_px` (image edges and corners included):
//  - full: the true ray through p projected by the estimated model (camera matrix and distortion);
//    includes focal length and principal point errors, which a camera pose largely absorbs.
//  - planar: the same after the best homography between the true and the estimated rays: what no
//    camera pose and no camera matrix can absorb when looking at a plane (the table), i.e. the
//    error left by the lens distortion model. Missing distortion shows here; a 0.5 % focal length
//    error does not.
// Sizes must match.
struct ModelDifference {
  double full_rms_px = 0, full_max_px = 0;
  double planar_rms_px = 0, planar_max_px = 0;
};
ModelDifference CompareCameraModels(const CameraIntrinsics& truth, const CameraIntrinsics& estimate, double step_px = 16);

}  // namespace vedette::calib
