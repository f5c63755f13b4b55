#include "ui/gl_window.h"

#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>

#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>
#include <opencv2/imgproc.hpp>

#ifndef GL_BGR
#define GL_BGR 0x80E0
#endif

namespace vedette::ui {
namespace {

std::string g_glfw_error;  // GLFW's last complaint, for the message when it gives up
void KeepGlfwError(int, const char* description) { g_glfw_error = description ? description : ""; }

// An X server busy with other clients (a shared virtual display under a parallel test run) can
// refuse a connection for a moment: try for a second before saying there is no display.
void InitGlfw() {
  glfwSetErrorCallback(KeepGlfwError);
  for (int attempt = 0; attempt < 5; ++attempt) {
    if (glfwInit()) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  throw std::runtime_error("GLFW could not initialise (no display?): " + g_glfw_error);
}

}  // namespace

void TerminateGlfw() {
#if !defined(__SANITIZE_ADDRESS__)
  glfwTerminate();
#endif
}

GlWindow::GlWindow(const GlWindowOptions& o) : imgui_ini_(o.imgui_ini) {
  InitGlfw();
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
  window_ = glfwCreateWindow(o.size.width, o.size.height, o.title.c_str(), nullptr, nullptr);
  if (!window_) {
    TerminateGlfw();
    throw std::runtime_error("could not open an OpenGL 3 window");
  }
  glfwMakeContextCurrent(window_);
  glfwSwapInterval(o.vsync ? 1 : 0);
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = imgui_ini_.empty() ? nullptr : imgui_ini_.c_str();
  label_font_ = ImGui::GetIO().Fonts->AddFontDefault();  // the first font: every window's default
  ImFontConfig panel;
  panel.SizePixels = kPanelFontPx;
  panel_font_ = ImGui::GetIO().Fonts->AddFontDefault(&panel);
  ImGui::StyleColorsDark();
  ImGui_ImplGlfw_InitForOpenGL(window_, true);
  ImGui_ImplOpenGL3_Init("#version 130");
}

GlWindow::~GlWindow() {
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  glfwDestroyWindow(window_);
  TerminateGlfw();
}

bool GlWindow::ShouldClose() const { return glfwWindowShouldClose(window_); }

void GlWindow::Close() { glfwSetWindowShouldClose(window_, 1); }

void GlWindow::NewFrame() {
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  ImGui::NewFrame();
}

cv::Mat GlWindow::Present(bool capture) {
  ImGui::Render();
  int w = 0, h = 0;
  glfwGetFramebufferSize(window_, &w, &h);
  glViewport(0, 0, w, h);
  glClearColor(0.1f, 0.1f, 0.11f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  cv::Mat shot = capture ? ReadFramebuffer(window_) : cv::Mat();
  glfwSwapBuffers(window_);
  return shot;
}

void GlTexture::Upload(const cv::Mat& bgr) {
  if (!id) glGenTextures(1, &id);
  glBindTexture(GL_TEXTURE_2D, id);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glPixelStorei(GL_UNPACK_ROW_LENGTH, static_cast<GLint>(bgr.step / bgr.elemSize()));
  if (bgr.size() != size) {
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGB, bgr.cols, bgr.rows, 0, GL_BGR, GL_UNSIGNED_BYTE, bgr.data);
    size = bgr.size();
  } else {
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, bgr.cols, bgr.rows, GL_BGR, GL_UNSIGNED_BYTE, bgr.data);
  }
  glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
}

void GlTexture::Release() {
  if (id) glDeleteTextures(1, &id);
  id = 0;
  size = {};
}

cv::Mat ReadFramebuffer(GLFWwindow* window) {
  int w = 0, h = 0;
  glfwGetFramebufferSize(window, &w, &h);
  cv::Mat rgb(h, w, CV_8UC3);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadBuffer(GL_BACK);
  glReadPixels(0, 0, w, h, GL_RGB, GL_UNSIGNED_BYTE, rgb.data);
  cv::Mat bgr;
  cv::cvtColor(rgb, bgr, cv::COLOR_RGB2BGR);
  cv::flip(bgr, bgr, 0);  // GL's rows run bottom-up
  return bgr;
}

}  // namespace vedette::ui
