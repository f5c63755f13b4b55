#pragma once
// Reading an event log back (pipeline/event_log.h writes it): what a recording kept, checked line
// by line. Used by `vedette review` (after a crash or a kill: how far do the log and the video
// reach?) and by the tests that kill the program.
//
// A log written by a program that was killed may end in a line cut short: that last line is
// reported (cut_last_line), not refused. Any other bad line is an InputError naming FILE:LINE.
// Depends on nlohmann/json only, so it can be fuzzed alone (tests/fuzz/event_log_fuzz.cpp).
#include <istream>
#include <string>

#include <nlohmann/json.hpp>

namespace vedette::pipeline {

struct EventLogLimits {
  size_t max_line_bytes = 16 << 20;  // longer than any frame line of 1,000 units
};

struct EventLogSummary {
  nlohmann::json header;      // the first line: {"log":"vedette","log_version",...}
  int lines = 0;              // whole lines read, header included
  int frames = 0;             // frame lines
  int last_frame = -1;        // index of the last frame line (frames are numbered 0, 1, 2, ...)
  double last_t_s = 0;        // its time, s from the start of the source
  int events = 0;             // event lines (moves, appearances, ...), declarations apart
  int declarations = 0;       // "declare" lines
  bool cut_last_line = false; // the file ends inside a line (a killed writer)
};

// Throws InputError(source, line, what) for a log that is not one of ours or is damaged before
// its last line.
EventLogSummary ReadEventLog(std::istream& in, const std::string& source, const EventLogLimits& limits = {});
EventLogSummary ReadEventLogFile(const std::string& path, const EventLogLimits& limits = {});

}  // namespace vedette::pipeline
