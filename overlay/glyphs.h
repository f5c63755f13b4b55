#pragma once
// State icons (shaken, routed, disordered, ...) as strokes in output px: both renderers draw these
// same polylines, so an icon looks the same on screen and in the recording. Each is drawn inside a
// square of side `size_px` centred on `centre_px`, in a colour that reads on the labels' dark backing.
#include <cstdint>
#include <vector>

#include <opencv2/core.hpp>

#include "rules/drawing.h"

namespace vedette::overlay {

struct GlyphStroke {
  std::vector<cv::Point2f> points;  // output px
  bool closed = false;
};

std::vector<GlyphStroke> GlyphStrokes(Glyph glyph, const cv::Point2f& centre_px, float size_px);
std::uint32_t GlyphColour(Glyph glyph);                 // 0xRRGGBBAA
inline float GlyphThickness(float size_px) { return size_px > 16.0f ? size_px / 8.0f : 2.0f; }

}  // namespace vedette::overlay
