#include "overlay/layers.h"

#include <algorithm>

namespace vedette::overlay {
namespace {

// The names of a comma-separated list, trimmed, empty ones left out.
std::vector<std::string_view> SplitNames(std::string_view list) {
  std::vector<std::string_view> names;
  size_t start = 0;
  while (start <= list.size()) {
    size_t end = list.find(',', start);
    if (end == std::string_view::npos) end = list.size();
    std::string_view name = list.substr(start, end - start);
    while (!name.empty() && name.front() == ' ') name.remove_prefix(1);
    while (!name.empty() && name.back() == ' ') name.remove_suffix(1);
    if (!name.empty()) names.push_back(name);
    start = end + 1;
  }
  return names;
}

}  // namespace

const std::vector<LayerInfo>& KnownLayers() {
  static const std::vector<LayerInfo> layers = {
      {"bases", "Bases and facings", '1'},  {"zoc", "Zones of control", '2'},   {"ranges", "Ranges", '3'},
      {"threats", "Threats", '4'},          {"contacts", "Contacts", '5'},      {"support", "Support", '6'},
      {"tests", "Required tests", '7'},     {"terrain", "Terrain", '8'},        {"labels", "Labels", '9'},
  };
  return layers;
}

bool CheckLayerList(std::string_view list, std::string* error) {
  for (const std::string_view name : SplitNames(list)) {
    if (name == "measure") continue;
    const auto& known = KnownLayers();
    if (std::any_of(known.begin(), known.end(), [&](const LayerInfo& l) { return name == l.name; })) continue;
    if (error) {
      *error = "unknown layer '" + std::string(name) + "' (layers: ";
      for (const LayerInfo& l : known) *error += std::string(l.name) + ", ";
      *error += "measure)";
    }
    return false;
  }
  return true;
}

bool LayerVisibility::Visible(std::string_view layer) const {
  return std::find(hidden_.begin(), hidden_.end(), layer) == hidden_.end();
}

void LayerVisibility::Set(std::string_view layer, bool visible) {
  const auto it = std::find(hidden_.begin(), hidden_.end(), layer);
  if (visible && it != hidden_.end()) hidden_.erase(it);
  if (!visible && it == hidden_.end()) hidden_.emplace_back(layer);
}

std::string LayerVisibility::HiddenList() const {
  std::string out;
  for (const std::string& h : hidden_) out += (out.empty() ? "" : ",") + h;
  return out;
}

LayerVisibility LayerVisibility::FromHiddenList(std::string_view list) {
  LayerVisibility v;
  for (const std::string_view name : SplitNames(list)) v.Set(name, false);
  return v;
}

}  // namespace vedette::overlay
