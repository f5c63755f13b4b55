#pragma once
// Marker detection tuned for small ArUco markers seen from above. Vedette finds and reads the
// candidates itself (vision/marker_candidates.h, vision/marker_decode.h: thresholds fitted to the
// roster's marker sizes, cells sampled where they are) and then re-fits every marker side as a
// straight line through sub-pixel edge points; the corners become the lines' intersections. That
// removes the ~0.3 px inward bias stock corner refinement leaves on small, blurred markers, and a
// cold frame costs a fraction of cv::aruco::detectMarkers (which the benchmark runs side by side).
//
// OpenCV 4.6 traps that made us leave detectMarkers (see /work/shared/STACK.md): it writes into the
// DetectorParameters passed in; its default minMarkerPerimeterRate (0.03) loses small rotated
// markers; its default SUBPIX window (5 px) snaps small markers' corners to the wrong place; its
// APRILTAG refinement costs about a second per 1080p frame and leaves a half-pixel offset.
#include <array>
#include <string>
#include <vector>

#include <opencv2/aruco.hpp>
#include <opencv2/core.hpp>

#include "calibration/camera_model.h"
#include "calibration/marker_observation.h"
#include "rules/scene/scene.h"
#include "vision/marker_candidates.h"

namespace vedette::vision {

struct DetectorOptions {
  double min_marker_side_px = 8.0;     // smallest marker side to look for, px
  double max_marker_side_px = 2000.0;  // largest marker side, px
  std::vector<ThresholdPass> threshold_passes;  // adaptive thresholds outlined for quads (empty: fitted to the side range, see Passes())
  double threshold_offset = 7.0;       // dark = this far below the box's mean, grey levels
  double polygon_accuracy = 0.05;      // outline to quad tolerance, fraction of the outline's length
  double min_corner_distance = 0.05;   // quads with corners closer than this fraction of the outline are dropped
  double min_contrast = 15;            // light minus dark cells of a marker, grey levels
  double border_error_rate = 0.35;     // light border cells allowed, fraction of markerSize^2
  double cell_sharpening = 0.25;       // blur between neighbouring cells taken out before reading them (vision/marker_decode.h); 0: none
  int error_correction_bits_rate_x100 = 60;  // share of the dictionary's correctable bits used (0..100)
  int subpix_window_px = 2;            // cornerSubPix half-window where edge lines fail or are off, px; about half a marker cell (0: none)
  bool edge_refinement = true;         // re-fit each side as a line through sub-pixel edge points
  double edge_search_px = 2.0;         // how far across the rough side edge points are searched, px
  bool edge_bar_model = true;          // the last pass's lines from the bar model (vision/edge_lines.h); false: centroids of the rise alone
  double max_edge_shift_px = 2.5;      // a refined corner moving further than this keeps its rough position, px
  bool verify_bits = true;             // re-read the cells through the refined corners; drop markers the image contradicts
  double small_marker_cell_margin = 0.05; // cells under 3 px read only through refined corners: every cell this far from the split, fraction of the light-dark gap
  double duplicate_merge_px = 0.0;     // same id reported with centres closer than this is one marker, px (0: half the smaller side)
  bool second_look = true;             // outline again with the mid-range threshold where the mean threshold left marker-sized pieces (motion blur)
  MidRangeOptions mid_range;           // that threshold's window and contrast
  int expected_markers = 0;            // different markers the image should hold (roster's units and anchors): with that many read, no second look (0: unknown)
  bool Check(std::string* error) const;
  // The threshold passes used: threshold_passes, or without them OpenCV's three boxes (3, 13, 23 px)
  // when the side range is unknown (wider than 20x), else passes fitted to it (ThresholdPassesFor).
  std::vector<ThresholdPass> Passes(int cells) const;
};

// Options for a roster seen through a camera: perimeter limits from the smallest and largest
// marker (units and anchors) at the nearest and farthest plausible distance, and the SUBPIX window
// from the smallest marker's cell size. camera_height_mm_hint: the camera's height above the table
// (0: guessed from the field of view needed to see the roster's table).
DetectorOptions DetectorOptionsFor(const Scene& roster, const calib::CameraIntrinsics& k,
                                   double camera_height_mm_hint = 0);

struct Detections {
  std::vector<calib::MarkerObservation> markers;  // one per physical marker, in no particular order
  std::vector<int> duplicate_ids;                 // ids seen at two or more different spots (all kept in markers)
  int second_look_outlines = -1;                  // unclosed outlines looked at again (-1: no second look was wanted)
  double ms = 0;                                  // detection time, ms
};

// image: 8-bit gray or BGR. known_px: markers already measured in this image (corners px, any
// order): a candidate outline whose centre lies within half a side of one's centre is that marker
// and is neither read nor refined again (the tracker's band and change regions mostly meet markers
// its windows have just measured; reading and refining them was half of their cost).
Detections DetectMarkers(const DetectorOptions& o, const cv::Mat& image, const cv::aruco::Dictionary& dict,
                         const std::vector<std::array<cv::Point2f, 4>>& known_px = {});

// Refines one marker's corners in place from a rough quad (OpenCV order): SUBPIX on each corner,
// then the edge-line fit. False (corners unchanged) when the quad is degenerate, leaves the image,
// or the edges are not found. The tracker uses this in small predicted windows. cells: per side,
// border included (4x4 codes: 6): it bounds the search band and places the bar model's cells.
bool RefineMarkerCorners(const DetectorOptions& o, const cv::Mat& gray, std::array<cv::Point2f, 4>* corners_px,
                         int cells = 6);

// Stock OpenCV detectMarkers with default parameters (fresh object), for the benchmark's side by side.
Detections DetectMarkersStock(const cv::Mat& image, const cv::aruco::Dictionary& dict);

// Stock at its best documented settings for small markers (OpenCV's tutorial advice): sub-pixel
// corner refinement and a perimeter limit that admits markers of min_side_px; the rest default.
Detections DetectMarkersStockBest(const cv::Mat& image, const cv::aruco::Dictionary& dict, double min_side_px = 8);

}  // namespace vedette::vision
