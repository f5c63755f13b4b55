#pragma once
// Layers the players switch on and off. A primitive names its layer (rules/drawing.h); the known
// ones have a title and a number key, anything else a ruleset invents is shown unless hidden by
// name. Labels are a layer of their own *and* follow their shape's layer: hiding "threats" hides a
// threat's label, hiding "labels" hides every label.
#include <string>
#include <string_view>
#include <vector>

namespace vedette::overlay {

struct LayerInfo {
  const char* name;   // as in DrawPrimitive::layer
  const char* title;  // for the layer panel
  char key;           // keyboard shortcut ('1'..'9')
};

// bases 1, zoc 2, ranges 3, threats 4, contacts 5, support 6, tests 7, terrain 8, labels 9.
const std::vector<LayerInfo>& KnownLayers();

// Whether every name of a comma-separated list (--hide) is a layer something draws on: the known
// layers and the dispute tool's "measure". false with the unknown name and the valid ones.
bool CheckLayerList(std::string_view list, std::string* error);

class LayerVisibility {
 public:
  bool Visible(std::string_view layer) const;
  void Set(std::string_view layer, bool visible);
  void Toggle(std::string_view layer) { Set(layer, !Visible(layer)); }
  const std::vector<std::string>& hidden() const { return hidden_; }

  // "zoc,ranges": the hidden layers, comma-separated (settings files, --hide).
  std::string HiddenList() const;
  static LayerVisibility FromHiddenList(std::string_view list);

 private:
  std::vector<std::string> hidden_;  // few entries: a linear search beats a map
};

}  // namespace vedette::overlay
