// vedette calibrate --board SPEC --out cam.yaml IMAGES_OR_VIDEOS...
// vedette calibrate --board SPEC --out cam.yaml --camera N | --video FILE [--headless] [--auto-save]
// Files: every input searched, the views calibrated at once. Camera or video: a live session
// (calibration/calibration_session.h) keeps views one by one, in a window showing what is still
// missing (ui/calibration_window.h) or, without a display, one printed line per kept view.
// Either way a calibration too uncertain to use is refused (exit 2, the file not written).
#include <iostream>

#include "app/command.h"
#include "app/output_paths.h"
#include "calibration/calibration_inputs.h"
#include "calibration/calibration_session.h"
#include "calibration/intrinsic_calibration.h"
#include "ui/calibration_window.h"
#include "pipeline/frame_source.h"
#include "ui/live_window.h"
#include "rules/input_error.h"

namespace vedette::app {
namespace {

struct CalibrateArgs {
  std::string board, out;
  std::vector<std::string> inputs;
  int max_views = 30;
  bool raw_charuco = false;
  int camera = -1;             // live session from this webcam
  std::string video;           // live session from this video, frames in order
  bool headless = false;       // no window even when there is a display
  bool auto_save = false;      // camera: save as soon as there is enough
  int max_frames = -1;         // live: stop after this many frames (tests); -1: no limit
  std::string screenshot;      // live window: PNG of the window as it closes
};

void PrintResult(const calib::CalibrationResult& result, const std::string& out) {
  calib::ThrowIfRefused(result, out);
  AtomicOutput file(out);  // a failed or killed write leaves the old camera file, never half of one
  calib::SaveCalibration(result, file.temp_path());
  file.Commit();
  std::cout << calib::CalibrationSummary(result) << "wrote " << out << "\n";
  for (const auto& w : result.warnings) std::cerr << "vedette: warning: " << w << "\n";
}

void CalibrateFiles(const CalibrateArgs& args, const calib::BoardSpec& board, const calib::BoardDetectionOptions& detection) {
  calib::VideoSamplingOptions sampling;
  sampling.max_views = args.max_views;
  if (std::string error; !sampling.Check(&error)) throw InputError("--max-views", 0, error);
  std::vector<calib::BoardView> views;
  for (const std::string& input : args.inputs) {
    if (calib::IsVideoPath(input)) {
      auto more = calib::ViewsFromVideo(detection, sampling, board, input);
      if (more.empty()) {
        calib::BoardView none;  // reported as "board not found"
        none.source = input;
        views.push_back(none);
      }
      for (auto& v : more) views.push_back(std::move(v));
    } else {
      views.push_back(calib::ViewFromImage(detection, board, input));
    }
  }
  PrintResult(calib::CalibrateIntrinsics({}, board, views), args.out);
}

// How a live session ended: whether to write, and what the source was.
struct SessionEnd {
  bool save = false;        // asked for (key, --auto-save, a camera without a window) or the video ended
  bool closed = false;      // the window was closed before the source ended and without saving
};

// Without a window: every frame in order, a line per kept view. A camera stops at "enough" (no key
// can be pressed), a video at its end (or at "enough" with --auto-save).
SessionEnd RunHeadless(const CalibrateArgs& args, pipeline::FrameSource& source, calib::CalibrationSession& session) {
  const bool camera = args.video.empty();
  cv::Mat frame;
  double t_s = 0;
  for (int n = 0; args.max_frames < 0 || n < args.max_frames; ++n) {
    if (!source.Next(&frame, &t_s)) break;
    if (session.AddFrame(frame, source.name() + "#frame " + std::to_string(n)))
      std::cout << calib::KeptViewLine(session.state()) << std::endl;
    if (session.state().enough && (camera || args.auto_save)) return {true, false};
  }
  return {!camera, false};
}

SessionEnd RunWindow(const CalibrateArgs& args, pipeline::FrameSource& source, calib::CalibrationSession& session) {
  ui::CalibrationWindowOptions wo;
  wo.max_frames = args.max_frames;
  wo.auto_save = args.auto_save;
  wo.screenshot_path = args.screenshot;
  wo.title = "Vedette - calibrate " + source.name();
  const ui::CalibrationWindowResult r = ui::RunCalibrationWindow(
      wo, source, session, [&] { std::cout << calib::KeptViewLine(session.state()) << std::endl; });
  const bool video_ended = !args.video.empty() && r.source_ended;
  return {r.save_requested || video_ended, !r.save_requested && !r.source_ended};
}

void CalibrateLive(const CalibrateArgs& args, const calib::BoardSpec& board, const calib::BoardDetectionOptions& detection) {
  calib::CalibrationSessionOptions so;
  so.detection = detection;
  calib::CalibrationSession session(so, board);
  std::unique_ptr<pipeline::FrameSource> source =
      args.video.empty() ? pipeline::OpenCamera(args.camera) : pipeline::OpenVideo(args.video);
  std::string why;
  bool headless = args.headless;
  if (!headless && !ui::DisplayAvailable(&why)) {
    std::cerr << "vedette: " << why << ": calibrating without a window\n";
    headless = true;
  }
  const SessionEnd end = headless ? RunHeadless(args, *source, session) : RunWindow(args, *source, session);
  const calib::SessionState& s = session.state();
  if (end.closed && s.enough) {
    std::cerr << "vedette: the window was closed without saving (Enter or S saves); " << args.out << " not written\n";
    SetExitCode(1);
    return;
  }
  if (!s.enough || !s.calibration) {
    std::string list;
    for (const std::string& m : s.missing) list += "\n  - " + m;
    const std::string kept = std::to_string(s.kept.size()) + (s.kept.size() == 1 ? " view" : " views");
    throw InputError(args.video.empty() ? source->name() : args.video, 0,
                     "not enough for a calibration after " + std::to_string(s.frames) + " frames (" + kept +
                         " kept); " + args.out + " not written. Still missing:" + list);
  }
  if (!end.save) {  // a camera in a window closed by the source itself (unplugged) while enough
    std::cerr << "vedette: " << source->name() << " stopped before saving; " << args.out << " not written\n";
    SetExitCode(1);
    return;
  }
  PrintResult(*s.calibration, args.out);
}

void SetupCalibrate(CLI::App& root) {
  auto args = std::make_shared<CalibrateArgs>();
  CLI::App* cmd = root.add_subcommand(
      "calibrate",
      "Lens intrinsics from photos or videos of a calibration board, or live from a camera; writes an OpenCV\n"
      "camera file (camera_matrix, distortion_coefficients, image_width, image_height, avg_reprojection_error, ...)");
  cmd->add_option("--board", args->board,
                  "charuco:COLSxROWS:SQUARE_MM:MARKER_MM:DICT (squares, e.g. charuco:5x7:40:20:DICT_6X6_250) or\n"
                  "chessboard:COLSxROWS:SQUARE_MM (inner corners, e.g. chessboard:9x6:25)")
      ->required();
  cmd->add_option("--out", args->out, "Camera file to write (YAML)")->required();
  cmd->add_option("inputs", args->inputs, "Images and/or videos of the board");
  cmd->add_option("--camera", args->camera, "Calibrate live from this webcam (0 = /dev/video0)");
  cmd->add_option("--video", args->video, "A recorded camera video, treated as a camera (frames in order)");
  cmd->add_flag("--headless", args->headless,
                "--camera/--video: no window (also when there is no display); a line per kept view; a camera\n"
                "then saves as soon as there is enough");
  cmd->add_flag("--auto-save", args->auto_save, "--camera/--video: save as soon as there is enough");
  cmd->add_option("--max-frames", args->max_frames, "--camera/--video: stop after this many frames");
  cmd->add_option("--screenshot", args->screenshot, "--camera/--video window: PNG of the window as it closes");
  cmd->add_option("--max-views", args->max_views, "Views taken from each video file input (default 30)");
  cmd->add_flag("--raw-charuco", args->raw_charuco,
                "Keep OpenCV 4.6's ChArUco corners as they are (+0.5 px bias); for comparison only");
  cmd->callback([args] {
    const bool live = args->camera >= 0 || !args->video.empty();
    if (args->camera >= 0 && !args->video.empty())
      throw InputError("--camera", 0, "--camera and --video exclude each other: give one");
    if (live && !args->inputs.empty())
      throw InputError(args->video.empty() ? "--camera" : "--video", 0,
                       "cannot be combined with image or video files (" + args->inputs.front() +
                           "): calibrate from files, or from --camera/--video");
    if (!live && args->inputs.empty())
      throw InputError("calibrate", 0, "give images or videos of the board, or --camera N, or --video FILE");
    std::vector<std::string> inputs = args->inputs;
    if (!args->video.empty()) inputs.push_back(args->video);
    CheckOutputs({{args->out, "--out"}}, inputs);
    const calib::BoardSpec board = calib::ParseBoardSpec(args->board);
    calib::BoardDetectionOptions detection;
    detection.correct_charuco_bias = !args->raw_charuco;
    if (live)
      CalibrateLive(*args, board, detection);
    else
      CalibrateFiles(*args, board, detection);
  });
}

VEDETTE_COMMAND("calibrate", SetupCalibrate);

}  // namespace
}  // namespace vedette::app
