#pragma once
// Every file a command writes is checked here, before any work starts, so that a long run never
// ends by failing to write, and no file is destroyed by accident:
//   - its folder exists and can be written to;
//   - it is not one of the command's inputs (compared as canonical paths: `--video X.mkv --out
//     ./X.mkv` is caught), nor another of its outputs;
//   - an existing file is not overwritten unless the global `--force` was given, or the command
//     knows it for its own earlier output (OutputFile::replaceable).
// Each refusal is an InputError naming the file and what to do (exit 2).
//
// Files written in one go at the end go through AtomicOutput: written to a temporary file in the
// same folder and renamed over the target only when complete, so a failure or a kill leaves the
// old file (or none) and never half a file. Progressive writers (the recorder, track's events)
// keep writing in place for kill-safety: for them only the checks apply.
#include <string>
#include <vector>

namespace vedette::app {

struct OutputFile {
  std::string path;    // "" or "-" (stdout): nothing to check
  std::string option;  // the option that named it, for messages: "--out"
  // An earlier output of this very command that a new run replaces without --force (the demo's own
  // video and log): the other checks still apply.
  bool replaceable = false;
};

// Throws InputError for the first output that fails a check. `inputs` are the files the command
// reads (empty entries and camera indices are ignored). Honours ForceOverwrite().
void CheckOutputs(const std::vector<OutputFile>& outputs, const std::vector<std::string>& inputs);

// The global --force flag (app/main.cpp): overwrite existing outputs.
bool ForceOverwrite();
void SetForceOverwrite(bool force);

// A file written under a temporary name in the target's folder (same extension, so OpenCV picks
// the same format) and renamed into place by Commit(). Destroyed without Commit(): the temporary
// file is removed and the target is untouched.
class AtomicOutput {
 public:
  explicit AtomicOutput(std::string path);
  ~AtomicOutput();
  AtomicOutput(const AtomicOutput&) = delete;
  AtomicOutput& operator=(const AtomicOutput&) = delete;

  const std::string& temp_path() const { return temp_; }
  const std::string& path() const { return path_; }
  // Renames the temporary file over the target; throws InputError naming the target on failure
  // (the temporary file missing means the writer did not write it).
  void Commit();

 private:
  std::string path_, temp_;
  bool committed_ = false;
};

// The message for a write that failed part-way (disk full, file removed), shared by the commands.
std::string WriteFailedMessage(const std::string& path, const std::string& kept);
// Ends the command with that message (exit 1) when `error` is not empty.
void FailOnWriteError(const std::string& error);

}  // namespace vedette::app
