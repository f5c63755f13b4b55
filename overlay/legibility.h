#pragma once
// How legible one frame's overlay is, measured from its description (the pixel-space command list
// BuildDrawCommands makes, which both renderers draw) and where the markers are in the picture:
// label boxes that overlap one another, label boxes over a marker, the smallest text height and the
// smallest WCAG 2 contrast between a label's text and its backing. The acceptance figures
// (0 overlaps, 0 labels over markers, text >= 14 px at 1080p, contrast >= 4.5:1) are checked with it
// on whole clips (tests/overlay/legibility_frames_test.cpp).
#include <array>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include <opencv2/core.hpp>

#include "overlay/draw_commands.h"

namespace vedette::overlay {

// A marker's four image corners, output px, in any order around the square (a projected square is
// convex; it may be turned any way).
using MarkerQuad = std::array<cv::Point2f, 4>;

struct LegibilityOptions {
  // Boxes touching along an edge do not overlap; they overlap once the shared area is wider and
  // taller than this (px). 0: any positive area counts.
  double overlap_tolerance_px = 0.0;
  bool Check(std::string* error) const;
};

struct Legibility {
  int labels = 0;                                // labels in the frame's commands
  std::vector<std::pair<int, int>> overlapping;  // label index pairs (i < j) whose boxes overlap
  std::vector<std::pair<int, int>> over_marker;  // (label index, marker index): the box covers part of the quad
  double min_text_px = std::numeric_limits<double>::infinity();   // smallest LabelCommand::height_px
  double min_contrast = std::numeric_limits<double>::infinity();  // smallest WorstTextContrast (contrast.h)
  int min_contrast_label = -1;                   // the label with that contrast (-1: no labels)
};

// Label boxes are LabelBox (label_layout.h): what either renderer's background covers.
Legibility MeasureLegibility(const LegibilityOptions& options, const DrawCommands& commands,
                             const std::vector<MarkerQuad>& markers_px);

// Whether the axis-aligned `box` and the convex quad share an area wider than `tolerance_px` along
// every separating direction (boxes or quads that only touch do not).
bool BoxOverlapsQuad(const cv::Rect2f& box, const MarkerQuad& quad, double tolerance_px = 0.0);

}  // namespace vedette::overlay
