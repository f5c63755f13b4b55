#pragma once
// Drawing pieces every ruleset shares: base outlines in side colours with facing arrows, terrain,
// and colours by side.
#include <cstdint>
#include <vector>

#include "rules/drawing.h"
#include "rules/scene/scene.h"

namespace vedette {

// 0xRRGGBBAA for a side: its declared colour, else blue/red/green/... by order of first appearance.
std::uint32_t SideColour(const Scene& scene, const std::string& side);

// Outline and facing arrow for every placed unit (layer "bases"), terrain outlines (layer "terrain").
void AppendSceneOutlines(const Scene& scene, std::vector<DrawPrimitive>* out);

// A state's icon for `unit` (layer "labels"): the overlay puts it in the unit's card, after its name.
void AppendStateGlyph(const Unit& unit, Glyph glyph, std::vector<DrawPrimitive>* out);

// A unit's zone of control (1 BW of its army ahead of its front edge), layer "zoc".
void AppendZoneOfControl(const Scene& scene, const Unit& unit, std::vector<DrawPrimitive>* out);

}  // namespace vedette
