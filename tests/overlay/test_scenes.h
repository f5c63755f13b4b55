#pragma once
// Small synthetic tables shared by the overlay tests: a roster file, a clip script over it, and
// the temp folder they live in.
//
// The "flank" table, 600 x 400 mm, anchors 0-3 (40 mm) 30 mm in from the corners, 20 mm markers:
//
//   y=400 +--------------------------------+
//         | [3]                        [2] |
//         |          R2 (red, facing -y)   |
//         |   A  R                         |      A = blue infantry at (200, 200) facing +y,
//         |                                |      R = red infantry at (270, 200) facing -x:
//         | [0]                        [1] |      R stands entirely beyond A's right flank,
//   y=0   +--------------------------------+      35 mm away (< 2 BW): A's right edge is threatened.
//
// R2 (red) at (420, 300) facing -y, far from both.
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>
#include <vector>

#include <unistd.h>

namespace vedette::overlay::testing {

// The folders TempDir made, removed when the test process ends (tests hand their paths around, so
// no test-scoped owner fits; each test runs in its own process under ctest).
struct TempDirsRemovedAtExit {
  std::vector<std::filesystem::path> dirs;
  ~TempDirsRemovedAtExit() {
    std::error_code ignored;
    for (const auto& d : dirs) std::filesystem::remove_all(d, ignored);
  }
};

inline std::string TempDir(const std::string& name) {
  static TempDirsRemovedAtExit made;
  const std::filesystem::path p = std::filesystem::temp_directory_path() /
                                  ("vedette_overlay_" + name + "_" + std::to_string(::getpid()));
  std::filesystem::remove_all(p);
  std::filesystem::create_directories(p);
  made.dirs.push_back(p);
  return p.string();
}

inline void WriteFile(const std::string& path, const std::string& text) {
  std::ofstream out(path);
  out << text;
}

// The 600 x 400 mm table with its four anchors (DICT_4X4_50), blue and red sides: a roster without
// its units.
inline const std::string kFlankTable = R"(
bw_mm: 40
table: {width_mm: 600, depth_mm: 400}
dictionary: DICT_4X4_50
sides:
  blue: {colour: "#3060ff"}
  red: {colour: "#e03030"}
anchors:
  - {marker: 0, size_mm: 40, x_mm: 30, y_mm: 30, heading_deg: 90}
  - {marker: 1, size_mm: 40, x_mm: 570, y_mm: 30, heading_deg: 90}
  - {marker: 2, size_mm: 40, x_mm: 570, y_mm: 370, heading_deg: 90}
  - {marker: 3, size_mm: 40, x_mm: 30, y_mm: 370, heading_deg: 90}
)";

inline const std::string kFlankRoster = kFlankTable + R"(units:
  - {id: A, side: blue, type: infantry, formation: line, base: {width_mm: 40, depth_mm: 30},
     pose: {x_mm: 200, y_mm: 200, heading_deg: 90},
     marker: 10, marker_size_mm: 20, marker_offset_mm: [0, -2], marker_heading_deg: 0, marker_height_mm: 3}
  - {id: R, side: red, type: infantry, formation: line, base: {width_mm: 40, depth_mm: 30},
     pose: {x_mm: 270, y_mm: 200, heading_deg: 180},
     marker: 11, marker_size_mm: 20, marker_offset_mm: [0, -2], marker_heading_deg: 0, marker_height_mm: 3}
  - {id: R2, side: red, type: infantry, formation: line, base: {width_mm: 40, depth_mm: 30},
     pose: {x_mm: 420, y_mm: 300, heading_deg: -90},
     marker: 12, marker_size_mm: 20, marker_offset_mm: [0, -2], marker_heading_deg: 0, marker_height_mm: 3}
)";

// A clip over the flank table: `frames` frames at 10 fps of a WxH webcam; R2 steps 20 mm towards
// +x during the clip so that something moves.
inline std::string FlankClip(int frames, int width, int height) {
  const double duration = frames / 10.0;
  return "roster: roster.yaml\nfps: 10\nduration_s: " + std::to_string(duration) +
         "\ncamera: {image_size: [" + std::to_string(width) + ", " + std::to_string(height) +
         "], horizontal_fov_deg: 60, margin: 0.03, k1: -0.05}\n"
         "render: {supersample: 2, blur_sigma_px: 0.6, read_noise: 1.0, shot_noise: 0.01, jpeg_quality: 0, seed: 3}\n"
         "units:\n  R2:\n    keys:\n      - {t: 0.0, x_mm: 420, y_mm: 300, heading_deg: -90}\n"
         "      - {t: " + std::to_string(duration) + ", x_mm: 440, y_mm: 300, heading_deg: -90}\n";
}

// Writes roster.yaml and clip.yaml into `dir`; returns the clip's path.
inline std::string WriteFlankClip(const std::string& dir, int frames, int width, int height) {
  WriteFile(dir + "/roster.yaml", kFlankRoster);
  WriteFile(dir + "/clip.yaml", FlankClip(frames, width, height));
  return dir + "/clip.yaml";
}

}  // namespace vedette::overlay::testing
