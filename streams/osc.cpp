#include "streams/osc.h"

#include <cmath>
#include <cstring>

namespace vedette::streams {
namespace {

void PutU32(std::uint32_t v, std::string* out) {
  const char b[4] = {char(v >> 24), char(v >> 16), char(v >> 8), char(v)};
  out->append(b, 4);
}

// The string and its terminating zero, padded with zeros to a multiple of 4 bytes.
void PutPadded(const std::string& s, std::string* out) {
  out->append(s);
  out->append(4 - s.size() % 4, '\0');
}

}  // namespace

OscTimetag TimetagFromUnix(double unix_seconds) {
  constexpr double kNtpFromUnix = 2208988800.0;  // seconds from 1900-01-01 to 1970-01-01
  const double ntp = unix_seconds + kNtpFromUnix;
  const double whole = std::floor(ntp);
  OscTimetag t;
  t.seconds = static_cast<std::uint32_t>(whole);
  t.fraction = static_cast<std::uint32_t>(std::ldexp(ntp - whole, 32));
  return t;
}

OscMessage& OscMessage::Int(std::int32_t v) {
  types_ += 'i';
  PutU32(static_cast<std::uint32_t>(v), &args_);
  return *this;
}

OscMessage& OscMessage::Float(float v) {
  types_ += 'f';
  std::uint32_t bits;
  std::memcpy(&bits, &v, 4);
  PutU32(bits, &args_);
  return *this;
}

OscMessage& OscMessage::String(const std::string& v) {
  types_ += 's';
  PutPadded(v, &args_);
  return *this;
}

OscMessage& OscMessage::Timetag(const OscTimetag& t) {
  types_ += 't';
  PutU32(t.seconds, &args_);
  PutU32(t.fraction, &args_);
  return *this;
}

std::string OscMessage::Bytes() const {
  std::string out;
  PutPadded(address_, &out);
  PutPadded(types_, &out);
  out += args_;
  return out;
}

std::string OscBundle(const OscTimetag& time, const std::vector<std::string>& elements) {
  std::string out;
  PutPadded("#bundle", &out);
  PutU32(time.seconds, &out);
  PutU32(time.fraction, &out);
  for (const std::string& e : elements) {
    PutU32(static_cast<std::uint32_t>(e.size()), &out);
    out += e;
  }
  return out;
}

}  // namespace vedette::streams
