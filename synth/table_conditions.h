#pragma once
// The conditions real tables have, as rendered tables with ground truth: the detector's test and
// benchmark matrix (tests/vision/table_conditions_test.cpp, bench/condition_bench.cpp). Each
// condition changes one thing from the baseline and says what it stands for at a real table.
#include <cstdint>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "rules/scene/scene.h"
#include "synth/renderer.h"
#include "synth/synthetic_camera.h"

namespace vedette::synth {

struct TableCondition {
  std::string name;                 // short key, e.g. "tilt35"
  std::string what;                 // what it stands for at a real table
  cv::Size image_size{1920, 1080};  // px
  double tilt_deg = 0;              // optical axis from straight down, deg
  double marker_min_mm = 12;        // unit marker sides drawn from this range, mm (at 1080p over a
  double marker_max_mm = 36;        //   1200 x 900 mm table: ~1.1 px/mm, so 13-40 px)
  bool turned_45 = false;           // every marker turned 35-55 degrees in the image (the hardest angle for outlines)
  RenderOptions render;             // light, glare, blur, noise, codec, hands
};

// baseline, tilt20, tilt35, uneven_light, glare, defocus, motion_blur, dim_room, mjpeg, h264,
// p720, p2160, small_turned, hands.
std::vector<TableCondition> StandardConditions();

struct ConditionTable {
  Scene scene;          // the roster with true poses (anchors 0-3, units from 4)
  SyntheticCamera camera;
  Rendering rendering;  // image and truth
};

// One table under a condition: `units` bases with markers from `dictionary` on a 1200 x 900 mm
// table, a 60-75 deg webcam at the condition's tilt. Deterministic for a seed.
ConditionTable MakeConditionTable(const TableCondition& c, const std::string& dictionary, int units, uint64_t seed);

}  // namespace vedette::synth
