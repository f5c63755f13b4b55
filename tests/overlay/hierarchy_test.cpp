// The overlay's hierarchy (draw_commands.h): reference geometry (zones of control, ranges, support)
// of units out of focus is faint and unlabelled; what a player must act on (threats) stays full; a
// unit in focus (picked, hovered, its side's turn: FocusUnits) gets its reference geometry in full.
#include <gtest/gtest.h>

#include "overlay/draw_commands.h"
#include "overlay/focus.h"
#include "rules/scene/scene_io.h"

namespace vedette::overlay {
namespace {

DrawPrimitive Shape(DrawKind kind, DrawStyle style, const std::string& layer, const std::string& unit,
                    std::vector<geom::Vec2> points, const std::string& text = "") {
  DrawPrimitive p;
  p.kind = kind;
  p.style = style;
  p.layer = layer;
  p.unit_id = unit;
  p.points_mm = std::move(points);
  p.text = text;
  return p;
}

// Unit X: a fire range box (100 x 60 mm at the origin) named on the shape, a label beside it, and a
// threat arrow.
std::vector<DrawPrimitive> RangeAndThreatTable() {
  return {Shape(DrawKind::kPolygon, DrawStyle::kRange, "ranges", "X", {{0, 0}, {100, 0}, {100, 60}, {0, 60}}, "LI fire"),
          Shape(DrawKind::kLabel, DrawStyle::kRange, "ranges", "X", {{50, 30}}, "artillery fire"),
          Shape(DrawKind::kArrow, DrawStyle::kThreat, "threats", "X", {{200, 0}, {260, 0}}, "")};
}

struct Drawn {
  std::uint32_t range_stroke = 0, threat_stroke = 0;
  int range_labels = 0;
};

Drawn Build(const BuildOptions& bo) {
  DrawCommands c;
  const std::vector<DrawPrimitive> prims = RangeAndThreatTable();
  BuildDrawCommands(bo, prims, TopDownProjection({}), DefaultStyleTable(), LayerVisibility{}, &c);
  Drawn d;
  for (const PathCommand& p : c.paths) {
    if (p.primitive == 0 && p.stroke_rgba) d.range_stroke = p.stroke_rgba;
    if (p.primitive == 2 && p.stroke_rgba && !d.threat_stroke) d.threat_stroke = p.stroke_rgba;
  }
  for (const LabelCommand& l : c.labels) d.range_labels += l.primitive <= 1 ? 1 : 0;
  return d;
}

TEST(Hierarchy, ReferenceGeometryOutOfFocusIsFaintAndUnlabelled) {
  BuildOptions full;
  full.faint_reference = false;
  const Drawn f = Build(full);
  const Drawn faint = Build(BuildOptions{});
  ASSERT_NE(f.range_stroke, 0u);
  EXPECT_EQ(f.range_labels, 2) << "the zone's own text and its label";
  EXPECT_EQ(faint.range_labels, 0) << "a faint zone is not labelled";
  EXPECT_EQ(WithAlpha(faint.range_stroke, 0xFF), WithAlpha(f.range_stroke, 0xFF)) << "same colour";
  EXPECT_EQ(Alpha(faint.range_stroke), static_cast<int>(std::lround(Alpha(f.range_stroke) * 0.35)));
  EXPECT_EQ(faint.threat_stroke, f.threat_stroke) << "a threat is never faint";

  BuildOptions focus;
  focus.focus_units = {"X"};
  const Drawn x = Build(focus);
  EXPECT_EQ(x.range_stroke, f.range_stroke);
  EXPECT_EQ(x.range_labels, 2);
}

TEST(Hierarchy, FocusIsThePickedUnitsAndTheSideWhoseTurnItIs) {
  Scene s = ParseScene(R"(
bw_mm: 40
units:
  - {id: B1, side: blue, type: infantry, base: {width_mm: 40, depth_mm: 20}, pose: {x_mm: 100, y_mm: 100, heading_deg: 90}}
  - {id: B2, side: blue, type: infantry, base: {width_mm: 40, depth_mm: 20}, pose: {x_mm: 200, y_mm: 100, heading_deg: 90}}
  - {id: R1, side: red, type: infantry, base: {width_mm: 40, depth_mm: 20}, pose: {x_mm: 100, y_mm: 300, heading_deg: 270}}
)", "focus");
  EXPECT_EQ(FocusUnits(s, {"R1", "", "R1"}), std::vector<std::string>({"R1"}));
  s.declarations.active_side = "blue";
  EXPECT_EQ(FocusUnits(s, {"R1"}), std::vector<std::string>({"R1", "B1", "B2"}));
  BuildOptions bad;
  bad.faint_alpha = 1.5f;
  std::string error;
  EXPECT_FALSE(bad.Check(&error));
  EXPECT_NE(error.find("faint_alpha"), std::string::npos);
}

}  // namespace
}  // namespace vedette::overlay
