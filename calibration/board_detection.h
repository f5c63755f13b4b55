#pragma once
// Finding a calibration board in one image: chessboard inner corners (findChessboardCorners +
// cornerSubPix) or ChArUco corners (aruco markers, then interpolateCornersCharuco).
//
// OpenCV 4.6's interpolateCornersCharuco returns every ChArUco corner about +0.5 px off in x and y:
// it shifts the start point by -0.5 px before cornerSubPix and adds the 0.5 px back afterwards,
// although cornerSubPix already works in OpenCV's pixel-centre coordinates (opencv_contrib PR #3024,
// 2021, introduced the shift; opencv/opencv issue #25539 reported it, PR #28380, 2026, removed it).
// A +0.5 px shift of every corner moves the calibrated principal point by the same 0.5 px. With
// `correct_charuco_bias` each corner is refined again by cornerSubPix from where OpenCV left it,
// without any shift, which converges to the true saddle point whatever the OpenCV version does.
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "calibration/board_spec.h"

namespace vedette::calib {

struct BoardDetectionOptions {
  bool correct_charuco_bias = true;  // re-refine ChArUco corners (see above); false: OpenCV's raw output
  int min_charuco_corners = 6;       // fewer corners in a view: the view is not used
  int chessboard_subpix_window = 0;  // cornerSubPix half-window for chessboards, px (0: from the square size)
  bool Check(std::string* error) const;
};

struct BoardView {
  std::string source;                  // file (and frame) the view came from, for messages
  cv::Size image_size;                 // px
  std::vector<int> ids;                // inner-corner IDs (row-major from the board's top-left)
  std::vector<cv::Point2f> image_px;   // corner positions, px (pixel centres at integers)
  std::vector<cv::Point3f> board_mm;   // the same corners in the board frame, mm
  double sharpness = 0;                // variance of the Laplacian of the grey image (blur measure)
  bool found() const { return !ids.empty(); }
};

// The board's corners in one image (BGR or grey). An image without the board gives a view with no
// corners (found() false), never an exception.
BoardView DetectBoard(const BoardDetectionOptions& options, const BoardSpec& spec, const cv::Mat& image,
                      const std::string& source = "");

// Variance of the Laplacian of an image's grey version: higher is sharper.
double Sharpness(const cv::Mat& image);

}  // namespace vedette::calib
