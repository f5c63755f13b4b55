#pragma once
// Small synthetic tables shared by the vision tests (kept small: the suite also runs under ASan).
//
//   table 400 x 300 mm, seen by an 800x600 camera ~0.5 m above it (about 1.8 px per mm)
//   y=300 +------------------------------+
//         | A3                        A2 |   anchors 0-3 (40 mm) 35 mm in from the corners
//         |     U1 (14 mm)   U2 (18 mm)  |
//         |     U3 (22 mm, raised 6 mm)  |   units: one 40 x 40 mm base each, marker 4+
//         | A0                        A1 |
//   y=0   +------------------------------+
//        x=0                          x=400
#include <string>

#include "rules/scene/scene.h"
#include "synth/synthetic_camera.h"

namespace vedette::vision::testing {

using namespace vedette::synth;

inline Scene SmallTable() {
  Scene s;
  s.source = "small_table";
  s.table_width_mm = 400;
  s.table_depth_mm = 300;
  s.dictionary = "DICT_4X4_50";
  s.sides = {{"blue", 0, ""}, {"red", 0, ""}};
  const double in = 35;
  const double ax[4] = {in, 400 - in, 400 - in, in}, ay[4] = {in, in, 300 - in, 300 - in};
  for (int i = 0; i < 4; ++i) s.anchors.push_back(Anchor{i, 40.0, ax[i], ay[i], 90.0 * i});
  struct U { const char* id; double x, y, heading, size, ox, oy, mh, height; int marker; };
  const U units[] = {{"U1", 120, 190, 90, 14, 0, -5, 0, 2, 10},    {"U2", 260, 200, 30, 18, 3, 0, 90, 3, 11},
                     {"U3", 150, 100, -120, 22, 0, 0, 180, 6, 12}, {"U4", 280, 95, 200, 16, -4, 4, 270, 3, 13}};
  int line = 1;
  for (const U& u : units) {
    Unit unit;
    unit.id = u.id;
    unit.side = line % 2 ? "blue" : "red";
    unit.line = line++;
    unit.bases = {BaseSpec{40, 40, {0, 0}}};
    unit.pose = Pose{u.x, u.y, u.heading};
    MarkerMount m;
    m.id = u.marker;
    m.size_mm = u.size;
    m.offset_mm = {u.ox, u.oy};
    m.heading_deg = u.mh;
    m.height_mm = u.height;
    unit.marker = m;
    s.units.push_back(unit);
  }
  return s;
}

inline SyntheticCamera SmallCamera(double tilt_deg = 8) {
  SyntheticCameraOptions o;
  o.image_size = {800, 600};
  o.table_width_mm = 400;
  o.table_depth_mm = 300;
  o.tilt_deg = tilt_deg;
  o.horizontal_fov_deg = 60;
  return MakeSyntheticCamera(o);
}

}  // namespace vedette::vision::testing
