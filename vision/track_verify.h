#pragma once
// Checks that a refined quad really is the marker the tracker expected there: the cells are sampled
// through the quad's homography and compared with the marker's code. RefineMarkerCorners only
// snaps a quad to nearby edges; without this check a window whose marker was lifted could lock onto
// a neighbour's edges or a hand's shadow and report a pose that is not the unit's.
#include <array>
#include <string>

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

// Re-measuring a marker the tracker predicted. A resting marker's prediction is its last measured
// quad, good to about a tenth of a pixel, and a moving one's is good to a pixel or two, so the
// general refinement (vision/detect.h RefineMarkerCorners: cornerSubPix to mend a contour's rough
// corners, then two passes of up to 48 edge profiles per side) does more work than the answer needs.
// Here each side is measured by fewer profiles searched within search_px of the predicted side, with
// the detector's edge model (centroid of the dark-to-light rise, total least squares line, one round
// of outlier rejection), and the corners are the lines' intersections; optionally a second pass
// searches within 1 px of the first pass's lines. A resting marker's pose is averaged over many
// measurements, so fewer profiles (more noise per measurement, no added bias) cost it little.
struct PredictedRefineOptions {
  double search_px = 1.0;         // edges searched within this of the predicted sides, px
  int passes = 1;                 // 2: again within 1 px of the first pass's lines (for a prediction a px or two off)
  double profiles_per_px = 1.0;   // edge profiles per px of side (more: less noise, more cost)
  int min_profiles = 8;           // per side, at least
  int max_profiles = 24;          // per side, at most
  double max_shift_px = 1.0;      // a corner moving further than this from the prediction fails the refinement, px
  bool Check(std::string* error) const;
};

// gray: 8-bit, one channel; cells: the marker's cells per side, border included (4x4 codes: 6; the
// search never reaches a cell inward); corners in OpenCV's order (dark marker inside), px, refined in
// place. False (corners unchanged) when a side's edge is not found, a corner would move more than
// max_shift_px, or the quad is degenerate or too near the image border.
bool RefinePredictedMarker(const PredictedRefineOptions& o, const cv::Mat& gray, int cells,
                           std::array<cv::Point2f, 4>* corners_px);

}  // namespace vedette::vision
