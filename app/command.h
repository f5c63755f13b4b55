#pragma once
// Subcommands register themselves: each cmd_*.cpp adds its CLI11 subcommand from a static
// registrar, so a new command touches only its own file.
#include <CLI/CLI.hpp>

#include <functional>
#include <string>

namespace vedette::app {

using CommandSetup = void (*)(CLI::App& root);

// Returns true so it can initialise a static.
bool RegisterCommand(const char* name, CommandSetup setup);

// The exit status the finished command asks for (0 by default).
void SetExitCode(int code);

// The frame-by-frame commands (live, process, demo, track) run OpenCV on one thread: the tracker's
// small windows gain nothing from OpenCV's pool, and the recorder's encoder gets the other core
// (1080p, 60 units, recording on: 66 fps this way, 53 with OpenCV's two threads; bench/OVERLAY_BENCH.md).
void UseOneOpenCvThread();


}  // namespace vedette::app

#define VEDETTE_COMMAND(name, setup) \
  static const bool vedette_command_registered_##setup = ::vedette::app::RegisterCommand(name, &setup)
