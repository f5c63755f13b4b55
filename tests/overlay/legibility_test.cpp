// The legibility measure (overlay/legibility.h, overlay/contrast.h) on hand-computed cases: label
// boxes overlapping by 1 px or only touching, a label's corner inside a marker turned 45 degrees or
// just outside it (inside its bounding box), WCAG 2 ratios known from the standard's formula.
#include <gtest/gtest.h>

#include "overlay/contrast.h"
#include "overlay/label_layout.h"
#include "overlay/legibility.h"

namespace vedette::overlay {
namespace {

LabelCommand Text(const std::string& text, cv::Point2f centre, std::uint32_t rgba = 0xFFFFFFFF, std::uint32_t bg = 0x000000FF) {
  LabelCommand l;
  l.text = text;
  l.anchor_px = centre;
  l.height_px = 15;
  l.text_rgba = rgba;
  l.background_rgba = bg;
  return l;
}

// Two equal labels side by side at y = 100: the second's centre one box width to the right of the
// first's touches it; one px less overlaps by 1 px.
TEST(Legibility, BoxesOverlappingByOnePixelCountTouchingOnesDoNot) {
  const float w = LabelBox("B12", 15, {0, 0}).width;
  DrawCommands touching;
  touching.labels = {Text("B12", {100, 100}), Text("B12", {100 + w, 100})};
  const Legibility t = MeasureLegibility({}, touching, {});
  EXPECT_EQ(t.labels, 2);
  EXPECT_TRUE(t.overlapping.empty());

  DrawCommands one_px;
  one_px.labels = {Text("B12", {100, 100}), Text("B12", {100 + w - 1, 100})};
  const Legibility o = MeasureLegibility({}, one_px, {});
  ASSERT_EQ(o.overlapping.size(), 1u);
  EXPECT_EQ(o.overlapping[0], std::make_pair(0, 1));
  // With a tolerance of 1 px the 1 px overlap is forgiven.
  LegibilityOptions lenient;
  lenient.overlap_tolerance_px = 1.0;
  EXPECT_TRUE(MeasureLegibility(lenient, one_px, {}).overlapping.empty());
  lenient.overlap_tolerance_px = -1;
  std::string error;
  EXPECT_FALSE(lenient.Check(&error));
}

// A marker turned 45 degrees about (100, 100), corners 10 px from it:
//
//            (100, 90)
//      (90, 100)  +  (110, 100)         |x - 100| + |y - 100| < 10 inside
//            (100, 110)
//
// A box whose bottom-right corner is (93, 100) reaches inside (7 < 10); one ending at (94, 94) is
// inside the marker's bounding box but not the marker (6 + 6 = 12 > 10); one ending at (95, 95)
// touches the edge (5 + 5 = 10) and does not cover it.
TEST(Legibility, ALabelCornerInsideATurnedMarkerCountsItsBoundingBoxDoesNot) {
  const MarkerQuad diamond = {cv::Point2f(110, 100), cv::Point2f(100, 110), cv::Point2f(90, 100), cv::Point2f(100, 90)};
  EXPECT_TRUE(BoxOverlapsQuad(cv::Rect2f(60, 80, 33, 20), diamond));
  EXPECT_FALSE(BoxOverlapsQuad(cv::Rect2f(60, 70, 34, 24), diamond));
  EXPECT_FALSE(BoxOverlapsQuad(cv::Rect2f(60, 70, 35, 25), diamond));
  EXPECT_TRUE(BoxOverlapsQuad(cv::Rect2f(99, 99, 2, 2), diamond)) << "a box wholly inside the marker";
  EXPECT_TRUE(BoxOverlapsQuad(cv::Rect2f(50, 50, 100, 100), diamond)) << "a box over the whole marker";

  // Through a label: its box's bottom-right corner put at (93, 100).
  const cv::Rect2f at0 = LabelBox("R3", 15, {0, 0});
  const cv::Point2f centre(93 - (at0.x + at0.width), 100 - (at0.y + at0.height));
  DrawCommands c;
  c.labels = {Text("R3", centre), Text("R3", centre + cv::Point2f(0, -60))};
  const Legibility l = MeasureLegibility({}, c, {diamond});
  ASSERT_EQ(l.over_marker.size(), 1u);
  EXPECT_EQ(l.over_marker[0], std::make_pair(0, 0));
}

// WCAG 2: L = 0.2126 R + 0.7152 G + 0.0722 B of the linearised channels, ratio (L1 + 0.05) / (L2 + 0.05).
//   white on black: 1.05 / 0.05 = 21;  #777777: channel 119/255 -> ((0.4667 + 0.055) / 1.055)^2.4 =
//   0.1845, on white 1.05 / 0.2345 = 4.478;  the same colour either way round.
TEST(Legibility, WcagRatiosByHand) {
  EXPECT_NEAR(ContrastRatio(0xFFFFFFFF, 0x000000FF), 21.0, 1e-9);
  EXPECT_NEAR(ContrastRatio(0x777777FF, 0xFFFFFFFF), 4.478, 0.002);
  EXPECT_NEAR(ContrastRatio(0xFFFFFFFF, 0x777777FF), 4.478, 0.002);
  EXPECT_NEAR(ContrastRatio(0x3060FFFF, 0x3060FFFF), 1.0, 1e-12);
  EXPECT_NEAR(RelativeLuminance(0xFF0000FF), 0.2126, 1e-12);
  // Alphas are ignored by the ratio, used by Over: half-opaque black (0x80) over white is
  // (255 * 127 + 127) / 255 = 127 per channel.
  EXPECT_EQ(Over(0x00000080, 0xFFFFFFFF), 0x7F7F7FFFu);
  EXPECT_EQ(Over(0x00000080, 0x000000FF), 0x000000FFu);
}

// A label's worst contrast: white text on a half-opaque black box (alpha 0x80) is 21:1 over a black
// picture but only 1.05 / (0.2122 + 0.05) = 4.00 over a white one (the box turns #7F7F7F there):
// the measure reports 4.00. On an opaque black box it is 21 whatever lies under.
TEST(Legibility, TranslucentBackingsTakeTheWorstPictureUnderThem) {
  EXPECT_NEAR(WorstTextContrast(0xFFFFFFFF, 0x00000080), 4.00, 0.01);
  EXPECT_NEAR(WorstTextContrast(0xFFFFFFFF, 0x000000FF), 21.0, 1e-9);
  // No box at all: between white text and a white picture there is nothing.
  EXPECT_NEAR(WorstTextContrast(0xFFFFFFFF, 0), 1.0, 1e-9);
  DrawCommands c;
  c.labels = {Text("fine", {100, 100}, 0xFFFFFFFF, 0x000000FF), Text("faint", {300, 100}, 0xFFFFFFFF, 0x00000080)};
  c.labels[1].height_px = 12;
  const Legibility l = MeasureLegibility({}, c, {});
  EXPECT_NEAR(l.min_contrast, 4.00, 0.01);
  EXPECT_EQ(l.min_contrast_label, 1);
  EXPECT_EQ(l.min_text_px, 12.0);
  EXPECT_TRUE(l.overlapping.empty());
}

// Text colours made readable: a side's blue (#3060FF, 2.4:1 on a box of alpha 0xC8 over white) is
// lightened to the ratio asked and stays blue; white already passes and is kept; on a white opaque
// box the way out is towards black.
TEST(Legibility, ReadableTextColourKeepsTheHueAndReachesTheRatio) {
  const std::uint32_t blue = 0x3060FFFF;
  ASSERT_LT(WorstTextContrast(blue, 0x000000C8), 4.5);
  const std::uint32_t readable = ReadableTextColour(blue, 0x000000C8, 4.5);
  EXPECT_GE(WorstTextContrast(readable, 0x000000C8), 4.5);
  EXPECT_LT(WorstTextContrast(readable, 0x000000C8), 4.7) << "no lighter than needed";
  EXPECT_GT(Blue(readable), Red(readable));
  EXPECT_GT(Blue(readable), Green(readable));
  EXPECT_EQ(Alpha(readable), 0xFF);
  EXPECT_EQ(ReadableTextColour(0xFFFFFFFF, 0x000000C8, 4.5), 0xFFFFFFFFu);
  const std::uint32_t on_white = ReadableTextColour(0xFFE040FF, 0xFFFFFFFF, 4.5);
  EXPECT_GE(ContrastRatio(on_white, 0xFFFFFFFF), 4.5);
  EXPECT_LT(RelativeLuminance(on_white), RelativeLuminance(0xFFE040FF));
}

}  // namespace
}  // namespace vedette::overlay
