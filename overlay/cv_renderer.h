#pragma once
// The OpenCV backend: draws a DrawCommands list into a BGR frame (recordings, `vedette process`,
// evidence images). Antialiased; translucent fills, lines and label boxes are blended through a
// coverage mask limited to each shape's bounding box, so a frame costs what its shapes cover.
#include <opencv2/core.hpp>

#include "overlay/draw_commands.h"

namespace vedette::overlay {

// Buffers reused between frames.
struct CvRenderScratch {
  cv::Mat mask;                     // CV_8U coverage, the frame's size; only ROIs are touched
  std::vector<cv::Point> fixed;     // points in 1/16 px for the subpixel-precise cv:: drawing calls
  std::vector<cv::Point> triangle;
};

// `bgr` is CV_8UC3; commands are in its pixel coordinates.
void RenderCommands(const DrawCommands& commands, cv::Mat* bgr, CvRenderScratch* scratch);

// Text size OpenCV draws for a label of `height_px` (also used for the label's box).
cv::Size LabelTextSize(const std::string& text, float height_px, int* baseline);

}  // namespace vedette::overlay
