// vedette: what the rules say about what is on the table.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <stdexcept>

#include "app/command.h"
#include "app/output_paths.h"

#include <opencv2/core.hpp>
#include <opencv2/core/utils/logger.hpp>
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

namespace {

// OpenCV, FFmpeg and GStreamer print their own warnings (a text file named .mkv gives a screenful)
// before Vedette's one sentence about it: they are silenced unless --verbose. The environment is
// set before any video backend is loaded (they are loaded on first use); a value the user set wins.
void QuietLibraries(bool verbose) {
  if (verbose) return;
  cv::utils::logging::setLogLevel(cv::utils::logging::LOG_LEVEL_SILENT);
  setenv("OPENCV_LOG_LEVEL", "SILENT", 0);
  setenv("OPENCV_FFMPEG_LOGLEVEL", "0", 0);  // AV_LOG_PANIC: nothing short of a crash
  setenv("GST_DEBUG", "0", 0);
  setenv("OPENCV_VIDEOIO_DEBUG", "0", 0);
}

bool HasFlag(int argc, char** argv, const char* flag) {
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], flag) == 0) return true;
  return false;
}

}  // namespace

}  // namespace vedette::app

int main(int argc, char** argv) {
  CLI::App root{
      "Vedette watches a wargame table through an overhead webcam and tells the players what the rules say.\n"
      "Distances in mm and base widths (BW); table frame: origin at player A's left corner, x along A's edge,\n"
      "y away from A; headings in degrees counter-clockwise from +x."};
  root.require_subcommand(1);
  root.set_version_flag("--version", "vedette 0.1.0");
  // Global flags, accepted before or after the command's name.
  root.fallthrough();
  bool verbose = false, force = false;
  root.add_flag("--verbose", verbose, "Let OpenCV, FFmpeg and GStreamer print their own warnings");
  root.add_flag("--force", force, "Overwrite output files that already exist (never a command's own input)");
  vedette::app::QuietLibraries(vedette::app::HasFlag(argc, argv, "--verbose"));
  root.parse_complete_callback([&] { vedette::app::SetForceOverwrite(force); });
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
  } catch (const cv::Exception& e) {
    // An OpenCV failure nobody expected: one sentence naming what failed, not OpenCV's dump.
    std::fflush(stdout);
    std::cerr << "vedette: OpenCV failed in " << (e.func.empty() ? std::string("an image or video operation") : e.func)
              << ": " << (e.err.empty() ? e.what() : e.err) << " (run again with --verbose for OpenCV's own messages)\n";
    return 1;
  } catch (const std::exception& e) {
    std::fflush(stdout);
    std::cerr << "vedette: error: " << e.what() << "\n";
    return 1;
  }
  return vedette::app::g_exit_code;
}
