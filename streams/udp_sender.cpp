#include "streams/udp_sender.h"

#include <fcntl.h>
#include <netdb.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>

#include "rules/input_error.h"

namespace vedette::streams {

bool SplitHostPort(const std::string& s, std::string* host, int* port) {
  const size_t colon = s.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 >= s.size()) return false;
  std::string h = s.substr(0, colon);
  if (h.size() >= 2 && h.front() == '[' && h.back() == ']') h = h.substr(1, h.size() - 2);
  const std::string p = s.substr(colon + 1);
  if (p.find_first_not_of("0123456789") != std::string::npos || p.size() > 5) return false;
  const int n = std::stoi(p);
  if (n < 1 || n > 65535) return false;
  *host = h;
  *port = n;
  return true;
}

UdpSender::UdpSender(const std::string& host_port, const std::string& flag) {
  std::string host;
  int port = 0;
  if (!SplitHostPort(host_port, &host, &port))
    throw InputError(flag, 0, "'" + host_port + "' is not HOST:PORT (e.g. 127.0.0.1:3333)");
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_DGRAM;
  addrinfo* found = nullptr;
  if (const int rc = ::getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &found); rc != 0)
    throw InputError(flag, 0, "cannot resolve '" + host + "': " + ::gai_strerror(rc));
  for (addrinfo* a = found; a && fd_ < 0; a = a->ai_next) {
    fd_ = ::socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, a->ai_protocol);
    if (fd_ >= 0 && ::connect(fd_, a->ai_addr, a->ai_addrlen) != 0) {
      ::close(fd_);
      fd_ = -1;
    }
  }
  ::freeaddrinfo(found);
  if (fd_ < 0) throw InputError(flag, 0, "cannot open a UDP socket to '" + host_port + "': " + std::strerror(errno));
}

UdpSender::~UdpSender() {
  if (fd_ >= 0) ::close(fd_);
}

bool UdpSender::Send(const std::string& datagram) {
  // MSG_NOSIGNAL is for streams only; a UDP send never raises SIGPIPE. Non-blocking: EAGAIN drops.
  const ssize_t n = ::send(fd_, datagram.data(), datagram.size(), 0);
  if (n == static_cast<ssize_t>(datagram.size())) {
    ++sent_;
    return true;
  }
  ++dropped_;
  return false;
}

}  // namespace vedette::streams
