// vedette render-board SPEC --calib cam.yaml --video board.avi
// A synthetic calibration-board video through a camera file's lens: what `vedette calibrate
// --video` (or --camera) would see from a player showing the board as the guide says. For trying
// the calibration without a camera, and the documentation's tests.
#include <iostream>

#include "app/command.h"
#include "app/output_paths.h"
#include "calibration/board_spec.h"
#include "calibration/camera_model.h"
#include "calibration/synthetic_views.h"
#include "rules/input_error.h"

namespace vedette::app {
namespace {

struct RenderBoardArgs {
  std::string board, calib, video;
  unsigned seed = 1;
};

void SetupRenderBoard(CLI::App& root) {
  auto a = std::make_shared<RenderBoardArgs>();
  CLI::App* cmd = root.add_subcommand(
      "render-board", "Render a synthetic video of a calibration board shown to a camera (a camera file's lens): 24 poses "
                      "near and far, in every part of the picture, each held still for a moment");
  cmd->add_option("board", a->board, "charuco:COLSxROWS:SQUARE_MM:MARKER_MM:DICT or chessboard:COLSxROWS:SQUARE_MM")->required();
  cmd->add_option("--calib", a->calib, "Camera file whose lens and picture size to render through")->required();
  cmd->add_option("--video", a->video, "Video to write: .avi (Motion JPEG) or .mkv (FFV1, lossless)")->required();
  cmd->add_option("--seed", a->seed, "Tilts, turns and sensor noise (default 1)");
  cmd->callback([a] {
    CheckOutputs({{a->video, "--video"}}, {a->calib});
    const calib::BoardSpec board = calib::ParseBoardSpec(a->board);
    const calib::CameraIntrinsics k = calib::LoadIntrinsics(a->calib);
    if (k.image_size.area() <= 0) throw InputError(a->calib, 0, "the camera file gives no image_width/image_height");
    calib::SyntheticVideoOptions video;
    video.poses = calib::PlayerBoardPoses(board, k, a->seed);
    video.render.supersample = 2;
    video.render.blur_sigma_px = 0.6;   // a webcam's focus, px
    video.render.noise_sigma = 1.5;     // its sensor noise, grey levels
    video.render.seed = a->seed;
    const int frames = calib::WriteSyntheticBoardVideo(video, board, k, a->video);
    std::cout << "wrote " << a->video << ": " << frames << " frames, " << video.poses.size() << " board poses, "
              << k.image_size.width << "x" << k.image_size.height << "\n";
  });
}

VEDETTE_COMMAND("render-board", SetupRenderBoard);

}  // namespace
}  // namespace vedette::app
