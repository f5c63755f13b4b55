#include "ui/live_settings.h"

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace vedette::ui {

namespace {

std::string Trim(const std::string& s) {
  const size_t a = s.find_first_not_of(" \t\r");
  if (a == std::string::npos) return "";
  const size_t b = s.find_last_not_of(" \t\r");
  return s.substr(a, b - a + 1);
}

void ReadView(const std::string& value, ViewState* v) {
  std::istringstream in(value);
  double zoom, x, y;
  // "inf" and "nan" read as numbers: a view with either would draw nothing, so it is skipped.
  if (in >> zoom >> x >> y && std::isfinite(zoom) && std::isfinite(x) && std::isfinite(y) && zoom > 0 && zoom <= 1000) {
    v->zoom = zoom;
    v->centre = {x, y};
    v->centred = true;
  }
}

std::string WriteView(const ViewState& v) {
  if (!v.centred) return "";
  std::ostringstream o;
  o.precision(10);
  o << v.zoom << " " << v.centre.x << " " << v.centre.y;
  return o.str();
}

}  // namespace

std::string DefaultSettingsDir() {
  if (const char* x = std::getenv("XDG_CONFIG_HOME"); x && *x) return std::string(x) + "/vedette";
  if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.config/vedette";
  return ".";
}

LiveSettings LoadLiveSettings(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return ParseLiveSettings(text.str());
}

LiveSettings ParseLiveSettings(const std::string& text) {
  LiveSettings s;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    const size_t eq = line.find('=');
    if (line.empty() || line[0] == '#' || eq == std::string::npos) continue;
    const std::string key = Trim(line.substr(0, eq)), value = Trim(line.substr(eq + 1));
    if (key == "hidden_layers") s.layers = LayerVisibility::FromHiddenList(value);
    else if (key == "top_down") s.top_down = value == "1";
    else if (key == "show_help") s.show_help = value == "1";
    else if (key == "show_panels") s.show_panels = value == "1";
    else if (key == "show_setup") s.show_setup = value == "1";
    else if (key == "full_screen") s.full_screen = value == "1";
    else if (key == "text_size") {
      char* end = nullptr;
      const double v = std::strtod(value.c_str(), &end);
      if (end && *end == '\0' && v >= 0.6 && v <= 3.0) s.text_size = v;  // else the default
    }
    else if (key == "camera_view") ReadView(value, &s.camera_view);
    else if (key == "table_view") ReadView(value, &s.table_view);
  }
  return s;
}

bool SaveLiveSettings(const LiveSettings& s, const std::string& path) {
  std::error_code ec;
  const std::filesystem::path p(path);
  if (p.has_parent_path()) std::filesystem::create_directories(p.parent_path(), ec);
  std::ofstream out(path);
  if (!out) return false;
  out << "# vedette live: settings kept between runs\n";
  out << "hidden_layers = " << s.layers.HiddenList() << "\n";
  out << "top_down = " << (s.top_down ? 1 : 0) << "\n";
  out << "show_help = " << (s.show_help ? 1 : 0) << "\n";
  out << "show_panels = " << (s.show_panels ? 1 : 0) << "\n";
  out << "show_setup = " << (s.show_setup ? 1 : 0) << "\n";
  out << "full_screen = " << (s.full_screen ? 1 : 0) << "\n";
  out << "text_size = " << s.text_size << "\n";
  out << "camera_view = " << WriteView(s.camera_view) << "\n";
  out << "table_view = " << WriteView(s.table_view) << "\n";
  return static_cast<bool>(out);
}

}  // namespace vedette::ui
