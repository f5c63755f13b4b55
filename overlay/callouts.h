#pragma once
// One card per unit. A unit's name, its state icons, the tests it must take with their odds, the
// verdict on its last move and its state are gathered into one card at its name (the layout then
// puts the card beside the unit with a leader line), instead of four labels scattered over the
// base: the player reads the unit in one place. Each line keeps its own colour; a label that
// starts with the unit's name loses it (the card names the unit once); long lines wrap.
#include <string>
#include <vector>

#include "rules/drawing.h"

namespace vedette::overlay {

struct LabelCommand;  // draw_commands.h

struct CalloutOptions {
  bool enabled = true;  // false: every label where its primitive puts it
  int wrap_chars = 40;  // a line longer than this breaks at a space (a card stays narrow), characters
  bool Check(std::string* error) const;
};

// Which labels join their unit's card: the unit's kLabel primitives on the "labels" and "tests"
// layers (names, tests, verdicts, states), not measurements, threats, ranges or own-place labels.
bool JoinsCard(const DrawPrimitive& p);

// Replaces the labels of every unit with a test, verdict, state or icon by one card at the unit's
// name label (or its first label). `glyphs`: indices into `primitives` of the visible kGlyph
// primitives. The card's `primitive` is its most important member's (the layout's priority).
void GatherCallouts(const CalloutOptions& options, const std::vector<DrawPrimitive>& primitives,
                    const std::vector<int>& glyphs, std::vector<LabelCommand>* labels);

// "R6 morale test -4: ..." in R6's card reads "Morale test -4: ..." (exposed for tests).
std::string CardLineText(const std::string& text, const std::string& unit_id);
// `text` broken at spaces into lines of at most `chars` (a longer word stays whole).
std::vector<std::string> Wrap(const std::string& text, int chars);

}  // namespace vedette::overlay
