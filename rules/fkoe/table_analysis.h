#pragma once
// For King or Empress (seed 004, the quick reference sheet) on the whole table. Per unit: whether it is
// in bad going (half its frontage in the terrain) and whom that hides (1-inch visibility), the combat
// value modifiers of its melee (every enemy in contact) and of its fire (declared `target`) that the
// table decides, the 1D20 morale modifiers and tests, step 4's extra Disorder Markers, and what a
// failed test means. Distances in inches; flanks and rear by the edge lines of the target (totsk arc
// model).
#include <string>
#include <vector>

#include "rules/fkoe/config.h"
#include "rules/ruleset.h"

namespace vedette::fkoe {

// The findings of `c` (settings applied) on `scene`: the drawing and the tests always, the text and
// the JSON report when `options` asks for them (the frame path asks for neither). Throws InputError,
// naming the scene file and line, for a declaration of the wrong type.
Findings AnalyzeTable(const FkoeConfig& c, const Scene& scene, const AnalyzeOptions& options);

}  // namespace vedette::fkoe
