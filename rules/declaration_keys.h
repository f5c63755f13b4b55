#pragma once
// What a player may declare about a unit under a ruleset. A key the ruleset does not read is a typing
// mistake (`wavering: true` for a game with no wavering state, `falied_morale`) or another game's word,
// which would otherwise be ignored without a word: every ruleset that reads declarations refuses it at
// its line, listing the keys it reads.
#include <string>
#include <vector>

#include "rules/scene/scene.h"

namespace vedette {

// Keys every ruleset accepts: what the live window's state menu and clip scripts declare under any
// ruleset (state, routed, firing, limbered). A ruleset that gives them no meaning ignores them.
const std::vector<std::string>& CommonDeclarationKeys();

// Throws InputError (the scene file and the line of the declaration) for the first unit declaration
// whose key is neither in `keys` nor common: "declarations: B1.wavering is not something the kow ruleset
// reads (it reads: ...)".
void CheckDeclarationKeys(const Scene& scene, const std::string& ruleset, const std::vector<std::string>& keys);

}  // namespace vedette
