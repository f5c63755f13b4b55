// The markers the label layout keeps clear (overlay/marker_quads.h), by hand on the flank table
// (test_scenes.h): A at (200, 200) facing +y carries a 20 mm marker 2 mm behind its centre, so its
// square, grown by 3 mm, is centred on (200, 198) with sides 26 mm: x 187..213, y 185..211. Anchors
// are 40 mm squares 30 mm in from the corners: anchor 0 grown by 3 mm spans 7..53 in x and y.
#include <algorithm>

#include <gtest/gtest.h>

#include "overlay/marker_quads.h"
#include "rules/scene/scene_io.h"
#include "tests/overlay/test_scenes.h"

namespace vedette::overlay {
namespace {

void Bounds(const TableQuad& q, double* x0, double* x1, double* y0, double* y1) {
  *x0 = *y0 = 1e9;
  *x1 = *y1 = -1e9;
  for (const geom::Vec2& p : q) {
    *x0 = std::min(*x0, p.x()), *x1 = std::max(*x1, p.x()), *y0 = std::min(*y0, p.y()), *y1 = std::max(*y1, p.y());
  }
}

TEST(MarkerQuads, UnitMarkersAndAnchorsGrownByTheMargin) {
  const std::string dir = testing::TempDir("marker_quads");
  testing::WriteFile(dir + "/roster.yaml", testing::kFlankRoster);
  const Scene scene = LoadScene(dir + "/roster.yaml");
  std::vector<TableQuad> quads = {TableQuad{}};  // cleared first
  MarkerQuadsOnTable(scene, 3.0, &quads);
  ASSERT_EQ(quads.size(), 3u + 4u) << "3 units, then 4 anchors";
  double x0, x1, y0, y1;
  Bounds(quads[0], &x0, &x1, &y0, &y1);
  EXPECT_NEAR(x0, 187, 1e-9);
  EXPECT_NEAR(x1, 213, 1e-9);
  EXPECT_NEAR(y0, 185, 1e-9);
  EXPECT_NEAR(y1, 211, 1e-9);
  Bounds(quads[3], &x0, &x1, &y0, &y1);
  EXPECT_NEAR(x0, 7, 1e-9);
  EXPECT_NEAR(x1, 53, 1e-9);
  EXPECT_NEAR(y0, 7, 1e-9);
  EXPECT_NEAR(y1, 53, 1e-9);
  // A unit without a pose (taken off the table) has no marker on it.
  Scene lifted = scene;
  lifted.units[1].pose.reset();
  MarkerQuadsOnTable(lifted, 0.0, &quads);
  EXPECT_EQ(quads.size(), 2u + 4u);
}

}  // namespace
}  // namespace vedette::overlay
