#include "pipeline/table_scene.h"

#include <cmath>

#include "rules/geometry/vec.h"

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

// Whether pose `a` is within `mm` and `deg` of `b`.
static bool WithinOf(const Pose& a, const Pose& b, double mm, double deg) {
  if (std::hypot(a.x_mm - b.x_mm, a.y_mm - b.y_mm) > mm) return false;
  return std::abs(geom::NormalizeDeg(a.heading_deg - b.heading_deg)) <= deg;
}

bool HoldStillPoses(Scene* now, const Scene& analysed, double mm, double deg) {
  if (now->units.size() != analysed.units.size()) return true;
  bool changed = false;
  for (size_t i = 0; i < now->units.size(); ++i) {
    auto &pa = now->units[i].pose;
    const auto& pb = analysed.units[i].pose;
    if (now->units[i].id != analysed.units[i].id || pa.has_value() != pb.has_value()) {
      changed = true;
    } else if (pa && WithinOf(*pa, *pb, mm, deg)) {
      pa = pb;
    } else if (pa) {
      changed = true;
    }
  }
  return changed;
}

}  // namespace vedette::pipeline
