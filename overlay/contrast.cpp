#include "overlay/contrast.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "overlay/style.h"

namespace vedette::overlay {

namespace {

// sRGB 8-bit channel -> linear light (WCAG 2's formula, with its 0.03928 threshold).
const std::array<double, 256>& LinearChannelTable() {
  static const std::array<double, 256> table = [] {
    std::array<double, 256> t{};
    for (int i = 0; i < 256; ++i) {
      const double c = i / 255.0;
      t[i] = c <= 0.03928 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
    }
    return t;
  }();
  return table;
}

std::uint32_t PackRgba(int r, int g, int b, int a) {
  return (static_cast<std::uint32_t>(r) << 24) | (static_cast<std::uint32_t>(g) << 16) | (static_cast<std::uint32_t>(b) << 8) |
         static_cast<std::uint32_t>(a);
}

// a + (b - a) * t per channel, rounded; a's alpha.
std::uint32_t MixRgba(std::uint32_t a, std::uint32_t b, double t) {
  auto ch = [&](int x, int y) { return static_cast<int>(std::lround(x + (y - x) * t)); };
  return PackRgba(ch(Red(a), Red(b)), ch(Green(a), Green(b)), ch(Blue(a), Blue(b)), Alpha(a));
}

}  // namespace

double RelativeLuminance(std::uint32_t rgba) {
  const auto& lin = LinearChannelTable();
  return 0.2126 * lin[Red(rgba)] + 0.7152 * lin[Green(rgba)] + 0.0722 * lin[Blue(rgba)];
}

double ContrastRatio(std::uint32_t rgba_a, std::uint32_t rgba_b) {
  const double la = RelativeLuminance(rgba_a), lb = RelativeLuminance(rgba_b);
  return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

std::uint32_t Over(std::uint32_t top_rgba, std::uint32_t under_rgba) {
  const int a = Alpha(top_rgba);
  auto ch = [&](int top, int under) { return (under * (255 - a) + top * a + 127) / 255; };
  return PackRgba(ch(Red(top_rgba), Red(under_rgba)), ch(Green(top_rgba), Green(under_rgba)), ch(Blue(top_rgba), Blue(under_rgba)),
              0xFF);
}

double WorstTextContrast(std::uint32_t text_rgba, std::uint32_t background_rgba) {
  double worst = 21.0;
  for (const std::uint32_t picture : {0x000000FFu, 0xFFFFFFFFu}) {
    const std::uint32_t backing = Over(background_rgba, picture);
    worst = std::min(worst, ContrastRatio(Over(text_rgba, backing), backing));
  }
  return worst;
}

std::uint32_t ReadableTextColour(std::uint32_t text_rgba, std::uint32_t background_rgba, double min_ratio) {
  if (WorstTextContrast(text_rgba, background_rgba) >= min_ratio) return text_rgba;
  const std::uint32_t white = WithAlpha(0xFFFFFFFFu, Alpha(text_rgba)), black = WithAlpha(0x000000FFu, Alpha(text_rgba));
  const double with_white = WorstTextContrast(white, background_rgba), with_black = WorstTextContrast(black, background_rgba);
  const std::uint32_t target = with_white >= min_ratio || with_white >= with_black ? white : black;
  if (WorstTextContrast(target, background_rgba) < min_ratio) return target;
  // The ratio grows along the mix towards the target here (the start is below it, the end above):
  // bisect for the least mix that reaches it.
  double lo = 0, hi = 1;
  for (int i = 0; i < 12; ++i) {
    const double mid = (lo + hi) / 2;
    (WorstTextContrast(MixRgba(text_rgba, target, mid), background_rgba) >= min_ratio ? hi : lo) = mid;
  }
  double t = hi;
  std::uint32_t out = MixRgba(text_rgba, target, t);
  // Rounding to 8 bits may land a hair below: step on until it reaches it (the target does).
  while (WorstTextContrast(out, background_rgba) < min_ratio && t < 1) {
    t = std::min(1.0, t + 1.0 / 255);
    out = MixRgba(text_rgba, target, t);
  }
  return out;
}

}  // namespace vedette::overlay
