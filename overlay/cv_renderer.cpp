#include "overlay/cv_renderer.h"

#include "overlay/glyphs.h"
#include "overlay/label_card.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#include <opencv2/imgproc.hpp>

namespace vedette::overlay {

namespace {

constexpr int kShift = 4;  // cv:: drawing with 4 fractional bits: 1/16 px precision
constexpr float kOne = 1 << kShift;
constexpr int kFont = cv::FONT_HERSHEY_SIMPLEX;
// Rasterised label texts kept, bytes: the labels of a busy 1080p frame (180 labels, ~15 KB each)
// fit; texts that change every frame (a ruler's distance) fill it and start it afresh, so a game
// of hours holds no more than this (1,024 sprites were up to 20 MB, the soak's first 25 minutes).
constexpr size_t kMaxLabelSpriteBytes = size_t{4} << 20;

cv::Scalar Bgr(std::uint32_t rgba) { return cv::Scalar(Blue(rgba), Green(rgba), Red(rgba)); }

void ToFixed(const cv::Point2f* p, int n, cv::Point2f offset, std::vector<cv::Point>* out) {
  out->resize(n);
  for (int i = 0; i < n; ++i)
    (*out)[i] = cv::Point(cvRound((p[i].x - offset.x) * kOne), cvRound((p[i].y - offset.y) * kOne));
}

// The run without the points that lie within `tol_px` of a straight piece skipping them. The
// builder splits projected edges every few px so they bend with the lens; drawn as they are, each
// piece costs OpenCV an antialiased round join, although over most of the image a dozen pieces are
// straight to a small fraction of a pixel. A point is dropped only while it projects inside the
// piece that replaces it, so corners, turns and reversals all stay.
void Simplify(const cv::Point2f* p, int n, float tol_px, std::vector<cv::Point2f>* out) {
  constexpr int kMaxSkip = 64;  // bounds the work on very long runs
  out->clear();
  if (tol_px <= 0) {
    out->assign(p, p + n);
    return;
  }
  out->push_back(p[0]);
  const float tol2 = tol_px * tol_px;
  int a = 0;
  while (a < n - 1) {
    int reach = a + 1;
    for (int j = a + 2; j < n && j - a <= kMaxSkip; ++j) {
      const cv::Point2f d = p[j] - p[a];
      const float len2 = d.dot(d);
      bool straight = len2 > 1e-6f;
      for (int k = a + 1; k < j && straight; ++k) {
        const cv::Point2f e = p[k] - p[a];
        const float along = e.dot(d);
        const float cross = e.x * d.y - e.y * d.x;
        straight = along >= 0 && along <= len2 && cross * cross <= tol2 * len2;
      }
      if (!straight) break;
      reach = j;
    }
    out->push_back(p[reach]);
    a = reach;
  }
}

// Bounding box of the points grown by `margin`, clipped to the image; empty when off-image.
cv::Rect BoundsOf(const cv::Point2f* p, int n, float margin, const cv::Size& size) {
  float x0 = p[0].x, x1 = p[0].x, y0 = p[0].y, y1 = p[0].y;
  for (int i = 1; i < n; ++i) {
    x0 = std::min(x0, p[i].x);
    x1 = std::max(x1, p[i].x);
    y0 = std::min(y0, p[i].y);
    y1 = std::max(y1, p[i].y);
  }
  const cv::Rect r(cv::Point(static_cast<int>(std::floor(x0 - margin)), static_cast<int>(std::floor(y0 - margin))),
                   cv::Point(static_cast<int>(std::ceil(x1 + margin)) + 1, static_cast<int>(std::ceil(y1 + margin)) + 1));
  return r & cv::Rect(0, 0, size.width, size.height);
}

// bgr(roi) += (colour - bgr) * coverage * alpha, coverage from mask(roi). Most of a stroke's
// bounding box is not covered (a corridor's outline spans hundreds of px), so uncovered pixels are
// skipped eight at a time; the weight of each coverage level is looked up, not recomputed.
// `coverage` (CV_8U) lies over bgr's pixels from `at` on.
void BlendAt(cv::Mat* bgr, const cv::Mat& coverage, cv::Point at, std::uint32_t rgba) {
  const int b = Blue(rgba), g = Green(rgba), r = Red(rgba), alpha = Alpha(rgba);
  int weight[256];
  for (int m = 0; m < 256; ++m) weight[m] = (m * alpha + 127) / 255;
  const cv::Rect roi(at, coverage.size());
  for (int y = roi.y; y < roi.y + roi.height; ++y) {
    const std::uint8_t* m = coverage.ptr<std::uint8_t>(y - roi.y);
    std::uint8_t* row = bgr->ptr<std::uint8_t>(y) + 3 * roi.x;
    for (int x = 0; x < roi.width;) {
      if (x + 8 <= roi.width) {
        std::uint64_t word;
        std::memcpy(&word, m + x, sizeof word);
        if (word == 0) {
          x += 8;
          continue;
        }
      }
      if (m[x] != 0) {
        const int a = weight[m[x]];
        std::uint8_t* px = row + 3 * x;
        px[0] = static_cast<std::uint8_t>((px[0] * (255 - a) + b * a + 127) / 255);
        px[1] = static_cast<std::uint8_t>((px[1] * (255 - a) + g * a + 127) / 255);
        px[2] = static_cast<std::uint8_t>((px[2] * (255 - a) + r * a + 127) / 255);
      }
      ++x;
    }
  }
}

void Blend(cv::Mat* bgr, const cv::Mat& mask, const cv::Rect& roi, std::uint32_t rgba) {
  BlendAt(bgr, mask(roi), roi.tl(), rgba);
}

// A fully covered rectangle (a label's box): the same blend without a coverage mask to clear,
// draw and read.
void BlendRect(cv::Mat* bgr, const cv::Rect& roi, std::uint32_t rgba) {
  const int a = Alpha(rgba);
  const int keep = 255 - a, add[3] = {Blue(rgba) * a + 127, Green(rgba) * a + 127, Red(rgba) * a + 127};
  for (int y = roi.y; y < roi.y + roi.height; ++y) {
    std::uint8_t* px = bgr->ptr<std::uint8_t>(y) + 3 * roi.x;
    for (int x = 0; x < 3 * roi.width; x += 3) {
      px[x] = static_cast<std::uint8_t>((px[x] * keep + add[0]) / 255);
      px[x + 1] = static_cast<std::uint8_t>((px[x + 1] * keep + add[1]) / 255);
      px[x + 2] = static_cast<std::uint8_t>((px[x + 2] * keep + add[2]) / 255);
    }
  }
}

// Draws with `draw(target, offset)`: straight onto the frame when opaque, else into the coverage
// mask over `roi` and blended.
template <typename DrawFn>
void DrawShape(cv::Mat* bgr, CvRenderScratch* s, const cv::Rect& roi, std::uint32_t rgba, DrawFn draw) {
  if (roi.empty() || Alpha(rgba) == 0) return;
  if (Alpha(rgba) == 0xFF) {
    draw(*bgr, cv::Point2f(0, 0), Bgr(rgba));
    return;
  }
  if (s->mask.size() != bgr->size()) s->mask = cv::Mat::zeros(bgr->size(), CV_8U);
  cv::Mat m = s->mask(roi);
  m.setTo(0);
  draw(m, cv::Point2f(static_cast<float>(roi.x), static_cast<float>(roi.y)), cv::Scalar(255));
  Blend(bgr, s->mask, roi, rgba);
}

}  // namespace

std::string HersheyText(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      out += text[i];
    } else if (c == 0xC2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) == 0xB1) {
      out += "+/-";
      ++i;
    } else if (c == 0xC2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) == 0xB0) {
      out += " deg";
      ++i;
    } else if ((c & 0xC0) != 0x80) {
      out += '?';  // the first byte of another character; its continuation bytes are dropped
    }
  }
  return out;
}

cv::Size LabelTextSize(const std::string& text, float height_px, int* baseline) {
  // Hershey simplex capitals are about 22 px tall at scale 1.
  const double font_scale = height_px / 22.0;
  const int thickness = std::max(1, static_cast<int>(std::lround(height_px / 12.0)));
  return cv::getTextSize(HersheyText(text), kFont, font_scale, thickness, baseline);
}

namespace {

// One line of text with its capitals centred on `centre` (`left`: starting at centre.x), in `rgba`;
// `background_rgba` != 0: on OpenCV's own box around the text (one-line labels).
void DrawTextLine(const std::string& text, const cv::Point2f& centre, bool left, float height_px, std::uint32_t rgba,
                  std::uint32_t background_rgba, cv::Mat* bgr, CvRenderScratch* scratch, const CvRenderOptions& options) {
  const cv::Size size = bgr->size();
  int baseline = 0;
  const cv::Size text_size = LabelTextSize(text, height_px, &baseline);
  const double font_scale = height_px / 22.0;
  const int thickness = std::max(1, static_cast<int>(std::lround(height_px / 12.0)));
  const cv::Point origin(cvRound(left ? centre.x : centre.x - text_size.width / 2.0), cvRound(centre.y + text_size.height / 2.0));
  if (background_rgba != 0) {
    const int pad = std::max(2, text_size.height / 4);
    const cv::Rect box = cv::Rect(origin.x - pad, origin.y - text_size.height - pad, text_size.width + 2 * pad,
                                  text_size.height + baseline + 2 * pad) &
                         cv::Rect(0, 0, size.width, size.height);
    if (box.empty()) {
    } else if (Alpha(background_rgba) == 0xFF) {
      cv::rectangle(*bgr, box, Bgr(background_rgba), cv::FILLED);
    } else {
      BlendRect(bgr, box, background_rgba);
    }
  }
  // The text's coverage is rendered once per text and size and blended from then on: putText
  // re-rasterises every Hershey stroke each frame, while most labels stay the same for minutes.
  // Blending white strokes into a coverage mask and the mask into the frame composites exactly
  // as antialiased strokes drawn straight onto the frame do.
  if (!options.cache_labels) {
    cv::putText(*bgr, HersheyText(text), origin, kFont, font_scale, Bgr(rgba), thickness, cv::LINE_AA);
    return;
  }
  std::string key = text;
  key += '\x1f';
  key += std::to_string(height_px);
  auto it = scratch->label_sprites.find(key);
  if (it == scratch->label_sprites.end()) {
    LabelSprite sprite;
    sprite.margin = 2 * thickness + static_cast<int>(std::lround(height_px / 4.0)) + 2;
    const cv::Size sprite_size(text_size.width + 2 * sprite.margin, text_size.height + baseline + 2 * sprite.margin);
    const size_t bytes = static_cast<size_t>(sprite_size.area());
    if (scratch->label_sprite_bytes + bytes > kMaxLabelSpriteBytes) {
      scratch->label_sprites.clear();
      scratch->label_sprite_bytes = 0;
    }
    sprite.coverage = cv::Mat::zeros(sprite_size, CV_8U);
    scratch->label_sprite_bytes += bytes;
    cv::putText(sprite.coverage, HersheyText(text), cv::Point(sprite.margin, sprite.margin + text_size.height), kFont, font_scale,
                cv::Scalar(255), thickness, cv::LINE_AA);
    it = scratch->label_sprites.emplace(std::move(key), std::move(sprite)).first;
  }
  const LabelSprite& sprite = it->second;
  const cv::Point at(origin.x - sprite.margin, origin.y - text_size.height - sprite.margin);
  const cv::Rect placed = cv::Rect(at, sprite.coverage.size()) & cv::Rect(0, 0, size.width, size.height);
  if (!placed.empty()) BlendAt(bgr, sprite.coverage(placed - at), placed.tl(), WithAlpha(rgba, 0xFF));
}

// A card: the shared box (label_card.h), each line in its colour, then the state icons.
void DrawCard(const LabelCommand& l, cv::Mat* bgr, CvRenderScratch* scratch, const CvRenderOptions& options) {
  if (l.background_rgba != 0) {
    const cv::Rect2f b = CardBox(l);
    const cv::Rect box = cv::Rect(cvRound(b.x), cvRound(b.y), cvRound(b.width), cvRound(b.height)) & cv::Rect(0, 0, bgr->cols, bgr->rows);
    if (!box.empty()) BlendRect(bgr, box, l.background_rgba);
  }
  CardLines(l, &scratch->card_lines);
  for (const CardLine& line : scratch->card_lines)
    DrawTextLine(std::string(line.text), line.start_px, true, l.height_px, line.rgba, 0, bgr, scratch, options);
  CardGlyphs(l, &scratch->card_glyphs);
  for (const CardGlyph& g : scratch->card_glyphs) {
    const int thickness = std::max(1, static_cast<int>(std::lround(GlyphThickness(g.size_px))));
    for (const GlyphStroke& stroke : GlyphStrokes(g.glyph, g.centre_px, g.size_px)) {
      ToFixed(stroke.points.data(), static_cast<int>(stroke.points.size()), cv::Point2f(0, 0), &scratch->fixed);
      const cv::Point* pts = scratch->fixed.data();
      const int n = static_cast<int>(scratch->fixed.size());
      cv::polylines(*bgr, &pts, &n, 1, stroke.closed, Bgr(GlyphColour(g.glyph)), thickness, cv::LINE_AA, kShift);
    }
  }
}

void DrawLabel(const LabelCommand& l, cv::Mat* bgr, CvRenderScratch* scratch, const CvRenderOptions& options) {
  if (IsCard(l)) DrawCard(l, bgr, scratch, options);
  else DrawTextLine(l.text, l.anchor_px, false, l.height_px, l.text_rgba, l.background_rgba, bgr, scratch, options);
}

}  // namespace

bool CvRenderOptions::Check(std::string* error) const {
  if (!(simplify_px >= 0 && simplify_px <= 1)) {
    if (error) *error = "simplify_px must be in [0, 1] px";
    return false;
  }
  return true;
}

void RenderCommands(const DrawCommands& commands, cv::Mat* bgr, CvRenderScratch* scratch, const CvRenderOptions& options) {
  CV_Assert(bgr->type() == CV_8UC3);
  const cv::Size size = bgr->size();
  for (const PathCommand& c : commands.paths) {
    if (c.count < 2) continue;
    Simplify(&commands.points[c.first], c.count, options.simplify_px, &scratch->simplified);
    const cv::Point2f* p = scratch->simplified.data();
    const int count = static_cast<int>(scratch->simplified.size());
    if (c.fill_rgba != 0 && count >= 3) {
      const cv::Rect roi = BoundsOf(p, count, 1.0f, size);
      DrawShape(bgr, scratch, roi, c.fill_rgba, [&](cv::Mat& target, cv::Point2f offset, const cv::Scalar& colour) {
        // fillPoly fills concave outlines itself: the triangles are for backends that cannot.
        ToFixed(p, count, offset, &scratch->fixed);
        const cv::Point* pts = scratch->fixed.data();
        const int n = count;
        cv::fillPoly(target, &pts, &n, 1, colour, cv::LINE_AA, kShift);
      });
    }
    if (c.stroke_rgba != 0) {
      const int thickness = std::max(1, static_cast<int>(std::lround(c.thickness_px)));
      const cv::Rect roi = BoundsOf(p, count, c.thickness_px + 2.0f, size);
      DrawShape(bgr, scratch, roi, c.stroke_rgba, [&](cv::Mat& target, cv::Point2f offset, const cv::Scalar& colour) {
        ToFixed(p, count, offset, &scratch->fixed);
        const cv::Point* pts = scratch->fixed.data();
        const int n = count;
        cv::polylines(target, &pts, &n, 1, c.closed, colour, thickness, cv::LINE_AA, kShift);
      });
    }
  }
  for (const LabelCommand& l : commands.labels) DrawLabel(l, bgr, scratch, options);
}

}  // namespace vedette::overlay
