#pragma once
// Where markers may be: dark square outlines in the image. This is the first half of marker
// detection (the second reads each candidate's cells, vision/marker_decode.h), done by Vedette
// instead of cv::aruco::detectMarkers because the roster tells us the size of the markers in
// pixels: one or two adaptive thresholds whose window fits those markers replace OpenCV's three,
// and no candidate is warped to a fine grid to be read (cells are sampled where they are).
#include <array>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

namespace vedette::vision {

using Quad = std::array<cv::Point2f, 4>;  // image px, pixel centres at integers

// One adaptive threshold of the image, outlined for quads: markers whose cells span several pixels
// are outlined on a half-size image at a quarter of the cost, and read and refined at full size.
struct ThresholdPass {
  int window_px = 13;        // box size for the local mean, odd, >= 3, in the pass's own pixels
  int scale = 1;             // 1: full image; 2: half-size image
  double min_side_px = 0;    // outlines shorter than this marker side are left to other passes, full-image px (0: the options' min)
};

struct CandidateOptions {
  double min_side_px = 8.0;           // smallest marker side looked for, px
  double max_side_px = 2000.0;        // largest marker side looked for, px
  std::vector<ThresholdPass> passes = {{3, 1, 0}, {13, 1, 0}, {23, 1, 0}};  // OpenCV's three boxes by default
  double threshold_offset = 7.0;      // a pixel is "dark" when this far below its window's mean, grey levels
  double polygon_accuracy = 0.05;     // polygon approximation tolerance, fraction of the contour's length
  double min_corner_distance = 0.05;  // corners closer than this fraction of the contour's length: not a square
  int min_distance_to_border_px = 2;  // corners nearer the image border are dropped, px
  bool Check(std::string* error) const;
};

// Dark convex quadrilaterals whose outline length fits a marker side between min and max, corners in
// OpenCV's candidate order (clockwise on screen, y down). Nearly identical quads found at several
// thresholds are kept once. gray: 8-bit, one channel. unclosed (optional): the boxes (image px) of
// outlines from a marker side long up to a marker's outline that did not close into a quad: where a
// blurred border may have broken into pieces.
std::vector<Quad> FindMarkerCandidates(const CandidateOptions& o, const cv::Mat& gray,
                                       std::vector<cv::Rect>* unclosed = nullptr);

// AprilTag 3's threshold: a pixel is dark below the middle of the darkest and lightest pixel around
// it. A box mean sits inside a motion-blurred black border and cuts it into pieces; the middle of
// the extremes keeps it whole. It costs several box means, so it runs only where they left pieces.
struct MidRangeOptions {
  int window_px = 13;       // square the extremes are taken over, odd, px (AprilTag: 3x3 tiles of 4 px)
  double min_range = 25;    // darkest to lightest below this: flat ground, not dark, grey levels
  bool Check(std::string* error) const;
};

// Candidates (as FindMarkerCandidates) outlined with the mid-range threshold inside the unclosed
// boxes, each grown by half the window (so its pixels see what they would in the whole image) and
// merged with its neighbours. On the condition matrix's motion blur a missed marker's dark outline
// holds the whole marker: growing the boxes by a quarter or a half of their longer side found no
// marker more (and thresholded 2.5x and 4x the ground).
std::vector<Quad> FindBlurredCandidates(const CandidateOptions& o, const MidRangeOptions& m, const cv::Mat& gray,
                                        const std::vector<cv::Rect>& unclosed);

// The mean threshold's binary image (255: dark), as cv::blur (BORDER_REPLICATE), cv::add and
// cv::compare give it: a pixel is dark when min(pixel + offset, 255) is below its window x window
// box's mean, rounded as cv::blur rounds it. window: odd, >= 3 px; offset: grey levels.
cv::Mat MeanThreshold(const cv::Mat& gray, int window, double offset);

// Passes that fit markers from min_side px up (cells: per side, border included): one box sized for
// the smallest marker serves the larger ones too (see the .cpp).
std::vector<ThresholdPass> ThresholdPassesFor(double min_side_px, int cells);

}  // namespace vedette::vision
