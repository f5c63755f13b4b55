#pragma once
// An OSC 1.0 decoder of the tests' own, written from the specification and not from
// streams/osc.cpp, so the encoder is checked against the format and not against itself.
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

namespace vedette::testing {

struct OscTime {
  std::uint32_t seconds = 0, fraction = 0;
};
using OscArg = std::variant<std::int32_t, float, std::string, OscTime>;

struct OscMsg {
  std::string address;
  std::string types;  // without the leading ','
  std::vector<OscArg> args;
  std::int32_t I(size_t i) const { return std::get<std::int32_t>(args.at(i)); }
  float F(size_t i) const { return std::get<float>(args.at(i)); }
};

struct OscBundleIn {
  OscTime time;
  std::vector<OscMsg> messages;
};

class OscReader {
 public:
  explicit OscReader(const std::string& bytes) : b_(bytes) {}
  std::uint32_t U32() {
    Need(4);
    const auto* p = reinterpret_cast<const unsigned char*>(b_.data() + at_);
    at_ += 4;
    return std::uint32_t(p[0]) << 24 | std::uint32_t(p[1]) << 16 | std::uint32_t(p[2]) << 8 | p[3];
  }
  // A zero-terminated string padded to 4 bytes; the padding must be zeros.
  std::string Str() {
    const size_t end = b_.find('\0', at_);
    if (end == std::string::npos) throw std::runtime_error("unterminated OSC string");
    std::string s = b_.substr(at_, end - at_);
    const size_t next = (end / 4 + 1) * 4;
    Need(next - at_);
    for (size_t i = end; i < next; ++i)
      if (b_[i] != '\0') throw std::runtime_error("OSC string padding is not zero");
    at_ = next;
    return s;
  }
  std::string Bytes(size_t n) {
    Need(n);
    std::string s = b_.substr(at_, n);
    at_ += n;
    return s;
  }
  bool done() const { return at_ == b_.size(); }

 private:
  void Need(size_t n) const {
    if (at_ + n > b_.size()) throw std::runtime_error("OSC packet truncated");
  }
  const std::string& b_;
  size_t at_ = 0;
};

inline OscMsg DecodeOscMessage(const std::string& bytes) {
  OscReader r(bytes);
  OscMsg m;
  m.address = r.Str();
  std::string types = r.Str();
  if (types.empty() || types[0] != ',') throw std::runtime_error("no OSC type tag string");
  m.types = types.substr(1);
  for (char t : m.types) {
    switch (t) {
      case 'i': m.args.emplace_back(static_cast<std::int32_t>(r.U32())); break;
      case 'f': {
        const std::uint32_t u = r.U32();
        float f;
        std::memcpy(&f, &u, 4);
        m.args.emplace_back(f);
        break;
      }
      case 's': m.args.emplace_back(r.Str()); break;
      case 't': {
        OscTime tt;
        tt.seconds = r.U32();
        tt.fraction = r.U32();
        m.args.emplace_back(tt);
        break;
      }
      default: throw std::runtime_error(std::string("unexpected OSC type tag ") + t);
    }
  }
  if (!r.done()) throw std::runtime_error("bytes after the last OSC argument");
  return m;
}

inline OscBundleIn DecodeOscBundle(const std::string& bytes) {
  OscReader r(bytes);
  if (r.Str() != "#bundle") throw std::runtime_error("not an OSC bundle");
  OscBundleIn b;
  b.time.seconds = r.U32();
  b.time.fraction = r.U32();
  while (!r.done()) {
    const std::uint32_t n = r.U32();
    if (n % 4 != 0) throw std::runtime_error("OSC bundle element size not a multiple of 4");
    b.messages.push_back(DecodeOscMessage(r.Bytes(n)));
  }
  return b;
}

}  // namespace vedette::testing
