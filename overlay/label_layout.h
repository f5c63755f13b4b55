#pragma once
// Labels that do not cover each other. With many units close together their labels (names, tests,
// states) land on top of one another; this step, run by BuildDrawCommands on the pixel command
// list that both renderers draw, places them one by one in order of priority (measurements, tests,
// threats, contacts, unit names, ... terrain last): each at its anchor if free, else at the nearest
// free spot among rows of candidate boxes stacked above and below it (centred, hanging left or
// right) and boxes beside it, with a thin leader line from the anchor to the moved box. No box
// goes farther from its anchor than `rings` box heights (plus gaps). Obstacles (the markers in the
// picture) are treated as boxes already placed, so no label covers a marker, and every box is kept
// inside the canvas (the picture) before it is tried. A label that finds no free spot is dropped:
// the lowest-priority ones go first, since they are placed last.
//
// Boxes are measured for the wider of the two renderers' fonts (OpenCV's Hershey simplex; ImGui's
// default font is narrower), plus the background padding both draw, so what does not overlap here
// does not overlap on screen or in the video.
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "rules/drawing.h"

namespace vedette::overlay {

struct DrawCommands;

struct LabelLayoutOptions {
  bool enabled = true;
  int rings = 4;              // rows of boxes above and below the anchor (and steps sideways) tried
  double gap_em = 0.25;       // free space between neighbouring boxes, in text heights
  double ring_step_em = 1.0;  // sideways distance between rings, in text heights
  double leader_alpha = 0.75; // opacity of the leader line (times the text colour's)
  bool Check(std::string* error) const;
};

// The box a label's background covers, centred on `centre` (output px).
cv::Rect2f LabelBox(const std::string& text, float height_px, const cv::Point2f& centre);

// The shape of Dear ImGui's default font (ProggyClean at 13 px, as libimgui-dev 1.86 builds it):
// capitals from 3 to 11 px below the line's top, descenders down to 14 px, 7 px per character. Both
// renderers draw a label `height_px` tall as capitals of that height (OpenCV's Hershey capitals are
// height_px tall at scale height_px / 22), so the ImGui backend takes the font size that gives it
// (13 / 8 of height_px for this font; it reads the font it is given, this is for LabelBox).
struct ImGuiFontShape {
  float size = 13;        // px the numbers below are for
  float cap_top = 3;      // capitals' top below the line's top, px
  float cap_bottom = 11;  // capitals' bottom (the baseline), px
  float descent = 14;     // lowest descender, px
  float advance = 7;      // per character, px
};

// Draw order priority of a label's style: lower is placed first (kept when space runs out).
int LabelPriority(DrawStyle style);

// Buffers reused from frame to frame (DrawCommands::Workspace holds one).
struct LabelLayoutScratch {
  struct Candidate {
    cv::Point2f offset;  // box centre from the anchor, px
    float distance = 0;  // anchor to the nearest point of the box, px
    int index = 0;       // generation order: the tie-break
  };
  std::vector<int> order;
  std::vector<cv::Rect2f> placed;
  std::vector<char> keep;
  std::vector<cv::Point2f> centre;
  std::vector<Candidate> candidates;
};

struct LabelLayoutStats {
  int labels = 0;   // labels given to the layout
  int moved = 0;    // labels placed off their anchor (with a leader line)
  int dropped = 0;  // labels that found no free spot
  int over_markers = 0;  // must-read labels (tests, verdicts) that found room only over markers
};

// Moves, drops and adds leader lines to `commands`' labels. `primitives`: the list the commands
// were built from (for each label's style). `scale`: the build scale (leader width). `scratch`:
// nullptr = the commands' workspace. `obstacles_px`: boxes no label may cover (markers), nullptr =
// none. `canvas_px`: every box is moved inside it (a box wider than it keeps its left end in);
// empty = anywhere.
LabelLayoutStats LayoutLabels(const LabelLayoutOptions& options, const std::vector<DrawPrimitive>& primitives,
                              float scale, DrawCommands* commands, LabelLayoutScratch* scratch = nullptr,
                              const std::vector<cv::Rect2f>* obstacles_px = nullptr, const cv::Rect2f& canvas_px = {});

// `box` moved by the least amount that puts it inside `canvas` (a box wider than the canvas: its
// left end at the canvas's; taller: unchanged vertically). An empty canvas changes nothing.
cv::Rect2f IntoCanvas(const cv::Rect2f& box, const cv::Rect2f& canvas);

}  // namespace vedette::overlay
