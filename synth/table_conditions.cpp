#include "synth/table_conditions.h"

#include <cmath>

#include "calibration/dictionary.h"
#include "synth/random_scene.h"

namespace vedette::synth {

namespace {

TableCondition Baseline() {
  TableCondition c;
  c.name = "baseline";
  c.what = "camera straight down, even light, sharp focus, a good webcam's noise, JPEG 92";
  return c;
}

TableCondition With(const std::string& name, const std::string& what, void (*change)(TableCondition&)) {
  TableCondition c = Baseline();
  c.name = name;
  c.what = what;
  change(c);
  return c;
}

}  // namespace

std::vector<TableCondition> StandardConditions() {
  return {
      Baseline(),
      With("tilt20", "camera on a stand at the table's edge, axis 20 deg from vertical", [](TableCondition& c) { c.tilt_deg = 20; }),
      With("tilt35", "camera clamped low at one side, axis 35 deg from vertical", [](TableCondition& c) { c.tilt_deg = 35; }),
      With("uneven_light", "a window on one side: that side about three times as bright as the other",
           [](TableCondition& c) { c.render.light_gradient = 0.85, c.render.vignetting = 0.3; }),
      With("glare", "a lamp reflected in glossy prints, sleeves or the mat: six saturated patches",
           [](TableCondition& c) { c.render.glare_patches = 6; }),
      With("defocus", "autofocus hunting or a fixed-focus lens too close: blur sigma 1.5 px",
           [](TableCondition& c) { c.render.blur_sigma_px = 1.5; }),
      With("motion_blur", "the table bumped or the camera shaking: a 5 px streak",
           [](TableCondition& c) { c.render.motion_blur_px = 5; }),
      With("dim_room", "a dim room: a third of the light, the camera's gain triples the noise",
           [](TableCondition& c) { c.render.exposure = 0.3, c.render.read_noise = 3; }),
      With("mjpeg", "a webcam's MJPEG stream at quality 50", [](TableCondition& c) { c.render.jpeg_quality = 50; }),
      With("h264", "a webcam's H.264 stream (x264 CRF 32, after a key frame)",
           [](TableCondition& c) { c.render.jpeg_quality = 0, c.render.h264_crf = 32; }),
      With("p720", "a 720p webcam: 16-24 mm markers come out 12-18 px",
           [](TableCondition& c) { c.image_size = {1280, 720}, c.marker_min_mm = 16, c.marker_max_mm = 24; }),
      With("p2160", "a 4K webcam", [](TableCondition& c) { c.image_size = {3840, 2160}; }),
      With("small_turned", "14-17 mm markers (15-19 px) turned about 45 deg in the image",
           [](TableCondition& c) { c.marker_min_mm = 14, c.marker_max_mm = 17, c.turned_45 = true; }),
      With("hands", "hands and arms over the table: three hand-sized blobs 40-150 mm up",
           [](TableCondition& c) { c.render.occluders = 3; }),
  };
}

ConditionTable MakeConditionTable(const TableCondition& c, const std::string& dictionary, int units, uint64_t seed) {
  RandomSceneOptions so;
  so.bases = units;
  so.marker_min_mm = c.marker_min_mm;
  so.marker_max_mm = c.marker_max_mm;
  so.dictionary = dictionary;
  so.seed = seed;
  ConditionTable t;
  t.scene = MakeRandomScene(so);
  if (c.turned_45) {
    cv::RNG rng(seed * 7919 + 3);
    // Image x runs along table x, so a marker's image angle is its heading on the table.
    for (Unit& u : t.scene.units)
      if (u.pose && u.marker) u.pose->heading_deg = 45 + 90 * rng.uniform(0, 4) + rng.uniform(-10.0, 10.0) - u.marker->heading_deg;
  }
  SyntheticCameraOptions co;
  co.image_size = c.image_size;
  co.table_width_mm = t.scene.table_width_mm;
  co.table_depth_mm = t.scene.table_depth_mm;
  cv::RNG rng(seed * 0x9E3779B97F4A7C15ULL + 99);
  co.horizontal_fov_deg = rng.uniform(60.0, 75.0);
  co.tilt_deg = c.tilt_deg;
  co.k1 = rng.uniform(-0.10, -0.02);
  co.k2 = rng.uniform(0.0, 0.04);
  t.camera = MakeSyntheticCamera(co);
  RenderOptions ro = c.render;
  ro.seed = seed;
  const auto dict = calib::DictionaryByName(dictionary);
  t.rendering = SceneRenderer(t.camera.intrinsics).Render(ro, t.scene, t.camera.camera_from_table, *dict);
  return t;
}

}  // namespace vedette::synth
