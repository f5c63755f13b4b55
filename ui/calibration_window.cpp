#include "ui/calibration_window.h"

#include <algorithm>
#include <stdexcept>

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "ui/gl_window.h"

namespace vedette::ui {
namespace {

constexpr float kPanelWidth = 380;  // px

// Image px -> window px for a picture fitted (aspect kept) into a rectangle.
struct Fit {
  ImVec2 origin;
  float scale = 1;
  ImVec2 operator()(cv::Point2f p) const { return ImVec2(origin.x + p.x * scale, origin.y + p.y * scale); }
};

Fit FitInto(cv::Size image, ImVec2 pos, ImVec2 size) {
  Fit f;
  f.scale = std::min(size.x / std::max(1, image.width), size.y / std::max(1, image.height));
  f.origin = ImVec2(pos.x + (size.x - image.width * f.scale) / 2, pos.y + (size.y - image.height * f.scale) / 2);
  return f;
}

// The coverage grid: cells still lacking views shaded red, covered ones outlined.
void DrawGrid(ImDrawList* dl, const Fit& fit, const calib::SessionState& s, const calib::CalibrationSessionOptions& o) {
  const float w = static_cast<float>(s.image_size.width), h = static_cast<float>(s.image_size.height);
  for (int r = 0; r < o.grid_rows; ++r)
    for (int c = 0; c < o.grid_cols; ++c) {
      const ImVec2 a = fit({c * w / o.grid_cols, r * h / o.grid_rows});
      const ImVec2 b = fit({(c + 1) * w / o.grid_cols, (r + 1) * h / o.grid_rows});
      if (s.cell_best[r * o.grid_cols + c] < o.min_cell_corners) dl->AddRectFilled(a, b, IM_COL32(230, 30, 30, 80));
      dl->AddRect(a, b, IM_COL32(255, 255, 255, 90));
    }
}

void DrawBoards(ImDrawList* dl, const Fit& fit, const calib::SessionState& s) {
  for (const calib::SessionView& k : s.kept) {  // where the kept views were
    std::vector<cv::Point2f> hull;
    cv::convexHull(k.view.image_px, hull);
    std::vector<ImVec2> pts;
    for (const cv::Point2f& p : hull) pts.push_back(fit(p));
    dl->AddPolyline(pts.data(), static_cast<int>(pts.size()), IM_COL32(80, 160, 255, 160), ImDrawFlags_Closed, 1.5f);
  }
  // The current frame's corners: green when the board is held still, yellow while it moves.
  const ImU32 colour = s.still_count > 0 ? IM_COL32(60, 230, 90, 255) : IM_COL32(250, 220, 40, 255);
  for (const cv::Point2f& p : s.current.image_px) dl->AddCircle(fit(p), 3.5f, colour, 8, 1.5f);
}

void DrawPanel(const calib::CalibrationSession& session, const std::string& source_name, bool* save_clicked) {
  const calib::SessionState& s = session.state();
  ImGui::Text("%s, board %s", source_name.c_str(), calib::ToString(session.board()).c_str());
  ImGui::Text("frame %d   kept views %zu   cells %d/%zu", s.frames, s.kept.size(), s.cells_covered,
              s.cell_corners.size());
  if (s.calibration) {
    const calib::CalibrationResult& r = *s.calibration;
    ImGui::Text("RMS %.3f px", r.intrinsics.avg_reprojection_error_px);
    if (r.stddev.size() >= 4)
      ImGui::Text("fx %.1f +- %.1f  fy %.1f +- %.1f px", r.intrinsics.camera_matrix(0, 0), r.stddev[0],
                  r.intrinsics.camera_matrix(1, 1), r.stddev[1]);
  } else {
    ImGui::Text("RMS -  (calibrates from %d views on)", session.options().calibration.min_views);
  }
  ImGui::TextWrapped("%s", s.current.found() ? s.current_note.c_str() : "board not found in this frame");
  ImGui::Separator();
  if (s.enough) {
    ImGui::PushStyleColor(ImGuiCol_Button, IM_COL32(30, 150, 60, 255));
    *save_clicked = ImGui::Button("ENOUGH - press Enter/S to save", ImVec2(-1, 48));
    ImGui::PopStyleColor();
  } else {
    ImGui::TextUnformatted("Still missing:");
    for (const std::string& m : s.missing) {
      ImGui::Bullet();
      ImGui::TextWrapped("%s", m.c_str());
    }
  }
  ImGui::Separator();
  ImGui::TextDisabled("Esc: close without saving");
}

bool SaveKeyPressed() {
  if (ImGui::GetIO().WantCaptureKeyboard) return false;
  return ImGui::IsKeyPressed(GLFW_KEY_ENTER, false) || ImGui::IsKeyPressed(GLFW_KEY_KP_ENTER, false) ||
         ImGui::IsKeyPressed(GLFW_KEY_S, false);
}

// One window frame: the picture with the grid and corners, and the panel. True when a save was asked.
bool DrawFrame(const GlTexture& tex, const calib::CalibrationSession& session, const std::string& source_name) {
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  const ImVec2 view(std::max(1.0f, display.x - kPanelWidth), display.y);
  ImGui::SetNextWindowPos(ImVec2(0, 0));
  ImGui::SetNextWindowSize(display);
  ImGui::Begin("##calibrate", nullptr, ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                           ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const calib::SessionState& s = session.state();
  if (tex.id && s.image_size.area() > 0) {
    const Fit fit = FitInto(s.image_size, ImVec2(0, 0), view);
    dl->AddImage(tex.imgui_id(), fit({0, 0}),
                 fit({static_cast<float>(s.image_size.width), static_cast<float>(s.image_size.height)}));
    DrawGrid(dl, fit, s, session.options());
    DrawBoards(dl, fit, s);
  } else {
    dl->AddText(ImVec2(12, 12), IM_COL32(220, 220, 220, 255), ("Waiting for " + source_name + "...").c_str());
  }
  ImGui::SetCursorPos(ImVec2(view.x + 10, 10));
  ImGui::BeginChild("##panel", ImVec2(kPanelWidth - 20, display.y - 20));
  bool clicked = false;
  DrawPanel(session, source_name, &clicked);
  ImGui::EndChild();
  ImGui::End();
  return s.enough && (clicked || SaveKeyPressed());
}

}  // namespace

bool CalibrationWindowOptions::Check(std::string* error) const {
  if (window_size.width < 640 || window_size.height < 360) {
    if (error) *error = "window_size must be at least 640 x 360 px";
    return false;
  }
  return true;
}

CalibrationWindowResult RunCalibrationWindow(const CalibrationWindowOptions& o, FrameSource& source,
                                             calib::CalibrationSession& session, const std::function<void()>& on_kept) {
  if (std::string error; !o.Check(&error)) throw std::invalid_argument("calibration window options: " + error);
  GlWindowOptions wo;
  wo.title = o.title;
  wo.size = o.window_size;
  wo.vsync = false;  // a camera paces itself; a video is read as fast as the session takes it
  GlWindow window(wo);
  GlTexture tex;
  CalibrationWindowResult result;
  bool stop_reading = false, key_down = false;
  while (!window.ShouldClose()) {
    glfwPollEvents();
    if (!stop_reading) {
      cv::Mat frame;
      double t_s = 0;
      if ((o.max_frames < 0 || result.frames < o.max_frames) && source.Next(&frame, &t_s)) {
        const bool kept = session.AddFrame(frame, source.name() + "#frame " + std::to_string(result.frames));
        ++result.frames;
        tex.Upload(frame);
        if (kept && on_kept) on_kept();
      } else {
        result.source_ended = true;
        stop_reading = true;
      }
    }
    if (o.tap_save_key) {  // a key held down for one frame, then released: one press
      key_down = !key_down && o.tap_save_key(session.state());
      ImGui::GetIO().KeysDown[GLFW_KEY_S] = key_down;
    }
    window.NewFrame();
    if (DrawFrame(tex, session, source.name()) || (o.auto_save && session.state().enough))
      result.save_requested = true;
    if (ImGui::IsKeyPressed(GLFW_KEY_ESCAPE, false)) window.Close();
    const bool last = result.save_requested || (result.source_ended && o.close_at_end);
    stop_reading = stop_reading || last;
    const bool capture = last && !o.screenshot_path.empty() && ImGui::GetFrameCount() > 2;
    cv::Mat shot = window.Present(capture);
    if (capture) result.screenshot = shot;
    if (last && (o.screenshot_path.empty() || !result.screenshot.empty())) break;
  }
  if (!result.screenshot.empty()) cv::imwrite(o.screenshot_path, result.screenshot);
  tex.Release();
  return result;
}

}  // namespace vedette::ui
