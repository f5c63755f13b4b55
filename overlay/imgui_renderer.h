#pragma once
// The Dear ImGui backend: appends a DrawCommands list to an ImDrawList (the live window). Convex
// fills go through AddConvexPolyFilled (antialiased fringe); concave ones through the command
// list's triangles, since ImGui 1.86 has no concave fill.
#include <vector>

#include <imgui.h>

#include "overlay/draw_commands.h"
#include "overlay/label_card.h"

namespace vedette::overlay {

struct ImGuiRenderScratch {
  std::vector<ImVec2> points;
  std::vector<CardLine> card_lines;  // a card's lines and icons (label_card.h)
  std::vector<CardGlyph> card_glyphs;
};

inline ImU32 ImColour(std::uint32_t rgba) { return IM_COL32(Red(rgba), Green(rgba), Blue(rgba), Alpha(rgba)); }

// Commands are in the draw list's coordinates (screen px). `font` = nullptr: the current font.
void RenderCommands(const DrawCommands& commands, ImDrawList* draw_list, ImGuiRenderScratch* scratch,
                    ImFont* font = nullptr);

}  // namespace vedette::overlay
