// vedette calibrate --board SPEC --out cam.yaml IMAGES_OR_VIDEOS...
#include <iostream>

#include "app/command.h"
#include "app/output_paths.h"
#include "calibration/calibration_inputs.h"
#include "calibration/intrinsic_calibration.h"
#include "rules/input_error.h"

namespace vedette::app {
namespace {

struct CalibrateArgs {
  std::string board, out;
  std::vector<std::string> inputs;
  int max_views = 30;
  bool raw_charuco = false;
};

void SetupCalibrate(CLI::App& root) {
  auto args = std::make_shared<CalibrateArgs>();
  CLI::App* cmd = root.add_subcommand(
      "calibrate",
      "Lens intrinsics from photos or videos of a calibration board; writes an OpenCV camera file\n"
      "(camera_matrix, distortion_coefficients, image_width, image_height, avg_reprojection_error, ...)");
  cmd->add_option("--board", args->board,
                  "charuco:COLSxROWS:SQUARE_MM:MARKER_MM:DICT (squares, e.g. charuco:5x7:40:20:DICT_6X6_250) or\n"
                  "chessboard:COLSxROWS:SQUARE_MM (inner corners, e.g. chessboard:9x6:25)")
      ->required();
  cmd->add_option("--out", args->out, "Camera file to write (YAML)")->required();
  cmd->add_option("inputs", args->inputs, "Images and/or videos of the board")->required();
  cmd->add_option("--max-views", args->max_views, "Views taken from each video (default 30)");
  cmd->add_flag("--raw-charuco", args->raw_charuco,
                "Keep OpenCV 4.6's ChArUco corners as they are (+0.5 px bias); for comparison only");
  cmd->callback([args] {
    CheckOutputs({{args->out, "--out"}}, args->inputs);
    const calib::BoardSpec board = calib::ParseBoardSpec(args->board);
    calib::BoardDetectionOptions detection;
    detection.correct_charuco_bias = !args->raw_charuco;
    calib::VideoSamplingOptions sampling;
    sampling.max_views = args->max_views;
    if (std::string error; !sampling.Check(&error)) throw InputError("--max-views", 0, error);
    std::vector<calib::BoardView> views;
    for (const std::string& input : args->inputs) {
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
    const calib::CalibrationResult result = calib::CalibrateIntrinsics({}, board, views);
    AtomicOutput out(args->out);
    calib::SaveCalibration(result, out.temp_path());
    out.Commit();
    std::cout << calib::CalibrationSummary(result) << "wrote " << args->out << "\n";
    for (const auto& w : result.warnings) std::cerr << "vedette: warning: " << w << "\n";
  });
}

VEDETTE_COMMAND("calibrate", SetupCalibrate);

}  // namespace
}  // namespace vedette::app
