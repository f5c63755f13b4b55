#include "overlay/imgui_renderer.h"

#include <algorithm>
#include <cfloat>
#include <string_view>

#include "overlay/glyphs.h"
#include "overlay/label_card.h"

namespace vedette::overlay {

namespace {

struct FontCaps {
  float top = 0;      // capitals' top below the line's top, font px
  float bottom = 0;   // their baseline, font px
  float descent = 0;  // lowest descender, font px
};

// One line with its capitals centred on `centre` (`left`: starting at centre.x), `height_px` tall;
// `background_rgba` != 0: on a box padded as LabelBox measures it.
void DrawTextLine(ImDrawList* draw_list, ImFont* font, const FontCaps& caps, std::string_view text, const cv::Point2f& centre,
                  bool left, float height_px, std::uint32_t rgba, std::uint32_t background_rgba) {
  const char* begin = text.data();
  const char* end = begin + text.size();
  const float em = height_px / (caps.bottom - caps.top);  // screen px per font px
  const float size_px = em * font->FontSize;
  const ImVec2 size = font->CalcTextSizeA(size_px, FLT_MAX, 0.0f, begin, end);
  const ImVec2 origin(left ? centre.x : centre.x - size.x * 0.5f, centre.y - em * (caps.top + caps.bottom) * 0.5f);
  if (background_rgba != 0) {
    const float pad = std::max(2.0f, height_px / 4.0f);
    draw_list->AddRectFilled(ImVec2(origin.x - pad, origin.y + em * caps.top - pad),
                             ImVec2(origin.x + size.x + pad, origin.y + em * caps.descent + pad), ImColour(background_rgba), 2.0f);
  }
  draw_list->AddText(font, size_px, origin, ImColour(rgba), begin, end);
}

}  // namespace

void RenderCommands(const DrawCommands& commands, ImDrawList* draw_list, ImGuiRenderScratch* scratch, ImFont* font) {
  std::vector<ImVec2>& pts = scratch->points;
  pts.resize(commands.points.size());
  for (size_t i = 0; i < commands.points.size(); ++i) pts[i] = ImVec2(commands.points[i].x, commands.points[i].y);
  for (const PathCommand& c : commands.paths) {
    if (c.count < 2) continue;
    const ImVec2* p = pts.data() + c.first;
    if (c.fill_rgba != 0 && c.count >= 3) {
      const ImU32 col = ImColour(c.fill_rgba);
      if (c.convex) {
        draw_list->AddConvexPolyFilled(p, c.count, col);
      } else if (c.index_count >= 3) {
        const ImVec2 uv = ImGui::GetFontTexUvWhitePixel();
        draw_list->PrimReserve(c.index_count, c.index_count);
        for (int k = 0; k < c.index_count; ++k) {
          draw_list->_IdxWritePtr[0] = static_cast<ImDrawIdx>(draw_list->_VtxCurrentIdx);
          draw_list->_IdxWritePtr++;
          draw_list->PrimWriteVtx(pts[commands.indices[c.first_index + k]], uv, col);
        }
      }
    }
    if (c.stroke_rgba != 0)
      draw_list->AddPolyline(p, c.count, ImColour(c.stroke_rgba), c.closed ? ImDrawFlags_Closed : ImDrawFlags_None,
                             c.thickness_px);
  }
  if (!font) font = ImGui::GetFont();
  // The font's capitals are drawn `height_px` tall, as OpenCV's are (label_layout.h ImGuiFontShape):
  // a font's size is its line height, which for the default font is 13 / 8 of its capitals.
  const ImFontGlyph* cap = font->FindGlyph('H');
  const FontCaps caps{cap ? cap->Y0 : 0.0f, cap && cap->Y1 > cap->Y0 ? cap->Y1 : font->FontSize,
                      std::max(cap && cap->Y1 > cap->Y0 ? cap->Y1 : font->FontSize, font->Ascent - font->Descent)};
  for (const LabelCommand& l : commands.labels) {
    if (!IsCard(l)) {
      DrawTextLine(draw_list, font, caps, l.text, l.anchor_px, false, l.height_px, l.text_rgba, l.background_rgba);
      continue;
    }
    // A card: the shared box (label_card.h), each line in its colour, then the state icons.
    if (l.background_rgba != 0) {
      const cv::Rect2f b = CardBox(l);
      draw_list->AddRectFilled(ImVec2(b.x, b.y), ImVec2(b.x + b.width, b.y + b.height), ImColour(l.background_rgba), 2.0f);
    }
    CardLines(l, &scratch->card_lines);
    for (const CardLine& line : scratch->card_lines)
      DrawTextLine(draw_list, font, caps, line.text, line.start_px, true, l.height_px, line.rgba, 0);
    CardGlyphs(l, &scratch->card_glyphs);
    for (const CardGlyph& g : scratch->card_glyphs)
      for (const GlyphStroke& stroke : GlyphStrokes(g.glyph, g.centre_px, g.size_px)) {
        std::vector<ImVec2>& q = scratch->points;
        q.clear();
        for (const cv::Point2f& p : stroke.points) q.emplace_back(p.x, p.y);
        draw_list->AddPolyline(q.data(), static_cast<int>(q.size()), ImColour(GlyphColour(g.glyph)),
                               stroke.closed ? ImDrawFlags_Closed : ImDrawFlags_None, GlyphThickness(g.size_px));
      }
  }
}

}  // namespace vedette::overlay
