#pragma once
// What the live window does with the mouse and the keyboard, without GL: the selection for a
// dispute (unit A, then unit B or a table point), pan and zoom of both views, the keyboard
// shortcuts (layers, view, evidence, pause, quit), "Save evidence", and the state a player gives a
// unit (eager / shaken / routed, silenced for artillery; firing and limbered markers).
//
// The window turns GLFW/ImGui input into plain InputEvents (window px, button, key, wheel notches)
// and hands each to Handle(); the tests hand it the same events, so what is tested is what the
// window runs. Each frame the window gives it the frame's context (SetFrame: the scene the rules
// saw, pose sigmas, calibration and registration) and the viewport (SetViewport); it answers with
// the view transform and projection to draw with, the dispute, the extra primitives (measured gap,
// selected outlines), and the declarations the player made (TakeDeclarations) for the pipeline.
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <opencv2/core.hpp>

#include "calibration/camera_model.h"
#include "rules/dispute.h"
#include "overlay/evidence.h"
#include "ui/live_settings.h"
#include "overlay/projection.h"
#include "overlay/view_transform.h"
#include "rules/drawing.h"
#include "rules/ruleset.h"
#include "rules/scene/scene.h"
#include "rules/states/config.h"

namespace vedette::overlay {}
namespace vedette::pipeline {}

namespace vedette::ui {

// The windows show the overlay (overlay/) of the frame path (pipeline/): their names are used as ours.
using namespace vedette::overlay;
using namespace vedette::pipeline;

enum class MouseButton { kLeft, kRight, kMiddle };

// Keys: printable keys are their upper-case ASCII code ('0'..'9', 'A'..'Z', ' '); the others:
inline constexpr int kKeyEscape = 256;
inline constexpr int kKeyTab = 257;
inline constexpr int kKeyF1 = 258;
inline constexpr int kKeyF11 = 259;

struct InputEvent {
  enum class Type {
    kMouseDown,  // button pressed at pos_px
    kMouseMove,  // pointer now at pos_px
    kMouseUp,    // button released at pos_px
    kWheel,      // wheel turned by `wheel` notches at pos_px (+ = towards the table: zoom in)
    kKey,        // key pressed (`key`)
    kDeclare,    // the player set `decl_key` = `value` for `unit` (state popup or units panel)
    kSaveEvidence,  // the "Save evidence" button (same as key E)
    kClearSelection,  // the "Clear" button (same as Esc)
  };
  Type type = Type::kMouseMove;
  cv::Point2d pos_px{0, 0};  // window px
  MouseButton button = MouseButton::kLeft;
  double wheel = 0.0;        // notches
  int key = 0;
  std::string unit, decl_key;
  nlohmann::json value;

  static InputEvent MouseDown(MouseButton b, const cv::Point2d& p);
  static InputEvent MouseMove(const cv::Point2d& p);
  static InputEvent MouseUp(MouseButton b, const cv::Point2d& p);
  static InputEvent Wheel(const cv::Point2d& p, double notches);
  static InputEvent Key(int key);
  static InputEvent Declare(const std::string& unit, const std::string& key, const nlohmann::json& value);
  static InputEvent SaveEvidenceButton();
  static InputEvent ClearButton();
};

// What the window knows about the frame on screen. Pointers are not owned and must outlive the
// next Handle()/Update() call.
struct InteractionFrame {
  const Scene* scene = nullptr;                          // the scene the rules saw (on-table units have poses)
  const Ruleset* ruleset = nullptr;                      // for the dispute's pair rules
  std::map<std::string, PoseUncertainty> sigmas;         // per unit id
  bool registered = false;                               // the table is registered in this frame
  calib::CameraIntrinsics intrinsics;                    // at the image's size
  calib::CameraFromTable camera_from_table;
  cv::Size image_size;                                   // camera picture, px
  // For "Save evidence":
  cv::Mat frame;                                         // BGR, unannotated
  const std::vector<DrawPrimitive>* primitives = nullptr;  // the rules' overlay
  double registration_rms_px = 0.0;                      // px
  int anchors_seen = 0;
  std::string source;                                    // "clip.yaml frame 12"
};

struct InteractionOptions {
  double zoom_per_notch = 1.15;     // zoom factor per wheel notch
  double click_slop_px = 4.0;       // a right press released within this distance is a click (state menu), px
  double pick_tolerance_mm = 2.0;   // a click this close outside a base still picks its unit, mm
  double table_margin_mm = 20.0;    // the top-down view shows this much round the table, mm
  std::string evidence_dir = ".";   // where "Save evidence" writes
  DisputeOptions dispute;
  bool Check(std::string* error) const;
};

// A state choice the player made, for the pipeline (Pipeline::SetDeclaration) and the logs.
struct StateDeclaration {
  std::string unit, key;   // key: "state", "firing" or "limbered" (rules/states reads these)
  nlohmann::json value;    // a state name, or a boolean for the markers
};

// What can be declared for a unit of this type under the states ruleset's data: its states (the
// default first) and whether it can carry the firing and limbered markers. Empty states: none
// (generals, unknown types).
struct StateChoices {
  std::vector<std::string> states;
  bool firing = false;
  bool limbered = false;
};
StateChoices StateChoicesFor(const states::StatesConfig& config, const std::string& unit_type);

class LiveInteraction {
 public:
  // `states`: the states ruleset's data, for the state menu (nullptr: no state menu). Throws
  // std::invalid_argument for bad options.
  LiveInteraction(const InteractionOptions& options, const LiveSettings& settings,
                  const states::StatesConfig* states = nullptr);

  void SetFrame(const InteractionFrame& frame);
  void SetViewport(const cv::Rect2d& viewport_px);  // where the picture is drawn, window px
  // One input. Returns true when it changed something (selection, view, settings, state).
  bool Handle(const InputEvent& e);
  // Recomputes the dispute for the current frame (the readout follows moving units).
  void Update();

  // The view as it is now.
  bool TopDownShown() const { return settings_.top_down && frame_.registered; }
  cv::Rect2d Content() const;          // image px, or table mm with the margin
  ViewTransform View() const;          // content -> window px
  TableProjection Projection() const;  // table mm -> window px (camera through the calibration, or top-down)
  geom::Vec2 TableAt(const cv::Point2d& window_px) const;  // NaN when off the table plane
  cv::Point2d WindowPxOf(const geom::Vec2& table_mm) const;
  std::string UnitAt(const geom::Vec2& table_mm) const;    // "" = none

  const LiveSettings& settings() const { return settings_; }
  LiveSettings& settings() { return settings_; }
  const cv::Rect2d& viewport() const { return viewport_; }

  const std::string& pick_a() const { return pick_a_; }
  const std::string& pick_b() const { return pick_b_; }
  const std::optional<geom::Vec2>& pick_point() const { return pick_point_; }
  const std::optional<Dispute>& dispute() const { return dispute_; }
  const std::string& dispute_error() const { return dispute_error_; }
  // The measured gap and the selected units' outlines, to draw over the rules' primitives.
  std::vector<DrawPrimitive> ExtraPrimitives() const;

  const std::string& evidence_note() const { return evidence_note_; }
  const std::vector<EvidenceFiles>& evidence_saved() const { return evidence_saved_; }

  // The state menu: a right click on a unit opens it for that unit ("" = closed).
  const std::string& state_menu_unit() const { return state_menu_unit_; }
  const cv::Point2d& state_menu_at_px() const { return state_menu_at_px_; }  // where it was asked for, window px
  void CloseStateMenu() { state_menu_unit_.clear(); }
  // The choices for a unit of the scene (empty without states data or for a unit without states).
  StateChoices ChoicesFor(const std::string& unit) const;
  // The ruleset's own declarations for a unit (Kings of War's orders and flags): the menu offers
  // them beside the states and Declare checks them. `choices`: for a unit of the frame's scene.
  using RulesetChoices = std::function<std::vector<DeclarationChoice>(const Scene& scene, const Unit& unit)>;
  void SetRulesetChoices(RulesetChoices choices) { ruleset_choices_ = std::move(choices); }
  std::vector<DeclarationChoice> RulesetChoicesFor(const std::string& unit) const;
  const std::string& state_note() const { return state_note_; }
  // The declarations made since the last call, in order.
  std::vector<StateDeclaration> TakeDeclarations();
  // A: the players have read the move verdicts on the picture (true once per press).
  bool TakeAcknowledge();
  // Every declaration made while the program runs: unit -> key -> value.
  const std::map<std::string, std::map<std::string, nlohmann::json>>& declared() const { return declared_; }

  bool paused() const { return paused_; }
  bool quit_requested() const { return quit_; }

 private:
  bool MouseDown(const InputEvent& e);  // each returns true when the view or the selection changed
  bool MouseMove(const InputEvent& e);
  bool MouseUp(const InputEvent& e);
  void Click(const cv::Point2d& p);
  void ContextClick(const cv::Point2d& p);
  bool KeyPressed(int key);
  bool Declare(const std::string& unit, const std::string& key, const nlohmann::json& value);
  void ClearSelection();
  void SaveEvidenceNow();
  ViewState& CurrentViewState();

  InteractionOptions o_;
  LiveSettings settings_;
  RulesetChoices ruleset_choices_;
  const states::StatesConfig* states_ = nullptr;
  InteractionFrame frame_;
  cv::Rect2d viewport_{0, 0, 1280, 720};

  std::string pick_a_, pick_b_;
  std::optional<geom::Vec2> pick_point_;
  std::optional<Dispute> dispute_;
  std::string dispute_error_, evidence_note_, state_note_, state_menu_unit_;
  std::vector<EvidenceFiles> evidence_saved_;
  cv::Point2d state_menu_at_px_{0, 0};

  bool drag_right_ = false, drag_middle_ = false;
  cv::Point2d drag_last_{0, 0}, right_pressed_at_{0, 0};
  bool right_panning_ = false;  // the right press left the click slop: it is a pan, not a click

  std::vector<StateDeclaration> pending_;
  std::map<std::string, std::map<std::string, nlohmann::json>> declared_;
  bool paused_ = false, quit_ = false;
  bool acknowledged_ = false;  // A pressed since TakeAcknowledge
};

}  // namespace vedette::ui
