#pragma once
// A judged move as the player sees it on the table: the path the unit took, its outline where it
// stopped (red and heavy when the move was illegal) and a card at the unit with the verdict in
// words. Both renderers draw it (layer "tests"); the pipeline keeps it up until the next turn or
// until the players acknowledge it.
#include <string>
#include <vector>

#include "rules/drawing.h"
#include "rules/move_judge.h"
#include "rules/scene/observed_move.h"
#include "rules/scene/scene.h"

namespace vedette {

// "wheel", "into contact (flank)", "second move": a classification word for a player.
std::string MoveKindWords(const std::string& kind);

// One line a player reads: "B2 wheel, 41 mm: test Second or subsequent move, pass 67 %",
// "B2 ILLEGAL MOVE: moves 90 degrees off its facing", "B2 moved 40 mm (not judged: ...)".
std::string MoveVerdictText(const ObservedMove& move, const MoveVerdict& verdict);

// The card at the unit, short enough to read at a glance: "B2 wheel: test 67 %" (to pass),
// "B2 straight ahead: no test", "B2 ILLEGAL MOVE: moves 90 degrees off its facing".
std::string MoveVerdictCard(const ObservedMove& move, const MoveVerdict& verdict);

// `scene`: the table after the move (the unit's bases are drawn at move.to).
std::vector<DrawPrimitive> MoveVerdictDrawing(const Scene& scene, const ObservedMove& move, const MoveVerdict& verdict);

// A ruler while a unit moves: from where it rested to where it is now, with the distance (mm and
// the army's base widths), the angle turned, and what the rules would say if it stopped here.
// `scene`: the table with the unit's bases (any pose).
std::vector<DrawPrimitive> MoveRulerDrawing(const Scene& scene, const ObservedMove& so_far, const MoveVerdict& if_stopped);
std::string MoveRulerText(const Scene& scene, const ObservedMove& so_far, const MoveVerdict& if_stopped);

}  // namespace vedette
