#pragma once
// The shell commands of a Markdown document, and how the documentation tests run them.
//
// Every line of a ```sh (or bash, shell, console) block is a command, run in order in one working
// folder, so a guide's later steps read the files its earlier steps wrote. A line ending in '\'
// continues on the next; lines starting with '#' are comments. `bash scripts/setup.sh ...` is the
// set-up itself (CI runs it), so it is the one command a document may show that is not run here.
//
// The documents name a webcam (`--camera 0`); the tests have none, so each `--camera N` becomes
// `--video FILE` of a synthetic camera: a calibration board for `calibrate`, the sample table for
// every other command. The live window is closed after a few frames, and HOME is the working
// folder so that no settings file is written outside it.
#include <string>
#include <vector>

namespace vedette::testing {

struct DocCommand {
  std::string file;  // the Markdown file
  int line = 0;      // 1-based line of the command's first line
  std::string text;  // the command as written (continuations joined)
};

std::vector<DocCommand> CommandsInMarkdown(const std::string& markdown_text, const std::string& file_name);

struct CameraVideos {
  std::string board;  // what `calibrate --camera N` sees
  std::string table;  // what every other `--camera N` sees
};

// The command as the test runs it: `vedette` is the built binary, `--camera N` a camera video, and
// `live` closes itself after `live_frames` frames without waiting for the video's frame rate.
std::string ForTest(const std::string& command, const std::string& binary, const CameraVideos& camera, int live_frames = 30);

// The `vedette` subcommand a command runs ("" when it runs something else).
std::string SubcommandOf(const std::string& command);

}  // namespace vedette::testing
