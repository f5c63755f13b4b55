#pragma once
// A small Open Sound Control 1.0 encoder: messages with int32 ('i'), float32 ('f'), string ('s')
// and timetag ('t') arguments, and bundles of them. Everything is big-endian and padded to 4
// bytes, as OSC 1.0 says; nothing else of OSC (no blobs, no pattern matching) is needed to speak
// TUIO 2.0 (streams/tuio.h). Our own because liblo would add a C library with threads of its own
// for four argument types.
#include <cstdint>
#include <string>
#include <vector>

namespace vedette::streams {

// An NTP timestamp: seconds since 1900-01-01 and a binary fraction of a second (OSC 1.0 timetags).
struct OscTimetag {
  std::uint32_t seconds = 0;
  std::uint32_t fraction = 1;  // {0, 1} means "immediately" in OSC
};
OscTimetag TimetagFromUnix(double unix_seconds);

class OscMessage {
 public:
  explicit OscMessage(std::string address) : address_(std::move(address)) {}
  OscMessage& Int(std::int32_t v);
  OscMessage& Float(float v);
  OscMessage& String(const std::string& v);
  OscMessage& Timetag(const OscTimetag& t);
  // The encoded message: padded address, padded type tag string (",iifs..."), the arguments.
  std::string Bytes() const;
  const std::string& address() const { return address_; }

 private:
  std::string address_;
  std::string types_ = ",";
  std::string args_;
};

// "#bundle", the timetag, then each element preceded by its size (int32).
std::string OscBundle(const OscTimetag& time, const std::vector<std::string>& elements);

}  // namespace vedette::streams
