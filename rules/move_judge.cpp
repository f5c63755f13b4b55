#include "rules/move_judge.h"

#include <exception>
#include <utility>

namespace vedette {

MoveJudge::MoveJudge(const Ruleset* ruleset, std::string why_none) : ruleset_(ruleset), why_none_(std::move(why_none)) {}

MoveVerdict MoveJudge::JudgeMove(const Scene& before, const ObservedMove& move) {
  MoveVerdict v;
  const Unit* mover = before.FindUnit(move.unit);
  const bool flight = before.declarations.Routed(move.unit);
  const std::string side = mover ? mover->side : "";
  const std::string& active = before.declarations.active_side;
  if (!active.empty() && active != turn_side_) {
    turn_side_ = active;
    moves_this_turn_.clear();
  } else if (active.empty() && !flight && side != turn_side_) {
    turn_side_ = side;
    moves_this_turn_.clear();
  }
  if (!flight && side == turn_side_) v.second_move = moves_this_turn_[move.unit]++ >= 1;
  v.turn_side = turn_side_;
  last_second_move_[move.unit] = v.second_move;
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
