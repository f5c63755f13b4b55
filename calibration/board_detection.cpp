#include "calibration/board_detection.h"

#include <algorithm>
#include <cmath>

#include <opencv2/aruco/charuco.hpp>
#include <opencv2/calib3d.hpp>
#include <opencv2/imgproc.hpp>

#include "rules/input_error.h"

namespace vedette::calib {
namespace {

cv::Mat Grey(const cv::Mat& image) {
  if (image.channels() == 1) return image;
  cv::Mat grey;
  cv::cvtColor(image, grey, image.channels() == 4 ? cv::COLOR_BGRA2GRAY : cv::COLOR_BGR2GRAY);
  return grey;
}

void DetectChessboard(const BoardDetectionOptions& o, const BoardSpec& spec, const cv::Mat& grey, BoardView* view) {
  const cv::Size pattern(spec.cols, spec.rows);
  std::vector<cv::Point2f> corners;
  const int flags = cv::CALIB_CB_ADAPTIVE_THRESH | cv::CALIB_CB_NORMALIZE_IMAGE | cv::CALIB_CB_FAST_CHECK;
  if (!cv::findChessboardCorners(grey, pattern, corners, flags)) return;
  // The window must stay inside one square's corner region: about a third of the smallest spacing
  // between neighbouring corners, at most the 11x11 of OpenCV's calibration sample.
  int half = o.chessboard_subpix_window;
  if (half <= 0) {
    double spacing = 1e9;
    for (int r = 0; r < spec.rows; ++r)
      for (int c = 0; c + 1 < spec.cols; ++c)
        spacing = std::min(spacing, cv::norm(corners[r * spec.cols + c + 1] - corners[r * spec.cols + c]));
    for (int r = 0; r + 1 < spec.rows; ++r)
      for (int c = 0; c < spec.cols; ++c)
        spacing = std::min(spacing, cv::norm(corners[(r + 1) * spec.cols + c] - corners[r * spec.cols + c]));
    half = std::clamp(static_cast<int>(spacing / 3), 2, 5);
  }
  cv::cornerSubPix(grey, corners, cv::Size(half, half), cv::Size(-1, -1),
                   cv::TermCriteria(cv::TermCriteria::EPS | cv::TermCriteria::COUNT, 40, 0.001));
  for (int i = 0; i < static_cast<int>(corners.size()); ++i) {
    view->ids.push_back(i);
    view->image_px.push_back(corners[i]);
    view->board_mm.push_back(InnerCornerMm(spec, i));
  }
}

void DetectCharuco(const BoardDetectionOptions& o, const BoardSpec& spec, const cv::Mat& grey, BoardView* view) {
  const auto board = MakeCharucoBoard(spec);
  std::vector<std::vector<cv::Point2f>> marker_corners, rejected;
  std::vector<int> marker_ids;
  // A fresh parameter object per call: OpenCV 4.6 writes into the one it is given.
  auto params = cv::aruco::DetectorParameters::create();
  params->cornerRefinementMethod = cv::aruco::CORNER_REFINE_NONE;  // the ChArUco corners are refined instead
  cv::aruco::detectMarkers(grey, board->dictionary, marker_corners, marker_ids, params, rejected);
  if (marker_ids.empty()) return;
  cv::aruco::refineDetectedMarkers(grey, board, marker_corners, marker_ids, rejected);
  std::vector<cv::Point2f> corners;
  std::vector<int> ids;
  cv::aruco::interpolateCornersCharuco(marker_corners, marker_ids, grey, board, corners, ids);
  if (static_cast<int>(ids.size()) < o.min_charuco_corners) return;

  if (o.correct_charuco_bias) {
    // Refine each corner again from OpenCV's result. The window stays clear of the nearest marker
    // corner (which is also a strong corner) the way OpenCV 4.6 sizes it: that distance - 2 px,
    // clamped to 1..10 px.
    for (size_t i = 0; i < corners.size(); ++i) {
      double nearest = 1e9;
      for (const auto& m : marker_corners)
        for (const cv::Point2f& p : m) nearest = std::min(nearest, cv::norm(p - corners[i]));
      const int half = std::clamp(static_cast<int>(nearest - 2), 1, 10);
      std::vector<cv::Point2f> one = {corners[i]};
      cv::cornerSubPix(grey, one, cv::Size(half, half), cv::Size(-1, -1),
                       cv::TermCriteria(cv::TermCriteria::EPS | cv::TermCriteria::COUNT, 100, 0.001));
      corners[i] = one[0];
    }
  }
  for (size_t i = 0; i < ids.size(); ++i) {
    view->ids.push_back(ids[i]);
    view->image_px.push_back(corners[i]);
    view->board_mm.push_back(board->chessboardCorners[ids[i]]);
  }
}

}  // namespace

bool BoardDetectionOptions::Check(std::string* error) const {
  if (min_charuco_corners < 4) {
    if (error) *error = "min_charuco_corners must be at least 4";
    return false;
  }
  if (chessboard_subpix_window < 0) {
    if (error) *error = "chessboard_subpix_window must be >= 0";
    return false;
  }
  return true;
}

double Sharpness(const cv::Mat& image) {
  cv::Mat lap;
  cv::Laplacian(Grey(image), lap, CV_64F);
  cv::Scalar mean, stddev;
  cv::meanStdDev(lap, mean, stddev);
  return stddev[0] * stddev[0];
}

BoardView DetectBoard(const BoardDetectionOptions& options, const BoardSpec& spec, const cv::Mat& image,
                      const std::string& source) {
  if (std::string error; !options.Check(&error)) throw InputError("BoardDetectionOptions", 0, error);
  BoardView view;
  view.source = source;
  view.image_size = image.size();
  if (image.empty()) return view;
  const cv::Mat grey = Grey(image);
  view.sharpness = Sharpness(grey);
  if (spec.kind == BoardKind::kChessboard) DetectChessboard(options, spec, grey, &view);
  else DetectCharuco(options, spec, grey, &view);
  return view;
}

}  // namespace vedette::calib
