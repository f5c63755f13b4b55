#include "overlay/live_window.h"

#include <chrono>
#include <cmath>
#include <optional>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <deque>
#include <filesystem>
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
#include "overlay/dispute.h"
#include "overlay/evidence.h"
#include "overlay/imgui_renderer.h"
#include "overlay/live_settings.h"
#include "overlay/recorder.h"

#ifndef GL_BGR
#define GL_BGR 0x80E0
#endif

namespace vedette::overlay {

namespace {

using Clock = std::chrono::steady_clock;

double MsBetween(Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double, std::milli>(b - a).count(); }

// An RGB texture refreshed from a BGR cv::Mat.
struct Texture {
  GLuint id = 0;
  cv::Size size;
  void Upload(const cv::Mat& bgr) {
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
  void Release() {  // while the GL context is still current
    if (id) glDeleteTextures(1, &id);
    id = 0;
    size = {};
  }
};

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

std::string EventText(const vision::TrackEvent& e) {
  nlohmann::json rest = e.json;
  for (const char* k : {"event", "frame", "t", "unit"}) rest.erase(k);
  std::string s = "[" + std::to_string(e.json.value("frame", 0)) + "] " + e.type + (e.unit.empty() ? "" : " " + e.unit);
  std::string detail = rest.empty() ? "" : rest.dump();
  if (detail.size() > 200) detail = detail.substr(0, 197) + "...";
  return detail.empty() ? s : s + "  " + detail;
}

// The unit whose outline holds the table point, or "".
std::string UnitAt(const Scene& scene, const geom::Vec2& p) {
  for (const Unit& u : scene.units) {
    if (!u.pose) continue;
    for (const geom::Base& b : BasesOf(u))
      if (geom::Contains(b, p, 2.0)) return u.id;
  }
  return "";
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
      : o_(options), source_(source), pipeline_(pipeline) {
    settings_path_ = o_.settings_path.empty() ? DefaultSettingsDir() + "/live.ini" : o_.settings_path;
    settings_ = LoadLiveSettings(settings_path_);
    imgui_ini_ = (std::filesystem::path(settings_path_).parent_path() / "imgui.ini").string();
  }

  LiveResult Run();

 private:
  bool NextFrame();
  void DrawView(const ImVec2& pos, const ImVec2& size);
  void DrawPanels(const ImVec2& pos, const ImVec2& size);
  void HandleKeys();
  void UpdateDispute();
  void SaveEvidenceNow();

  LiveOptions o_;
  FrameSource& source_;
  Pipeline& pipeline_;
  std::string settings_path_, imgui_ini_;
  LiveSettings settings_;
  GLFWwindow* window_ = nullptr;

  Texture camera_tex_, table_tex_;
  cv::Mat raw_;                 // the last source frame, unannotated
  RectifyCache rectify_cache_;
  bool table_tex_stale_ = true;
  DrawCommands commands_;
  ImGuiRenderScratch imgui_scratch_;
  std::unique_ptr<Recorder> recorder_;
  AnnotateScratch annotate_scratch_;

  bool have_frame_ = false, paused_ = false, source_done_ = false;
  int frames_ = 0;
  Clock::time_point next_due_ = Clock::now();
  double build_ms_ = 0;         // draw commands for the screen, ms
  StageTimings last_timings_;
  std::deque<double> frame_times_;  // source frames' wall times, s (for the pipeline's fps)
  std::deque<std::string> event_log_;
  std::set<std::string> seen_units_;
  RunSummary summary_;

  // Dispute selection.
  std::string pick_a_, pick_b_;
  std::optional<geom::Vec2> pick_point_;
  std::optional<Dispute> dispute_;
  std::string dispute_error_, evidence_note_;

  ViewTransform last_view_;
  static constexpr double kTablePxPerMm = 1.0;
  static constexpr double kTableMarginMm = 20.0;
};

bool LiveApp::NextFrame() {
  double t = 0;
  cv::Mat frame;
  if (!source_.Next(&frame, &t)) return false;
  raw_ = frame;
  const PipelineFrame& f = pipeline_.Process(raw_, t);
  StageTimings timings = f.timings;
  nlohmann::json line = FrameLogLine(f);
  if (recorder_ || !o_.record_path.empty()) {
    cv::Mat annotated = raw_.clone();
    AnnotateOptions ao;
    ao.layers = settings_.layers;
    // The measured gap too: the recording shows what the screen shows.
    std::vector<DrawPrimitive> prims = f.primitives;
    if (dispute_) {
      const auto gap = DisputePrimitives(*dispute_);
      prims.insert(prims.end(), gap.begin(), gap.end());
    }
    const auto t0 = Clock::now();
    if (f.track.registration.ok)
      DrawOverlay(ao, prims, FrameProjection(pipeline_.intrinsics(), f.track.registration.camera_from_table), &annotated,
                  &annotate_scratch_);
    timings.overlay_ms = MsBetween(t0, Clock::now());
    if (!recorder_) {
      RecorderOptions ro;
      ro.fps = source_.fps();
      recorder_ = std::make_unique<Recorder>(ro, o_.record_path, LogPathFor(o_.record_path), annotated.size());
    }
    timings.record_ms = recorder_->Write(annotated, nullptr);
    line["timings_ms"]["overlay"] = timings.overlay_ms;
    line["timings_ms"]["record"] = timings.record_ms;
    recorder_->Log(line);
    for (const vision::TrackEvent& e : f.track.events) recorder_->Log(e.json);
  }
  for (const vision::TrackEvent& e : f.track.events) {
    event_log_.push_front(EventText(e));
    if (event_log_.size() > 300) event_log_.pop_back();
    ++summary_.events;
    ++summary_.event_counts[e.type];
  }
  for (const vision::TrackedUnit& u : f.track.units)
    if (u.measured) seen_units_.insert(u.id);
  timings.total_ms = timings.track_ms + timings.scene_ms + timings.rules_ms + timings.overlay_ms + timings.record_ms;
  last_timings_ = timings;
  summary_.mean.track_ms += timings.track_ms;
  summary_.mean.rules_ms += timings.rules_ms;
  summary_.mean.overlay_ms += timings.overlay_ms;
  summary_.mean.record_ms += timings.record_ms;
  summary_.mean.total_ms += timings.total_ms;
  camera_tex_.Upload(raw_);
  table_tex_stale_ = true;
  have_frame_ = true;
  ++frames_;
  const double now = std::chrono::duration<double>(Clock::now().time_since_epoch()).count();
  frame_times_.push_back(now);
  while (frame_times_.size() > 30) frame_times_.pop_front();
  return true;
}

void LiveApp::UpdateDispute() {
  dispute_.reset();
  dispute_error_.clear();
  if (pick_a_.empty() || (pick_b_.empty() && !pick_point_)) return;
  const PipelineFrame& f = pipeline_.last();
  std::map<std::string, PoseUncertainty> sigmas;
  for (const vision::TrackedUnit& u : f.track.units) sigmas[u.id] = {u.sigma_mm, u.sigma_deg};
  try {
    DisputeOptions options;
    dispute_ = pick_point_ ? SettleDisputeToPoint(options, pipeline_.ruleset(), f.scene, sigmas, pick_a_, *pick_point_)
                           : SettleDispute(options, pipeline_.ruleset(), f.scene, sigmas, pick_a_, pick_b_);
  } catch (const std::exception& e) {
    dispute_error_ = e.what();  // a unit left the table mid-dispute: say so, keep the window
  }
}

void LiveApp::SaveEvidenceNow() {
  if (!dispute_ || raw_.empty()) {
    evidence_note_ = "Pick unit A, then unit B or a point, first.";
    return;
  }
  const PipelineFrame& f = pipeline_.last();
  EvidenceInput in;
  in.frame = raw_;
  in.intrinsics = pipeline_.intrinsics();
  in.camera_from_table = f.track.registration.camera_from_table;
  in.registration_rms_px = f.track.registration.rms_px;
  in.anchors_seen = f.track.registration.anchors_seen;
  in.scene = f.scene;
  for (const vision::TrackedUnit& u : f.track.units) in.sigmas[u.id] = {u.sigma_mm, u.sigma_deg};
  in.primitives = f.primitives;
  in.dispute = *dispute_;
  in.source = source_.name() + " frame " + std::to_string(f.track.frame);
  char stamp[32];
  const std::time_t now = std::time(nullptr);
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", std::localtime(&now));
  const std::string prefix = o_.evidence_dir + "/evidence-" + stamp + "-" + dispute_->from + "-" +
                             (dispute_->to_point ? std::string("point") : dispute_->to);
  try {
    const EvidenceFiles files = SaveEvidence(in, prefix);
    evidence_note_ = "Saved " + files.png + " and " + files.json;
  } catch (const std::exception& e) {
    evidence_note_ = std::string("Could not save: ") + e.what();
  }
}

void LiveApp::HandleKeys() {
  const ImGuiIO& io = ImGui::GetIO();
  if (io.WantCaptureKeyboard) return;
  for (const LayerInfo& l : KnownLayers())
    if (ImGui::IsKeyPressed(GLFW_KEY_0 + (l.key - '0'), false)) settings_.layers.Toggle(l.name);
  if (ImGui::IsKeyPressed(GLFW_KEY_0, false)) settings_.layers.Toggle("measure");
  if (ImGui::IsKeyPressed(GLFW_KEY_T, false)) settings_.top_down = !settings_.top_down;
  if (ImGui::IsKeyPressed(GLFW_KEY_H, false) || ImGui::IsKeyPressed(GLFW_KEY_F1, false)) settings_.show_help = !settings_.show_help;
  if (ImGui::IsKeyPressed(GLFW_KEY_TAB, false)) settings_.show_panels = !settings_.show_panels;
  if (ImGui::IsKeyPressed(GLFW_KEY_SPACE, false)) paused_ = !paused_;
  if (ImGui::IsKeyPressed(GLFW_KEY_R, false)) (settings_.top_down ? settings_.table_view : settings_.camera_view) = ViewState{};
  if (ImGui::IsKeyPressed(GLFW_KEY_E, false)) SaveEvidenceNow();
  if (ImGui::IsKeyPressed(GLFW_KEY_ESCAPE, false)) {
    pick_a_.clear();
    pick_b_.clear();
    pick_point_.reset();
    dispute_.reset();
  }
  if (ImGui::IsKeyPressed(GLFW_KEY_Q, false)) glfwSetWindowShouldClose(window_, 1);
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
  const bool registered = have_frame_ && f.track.registration.ok;
  const bool top = settings_.top_down && registered;
  ViewState& state = top ? settings_.table_view : settings_.camera_view;
  const Scene& roster = pipeline_.roster();
  const cv::Rect2d content = top ? cv::Rect2d(-kTableMarginMm, -kTableMarginMm, roster.table_width_mm + 2 * kTableMarginMm,
                                              roster.table_depth_mm + 2 * kTableMarginMm)
                                 : cv::Rect2d(0, 0, source_.size().width, source_.size().height);
  ViewTransform view = MakeView(state, content, viewport, top);
  // Pan and zoom.
  const ImGuiIO& io = ImGui::GetIO();
  if (hovered && io.MouseWheel != 0) {
    state = ZoomedAbout(state, view, viewport, {io.MousePos.x, io.MousePos.y}, std::pow(1.15, io.MouseWheel));
    view = MakeView(state, content, viewport, top);
  }
  for (ImGuiMouseButton b : {ImGuiMouseButton_Right, ImGuiMouseButton_Middle})
    if (ImGui::IsItemActive() && ImGui::IsMouseDragging(b, 0.0f)) {
      const ImVec2 d = ImGui::GetMouseDragDelta(b, 0.0f);
      state = Panned(state, view, viewport, {d.x, d.y});
      ImGui::ResetMouseDragDelta(b);
      view = MakeView(state, content, viewport, top);
    }
  last_view_ = view;

  dl->PushClipRect(pos, ImVec2(pos.x + size.x, pos.y + size.y), true);
  TableProjection projection;
  if (top) {
    if (table_tex_stale_) {
      table_tex_.Upload(RectifyTable(raw_, pipeline_.intrinsics(), f.track.registration.camera_from_table, roster,
                                     kTablePxPerMm, kTableMarginMm, &rectify_cache_));
      table_tex_stale_ = false;
    }
    // The rectified texture covers table x in [-margin, width + margin], y from depth + margin (top) down.
    const cv::Point2d p0 = view.Apply({-kTableMarginMm, roster.table_depth_mm + kTableMarginMm});
    const cv::Point2d p1 = view.Apply({roster.table_width_mm + kTableMarginMm, -kTableMarginMm});
    dl->AddImage(reinterpret_cast<ImTextureID>(static_cast<intptr_t>(table_tex_.id)), ImVec2(p0.x, p0.y), ImVec2(p1.x, p1.y));
    projection = TopDownProjection(view);
  } else if (have_frame_) {
    const cv::Point2d p0 = view.Apply({0, 0});
    const cv::Point2d p1 = view.Apply({static_cast<double>(source_.size().width), static_cast<double>(source_.size().height)});
    dl->AddImage(reinterpret_cast<ImTextureID>(static_cast<intptr_t>(camera_tex_.id)), ImVec2(p0.x, p0.y), ImVec2(p1.x, p1.y));
    if (registered) projection = CameraProjection(MakeCameraView(pipeline_.intrinsics(), f.track.registration.camera_from_table), view);
  }
  if (registered) {
    // Click: A, then B (a unit or a point on the table); a third click starts over.
    if (hovered && ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
      const geom::Vec2 p = OutputToTable(projection, {io.MousePos.x, io.MousePos.y});
      if (std::isfinite(p.x()) && std::isfinite(p.y())) {
        const std::string id = UnitAt(f.scene, p);
        if (pick_a_.empty() || !pick_b_.empty() || pick_point_) {
          pick_b_.clear();
          pick_point_.reset();
          pick_a_ = id;
        } else if (!id.empty() && id != pick_a_) {
          pick_b_ = id;
        } else if (id.empty()) {
          pick_point_ = p;
        }
      }
    }
    UpdateDispute();
    std::vector<DrawPrimitive> prims = f.primitives;
    if (dispute_) {
      const auto gap = DisputePrimitives(*dispute_);
      prims.insert(prims.end(), gap.begin(), gap.end());
    }
    // Selected units: outlined in the measure colour.
    for (const std::string& id : {pick_a_, pick_b_}) {
      const Unit* u = id.empty() ? nullptr : f.scene.FindUnit(id);
      if (!u || !u->pose) continue;
      DrawPrimitive sel;
      sel.kind = DrawKind::kPolygon;
      sel.style = DrawStyle::kMeasure;
      sel.layer = "measure";
      const auto c = geom::Corners(Footprint(*u));
      sel.points_mm.assign(c.begin(), c.end());
      prims.push_back(sel);
    }
    const auto t0 = Clock::now();
    BuildOptions bo;
    BuildDrawCommands(bo, prims, projection, DefaultStyleTable(), settings_.layers, &commands_);
    RenderCommands(commands_, dl, &imgui_scratch_);
    build_ms_ = MsBetween(t0, Clock::now());
  } else if (have_frame_) {
    dl->AddText(ImVec2(pos.x + 12, pos.y + 12), IM_COL32(255, 90, 80, 255),
                ("Table not registered: " + std::to_string(f.track.registration.anchors_seen) + " of " +
                 std::to_string(roster.anchors.size()) + " anchors seen")
                    .c_str());
  } else {
    dl->AddText(ImVec2(pos.x + 12, pos.y + 12), IM_COL32(220, 220, 220, 255), ("Waiting for " + source_.name() + "...").c_str());
  }
  dl->PopClipRect();
  ImGui::End();
}

void LiveApp::DrawPanels(const ImVec2& pos, const ImVec2& size) {
  ImGui::SetNextWindowPos(pos);
  ImGui::SetNextWindowSize(size);
  ImGui::Begin("Vedette", nullptr, ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse);
  const PipelineFrame& f = pipeline_.last();
  const RulesetInfo& info = pipeline_.info();
  ImGui::Text("%s  |  %s", source_.name().c_str(), info.title.c_str());
  ImGui::Text("frame %d  t %.2f s%s", f.track.frame, f.track.t, paused_ ? "  [PAUSED]" : source_done_ ? "  [END]" : "");

  if (ImGui::CollapsingHeader("Dispute", ImGuiTreeNodeFlags_DefaultOpen)) {
    if (pick_a_.empty()) ImGui::TextWrapped("Click unit A, then unit B or a point on the table.");
    else if (!dispute_) ImGui::Text("A = %s; now click unit B or a point.", pick_a_.c_str());
    if (!dispute_error_.empty()) ImGui::TextColored(ImVec4(1, 0.5f, 0.4f, 1), "%s", dispute_error_.c_str());
    if (dispute_) {
      const Dispute& d = *dispute_;
      ImGui::Text("%s -> %s", d.from.c_str(), d.to_point ? "point" : d.to.c_str());
      ImGui::Text("edge to edge %.1f \u00b1 %.1f mm (%.2f %s)", d.distance_mm, d.sigma_mm, d.distance_mm / d.unit_mm,
                  d.unit_name.c_str());
      ImGui::Text("leader %.1f mm (%.2f %s)", d.leader_mm, d.leader_mm / d.unit_mm, d.unit_name.c_str());
      if (!d.arc_of_to.empty()) ImGui::Text("%s is in %s's %s", d.from.c_str(), d.to.c_str(), d.arc_of_to.c_str());
      ImGui::Text("%s is in %s's %s", d.to_point ? "point" : d.to.c_str(), d.from.c_str(), d.arc_of_from.c_str());
      for (size_t i = 0; i < d.rules.size(); ++i) {
        ImGui::TextColored(VerdictColour(d.verdicts[i].kind), "%s: %s", d.rules[i].rule.c_str(), d.verdicts[i].text.c_str());
      }
      if (ImGui::Button("Save evidence (E)")) SaveEvidenceNow();
      ImGui::SameLine();
      if (ImGui::Button("Clear (Esc)")) {
        pick_a_.clear();
        pick_b_.clear();
        pick_point_.reset();
      }
    }
    if (!evidence_note_.empty()) ImGui::TextWrapped("%s", evidence_note_.c_str());
  }

  if (ImGui::CollapsingHeader("Units", ImGuiTreeNodeFlags_DefaultOpen)) {
    if (ImGui::BeginTable("units", 5, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollY,
                          ImVec2(0, 200))) {
      ImGui::TableSetupColumn("unit");
      ImGui::TableSetupColumn("state");
      ImGui::TableSetupColumn("x, y mm / deg");
      ImGui::TableSetupColumn("\u00b1mm");
      ImGui::TableSetupColumn("declared");
      ImGui::TableHeadersRow();
      for (const vision::TrackedUnit& u : f.track.units) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(u.id.c_str());
        ImGui::TableNextColumn();
        const bool bad = u.state == "occluded" || u.state == "lifted" || u.state == "removed" || u.state == "unseen";
        ImGui::TextColored(bad ? ImVec4(1, 0.75f, 0.3f, 1) : ImVec4(0.7f, 1, 0.7f, 1), "%s", u.state.c_str());
        ImGui::TableNextColumn();
        if (u.has_pose) ImGui::Text("%.1f, %.1f / %.1f", u.pose.x_mm, u.pose.y_mm, u.pose.heading_deg);
        ImGui::TableNextColumn();
        if (u.has_pose) ImGui::Text("%.2f", u.sigma_mm);
        ImGui::TableNextColumn();
        std::string declared;
        if (auto it = pipeline_.roster().declarations.units.find(u.id); it != pipeline_.roster().declarations.units.end())
          for (const auto& [key, value] : it->second)
            declared += (declared.empty() ? "" : ", ") + key + (value.value.is_boolean() && value.value.get<bool>() ? "" : "=" + value.value.dump());
        ImGui::TextUnformatted(declared.c_str());
      }
      ImGui::EndTable();
    }
  }

  if (ImGui::CollapsingHeader("Required tests", ImGuiTreeNodeFlags_DefaultOpen)) {
    if (f.findings.tests.empty()) ImGui::TextDisabled("none");
    for (const RequiredTest& t : f.findings.tests) {
      ImGui::TextColored(ImVec4(1, 0.88f, 0.25f, 1), "%s %s", t.unit.c_str(), t.kind.c_str());
      ImGui::SameLine();
      ImGui::TextWrapped("%s  %s", t.odds.c_str(), t.reason.c_str());
    }
  }

  if (ImGui::CollapsingHeader("Event log", ImGuiTreeNodeFlags_DefaultOpen)) {
    ImGui::BeginChild("events", ImVec2(0, 140), true);
    for (const std::string& e : event_log_) ImGui::TextWrapped("%s", e.c_str());
    ImGui::EndChild();
  }

  if (ImGui::CollapsingHeader("Calibration and registration")) {
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

  if (ImGui::CollapsingHeader("Timings", ImGuiTreeNodeFlags_DefaultOpen)) {
    const double span = frame_times_.size() > 1 ? frame_times_.back() - frame_times_.front() : 0;
    ImGui::Text("screen %.0f fps, pipeline %.1f fps", ImGui::GetIO().Framerate,
                span > 0 ? (frame_times_.size() - 1) / span : 0.0);
    ImGui::Text("track %.1f ms (detect %s, %d windows)", last_timings_.track_ms,
                f.track.timing.full_detection ? "full" : "windows", f.track.timing.windows_refined + f.track.timing.windows_local);
    ImGui::Text("rules %.1f ms   screen overlay %.2f ms", last_timings_.rules_ms, build_ms_);
    if (recorder_) ImGui::Text("record: overlay %.1f ms + write %.1f ms -> %s", last_timings_.overlay_ms, last_timings_.record_ms,
                               recorder_->video_path().c_str());
  }

  if (ImGui::CollapsingHeader("Layers", ImGuiTreeNodeFlags_DefaultOpen)) {
    for (const LayerInfo& l : KnownLayers()) {
      bool on = settings_.layers.Visible(l.name);
      const std::string label = std::string("[") + l.key + "] " + l.title;
      if (ImGui::Checkbox(label.c_str(), &on)) settings_.layers.Set(l.name, on);
    }
    bool measure = settings_.layers.Visible("measure");
    if (ImGui::Checkbox("[0] Measurement", &measure)) settings_.layers.Set("measure", measure);
    ImGui::Checkbox("[T] Top-down table view", &settings_.top_down);
  }
  ImGui::End();

  if (settings_.show_help) {
    ImGui::SetNextWindowPos(ImVec2(20, ImGui::GetIO().DisplaySize.y - 250), ImGuiCond_FirstUseEver);
    ImGui::Begin("Help (H)", &settings_.show_help, ImGuiWindowFlags_AlwaysAutoResize);
    ImGui::TextUnformatted(
        "1-9     layers: bases, zones of control, ranges, threats, contacts,\n"
        "        support, tests, terrain, labels;  0 measurement\n"
        "T       camera view / top-down table view\n"
        "wheel   zoom about the cursor;  right/middle drag: pan;  R: reset view\n"
        "click   unit A, then unit B or a table point: dispute readout\n"
        "E       save evidence (PNG + JSON);  Esc: clear the selection\n"
        "Space   pause;  Tab: panels;  H/F1: this help;  Q: quit");
    ImGui::End();
  }
}

LiveResult LiveApp::Run() {
  if (!glfwInit()) throw std::runtime_error("GLFW could not initialise (no display?)");
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
  window_ = glfwCreateWindow(o_.window_size.width, o_.window_size.height, o_.title.c_str(), nullptr, nullptr);
  if (!window_) {
    glfwTerminate();
    throw std::runtime_error("could not open an OpenGL 3 window");
  }
  glfwMakeContextCurrent(window_);
  glfwSwapInterval(o_.realtime ? 1 : 0);
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = o_.save_settings ? imgui_ini_.c_str() : nullptr;
  ImGui::StyleColorsDark();
  ImGui_ImplGlfw_InitForOpenGL(window_, true);
  ImGui_ImplOpenGL3_Init("#version 130");

  LiveResult result;
  const Clock::time_point started = Clock::now();
  const double period_s = 1.0 / std::max(1.0, source_.fps());
  while (!glfwWindowShouldClose(window_)) {
    glfwPollEvents();
    const bool want_frame = !paused_ && !source_done_ && (o_.max_frames < 0 || frames_ < o_.max_frames) &&
                            (!o_.realtime || Clock::now() >= next_due_);
    if (want_frame) {
      next_due_ = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(period_s));
      if (!NextFrame()) source_done_ = true;
    }
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
    HandleKeys();
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    const float panel_w = settings_.show_panels ? std::min(440.0f, display.x * 0.36f) : 0.0f;
    DrawView(ImVec2(0, 0), ImVec2(display.x - panel_w, display.y));
    if (settings_.show_panels) DrawPanels(ImVec2(display.x - panel_w, 0), ImVec2(panel_w, display.y));
    ImGui::Render();
    int w = 0, h = 0;
    glfwGetFramebufferSize(window_, &w, &h);
    glViewport(0, 0, w, h);
    glClearColor(0.1f, 0.1f, 0.11f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    const bool last = (o_.max_frames >= 0 && frames_ >= o_.max_frames) || (source_done_ && o_.close_at_end);
    if (last && !o_.screenshot_path.empty() && ImGui::GetFrameCount() > 2) {
      result.screenshot = ReadFramebuffer(window_);
    }
    glfwSwapBuffers(window_);
    if (last && (o_.screenshot_path.empty() || !result.screenshot.empty())) break;
    if (!want_frame && o_.realtime) std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  if (!result.screenshot.empty()) cv::imwrite(o_.screenshot_path, result.screenshot);
  if (o_.save_settings) SaveLiveSettings(settings_, settings_path_);
  camera_tex_.Release();
  table_tex_.Release();
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  glfwDestroyWindow(window_);
  glfwTerminate();
  if (recorder_) summary_.codec = recorder_->codec();
  recorder_.reset();
  summary_.seconds = std::chrono::duration<double>(Clock::now() - started).count();

  result.frames = frames_;
  result.camera_view = last_view_;
  result.top_down = settings_.top_down;
  summary_.frames = frames_;
  summary_.units_in_roster = static_cast<int>(pipeline_.roster().units.size());
  summary_.units_seen = static_cast<int>(seen_units_.size());
  summary_.corrupt_frames = source_.corrupt_frames;
  if (frames_ > 0) {
    summary_.mean.track_ms /= frames_;
    summary_.mean.rules_ms /= frames_;
    summary_.mean.overlay_ms /= frames_;
    summary_.mean.record_ms /= frames_;
    summary_.mean.total_ms /= frames_;
    for (const RequiredTest& t : pipeline_.last().findings.tests) ++summary_.tests_by_kind[t.kind];
    summary_.tests_required = static_cast<int>(pipeline_.last().findings.tests.size());
  }
  if (!o_.record_path.empty()) {
    summary_.video_path = o_.record_path;
    summary_.log_path = LogPathFor(o_.record_path);
  }
  result.summary = summary_;
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
  glfwTerminate();
  return true;
}

LiveResult RunLive(const LiveOptions& options, FrameSource& source, Pipeline& pipeline) {
  std::string error;
  if (!options.Check(&error)) throw std::invalid_argument("live options: " + error);
  LiveApp app(options, source, pipeline);
  return app.Run();
}

}  // namespace vedette::overlay
