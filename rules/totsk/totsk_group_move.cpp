#include "rules/totsk/totsk_group_move.h"

#include <algorithm>
#include <set>
#include <sstream>

#include "rules/geometry/distance.h"
#include "rules/totsk/totsk_move.h"
#include "rules/totsk/totsk_units.h"

namespace vedette::totsk {

namespace {

// QRS "Individual Unit moves that require an Action Test": tests a group may not share.
const std::set<std::string>& IndividualOnlyActions() {
  static const std::set<std::string> k = {"contact_front", "contact_front_hard", "light_contact_flank", "straight_back",
                                          "replace_forward", "replace_adjacent", "pass_through", "echelon",
                                          "formation_same_facing", "fire_after_pivot"};
  return k;
}

}  // namespace

GroupMoveCheck CheckTotskGroupMove(const TotskData& data, const TotskSettings& settings, const Scene& scene,
                                   const std::vector<MoveRequest>& moves) {
  GroupMoveCheck g;
  g.supported = true;
  nlohmann::json members = nlohmann::json::array();
  std::vector<std::string> why_not;
  std::vector<const Unit*> units;
  for (const MoveRequest& m : moves) {
    const Unit* u = scene.FindUnit(m.unit);
    if (!u || !u->pose) {
      why_not.push_back("no unit '" + m.unit + "' with a pose in the scene");
      continue;
    }
    units.push_back(u);
  }
  if (moves.size() < 2) why_not.push_back("a group move needs at least two units");

  // One side and one type: "if all same type" (QRS note), light troops only with light troops.
  for (const Unit* u : units) {
    if (u->side != units.front()->side) why_not.push_back(u->id + " is of another side than " + units.front()->id);
    else if (u->type != units.front()->type || IsLightTroops(*u) != IsLightTroops(*units.front()))
      why_not.push_back(u->id + " is not of the same type as " + units.front()->id + " (QRS: group moves if all same type)");
  }
  // Together at the start: every member within 1 BW of another (rear support included).
  for (const Unit* u : units) {
    bool near = false;
    for (const Unit* v : units)
      if (v != u && geom::BasesWithin(Footprint(*u), Footprint(*v), scene.BwFor(*u) + 1e-6)) near = true;
    if (!near && units.size() >= 2) why_not.push_back(u->id + " is not within 1 BW of another unit of the group");
  }

  // Each member judged on its own: the group members stand at their start poses, as when the
  // group begins to move.
  std::map<std::string, RequiredTest> hardest;  // action key -> the member test with the lowest odds
  std::map<std::string, std::vector<std::string>> who;  // action key -> members that need it
  bool all_legal = true;
  for (const MoveRequest& m : moves) {
    if (!scene.FindUnit(m.unit)) continue;
    const MoveCheck c = CheckTotskMove(data, settings, scene, m);
    members.push_back({{"unit", m.unit}, {"legal", c.legal}, {"kinds", c.kinds}, {"tests", c.report.value("tests", nlohmann::json::array())}});
    if (!c.legal) {
      all_legal = false;
      why_not.push_back(m.unit + "'s move is illegal: " + c.illegal_reason);
      continue;
    }
    const nlohmann::json tests = c.report.value("tests", nlohmann::json::array());
    for (size_t i = 0; i < tests.size() && i < c.tests.size(); ++i) {
      const std::string key = tests[i].value("action", "");
      if (IndividualOnlyActions().count(key)) {
        why_not.push_back(m.unit + "'s move needs '" + key + "', which only an individual unit may attempt (QRS)");
        continue;
      }
      who[key].push_back(m.unit);
      if (!hardest.count(key) || c.tests[i].p_success < hardest[key].p_success) hardest[key] = c.tests[i];
    }
  }
  g.allowed = why_not.empty();
  std::ostringstream text;
  std::vector<std::string> ids;
  for (const MoveRequest& m : moves) ids.push_back(m.unit);
  text << "TotSK group move of";
  for (const auto& id : ids) text << " " << id;
  text << ": " << (g.allowed ? "allowed as one group" : "NOT a group move") << "\n";
  nlohmann::json group_tests = nlohmann::json::array();
  double p_all = 1.0;
  if (g.allowed) {
    for (auto& [key, t] : hardest) {
      RequiredTest gt = t;
      gt.unit = ids.front();
      gt.reason = "group test (one roll; if it fails the whole group fails, FAQ): " + t.reason;
      g.tests.push_back(gt);
      p_all *= gt.p_success;
      group_tests.push_back({{"action", key}, {"needed_by", who[key]}, {"hardest_for", t.unit}, {"p_success", gt.p_success},
                             {"odds", gt.odds}, {"reason", gt.reason}});
      text << "  " << key << " for the group (hardest for " << t.unit << "): " << gt.odds << "\n";
    }
    if (g.tests.empty()) text << "  no action test\n";
  } else {
    g.reason = why_not.front();
    for (const auto& w : why_not) text << "  " << w << "\n";
    text << "  each unit's own move and tests stand\n";
  }
  g.report = {{"ruleset", "totsk"}, {"units", ids}, {"allowed", g.allowed},
              {"reasons", why_not}, {"all_members_legal", all_legal}, {"group_tests", group_tests},
              {"p_all_pass", g.allowed ? p_all : 0.0}, {"members", members}};
  g.text = text.str();
  return g;
}

}  // namespace vedette::totsk
