#pragma once
// The GLFW + OpenGL 3 + Dear ImGui window shell shared by `vedette live` (live_window.h) and
// `vedette calibrate --camera` (calibration_window.h): opening the window with its ImGui context and
// closing both in the right order, a texture refreshed from camera frames, and the framebuffer as a
// picture (screenshots for tests and evidence). What is drawn stays with each window.
#include <cstdint>
#include <string>

#include <imgui.h>

#include <opencv2/core.hpp>

struct GLFWwindow;

namespace vedette::ui {

// glfwTerminate, except under AddressSanitizer: terminating closes the X display and Mesa unloads
// its driver, so the allocations the driver keeps until exit show as "<unknown module>" frames that
// no LeakSanitizer suppression can name (tests/sanitizer/lsan.supp names the driver's libraries).
// There GLFW stays up until the process ends, moments later.
void TerminateGlfw();

struct GlWindowOptions {
  std::string title = "Vedette";
  cv::Size size{1280, 720};   // window size, px
  bool vsync = true;          // pace the loop at the display's rate (false: as fast as it goes)
  std::string imgui_ini;      // where ImGui keeps its window layout; "" = nowhere
};

// One window and its ImGui context (one at a time: ImGui's context is global). Throws
// std::runtime_error when GLFW cannot initialise (no display) or no OpenGL 3 window can be made.
class GlWindow {
 public:
  explicit GlWindow(const GlWindowOptions& options);
  ~GlWindow();
  GlWindow(const GlWindow&) = delete;
  GlWindow& operator=(const GlWindow&) = delete;

  GLFWwindow* handle() const { return window_; }
  bool ShouldClose() const;
  void Close();
  // Starts ImGui's frame (after glfwPollEvents).
  void NewFrame();
  // Renders ImGui's frame over a cleared framebuffer and shows it. With `capture`, returns the
  // framebuffer (BGR) as drawn, before the swap; else an empty Mat.
  cv::Mat Present(bool capture);
  // Fonts: the overlay's labels are drawn with ImGui's default font at its own 13 px (LabelBox
  // measures that shape); panels read better in the same font rasterised at twice the size and
  // scaled to the display (kPanelFontPx, with io.FontGlobalScale).
  static constexpr float kPanelFontPx = 26.0f;
  ImFont* label_font() const { return label_font_; }
  ImFont* panel_font() const { return panel_font_; }

 private:
  ImFont* label_font_ = nullptr;
  ImFont* panel_font_ = nullptr;
  GLFWwindow* window_ = nullptr;
  std::string imgui_ini_;  // ImGui keeps a pointer to it
};

// An RGB texture refreshed from a BGR cv::Mat (upload while the window's context is current).
struct GlTexture {
  unsigned int id = 0;  // OpenGL texture name; 0 = none yet
  cv::Size size;        // px
  void Upload(const cv::Mat& bgr);
  void Release();       // while the GL context is still current
  void* imgui_id() const { return reinterpret_cast<void*>(static_cast<intptr_t>(id)); }  // ImTextureID
};

// The window's framebuffer as a BGR image (rows top-down).
cv::Mat ReadFramebuffer(GLFWwindow* window);

}  // namespace vedette::ui
