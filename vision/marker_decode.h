#pragma once
// Reading a marker's cells where they are: each cell's brightness is the mean of a 3x3 grid of
// bilinear samples in the middle of the cell, mapped through the quad's homography (no warped
// patch), split into dark and light at the largest gap between classes (Otsu over the cells).
// Used twice: to identify a candidate quad (rough corners) and to check a refined quad against the
// code its ID says it carries.
#include <string>

#include <opencv2/aruco.hpp>
#include <opencv2/core.hpp>

#include "vision/marker_candidates.h"

namespace vedette::vision {

struct DecodeOptions {
  double min_contrast = 15;          // light cells minus dark cells, grey levels; flatter quads are not markers
  double border_error_rate = 0.35;   // light border cells allowed, as a fraction of markerSize^2 (OpenCV's rule)
  double correction_rate = 0.6;      // of the dictionary's correctable bits (OpenCV's errorCorrectionRate)
  bool Check(std::string* error) const;
};

struct DecodedMarker {
  int id = -1;
  Quad corners_px;  // rotated so that corner 0 is the marker's own top-left (OpenCV's order), px
};

enum class DecodeResult {
  kMarker,      // read: out holds the ID and the turned corners
  kNotMarker,   // too flat, border not dark, or the quad leaves the image
  kUnreadable,  // looks like a marker (dark border, contrast) but its cells match no ID: rough
                // corners a third of a cell off do this to small markers; refined corners may read
};

DecodeResult DecodeMarker(const DecodeOptions& o, const cv::Mat& gray, const Quad& quad_px, const cv::aruco::Dictionary& dict,
                  DecodedMarker* out);

// True when the quad's cells, split halfway between those the ID's code says are light and those
// it says are dark, disagree with the code in at most allowed_mismatches cells (border included),
// and every agreeing cell lies at least min_margin (a fraction of the light-dark gap) from the split.
bool CellsAgreeWithId(const cv::Mat& gray, const Quad& corners_px, const cv::aruco::Dictionary& dict, int id,
                      int allowed_mismatches, double min_margin = 0);

}  // namespace vedette::vision
