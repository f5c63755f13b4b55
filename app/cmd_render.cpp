// vedette render SCENE (--calib cam.yaml | --camera WxH) --out img.png [--truth truth.json]
//                [--camera-out cam.yaml] [--seed N] [--tilt-deg D] [--height-mm H] [--blur-px S] ...
//                [--glare N] [--motion-blur-px L] [--exposure E] [--h264-crf C]
// A synthetic photo of a scene (units with poses, anchors) through a calibrated or made-up camera,
// with the ground truth beside it: for tests, benchmarks and trying `locate` without a table.
#include <cstdio>
#include <fstream>
#include <iostream>

#include <nlohmann/json.hpp>
#include <opencv2/imgcodecs.hpp>

#include "app/command.h"
#include "app/output_paths.h"
#include "calibration/dictionary.h"
#include "rules/input_error.h"
#include "rules/scene/scene_io.h"
#include "synth/renderer.h"
#include "synth/synthetic_camera.h"

namespace vedette::app {
namespace {

struct RenderArgs {
  std::string scene, calib, camera, out, truth, camera_out, dict;
  double tilt_deg = 10, height_mm = 0, fov_deg = 70;
  synth::RenderOptions render;
};

cv::Size ParseSize(const std::string& s) {
  int w = 0, h = 0;
  char x = 0;
  if (std::sscanf(s.c_str(), "%d%c%d", &w, &x, &h) != 3 || (x != 'x' && x != 'X'))
    throw InputError("--camera", 0, "expected WIDTHxHEIGHT in px, e.g. 1920x1080, got '" + s + "'");
  // 16384 px a side is past any webcam's sensor; a bigger image would take gigabytes to draw.
  constexpr int kMaxSide = 16384;
  if (w < 16 || h < 16 || w > kMaxSide || h > kMaxSide)
    throw InputError("--camera", 0, "each side must be between 16 and " + std::to_string(kMaxSide) + " px, got '" + s + "'");
  return {w, h};
}

void WriteCamera(const std::string& path, const calib::CameraIntrinsics& k, const calib::CameraFromTable& pose) {
  cv::FileStorage fs(path, cv::FileStorage::WRITE);
  if (!fs.isOpened()) throw InputError(path, 0, "cannot write the camera file");
  fs << "image_width" << k.image_size.width << "image_height" << k.image_size.height;
  fs << "camera_matrix" << cv::Mat(k.camera_matrix);
  fs << "distortion_coefficients" << k.distortion;
  fs << "avg_reprojection_error" << 0.0;
  // Not read by LoadIntrinsics: the true camera pose of the rendering, for checking registration.
  fs << "camera_from_table_rvec" << cv::Mat(calib::RvecOf(pose));
  fs << "camera_from_table_tvec_mm" << cv::Mat(pose.translation_mm);
  fs.release();
}

// The made-up webcam, or the calibrated one, placed over the scene's table.
synth::SyntheticCamera CameraFor(const RenderArgs& a, const Scene& scene) {
  synth::SyntheticCameraOptions place;
  place.table_width_mm = scene.table_width_mm;
  place.table_depth_mm = scene.table_depth_mm;
  place.tilt_deg = a.tilt_deg;
  place.height_mm = a.height_mm;
  place.horizontal_fov_deg = a.fov_deg;
  if (!a.camera.empty()) {
    place.image_size = ParseSize(a.camera);
    if (std::string error; !place.Check(&error)) throw InputError("render", 0, error);
    return synth::MakeSyntheticCamera(place);
  }
  const calib::CameraIntrinsics k = calib::LoadIntrinsics(a.calib);
  if (k.image_size.width <= 0) throw InputError(a.calib, 0, "the camera file has no image_width/image_height");
  place.image_size = k.image_size;
  if (std::string error; !place.Check(&error)) throw InputError("render", 0, error);
  return synth::PlaceCamera(k, place);
}

void WriteTruth(const std::string& path, const synth::Rendering& r, const synth::SyntheticCamera& cam) {
  nlohmann::json j = synth::ToJson(r.truth);
  const cv::Vec3d rvec = calib::RvecOf(cam.camera_from_table);
  const cv::Vec3d& t = cam.camera_from_table.translation_mm;
  j["camera_from_table"] = {{"rvec", {rvec[0], rvec[1], rvec[2]}}, {"tvec_mm", {t[0], t[1], t[2]}}};
  AtomicOutput truth_out(path);
  {
    std::ofstream f(truth_out.temp_path());
    if (!f) throw InputError(path, 0, "cannot write the truth file");
    f << j.dump(2) << "\n";
    f.close();
    if (!f) FailOnWriteError(WriteFailedMessage(path, "nothing"));
  }
  truth_out.Commit();
}

void RunRender(const RenderArgs& a) {
  if (a.calib.empty() == a.camera.empty()) throw InputError("render", 0, "give exactly one of --calib FILE and --camera WxH");
  if (std::string error; !a.render.Check(&error)) throw InputError("render", 0, error);
  CheckOutputs({{a.out, "--out"}, {a.truth, "--truth"}, {a.camera_out, "--camera-out"}}, {a.scene, a.calib});
  const Scene scene = LoadScene(a.scene, SceneLoadOptions{.require_poses = false});
  const std::string dict_name = !a.dict.empty() ? a.dict : scene.dictionary;
  if (dict_name.empty()) throw InputError(a.scene, 0, "the scene names no `dictionary:` (or give --dict)");
  const cv::Ptr<cv::aruco::Dictionary> dict = calib::ResolveDictionary(dict_name);
  const synth::SyntheticCamera cam = CameraFor(a, scene);
  const synth::Rendering r = synth::SceneRenderer(cam.intrinsics).Render(a.render, scene, cam.camera_from_table, *dict);
  AtomicOutput image_out(a.out);
  if (!cv::imwrite(image_out.temp_path(), r.image)) throw InputError(a.out, 0, "cannot write the image");
  image_out.Commit();
  if (!a.truth.empty()) WriteTruth(a.truth, r, cam);
  if (!a.camera_out.empty()) {
    AtomicOutput camera_out(a.camera_out);
    WriteCamera(camera_out.temp_path(), cam.intrinsics, cam.camera_from_table);
    camera_out.Commit();
  }
  std::fprintf(stderr, "rendered %dx%d, %zu markers, camera %.0f mm above the table, %.0f ms\n", r.image.cols, r.image.rows,
               r.truth.markers.size(), cam.centre_in_table_mm.z, r.truth.render_ms);
}

void SetupRender(CLI::App& root) {
  auto a = std::make_shared<RenderArgs>();
  CLI::App* cmd = root.add_subcommand("render", "Draw a synthetic camera photo of a scene file, with its ground truth");
  cmd->add_option("scene", a->scene, "Scene or roster file; units with a pose and a marker are drawn")->required();
  cmd->add_option("--calib", a->calib, "Camera file (intrinsics) to render through");
  cmd->add_option("--camera", a->camera, "A made-up webcam of this size instead, e.g. 1920x1080");
  cmd->add_option("--fov-deg", a->fov_deg, "Horizontal field of view of the made-up webcam, deg (default 70)");
  cmd->add_option("--tilt-deg", a->tilt_deg, "Optical axis from straight down, towards player B, deg (default 10)");
  cmd->add_option("--height-mm", a->height_mm, "Camera height above the table, mm (default: the table fills the view)");
  cmd->add_option("--dict", a->dict, "Dictionary when the scene names none");
  cmd->add_option("--out", a->out, "Image to write (PNG keeps the pixels exact; JPEG compression is --jpeg)")->required();
  cmd->add_option("--truth", a->truth, "Ground truth JSON: unit poses, marker corners in px");
  cmd->add_option("--camera-out", a->camera_out, "Write the camera used (intrinsics + true pose) as a camera file");
  cmd->add_option("--seed", a->render.seed, "Noise, lighting, texture and occluder seed (default 1)");
  cmd->add_option("--supersample", a->render.supersample, "Samples per pixel side on edges, 1-8 (default 4)");
  cmd->add_option("--blur-px", a->render.blur_sigma_px, "Optical blur, Gaussian sigma, px (default 0.8)");
  cmd->add_option("--read-noise", a->render.read_noise, "Sensor read noise, grey levels (default 2)");
  cmd->add_option("--shot-noise", a->render.shot_noise, "Photon noise factor (default 0.03)");
  cmd->add_option("--light-gradient", a->render.light_gradient, "Uneven lighting, fraction (default 0.25)");
  cmd->add_option("--vignetting", a->render.vignetting, "Light lost in the corners, fraction (default 0.2)");
  cmd->add_option("--jpeg", a->render.jpeg_quality, "JPEG quality 1-100 applied in memory, 0 = none (default 92)");
  cmd->add_option("--occluders", a->render.occluders, "Hand-sized blobs above the table (default 0)");
  cmd->add_option("--glare", a->render.glare_patches, "Specular glare patches (a lamp in glossy prints or sleeves) (default 0)");
  cmd->add_option("--glare-radius-px", a->render.glare_radius_px, "A glare patch's half-strength radius, px (default 40)");
  cmd->add_option("--motion-blur-px", a->render.motion_blur_px, "Motion blur streak length, px (default 0)");
  cmd->add_option("--motion-blur-deg", a->render.motion_blur_deg, "Motion blur direction, deg from +x (default 30)");
  cmd->add_option("--exposure", a->render.exposure, "Light collected relative to a well-lit table; noise grows as 1/exposure (default 1; 0.3: dim room)");
  cmd->add_option("--h264-crf", a->render.h264_crf, "H.264 compression through ffmpeg's x264 at this CRF, 0 = none (webcams ~28-35) (default 0)");
  cmd->callback([a] { RunRender(*a); });
}

VEDETTE_COMMAND("render", SetupRender);

}  // namespace
}  // namespace vedette::app
