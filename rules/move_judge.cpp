#include "rules/move_judge.h"

#include <exception>
#include <utility>

namespace vedette {

MoveJudge::MoveJudge(const Ruleset* ruleset, std::string why_none) : ruleset_(ruleset), why_none_(std::move(why_none)) {}

void MoveJudge::TurnAfter(const Scene& before, const std::string& unit, std::string* turn_side, bool* restart,
                          bool* second) const {
  const Unit* mover = before.FindUnit(unit);
  const bool flight = before.declarations.Routed(unit);
  const std::string side = mover ? mover->side : "";
  const std::string& active = before.declarations.active_side;
  *turn_side = turn_side_;
  *restart = false;
  if (!active.empty() && active != turn_side_) {
    *turn_side = active;
    *restart = true;
  } else if (active.empty() && !flight && side != turn_side_) {
    *turn_side = side;
    *restart = true;
  }
  int moves = 0;
  if (!*restart)
    if (auto it = moves_this_turn_.find(unit); it != moves_this_turn_.end()) moves = it->second;
  *second = !flight && side == *turn_side && moves >= 1;
}

MoveVerdict MoveJudge::JudgeMove(const Scene& before, const ObservedMove& move) {
  MoveVerdict v;
  bool restart = false;
  TurnAfter(before, move.unit, &v.turn_side, &restart, &v.second_move);
  if (restart) moves_this_turn_.clear();
  turn_side_ = v.turn_side;
  const Unit* mover = before.FindUnit(move.unit);
  if (!before.declarations.Routed(move.unit) && mover && mover->side == turn_side_) ++moves_this_turn_[move.unit];
  last_second_move_[move.unit] = v.second_move;
  if (!restart || !ruleset_) return Check(before, move, v);
  // The move that starts a turn is judged on the table as the new turn has it.
  v.turn_start = ruleset_->TurnStartChanges(before, v.turn_side);
  if (v.turn_start.empty()) return Check(before, move, v);
  Scene turned = before;
  for (const StateChange& c : v.turn_start) turned.declarations.units[c.unit][c.key] = Declared{c.value, 0};
  return Check(turned, move, v);
}

MoveVerdict MoveJudge::PreviewMove(const Scene& before, const ObservedMove& move) const {
  MoveVerdict v;
  bool restart = false;
  TurnAfter(before, move.unit, &v.turn_side, &restart, &v.second_move);
  return Check(before, move, v);
}

MoveVerdict MoveJudge::Check(const Scene& before, const ObservedMove& move, MoveVerdict v) const {
  if (!ruleset_) {
    v.note = why_none_;
    return v;
  }
  MoveRequest req;
  req.unit = move.unit;
  req.to = move.to;
  req.path = move.path;
  req.second_move = v.second_move;
  try {
    v.check = ruleset_->CheckMove(before, req);
    v.judged = v.check.supported;
    if (!v.judged) v.note = "ruleset '" + ruleset_->Info().name + "' does not judge moves";
  } catch (const std::exception& e) {
    v.note = std::string("the ruleset could not judge this move: ") + e.what();
  }
  return v;
}

GroupVerdict MoveJudge::JudgeGroupMove(const Scene& before, const std::vector<ObservedMove>& moves) const {
  GroupVerdict g;
  if (!ruleset_) {
    g.note = why_none_;
    return g;
  }
  std::vector<MoveRequest> reqs;
  for (const ObservedMove& m : moves) {
    MoveRequest r;
    r.unit = m.unit;
    r.to = m.to;
    auto it = last_second_move_.find(m.unit);
    r.second_move = it != last_second_move_.end() && it->second;
    reqs.push_back(r);
  }
  try {
    g.check = ruleset_->CheckGroupMove(before, reqs);
    g.judged = g.check.supported;
  } catch (const std::exception& e) {
    g.note = std::string("the ruleset could not judge the group: ") + e.what();
  }
  return g;
}

}  // namespace vedette
