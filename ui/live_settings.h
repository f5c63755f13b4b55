#pragma once
// What the live window remembers between runs: hidden layers, which view is shown, each view's
// zoom and centre, the help and set-up panels. A small INI beside ImGui's own imgui.ini, in
// $XDG_CONFIG_HOME/vedette (else ~/.config/vedette): key = value lines, unknown keys ignored, so
// an older or newer file never stops the window from opening.
#include <string>

#include "overlay/layers.h"
#include "overlay/view_transform.h"

namespace vedette::overlay {}
namespace vedette::pipeline {}

namespace vedette::ui {

// The windows show the overlay (overlay/) of the frame path (pipeline/): their names are used as ours.
using namespace vedette::overlay;
using namespace vedette::pipeline;

struct LiveSettings {
  LayerVisibility layers;
  bool top_down = false;      // show the rectified table instead of the camera picture
  bool show_help = false;     // the keyboard help panel (H; the panel's first line says so)
  bool show_panels = true;    // the side panels
  bool show_setup = false;    // the set-up check panel (S): the camera's view judged, READY or not
  double text_size = 1.0;     // overlay text and lines, times the window's own scale (+ and -: 0.6..3)
  bool full_screen = false;   // F11
  ViewState camera_view;      // content: image px
  ViewState table_view;       // content: table mm
};

// $XDG_CONFIG_HOME/vedette, else $HOME/.config/vedette, else "." (created when saving).
std::string DefaultSettingsDir();

// Missing or unreadable file: the defaults.
LiveSettings LoadLiveSettings(const std::string& path);
// The same from the file's text: lines that cannot be used are skipped, never refused.
LiveSettings ParseLiveSettings(const std::string& text);
// Creates the folder; false when the file cannot be written.
bool SaveLiveSettings(const LiveSettings& settings, const std::string& path);

}  // namespace vedette::ui
