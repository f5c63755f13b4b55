#pragma once
// The overlay description: what a ruleset wants drawn, as shapes in table mm with a style. The
// overlay module projects and draws the same list twice (Dear ImGui on screen, OpenCV into video);
// rules never know how.
#include <cstdint>
#include <string>
#include <vector>

#include "rules/geometry/vec.h"

namespace vedette {

enum class DrawKind {
  kPolygon,   // closed outline (filled when `filled`)
  kPolyline,  // open line through the points
  kArrow,     // from points[0] to points[1]
  kLabel,     // text anchored at points[0]
  kGlyph,     // a state's icon (`glyph`) for unit `unit_id`, drawn in its callout card beside its name
};

// A unit's state as an icon, the same in every ruleset that has the state.
enum class Glyph {
  kNone,
  kShaken,      // shaken (unit states, seed 003)
  kRouted,      // routed, fleeing
  kDisordered,  // disordered (Kings of War, For King or Empress disorder markers)
  kWavering,    // wavering (Kings of War nerve)
  kSilenced,    // guns silenced
  kLimbered,    // guns limbered
  kFiring,      // guns firing
};
// "shaken", "routed", ...: the word the glyph stands for (legends, tests).
const char* GlyphWord(Glyph g);

// What a shape means; the renderer picks colour and weight from it (side colours come in `rgba`).
enum class DrawStyle {
  kBase,           // a unit's outline, in its side colour
  kFacing,         // facing arrow, side colour
  kZoneOfControl,  // zone of control
  kRange,          // firing range corridor
  kThreat,         // threatened flank/rear edge and its link to the threat
  kContact,        // edges in contact
  kSupport,        // rear/flank support link
  kTest,           // a unit that must test: label with the test and its odds
  kMeasure,        // a measured gap (dispute)
  kTerrain,        // terrain outline
  kVerdict,        // a tracked move's verdict: its path, where it stopped, a card in words
  kIllegal,        // an illegal move: unmistakable
  kInfo,           // neutral annotation
};

struct DrawPrimitive {
  DrawKind kind = DrawKind::kPolygon;
  DrawStyle style = DrawStyle::kInfo;
  std::vector<geom::Vec2> points_mm;  // table frame, mm
  std::string text;                   // labels
  std::uint32_t rgba = 0;             // 0xRRGGBBAA; 0 = the style's default colour
  bool filled = false;                // polygons: translucent fill
  bool dashed = false;                // stale (occluded) units, tentative findings
  std::string layer;                  // "bases", "zoc", "ranges", "threats", "contacts", "support", "tests", "terrain", "labels"
  std::string unit_id;                // unit this belongs to ("" = none)
  Glyph glyph = Glyph::kNone;         // kGlyph: which
  // Labels: a unit's labels (its name, tests, verdicts, states) are drawn as one card beside it;
  // true keeps this one where it is (a token's meaning at the token).
  bool own_place = false;
};

}  // namespace vedette
