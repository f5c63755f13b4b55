#pragma once
// Where the pieces of a label go: one line of text as LabelBox measures it, or a card of several
// lines (split at '\n', left-aligned, one line height apart) with state icons after the first
// line. The layout, the legibility measure and both renderers place text from here, so a card that
// does not overlap in the layout does not overlap on screen or in the video.
#include <string_view>
#include <vector>

#include <opencv2/core.hpp>

#include "overlay/draw_commands.h"

namespace vedette::overlay {

struct CardLine {
  std::string_view text;  // into the command's text
  cv::Point2f start_px;   // the text's left end, at the height of its capitals' middle, output px
  std::uint32_t rgba = 0;
};

struct CardGlyph {
  Glyph glyph = Glyph::kNone;
  cv::Point2f centre_px;  // output px
  float size_px = 0;      // side of its square, px
};

// A card needs the card drawing (more than one line, icons or line colours); otherwise a label is
// drawn as one line exactly as before.
bool IsCard(const LabelCommand& l);

// The box the label's background covers (LabelBox for one line), output px.
cv::Rect2f CardBox(const LabelCommand& l);
cv::Rect2f CardBoxAt(const LabelCommand& l, const cv::Point2f& anchor_px);

void CardLines(const LabelCommand& l, std::vector<CardLine>* out);
void CardGlyphs(const LabelCommand& l, std::vector<CardGlyph>* out);

}  // namespace vedette::overlay
