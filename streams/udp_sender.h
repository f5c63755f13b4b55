#pragma once
// A connected UDP socket that sends datagrams and never blocks the frame loop: a full socket
// buffer or an absent receiver (ICMP port unreachable) drops the datagram and counts it.
#include <string>

namespace vedette::streams {

class UdpSender {
 public:
  // "HOST:PORT" (a name or a numeric IPv4/IPv6 address; "[::1]:3333" for IPv6). Throws
  // InputError naming `flag` when it cannot be parsed or resolved.
  UdpSender(const std::string& host_port, const std::string& flag);
  ~UdpSender();
  UdpSender(const UdpSender&) = delete;
  UdpSender& operator=(const UdpSender&) = delete;
  bool Send(const std::string& datagram);  // false: dropped (counted)
  int dropped() const { return dropped_; }
  int sent() const { return sent_; }

 private:
  int fd_ = -1;
  int dropped_ = 0, sent_ = 0;
};

// Splits "HOST:PORT" (or "[V6]:PORT"); false when there is no port or it is not 1..65535.
bool SplitHostPort(const std::string& s, std::string* host, int* port);

}  // namespace vedette::streams
