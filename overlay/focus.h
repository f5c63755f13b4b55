#pragma once
// Which units the overlay draws in full (BuildOptions::focus_units): the ones the player is looking
// at (selected, hovered, the state menu's) and every unit of the side whose turn it is; the rest
// keep their reference geometry faint (overlay/draw_commands.h: the hierarchy).
#include <string>
#include <vector>

#include "rules/scene/scene.h"

namespace vedette::overlay {

// `picked` ("" entries ignored) and the units of `scene.declarations.active_side` (none when no side
// is declared), each once.
std::vector<std::string> FocusUnits(const Scene& scene, const std::vector<std::string>& picked);

}  // namespace vedette::overlay
