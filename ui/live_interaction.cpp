#include "ui/live_interaction.h"

#include <algorithm>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <stdexcept>

#include "overlay/layers.h"
#include "rules/geometry/base.h"
#include "rules/path_checks.h"

namespace vedette::ui {

InputEvent InputEvent::MouseDown(MouseButton b, const cv::Point2d& p) {
  InputEvent e;
  e.type = Type::kMouseDown;
  e.button = b;
  e.pos_px = p;
  return e;
}
InputEvent InputEvent::MouseMove(const cv::Point2d& p) {
  InputEvent e;
  e.type = Type::kMouseMove;
  e.pos_px = p;
  return e;
}
InputEvent InputEvent::MouseUp(MouseButton b, const cv::Point2d& p) {
  InputEvent e;
  e.type = Type::kMouseUp;
  e.button = b;
  e.pos_px = p;
  return e;
}
InputEvent InputEvent::Wheel(const cv::Point2d& p, double notches) {
  InputEvent e;
  e.type = Type::kWheel;
  e.pos_px = p;
  e.wheel = notches;
  return e;
}
InputEvent InputEvent::Key(int key) {
  InputEvent e;
  e.type = Type::kKey;
  e.key = key;
  return e;
}
InputEvent InputEvent::Declare(const std::string& unit, const std::string& key, const nlohmann::json& value) {
  InputEvent e;
  e.type = Type::kDeclare;
  e.unit = unit;
  e.decl_key = key;
  e.value = value;
  return e;
}
InputEvent InputEvent::SaveEvidenceButton() {
  InputEvent e;
  e.type = Type::kSaveEvidence;
  return e;
}
InputEvent InputEvent::ClearButton() {
  InputEvent e;
  e.type = Type::kClearSelection;
  return e;
}

bool InteractionOptions::Check(std::string* error) const {
  auto fail = [&](const std::string& m) {
    if (error) *error = m;
    return false;
  };
  if (!(zoom_per_notch > 1.0)) return fail("zoom_per_notch must be above 1");
  if (!(click_slop_px >= 0)) return fail("click_slop_px must be zero or positive (px)");
  if (!(pick_tolerance_mm >= 0)) return fail("pick_tolerance_mm must be zero or positive (mm)");
  if (!(table_margin_mm >= 0)) return fail("table_margin_mm must be zero or positive (mm)");
  return dispute.Check(error);
}

StateChoices StateChoicesFor(const states::StatesConfig& config, const std::string& unit_type) {
  StateChoices c;
  if (auto it = config.states.find(unit_type); it != config.states.end()) c.states = it->second;
  auto carries = [&](const char* marker) {
    auto it = config.markers.find(marker);
    return it != config.markers.end() && it->second.count(unit_type) > 0;
  };
  c.firing = carries("firing");
  c.limbered = carries("limbered");
  return c;
}

LiveInteraction::LiveInteraction(const InteractionOptions& options, const LiveSettings& settings,
                                 const states::StatesConfig* states)
    : o_(options), settings_(settings), states_(states) {
  std::string error;
  if (!o_.Check(&error)) throw std::invalid_argument("interaction options: " + error);
}

void LiveInteraction::SetFrame(const InteractionFrame& frame) { frame_ = frame; }

void LiveInteraction::SetViewport(const cv::Rect2d& viewport_px) { viewport_ = viewport_px; }

cv::Rect2d LiveInteraction::Content() const {
  if (TopDownShown()) {
    const double m = o_.table_margin_mm;
    const double w = frame_.scene ? frame_.scene->table_width_mm : 0.0;
    const double d = frame_.scene ? frame_.scene->table_depth_mm : 0.0;
    return {-m, -m, w + 2 * m, d + 2 * m};
  }
  return {0, 0, static_cast<double>(frame_.image_size.width), static_cast<double>(frame_.image_size.height)};
}

ViewTransform LiveInteraction::View() const {
  const bool top = TopDownShown();
  return MakeView(top ? settings_.table_view : settings_.camera_view, Content(), viewport_, top);
}

TableProjection LiveInteraction::Projection() const {
  if (TopDownShown()) return TopDownProjection(View());
  // Without a registration there is no table in the picture: a camera projection of the identity
  // pose would put it in the wrong place, so callers check `registered` before drawing with it.
  return CameraProjection(MakeCameraView(frame_.intrinsics, frame_.camera_from_table), View());
}

geom::Vec2 LiveInteraction::TableAt(const cv::Point2d& window_px) const {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  if (!frame_.registered) return {nan, nan};
  return OutputToTable(Projection(), window_px);
}

cv::Point2d LiveInteraction::WindowPxOf(const geom::Vec2& table_mm) const { return ProjectTablePoint(Projection(), table_mm); }

std::string LiveInteraction::UnitAt(const geom::Vec2& p) const {
  if (!frame_.scene || !std::isfinite(p.x()) || !std::isfinite(p.y())) return "";
  // Inside a base first; then the nearest within the tolerance (bases side by side share edges).
  for (const Unit& u : frame_.scene->units) {
    if (!u.pose) continue;
    for (const geom::Base& b : BasesOf(u))
      if (geom::Contains(b, p)) return u.id;
  }
  for (const Unit& u : frame_.scene->units) {
    if (!u.pose) continue;
    for (const geom::Base& b : BasesOf(u))
      if (geom::Contains(b, p, o_.pick_tolerance_mm)) return u.id;
  }
  return "";
}

ViewState& LiveInteraction::CurrentViewState() { return TopDownShown() ? settings_.table_view : settings_.camera_view; }

bool LiveInteraction::Handle(const InputEvent& e) {
  using T = InputEvent::Type;
  switch (e.type) {
    case T::kMouseDown: return MouseDown(e);
    case T::kMouseMove: return MouseMove(e);
    case T::kMouseUp: return MouseUp(e);
    case T::kWheel: {
      if (e.wheel == 0) return false;
      ViewState& state = CurrentViewState();
      state = ZoomedAbout(state, View(), viewport_, e.pos_px, std::pow(o_.zoom_per_notch, e.wheel));
      return true;
    }
    case T::kKey:
      return KeyPressed(e.key);
    case T::kDeclare:
      return Declare(e.unit, e.decl_key, e.value);
    case T::kSaveEvidence:
      SaveEvidenceNow();
      return true;
    case T::kClearSelection:
      ClearSelection();
      return true;
  }
  return false;
}

bool LiveInteraction::MouseDown(const InputEvent& e) {
  if (e.button == MouseButton::kLeft) {
    Click(e.pos_px);
    return true;
  }
  if (e.button == MouseButton::kRight) {
    drag_right_ = true;
    right_pressed_at_ = e.pos_px;
    right_panning_ = false;
  } else {
    drag_middle_ = true;
  }
  drag_last_ = e.pos_px;
  return false;
}

bool LiveInteraction::MouseMove(const InputEvent& e) {
  if (!drag_right_ && !drag_middle_) return false;
  cv::Point2d delta = e.pos_px - drag_last_;
  drag_last_ = e.pos_px;
  if (drag_right_ && !right_panning_) {
    // A right press that has not left the click slop may still be a click (the state menu): no
    // pan until it leaves; then the pan catches up with the whole way from the press.
    if (cv::norm(e.pos_px - right_pressed_at_) <= o_.click_slop_px && !drag_middle_) return false;
    right_panning_ = true;
    delta = e.pos_px - right_pressed_at_;
  }
  if (delta.x == 0 && delta.y == 0) return false;
  ViewState& state = CurrentViewState();
  state = Panned(state, View(), viewport_, delta);
  return true;
}

bool LiveInteraction::MouseUp(const InputEvent& e) {
  if (e.button == MouseButton::kRight) {
    const bool click = drag_right_ && !right_panning_ && cv::norm(e.pos_px - right_pressed_at_) <= o_.click_slop_px;
    drag_right_ = false;
    if (click) {
      ContextClick(e.pos_px);
      return true;
    }
  } else if (e.button == MouseButton::kMiddle) {
    drag_middle_ = false;
  }
  return false;
}

void LiveInteraction::Click(const cv::Point2d& px) {
  if (!frame_.registered) return;  // no table in the picture: nothing to pick
  const geom::Vec2 p = TableAt(px);
  if (!std::isfinite(p.x()) || !std::isfinite(p.y())) return;
  const std::string id = UnitAt(p);
  // A, then B (a unit or a point on the table); a click after a complete pair starts over.
  if (pick_a_.empty() || !pick_b_.empty() || pick_point_) {
    pick_b_.clear();
    pick_point_.reset();
    pick_a_ = id;
  } else if (!id.empty() && id != pick_a_) {
    pick_b_ = id;
  } else if (id.empty()) {
    pick_point_ = p;
  }
  state_menu_unit_.clear();
  Update();
}

void LiveInteraction::ContextClick(const cv::Point2d& px) {
  state_menu_unit_.clear();
  if (!frame_.registered) return;
  const std::string id = UnitAt(TableAt(px));
  if (id.empty()) return;
  if (ChoicesFor(id).states.empty() && RulesetChoicesFor(id).empty()) {
    state_note_ = states_ ? id + " has no states (type " + std::string(ToString(frame_.scene->FindUnit(id)->type)) + ")" : "no states data loaded";
    return;
  }
  state_menu_unit_ = id;
  state_menu_at_px_ = px;
}

bool LiveInteraction::KeyPressed(int key) {
  if (key >= '1' && key <= '9') {
    for (const LayerInfo& l : KnownLayers())
      if (l.key == key) {
        settings_.layers.Toggle(l.name);
        return true;
      }
    return false;
  }
  switch (key) {
    case '0': settings_.layers.Toggle("measure"); return true;
    case 'T': settings_.top_down = !settings_.top_down; return true;
    case 'H':
    case kKeyF1: settings_.show_help = !settings_.show_help; return true;
    case kKeyTab: settings_.show_panels = !settings_.show_panels; return true;
    case 'S': settings_.show_setup = !settings_.show_setup; return true;
    case ' ': paused_ = !paused_; return true;
    case 'R': CurrentViewState() = ViewState{}; return true;
    case 'E': SaveEvidenceNow(); return true;
    case 'A': acknowledged_ = true; return true;
    case '+':
    case '=': settings_.text_size = std::min(3.0, settings_.text_size * 1.15); return true;
    case '-': settings_.text_size = std::max(0.6, settings_.text_size / 1.15); return true;
    case kKeyF11: settings_.full_screen = !settings_.full_screen; return true;
    case kKeyEscape:
      // The first Esc closes an open state menu, the next clears the selection.
      if (!state_menu_unit_.empty()) state_menu_unit_.clear();
      else ClearSelection();
      return true;
    case 'Q': quit_ = true; return true;
    default: return false;
  }
}

void LiveInteraction::ClearSelection() {
  pick_a_.clear();
  pick_b_.clear();
  pick_point_.reset();
  dispute_.reset();
  dispute_error_.clear();
}

void LiveInteraction::Update() {
  dispute_.reset();
  dispute_error_.clear();
  if (pick_a_.empty() || (pick_b_.empty() && !pick_point_) || !frame_.scene || !frame_.ruleset) return;
  try {
    dispute_ = pick_point_ ? SettleDisputeToPoint(o_.dispute, *frame_.ruleset, *frame_.scene, frame_.sigmas, pick_a_, *pick_point_)
                           : SettleDispute(o_.dispute, *frame_.ruleset, *frame_.scene, frame_.sigmas, pick_a_, pick_b_);
  } catch (const std::exception& e) {
    dispute_error_ = e.what();  // a unit left the table mid-dispute: say so, keep the selection
  }
}

std::vector<DrawPrimitive> LiveInteraction::ExtraPrimitives() const {
  std::vector<DrawPrimitive> prims;
  if (dispute_) prims = DisputePrimitives(*dispute_);
  if (!frame_.scene) return prims;
  for (const std::string& id : {pick_a_, pick_b_}) {
    const Unit* u = id.empty() ? nullptr : frame_.scene->FindUnit(id);
    if (!u || !u->pose) continue;
    DrawPrimitive sel;
    sel.kind = DrawKind::kPolygon;
    sel.style = DrawStyle::kMeasure;
    sel.layer = "measure";
    sel.unit_id = id;
    const auto c = geom::Corners(Footprint(*u));
    sel.points_mm.assign(c.begin(), c.end());
    prims.push_back(sel);
  }
  return prims;
}

void LiveInteraction::SaveEvidenceNow() {
  if (!dispute_ || frame_.frame.empty() || !frame_.scene) {
    evidence_note_ = "Pick unit A, then unit B or a point, first.";
    return;
  }
  EvidenceInput in;
  in.frame = frame_.frame;
  in.intrinsics = frame_.intrinsics;
  in.camera_from_table = frame_.camera_from_table;
  in.registration_rms_px = frame_.registration_rms_px;
  in.anchors_seen = frame_.anchors_seen;
  in.scene = *frame_.scene;
  in.sigmas = frame_.sigmas;
  if (frame_.primitives) in.primitives = *frame_.primitives;
  in.dispute = *dispute_;
  in.source = frame_.source;
  char stamp[32];
  const std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &local);
  const std::string base = o_.evidence_dir + "/evidence-" + stamp + "-" + dispute_->from + "-" +
                           (dispute_->to_point ? std::string("point") : dispute_->to);
  // Two saves in one second must not overwrite each other.
  std::string prefix = base;
  for (int n = 2; PathExists(prefix + ".json") || PathExists(prefix + ".png"); ++n)
    prefix = base + "-" + std::to_string(n);
  try {
    std::error_code ignored;  // a folder that cannot be made shows up as the write error below
    std::filesystem::create_directories(o_.evidence_dir, ignored);
    const EvidenceFiles files = SaveEvidence(in, prefix);
    evidence_saved_.push_back(files);
    evidence_note_ = "Saved " + files.png + " and " + files.json;
  } catch (const std::exception& e) {
    evidence_note_ = std::string("Could not save: ") + e.what();
  }
}

StateChoices LiveInteraction::ChoicesFor(const std::string& unit) const {
  if (!states_ || !frame_.scene) return {};
  const Unit* u = frame_.scene->FindUnit(unit);
  if (!u) return {};
  return StateChoicesFor(*states_, std::string(ToString(u->type)));
}

std::vector<DeclarationChoice> LiveInteraction::RulesetChoicesFor(const std::string& unit) const {
  if (!ruleset_choices_ || !frame_.scene) return {};
  const Unit* u = frame_.scene->FindUnit(unit);
  return u ? ruleset_choices_(*frame_.scene, *u) : std::vector<DeclarationChoice>{};
}

bool LiveInteraction::Declare(const std::string& unit, const std::string& key, const nlohmann::json& value) {
  const StateChoices c = ChoicesFor(unit);
  const std::vector<DeclarationChoice> own = RulesetChoicesFor(unit);
  bool ok = false;
  if (const DeclarationChoice* choice = FindChoice(own, key)) {
    ok = Accepts(*choice, value);
    if (!ok) {
      std::string valid;
      for (const std::string& v : choice->values) valid += (valid.empty() ? "" : ", ") + v;
      state_note_ = "cannot declare " + key + " = " + value.dump() + " for " + unit + ": " +
                    (choice->values.empty() ? std::string("it is on or off") : "one of " + valid);
      return false;
    }
  } else if (key == "state") {
    ok = value.is_string() && std::find(c.states.begin(), c.states.end(), value.get<std::string>()) != c.states.end();
  } else if (key == "firing") {
    ok = c.firing && value.is_boolean();
  } else if (key == "limbered") {
    ok = c.limbered && value.is_boolean();
  }
  if (!ok && !FindChoice(own, key)) {
    // The rules would stop on a state the unit's type cannot have: refuse it here, with the reason.
    const Unit* u = frame_.scene ? frame_.scene->FindUnit(unit) : nullptr;
    state_note_ = "cannot declare " + key + " = " + value.dump() + " for " + unit +
                  (u ? " (" + std::string(ToString(u->type)) + ")" : std::string(" (not in the roster)"));
    return false;
  }
  declared_[unit][key] = value;
  pending_.push_back({unit, key, value});
  state_note_ = unit + ": " + key + " = " + (value.is_string() ? value.get<std::string>() : value.dump());
  return true;
}

bool LiveInteraction::TakeAcknowledge() {
  const bool a = acknowledged_;
  acknowledged_ = false;
  return a;
}

std::vector<StateDeclaration> LiveInteraction::TakeDeclarations() {
  std::vector<StateDeclaration> out;
  out.swap(pending_);
  return out;
}

}  // namespace vedette::ui
