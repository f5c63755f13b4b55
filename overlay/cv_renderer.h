#pragma once
// The OpenCV backend: draws a DrawCommands list into a BGR frame (recordings, `vedette process`,
// evidence images). Antialiased; translucent fills, lines and label boxes are blended through a
// coverage mask limited to each shape's bounding box, so a frame costs what its shapes cover.
#include <string>
#include <unordered_map>
#include <vector>

#include <opencv2/core.hpp>

#include "overlay/draw_commands.h"
#include "overlay/label_card.h"

namespace vedette::overlay {

// A label's text rasterised once: antialiased coverage, the text's top-left `margin` px inside.
struct LabelSprite {
  cv::Mat coverage;  // CV_8U
  int margin = 0;    // px
};

// Buffers reused between frames.
struct CvRenderScratch {
  cv::Mat mask;                     // CV_8U coverage, the frame's size; only ROIs are touched
  std::vector<cv::Point> fixed;     // points in 1/16 px for the subpixel-precise cv:: drawing calls
  std::vector<cv::Point> triangle;
  std::vector<cv::Point2f> simplified;  // a path without its nearly collinear points
  std::unordered_map<std::string, LabelSprite> label_sprites;  // by text and height
  size_t label_sprite_bytes = 0;    // their coverage, bytes (bounded: cv_renderer.cpp)
  std::vector<CardLine> card_lines;    // a card's lines and icons (label_card.h)
  std::vector<CardGlyph> card_glyphs;
};

struct CvRenderOptions {
  // Points of a path closer than this to the straight piece that skips them are not drawn as joins
  // (the builder splits edges every few px for the lens; most runs are straight to far less), px.
  // 0 draws every point.
  float simplify_px = 0.1f;
  // Label texts are rasterised once and blended from the cache (scratch.label_sprites); false
  // draws them with putText every time.
  bool cache_labels = true;
  bool Check(std::string* error) const;
};

// `bgr` is CV_8UC3; commands are in its pixel coordinates.
void RenderCommands(const DrawCommands& commands, cv::Mat* bgr, CvRenderScratch* scratch,
                    const CvRenderOptions& options = {});

// Text size OpenCV draws for a label of `height_px` (also used for the label's box).
// OpenCV's Hershey fonts draw ASCII only: "\u00b1" becomes "+/-", "\u00b0" " deg", any other
// character "?". The ImGui renderer draws the text as it is.
std::string HersheyText(const std::string& text);
cv::Size LabelTextSize(const std::string& text, float height_px, int* baseline);

}  // namespace vedette::overlay
