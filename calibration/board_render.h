#pragma once
// An exact synthetic camera image of a calibration board, for tests and benchmarks: every pixel
// averages S x S samples of the printed pattern (BoardPattern) seen through a board-to-image
// mapping, so edges sit where the geometry says to a small fraction of a pixel. Pixel centres are
// at integer coordinates (OpenCV's convention): pixel (u, v) covers [u-0.5, u+0.5] x [v-0.5, v+0.5].
#include <functional>
#include <string>

#include <opencv2/core.hpp>

#include "calibration/board_spec.h"
#include "calibration/camera_model.h"

namespace vedette::calib {

struct BoardRenderOptions {
  cv::Size image_size{640, 480};  // px
  int supersample = 4;            // samples per pixel each way
  double black_level = 30;        // grey value of black ink, 0..255
  double white_level = 220;       // grey value of white paper, 0..255
  double background_level = 120;  // grey value where the mapping leaves the board's sheet, 0..255
  double sheet_margin_mm = 20;    // white paper around the board, mm
  double blur_sigma_px = 0.0;     // Gaussian optical blur after sampling, px (0: none)
  double noise_sigma = 0.0;       // Gaussian sensor noise, grey levels (0: none)
  unsigned seed = 1;              // for the noise
  bool Check(std::string* error) const;
};

// Where the sample points of one image row land on the board (mm; NaN where they miss the board's
// plane). The renderer hands the row's sample pixels and wants their board positions.
using RowToBoard = std::function<void(const std::vector<cv::Point2d>& pixels, std::vector<cv::Point2d>* board_mm)>;

cv::Mat RenderBoard(const BoardRenderOptions& options, const BoardPattern& pattern, const RowToBoard& row_to_board);

// What RenderBoard does after sampling: optical blur, sensor noise (seeded), rounding to 8 bits.
// For renderers that sample the pattern their own way (RenderBoardViews).
cv::Mat FinishBoardImage(const BoardRenderOptions& options, cv::Mat_<float> sampled);

// Homography form: image_from_board maps board mm (x, y, 1) to pixels.
cv::Mat RenderBoard(const BoardRenderOptions& options, const BoardPattern& pattern, const cv::Matx33d& image_from_board);

// Through a calibrated camera with lens distortion: board_in_camera places the board frame
// (x right, y down on the board, z into it) in the camera frame, mm.
cv::Mat RenderBoard(const BoardRenderOptions& options, const BoardPattern& pattern, const CameraIntrinsics& camera,
                    const CameraFromTable& camera_from_board);

}  // namespace vedette::calib
