#pragma once
// An ImGui frame without a window, for the renderer tests: a context with its default font, a
// display of the given size, one frame begun; ended and destroyed when it goes out of scope.
#include <imgui.h>

namespace vedette::overlay::testing {

class ImGuiFrame {
 public:
  ImGuiFrame(float width_px, float height_px) {
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;  // no imgui.ini left in the working folder
    io.DisplaySize = ImVec2(width_px, height_px);
    io.DeltaTime = 1.0f / 60;
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    io.Fonts->GetTexDataAsAlpha8(&pixels, &w, &h);  // the font atlas is built before the first frame
    ImGui::NewFrame();
  }
  ~ImGuiFrame() {
    ImGui::EndFrame();
    ImGui::DestroyContext();
  }
  ImGuiFrame(const ImGuiFrame&) = delete;
  ImGuiFrame& operator=(const ImGuiFrame&) = delete;
};

}  // namespace vedette::overlay::testing
