#pragma once
// The one style table: colour, stroke width, fill alpha, dash pattern, arrowhead and text size for
// every DrawStyle. Both renderers read colours only from the command list, and the command list
// takes them only from here (or from a primitive's own `rgba`, e.g. side colours), so the screen
// and the recording cannot disagree.
#include <array>
#include <cstdint>

#include "rules/drawing.h"

namespace vedette::overlay {

struct PrimitiveStyle {
  std::uint32_t rgba = 0xD0D0D0FF;  // default colour 0xRRGGBBAA, used when the primitive's rgba is 0
  float thickness_px = 2.0f;        // stroke width, px (times BuildOptions::scale)
  std::uint8_t stroke_alpha = 0xFF; // alpha of outlines and lines
  std::uint8_t fill_alpha = 0x50;   // alpha of fills whose colour comes opaque
  float dash_px = 10.0f;            // dashed primitives: dash length, px
  float gap_px = 6.0f;              // dashed primitives: gap length, px
  float arrow_head_px = 10.0f;      // arrowhead length along the shaft, px
  float label_height_px = 15.0f;    // text height at 1080 lines, px (scaled with the frame, StyleTable's floor)
};

inline constexpr int kDrawStyleCount = static_cast<int>(DrawStyle::kInfo) + 1;

struct StyleTable {
  std::array<PrimitiveStyle, kDrawStyleCount> styles;
  // Box behind every label: dark enough that over a white picture it is #373737, so every text
  // colour below reaches min_text_contrast after at most a small lightening (LabelTextColour).
  std::uint32_t label_background_rgba = 0x000000C8;
  float min_label_height_px = 14.0f;  // no text smaller, whatever the frame size, px
  double min_text_contrast = 4.5;     // WCAG 2 ratio every label's text keeps over its box (AA body text)
  const PrimitiveStyle& For(DrawStyle s) const { return styles[static_cast<int>(s)]; }
  PrimitiveStyle& For(DrawStyle s) { return styles[static_cast<int>(s)]; }
};

// The colours players see: threats orange, ranges yellow, contacts magenta, support green, tests
// bright yellow text, measurements cyan, terrain olive; bases and facings in their side colour.
const StyleTable& DefaultStyleTable();

// The colour a label's text is drawn in: `wanted` (a style's or a side's colour) lightened just
// enough to keep the table's min_text_contrast over its box whatever picture lies under it
// (contrast.h: ReadableTextColour). Opaque.
std::uint32_t LabelTextColour(std::uint32_t wanted_rgba, const StyleTable& styles);

// A label's text height in px: the style's height (for 1080 lines) times `text_scale`, never under
// the table's floor.
float LabelHeight(const PrimitiveStyle& style, double text_scale, const StyleTable& styles);

// The text scale for a picture `image_height_px` tall: proportional to its height (1 at 1080
// lines); LabelHeight's floor keeps small pictures readable.
inline double TextScaleForHeight(int image_height_px) { return image_height_px / 1080.0; }

// 0xRRGGBBAA helpers.
inline std::uint8_t Red(std::uint32_t rgba) { return static_cast<std::uint8_t>(rgba >> 24); }
inline std::uint8_t Green(std::uint32_t rgba) { return static_cast<std::uint8_t>(rgba >> 16); }
inline std::uint8_t Blue(std::uint32_t rgba) { return static_cast<std::uint8_t>(rgba >> 8); }
inline std::uint8_t Alpha(std::uint32_t rgba) { return static_cast<std::uint8_t>(rgba); }
inline std::uint32_t WithAlpha(std::uint32_t rgba, std::uint8_t a) { return (rgba & 0xFFFFFF00u) | a; }

}  // namespace vedette::overlay
