#include "ui/live_window.h"

#include <chrono>
#include <cmath>
#include <optional>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <deque>
#include <filesystem>
#include <future>
#include <memory>
#include <set>
#include <stdexcept>
#include <thread>

#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "overlay/annotate.h"
#include "rules/dispute.h"
#include "overlay/evidence.h"
#include "overlay/focus.h"
#include "ui/gl_window.h"
#include "overlay/imgui_renderer.h"
#include "overlay/marker_quads.h"
#include "ui/live_settings.h"
#include "pipeline/event_log.h"
#include "pipeline/event_words.h"
#include "pipeline/frame_loop.h"
#include "pipeline/headless.h"
#include "pipeline/recorder.h"
#include "pipeline/sinks.h"
#include "rules/ruleset.h"

namespace vedette::ui {

namespace {

using Clock = std::chrono::steady_clock;

double MsBetween(Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double, std::milli>(b - a).count(); }

// The window's list of events, newest first.
class EventListSink : public FrameSink {
 public:
  void OnFrame(FrameOutput& out) override {
    for (size_t i = 1; i < out.lines.size(); ++i) OnLine(out.lines[i]);
  }
  void OnLine(const nlohmann::json& line) override {
    list.push_front(EventWords(line));
    if (list.size() > 300) list.pop_back();
  }
  std::deque<std::string> list;
};

// GLFW keys -> the interaction's key codes (printable keys are their ASCII codes in GLFW too).
struct KeyMap {
  int glfw, key;
};
constexpr KeyMap kKeys[] = {
    {GLFW_KEY_0, '0'}, {GLFW_KEY_1, '1'}, {GLFW_KEY_2, '2'}, {GLFW_KEY_3, '3'}, {GLFW_KEY_4, '4'},
    {GLFW_KEY_5, '5'}, {GLFW_KEY_6, '6'}, {GLFW_KEY_7, '7'}, {GLFW_KEY_8, '8'}, {GLFW_KEY_9, '9'},
    {GLFW_KEY_A, 'A'}, {GLFW_KEY_T, 'T'}, {GLFW_KEY_H, 'H'}, {GLFW_KEY_R, 'R'}, {GLFW_KEY_E, 'E'}, {GLFW_KEY_Q, 'Q'}, {GLFW_KEY_S, 'S'},
    {GLFW_KEY_SPACE, ' '}, {GLFW_KEY_EQUAL, '='}, {GLFW_KEY_MINUS, '-'}, {GLFW_KEY_KP_ADD, '+'},
    {GLFW_KEY_KP_SUBTRACT, '-'}, {GLFW_KEY_F11, kKeyF11}, {GLFW_KEY_ESCAPE, kKeyEscape}, {GLFW_KEY_TAB, kKeyTab}, {GLFW_KEY_F1, kKeyF1},
};

std::unique_ptr<states::StatesConfig> LoadStatesFor(const std::string& path, std::string* note) {
  try {
    return std::make_unique<states::StatesConfig>(
        states::LoadStatesConfig(path.empty() ? AssetsDir() + "/rulesets/states.yaml" : path));
  } catch (const std::exception& e) {
    *note = std::string("no state menu: ") + e.what();
    return nullptr;
  }
}

ImVec4 VerdictColour(VerdictKind k) {
  switch (k) {
    case VerdictKind::kYes: return ImVec4(0.3f, 1.0f, 0.4f, 1.0f);
    case VerdictKind::kNo: return ImVec4(1.0f, 0.45f, 0.4f, 1.0f);
    default: return ImVec4(1.0f, 0.85f, 0.2f, 1.0f);
  }
}

class LiveApp {
 public:
  LiveApp(const LiveOptions& options, FrameSource& source, Pipeline& pipeline)
      : o_(options), source_(source), pipeline_(pipeline), summary_(int(pipeline.roster().units.size())) {
    if (!o_.record_path.empty()) {
      RecordingOptions ro;
      ro.video_path = o_.record_path;
      ro.log_path = LogPathFor(o_.record_path);
      ro.fps = source_.fps();
      ro.source_name = source_.name();
      recording_ = std::make_unique<RecordingSink>(ro, pipeline_);
    }
    settings_path_ = o_.settings_path.empty() ? DefaultSettingsDir() + "/live.ini" : o_.settings_path;
    imgui_ini_ = (std::filesystem::path(settings_path_).parent_path() / "imgui.ini").string();
    states_ = LoadStatesFor(o_.states_config_path, &states_note_);
    InteractionOptions io;
    io.evidence_dir = o_.evidence_dir;
    io.table_margin_mm = kTableMarginMm;
    ui_ = std::make_unique<LiveInteraction>(io, LoadLiveSettings(settings_path_), states_.get());
    if (pipeline_.has_ruleset())
      ui_->SetRulesetChoices([this](const Scene& scene, const Unit& unit) { return pipeline_.ruleset().UnitChoices(scene, unit); });
    RefreshFrameContext();
  }

  LiveResult Run();

 private:
  bool Turn(double period_s, LiveResult* result);
  void DrawWindow();
  LiveResult Result(const RunSummary& summary, LiveResult result);
  bool NextFrame();
  void DrawView(const ImVec2& pos, const ImVec2& size);
  void DrawPicture(ImDrawList* dl, const PipelineFrame& f);
  void DrawOverlay(ImDrawList* dl, const ImVec2& pos, const ImVec2& size, bool hovered, const PipelineFrame& f);
  void DrawPanels(const ImVec2& pos, const ImVec2& size);
  // The side panel's sections, in the order they are shown.
  void DisputeSection();
  void UnitsSection(const PipelineFrame& f);
  void UnitRow(const vision::TrackedUnit& u);
  void MovesSection(const PipelineFrame& f);
  void TestsSection(const PipelineFrame& f);
  void EventsSection();
  void CalibrationSection(const PipelineFrame& f);
  void TimingsSection(const PipelineFrame& f);
  void LayersSection();
  void HelpWindow();
  float PanelTextScale(const ImVec2& display) const;
  float PlayerTextFactor() const;
  void DrawSetupPanel();
  void CollectSetupCheck(bool wait);  // takes a finished (or, with wait, the pending) check
  void HandleKeys();
  void ApplyFullScreen();  // F11: the window takes the whole screen, or goes back
  void FeedMouse(bool hovered);
  void RefreshFrameContext();
  void ApplyDeclarations();
  void Declare(const StateDeclaration& d, const std::string& source);  // "live window" or "script"
  void DrawStateMenu();
  std::string CurrentState(const std::string& unit) const;
  bool UnitStateRow(const std::string& unit, const std::string& id_suffix, bool compact);
  bool RulesetChoiceRows(const std::string& unit);

  LiveOptions o_;
  FrameSource& source_;
  Pipeline& pipeline_;
  std::string settings_path_, imgui_ini_;
  std::unique_ptr<states::StatesConfig> states_;
  std::string states_note_;
  std::unique_ptr<LiveInteraction> ui_;
  GLFWwindow* window_ = nullptr;  // gl_->handle() while the window is open
  std::unique_ptr<GlWindow> gl_;

  GlTexture camera_tex_, table_tex_;
  cv::Mat raw_;                 // the last source frame, unannotated
  RectifyCache rectify_cache_;
  bool table_tex_stale_ = true;
  DrawCommands commands_;
  ImGuiRenderScratch imgui_scratch_;
  std::unique_ptr<RecordingSink> recording_;  // with --record
  EventListSink events_;
  SummarySink summary_;

  bool have_frame_ = false, source_done_ = false, state_popup_open_ = false;
  int frames_ = 0;
  Clock::time_point next_due_ = Clock::now();
  double build_ms_ = 0;         // draw commands for the screen, ms
  StageTimings last_timings_;
  std::deque<double> frame_times_;  // source frames' wall times, s (for the pipeline's fps)
  std::vector<nlohmann::json> declarations_;  // logged declarations (the menu's and the script's)

  ViewTransform last_view_;
  std::optional<vision::ViewCheck> setup_;  // the set-up panel's check of a recent frame
  std::future<vision::ViewCheck> setup_job_;  // the check under way, if any
  Clock::time_point setup_at_;             // when the last one started
  std::string setup_error_;
  bool full_screen_applied_ = false;
  int windowed_[4] = {0, 0, 1280, 720};  // x, y, width, height before full screen, screen px
  static constexpr double kTablePxPerMm = 1.0;
  static constexpr double kTableMarginMm = 20.0;
};

bool LiveApp::NextFrame() {
  std::vector<FrameSink*> sinks;
  if (recording_) {
    // The recording shows what the screen shows: its layers and the measured gap.
    recording_->SetLayers(ui_->settings().layers);
    recording_->SetExtraPrimitives(ui_->dispute() ? DisputePrimitives(*ui_->dispute()) : std::vector<DrawPrimitive>{});
    sinks.push_back(recording_.get());
  }
  sinks.push_back(&events_);
  sinks.insert(sinks.end(), o_.extra_sinks.begin(), o_.extra_sinks.end());
  sinks.push_back(&summary_);
  struct Keep : FrameSink {  // the frame and its declarations, for the window
    LiveApp& app;
    explicit Keep(LiveApp& a) : app(a) {}
    void OnFrame(FrameOutput& out) override {
      app.raw_ = out.image;
      for (const nlohmann::json& j : out.lines)
        if (j.value("event", "") == "declare") app.declarations_.push_back(j);
    }
  } keep(*this);
  sinks.push_back(&keep);
  if (!RunFrame(source_, pipeline_, sinks)) return false;
  last_timings_ = summary_.last_timings();
  camera_tex_.Upload(raw_);
  table_tex_stale_ = true;
  have_frame_ = true;
  RefreshFrameContext();
  ++frames_;
  const double now = std::chrono::duration<double>(Clock::now().time_since_epoch()).count();
  frame_times_.push_back(now);
  while (frame_times_.size() > 30) frame_times_.pop_front();
  return true;
}

void LiveApp::RefreshFrameContext() {
  const PipelineFrame& f = pipeline_.last();
  InteractionFrame c;
  c.scene = &f.scene;
  c.ruleset = &pipeline_.ruleset();
  for (const vision::TrackedUnit& u : f.track.units) c.sigmas[u.id] = {u.sigma_mm, u.sigma_deg};
  c.registered = have_frame_ && f.track.registration.ok;
  c.intrinsics = pipeline_.intrinsics();
  c.camera_from_table = f.track.registration.camera_from_table;
  c.image_size = source_.size();
  c.frame = raw_;
  c.primitives = &f.primitives;
  c.registration_rms_px = f.track.registration.rms_px;
  c.anchors_seen = f.track.registration.anchors_seen;
  c.source = source_.name() + " frame " + std::to_string(f.track.frame);
  ui_->SetFrame(c);
}

void LiveApp::Declare(const StateDeclaration& d, const std::string& source) {
  const Declaration declared{d.unit, d.key, d.value, source};
  pipeline_.Declare(declared);
  // Logged like the tracker's events: after the frame it was made on, in the event list, the
  // recording's log, the summary and the result.
  const PipelineFrame& f = pipeline_.last();
  const nlohmann::json line = DeclareLine(declared, f.track.frame, f.track.t);
  declarations_.push_back(line);
  events_.OnLine(line);
  summary_.OnLine(line);
  if (recording_) recording_->OnLine(line);
  for (FrameSink* sink : o_.extra_sinks) sink->OnLine(line);
}

void LiveApp::ApplyDeclarations() {
  if (ui_->TakeAcknowledge()) {
    pipeline_.AcknowledgeVerdicts();
    RefreshFrameContext();
  }
  const std::vector<StateDeclaration> made = ui_->TakeDeclarations();
  if (made.empty()) return;
  for (const StateDeclaration& d : made) Declare(d, "live window");
  // No new frame is coming while paused or at the end of a video: run the rules now.
  if (have_frame_ && (ui_->paused() || source_done_ || (o_.max_frames >= 0 && frames_ >= o_.max_frames))) {
    pipeline_.Reanalyze();
    RefreshFrameContext();
  }
}

std::string LiveApp::CurrentState(const std::string& unit) const {
  if (const Declared* d = pipeline_.roster().declarations.Find(unit, "state"); d && d->value.is_string())
    return d->value.get<std::string>();
  // The states ruleset reports what it resolved (a token, or the default).
  const nlohmann::json& report = pipeline_.Report();
  if (report.contains("units") && report["units"].is_array())
    for (const nlohmann::json& u : report["units"])
      if (u.value("id", "") == unit && u.contains("state") && u["state"].is_string()) return u["state"].get<std::string>();
  const StateChoices c = ui_->ChoicesFor(unit);
  return c.states.empty() ? "" : c.states.front();
}

// The state choices of one unit as small widgets (the state menu and the units panel); true when one was chosen.
// `compact`: a combo box (the units table), else radio buttons.
bool LiveApp::UnitStateRow(const std::string& unit, const std::string& id_suffix, bool compact) {
  const StateChoices c = ui_->ChoicesFor(unit);
  if (c.states.empty()) return false;
  const std::string current = CurrentState(unit);
  bool chosen = false;
  if (compact) {
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 5.5f);
    if (ImGui::BeginCombo(("##state" + unit + id_suffix).c_str(), current.c_str())) {
      for (const std::string& s : c.states)
        if (ImGui::Selectable(s.c_str(), s == current)) chosen |= ui_->Handle(InputEvent::Declare(unit, "state", s));
      ImGui::EndCombo();
    }
  } else {
    for (size_t i = 0; i < c.states.size(); ++i) {
      if (i > 0) ImGui::SameLine();
      const std::string label = c.states[i] + "##" + unit + id_suffix;
      if (ImGui::RadioButton(label.c_str(), c.states[i] == current))
        chosen |= ui_->Handle(InputEvent::Declare(unit, "state", c.states[i]));
    }
  }
  for (const char* marker : {"firing", "limbered"}) {
    if ((marker[0] == 'f' && !c.firing) || (marker[0] == 'l' && !c.limbered)) continue;
    const Declared* d = pipeline_.roster().declarations.Find(unit, marker);
    bool on = d && d->value.is_boolean() && d->value.get<bool>();
    ImGui::SameLine();
    const std::string label = std::string(compact ? (marker[0] == 'f' ? "F" : "L") : marker) + "##" + unit + id_suffix;
    if (ImGui::Checkbox(label.c_str(), &on)) chosen |= ui_->Handle(InputEvent::Declare(unit, marker, on));
  }
  return chosen;
}

// The ruleset's own declarations for a unit in the menu (Kings of War's order, its wavering and
// disordered tokens): a choice list as radio buttons in words, a flag as a checkbox.
bool LiveApp::RulesetChoiceRows(const std::string& unit) {
  bool chosen = false;
  for (const DeclarationChoice& c : ui_->RulesetChoicesFor(unit)) {
    const Declared* d = pipeline_.roster().declarations.Find(unit, c.key);
    if (c.values.empty()) {
      bool on = d && d->value.is_boolean() && d->value.get<bool>();
      if (ImGui::Checkbox((c.words + "##" + unit).c_str(), &on)) chosen |= ui_->Handle(InputEvent::Declare(unit, c.key, on));
      continue;
    }
    const std::string current = d && d->value.is_string() ? d->value.get<std::string>() : "";
    ImGui::TextUnformatted((c.words + ":").c_str());
    for (size_t i = 0; i < c.values.size(); ++i) {
      if (i % 4 != 0) ImGui::SameLine();  // four to a row keeps the menu narrow
      const std::string label = c.value_words[i] + "##" + c.key + unit;
      if (ImGui::RadioButton(label.c_str(), c.values[i] == current)) chosen |= ui_->Handle(InputEvent::Declare(unit, c.key, c.values[i]));
    }
  }
  return chosen;
}

void LiveApp::DrawStateMenu() {
  if (!ui_->state_menu_unit().empty() && !state_popup_open_) {
    const cv::Point2d at = ui_->state_menu_at_px();
    ImGui::SetNextWindowPos(ImVec2(static_cast<float>(at.x), static_cast<float>(at.y)));
    ImGui::OpenPopup("state_menu");
    state_popup_open_ = true;
  }
  if (ImGui::BeginPopup("state_menu")) {
    const std::string unit = ui_->state_menu_unit();
    if (unit.empty()) {  // closed by the interaction (Esc, a click)
      ImGui::CloseCurrentPopup();
      ImGui::EndPopup();
      state_popup_open_ = false;
      return;
    }
    ImGui::Text("%s", unit.c_str());
    ImGui::Separator();
    if (UnitStateRow(unit, "_menu", false) || RulesetChoiceRows(unit)) {
      ui_->CloseStateMenu();
      ImGui::CloseCurrentPopup();
    }
    ImGui::EndPopup();
  } else if (state_popup_open_) {
    // Closed by a click elsewhere or Esc.
    state_popup_open_ = false;
    ui_->CloseStateMenu();
  }
  if (ui_->state_menu_unit().empty()) state_popup_open_ = false;
}

void LiveApp::HandleKeys() {
  const ImGuiIO& io = ImGui::GetIO();
  if (io.WantCaptureKeyboard) return;
  for (const KeyMap& k : kKeys)
    if (ImGui::IsKeyPressed(k.glfw, false)) ui_->Handle(InputEvent::Key(k.key));
  if (ui_->quit_requested()) glfwSetWindowShouldClose(window_, 1);
}

void LiveApp::ApplyFullScreen() {
  const bool want = ui_->settings().full_screen;
  if (want == full_screen_applied_) return;
  GLFWmonitor* monitor = glfwGetPrimaryMonitor();
  const GLFWvidmode* mode = monitor ? glfwGetVideoMode(monitor) : nullptr;
  if (want && mode) {
    glfwGetWindowPos(window_, &windowed_[0], &windowed_[1]);
    glfwGetWindowSize(window_, &windowed_[2], &windowed_[3]);
    glfwSetWindowMonitor(window_, monitor, 0, 0, mode->width, mode->height, mode->refreshRate);
  } else if (!want) {
    glfwSetWindowMonitor(window_, nullptr, windowed_[0], windowed_[1], windowed_[2], windowed_[3], 0);
  }
  full_screen_applied_ = want;
}

// The mouse over the picture, as the interaction's events (a press must start on the picture; moves
// and releases count anywhere, so a drag can leave it).
void LiveApp::FeedMouse(bool hovered) {
  const ImGuiIO& io = ImGui::GetIO();
  const cv::Point2d at(io.MousePos.x, io.MousePos.y);
  const bool valid = ImGui::IsMousePosValid();
  constexpr std::pair<ImGuiMouseButton, MouseButton> kButtons[] = {
      {ImGuiMouseButton_Left, MouseButton::kLeft}, {ImGuiMouseButton_Right, MouseButton::kRight}, {ImGuiMouseButton_Middle, MouseButton::kMiddle}};
  for (const auto& [im, b] : kButtons)
    if (hovered && valid && ImGui::IsMouseClicked(im)) ui_->Handle(InputEvent::MouseDown(b, at));
  if (valid && (io.MouseDelta.x != 0 || io.MouseDelta.y != 0)) ui_->Handle(InputEvent::MouseMove(at));
  for (const auto& [im, b] : kButtons)
    if (ImGui::IsMouseReleased(im)) ui_->Handle(InputEvent::MouseUp(b, at));
  if (hovered && valid && io.MouseWheel != 0) ui_->Handle(InputEvent::Wheel(at, io.MouseWheel));
}

void LiveApp::DrawView(const ImVec2& pos, const ImVec2& size) {
  ImGui::SetNextWindowPos(pos);
  ImGui::SetNextWindowSize(size);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(0, 0));
  ImGui::Begin("##view", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoBringToFrontOnFocus |
                   ImGuiWindowFlags_NoScrollWithMouse | ImGuiWindowFlags_NoSavedSettings);
  ImGui::PopStyleVar();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const cv::Rect2d viewport(pos.x, pos.y, size.x, size.y);
  dl->AddRectFilled(pos, ImVec2(pos.x + size.x, pos.y + size.y), IM_COL32(25, 25, 28, 255));
  ImGui::InvisibleButton("##canvas", size,
                         ImGuiButtonFlags_MouseButtonLeft | ImGuiButtonFlags_MouseButtonRight | ImGuiButtonFlags_MouseButtonMiddle);
  const bool hovered = ImGui::IsItemHovered();
  const PipelineFrame& f = pipeline_.last();
  ui_->SetViewport(viewport);
  FeedMouse(hovered);
  last_view_ = ui_->View();
  dl->PushClipRect(pos, ImVec2(pos.x + size.x, pos.y + size.y), true);
  DrawPicture(dl, f);
  if (have_frame_ && f.track.registration.ok) {
    DrawOverlay(dl, pos, size, hovered, f);
  } else if (have_frame_) {
    dl->AddText(ImVec2(pos.x + 12, pos.y + 12), IM_COL32(255, 90, 80, 255),
                ("Table not registered: " + std::to_string(f.track.registration.anchors_seen) + " of " +
                 std::to_string(pipeline_.roster().anchors.size()) + " anchors seen")
                    .c_str());
  } else {
    dl->AddText(ImVec2(pos.x + 12, pos.y + 12), IM_COL32(220, 220, 220, 255), ("Waiting for " + source_.name() + "...").c_str());
  }
  dl->PopClipRect();
  ImGui::End();
}

// The camera picture, or the table seen from above (rectified once per frame it changes).
void LiveApp::DrawPicture(ImDrawList* dl, const PipelineFrame& f) {
  const ViewTransform& view = last_view_;
  const Scene& roster = pipeline_.roster();
  if (ui_->TopDownShown()) {
    if (table_tex_stale_) {
      table_tex_.Upload(RectifyTable(raw_, pipeline_.intrinsics(), f.track.registration.camera_from_table, roster,
                                     kTablePxPerMm, kTableMarginMm, &rectify_cache_));
      table_tex_stale_ = false;
    }
    // The rectified texture covers table x in [-margin, width + margin], y from depth + margin (top) down.
    const cv::Point2d p0 = view.Apply({-kTableMarginMm, roster.table_depth_mm + kTableMarginMm});
    const cv::Point2d p1 = view.Apply({roster.table_width_mm + kTableMarginMm, -kTableMarginMm});
    dl->AddImage(table_tex_.imgui_id(), ImVec2(p0.x, p0.y), ImVec2(p1.x, p1.y));
  } else if (have_frame_) {
    const cv::Point2d p0 = view.Apply({0, 0});
    const cv::Point2d p1 = view.Apply({static_cast<double>(source_.size().width), static_cast<double>(source_.size().height)});
    dl->AddImage(camera_tex_.imgui_id(), ImVec2(p0.x, p0.y), ImVec2(p1.x, p1.y));
  }
}

// The findings' drawing and the readout's, through the one overlay description both renderers draw.
void LiveApp::DrawOverlay(ImDrawList* dl, const ImVec2& pos, const ImVec2& size, bool hovered, const PipelineFrame& f) {
  ui_->Update();  // the readout follows the units while they move
  std::vector<DrawPrimitive> prims = f.primitives;
  const std::vector<DrawPrimitive> extra = ui_->ExtraPrimitives();
  prims.insert(prims.end(), extra.begin(), extra.end());
  const auto t0 = Clock::now();
  BuildOptions bo;
  bo.canvas_px = cv::Rect2f(pos.x, pos.y, size.x, size.y);
  // Text and lines grow with the view (read from a step back at a 1080p screen) and the display's
  // DPI, times the player's own size setting (+ and -).
  const float player = PlayerTextFactor();
  bo.scale = player * std::clamp(size.y / 720.0f, 1.0f, 2.5f);
  // Text as in a recording of the view's height (overlay/style.h: the 1080-line sizes, 14 px at
  // least), times the display's DPI and the player's setting; labels kept off the markers.
  bo.text_scale = player * TextScaleForHeight(static_cast<int>(size.y));
  std::vector<TableQuad> markers;
  MarkerQuadsOnTable(f.scene, AnnotateOptions{}.marker_margin_mm, &markers);
  bo.markers_mm = &markers;
  // Full strength for what the player is looking at: the picked units, the one under the cursor,
  // the state menu's, and the side whose turn it is; other units' reference geometry stays faint.
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const std::string under_cursor =
      hovered && ImGui::IsMousePosValid() ? ui_->UnitAt(ui_->TableAt(cv::Point2d(mouse.x, mouse.y))) : std::string();
  bo.focus_units = FocusUnits(f.scene, {ui_->pick_a(), ui_->pick_b(), ui_->state_menu_unit(), under_cursor});
  BuildDrawCommands(bo, prims, ui_->Projection(), DefaultStyleTable(), ui_->settings().layers, &commands_);
  RenderCommands(commands_, dl, &imgui_scratch_, gl_->label_font());
  build_ms_ = MsBetween(t0, Clock::now());
}

// The set-up check (S): vision::CheckView on the current frame, started at most once a second on
// a worker thread (a full detection and the marker measures take about 100 ms at 1920x1440; on
// the window's thread that would be a visible hitch every second). The panel shows the last result.
void LiveApp::CollectSetupCheck(bool wait) {
  if (!setup_job_.valid()) return;
  if (!wait && setup_job_.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return;
  try {
    setup_ = setup_job_.get();
    setup_error_.clear();
  } catch (const std::exception& e) {
    setup_error_ = e.what();
  }
}

void LiveApp::DrawSetupPanel() {
  CollectSetupCheck(false);
  if (have_frame_ && !setup_job_.valid() && (!setup_ || Clock::now() - setup_at_ >= std::chrono::seconds(1))) {
    setup_at_ = Clock::now();
    setup_job_ = std::async(std::launch::async, [frame = raw_.clone(), k = pipeline_.intrinsics(), roster = pipeline_.roster()] {
      return vision::CheckView(vision::ViewCheckOptions{}, frame, k, roster);
    });
  }
  ImGui::SetNextWindowPos(ImVec2(20, 20), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(430, 0), ImGuiCond_FirstUseEver);
  ImGui::Begin("Set-up check (S)", &ui_->settings().show_setup);
  if (!setup_error_.empty()) ImGui::TextColored(ImVec4(1, 0.5f, 0.4f, 1), "%s", setup_error_.c_str());
  if (!setup_) {
    ImGui::TextDisabled("waiting for a frame");
    ImGui::End();
    return;
  }
  const vision::ViewCheck& v = *setup_;
  ImGui::TextColored(v.ready ? ImVec4(0.3f, 1.0f, 0.4f, 1) : ImVec4(1.0f, 0.45f, 0.4f, 1), "%s", v.ready ? "READY" : "NOT READY");
  const calib::Registration& r = v.registration;
  if (r.ok) ImGui::Text("anchors used %zu of %zu, RMS %.2f px, worst distance %.1f mm", r.anchors_used.size(), v.anchors.size(),
                        r.rms_px, v.worst_distance_error_mm);
  else ImGui::TextWrapped("not registered: %s", r.message.c_str());
  if (ImGui::BeginTable("setup", 5, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollY, ImVec2(0, 160))) {
    for (const char* h : {"marker", "side px", "edge px", "contrast", "problems"}) ImGui::TableSetupColumn(h);
    ImGui::TableHeadersRow();
    for (const auto* list : {&v.anchors, &v.units})
      for (const vision::MarkerCheck& c : *list) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(c.name.c_str());
        ImGui::TableNextColumn();
        if (c.quality.seen) ImGui::Text("%.1f", c.quality.side_px);
        ImGui::TableNextColumn();
        if (c.quality.seen) ImGui::Text("%.1f", c.quality.edge_rise_px);
        ImGui::TableNextColumn();
        if (c.quality.seen) ImGui::Text("%.0f", c.quality.contrast);
        ImGui::TableNextColumn();
        std::string problems;
        for (vision::MarkerProblem p : c.problems) problems += (problems.empty() ? "" : ", ") + std::string(vision::ToString(p));
        if (problems.empty()) ImGui::TextColored(ImVec4(0.6f, 1, 0.6f, 1), "ok");
        else ImGui::TextColored(ImVec4(1, 0.75f, 0.3f, 1), "%s", problems.c_str());
      }
    ImGui::EndTable();
  }
  for (const std::string& a : v.advice) {
    ImGui::Bullet();
    ImGui::TextWrapped("%s", a.c_str());
  }
  ImGui::TextDisabled("checked %.1f s ago in %.0f ms", std::chrono::duration<double>(Clock::now() - setup_at_).count(), v.ms);
  ImGui::End();
}

// The panels' text: ImGui's 13 px at 720 lines, growing with the window to 1.4x at 1080 (as tall
// as the picture's labels' words read), times the display's DPI and the player's +/-.
float LiveApp::PanelTextScale(const ImVec2& display) const {
  return PlayerTextFactor() * std::clamp(display.y / 770.0f, 1.0f, 2.5f);
}

// The display's DPI (never below 1) times the player's +/- setting: what every text size is multiplied by.
float LiveApp::PlayerTextFactor() const {
  float dpi_x = 1, dpi_y = 1;
  glfwGetWindowContentScale(window_, &dpi_x, &dpi_y);
  return static_cast<float>(ui_->settings().text_size) * std::max(1.0f, dpi_y);
}

void LiveApp::DrawPanels(const ImVec2& pos, const ImVec2& size) {
  ImGui::SetNextWindowPos(pos);
  ImGui::SetNextWindowSize(size);
  ImGui::Begin("Vedette", nullptr, ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse);
  const PipelineFrame& f = pipeline_.last();
  const RulesetInfo& info = pipeline_.info();
  ImGui::Text("%s  |  %s", source_.name().c_str(), info.title.c_str());
  ImGui::Text("frame %d  t %.2f s%s", f.track.frame, f.track.t, ui_->paused() ? "  [PAUSED]" : source_done_ ? "  [END]" : "");
  ImGui::TextDisabled("H every key   Tab hide this panel   F11 full screen   + - text size");
  if (ImGui::CollapsingHeader("Dispute", ImGuiTreeNodeFlags_DefaultOpen)) DisputeSection();
  if (ImGui::CollapsingHeader("Units", ImGuiTreeNodeFlags_DefaultOpen)) UnitsSection(f);
  if (ImGui::CollapsingHeader("Moves this turn", ImGuiTreeNodeFlags_DefaultOpen)) MovesSection(f);
  if (ImGui::CollapsingHeader("Required tests", ImGuiTreeNodeFlags_DefaultOpen)) TestsSection(f);
  if (ImGui::CollapsingHeader("Event log", ImGuiTreeNodeFlags_DefaultOpen)) EventsSection();
  if (ImGui::CollapsingHeader("Calibration and registration")) CalibrationSection(f);
  if (ImGui::CollapsingHeader("Timings", ImGuiTreeNodeFlags_DefaultOpen)) TimingsSection(f);
  if (ImGui::CollapsingHeader("Layers", ImGuiTreeNodeFlags_DefaultOpen)) LayersSection();
  ImGui::End();
  if (ui_->settings().show_help) HelpWindow();
}

void LiveApp::DisputeSection() {
  const std::string& a = ui_->pick_a();
  const std::optional<Dispute>& dispute = ui_->dispute();
  if (a.empty()) ImGui::TextWrapped("Click unit A, then unit B or a point on the table. Right-click a unit: its state (and its order in Kings of War).");
  else if (!dispute) ImGui::Text("A = %s; now click unit B or a point.", a.c_str());
  if (!ui_->dispute_error().empty()) ImGui::TextColored(ImVec4(1, 0.5f, 0.4f, 1), "%s", ui_->dispute_error().c_str());
  if (dispute) {
    const Dispute& d = *dispute;
    ImGui::Text("%s -> %s", d.from.c_str(), d.to_point ? "point" : d.to.c_str());
    ImGui::Text("edge to edge %s (%.2f %s)", MmWithSigma(d.distance_mm, d.sigma_mm).c_str(), d.distance_mm / d.unit_mm,
                d.unit_name.c_str());
    ImGui::Text("leader %.1f mm (%.2f %s)", d.leader_mm, d.leader_mm / d.unit_mm, d.unit_name.c_str());
    if (!d.arc_of_to.empty()) ImGui::Text("%s is in %s's %s", d.from.c_str(), d.to.c_str(), d.arc_of_to.c_str());
    ImGui::Text("%s is in %s's %s", d.to_point ? "point" : d.to.c_str(), d.from.c_str(), d.arc_of_from.c_str());
    for (size_t i = 0; i < d.rules.size(); ++i) {
      ImGui::TextColored(VerdictColour(d.verdicts[i].kind), "%s: %s", d.rules[i].rule.c_str(), d.verdicts[i].text.c_str());
    }
    if (ImGui::Button("Save evidence (E)")) ui_->Handle(InputEvent::SaveEvidenceButton());
    ImGui::SameLine();
    if (ImGui::Button("Clear (Esc)")) ui_->Handle(InputEvent::ClearButton());
  }
  if (!ui_->evidence_note().empty()) ImGui::TextWrapped("%s", ui_->evidence_note().c_str());
  if (!a.empty() && !ui_->ChoicesFor(a).states.empty()) {
    ImGui::Text("State of %s:", a.c_str());
    UnitStateRow(a, "_dispute", false);
  }
}

void LiveApp::UnitsSection(const PipelineFrame& f) {
  if (!ui_->state_note().empty()) ImGui::TextWrapped("%s", ui_->state_note().c_str());
  if (!states_note_.empty()) ImGui::TextDisabled("%s", states_note_.c_str());
  if (ImGui::BeginTable("units", 6, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollY | ImGuiTableFlags_ScrollX,
                        ImVec2(0, 200))) {
    ImGui::TableSetupColumn("unit");
    ImGui::TableSetupColumn("state");
    ImGui::TableSetupColumn("x, y mm / deg");
    ImGui::TableSetupColumn("\u00b1mm");
    ImGui::TableSetupColumn("declared");
    ImGui::TableSetupColumn("set state (F firing, L limbered)");
    ImGui::TableHeadersRow();
    for (const vision::TrackedUnit& u : f.track.units) UnitRow(u);
    ImGui::EndTable();
  }
}

void LiveApp::UnitRow(const vision::TrackedUnit& u) {
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(u.id.c_str());
  ImGui::TableNextColumn();
  const bool bad = u.state == vision::UnitState::kOccluded || u.state == vision::UnitState::kLifted ||
                   u.state == vision::UnitState::kRemoved || u.state == vision::UnitState::kUnseen;
  ImGui::TextColored(bad ? ImVec4(1, 0.75f, 0.3f, 1) : ImVec4(0.7f, 1, 0.7f, 1), "%s",
                     pipeline::TrackingWords(vision::ToString(u.state)).c_str());
  ImGui::TableNextColumn();
  if (u.has_pose) ImGui::Text("%.1f, %.1f / %.1f", u.pose.x_mm, u.pose.y_mm, u.pose.heading_deg);
  ImGui::TableNextColumn();
  if (u.has_pose) ImGui::Text("%.2f", u.sigma_mm);
  ImGui::TableNextColumn();
  std::string declared;
  if (auto it = pipeline_.roster().declarations.units.find(u.id); it != pipeline_.roster().declarations.units.end())
    for (const auto& [key, value] : it->second)
      declared += (declared.empty() ? "" : ", ") + key +
                  (value.value.is_boolean() && value.value.get<bool>() ? ""
                   : value.value.is_string()                          ? " " + value.value.get<std::string>()
                                                                      : " " + value.value.dump());
  ImGui::TextUnformatted(declared.c_str());
  ImGui::TableNextColumn();
  UnitStateRow(u.id, "_units", true);
}

void LiveApp::MovesSection(const PipelineFrame& f) {
  if (f.verdicts.empty()) ImGui::TextDisabled("none (A clears them once read)");
  for (const ShownVerdict& v : f.verdicts) {
    const ImVec4 colour = v.illegal ? ImVec4(1, 0.3f, 0.3f, 1) : v.needs_test ? ImVec4(1, 0.88f, 0.25f, 1) : ImVec4(0.5f, 0.85f, 1, 1);
    ImGui::PushStyleColor(ImGuiCol_Text, colour);
    ImGui::TextWrapped("%s", v.text.c_str());
    ImGui::PopStyleColor();
  }
}

void LiveApp::TestsSection(const PipelineFrame& f) {
  if (f.findings.tests.empty()) ImGui::TextDisabled("none");
  for (const RequiredTest& t : f.findings.tests) {
    ImGui::TextColored(ImVec4(1, 0.88f, 0.25f, 1), "%s %s", t.unit.c_str(), t.kind.c_str());
    ImGui::SameLine();
    ImGui::TextWrapped("%s  %s", t.odds.c_str(), t.reason.c_str());
  }
}

void LiveApp::EventsSection() {
  ImGui::BeginChild("events", ImVec2(0, 140), true);
  for (const std::string& e : events_.list) ImGui::TextWrapped("%s", e.c_str());
  ImGui::EndChild();
}

void LiveApp::CalibrationSection(const PipelineFrame& f) {
  const vision::TrackRegistration& r = f.track.registration;
  const calib::CameraIntrinsics& k = pipeline_.intrinsics();
  ImGui::Text("camera: %s, %dx%d, calibration RMS %.2f px", k.source.empty() ? "(built in)" : k.source.c_str(),
              k.image_size.width, k.image_size.height, k.avg_reprojection_error_px);
  ImGui::TextColored(r.ok ? ImVec4(0.6f, 1, 0.6f, 1) : ImVec4(1, 0.4f, 0.4f, 1), "registration: %s%s",
                     r.ok ? "ok" : "NOT REGISTERED", r.fresh ? " (fresh)" : "");
  ImGui::Text("anchors seen %d of %zu, reprojection RMS %.2f px", r.anchors_seen, pipeline_.roster().anchors.size(), r.rms_px);
  ImGui::Text("markers measured this frame: %zu", f.track.markers.size());
  if (source_.corrupt_frames) ImGui::Text("corrupt frames skipped: %d", source_.corrupt_frames);
}

void LiveApp::TimingsSection(const PipelineFrame& f) {
  const double span = frame_times_.size() > 1 ? frame_times_.back() - frame_times_.front() : 0;
  ImGui::Text("screen %.0f fps, pipeline %.1f fps", ImGui::GetIO().Framerate,
              span > 0 ? (frame_times_.size() - 1) / span : 0.0);
  ImGui::Text("track %.1f ms (detect %s, %d windows)", last_timings_.track_ms,
              f.track.timing.full_detection ? "full" : "windows", f.track.timing.windows_refined + f.track.timing.windows_local);
  ImGui::Text("moves %.1f ms   rules %.1f ms   screen overlay %.2f ms", last_timings_.judge_ms, last_timings_.rules_ms,
              build_ms_);
  if (recording_) ImGui::Text("record: overlay %.1f ms + write %.1f ms -> %s", last_timings_.overlay_ms, last_timings_.record_ms,
                              o_.record_path.c_str());
}

void LiveApp::LayersSection() {
  for (const LayerInfo& l : KnownLayers()) {
    bool on = ui_->settings().layers.Visible(l.name);
    const std::string label = std::string("[") + l.key + "] " + l.title;
    if (ImGui::Checkbox(label.c_str(), &on)) ui_->Handle(InputEvent::Key(l.key));
  }
  bool measure = ui_->settings().layers.Visible("measure");
  if (ImGui::Checkbox("[0] Measurement", &measure)) ui_->Handle(InputEvent::Key('0'));
  bool top = ui_->settings().top_down;
  if (ImGui::Checkbox("[T] Top-down table view", &top)) ui_->Handle(InputEvent::Key('T'));
}

void LiveApp::HelpWindow() {
  ImGui::SetNextWindowPos(ImVec2(20, ImGui::GetIO().DisplaySize.y - 250), ImGuiCond_FirstUseEver);
  ImGui::Begin("Help (H)", &ui_->settings().show_help, ImGuiWindowFlags_AlwaysAutoResize);
  ImGui::TextUnformatted(
      "1-9     layers: bases, zones of control, ranges, threats, contacts,\n"
      "        support, tests, terrain, labels;  0 measurement\n"
      "T       camera view / top-down table view\n"
      "wheel   zoom about the cursor;  right/middle drag: pan;  R: reset view\n"
      "click   unit A, then unit B or a table point: dispute readout\n"
      "right-click a unit (no drag): its state (eager/shaken/routed...)\n"
      "E       save evidence (PNG + JSON);  Esc: clear the selection\n"
      "A       the moves' verdicts have been read: take them off\n"
      "+ / -   overlay text larger / smaller;  F11: full screen\n"
      "S       set-up check: markers, focus, light, registration; READY?\n"
      "Space   pause;  Tab: panels;  H/F1: this help;  Q: quit");
  ImGui::End();
}

// The window's layout: the view, the side panels, the set-up panel and the state menu.
void LiveApp::DrawWindow() {
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  const float panel_scale = PanelTextScale(display);
  const bool panels = ui_->settings().show_panels;
  const float panel_w = panels ? std::min(440.0f * panel_scale, display.x * 0.36f) : 0.0f;
  ImGui::PushFont(gl_->panel_font());
  ImGui::GetIO().FontGlobalScale = panel_scale * 13.0f / GlWindow::kPanelFontPx;
  DrawView(ImVec2(0, 0), ImVec2(display.x - panel_w, display.y));
  if (panels) DrawPanels(ImVec2(display.x - panel_w, 0), ImVec2(panel_w, display.y));
  if (ui_->settings().show_setup) DrawSetupPanel();
  DrawStateMenu();
  ImGui::PopFont();
}

// One turn of the window's loop: the next frame when it is due, the script's and the player's
// input, the drawing. False when the loop ends (the last frame shown, and captured when asked).
bool LiveApp::Turn(double period_s, LiveResult* result) {
  glfwPollEvents();
  const bool want_frame = !ui_->paused() && !source_done_ && (o_.max_frames < 0 || frames_ < o_.max_frames) &&
                          (!o_.realtime || Clock::now() >= next_due_);
  if (want_frame) {
    next_due_ = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(period_s));
    if (!NextFrame()) source_done_ = true;
  }
  gl_->NewFrame();
  bool script_running = false;
  if (o_.script) {
    std::vector<InputEvent> events;
    script_running = o_.script(*ui_, frames_, &events);
    for (const InputEvent& e : events) ui_->Handle(e);
    if (ui_->quit_requested()) glfwSetWindowShouldClose(window_, 1);
  }
  HandleKeys();
  ApplyFullScreen();
  DrawWindow();
  ApplyDeclarations();
  const bool last = ((o_.max_frames >= 0 && frames_ >= o_.max_frames) || (source_done_ && o_.close_at_end)) && !script_running;
  const bool capture = last && !o_.screenshot_path.empty() && ImGui::GetFrameCount() > 2;
  cv::Mat shot = gl_->Present(capture);
  if (capture) result->screenshot = shot;
  if (last && (o_.screenshot_path.empty() || !result->screenshot.empty())) return false;
  if (!want_frame && o_.realtime) std::this_thread::sleep_for(std::chrono::milliseconds(2));
  return true;
}

LiveResult LiveApp::Run() {
  GlWindowOptions wo;
  wo.title = o_.title;
  wo.size = o_.window_size;
  wo.vsync = o_.realtime;
  wo.imgui_ini = o_.save_settings ? imgui_ini_ : "";
  gl_ = std::make_unique<GlWindow>(wo);
  window_ = gl_->handle();

  LiveResult result;
  const Clock::time_point started = Clock::now();
  const double period_s = 1.0 / std::max(1.0, source_.fps());
  // Ctrl-C in the terminal or SIGTERM (a logout, a service stop) closes the window as Q does:
  // the recording is finished and the settings saved.
  const pipeline::StopOnSignal signals;
  while (!glfwWindowShouldClose(window_) && !signals.stop())
    if (!Turn(period_s, &result)) break;
  if (!result.screenshot.empty()) cv::imwrite(o_.screenshot_path, result.screenshot);
  if (o_.save_settings) SaveLiveSettings(ui_->settings(), settings_path_);
  camera_tex_.Release();
  table_tex_.Release();
  gl_.reset();
  window_ = nullptr;
  RunSummary summary = summary_.Finish(pipeline_.last().findings, source_.corrupt_frames);
  summary.stopped_by_signal = signals.stop();
  if (recording_) recording_->Close(&summary);
  recording_.reset();
  summary.seconds = std::chrono::duration<double>(Clock::now() - started).count();
  return Result(summary, std::move(result));
}

// What the run leaves for the caller: the last view, settings, dispute, evidence, declarations.
LiveResult LiveApp::Result(const RunSummary& summary, LiveResult result) {
  result.frames = frames_;
  result.camera_view = last_view_;
  result.top_down = ui_->TopDownShown();
  result.settings = ui_->settings();
  result.dispute = ui_->dispute();
  result.evidence = ui_->evidence_saved();
  result.declarations = declarations_;
  CollectSetupCheck(true);
  result.setup_check = setup_;
  result.summary = summary;
  return result;
}

}  // namespace

bool LiveOptions::Check(std::string* error) const {
  if (window_size.width < 320 || window_size.height < 240) {
    if (error) *error = "window_size must be at least 320 x 240 px";
    return false;
  }
  return true;
}

bool DisplayAvailable(std::string* why) {
  const char* display = std::getenv("DISPLAY");
  const char* wayland = std::getenv("WAYLAND_DISPLAY");
  if ((!display || !*display) && (!wayland || !*wayland)) {
    if (why) *why = "no display (DISPLAY is not set)";
    return false;
  }
  if (!glfwInit()) {
    if (why) *why = std::string("GLFW could not initialise on display ") + (display ? display : "");
    return false;
  }
  TerminateGlfw();
  return true;
}

LiveResult RunLive(const LiveOptions& options, FrameSource& source, Pipeline& pipeline) {
  std::string error;
  if (!options.Check(&error)) throw std::invalid_argument("live options: " + error);
  LiveApp app(options, source, pipeline);
  return app.Run();
}

}  // namespace vedette::ui
