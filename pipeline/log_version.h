#pragma once
// The event log's format version (pipeline/event_log.h writes it, event_log_reader.h reads it).
// Version 2: the header line; move verdicts judged by the user's ruleset settings.
namespace vedette::pipeline {
inline constexpr int kLogVersion = 2;
}
