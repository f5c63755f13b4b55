#include "pipeline/table_scene.h"

namespace vedette::pipeline {

Scene TableScene(const Scene& roster, const std::vector<vision::TrackedUnit>& units, TablePoses poses,
                 const std::map<std::string, Pose>& at) {
  Scene scene = roster;
  for (Unit& u : scene.units) u.pose.reset();
  for (const vision::TrackedUnit& t : units) {
    Unit* u = scene.FindUnit(t.id);
    if (!u) continue;
    if (auto it = at.find(t.id); it != at.end()) u->pose = it->second;
    else if (t.has_pose && vision::OnTable(t.state))
      u->pose = (poses == TablePoses::kAtRest && t.has_rest_pose) ? t.rest_pose : t.pose;
  }
  if (poses == TablePoses::kAtRest) {
    // The rules judge a move among the units on the table: the others are left out, not unplaced.
    std::vector<Unit> kept;
    for (Unit& u : scene.units)
      if (u.pose) kept.push_back(std::move(u));
    scene.units = std::move(kept);
  }
  return scene;
}

}  // namespace vedette::pipeline
