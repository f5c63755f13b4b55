#include "tests/docs/doc_commands.h"

#include <regex>
#include <sstream>

namespace vedette::testing {
namespace {

bool OpensShellBlock(const std::string& line) {
  static const std::regex fence(R"(^\s*```\s*(sh|bash|shell|console)\s*$)");
  return std::regex_match(line, fence);
}

bool ClosesBlock(const std::string& line) { return line.find("```") != std::string::npos; }

std::string Trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

bool IsSetUp(const std::string& command) { return command.rfind("bash scripts/setup.sh", 0) == 0; }

}  // namespace

std::vector<DocCommand> CommandsInMarkdown(const std::string& markdown_text, const std::string& file_name) {
  std::vector<DocCommand> out;
  std::istringstream in(markdown_text);
  std::string line, pending;
  bool in_block = false;
  int number = 0, start = 0;
  while (std::getline(in, line)) {
    ++number;
    if (!in_block) {
      in_block = OpensShellBlock(line);
      continue;
    }
    if (ClosesBlock(line)) {
      in_block = false;
      continue;
    }
    std::string text = Trim(line);
    if (pending.empty() && (text.empty() || text[0] == '#')) continue;
    if (pending.empty()) start = number;
    const bool continues = !text.empty() && text.back() == '\\';
    if (continues) text.pop_back();
    pending += (pending.empty() ? "" : " ") + Trim(text);
    if (continues) continue;
    if (!IsSetUp(pending)) out.push_back({file_name, start, pending});
    pending.clear();
  }
  return out;
}

std::string SubcommandOf(const std::string& command) {
  static const std::regex re(R"(^vedette\s+([a-z-]+))");
  std::smatch m;
  return std::regex_search(command, m, re) ? m[1].str() : "";
}

std::string ForTest(const std::string& command, const std::string& binary, const CameraVideos& camera, int live_frames) {
  const std::string sub = SubcommandOf(command);
  std::string out = command;
  if (!sub.empty()) out = binary + command.substr(std::string("vedette").size());
  static const std::regex webcam(R"(--camera\s+\d+(?=\s|$))");  // not render's --camera WxH
  out = std::regex_replace(out, webcam, "--video " + (sub == "calibrate" ? camera.board : camera.table));
  if (sub == "live" && out.find("--frames") == std::string::npos)
    out += " --frames " + std::to_string(live_frames) + " --fast";
  return out;
}

}  // namespace vedette::testing
