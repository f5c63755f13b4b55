// The OpenCV backend draws what the command list says, where it says: a threatened flank edge
// comes out in the threat colour on the pixels the calibration projects it to, and nothing
// spills far from it.
#include <gtest/gtest.h>

#include <opencv2/imgproc.hpp>

#include "calibration/camera_model.h"
#include "overlay/cv_renderer.h"
#include "overlay/draw_commands.h"
#include "rules/geometry/base.h"
#include "synth/synthetic_camera.h"

namespace vedette::overlay {
namespace {

cv::Vec3b Bgr(std::uint32_t rgba) { return cv::Vec3b(Blue(rgba), Green(rgba), Red(rgba)); }

int ColourDistance(const cv::Vec3b& a, const cv::Vec3b& b) {
  return std::abs(a[0] - b[0]) + std::abs(a[1] - b[1]) + std::abs(a[2] - b[2]);
}

TEST(CvRenderer, ThreatenedFlankEdgeIsDrawnInTheThreatColourAtItsProjectedPixels) {
  synth::SyntheticCameraOptions o;
  o.image_size = {960, 540};
  o.table_width_mm = 1200;
  o.table_depth_mm = 900;
  const synth::SyntheticCamera cam = synth::MakeSyntheticCamera(o);
  // Unit R1 at (400, 300) facing +y (90 deg), 40 x 20 mm. Its left flank edge runs from rear-left
  // (380, 290) to front-left (380, 310): the edge a ruleset marks as threatened.
  const geom::Base r1{{400, 300}, 90.0, 40.0, 20.0};
  const geom::Segment left = geom::EdgeSegment(r1, geom::Edge::kLeft);
  DrawPrimitive edge;
  edge.kind = DrawKind::kPolyline;
  edge.style = DrawStyle::kThreat;
  edge.layer = "threats";
  edge.points_mm = {left.a, left.b};
  DrawCommands commands;
  BuildDrawCommands({}, {edge}, CameraProjection(MakeCameraView(cam.intrinsics, cam.camera_from_table)),
                    DefaultStyleTable(), {}, &commands);
  const cv::Vec3b grey(90, 90, 90);
  cv::Mat frame(o.image_size, CV_8UC3, cv::Scalar(grey));
  CvRenderScratch scratch;
  RenderCommands(commands, &frame, &scratch);

  const cv::Vec3b threat = Bgr(DefaultStyleTable().For(DrawStyle::kThreat).rgba);
  // Along the edge (away from its ends), the pixel at the projected point is the threat colour.
  for (double s : {0.25, 0.5, 0.75}) {
    const geom::Vec2 p = left.a + (left.b - left.a) * s;
    const cv::Point2d px = calib::ProjectToImage(cam.intrinsics, cam.camera_from_table, {cv::Point3d(p.x(), p.y(), 0)})[0];
    const cv::Vec3b got = frame.at<cv::Vec3b>(cvRound(px.y), cvRound(px.x));
    EXPECT_LE(ColourDistance(got, threat), 60) << "at s=" << s << ", px (" << px.x << ", " << px.y << "): got "
                                               << got << ", threat colour " << threat;
  }
  // 8 px beside the edge's middle (the edge runs along image y, so x + 8) the table is untouched.
  const geom::Vec2 mid = (left.a + left.b) * 0.5;
  const cv::Point2d pm = calib::ProjectToImage(cam.intrinsics, cam.camera_from_table, {cv::Point3d(mid.x(), mid.y(), 0)})[0];
  EXPECT_EQ(frame.at<cv::Vec3b>(cvRound(pm.y), cvRound(pm.x) + 8), grey);
  EXPECT_EQ(frame.at<cv::Vec3b>(cvRound(pm.y), cvRound(pm.x) - 8), grey);
  // Only pixels near the edge changed: the count of changed pixels is about its length times its width.
  cv::Mat diff;
  cv::absdiff(frame, cv::Scalar(grey), diff);
  cv::cvtColor(diff, diff, cv::COLOR_BGR2GRAY);
  const double edge_px = cv::norm(
      calib::ProjectToImage(cam.intrinsics, cam.camera_from_table, {cv::Point3d(left.a.x(), left.a.y(), 0)})[0] -
      calib::ProjectToImage(cam.intrinsics, cam.camera_from_table, {cv::Point3d(left.b.x(), left.b.y(), 0)})[0]);
  const int changed = cv::countNonZero(diff);
  EXPECT_GT(changed, edge_px * 2);
  EXPECT_LT(changed, (edge_px + 8) * 8);
}

TEST(CvRenderer, TranslucentFillBlendsWithTheFrame) {
  // A 100 x 100 px square (top-down view, 1 px per mm) filled with the zone-of-control style in
  // pure red at alpha 0x40: the centre pixel moves a quarter of the way from grey to red.
  DrawPrimitive p;
  p.kind = DrawKind::kPolygon;
  p.style = DrawStyle::kZoneOfControl;
  p.layer = "zoc";
  p.filled = true;
  p.rgba = 0xFF000040;
  p.points_mm = {{50, 50}, {150, 50}, {150, 150}, {50, 150}};
  DrawCommands commands;
  BuildOptions full;  // the zone at full strength (not faded out of focus: hierarchy_test)
  full.faint_reference = false;
  BuildDrawCommands(full, {p}, TopDownProjection({}), DefaultStyleTable(), {}, &commands);
  cv::Mat frame(200, 200, CV_8UC3, cv::Scalar(100, 100, 100));
  CvRenderScratch scratch;
  RenderCommands(commands, &frame, &scratch);
  const cv::Vec3b c = frame.at<cv::Vec3b>(100, 100);
  EXPECT_NEAR(c[2], 100 + (255 - 100) * 0x40 / 255.0, 2);  // red
  EXPECT_NEAR(c[1], 100 - 100 * 0x40 / 255.0, 2);
  EXPECT_EQ(frame.at<cv::Vec3b>(10, 10), cv::Vec3b(100, 100, 100));  // outside: untouched
}

TEST(CvRenderer, LabelsAreDrawnCentredOnTheirAnchor) {
  DrawPrimitive l;
  l.kind = DrawKind::kLabel;
  l.style = DrawStyle::kTest;
  l.layer = "tests";
  l.text = "morale";
  l.points_mm = {{100, 50}};
  DrawCommands commands;
  BuildDrawCommands({}, {l}, TopDownProjection({}), DefaultStyleTable(), {}, &commands);
  ASSERT_EQ(commands.labels.size(), 1u);
  cv::Mat frame(100, 200, CV_8UC3, cv::Scalar(0, 0, 0));
  CvRenderScratch scratch;
  RenderCommands(commands, &frame, &scratch);
  cv::Mat grey, mask;
  cv::cvtColor(frame, grey, cv::COLOR_BGR2GRAY);
  cv::threshold(grey, mask, 120, 255, cv::THRESH_BINARY);
  const cv::Rect box = cv::boundingRect(mask);
  ASSERT_GT(box.area(), 0);
  EXPECT_NEAR(box.x + box.width / 2.0, 100, 3);
  EXPECT_NEAR(box.y + box.height / 2.0, 50, 4);
}

}  // namespace
}  // namespace vedette::overlay

namespace vedette::overlay {
namespace {

// The picture's words reach OpenCV's ASCII fonts readable: a sigma's plus-minus and a degree sign
// are spelled out, nothing becomes a pair of "??".
TEST(CvRenderer, TextIsSpelledForTheAsciiFont) {
  EXPECT_EQ(HersheyText("12.35 \u00b1 0.049 mm"), "12.35 +/- 0.049 mm");
  EXPECT_EQ(HersheyText("turned 30\u00b0"), "turned 30 deg");
  EXPECT_EQ(HersheyText("plain"), "plain");
  EXPECT_EQ(HersheyText("\u2192 x"), "? x");
}

}  // namespace
}  // namespace vedette::overlay
