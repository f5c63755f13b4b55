#include "overlay/focus.h"

#include <algorithm>

namespace vedette::overlay {

std::vector<std::string> FocusUnits(const Scene& scene, const std::vector<std::string>& picked) {
  std::vector<std::string> out;
  auto add = [&](const std::string& id) {
    if (!id.empty() && std::find(out.begin(), out.end(), id) == out.end()) out.push_back(id);
  };
  for (const std::string& id : picked) add(id);
  const std::string& side = scene.declarations.active_side;
  if (!side.empty())
    for (const Unit& u : scene.units)
      if (u.side == side) add(u.id);
  return out;
}

}  // namespace vedette::overlay
