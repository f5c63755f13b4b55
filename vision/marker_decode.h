#pragma once
// Reading a marker's cells where they are: each cell's brightness is a bilinear sample at its
// centre (for reading) or the mean of a 3x3 grid in its middle half (for checking a refined quad),
// mapped through the quad's homography (no warped patch), with the blur that bleeds between
// neighbouring cells taken back out (sharpening), split into dark and light at the largest gap
// between classes (Otsu over the cells).
// Used twice: to identify a candidate quad (rough corners) and to check a refined quad against the
// code its ID says it carries.
#include <cstdint>
#include <string>
#include <vector>

#include <opencv2/aruco.hpp>
#include <opencv2/core.hpp>

#include "vision/marker_candidates.h"

namespace vedette::vision {

struct DecodeOptions {
  double min_contrast = 15;          // light cells minus dark cells, grey levels; flatter quads are not markers
  double border_error_rate = 0.35;   // light border cells allowed, as a fraction of markerSize^2 (OpenCV's rule)
  double correction_rate = 0.6;      // of the dictionary's correctable bits (OpenCV's errorCorrectionRate)
  double sharpening = 0.25;          // blur between neighbouring cells taken out before the split (AprilTag's decode_sharpening); 0: none
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

// A dictionary's codes packed one 64-bit word a code and rotation, for reading many candidates:
// Dictionary::identify's answer (the first ID within the correction, its first nearest rotation) by a
// popcount each instead of a call to a byte-wise Hamming norm each (identify was 9 % of a 720p cold
// frame on AprilTag 36h11's 587 codes: issue 21). Codes over 64 bits fall back to identify.
class CodeBook {
 public:
  explicit CodeBook(const cv::aruco::Dictionary& dict);
  // bits: markerSize x markerSize, 0 or 1 (as identify takes them).
  bool Identify(const cv::Mat& bits, double correction_rate, int* id, int* rotation) const;

 private:
  const cv::aruco::Dictionary& dict_;
  int nbytes_ = 0;                     // bytes a code (identify's byte list), 0: over 64 bits
  std::vector<uint64_t> words_;        // code m, rotation r at 4 m + r
};

// codes (optional): the dictionary's CodeBook, the same answers faster.
DecodeResult DecodeMarker(const DecodeOptions& o, const cv::Mat& gray, const Quad& quad_px, const cv::aruco::Dictionary& dict,
                  DecodedMarker* out, const CodeBook* codes = nullptr);

// How strictly a refined marker's cells must agree with the code its ID says it carries. Border
// cells count as mismatches like inner ones: allowing the reading's light border cells here as well
// let three wrong IDs through on the detection benchmark's 1,200 markers.
struct AgreeOptions {
  int allowed_mismatches = 0;         // cells, border included, that may disagree with the code (the dictionary's correction)
  double min_margin = 0;              // every agreeing cell at least this far from the split, fraction of the light-dark gap
  double sharpening = 0.25;           // as DecodeOptions::sharpening, so a marker is checked the way it was read
};

// True when the quad's cells, split halfway between those the ID's code says are light and those
// it says are dark, disagree with the code in at most allowed_mismatches cells and every agreeing
// cell lies min_margin from the split.
bool CellsAgreeWithId(const cv::Mat& gray, const Quad& corners_px, const cv::aruco::Dictionary& dict, int id,
                      const AgreeOptions& o);

}  // namespace vedette::vision
