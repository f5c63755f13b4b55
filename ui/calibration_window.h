#pragma once
// The window of `vedette calibrate --camera N` (and `--video FILE` with a display): the camera frame
// with the board's corners found in it, the coverage grid with the cells that still lack views
// shaded red, the kept views' outlines, and a panel with the views kept, the RMS, the focal length
// and what is still missing, or "ENOUGH - press Enter/S to save". The session
// (calibration/calibration_session.h) decides everything; this file only feeds it frames and draws
// its state. Keys: Enter or S saves once there is enough; Esc closes without saving.
#include <functional>
#include <string>

#include <opencv2/core.hpp>

#include "calibration/calibration_session.h"
#include "pipeline/frame_source.h"

namespace vedette::overlay {}
namespace vedette::pipeline {}

namespace vedette::ui {

// The windows show the overlay (overlay/) of the frame path (pipeline/): their names are used as ours.
using namespace vedette::overlay;
using namespace vedette::pipeline;

struct CalibrationWindowOptions {
  std::string title = "Vedette - calibrate";
  cv::Size window_size{1280, 720};  // px
  int max_frames = -1;              // stop reading after this many source frames (tests); -1: no limit
  bool auto_save = false;           // close as soon as the session has enough (else wait for Enter / S)
  bool close_at_end = true;         // close when the source ends (a video); else keep showing the last frame
  std::string screenshot_path;      // PNG of the window as it closes ("" = none)
  // Tests: called once per window frame with the session's state; true taps the S key in that
  // frame (through ImGui's keyboard state, as a real key press arrives), at most every other frame.
  std::function<bool(const calib::SessionState&)> tap_save_key;
  bool Check(std::string* error) const;
};

struct CalibrationWindowResult {
  int frames = 0;               // source frames fed to the session
  bool save_requested = false;  // Enter / S (or auto_save) while the session had enough
  bool source_ended = false;    // the source ran out (or max_frames was reached)
  cv::Mat screenshot;           // BGR, when asked
};

// Runs the window until the source ends (close_at_end), a save is asked for, or the window is
// closed. `on_kept` is called after every frame the session keeps (the command prints a line).
// Throws std::runtime_error when no window can be opened.
CalibrationWindowResult RunCalibrationWindow(const CalibrationWindowOptions& options, FrameSource& source,
                                             calib::CalibrationSession& session,
                                             const std::function<void()>& on_kept = {});

}  // namespace vedette::ui
