#pragma once
// A marker's corners from its sides: each side is re-fitted as a straight line through sub-pixel
// edge points, and the corners are the intersections of adjacent lines. One implementation for the
// detector (rough corners from an outline, two passes, many profiles) and the tracker (a prediction
// good to a tenth of a pixel, one pass, fewer profiles): the same edge model, so resting and moving
// measurements and cold detections agree.
//
// Each profile runs 1 px past the search on both sides, so the rise of an edge near the search's
// end is measured whole: a profile cut at the search's end clips the rise's far tail and pulls the
// edge back towards the start (measured: a start 0.5 px off kept half its error).
//
// The last pass fits a bar model (bar_model): across a marker's side lie the code cells, the black
// border one cell wide, the white margin and the base, all blurred alike, so a centroid of the rise is
// pulled towards whichever neighbouring edge falls more: out where the code cell inside is light,
// in where the margin ends against a dark base. Blurred steps a cell apart with free levels, one blur
// for all, are fitted to the side's mean profile and then to each cell's (its column of code cells),
// and the line goes through the cells' edges. On the condition matrix the median corner error fell
// 1.9-3.8x (vision/NOTES.md, "Edge lines: the bar model").
#include <array>
#include <functional>
#include <string>

#include <opencv2/core.hpp>

namespace vedette::vision {

struct EdgeLineOptions {
  double search_px = 2.0;        // edges searched within this of the current sides (never beyond 0.9 cell), px
  int passes = 2;                // 2: again within 1 px of the first pass's lines
  double profiles_per_px = 1.5;  // edge profiles per px of side (more: less noise, more cost)
  int min_profiles = 6;          // per side, at least
  int max_profiles = 48;         // per side, at most: beyond, the line's error hardly falls (1/sqrt(n)) while the cost grows
  double max_shift_px = 2.5;     // a corner moving further than this from the start fails the refinement, px
  bool bar_model = true;         // the last pass's lines from the bar model of each cell's profiles (vision/NOTES.md)
  bool Check(std::string* error) const;
};

// gray: 8-bit, one channel; cells: the marker's cells per side, border included (4x4 codes: 6), which
// bounds the search so it never reaches a cell inward and places the bar model's cells; corners in
// OpenCV's order (dark marker inside), px, refined in place. False (corners unchanged) when a side's
// edge is not found, a corner would move more than max_shift_px, or the quad is degenerate, flips,
// or comes too near the image border. centroid_px (optional): the last pass's corners without the
// bar model (the detector decides on them what it decided before the bar model, see vision/NOTES.md).
// bar_if (optional): called with the centroid corners once the passes succeed, before the bar model's
// lines are fitted from the last pass; false leaves the centroid corners (the detector reads a
// candidate through them and wants the bar model only for one that reads: one refinement where it
// ran two, issue 21).
using BarGate = std::function<bool(const std::array<cv::Point2f, 4>& centroid_px)>;
bool RefineEdgeLines(const EdgeLineOptions& o, const cv::Mat& gray, int cells, std::array<cv::Point2f, 4>* corners_px,
                     std::array<cv::Point2f, 4>* centroid_px = nullptr, const BarGate& bar_if = {});

}  // namespace vedette::vision
