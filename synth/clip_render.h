#pragma once
// Renders a clip script (synth/clip_script.h) frame by frame through the SceneRenderer, into memory
// (tests feed the tracker directly) or into a video file with a ground-truth JSONL beside it.
//
// Design: the scene is rendered clean (no blur, noise or JPEG) with a fixed seed, so the table
// texture and lighting stay the same from frame to frame, and the clean image is reused while
// nothing on the table or the camera moves. Hands are then composited in image space (their
// outline, held at height_mm, projected through the lens, anti-aliased), and the camera effects the
// renderer would apply follow per frame: optical blur over everything (hands included), sensor noise
// with a per-frame seed (a real sensor's noise changes every frame), quantisation and JPEG.
//
// Truth line per frame (JSONL, one object per line):
//   {"frame":0,"t":0.0,"camera_from_table":{"rvec":[..],"tvec_mm":[..]},
//    "units":[{"id":"B1","state":"on_table"|"lifted"|"absent"|"removed","x_mm":..,"y_mm":..,
//              "heading_deg":..,"marker_side_px":..,"occluded_fraction":..,"in_image":true,
//              "corners":[[x,y]x4]}],
//    "hands":[{"x_mm":..,"y_mm":..,"radius_mm":..,"height_mm":..}]}
// Pose fields of a lifted or removed unit are where it last stood; corners only for units on the table.
#include <functional>
#include <string>

#include <nlohmann/json.hpp>
#include <opencv2/aruco.hpp>
#include <opencv2/core.hpp>

#include "synth/clip_script.h"
#include "synth/renderer.h"

namespace vedette::synth {

struct ClipFrame {
  int frame = 0;
  double t = 0;                 // s
  cv::Mat image;                // 8-bit BGR
  ClipMoment moment;            // what is true at this frame
  RenderTruth render_truth;     // markers as the renderer placed them (occluded_fraction includes hands)
  nlohmann::json truth;         // the truth line (see above)
  double render_ms = 0;         // ms for this frame
};

class ClipRenderer {
 public:
  // Builds the synthetic camera and its ray map (about a second at 4K).
  explicit ClipRenderer(ClipScript script);

  int FrameCount() const { return script_.FrameCount(); }
  ClipFrame Render(int frame);  // deterministic for a given script and frame

  const ClipScript& script() const { return script_; }
  const calib::CameraIntrinsics& intrinsics() const { return camera_.intrinsics; }
  const calib::CameraFromTable& initial_camera_from_table() const { return camera_.camera_from_table; }
  const cv::aruco::Dictionary& dictionary() const { return *dictionary_; }

 private:
  ClipScript script_;
  SyntheticCamera camera_;
  cv::Ptr<cv::aruco::Dictionary> dictionary_;
  SceneRenderer renderer_;
  // The last clean rendering and what it showed, reused while nothing moves.
  std::string cached_key_;
  Rendering cached_;
};

// Writes the intrinsics as OpenCV's calibration sample does (camera_matrix, distortion_coefficients,
// image_width, image_height, avg_reprojection_error), so `vedette track --calib` reads it.
void WriteIntrinsicsYaml(const calib::CameraIntrinsics& k, const std::string& path);

struct ClipVideoSummary {
  int frames = 0;
  std::string codec;          // fourcc written
  double render_ms_mean = 0;  // per frame, ms
  double seconds = 0;         // wall time, s
};

// Renders every frame into video_path (.mkv or .mp4: mp4v in Matroska, which survives a crash
// mid-write; .avi: MJPG) and truth_path (JSONL; "" for none). progress(frame, frames) after each
// frame (may be empty). Throws std::runtime_error when the video cannot be opened for writing.
ClipVideoSummary WriteClipVideo(ClipRenderer& renderer, const std::string& video_path, const std::string& truth_path,
                                const std::function<void(int, int)>& progress = {});

}  // namespace vedette::synth
