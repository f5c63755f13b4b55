#pragma once
// The small table several test folders share (clip scripts, the tracker, move verdicts, the one
// frame path): 600 x 400 mm, 4 anchors of 40 mm near the corners, two blue units facing north (90)
// and a red one facing south, 14 mm markers 3 mm above the table:
//
//   y=400 +---------------------------------+
//         | A3                           A2 |
//         |              R1 (300,260) v     |
//         |    B1 (200,150) ^  B2 (260,150) ^
//         | A0                           A1 |
//   y=0   +---------------------------------+ x=600
#include <sstream>
#include <string>

namespace vedette::testing {

// The table as a scene file (a roster with poses). b1_tags: B1's tags, e.g. "im".
inline std::string SmallTableScene(const std::string& b1_tags = "") {
  return R"(dictionary: DICT_4X4_50
bw_mm: 40
table: {width_mm: 600, depth_mm: 400}
sides: {blue: {colour: "#3060ff"}, red: {colour: "#e03030"}}
anchors:
  - {marker: 0, size_mm: 40, x_mm: 40, y_mm: 40}
  - {marker: 1, size_mm: 40, x_mm: 560, y_mm: 40}
  - {marker: 2, size_mm: 40, x_mm: 560, y_mm: 360}
  - {marker: 3, size_mm: 40, x_mm: 40, y_mm: 360}
units:
  - {id: B1, side: blue, type: infantry, tags: [)" + b1_tags + R"(], base: {width_mm: 40, depth_mm: 20}, marker: 10, marker_size_mm: 14, marker_height_mm: 3, pose: {x_mm: 200, y_mm: 150, heading_deg: 90}}
  - {id: B2, side: blue, type: infantry, base: {width_mm: 40, depth_mm: 20}, marker: 11, marker_size_mm: 14, marker_height_mm: 3, pose: {x_mm: 260, y_mm: 150, heading_deg: 90}}
  - {id: R1, side: red, type: infantry, base: {width_mm: 40, depth_mm: 20}, marker: 12, marker_size_mm: 14, marker_height_mm: 3, pose: {x_mm: 300, y_mm: 260, heading_deg: -90}}
)";
}

// The same table inline in a clip script (`roster_scene:`); the caller adds camera, render and keys.
inline std::string SmallTableClipRoster(const std::string& b1_tags = "") {
  std::istringstream in(SmallTableScene(b1_tags));
  std::string out = "\nroster_scene:\n", line;
  while (std::getline(in, line)) out += "  " + line + "\n";
  return out;
}

}  // namespace vedette::testing
