#include "pipeline/event_words.h"

#include <cmath>
#include <cstdio>

namespace vedette::pipeline {
namespace {

using nlohmann::json;

std::string Number(const json& v, const char* format) {
  if (!v.is_number()) return "?";
  char buf[48];
  std::snprintf(buf, sizeof buf, format, v.get<double>());
  return buf;
}

// "(380, 600) mm" from {"x_mm", "y_mm"}.
std::string At(const json& pose) {
  if (!pose.is_object()) return "";
  return " at (" + Number(pose.value("x_mm", json()), "%.0f") + ", " + Number(pose.value("y_mm", json()), "%.0f") + ") mm";
}

std::string Value(const json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

std::string MoveWords(const json& line, const std::string& unit) {
  if (line.contains("says") && line["says"].is_string()) return line["says"].get<std::string>();
  // A log without the verdict's words (older, or no ruleset): the distance and why it was not judged.
  std::string s = unit + " moved " + Number(line.value("distance_mm", json()), "%.0f") + " mm";
  const std::string note = line.value("note", "");
  return note.empty() ? s : s + " (" + note + ")";
}

std::string GroupWords(const json& line) {
  std::string units;
  for (const json& u : line.value("units", json::array())) units += (units.empty() ? "" : ", ") + Value(u);
  std::string s = units + " moved together";
  if (line.contains("group_allowed")) s += line["group_allowed"].get<bool>() ? ": one group move" : ": not one group move";
  return s;
}

std::string TrackWords(const std::string& type, const json& line, const std::string& unit) {
  if (type == "appeared") return unit + " came onto the table" + At(line.value("at", json()));
  if (type == "occluded") return unit + " hidden (a hand?)" + At(line.value("at", json())) + ": its last pose is kept";
  if (type == "lifted") return unit + " lifted off the table" + At(line.value("at", json()));
  if (type == "removed") return unit + " removed from the table" + At(line.value("at", json()));
  if (type == "replaced") return unit + " put back" + At(line.value("at", json()));
  if (type == "duplicate_id")
    return "marker " + Value(line.value("marker", json())) + " of " + unit +
           " seen in two places: following the one nearest its last pose";
  if (type == "unknown_marker") return "marker " + Value(line.value("marker", json())) + " is not in the roster: ignored";
  if (type == "camera_moved")
    return "the camera moved (" + Number(line.value("shift_px", json()), "%.1f") + " px, " +
           Number(line.value("rotation_deg", json()), "%.2f") + " deg): the table is registered again";
  if (type == "registration_lost") return "anchors not seen for 1 s: holding the last camera pose";
  return "";
}

}  // namespace

std::string EventWords(const json& line) {
  const std::string type = line.value("event", "");
  const std::string unit = line.contains("unit") && line["unit"].is_string() ? line["unit"].get<std::string>() : "";
  std::string words;
  if (type == "move") {
    words = MoveWords(line, unit);
  } else if (type == "group_move") {
    words = GroupWords(line);
  } else if (type == "declare") {
    const std::string source = line.value("source", "");
    const std::string key = line.value("key", "");
    words = (unit.empty() ? "" : unit + " ") + key + ": " + Value(line.value("value", json())) +
            (source.rfind("rules: ", 0) == 0 ? " (" + source.substr(7) + ")" : source.empty() ? "" : " (" + source + ")");
  } else {
    words = TrackWords(type, line, unit);
  }
  if (words.empty()) words = type + (unit.empty() ? "" : " " + unit);
  const json frame = line.value("frame", json());
  return "[" + (frame.is_number_integer() ? std::to_string(frame.get<long long>()) : std::string("?")) + "] " + words;
}

std::string TrackingWords(std::string_view state) {
  if (state == "unseen") return "not seen yet";
  if (state == "at_rest") return "at rest";
  if (state == "occluded") return "hidden (a hand?)";
  if (state == "lifted") return "lifted off";
  if (state == "removed") return "removed";
  return std::string(state);  // "seen", "moving": already words
}

}  // namespace vedette::pipeline
