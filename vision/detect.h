#pragma once
// Marker detection tuned for small ArUco markers seen from above (OpenCV 4.6 aruco, old API), with
// Vedette's own edge refinement on top: every marker side is re-fitted as a straight line through
// sub-pixel edge points sampled along it, and the corners become the lines' intersections. That
// removes the ~0.3 px inward bias stock corner refinement leaves on small, blurred markers.
//
// OpenCV 4.6 traps handled here (see /work/shared/STACK.md):
//  - detectMarkers writes into the DetectorParameters passed in: a fresh object per call;
//  - the default minMarkerPerimeterRate (0.03) loses small rotated markers: limits come from the
//    roster's marker sizes and the camera;
//  - the default SUBPIX window (5 px) snaps small markers' corners to the wrong place: the window is
//    matched to the marker's cell size;
//  - APRILTAG refinement is never used (about a second per 1080p frame and a half-pixel offset).
#include <array>
#include <string>
#include <vector>

#include <opencv2/aruco.hpp>
#include <opencv2/core.hpp>

#include "calibration/camera_model.h"
#include "calibration/marker_observation.h"
#include "rules/scene/scene.h"

namespace vedette::vision {

struct DetectorOptions {
  double min_marker_side_px = 8.0;     // smallest marker side to look for, px (sets OpenCV's min perimeter rate)
  double max_marker_side_px = 2000.0;  // largest marker side, px (sets the max perimeter rate)
  int subpix_window_px = 2;            // half-size of cornerSubPix's window, px; about half a marker cell (0: no SUBPIX)
  bool edge_refinement = true;         // re-fit each side as a line through sub-pixel edge points
  double edge_search_px = 2.0;         // how far across the rough side edge points are searched, px
  double max_edge_shift_px = 2.5;      // a refined corner moving further than this keeps its rough position, px
  bool verify_bits = true;             // re-read the cells through the refined corners; drop markers the image contradicts
  double duplicate_merge_px = 0.0;     // same id reported with centres closer than this is one marker, px (0: half the smaller side)
  int adaptive_win_min_px = 3;         // OpenCV adaptiveThreshWinSizeMin, px
  int adaptive_win_max_px = 23;        // OpenCV adaptiveThreshWinSizeMax, px
  int adaptive_win_step_px = 10;       // OpenCV adaptiveThreshWinSizeStep, px
  double polygonal_approx_accuracy = 0.05;  // OpenCV polygonalApproxAccuracyRate (of the perimeter)
  double min_corner_distance_rate = 0.05;   // OpenCV minCornerDistanceRate (of the perimeter)
  int bit_pixels_per_cell = 8;              // OpenCV perspectiveRemovePixelPerCell (default 4), px
  double bit_ignored_margin = 0.3;          // OpenCV perspectiveRemoveIgnoredMarginPerCell (default 0.13), of a cell
  int error_correction_bits_rate_x100 = 60; // OpenCV errorCorrectionRate x 100 (0..100)
  bool Check(std::string* error) const;
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
  double ms = 0;                                  // detection time, ms
};

// image: 8-bit gray or BGR.
Detections DetectMarkers(const DetectorOptions& o, const cv::Mat& image, const cv::aruco::Dictionary& dict);

// Refines one marker's corners in place from a rough quad (OpenCV order): SUBPIX on each corner,
// then the edge-line fit. False (corners unchanged) when the quad is degenerate, leaves the image,
// or the edges are not found. The tracker uses this in small predicted windows.
bool RefineMarkerCorners(const DetectorOptions& o, const cv::Mat& gray, std::array<cv::Point2f, 4>* corners_px);

// Stock OpenCV detectMarkers with default parameters (fresh object), for the benchmark's side by side.
Detections DetectMarkersStock(const cv::Mat& image, const cv::aruco::Dictionary& dict);

}  // namespace vedette::vision
