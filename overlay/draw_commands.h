#pragma once
// The overlay in output pixels: what both renderers draw, built once per frame and per view.
//
// BuildDrawCommands takes the rules' primitives (table mm), keeps the visible layers, projects every
// vertex, splits edges so that no projected piece is longer than `max_segment_px` (a straight table
// edge bends with the lens; without distortion nothing is split), cuts lines the camera cannot see
// (behind it, beyond the lens model's fold) into the visible runs, turns dashed lines into dashes,
// arrows into a shaft and a head, concave fills into triangles, and takes every colour, width and
// size from the StyleTable. The OpenCV backend (cv_renderer.h) and the Dear ImGui backend
// (imgui_renderer.h) only walk this list: what is drawn is decided here and nowhere else.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "overlay/callouts.h"
#include "overlay/label_layout.h"
#include "overlay/layers.h"
#include "overlay/projection.h"
#include "overlay/style.h"
#include "rules/drawing.h"

namespace vedette::overlay {

// A run of points in output px, stroked and/or filled.
struct PathCommand {
  std::uint32_t stroke_rgba = 0;  // 0xRRGGBBAA; 0 = not stroked
  std::uint32_t fill_rgba = 0;    // 0xRRGGBBAA; 0 = not filled (fills are always closed)
  float thickness_px = 1.0f;      // stroke width, px
  bool closed = false;            // the stroke returns to the first point
  bool convex = true;             // fills: the outline is convex in px; if not, fill `indices` instead
  int first = 0;                  // DrawCommands::points[first, first + count)
  int count = 0;
  int first_index = 0;            // concave fills: triangles, DrawCommands::indices[first_index, + index_count)
  int index_count = 0;            //   (3 per triangle, absolute indices into points)
  int primitive = -1;             // index of the DrawPrimitive it came from
};

// One line of text, or a unit's callout card (callouts.h): lines split at '\n', each in its own
// colour, state icons after the first; label_card.h gives the box and where each piece goes.
struct LabelCommand {
  cv::Point2f anchor_px;          // centre of the text box, output px
  std::string text;
  std::uint32_t text_rgba = 0xFFFFFFFF;
  std::vector<std::uint32_t> line_rgba;  // per line of `text`; empty (or short): text_rgba
  std::vector<Glyph> glyphs;             // icons after the first line (glyphs.h)
  std::uint32_t background_rgba = 0;  // box behind the text; 0 = none
  float height_px = 15.0f;        // text height, px
  int primitive = -1;
};

// A marker's square on the table (four corners, table mm, in order around it): the layout keeps
// labels off it (BuildOptions::markers_mm, marker_quads.h).
using TableQuad = std::array<geom::Vec2, 4>;

struct DrawCommands {
  std::vector<cv::Point2f> points;
  std::vector<int> indices;
  std::vector<PathCommand> paths;    // drawing order: all fills, then strokes, then arrowheads
  std::vector<LabelCommand> labels;  // drawn after every path
  LabelLayoutStats label_stats;      // what the label layout did in the last build

  void Clear();  // keeps the buffers' capacity

  // Scratch buffers reused from frame to frame so the per-frame path does not allocate.
  struct Workspace {
    std::vector<int> visible;             // primitive indices
    std::vector<char> faint;              // per visible primitive: reference geometry out of focus
    std::vector<int> vertex_first;        // per visible primitive: first vertex in `table`
    std::vector<geom::Vec2> table;        // vertices, table mm
    std::vector<cv::Point2f> table_px;    // their projections
    std::vector<int> edge_first;          // per edge: first interior point in `interior`
    std::vector<geom::Vec2> interior;     // edge subdivision points, table mm
    std::vector<cv::Point2f> interior_px;
    std::vector<int> dense_first;         // per visible primitive: first point in `dense`
    std::vector<cv::Point2f> dense;       // outline with subdivisions, output px (NaN = not visible)
    std::vector<int> ear;                 // ear clipping work list
    LabelLayoutScratch label_layout;      // labels apart (label_layout.h)
    std::vector<geom::Vec2> marker_table; // marker corners, table mm
    std::vector<cv::Point2f> marker_px;   // their projections
    std::vector<cv::Rect2f> obstacles;    // the markers' bounding boxes, output px
    std::vector<int> glyphs;              // visible kGlyph primitives (for the callout cards)
  } workspace;
};

struct BuildOptions {
  double max_segment_px = 6.0;   // longest straight piece of a projected edge, px (lens curvature)
  int max_pieces_per_edge = 64;  // cap on the pieces of one edge
  double scale = 1.0;            // multiplies the style's widths, dashes, arrowheads (and text sizes, see text_scale)
  double text_scale = 0.0;       // multiplies the style's text sizes (1080-line sizes; floored by the style table); 0: `scale`
  LabelLayoutOptions labels;     // labels moved apart (leader lines), the least important dropped last
  CalloutOptions callouts;       // a unit's labels and state icons as one card (callouts.h)
  cv::Rect2f canvas_px;          // labels are kept inside this (the picture or the window's view); empty: anywhere
  const std::vector<TableQuad>* markers_mm = nullptr;  // markers no label may cover (projected like the rest); nullptr: none
  // Hierarchy: what a player must act on (threats, contacts, tests, verdicts) is drawn strongest;
  // reference geometry (zones of control, fire ranges, support: IsReferenceLayer) is faint and
  // without its labels, except for the units in focus (selected, hovered, the side whose turn it
  // is: FocusUnits). false: everything at full strength.
  bool faint_reference = true;
  std::vector<std::string> focus_units;  // drawn at full strength with their labels
  float faint_alpha = 0.35f;             // reference strokes and fills out of focus: alpha times this, 0..1
  bool Check(std::string* error) const;
};

// Zones of control, ranges and support: consulted, not acted on.
bool IsReferenceLayer(const std::string& layer);

// Replaces `out`'s content (its workspace is reused).
void BuildDrawCommands(const BuildOptions& options, const std::vector<DrawPrimitive>& primitives,
                       const TableProjection& projection, const StyleTable& styles, const LayerVisibility& layers,
                       DrawCommands* out);

// Colours a primitive is drawn in (exposed for tests and the legend).
std::uint32_t StrokeColour(const DrawPrimitive& p, const StyleTable& styles);
std::uint32_t FillColour(const DrawPrimitive& p, const StyleTable& styles);

// The scale at which a recording of this height looks like the screen at 1080 lines.
inline double ScaleForHeight(int image_height_px) { return image_height_px > 1080 ? image_height_px / 1080.0 : 1.0; }

}  // namespace vedette::overlay
