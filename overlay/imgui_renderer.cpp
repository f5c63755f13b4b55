#include "overlay/imgui_renderer.h"

#include <algorithm>
#include <cfloat>

namespace vedette::overlay {

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
  const float cap_top = cap ? cap->Y0 : 0.0f, cap_bottom = cap && cap->Y1 > cap->Y0 ? cap->Y1 : font->FontSize;
  const float descent = std::max(cap_bottom, font->Ascent - font->Descent);
  for (const LabelCommand& l : commands.labels) {
    const char* begin = l.text.c_str();
    const char* end = begin + l.text.size();
    const float em = l.height_px / (cap_bottom - cap_top);  // screen px per font px
    const float size_px = em * font->FontSize;
    const ImVec2 size = font->CalcTextSizeA(size_px, FLT_MAX, 0.0f, begin, end);
    // Capitals centred on the anchor.
    const ImVec2 origin(l.anchor_px.x - size.x * 0.5f, l.anchor_px.y - em * (cap_top + cap_bottom) * 0.5f);
    if (l.background_rgba != 0) {
      const float pad = std::max(2.0f, l.height_px / 4.0f);
      draw_list->AddRectFilled(ImVec2(origin.x - pad, origin.y + em * cap_top - pad),
                               ImVec2(origin.x + size.x + pad, origin.y + em * descent + pad), ImColour(l.background_rgba), 2.0f);
    }
    draw_list->AddText(font, size_px, origin, ImColour(l.text_rgba), begin, end);
  }
}

}  // namespace vedette::overlay
