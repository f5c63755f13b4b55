#pragma once
// Where the markers lie on the table, as squares for the label layout to keep labels off
// (BuildOptions::markers_mm): a label over a unit's marker hides the one thing that says which unit
// it is. They are taken from the scene (every unit with a pose and a marker, every anchor), not from
// the detector's corners, so they are there in every frame and every view (camera, top-down, zoomed)
// whether or not the tracker measured the marker on this frame.
#include <vector>

#include "overlay/draw_commands.h"
#include "rules/scene/scene.h"

namespace vedette::overlay {

// Appends to `out` (cleared first) each unit marker and anchor of `scene` as its square grown by
// `margin_mm` on every side. The margin covers what the table-plane square misses: the marker's
// face stands marker_height_mm above the table (parallax: about 1.5 px at the image edge for 3 mm
// on the demo's camera), and the tracked pose's error.
void MarkerQuadsOnTable(const Scene& scene, double margin_mm, std::vector<TableQuad>* out);

}  // namespace vedette::overlay
