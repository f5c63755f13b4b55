// Labels apart (overlay/label_layout.h), in the command list both renderers draw: a crowded table
// gives no overlapping label boxes, every label stays near its anchor (with a leader line when
// moved), and only the least important labels are dropped when there is no room.
#include <algorithm>
#include <chrono>
#include <cstdio>

#include <gtest/gtest.h>

#include "overlay/draw_commands.h"
#include "overlay/contrast.h"
#include "overlay/label_layout.h"
#include "overlay/legibility.h"
#include "overlay/projection.h"
#include "overlay/style.h"

namespace vedette::overlay {
namespace {

DrawPrimitive Label(double x, double y, DrawStyle style, const std::string& layer, const std::string& text) {
  DrawPrimitive p;
  p.kind = DrawKind::kLabel;
  p.style = style;
  p.layer = layer;
  p.points_mm = {{x, y}};
  p.text = text;
  return p;
}

bool Overlap(const cv::Rect2f& a, const cv::Rect2f& b) {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

int OverlappingPairs(const DrawCommands& c) {
  int n = 0;
  for (size_t i = 0; i < c.labels.size(); ++i)
    for (size_t j = i + 1; j < c.labels.size(); ++j)
      n += Overlap(LabelBox(c.labels[i].text, c.labels[i].height_px, c.labels[i].anchor_px),
                   LabelBox(c.labels[j].text, c.labels[j].height_px, c.labels[j].anchor_px));
  return n;
}

// 12 units in a 4 x 3 grid 45 mm apart, seen from above at 1.5 px/mm (67.5 px apart); each has
// its name (kBase), the test it must take (kTest, about 140 px wide) and its state (kInfo), all
// anchored within 5 mm of its centre:
//
//    U0 U1 U2 U3        y = 290
//    U4 U5 U6 U7        y = 245
//    U8 U9 U10 U11      y = 200      x = 200, 245, 290, 335
TEST(LabelLayout, CrowdedTableGivesNoOverlappingLabelsAndKeepsThemNearTheirAnchors) {
  std::vector<DrawPrimitive> prims;
  for (int i = 0; i < 12; ++i) {
    const double x = 200 + 45 * (i % 4), y = 290 - 45 * (i / 4);
    const std::string id = "U" + std::to_string(i);
    prims.push_back(Label(x, y, DrawStyle::kBase, "labels", id));
    prims.push_back(Label(x, y - 5, DrawStyle::kTest, "tests", "rout 7+ (42%)"));
    prims.push_back(Label(x + 3, y + 4, DrawStyle::kInfo, "labels", "shaken, firing"));
  }
  ViewTransform view;
  view.scale = 1.5;
  view.offset_x = -100;
  view.offset_y = 700;
  view.flip_y = true;
  const TableProjection proj = TopDownProjection(view);

  BuildOptions off;
  off.labels.enabled = false;
  DrawCommands crowded;
  BuildDrawCommands(off, prims, proj, DefaultStyleTable(), LayerVisibility{}, &crowded);
  ASSERT_EQ(crowded.labels.size(), 36u);
  EXPECT_GT(OverlappingPairs(crowded), 30) << "the scene must be crowded for the test to mean anything";

  BuildOptions on;
  DrawCommands laid;
  BuildDrawCommands(on, prims, proj, DefaultStyleTable(), LayerVisibility{}, &laid);
  EXPECT_EQ(OverlappingPairs(laid), 0);
  // Every test and every name is kept; the states may be dropped as the last resort.
  int tests = 0, names = 0, moved = 0;
  for (const LabelCommand& l : laid.labels) {
    const DrawPrimitive& p = prims[l.primitive];
    tests += p.style == DrawStyle::kTest;
    names += p.style == DrawStyle::kBase;
    // Near its anchor: the box's nearest point within the rings' reach (4 rows of boxes up or down).
    const cv::Point2d anchor = ProjectTablePoint(proj, p.points_mm[0]);
    const cv::Rect2f box = LabelBox(l.text, l.height_px, l.anchor_px);
    const double nx = std::clamp<double>(anchor.x, box.x, box.x + box.width);
    const double ny = std::clamp<double>(anchor.y, box.y, box.y + box.height);
    const double reach = on.labels.rings * (box.height + on.labels.gap_em * l.height_px);
    EXPECT_LE(std::hypot(nx - anchor.x, ny - anchor.y), reach) << l.text;
    const bool was_moved = cv::norm(cv::Point2d(l.anchor_px) - anchor) > 1e-3;
    moved += was_moved;
    if (!was_moved) continue;
    // A moved label has its leader: a line from the anchor to the box's nearest point.
    bool leader = false;
    for (const PathCommand& c : laid.paths)
      if (c.primitive == l.primitive && c.count == 2 && cv::norm(cv::Point2d(laid.points[c.first]) - anchor) < 1e-3 &&
          cv::norm(cv::Point2d(laid.points[c.first + 1]) - cv::Point2d(nx, ny)) < 1e-3)
        leader = true;
    EXPECT_TRUE(leader) << l.text;
  }
  EXPECT_EQ(tests, 12);
  EXPECT_EQ(names, 12);
  EXPECT_GT(moved, 12);
  std::printf("crowded table: %zu of 36 labels kept, %d moved, %d overlapping pairs before\n", laid.labels.size(), moved,
              OverlappingPairs(crowded));
}

// Speed (a figure, not a limit): 60 units in a 10 x 6 grid 60 mm apart at 1 px/mm, 3 labels each,
// each unit's 20 mm marker (grown by 3 mm: 26 x 26 px) centred on it, under all three labels.
TEST(LabelLayout, SixtyUnitsFigure) {
  std::vector<DrawPrimitive> prims;
  std::vector<TableQuad> markers;
  for (int i = 0; i < 60; ++i) {
    const double x = 100 + 60 * (i % 10), y = 100 + 60 * (i / 10);
    prims.push_back(Label(x, y, DrawStyle::kBase, "labels", "U" + std::to_string(i)));
    prims.push_back(Label(x, y - 5, DrawStyle::kTest, "tests", "rout 7+ (42%)"));
    prims.push_back(Label(x + 3, y + 4, DrawStyle::kInfo, "labels", "shaken"));
    markers.push_back({geom::Vec2(x - 13, y - 13), geom::Vec2(x + 13, y - 13), geom::Vec2(x + 13, y + 13), geom::Vec2(x - 13, y + 13)});
  }
  ViewTransform view;
  view.offset_y = 720;
  view.flip_y = true;
  const TableProjection proj = TopDownProjection(view);
  std::vector<MarkerQuad> markers_px;
  for (const TableQuad& q : markers) {
    MarkerQuad m;
    for (int k = 0; k < 4; ++k) m[k] = cv::Point2f(ProjectTablePoint(proj, q[k]));
    markers_px.push_back(m);
  }
  DrawCommands c;
  for (const bool with_markers : {false, true}) {
    BuildOptions on;
    on.markers_mm = with_markers ? &markers : nullptr;
    BuildDrawCommands(on, prims, proj, DefaultStyleTable(), LayerVisibility{}, &c);  // warm
    const auto t0 = std::chrono::steady_clock::now();
    constexpr int kRuns = 20;
    for (int i = 0; i < kRuns; ++i) BuildDrawCommands(on, prims, proj, DefaultStyleTable(), LayerVisibility{}, &c);
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() / kRuns;
    const Legibility l = MeasureLegibility({}, c, markers_px);
    EXPECT_EQ(OverlappingPairs(c), 0);
    EXPECT_TRUE(l.overlapping.empty());
    if (with_markers) EXPECT_TRUE(l.over_marker.empty());
    else EXPECT_FALSE(l.over_marker.empty()) << "without them as obstacles the labels lie on the markers";
    std::printf("60 units, 180 labels, markers %s: %zu kept, %d moved, %d on a marker, build with layout %.3f ms\n",
                with_markers ? "kept clear" : "ignored", c.labels.size(), c.label_stats.moved,
                static_cast<int>(l.over_marker.size()), ms);
  }
}

// One name on its unit's marker, a 20 x 20 px box about the anchor (200, 200):
//
//      +------+
//      |  B1  |   the name's box at the anchor covers the marker: it moves to the nearest free
//      +------+   spot (above, below or beside), with a leader from the anchor to the box.
//
// Without the marker it stays on the anchor.
TEST(LabelLayout, ALabelOnAMarkerMovesOffIt) {
  std::vector<DrawPrimitive> prims = {Label(0, 0, DrawStyle::kBase, "labels", "B1")};
  auto one = [&] {
    DrawCommands c;
    LabelCommand l;
    l.anchor_px = {200, 200};
    l.text = "B1";
    l.height_px = 15;
    l.primitive = 0;
    c.labels.push_back(l);
    return c;
  };
  const std::vector<cv::Rect2f> marker = {cv::Rect2f(190, 190, 20, 20)};
  DrawCommands free = one();
  EXPECT_EQ(LayoutLabels(LabelLayoutOptions{}, prims, 1.0f, &free).moved, 0);
  EXPECT_EQ(free.labels[0].anchor_px, cv::Point2f(200, 200));

  DrawCommands c = one();
  const LabelLayoutStats s = LayoutLabels(LabelLayoutOptions{}, prims, 1.0f, &c, nullptr, &marker);
  EXPECT_EQ(s.labels, 1);
  EXPECT_EQ(s.moved, 1);
  ASSERT_EQ(c.labels.size(), 1u);
  const cv::Rect2f box = LabelBox("B1", 15, c.labels[0].anchor_px);
  EXPECT_TRUE((box & marker[0]).area() == 0) << "off the marker";
  const float reach = 4 * (box.height + 0.25f * 15);
  const cv::Point2f near(std::clamp(200.0f, box.x, box.x + box.width), std::clamp(200.0f, box.y, box.y + box.height));
  EXPECT_LE(cv::norm(near - cv::Point2f(200, 200)), reach);
  ASSERT_EQ(c.paths.size(), 1u) << "the leader";
  EXPECT_EQ(c.points[c.paths[0].first], cv::Point2f(200, 200));
  EXPECT_EQ(c.points[c.paths[0].first + 1], near);
}

// A verdict card at the picture's left edge (x = 5) is pushed inside; a marker sits where the
// pushed card would be (x 20..40, y 190..210), so the card goes above or below it, inside the picture.
TEST(LabelLayout, ALabelPushedIntoThePictureStillKeepsOffMarkers) {
  std::vector<DrawPrimitive> prims(1);
  prims[0].kind = DrawKind::kLabel;
  prims[0].style = DrawStyle::kVerdict;
  prims[0].text = "B1 wheel: test 67 %";
  DrawCommands c;
  LabelCommand l;
  l.anchor_px = {5, 200};
  l.text = prims[0].text;
  l.height_px = 18;
  l.primitive = 0;
  c.labels.push_back(l);
  const std::vector<cv::Rect2f> marker = {cv::Rect2f(20, 190, 20, 20)};
  const cv::Rect2f canvas(0, 0, 640, 400);
  LayoutLabels(LabelLayoutOptions{}, prims, 1.0f, &c, nullptr, &marker, canvas);
  ASSERT_EQ(c.labels.size(), 1u);
  const cv::Rect2f box = LabelBox(l.text, 18, c.labels[0].anchor_px);
  EXPECT_GE(box.x, -0.01f);
  EXPECT_GE(box.y, -0.01f);
  EXPECT_LE(box.x + box.width, 640.01f);
  EXPECT_LE(box.y + box.height, 400.01f);
  EXPECT_FLOAT_EQ((box & marker[0]).area(), 0.0f);
}

// Text follows the frame: the style's sizes are for 1080 lines; 2160 lines doubles them (the 15 px
// name is 30 px), 720 lines would make it 10 px, so the floor (14 px) holds it.
TEST(LabelLayout, TextHeightFollowsTheFrameWithAFloor) {
  const StyleTable& t = DefaultStyleTable();
  const PrimitiveStyle& name = t.For(DrawStyle::kBase);
  ASSERT_FLOAT_EQ(name.label_height_px, 15.0f);
  EXPECT_FLOAT_EQ(LabelHeight(name, TextScaleForHeight(1080), t), 15.0f);
  EXPECT_FLOAT_EQ(LabelHeight(name, TextScaleForHeight(2160), t), 30.0f);
  EXPECT_FLOAT_EQ(LabelHeight(name, TextScaleForHeight(720), t), 14.0f);
  // Even the largest, the 20 px "illegal" card, would be 13.3 px at 720 lines.
  EXPECT_FLOAT_EQ(LabelHeight(t.For(DrawStyle::kIllegal), TextScaleForHeight(720), t), 14.0f);
  EXPECT_FLOAT_EQ(LabelHeight(t.For(DrawStyle::kIllegal), TextScaleForHeight(1440), t), 20.0f * 1440 / 1080);

  std::vector<DrawPrimitive> prims = {Label(100, 100, DrawStyle::kBase, "labels", "B1")};
  BuildOptions bo;
  bo.text_scale = 2.0;
  DrawCommands c;
  BuildDrawCommands(bo, prims, TopDownProjection({}), t, LayerVisibility{}, &c);
  ASSERT_EQ(c.labels.size(), 1u);
  EXPECT_FLOAT_EQ(c.labels[0].height_px, 30.0f);
  std::string error;
  EXPECT_TRUE(bo.Check(&error)) << error;
  BuildOptions negative;
  negative.text_scale = -1;
  EXPECT_FALSE(negative.Check(&error));
  // Every label's text reaches the table's contrast over its box, whatever the primitive's colour.
  prims[0].rgba = 0x3060FFFF;
  BuildDrawCommands(bo, prims, TopDownProjection({}), t, LayerVisibility{}, &c);
  EXPECT_GE(WorstTextContrast(c.labels[0].text_rgba, c.labels[0].background_rgba), t.min_text_contrast);
}

// Three equal labels on one anchor (320, 240): the first stays, the second goes one box height plus
// the gap (0.25 of the 15 px text) up, the third as far down; leaders end on the boxes' near edges.
TEST(LabelLayout, EqualLabelsOnOneAnchorStackAboveAndBelow) {
  std::vector<DrawPrimitive> prims(3, Label(0, 0, DrawStyle::kInfo, "labels", "eager"));
  DrawCommands c;
  for (int i = 0; i < 3; ++i) {
    LabelCommand l;
    l.anchor_px = {320, 240};
    l.text = "eager";
    l.height_px = 15;
    l.primitive = i;
    c.labels.push_back(l);
  }
  const LabelLayoutStats s = LayoutLabels(LabelLayoutOptions{}, prims, 1.0f, &c);
  EXPECT_EQ(s.moved, 2);
  EXPECT_EQ(s.dropped, 0);
  ASSERT_EQ(c.labels.size(), 3u);
  const float h = LabelBox("eager", 15, {320, 240}).height;
  const float step = h + 0.25f * 15;
  EXPECT_FLOAT_EQ(c.labels[0].anchor_px.y, 240.0f);
  EXPECT_FLOAT_EQ(c.labels[1].anchor_px.y, 240.0f - step);
  EXPECT_FLOAT_EQ(c.labels[2].anchor_px.y, 240.0f + step);
  for (const LabelCommand& l : c.labels) EXPECT_FLOAT_EQ(l.anchor_px.x, 320.0f);
  ASSERT_EQ(c.paths.size(), 2u);
  const cv::Rect2f up = LabelBox("eager", 15, c.labels[1].anchor_px);
  EXPECT_EQ(c.points[c.paths[0].first], cv::Point2f(320, 240));
  EXPECT_FLOAT_EQ(c.points[c.paths[0].first + 1].y, up.y + up.height);
}

// 40 state labels and one test label, all on one anchor: the test label (listed last) keeps the
// anchor; the 1 + 8 x 4 candidate spots hold at most 32 more, so states are dropped, never the test.
TEST(LabelLayout, WhenThereIsNoRoomTheLeastImportantLabelsGo) {
  std::vector<DrawPrimitive> prims;
  DrawCommands c;
  for (int i = 0; i < 41; ++i) {
    const bool test = i == 40;
    prims.push_back(Label(0, 0, test ? DrawStyle::kTest : DrawStyle::kInfo, "labels", test ? "morale 6+" : "eager"));
    LabelCommand l;
    l.anchor_px = {640, 360};
    l.text = prims.back().text;
    l.height_px = 15;
    l.primitive = i;
    c.labels.push_back(l);
  }
  const LabelLayoutStats s = LayoutLabels(LabelLayoutOptions{}, prims, 1.0f, &c);
  EXPECT_GE(s.dropped, 8);
  EXPECT_EQ(static_cast<int>(c.labels.size()) + s.dropped, 41);
  EXPECT_EQ(OverlappingPairs(c), 0);
  ASSERT_EQ(c.labels.back().text, "morale 6+") << "the test label is kept (and drawn last, as listed)";
  EXPECT_EQ(c.labels.back().anchor_px, cv::Point2f(640, 360));
  // Switched off, nothing moves.
  DrawCommands same;
  same.labels.assign(2, c.labels.back());
  LabelLayoutOptions off;
  off.enabled = false;
  EXPECT_EQ(LayoutLabels(off, prims, 1.0f, &same).moved, 0);
  EXPECT_EQ(same.labels[1].anchor_px, cv::Point2f(640, 360));
  std::string error;
  off.rings = -1;
  EXPECT_FALSE(off.Check(&error));
}

}  // namespace
}  // namespace vedette::overlay

namespace vedette::overlay {
namespace {

// A card at a unit on the picture's edge is moved inside the picture, whole (the demo's verdict
// cards ran off the left side).
TEST(LabelLayout, LabelsStayInsideTheCanvas) {
  ViewTransform view;  // 1 px per mm
  std::vector<DrawPrimitive> prims(2);
  prims[0].kind = prims[1].kind = DrawKind::kLabel;
  prims[0].style = prims[1].style = DrawStyle::kVerdict;
  prims[0].text = "B1 wheel: test 67 %";
  prims[0].points_mm = {{5, 200}};
  prims[1].text = "R1 straight ahead: no test";
  prims[1].points_mm = {{638, 398}};
  BuildOptions bo;
  bo.canvas_px = cv::Rect2f(0, 0, 640, 400);
  DrawCommands c;
  BuildDrawCommands(bo, prims, TopDownProjection(view), DefaultStyleTable(), LayerVisibility{}, &c);
  ASSERT_EQ(c.labels.size(), 2u);
  for (const LabelCommand& l : c.labels) {
    const cv::Rect2f box = LabelBox(l.text, l.height_px, l.anchor_px);
    EXPECT_GE(box.x, -0.01f) << l.text;
    EXPECT_GE(box.y, -0.01f) << l.text;
    EXPECT_LE(box.x + box.width, 640.01f) << l.text;
    EXPECT_LE(box.y + box.height, 400.01f) << l.text;
  }
  BuildOptions anywhere;
  BuildDrawCommands(anywhere, prims, TopDownProjection(view), DefaultStyleTable(), LayerVisibility{}, &c);
  EXPECT_LT(LabelBox(c.labels[0].text, c.labels[0].height_px, c.labels[0].anchor_px).x, 0.0f) << "without a canvas it is not moved";
  // A line longer than the canvas is wide starts at its left edge.
  prims.resize(1);
  prims[0].text = std::string(120, 'x');
  prims[0].points_mm = {{320, 200}};
  BuildDrawCommands(bo, prims, TopDownProjection(view), DefaultStyleTable(), LayerVisibility{}, &c);
  ASSERT_EQ(c.labels.size(), 1u);
  EXPECT_NEAR(LabelBox(c.labels[0].text, c.labels[0].height_px, c.labels[0].anchor_px).x, 0.0f, 0.01f);
}

// A test's card with no room near its unit (markers all round it) goes to the nearest free place in
// the picture with a long leader; a unit's name in the same spot is dropped (it can wait).
TEST(LabelLayout, AMustReadLabelFindsRoomAnywhereInThePicture) {
  ViewTransform view;  // 1 px per mm
  std::vector<TableQuad> markers;
  for (int y = 0; y < 300; y += 20)
    for (int x = 0; x < 640; x += 20)
      markers.push_back({geom::Vec2(x, y), geom::Vec2(x + 19, y), geom::Vec2(x + 19, y + 19), geom::Vec2(x, y + 19)});
  std::vector<DrawPrimitive> prims(2);
  prims[0].kind = prims[1].kind = DrawKind::kLabel;
  prims[0].style = DrawStyle::kTest;
  prims[0].text = "R6 morale test -4: pass 3%";
  prims[0].points_mm = {{320, 100}};
  prims[1].style = DrawStyle::kBase;
  prims[1].text = "R6";
  prims[1].points_mm = {{320, 100}};
  BuildOptions bo;
  bo.canvas_px = cv::Rect2f(0, 0, 640, 400);
  bo.markers_mm = &markers;
  bo.callouts.enabled = false;
  DrawCommands c;
  BuildDrawCommands(bo, prims, TopDownProjection(view), DefaultStyleTable(), LayerVisibility{}, &c);
  ASSERT_EQ(c.labels.size(), 1u) << "the name is dropped, the test kept";
  EXPECT_EQ(c.labels[0].text, prims[0].text);
  const cv::Rect2f box = LabelBox(c.labels[0].text, c.labels[0].height_px, c.labels[0].anchor_px);
  EXPECT_GE(box.y, 300.0f) << "below the markers, the only room";
  EXPECT_LE(box.y + box.height, 400.01f);
  EXPECT_EQ(c.label_stats.dropped, 1);
}

}  // namespace
}  // namespace vedette::overlay
