#include "rules/totsk/command_points.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "rules/geometry/distance.h"
#include "rules/totsk/totsk_units.h"

namespace vedette::totsk {

int Rating(const Unit& g) {
  const auto r = g.stats.find("rating");
  return r == g.stats.end() ? 0 : static_cast<int>(std::lround(r->second));
}

namespace {

// Each General's units in reach, and each unit's Generals with a rating in reach (of the units making
// bonus moves alone, unless reach.every_unit).
void FindReach(const Scene& scene, const std::vector<std::string>& bonus_moves, const CommandReach& reach, CommandPoints* out) {
  std::vector<geom::Base> gfp;
  std::vector<double> gradius;
  for (const CommandPoints::General& g : out->generals) {
    gfp.push_back(Footprint(*g.unit));
    gradius.push_back(std::hypot(gfp.back().width_mm, gfp.back().depth_mm) / 2.0);
  }
  for (const Unit& u : scene.units) {
    if (!u.pose || IsGeneral(u)) continue;
    if (!reach.every_unit && std::find(bonus_moves.begin(), bonus_moves.end(), u.id) == bonus_moves.end()) continue;
    std::optional<geom::Base> ufp;
    double uradius = 0.0, reach_mm = 0.0;
    for (size_t gi = 0; gi < out->generals.size(); ++gi) {
      CommandPoints::General& g = out->generals[gi];
      if (g.unit->side != u.side) continue;
      if (!ufp) {
        ufp = Footprint(u);
        uradius = std::hypot(ufp->width_mm, ufp->depth_mm) / 2.0;
        reach_mm = reach.reach_bw * scene.BwFor(u) + reach.tol_mm;
      }
      // Bounding circles further apart than the reach: out of reach without the exact distance.
      if ((ufp->centre_mm - gfp[gi].centre_mm).norm() - uradius - gradius[gi] > reach_mm) continue;
      if (geom::BasesWithin(*ufp, gfp[gi], reach_mm)) {
        g.in_reach.push_back(u.id);
        if (g.rating > 0) out->servers[u.id].push_back(gi);
      }
    }
  }
}

}  // namespace

CommandPoints MatchCommandPoints(const Scene& scene, const std::vector<std::string>& bonus_moves, const CommandReach& reach,
                                 const std::function<bool(const Unit&)>& lost) {
  CommandPoints out;
  for (const Unit& g : scene.units)
    if (g.pose && IsGeneral(g) && !lost(g)) out.generals.push_back({&g, Rating(g), {}, {}});
  FindReach(scene, bonus_moves, reach, &out);
  // Kuhn's augmenting paths: each point (a General's slot) serves one bonus move. A move placed
  // earlier stays served (a path only moves it to another point), so a later one is the one left out.
  std::vector<size_t> slot_general;
  for (size_t gi = 0; gi < out.generals.size(); ++gi)
    for (int k = 0; k < out.generals[gi].rating; ++k) slot_general.push_back(gi);
  std::vector<int> owner(slot_general.size(), -1);  // slot -> index in bonus_moves
  std::function<bool(size_t, std::vector<bool>&)> place = [&](size_t mi, std::vector<bool>& seen) {
    const auto it = out.servers.find(bonus_moves[mi]);
    if (it == out.servers.end()) return false;
    for (size_t sl = 0; sl < slot_general.size(); ++sl) {
      if (seen[sl] || std::find(it->second.begin(), it->second.end(), slot_general[sl]) == it->second.end()) continue;
      seen[sl] = true;
      if (owner[sl] < 0 || place(static_cast<size_t>(owner[sl]), seen)) {
        owner[sl] = static_cast<int>(mi);
        return true;
      }
    }
    return false;
  };
  for (size_t mi = 0; mi < bonus_moves.size(); ++mi) {
    std::vector<bool> seen(slot_general.size(), false);
    if (!place(mi, seen)) out.unserved.push_back(bonus_moves[mi]);
  }
  for (size_t sl = 0; sl < slot_general.size(); ++sl)
    if (owner[sl] >= 0) out.generals[slot_general[sl]].used_by.push_back(bonus_moves[static_cast<size_t>(owner[sl])]);
  for (CommandPoints::General& g : out.generals) std::sort(g.used_by.begin(), g.used_by.end());
  return out;
}

}  // namespace vedette::totsk
