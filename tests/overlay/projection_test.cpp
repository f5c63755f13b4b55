// Primitives in table mm -> draw commands in px: every vertex lands where calib::ProjectToImage puts
// it (lens distortion included), long edges are split so that they follow the lens' curve, and the
// top-down view is the table seen from above with player A at the bottom.
#include <cmath>

#include <gtest/gtest.h>

#include "calibration/camera_model.h"
#include "overlay/draw_commands.h"
#include "overlay/projection.h"
#include "synth/synthetic_camera.h"

namespace vedette::overlay {
namespace {

// A 1280x720 webcam over a 1200 x 900 mm table, mild barrel distortion (k1 = -0.06, k2 = 0.02).
synth::SyntheticCamera TestCamera() {
  synth::SyntheticCameraOptions o;
  o.image_size = {1280, 720};
  o.table_width_mm = 1200;
  o.table_depth_mm = 900;
  o.tilt_deg = 10;
  return synth::MakeSyntheticCamera(o);
}

cv::Point2d Project(const synth::SyntheticCamera& cam, double x, double y) {
  return calib::ProjectToImage(cam.intrinsics, cam.camera_from_table, {cv::Point3d(x, y, 0)})[0];
}

DrawPrimitive Square(double x0, double y0, double side, DrawStyle style, const char* layer) {
  DrawPrimitive p;
  p.kind = DrawKind::kPolygon;
  p.style = style;
  p.layer = layer;
  p.points_mm = {{x0, y0}, {x0 + side, y0}, {x0 + side, y0 + side}, {x0, y0 + side}};
  return p;
}

// Is `q` (px) on the projection of the table segment a-b? Back-projects q to the table and measures
// its distance from the segment (mm).
double DistanceFromTableSegment(const TableProjection& proj, const cv::Point2f& q, const geom::Vec2& a,
                                const geom::Vec2& b) {
  const geom::Vec2 t = OutputToTable(proj, {q.x, q.y});
  const geom::Vec2 d = b - a;
  const double s = std::clamp((t - a).dot(d) / d.squaredNorm(), 0.0, 1.0);
  return (t - (a + d * s)).norm();
}

TEST(Projection, VerticesMatchProjectToImage) {
  const auto cam = TestCamera();
  const TableProjection proj = CameraProjection(MakeCameraView(cam.intrinsics, cam.camera_from_table));
  // Corners of the table and a few inner points, including far corners where distortion is largest.
  const std::vector<geom::Vec2> pts = {{0, 0}, {1200, 0}, {1200, 900}, {0, 900}, {600, 450}, {123.4, 765.4}};
  std::vector<cv::Point2f> px;
  ProjectTablePoints(proj, pts, &px);
  ASSERT_EQ(px.size(), pts.size());
  for (size_t i = 0; i < pts.size(); ++i) {
    const cv::Point2d want = Project(cam, pts[i].x(), pts[i].y());
    EXPECT_NEAR(px[i].x, want.x, 1e-3) << "table point (" << pts[i].x() << ", " << pts[i].y() << ")";
    EXPECT_NEAR(px[i].y, want.y, 1e-3) << "table point (" << pts[i].x() << ", " << pts[i].y() << ")";
  }
}

TEST(Projection, CommandVerticesAndSplitEdgesFollowTheLens) {
  const auto cam = TestCamera();
  const TableProjection proj = CameraProjection(MakeCameraView(cam.intrinsics, cam.camera_from_table));
  ASSERT_FALSE(proj.Linear());
  // The whole table's border as one polygon: its edges span the image and bend with the lens.
  std::vector<DrawPrimitive> prims = {Square(0, 0, 900, DrawStyle::kInfo, "terrain")};
  prims[0].points_mm[1] = {1200, 0};
  prims[0].points_mm[2] = {1200, 900};
  DrawCommands out;
  BuildOptions options;
  options.max_segment_px = 6.0;
  BuildDrawCommands(options, prims, proj, DefaultStyleTable(), LayerVisibility{}, &out);
  ASSERT_EQ(out.paths.size(), 1u);
  const PathCommand& c = out.paths[0];
  EXPECT_TRUE(c.closed);
  EXPECT_GT(c.count, 4 * 20) << "a 1000+ px edge must be split into pieces of at most 6 px (capped at 64)";
  // Every point lies on the table border (back-projected within 0.01 mm of an edge).
  const auto& v = prims[0].points_mm;
  for (int i = 0; i < c.count; ++i) {
    const cv::Point2f q = out.points[c.first + i];
    double best = 1e9;
    for (int e = 0; e < 4; ++e) best = std::min(best, DistanceFromTableSegment(proj, q, v[e], v[(e + 1) % 4]));
    EXPECT_LT(best, 0.01) << "point " << i << " at (" << q.x << ", " << q.y << ") px is off the table border";
  }
  // The first point is the first vertex, exactly where ProjectToImage puts it.
  const cv::Point2d want = Project(cam, 0, 0);
  EXPECT_NEAR(out.points[c.first].x, want.x, 1e-3);
  EXPECT_NEAR(out.points[c.first].y, want.y, 1e-3);
  // A straight chord between the ends of the bottom edge would miss its middle by several px (barrel
  // distortion): the split line does not.
  const cv::Point2d mid = Project(cam, 600, 0);
  const cv::Point2d chord = (Project(cam, 0, 0) + Project(cam, 1200, 0)) * 0.5;
  EXPECT_GT(cv::norm(mid - chord), 2.0) << "test camera has too little distortion to tell";
  double nearest = 1e9;
  for (int i = 0; i < c.count; ++i) nearest = std::min(nearest, cv::norm(cv::Point2d(out.points[c.first + i]) - mid));
  EXPECT_LT(nearest, 3.5) << "a command point lies within half a 6 px piece of the projected edge middle";
}

TEST(Projection, PinholeEdgesAreNotSplit) {
  auto cam = TestCamera();
  cam.intrinsics.distortion = cv::Mat::zeros(1, 5, CV_64F);
  const TableProjection proj = CameraProjection(MakeCameraView(cam.intrinsics, cam.camera_from_table));
  EXPECT_TRUE(proj.Linear());
  DrawCommands out;
  BuildDrawCommands({}, {Square(100, 100, 500, DrawStyle::kInfo, "terrain")}, proj, DefaultStyleTable(), {}, &out);
  ASSERT_EQ(out.paths.size(), 1u);
  EXPECT_EQ(out.paths[0].count, 4);
}

TEST(Projection, TopDownViewPutsPlayerAAtTheBottom) {
  // Table 1200 x 900 mm fitted into a 600 x 450 px viewport: 0.5 px per mm, y flipped.
  const ViewTransform view = MakeView({}, cv::Rect2d(0, 0, 1200, 900), cv::Rect2d(0, 0, 600, 450), true);
  const TableProjection proj = TopDownProjection(view);
  std::vector<cv::Point2f> px;
  ProjectTablePoints(proj, {{0, 0}, {1200, 900}, {300, 100}}, &px);
  EXPECT_NEAR(px[0].x, 0, 1e-4);    // player A's left corner: bottom left
  EXPECT_NEAR(px[0].y, 450, 1e-4);
  EXPECT_NEAR(px[1].x, 600, 1e-4);  // far right corner: top right
  EXPECT_NEAR(px[1].y, 0, 1e-4);
  EXPECT_NEAR(px[2].x, 150, 1e-4);
  EXPECT_NEAR(px[2].y, 400, 1e-4);
  const geom::Vec2 back = OutputToTable(proj, {150, 400});
  EXPECT_NEAR(back.x(), 300, 1e-9);
  EXPECT_NEAR(back.y(), 100, 1e-9);
}

TEST(Projection, PanAndZoomKeepThePointUnderTheCursor) {
  const cv::Rect2d content(0, 0, 1280, 720), viewport(10, 20, 800, 450);
  ViewState state;
  const ViewTransform v0 = MakeView(state, content, viewport, false);
  const cv::Point2d cursor(300, 200);
  const cv::Point2d under = v0.Inverse(cursor);
  state = ZoomedAbout(state, v0, viewport, cursor, 2.5);
  const ViewTransform v1 = MakeView(state, content, viewport, false);
  EXPECT_NEAR(v1.scale, 2.5 * v0.scale, 1e-12);
  const cv::Point2d again = v1.Apply(under);
  EXPECT_NEAR(again.x, cursor.x, 1e-9);
  EXPECT_NEAR(again.y, cursor.y, 1e-9);
  state = Panned(state, v1, viewport, {40, -10});
  const ViewTransform v2 = MakeView(state, content, viewport, false);
  const cv::Point2d moved = v2.Apply(under);
  EXPECT_NEAR(moved.x, cursor.x + 40, 1e-9);
  EXPECT_NEAR(moved.y, cursor.y - 10, 1e-9);
}

TEST(Projection, PointsBehindTheCameraAreNotDrawn) {
  const auto cam = TestCamera();
  const TableProjection proj = CameraProjection(MakeCameraView(cam.intrinsics, cam.camera_from_table));
  // A line from the table centre to 100 m behind the camera (towards player A, below the camera's
  // horizon): only the part in front of the camera is drawn, as one open run starting at the centre.
  DrawPrimitive line;
  line.kind = DrawKind::kPolyline;
  line.style = DrawStyle::kInfo;
  line.layer = "ranges";
  line.points_mm = {{600, 450}, {600, -100000}};
  DrawCommands out;
  BuildDrawCommands({}, {line}, proj, DefaultStyleTable(), {}, &out);
  ASSERT_GE(out.paths.size(), 1u);
  for (const cv::Point2f& p : out.points) EXPECT_TRUE(IsDrawable(p));
  const cv::Point2d centre = Project(cam, 600, 450);
  EXPECT_NEAR(out.points[out.paths[0].first].x, centre.x, 1e-3);
  EXPECT_NEAR(out.points[out.paths[0].first].y, centre.y, 1e-3);
}

TEST(Projection, HiddenLayersAreNotBuilt) {
  const TableProjection proj = TopDownProjection({});
  std::vector<DrawPrimitive> prims = {Square(0, 0, 10, DrawStyle::kZoneOfControl, "zoc"),
                                      Square(20, 0, 10, DrawStyle::kThreat, "threats")};
  LayerVisibility layers = LayerVisibility::FromHiddenList("zoc, labels");
  EXPECT_FALSE(layers.Visible("zoc"));
  EXPECT_TRUE(layers.Visible("threats"));
  EXPECT_EQ(layers.HiddenList(), "zoc,labels");
  DrawCommands out;
  BuildDrawCommands({}, prims, proj, DefaultStyleTable(), layers, &out);
  ASSERT_EQ(out.paths.size(), 1u);
  EXPECT_EQ(out.paths[0].primitive, 1);
  EXPECT_EQ(out.paths[0].stroke_rgba, WithAlpha(DefaultStyleTable().For(DrawStyle::kThreat).rgba, 0xFF));
}

TEST(Projection, ConcaveFillsAreTriangulatedWithTheirArea) {
  // An L shape (area 3 x 100 mm^2 = 300 mm^2 at 1 px/mm):
  //   (0,20)--(10,20)
  //     |        |
  //     |      (10,10)--(20,10)
  //     |                  |
  //   (0,0)------------(20,0)
  DrawPrimitive p;
  p.kind = DrawKind::kPolygon;
  p.filled = true;
  p.layer = "terrain";
  p.points_mm = {{0, 0}, {20, 0}, {20, 10}, {10, 10}, {10, 20}, {0, 20}};
  DrawCommands out;
  BuildDrawCommands({}, {p}, TopDownProjection({}), DefaultStyleTable(), {}, &out);
  ASSERT_GE(out.paths.size(), 1u);
  const PathCommand& fill = out.paths[0];
  ASSERT_NE(fill.fill_rgba, 0u);
  EXPECT_FALSE(fill.convex);
  double area = 0;
  for (int k = 0; k < fill.index_count; k += 3) {
    const cv::Point2f a = out.points[out.indices[fill.first_index + k]];
    const cv::Point2f b = out.points[out.indices[fill.first_index + k + 1]];
    const cv::Point2f c = out.points[out.indices[fill.first_index + k + 2]];
    area += std::abs((b - a).cross(c - a)) / 2;
  }
  EXPECT_NEAR(area, 300.0, 1e-3);
}

}  // namespace
}  // namespace vedette::overlay
