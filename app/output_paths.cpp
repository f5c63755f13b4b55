#include "app/output_paths.h"

#include <unistd.h>

#include <filesystem>
#include <stdexcept>
#include <system_error>

#include "rules/input_error.h"

namespace vedette::app {

namespace fs = std::filesystem;

namespace {

bool g_force = false;

// The path with symbolic links, "." and ".." resolved, even when the file does not exist yet.
fs::path Canonical(const std::string& p) {
  std::error_code ec;
  fs::path c = fs::weakly_canonical(fs::absolute(p, ec), ec);
  return ec ? fs::absolute(p).lexically_normal() : c;
}

bool SameFile(const std::string& a, const std::string& b) {
  std::error_code ec;
  if (fs::exists(a, ec) && fs::exists(b, ec) && fs::equivalent(a, b, ec)) return true;  // hard links too
  return Canonical(a) == Canonical(b);
}

}  // namespace

bool ForceOverwrite() { return g_force; }
void SetForceOverwrite(bool force) { g_force = force; }

void CheckOutputs(const std::vector<OutputFile>& outputs, const std::vector<std::string>& inputs) {
  for (size_t i = 0; i < outputs.size(); ++i) {
    const OutputFile& o = outputs[i];
    if (o.path.empty() || o.path == "-") continue;
    for (const std::string& in : inputs)
      if (!in.empty() && SameFile(o.path, in))
        throw InputError(o.path, 0, o.option + " would overwrite an input of this command (" + in +
                                        "): write it under another name");
    for (size_t j = 0; j < i; ++j)
      if (!outputs[j].path.empty() && SameFile(o.path, outputs[j].path))
        throw InputError(o.path, 0, o.option + " and " + outputs[j].option + " name the same file: give them different names");
    const fs::path parent = fs::path(o.path).parent_path();
    const fs::path folder = parent.empty() ? fs::path(".") : parent;
    std::error_code ec;
    if (!fs::is_directory(folder, ec))
      throw InputError(o.path, 0, "cannot write " + o.option + ": the folder '" + folder.string() +
                                      "' does not exist (create it first, or choose another path)");
    if (::access(folder.c_str(), W_OK | X_OK) != 0)
      throw InputError(o.path, 0, "cannot write " + o.option + ": the folder '" + folder.string() +
                                      "' is not writable (choose another path)");
    if (fs::is_directory(o.path, ec))
      throw InputError(o.path, 0, o.option + " names a folder; give a file name");
    if (fs::exists(fs::symlink_status(o.path, ec)) && !g_force && !o.replaceable)
      throw InputError(o.path, 0, "already exists and would be overwritten by " + o.option +
                                      ": choose another name, or give --force to overwrite it");
  }
}

AtomicOutput::AtomicOutput(std::string path) : path_(std::move(path)) {
  const fs::path p(path_);
  temp_ = (p.parent_path() / ("." + p.stem().string() + ".vedette-tmp-" + std::to_string(::getpid()) +
                              p.extension().string()))
              .string();
}

AtomicOutput::~AtomicOutput() {
  if (committed_) return;
  std::error_code ec;
  fs::remove(temp_, ec);
}

void AtomicOutput::Commit() {
  std::error_code ec;
  if (!fs::exists(temp_, ec)) throw InputError(path_, 0, "the file was not written");
  fs::rename(temp_, path_, ec);
  if (ec) throw InputError(path_, 0, "cannot put the finished file in place: " + ec.message());
  committed_ = true;
}

std::string WriteFailedMessage(const std::string& path, const std::string& kept) {
  return "disk full or output removed while writing " + path + ": kept " + kept;
}

void FailOnWriteError(const std::string& error) {
  if (!error.empty()) throw std::runtime_error(error);
}

}  // namespace vedette::app
