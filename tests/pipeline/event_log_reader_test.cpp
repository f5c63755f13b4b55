// Reading an event log back: a good log, a log cut by a kill, and damaged logs refused at their line.
#include <gtest/gtest.h>

#include <sstream>

#include "pipeline/event_log_reader.h"
#include "rules/input_error.h"

namespace vedette::pipeline {
namespace {

const std::string kHeader = R"({"log":"vedette","log_version":2,"ruleset":"totsk","roster":"r.yaml","units":3})";

EventLogSummary Read(const std::string& text) {
  std::istringstream in(text);
  return ReadEventLog(in, "out.jsonl");
}

// The refusal's "FILE:LINE: what", or "" when the text was read.
std::string Refusal(const std::string& text) {
  try {
    Read(text);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(EventLogReader, CountsFramesEventsAndDeclarations) {
  const EventLogSummary s = Read(kHeader + "\n" + R"({"frame":0,"t":0,"units":[]})" + "\n" +
                                 R"({"event":"appeared","frame":0,"t":0,"unit":"B1"})" + "\n" +
                                 R"({"frame":1,"t":0.0667,"units":[]})" + "\n" +
                                 R"({"event":"declare","frame":1,"t":0.0667,"unit":"B1","key":"state","value":"shaken"})" + "\n");
  EXPECT_EQ(s.frames, 2);
  EXPECT_EQ(s.last_frame, 1);
  EXPECT_NEAR(s.last_t_s, 0.0667, 1e-9);
  EXPECT_EQ(s.events, 1);
  EXPECT_EQ(s.declarations, 1);
  EXPECT_EQ(s.lines, 5);
  EXPECT_FALSE(s.cut_last_line);
  EXPECT_EQ(s.header["ruleset"], "totsk");
}

TEST(EventLogReader, ALastLineCutByAKillIsLeftOutNotRefused) {
  const EventLogSummary s = Read(kHeader + "\n" + R"({"frame":0,"t":0,"units":[]})" + "\n" + R"({"frame":1,"t":0.06,"uni)");
  EXPECT_TRUE(s.cut_last_line);
  EXPECT_EQ(s.frames, 1);
  EXPECT_EQ(s.last_frame, 0);
}

TEST(EventLogReader, DamageBeforeTheLastLineIsRefusedAtItsLine) {
  EXPECT_EQ(Refusal(""), "out.jsonl: empty: not a Vedette event log");
  EXPECT_EQ(Refusal("{\"frame\":0}\n"), "out.jsonl:1: not a Vedette event log: the first line must be {\"log\":\"vedette\",...}");
  EXPECT_EQ(Refusal(R"({"log":"vedette","log_version":9})"),
            "out.jsonl:1: log_version 9 is newer than this Vedette reads (2): update Vedette");
  EXPECT_EQ(Refusal(kHeader + "\n{\"frame\":0,\"t\":0}\ngarbage\n{\"frame\":1,\"t\":1}\n"), "out.jsonl:3: not a JSON line");
  EXPECT_EQ(Refusal(kHeader + "\n{\"frame\":1,\"t\":0}\n{\"frame\":1,\"t\":0}\n"), "out.jsonl:3: frame 1 comes after frame 1");
  EXPECT_EQ(Refusal(kHeader + "\n{\"frame\":0,\"t\":1}\n{\"frame\":1,\"t\":0.5}\n"), "out.jsonl:3: time goes backwards");
  EXPECT_EQ(Refusal(kHeader + "\n{\"frame\":-1,\"t\":0}\n"), "out.jsonl:2: 'frame' must be a whole number from 0 (frames)");
  EXPECT_EQ(Refusal(kHeader + "\n{\"frame\":0,\"t\":\"x\"}\n"), "out.jsonl:2: 't' must be a time in seconds from 0");
  EXPECT_EQ(Refusal(kHeader + "\n[1,2]\n"), "out.jsonl:2: each line must be a JSON object");
  EXPECT_EQ(Refusal(kHeader + "\n{\"frame\":0,\"t\":0,\"units\":5}\n"), "out.jsonl:2: 'units' must be a list");
}

TEST(EventLogReader, OverlongLinesAreRefused) {
  std::istringstream in(kHeader + "\n{\"frame\":0,\"t\":0,\"pad\":\"" + std::string(2000, 'x') + "\"}\n");
  EventLogLimits limits;
  limits.max_line_bytes = 1000;
  try {
    ReadEventLog(in, "big.jsonl", limits);
    FAIL() << "read";
  } catch (const InputError& e) {
    EXPECT_EQ(e.line(), 2);
  }
}

}  // namespace
}  // namespace vedette::pipeline
