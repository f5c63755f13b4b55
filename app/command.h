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


}  // namespace vedette::app

#define VEDETTE_COMMAND(name, setup) \
  static const bool vedette_command_registered_##setup = ::vedette::app::RegisterCommand(name, &setup)
