#pragma once
// `vedette live`: a GLFW + OpenGL 3 + Dear ImGui window over the pipeline.
//   - the camera frame as a texture with the overlay (ImGui draw lists, the same DrawCommands the
//     recording draws with OpenCV), or the rectified top-down table (T);
//   - pan (right or middle drag) and zoom (wheel, about the cursor) on both views, R resets;
//   - click unit A, then unit B or a point: the dispute readout with verdicts, live while units
//     move; "Save evidence" (E) writes PNG + JSON; Esc clears;
//   - right-click a unit (or the units panel): its state (eager / shaken / routed, silenced for
//     artillery; firing, limbered), a declaration the rules see from the next analysis on, logged;
//   - panels: units (state, pose, sigma, declarations), required tests, event log, calibration and
//     registration health, frame rate and per-stage timings, layers (keys 1-9), help (H), and the
//     set-up check (S: vision/view_check.h on the current frame, at most once a second);
//   - what the mouse and keys do is ui/live_interaction.h (tested without GL); this file only
//     turns GLFW/ImGui input into its events and draws;
//   - settings persist (live_settings.h); --record writes the annotated camera view + JSONL.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <opencv2/core.hpp>

#include "pipeline/frame_source.h"
#include "pipeline/headless.h"
#include "ui/live_interaction.h"
#include "pipeline/pipeline.h"
#include "overlay/view_transform.h"
#include "vision/view_check.h"

namespace vedette::overlay {}
namespace vedette::pipeline {}

namespace vedette::ui {

// The windows show the overlay (overlay/) of the frame path (pipeline/): their names are used as ours.
using namespace vedette::overlay;
using namespace vedette::pipeline;

struct LiveOptions {
  std::string title = "Vedette";
  cv::Size window_size{1280, 720};   // px
  std::string record_path;           // annotated video (.mkv/.avi); "" = none; the log goes beside it
  std::string settings_path;         // "" = DefaultSettingsDir()/live.ini
  bool save_settings = true;
  int max_frames = -1;               // close after this many source frames (tests, demo --frames); -1: run until closed
  bool realtime = true;              // pace a video or clip at its frame rate (false: as fast as it goes)
  bool close_at_end = false;         // close when the source ends (else keep showing the last frame)
  std::string screenshot_path;       // PNG of the window after the last frame ("" = none)
  std::string evidence_dir = ".";    // where "Save evidence" writes
  std::string states_config_path;    // the state menu's data; "" = AssetsDir()/rulesets/states.yaml
  std::vector<FrameSink*> extra_sinks;  // after the recording and the log (network streams: streams/); not owned
  // Tests and demos: called once per window frame, before the real mouse and keyboard; the events
  // it appends go through the same entry point as theirs (LiveInteraction::Handle). It returns
  // false when its script is over: until then the window stays open past max_frames.
  std::function<bool(const LiveInteraction& ui, int frames, std::vector<InputEvent>* events)> script;
  bool Check(std::string* error) const;
};

struct LiveResult {
  int frames = 0;                    // source frames processed
  RunSummary summary;                // frames, units, events, tests, mean timings
  cv::Mat screenshot;                // BGR, the window's framebuffer after the last frame (when asked)
  ViewTransform camera_view;         // content (image px, or table mm when top_down) -> window px, last frame
  bool top_down = false;             // the last frame showed the top-down view
  LiveSettings settings;             // as the window closed (what was saved)
  std::optional<Dispute> dispute;    // the dispute shown when the window closed
  std::vector<EvidenceFiles> evidence;  // every "Save evidence"
  std::vector<nlohmann::json> declarations;  // every state the player set, as logged
  std::optional<vision::ViewCheck> setup_check;  // the set-up panel's last check (when it was shown)
};

// True when a window can be opened (a display, and GLFW initialises); else false with the reason.
bool DisplayAvailable(std::string* why);

// Runs the window until it is closed (or max_frames). Throws std::runtime_error when the window
// or the OpenGL context cannot be made.
LiveResult RunLive(const LiveOptions& options, FrameSource& source, Pipeline& pipeline);

}  // namespace vedette::ui
