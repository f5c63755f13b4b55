// One card per unit: its name, state icons, tests, verdict and state in one box beside it; both
// renderers draw the card's lines and icons in the same places.
#include <algorithm>

#include <gtest/gtest.h>
#include <imgui.h>
#include <opencv2/imgproc.hpp>

#include "overlay/callouts.h"
#include "overlay/contrast.h"
#include "overlay/cv_renderer.h"
#include "overlay/glyphs.h"
#include "overlay/imgui_renderer.h"
#include "overlay/label_card.h"
#include "overlay/legibility.h"
#include "overlay/projection.h"
#include "overlay/style.h"
#include "tests/overlay/imgui_frame.h"

namespace vedette::overlay {
namespace {

DrawPrimitive Label(DrawStyle style, const std::string& layer, const std::string& unit, const std::string& text, geom::Vec2 at) {
  DrawPrimitive p;
  p.kind = DrawKind::kLabel;
  p.style = style;
  p.layer = layer;
  p.unit_id = unit;
  p.text = text;
  p.points_mm = {at};
  return p;
}

DrawPrimitive Icon(const std::string& unit, Glyph g, geom::Vec2 at) {
  DrawPrimitive p;
  p.kind = DrawKind::kGlyph;
  p.glyph = g;
  p.layer = "labels";
  p.unit_id = unit;
  p.points_mm = {at};
  return p;
}

// R6 as the demo has it at frame 130: name, morale test with its reason, a state, a routed icon;
// B1 with its name only; a threat's name and a token's meaning that stay where they are.
std::vector<DrawPrimitive> R6CardTable() {
  std::vector<DrawPrimitive> p;
  p.push_back(Label(DrawStyle::kBase, "labels", "R6", "R6", {300, 150}));
  p.push_back(Label(DrawStyle::kTest, "tests", "R6", "R6 morale test -4: pass 3% / fail 39% / rout 58%\nIn physical contact with enemy's front edge (BC1)", {300, 200}));
  p.push_back(Label(DrawStyle::kInfo, "labels", "R6", "shaken: morale -1", {300, 200}));
  p.push_back(Icon("R6", Glyph::kShaken, {300, 200}));
  p.push_back(Icon("R6", Glyph::kShaken, {300, 200}));  // said twice (scene and ruleset): drawn once
  p.push_back(Label(DrawStyle::kBase, "labels", "B1", "B1", {100, 300}));
  DrawPrimitive threat;
  threat.kind = DrawKind::kPolyline;
  threat.style = DrawStyle::kThreat;
  threat.layer = "threats";
  threat.unit_id = "R6";
  threat.text = "left flank";
  threat.points_mm = {{280, 220}, {280, 180}};
  p.push_back(threat);
  DrawPrimitive token = Label(DrawStyle::kInfo, "labels", "R6", "token 7: shaken", {500, 350});
  token.own_place = true;
  p.push_back(token);
  return p;
}

TEST(Callouts, AUnitsLabelsAndIconsBecomeOneCard) {
  DrawCommands c;
  BuildOptions o;
  o.labels.enabled = false;  // the cards where they are built
  BuildDrawCommands(o, R6CardTable(), TopDownProjection({}), DefaultStyleTable(), {}, &c);
  std::vector<const LabelCommand*> cards;
  for (const LabelCommand& l : c.labels)
    if (IsCard(l)) cards.push_back(&l);
  ASSERT_EQ(cards.size(), 1u);
  const LabelCommand& card = *cards[0];
  EXPECT_EQ(card.text,
            "R6\nMorale test -4: pass 3% / fail 39% / rout 58%\nIn physical contact with enemy's front\nedge (BC1)\nShaken: morale -1");
  EXPECT_EQ(card.glyphs, std::vector<Glyph>{Glyph::kShaken});
  ASSERT_EQ(card.line_rgba.size(), 5u);
  EXPECT_EQ(card.line_rgba[2], card.line_rgba[3]) << "a wrapped line keeps its colour";
  EXPECT_NE(card.line_rgba[0], card.line_rgba[1]) << "the name in its side's tint, the test in the tests' colour";
  EXPECT_EQ(card.anchor_px, cv::Point2f(300, 150)) << "at the unit's name";
  // The rest stay where they are: B1's name alone, the threat's and the token's words.
  std::vector<std::string> plain;
  for (const LabelCommand& l : c.labels)
    if (!IsCard(l)) plain.push_back(l.text);
  std::sort(plain.begin(), plain.end());
  EXPECT_EQ(plain, (std::vector<std::string>{"B1", "left flank", "token 7: shaken"}));
  // Each line reads against the card: 4.5:1 at least.
  for (std::uint32_t rgba : card.line_rgba) EXPECT_GE(WorstTextContrast(rgba, card.background_rgba), 4.5);
}

TEST(Callouts, TurnedOffEveryLabelStaysAlone) {
  DrawCommands c;
  BuildOptions o;
  o.callouts.enabled = false;
  BuildDrawCommands(o, R6CardTable(), TopDownProjection({}), DefaultStyleTable(), {}, &c);
  EXPECT_EQ(c.labels.size(), 6u);
}

TEST(Callouts, TheLayoutKeepsCardsApartAndOffMarkers) {
  DrawCommands c;
  BuildOptions o;
  const std::vector<TableQuad> markers = {{geom::Vec2{290, 140}, {310, 140}, {310, 160}, {290, 160}}};
  o.markers_mm = &markers;
  BuildDrawCommands(o, R6CardTable(), TopDownProjection({}), DefaultStyleTable(), {}, &c);
  std::vector<MarkerQuad> quads = {{cv::Point2f(290, 140), {310, 140}, {310, 160}, {290, 160}}};
  const Legibility l = MeasureLegibility({}, c, quads);
  EXPECT_TRUE(l.overlapping.empty());
  EXPECT_TRUE(l.over_marker.empty());
  EXPECT_EQ(c.label_stats.dropped, 0);
}

TEST(Callouts, CardLinesNameTheUnitOnceAndWrap) {
  EXPECT_EQ(CardLineText("R6 morale test -4: pass 3%", "R6"), "Morale test -4: pass 3%");
  EXPECT_EQ(CardLineText("R6: routed", "R6"), "Routed");
  EXPECT_EQ(CardLineText("R60 fire", "R6"), "R60 fire") << "another unit's name is kept";
  EXPECT_EQ(Wrap("a b c", 32), std::vector<std::string>{"a b c"});
  EXPECT_EQ(Wrap("Face to flank, into contact (flank): test 67 %", 32),
            (std::vector<std::string>{"Face to flank, into contact", "(flank): test 67 %"}));
  EXPECT_EQ(Wrap("Morale test -4: pass 3% / fail 39% / rout 58%", 40),
            std::vector<std::string>{"Morale test -4: pass 3% / fail 39% / rout 58%"})
      << "a last word of up to 8 characters stays on its line";
  EXPECT_EQ(Wrap(std::string(50, 'x') + " y", 20), (std::vector<std::string>{std::string(50, 'x'), "y"}))
      << "a word longer than a line stays whole";
  std::string err;
  CalloutOptions bad;
  bad.wrap_chars = 3;
  EXPECT_FALSE(bad.Check(&err));
  EXPECT_NE(err.find("wrap_chars"), std::string::npos);
}

// The icon: OpenCV's strokes and ImGui's polylines cover the same square, in the icon's colour.
TEST(Callouts, BothRenderersDrawTheIconInTheSamePlace) {
  DrawCommands c;
  LabelCommand l;
  l.anchor_px = {320, 200};
  l.text = "R6\nRouted";
  l.line_rgba = {0xFFB0B0FF, 0xFFE040FF};
  l.glyphs = {Glyph::kRouted};
  l.height_px = 15;
  l.background_rgba = 0x101010FF;
  c.labels.push_back(l);
  std::vector<CardGlyph> glyphs;
  CardGlyphs(l, &glyphs);
  ASSERT_EQ(glyphs.size(), 1u);
  const cv::Rect2f box = CardBox(l);
  const cv::Rect2f square(glyphs[0].centre_px.x - glyphs[0].size_px / 2, glyphs[0].centre_px.y - glyphs[0].size_px / 2,
                          glyphs[0].size_px, glyphs[0].size_px);
  EXPECT_GE(square.x, box.x);
  EXPECT_LE(square.x + square.width, box.x + box.width + 0.01f) << "the icon is inside the card";

  cv::Mat frame(400, 640, CV_8UC3, cv::Scalar(0, 0, 0));
  CvRenderScratch cs;
  RenderCommands(c, &frame, &cs);
  const std::uint32_t g = GlyphColour(Glyph::kRouted);
  cv::Mat mask;
  cv::inRange(frame, cv::Scalar(Blue(g) - 40, Green(g) - 40, Red(g) - 40), cv::Scalar(255, 255, 255), mask);
  mask(cv::Rect(0, 0, cvRound(square.x - 2), 400)).setTo(0);  // the text's pixels left of it
  const cv::Rect cv_box = cv::boundingRect(mask);
  ASSERT_GT(cv_box.area(), 0);

  float x0 = 1e9f, x1 = -1e9f, y0 = 1e9f, y1 = -1e9f;
  {  // ImGui's frame: its draw list's vertices, read back
    testing::ImGuiFrame frame_scope(640, 400);
    ImDrawList* dl = ImGui::GetForegroundDrawList();
    const int first = dl->VtxBuffer.Size;
    ImGuiRenderScratch is;
    RenderCommands(c, dl, &is);
    const ImU32 want = ImColour(g);
    for (int i = first; i < dl->VtxBuffer.Size; ++i) {
      const ImDrawVert& v = dl->VtxBuffer[i];
      if ((v.col | IM_COL32_A_MASK) != (want | IM_COL32_A_MASK)) continue;
      x0 = std::min(x0, v.pos.x), x1 = std::max(x1, v.pos.x), y0 = std::min(y0, v.pos.y), y1 = std::max(y1, v.pos.y);
    }
  }
  ASSERT_LT(x0, x1);
  EXPECT_NEAR(x0, cv_box.x, 2.5);
  EXPECT_NEAR(x1, cv_box.x + cv_box.width, 2.5);
  EXPECT_NEAR(y0, cv_box.y, 2.5);
  EXPECT_NEAR(y1, cv_box.y + cv_box.height, 2.5);
}

}  // namespace
}  // namespace vedette::overlay
