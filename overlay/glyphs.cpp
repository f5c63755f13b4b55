#include "overlay/glyphs.h"

#include <cmath>

namespace vedette::overlay {

namespace {

// Points on a circle of radius r (unit square coordinates), n of them.
std::vector<cv::Point2f> Circle(float r, int n) {
  std::vector<cv::Point2f> out;
  for (int i = 0; i < n; ++i) {
    const float a = 2.0f * static_cast<float>(CV_PI) * i / n;
    out.emplace_back(r * std::cos(a), r * std::sin(a));
  }
  return out;
}

// Each icon in the square [-1, 1]^2, y down (as on the picture).
std::vector<GlyphStroke> UnitShape(Glyph g) {
  switch (g) {
    case Glyph::kShaken:  // a jolt: lightning
      return {{{{0.3f, -1}, {-0.45f, 0.05f}, {0.35f, 0.05f}, {-0.3f, 1}}, false}};
    case Glyph::kRouted:  // running away: two chevrons pointing down the table
      return {{{{-0.8f, -0.85f}, {0, -0.15f}, {0.8f, -0.85f}}, false}, {{{-0.8f, 0.05f}, {0, 0.75f}, {0.8f, 0.05f}}, false}};
    case Glyph::kDisordered:  // ranks broken: a cross
      return {{{{-0.8f, -0.8f}, {0.8f, 0.8f}}, false}, {{{0.8f, -0.8f}, {-0.8f, 0.8f}}, false}};
    case Glyph::kWavering: {  // a wave
      GlyphStroke s;
      for (int i = 0; i <= 12; ++i) {
        const float x = -1 + i / 6.0f;
        s.points.emplace_back(x, 0.45f * std::sin(x * static_cast<float>(CV_PI) * 1.5f));
      }
      return {s};
    }
    case Glyph::kSilenced: {  // a gun's mouth crossed out
      GlyphStroke ring{Circle(0.85f, 16), true};
      return {ring, {{{-0.6f, 0.6f}, {0.6f, -0.6f}}, false}};
    }
    case Glyph::kLimbered: {  // a wheel
      GlyphStroke ring{Circle(0.85f, 16), true};
      return {ring, {{{-0.85f, 0}, {0.85f, 0}}, false}, {{{0, -0.85f}, {0, 0.85f}}, false}};
    }
    case Glyph::kFiring:  // a flash
      return {{{{-0.9f, 0}, {0.9f, 0}}, false}, {{{-0.6f, -0.7f}, {0.6f, 0.7f}}, false}, {{{-0.6f, 0.7f}, {0.6f, -0.7f}}, false}};
    case Glyph::kNone:
      break;
  }
  return {};
}

}  // namespace

std::vector<GlyphStroke> GlyphStrokes(Glyph glyph, const cv::Point2f& centre_px, float size_px) {
  std::vector<GlyphStroke> strokes = UnitShape(glyph);
  const float half = size_px / 2;
  for (GlyphStroke& s : strokes)
    for (cv::Point2f& p : s.points) p = centre_px + p * half;
  return strokes;
}

std::uint32_t GlyphColour(Glyph glyph) {
  // Light tints: every one is over 7:1 against the labels' near-black backing.
  switch (glyph) {
    case Glyph::kShaken: return 0xFFE066FF;
    case Glyph::kRouted: return 0xFF8080FF;
    case Glyph::kDisordered: return 0xFFB060FF;
    case Glyph::kWavering: return 0xFFE066FF;
    case Glyph::kSilenced: return 0xD8D8D8FF;
    case Glyph::kLimbered: return 0x9CD0FFFF;
    case Glyph::kFiring: return 0xFFB060FF;
    case Glyph::kNone: break;
  }
  return 0xFFFFFFFF;
}

}  // namespace vedette::overlay
