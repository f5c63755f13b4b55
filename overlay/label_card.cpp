#include "overlay/label_card.h"

#include <algorithm>

#include "overlay/label_layout.h"

namespace vedette::overlay {

namespace {

// The icons sit in squares a little taller than the capitals, a third of a text height apart.
float GlyphSize(float height_px) { return 1.3f * height_px; }
float GlyphGap(float height_px) { return 0.35f * height_px; }
// The space between a box's left side and its text, as both renderers pad one-line labels.
float TextPad(float height_px) { return std::max(2.0f, height_px / 4.0f); }

template <typename F>
void ForEachLine(const std::string& text, F&& f) {
  size_t start = 0;
  for (int i = 0;; ++i) {
    const size_t end = text.find('\n', start);
    f(i, std::string_view(text).substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) return;
    start = end + 1;
  }
}

struct CardShape {
  int lines = 0;
  float width = 0;        // px
  float line_height = 0;  // px
  float up = 0;           // a one-line box's top above its centre, px
};

CardShape ShapeOf(const LabelCommand& l) {
  CardShape c;
  ForEachLine(l.text, [&](int i, std::string_view line) {
    const cv::Rect2f b = LabelBox(std::string(line), l.height_px, {0, 0});
    float w = b.width;
    if (i == 0 && !l.glyphs.empty()) w += l.glyphs.size() * (GlyphSize(l.height_px) + GlyphGap(l.height_px));
    c.width = std::max(c.width, w);
    c.line_height = b.height;
    c.up = -b.y;
    c.lines = i + 1;
  });
  return c;
}

}  // namespace

bool IsCard(const LabelCommand& l) {
  return !l.glyphs.empty() || !l.line_rgba.empty() || l.text.find('\n') != std::string::npos;
}

cv::Rect2f CardBoxAt(const LabelCommand& l, const cv::Point2f& a) {
  if (!IsCard(l)) return LabelBox(l.text, l.height_px, a);
  const CardShape c = ShapeOf(l);
  // One line keeps LabelBox's place; more lines are centred on the anchor around the middle line.
  return {a.x - c.width / 2, a.y - c.up - (c.lines - 1) * c.line_height / 2, c.width, c.lines * c.line_height};
}

cv::Rect2f CardBox(const LabelCommand& l) { return CardBoxAt(l, l.anchor_px); }

void CardLines(const LabelCommand& l, std::vector<CardLine>* out) {
  out->clear();
  const cv::Rect2f box = CardBoxAt(l, l.anchor_px);
  if (!IsCard(l)) {
    out->push_back({l.text, {box.x + TextPad(l.height_px), l.anchor_px.y}, l.text_rgba});
    return;
  }
  const CardShape c = ShapeOf(l);
  ForEachLine(l.text, [&](int i, std::string_view line) {
    const std::uint32_t rgba = i < static_cast<int>(l.line_rgba.size()) ? l.line_rgba[i] : l.text_rgba;
    out->push_back({line, {box.x + TextPad(l.height_px), box.y + i * c.line_height + c.up}, rgba});
  });
}

void CardGlyphs(const LabelCommand& l, std::vector<CardGlyph>* out) {
  out->clear();
  if (l.glyphs.empty()) return;
  const cv::Rect2f box = CardBoxAt(l, l.anchor_px);
  const std::string first = l.text.substr(0, l.text.find('\n'));
  const float g = GlyphSize(l.height_px), gap = GlyphGap(l.height_px);
  const float y = box.y + ShapeOf(l).up;
  float x = box.x + LabelBox(first, l.height_px, {0, 0}).width;
  for (Glyph glyph : l.glyphs) {
    out->push_back({glyph, {x + g / 2, y}, g});
    x += g + gap;
  }
}

}  // namespace vedette::overlay
