#pragma once
// Shared fixtures of the geometry tests: the bases U and B at the origin and axis-aligned rectangles.
#include "rules/geometry/base.h"
#include "rules/geometry/polygon.h"

namespace vedette::geom::geometry_test {

// U: 40 x 20 at the origin facing +y (heading 90): front edge y = 10, x -20..20.
inline const Base U{{0, 0}, 90, 40, 20};

// B: 100 x 40 at the origin facing +y (heading 90): front edge y = 20, x -50..50.
inline const Base B{{0, 0}, 90, 100, 40};

// The rectangle x0..x1, y0..y1, counter-clockwise when x0 < x1 and y0 < y1.
inline Polygon Rect(double x0, double y0, double x1, double y1) { return {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}}; }

}  // namespace vedette::geom::geometry_test
