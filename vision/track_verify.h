#pragma once
// Checks that a refined quad really is the marker the tracker expected there: the cells are sampled
// through the quad's homography and compared with the marker's code. RefineMarkerCorners only
// snaps a quad to nearby edges; without this check a window whose marker was lifted could lock onto
// a neighbour's edges or a hand's shadow and report a pose that is not the unit's.
#include <array>

#include <opencv2/aruco.hpp>
#include <opencv2/core.hpp>

namespace vedette::vision {

struct BitCheck {
  int errors = -1;        // cells (border included) on the wrong side of the black/white threshold; -1: not checkable
  double contrast = 0;    // mean white cell - mean black cell, grey levels
};

// image: 8-bit gray or BGR; corners in OpenCV's order, px, in this image. Not checkable (errors -1)
// when the quad leaves the image or the contrast is below min_contrast grey levels.
BitCheck CheckMarkerBits(const cv::Mat& image, const std::array<cv::Point2f, 4>& corners_px,
                         const cv::aruco::Dictionary& dictionary, int id, double min_contrast = 25.0);
// The same with the marker's cells given (calib::MarkerCells: 255 = white, row 0 along corners 0-1),
// for a caller that checks the same marker every frame.
BitCheck CheckMarkerBits(const cv::Mat& image, const std::array<cv::Point2f, 4>& corners_px, const cv::Mat& cells,
                         double min_contrast = 25.0);

}  // namespace vedette::vision
