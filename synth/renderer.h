#pragma once
// The synthetic camera: draws a scene file as a calibrated webcam would see it, with the ground
// truth beside it. Tests, the accuracy benchmark and the demo clips all stand on it.
//
// Design: inverse mapping. Every output pixel's viewing ray (exact inverse of the lens model,
// cached per camera) is intersected with the table plane and with the tops of the bases (each at
// its marker's height) and their side walls; the nearest surface gives the colour, sampled from
// analytic content (marker cells, the white quiet zone, base tops, anchors, occluders) and a table
// texture. Pixels whose footprint touches a base, an anchor or an occluder are supersampled
// n x n, so an edge lands where the geometry says to a small fraction of a pixel; the plain table
// takes one sample. Then the camera, in image space (synth/camera_effects.h): uneven lighting and
// vignetting, glare, defocus and motion blur, sensor noise at an exposure, 8-bit quantisation,
// JPEG/MJPEG and H.264.
// Steps are timed so a video of a few hundred 1080p frames stays practical: the ray map is built
// once per camera (SceneRenderer), a frame then costs the per-pixel pass and the image filters.
#include <array>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <opencv2/aruco.hpp>

#include "calibration/camera_model.h"
#include "rules/scene/scene.h"
#include "synth/camera_effects.h"
#include "vision/marker_geometry.h"

namespace vedette::synth {

// The camera's own effects (light, glare, blur, noise, codec) come from CameraEffects
// (synth/camera_effects.h); these are the scene's.
struct RenderOptions : CameraEffects {
  int supersample = 4;                  // samples per pixel side on edges (n x n); 1..8
  int occluders = 0;                    // hand-sized blobs held 40-150 mm above the table
  double quiet_zone_cells = 1.0;        // white margin around a unit's marker, in marker cells (clipped to the base top)
  double anchor_quiet_zone_cells = 2.0; // white margin around an anchor, in marker cells
  double base_height_mm = 3.0;          // top of a base without a marker height, mm
  bool draw_terrain = true;             // terrain polygons tinted into the table texture
  uint64_t seed = 1;                    // noise, lighting, table texture, occluders
  bool Check(std::string* error) const;
};

// Where one marker ended up in the image.
struct MarkerTruth {
  std::string unit;                      // unit ID; "" for an anchor
  vision::MarkerPlacement placement;             // table frame
  std::array<cv::Point2d, 4> corners_px; // distorted image px, OpenCV's order
  double side_px = 0.0;                  // mean side length, px
  double cell_px = 0.0;                  // side_px / cells per side (incl. the border), px
  bool in_image = false;                 // every corner at least 3 px inside the image
  double occluded_fraction = 0.0;        // of the marker square hidden by occluders or other bases
};

struct RenderTruth {
  cv::Size image_size;
  std::vector<MarkerTruth> markers;      // every unit marker, then every anchor
  std::vector<std::pair<std::string, Pose>> units;  // every placed unit's true pose
  double render_ms = 0.0;                // time of this frame, ms
};

struct Rendering {
  cv::Mat image;  // 8-bit BGR
  RenderTruth truth;
};

class SceneRenderer {
 public:
  // Builds the ray map of the camera (about a second for 4K on one core).
  explicit SceneRenderer(const calib::CameraIntrinsics& intrinsics);

  // Throws vedette::InputError (naming the scene file and unit line) for a marker ID outside the
  // dictionary, and std::invalid_argument for bad options.
  Rendering Render(const RenderOptions& options, const Scene& scene, const calib::CameraFromTable& camera_from_table,
                   const cv::aruco::Dictionary& dictionary) const;

  const calib::CameraIntrinsics& intrinsics() const { return intrinsics_; }

 private:
  // The table cloth's texture depends only on the table, its terrain and the noise seed, and costs
  // more than the rest of a frame (blurs up to 90 mm wide over every mm of the table): a clip makes
  // it once. The generator's state after it is kept too, so every frame's noise is as before.
  struct TextureCache {
    std::mutex mutex;
    std::string key;
    cv::Mat texture;
    uint64_t rng_after = 0;
  };
  cv::Mat TableTexture(const Scene& scene, const RenderOptions& options, cv::RNG& rng) const;

  calib::CameraIntrinsics intrinsics_;
  cv::Mat corner_rays_;  // CV_32FC2, (H + 1) x (W + 1), see PixelCornerRays
  std::shared_ptr<TextureCache> texture_cache_ = std::make_shared<TextureCache>();
};

// Ground truth as JSON: {"image_size":[w,h], "units":[{"id","x_mm","y_mm","heading_deg"}],
// "markers":[{"id","unit"|"anchor":true,"corners":[[x,y]x4],"side_px","in_image","occluded_fraction",
// "centre_mm":[x,y],"heading_deg","size_mm","height_mm"}]}
nlohmann::json ToJson(const RenderTruth& truth);

}  // namespace vedette::synth
