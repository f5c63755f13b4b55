#include "overlay/imgui_renderer.h"

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
  for (const LabelCommand& l : commands.labels) {
    const char* begin = l.text.c_str();
    const char* end = begin + l.text.size();
    const ImVec2 size = font->CalcTextSizeA(l.height_px, FLT_MAX, 0.0f, begin, end);
    const ImVec2 origin(l.anchor_px.x - size.x * 0.5f, l.anchor_px.y - size.y * 0.5f);
    if (l.background_rgba != 0) {
      const float pad = std::max(2.0f, size.y * 0.2f);
      draw_list->AddRectFilled(ImVec2(origin.x - pad, origin.y - pad), ImVec2(origin.x + size.x + pad, origin.y + size.y + pad),
                               ImColour(l.background_rgba), 2.0f);
    }
    draw_list->AddText(font, l.height_px, origin, ImColour(l.text_rgba), begin, end);
  }
}

}  // namespace vedette::overlay
