#pragma once
// Judging the moves the camera saw, for whichever ruleset the players chose: a unit's move
// (Ruleset::CheckMove), units that moved together (Ruleset::CheckGroupMove), and whose turn it is.
//
// The turn: the declared active side when there is one (`declarations: active_side:`), else the
// side of the last ordered move (a move by the other side starts its turn). A declared rout is a
// flight, not an order: it neither starts a turn nor counts as one of the turn's moves. The second
// or later ordered move of a unit in its side's turn is a second move (TotSK QRS: an action test;
// FAQ: never into contact).
#include <map>
#include <string>
#include <vector>

#include "rules/ruleset.h"
#include "rules/scene/observed_move.h"
#include "rules/scene/scene.h"

namespace vedette {

struct MoveVerdict {
  bool judged = false;        // false: not judged (`note` says why), nothing else but turn fields set
  std::string note;           // why not judged ("ruleset 'kow' does not judge moves", an error)
  std::string turn_side;      // the side whose turn it is after this move
  bool second_move = false;   // a second or later ordered move of the unit this turn
  std::vector<StateChange> turn_start;  // this move started a turn: what the ruleset clears for it (Ruleset::TurnStartChanges)
  MoveCheck check;            // the ruleset's answer, when judged
};

struct GroupVerdict {
  bool judged = false;        // false: the ruleset does not judge group moves, or it failed (`note`)
  std::string note;
  GroupMoveCheck check;
};

class MoveJudge {
 public:
  // ruleset: null when none judges moves; `why_none` then says why (shown with every move).
  MoveJudge(const Ruleset* ruleset, std::string why_none = "");

  // before: the table as it stood when the move started (the mover at `move.from`, the others at
  // rest), with the players' declarations. Updates the turn.
  MoveVerdict JudgeMove(const Scene& before, const ObservedMove& move);
  // What the rules would say if a unit under way stopped where it is now: the turn is not changed.
  MoveVerdict PreviewMove(const Scene& before, const ObservedMove& move) const;
  // Moves that started and ended together; each was judged alone first (JudgeMove).
  GroupVerdict JudgeGroupMove(const Scene& before, const std::vector<ObservedMove>& moves) const;

  const std::string& turn_side() const { return turn_side_; }

 private:
  // The turn after a move of `move.unit` in `before`, and whether it is a second move (no change).
  void TurnAfter(const Scene& before, const std::string& unit, std::string* turn_side, bool* restart, bool* second) const;
  MoveVerdict Check(const Scene& before, const ObservedMove& move, MoveVerdict v) const;

  const Ruleset* ruleset_;
  std::string why_none_;
  std::string turn_side_;                          // side whose turn it is
  std::map<std::string, int> moves_this_turn_;     // unit -> ordered moves this turn
  std::map<std::string, bool> last_second_move_;   // unit -> its last judged move was a second move
};

}  // namespace vedette
