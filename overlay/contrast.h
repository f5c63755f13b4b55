#pragma once
// Text contrast as WCAG 2 measures it, on the 8-bit sRGB colours the renderers draw with: the
// relative luminance of a colour, the ratio (L1 + 0.05) / (L2 + 0.05) between two, and the worst
// ratio a label's text keeps over its translucent background whatever the picture under it is.
// The style table (style.h) picks text colours with it; the legibility measure (legibility.h)
// reports it.
#include <cstdint>

namespace vedette::overlay {

// WCAG 2 relative luminance of 0xRRGGBBAA's colour (alpha ignored), 0 (black) .. 1 (white).
double RelativeLuminance(std::uint32_t rgba);

// WCAG 2 contrast ratio of two colours (alphas ignored), 1 .. 21, the same either way round.
double ContrastRatio(std::uint32_t rgba_a, std::uint32_t rgba_b);

// `top` (its alpha) over the opaque colour `under`, rounded to 8 bits as the OpenCV backend blends
// (overlay/cv_renderer.cpp); the result is opaque.
std::uint32_t Over(std::uint32_t top_rgba, std::uint32_t under_rgba);

// The smallest contrast between a label's text and what is right around its strokes: the text and
// its background box composited over a black and over a white picture (every picture under a
// translucent box lies between the two); an opaque box gives one case.
double WorstTextContrast(std::uint32_t text_rgba, std::uint32_t background_rgba);

// `text_rgba` mixed towards white (or, when white cannot reach the ratio over this background,
// towards black) by the least amount that gives WorstTextContrast >= `min_ratio`: the hue players
// know (a side's colour) stays as far as legibility allows. Returned unchanged when it already
// reaches it; the best of white and black when nothing does. The alpha is kept.
std::uint32_t ReadableTextColour(std::uint32_t text_rgba, std::uint32_t background_rgba, double min_ratio);

}  // namespace vedette::overlay
