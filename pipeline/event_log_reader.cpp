#include "pipeline/event_log_reader.h"

#include <cmath>
#include <fstream>

#include "pipeline/log_version.h"
#include "rules/input_error.h"

namespace vedette::pipeline {
namespace {

int WholeNumber(const nlohmann::json& j, const char* key, const std::string& source, int line) {
  const auto it = j.find(key);
  if (it == j.end() || !it->is_number_integer() || it->get<long long>() < 0 || it->get<long long>() > 1'000'000'000)
    throw InputError(source, line, std::string("'") + key + "' must be a whole number from 0 (frames)");
  return static_cast<int>(it->get<long long>());
}

double Seconds(const nlohmann::json& j, const std::string& source, int line) {
  const auto it = j.find("t");
  if (it == j.end() || !it->is_number() || !std::isfinite(it->get<double>()) || it->get<double>() < 0)
    throw InputError(source, line, "'t' must be a time in seconds from 0");
  return it->get<double>();
}

void ReadHeader(const nlohmann::json& j, const std::string& source, EventLogSummary* s) {
  if (!j.is_object() || !j.contains("log") || j["log"] != "vedette")
    throw InputError(source, 1, "not a Vedette event log: the first line must be {\"log\":\"vedette\",...}");
  for (const char* key : {"ruleset", "roster", "source"})
    if (j.contains(key) && !j[key].is_string()) throw InputError(source, 1, std::string("the header's '") + key + "' must be text");
  if (j.contains("units") && !j["units"].is_number_unsigned())
    throw InputError(source, 1, "the header's 'units' must be a whole number");
  const auto v = j.find("log_version");
  if (v == j.end() || !v->is_number_integer() || v->get<long long>() < 1)
    throw InputError(source, 1, "the header has no log_version");
  if (v->get<long long>() > kLogVersion)
    throw InputError(source, 1, "log_version " + std::to_string(v->get<long long>()) + " is newer than this Vedette reads (" +
                                    std::to_string(kLogVersion) + "): update Vedette");
  s->header = j;
}

void ReadBodyLine(const nlohmann::json& j, const std::string& source, int line, EventLogSummary* s) {
  if (!j.is_object()) throw InputError(source, line, "each line must be a JSON object");
  if (j.contains("event")) {
    if (!j["event"].is_string()) throw InputError(source, line, "'event' must be a name");
    WholeNumber(j, "frame", source, line);
    Seconds(j, source, line);
    if (j["event"] == "declare") ++s->declarations;
    else ++s->events;
    return;
  }
  const int frame = WholeNumber(j, "frame", source, line);
  const double t = Seconds(j, source, line);
  if (frame <= s->last_frame)
    throw InputError(source, line, "frame " + std::to_string(frame) + " comes after frame " + std::to_string(s->last_frame));
  if (t < s->last_t_s) throw InputError(source, line, "time goes backwards");
  if (const auto u = j.find("units"); u != j.end() && !u->is_array())
    throw InputError(source, line, "'units' must be a list");
  s->last_frame = frame;
  s->last_t_s = t;
  ++s->frames;
}

}  // namespace

EventLogSummary ReadEventLog(std::istream& in, const std::string& source, const EventLogLimits& limits) {
  EventLogSummary s;
  std::string text;
  int line = 0;
  while (std::getline(in, text)) {
    ++line;
    const bool last = in.eof();  // no newline after it: the writer may have been stopped mid-line
    if (text.size() > limits.max_line_bytes)
      throw InputError(source, line, "line longer than " + std::to_string(limits.max_line_bytes) + " bytes");
    nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
    if (j.is_discarded()) {
      if (last && line > 1) {
        s.cut_last_line = true;
        break;
      }
      throw InputError(source, line, "not a JSON line");
    }
    if (line == 1) ReadHeader(j, source, &s);
    else ReadBodyLine(j, source, line, &s);
    ++s.lines;
  }
  if (line == 0) throw InputError(source, 0, "empty: not a Vedette event log");
  return s;
}

EventLogSummary ReadEventLogFile(const std::string& path, const EventLogLimits& limits) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, 0, "cannot read the event log");
  return ReadEventLog(in, path, limits);
}

}  // namespace vedette::pipeline
