#pragma once
// Runs the built `vedette` binary for CLI tests: stdout, stderr and the exit status, separately.
// Both streams are read through pipes, so a test leaves no capture file anywhere (and a crashed
// test leaves none behind in /tmp either).
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace vedette::testing {

struct CommandResult {
  int status = -1;  // exit status; -1 when killed by a signal
  int signal = 0;   // the signal that ended it, 0 if it exited
  std::string out;  // stdout
  std::string err;  // stderr
};

inline std::string ReadFile(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// A folder of this test process's own (vedette_test_XXXXXX in the temporary folder), removed with
// everything in it when the process exits.
inline const std::filesystem::path& ProcessTempDir() {
  struct Dir {
    std::filesystem::path path;
    Dir() {
      std::string t = (std::filesystem::temp_directory_path() / "vedette_test_XXXXXX").string();
      if (::mkdtemp(t.data())) path = t;
    }
    ~Dir() {
      std::error_code ec;
      if (!path.empty()) std::filesystem::remove_all(path, ec);
    }
  };
  static Dir dir;
  return dir.path;
}

// A fresh folder for one test inside ProcessTempDir(), removed when it goes out of scope.
class TestFolder {
 public:
  TestFolder() {
    std::string t = (ProcessTempDir() / "t_XXXXXX").string();
    if (::mkdtemp(t.data())) path_ = t;
  }
  ~TestFolder() {
    std::error_code ec;
    if (!path_.empty()) std::filesystem::remove_all(path_, ec);
  }
  TestFolder(const TestFolder&) = delete;
  TestFolder& operator=(const TestFolder&) = delete;
  const std::filesystem::path& path() const { return path_; }
  std::string operator/(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

// Runs `command` with /bin/sh; its stdin is /dev/null.
inline CommandResult RunShell(const std::string& command) {
  CommandResult r;
  int out_pipe[2], err_pipe[2];
  if (::pipe(out_pipe) != 0) return r;
  if (::pipe(err_pipe) != 0) {
    ::close(out_pipe[0]);
    ::close(out_pipe[1]);
    return r;
  }
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::dup2(out_pipe[1], STDOUT_FILENO);
    ::dup2(err_pipe[1], STDERR_FILENO);
    for (int fd : {out_pipe[0], out_pipe[1], err_pipe[0], err_pipe[1]}) ::close(fd);
    // Pipes of other RunShell calls made at the same moment on other threads are not this
    // command's: kept open, they would hold those calls' reads open until this command ends.
    ::close_range(3, ~0U, 0);
    std::freopen("/dev/null", "r", stdin);
    ::execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  ::close(out_pipe[1]);
  ::close(err_pipe[1]);
  pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
  std::string* sinks[2] = {&r.out, &r.err};
  int open = 2;
  char buf[65536];
  while (open > 0) {
    if (::poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      const ssize_t n = ::read(fds[i].fd, buf, sizeof buf);
      if (n > 0) {
        sinks[i]->append(buf, static_cast<size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        ::close(fds[i].fd);
        fds[i].fd = -1;
        --open;
      }
    }
  }
  for (const pollfd& p : fds)
    if (p.fd >= 0) ::close(p.fd);
  int raw = 0;
  if (pid > 0) {
    while (::waitpid(pid, &raw, 0) < 0 && errno == EINTR) {
    }
    if (WIFEXITED(raw)) r.status = WEXITSTATUS(raw);
    if (WIFSIGNALED(raw)) r.signal = WTERMSIG(raw);
  }
  return r;
}

// `args` is appended to the binary path as shell words (quote them yourself).
inline CommandResult RunVedette(const std::string& args) { return RunShell(std::string(VEDETTE_BINARY) + " " + args); }

// The built binary, and the shipped sample files the README's commands name (assets/).
inline const std::string kBin = VEDETTE_BINARY;
inline const std::string kAssets = VEDETTE_ASSETS_DIR;
inline const std::string kSampleRoster = kAssets + "/rosters/totsk_small.yaml";

// `s` as one shell word (no quotes inside).
inline std::string Q(const std::string& s) { return "'" + s + "'"; }

inline bool Has(const std::string& text, const std::string& fragment) { return text.find(fragment) != std::string::npos; }

// Writes `text` to `path` (bytes as given) and returns the path.
inline std::string Write(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

// Whether a display is set for the tests that open a real window (xvfb-run gives one).
inline bool HasDisplay() {
  const char* d = std::getenv("DISPLAY");
  return d && *d;
}

}  // namespace vedette::testing
