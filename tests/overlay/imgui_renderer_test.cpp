// The ImGui backend draws labels the size the OpenCV backend does (no window needed: an ImGui
// context with its default font, one frame, the draw list's vertices read back).
#include <algorithm>

#include <gtest/gtest.h>
#include <imgui.h>

#include "overlay/cv_renderer.h"
#include "overlay/imgui_renderer.h"
#include "overlay/label_layout.h"
#include "tests/overlay/imgui_frame.h"

namespace vedette::overlay {
namespace {

// "HB" 15 px tall centred on (300, 200), on a box: the capitals' glyph quads are 15 px tall and
// centred on y = 200 to a pixel (ImGui floors the text's origin) (OpenCV's Hershey capitals are 15 px tall at scale 15/22 too); the box lies
// inside LabelBox (what the layout keeps apart), give or take ImGui's 0.5 px antialiased fringe.
TEST(ImGuiRenderer, CapitalsAreAsTallAsOpenCvsAndTheBoxIsInsideLabelBox) {
  testing::ImGuiFrame frame_scope(640, 400);
  // The default font is the shape LabelBox assumes.
  const ImFont* font = ImGui::GetFont();
  const ImGuiFontShape shape;
  const ImFontGlyph* H = font->FindGlyph('H');
  ASSERT_NE(H, nullptr);
  EXPECT_FLOAT_EQ(font->FontSize, shape.size);
  EXPECT_FLOAT_EQ(H->Y0, shape.cap_top);
  EXPECT_FLOAT_EQ(H->Y1, shape.cap_bottom);
  EXPECT_FLOAT_EQ(font->Ascent - font->Descent, shape.descent);
  EXPECT_FLOAT_EQ(H->AdvanceX, shape.advance);

  DrawCommands c;
  LabelCommand l;
  l.anchor_px = {300, 200};
  l.text = "HB";
  l.height_px = 15;
  l.background_rgba = 0x000000C8;
  c.labels.push_back(l);
  ImDrawList* dl = ImGui::GetForegroundDrawList();
  const int first = dl->VtxBuffer.Size;
  ImGuiRenderScratch scratch;
  RenderCommands(c, dl, &scratch);
  const ImVec2 white = ImGui::GetFontTexUvWhitePixel();
  float gy0 = 1e9f, gy1 = -1e9f, bx0 = 1e9f, bx1 = -1e9f, by0 = 1e9f, by1 = -1e9f;
  int glyph_vertices = 0;
  for (int i = first; i < dl->VtxBuffer.Size; ++i) {
    const ImDrawVert& v = dl->VtxBuffer[i];
    if (v.uv.x == white.x && v.uv.y == white.y) {
      bx0 = std::min(bx0, v.pos.x), bx1 = std::max(bx1, v.pos.x), by0 = std::min(by0, v.pos.y), by1 = std::max(by1, v.pos.y);
    } else {
      ++glyph_vertices;
      gy0 = std::min(gy0, v.pos.y), gy1 = std::max(gy1, v.pos.y);
    }
  }
  ASSERT_EQ(glyph_vertices, 8) << "two glyph quads";
  EXPECT_NEAR(gy1 - gy0, 15.0f, 1e-3);
  EXPECT_NEAR((gy0 + gy1) / 2, 200.0f, 1.0f) << "ImGui puts text on whole pixels";
  int baseline = 0;
  EXPECT_NEAR(LabelTextSize("HB", 15, &baseline).height, 15, 1.0) << "OpenCV's capitals";
  const cv::Rect2f box = LabelBox("HB", 15, {300, 200});
  EXPECT_GE(bx0, box.x - 0.5f);
  EXPECT_LE(bx1, box.x + box.width + 0.5f);
  EXPECT_GE(by0, box.y - 0.5f);
  EXPECT_LE(by1, box.y + box.height + 0.5f);
  EXPECT_LE(by0, gy0) << "the box covers the capitals";
  EXPECT_GE(by1, gy1);
}

}  // namespace
}  // namespace vedette::overlay
