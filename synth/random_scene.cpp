#include "synth/random_scene.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <opencv2/core.hpp>

#include "calibration/dictionary.h"

namespace vedette::synth {

bool RandomSceneOptions::Check(std::string* error) const {
  auto fail = [&](const std::string& m) { if (error) *error = m; return false; };
  if (!(table_width_mm >= 200 && table_depth_mm >= 200)) return fail("table must be at least 200 x 200 mm");
  if (bases < 0) return fail("bases must be >= 0");
  if (!(marker_min_mm > 0 && marker_max_mm >= marker_min_mm)) return fail("need 0 < marker_min_mm <= marker_max_mm");
  if (!(marker_height_max_mm >= 0)) return fail("marker_height_max_mm must be >= 0");
  if (!(anchor_size_mm > 0 && anchor_inset_mm > 0.9 * anchor_size_mm)) return fail("anchor_inset_mm must exceed 0.9 x anchor_size_mm (the paper with its quiet zone)");
  return true;
}

Scene MakeRandomScene(const RandomSceneOptions& o) {
  std::string error;
  if (!o.Check(&error)) throw std::invalid_argument("RandomSceneOptions: " + error);
  const auto dict = calib::DictionaryByName(o.dictionary);
  if (calib::DictionarySize(*dict) < o.bases + 4)
    throw std::invalid_argument("RandomSceneOptions: " + o.dictionary + " has too few IDs for " + std::to_string(o.bases) + " bases");
  cv::RNG rng(o.seed * 0x2545F4914F6CDD1DULL + 7);
  Scene s;
  s.source = "random_scene_" + std::to_string(o.seed);
  s.table_width_mm = o.table_width_mm;
  s.table_depth_mm = o.table_depth_mm;
  s.dictionary = o.dictionary;
  s.sides = {{"blue", 0, ""}, {"red", 0, ""}};
  const double in = o.anchor_inset_mm, W = o.table_width_mm, D = o.table_depth_mm;
  const cv::Point2d anchor_at[4] = {{in, in}, {W - in, in}, {W - in, D - in}, {in, D - in}};
  for (int i = 0; i < 4; ++i) {
    Anchor a;
    a.marker = i;
    a.size_mm = o.anchor_size_mm;
    a.x_mm = anchor_at[i].x;
    a.y_mm = anchor_at[i].y;
    a.heading_deg = 90.0 * ((i + 1) % 4);
    s.anchors.push_back(a);
  }
  // Keep-out circles: anchors (with their quiet zone) and placed bases.
  std::vector<std::pair<cv::Point2d, double>> taken;
  for (const auto& p : anchor_at) taken.push_back({p, o.anchor_size_mm});
  int next_id = 4;
  for (int tries = 0; int(s.units.size()) < o.bases && tries < o.bases * 200; ++tries) {
    const double size = rng.uniform(o.marker_min_mm, o.marker_max_mm);
    // The base holds the marker with at least one cell of white around it and a rim.
    const double width = std::max(40.0, size * 1.6), depth = std::max(20.0, size * 1.6);
    const double radius = 0.5 * std::hypot(width, depth);
    const cv::Point2d c(rng.uniform(radius + 5, W - radius - 5), rng.uniform(radius + 5, D - radius - 5));
    bool free = true;
    for (const auto& [p, r] : taken) free = free && cv::norm(p - c) > r + radius + 2;
    if (!free) continue;
    taken.push_back({c, radius});
    Unit u;
    u.id = "U" + std::to_string(s.units.size() + 1);
    u.side = s.units.size() % 2 ? "red" : "blue";
    u.line = int(s.units.size()) + 1;
    BaseSpec b;
    b.width_mm = width;
    b.depth_mm = depth;
    u.bases = {b};
    u.pose = Pose{c.x, c.y, rng.uniform(-180.0, 180.0)};
    MarkerMount m;
    m.id = next_id++;
    m.size_mm = size;
    const double slack_x = std::max(0.0, (width - size * 1.5) / 2), slack_y = std::max(0.0, (depth - size * 1.5) / 2);
    m.offset_mm = {rng.uniform(-slack_x, slack_x + 1e-9), rng.uniform(-slack_y, slack_y + 1e-9)};
    m.heading_deg = 90.0 * rng.uniform(0, 4);
    m.height_mm = rng.uniform(0.0, o.marker_height_max_mm);
    u.marker = m;
    s.units.push_back(u);
  }
  return s;
}

SyntheticCamera MakeRandomCamera(const Scene& scene, cv::Size image_size, double max_tilt_deg, uint64_t seed) {
  cv::RNG rng(seed * 0x9E3779B97F4A7C15ULL + 99);
  SyntheticCameraOptions c;
  c.image_size = image_size;
  c.table_width_mm = scene.table_width_mm;
  c.table_depth_mm = scene.table_depth_mm;
  c.horizontal_fov_deg = rng.uniform(60.0, 75.0);
  c.tilt_deg = rng.uniform(0.0, max_tilt_deg);
  c.k1 = rng.uniform(-0.10, -0.02);
  c.k2 = rng.uniform(0.0, 0.04);
  return MakeSyntheticCamera(c);
}

}  // namespace vedette::synth
