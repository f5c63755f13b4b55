// The network input: an HTTP request as a client sends it to `--serve` (the spectator page and the
// WebSocket handshake), parsed by websocketpp as the server does, then mapped to a file to serve.
// Whatever arrives, the name served is a plain file name of web_dir or nothing.
#include <websocketpp/http/request.hpp>

#include "streams/ws_server.h"
#include "tests/fuzz/fuzz_input.h"

using namespace vedette;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  websocketpp::http::parser::request request;
  try {
    request.consume(reinterpret_cast<const char*>(data), size);
  } catch (const websocketpp::http::exception&) {
    return 0;  // answered with an HTTP error by websocketpp
  }
  const std::string name = streams::ServedFileName(request.get_uri());
  // "a..b" is a plain file name; "..", "." and ".x" cannot be (no dot first).
  fuzz::Require(name.find('/') == std::string::npos && name.find('\\') == std::string::npos, "no folder in a served name");
  fuzz::Require(name.empty() || name[0] != '.', "no hidden file served");
  fuzz::Require(name.size() <= 64 || name == "index.html", "a short name");
  return 0;
}
