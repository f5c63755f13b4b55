#pragma once
// Random but plausible tables for tests and the accuracy benchmark: a roster with poses (every unit
// one base carrying one marker, non-overlapping), four anchors near the table corners, and a webcam
// at a realistic height and tilt. Deterministic for a seed.
#include <cstdint>
#include <string>

#include "rules/scene/scene.h"
#include "synth/synthetic_camera.h"

namespace vedette::synth {

struct RandomSceneOptions {
  double table_width_mm = 1200.0;     // mm
  double table_depth_mm = 900.0;      // mm
  int bases = 60;                     // units to place (fewer if the table is full)
  double marker_min_mm = 12.0;        // marker side range, mm
  double marker_max_mm = 30.0;
  double marker_height_max_mm = 5.0;  // marker face height drawn from [0, this], mm
  double anchor_size_mm = 50.0;       // mm
  double anchor_inset_mm = 60.0;      // anchor centre from the table edges, mm (clear of the 2-cell quiet zone)
  std::string dictionary = "DICT_4X4_250";
  uint64_t seed = 1;
  bool Check(std::string* error) const;
};

// Anchors use IDs 0-3, units 4, 5, ... (the dictionary must hold bases + 4 IDs).
Scene MakeRandomScene(const RandomSceneOptions& options);

// A webcam for the table: the given resolution, height from a 60-75 deg horizontal field of view
// (seeded), tilt drawn from [0, max_tilt_deg].
SyntheticCamera MakeRandomCamera(const Scene& scene, cv::Size image_size, double max_tilt_deg, uint64_t seed);

}  // namespace vedette::synth
