#include "overlay/style.h"

#include <algorithm>

#include "overlay/contrast.h"

namespace vedette::overlay {

namespace {

StyleTable MakeDefault() {
  StyleTable t;
  auto set = [&](DrawStyle s, std::uint32_t rgba, float thickness, std::uint8_t stroke_alpha, std::uint8_t fill_alpha) {
    PrimitiveStyle& p = t.For(s);
    p.rgba = rgba;
    p.thickness_px = thickness;
    p.stroke_alpha = stroke_alpha;
    p.fill_alpha = fill_alpha;
  };
  set(DrawStyle::kBase, 0xFFFFFFFF, 2.0f, 0xFF, 0x60);
  set(DrawStyle::kFacing, 0xFFFFFFFF, 2.0f, 0xFF, 0xFF);
  set(DrawStyle::kZoneOfControl, 0xFFFFFFFF, 1.5f, 0xC0, 0x40);
  set(DrawStyle::kRange, 0xF0D040FF, 1.5f, 0xE0, 0x30);
  set(DrawStyle::kThreat, 0xFF8C00FF, 3.0f, 0xFF, 0x60);
  set(DrawStyle::kContact, 0xFF40FFFF, 3.0f, 0xFF, 0x60);
  set(DrawStyle::kSupport, 0x40E070FF, 2.0f, 0xFF, 0x50);
  set(DrawStyle::kTest, 0xFFE040FF, 2.0f, 0xFF, 0x50);
  set(DrawStyle::kMeasure, 0x00E5FFFF, 2.0f, 0xFF, 0x40);
  set(DrawStyle::kTerrain, 0x7BB85AFF, 1.5f, 0xE0, 0x38);
  set(DrawStyle::kVerdict, 0x7FD8FFFF, 2.5f, 0xFF, 0x50);
  set(DrawStyle::kIllegal, 0xFF2A2AFF, 4.0f, 0xFF, 0x70);
  set(DrawStyle::kInfo, 0xD0D0D0FF, 1.5f, 0xFF, 0x40);
  t.For(DrawStyle::kTest).label_height_px = 16.0f;
  t.For(DrawStyle::kMeasure).label_height_px = 16.0f;
  t.For(DrawStyle::kVerdict).label_height_px = 18.0f;
  t.For(DrawStyle::kIllegal).label_height_px = 20.0f;
  t.For(DrawStyle::kFacing).arrow_head_px = 8.0f;
  t.For(DrawStyle::kThreat).arrow_head_px = 12.0f;
  return t;
}

}  // namespace

std::uint32_t LabelTextColour(std::uint32_t wanted_rgba, const StyleTable& styles) {
  return ReadableTextColour(WithAlpha(wanted_rgba, 0xFF), styles.label_background_rgba, styles.min_text_contrast);
}

float LabelHeight(const PrimitiveStyle& style, double text_scale, const StyleTable& styles) {
  return std::max(styles.min_label_height_px, static_cast<float>(style.label_height_px * text_scale));
}

const StyleTable& DefaultStyleTable() {
  static const StyleTable table = MakeDefault();
  return table;
}

}  // namespace vedette::overlay
