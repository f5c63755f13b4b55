// vedette: what the rules say about what is on the table.
#include <cstdio>
#include <iostream>
#include <map>
#include <stdexcept>

#include "app/command.h"

#include <opencv2/core.hpp>
#include "rules/input_error.h"

namespace vedette::app {

namespace {
std::map<std::string, CommandSetup>& Commands() {
  static std::map<std::string, CommandSetup> commands;
  return commands;
}
}  // namespace
int g_exit_code = 0;
namespace {
}  // namespace

bool RegisterCommand(const char* name, CommandSetup setup) {
  Commands()[name] = setup;
  return true;
}

void SetExitCode(int code) { g_exit_code = code; }

void UseOneOpenCvThread() { cv::setNumThreads(1); }

}  // namespace vedette::app

int main(int argc, char** argv) {
  CLI::App root{
      "Vedette watches a wargame table through an overhead webcam and tells the players what the rules say.\n"
      "Distances in mm and base widths (BW); table frame: origin at player A's left corner, x along A's edge,\n"
      "y away from A; headings in degrees counter-clockwise from +x."};
  root.require_subcommand(1);
  root.set_version_flag("--version", "vedette 0.1.0");
  for (const auto& [name, setup] : vedette::app::Commands()) setup(root);
  try {
    root.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return root.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return root.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return root.exit(e);
  } catch (const CLI::ParseError& e) {
    root.exit(e);
    return 2;
  } catch (const vedette::InputError& e) {
    std::fflush(stdout);
    std::cerr << "vedette: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::fflush(stdout);
    std::cerr << "vedette: error: " << e.what() << "\n";
    return 1;
  }
  return vedette::app::g_exit_code;
}
