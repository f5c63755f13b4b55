#include "pipeline/encoder_process.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <sstream>

#include "rules/input_error.h"

extern char** environ;

namespace vedette::pipeline {
namespace {

std::string Lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

std::string Number(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

std::string LastLine(const std::string& text) {
  std::string last, line;
  std::istringstream in(text);
  while (std::getline(in, line))
    if (line.find_first_not_of(" \t\r") != std::string::npos) last = line;
  return last;
}

}  // namespace

std::vector<std::string> EncoderArguments(const EncoderOptions& o, const std::string& path, cv::Size size) {
  std::vector<std::string> a = {o.program, "-hide_banner", "-loglevel", "error", "-nostats",
                                "-f", "rawvideo", "-pix_fmt", "bgr24",
                                "-video_size", std::to_string(size.width) + "x" + std::to_string(size.height),
                                "-framerate", Number(o.fps), "-i", "pipe:0", "-an"};
  if (Lower(std::filesystem::path(path).extension().string()) == ".avi") {
    a.insert(a.end(), {"-c:v", "mjpeg", "-q:v", std::to_string(o.mjpeg_quality), "-pix_fmt", "yuvj420p", "-f", "avi"});
  } else {
    // Each cluster is written and flushed when it closes: a file cut short plays to its last cluster.
    a.insert(a.end(), {"-c:v", "mpeg4", "-q:v", std::to_string(o.mpeg4_quality), "-pix_fmt", "yuv420p", "-f", "matroska",
                       "-cluster_time_limit", std::to_string(static_cast<int>(o.cluster_s * 1000)), "-flush_packets", "1"});
  }
  a.insert(a.end(), {"-y", path});
  return a;
}

EncoderProcess::EncoderProcess(const EncoderOptions& options, const std::string& path, cv::Size size)
    : path_(path), size_(size) {
  // A write to an encoder that has died must come back as EPIPE, not end the program.
  ::signal(SIGPIPE, SIG_IGN);
  int frames[2], messages[2];
  if (::pipe2(frames, O_CLOEXEC) != 0) throw InputError(path, 0, std::string("cannot make a pipe for the encoder: ") + std::strerror(errno));
  if (::pipe2(messages, O_CLOEXEC) != 0) {
    ::close(frames[0]);
    ::close(frames[1]);
    throw InputError(path, 0, std::string("cannot make a pipe for the encoder: ") + std::strerror(errno));
  }
  ::fcntl(frames[1], F_SETPIPE_SZ, 1 << 20);  // fewer hand-overs per frame; a smaller pipe still works

  posix_spawn_file_actions_t files;
  posix_spawn_file_actions_init(&files);
  posix_spawn_file_actions_adddup2(&files, frames[0], 0);
  posix_spawn_file_actions_addopen(&files, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_adddup2(&files, messages[1], 2);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t none, defaults;
  sigemptyset(&none);
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setpgroup(&attr, 0);  // its own group: the terminal's Ctrl-C is for Vedette, which then ends the input
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);

  const std::vector<std::string> args = EncoderArguments(options, path, size);
  std::vector<char*> argv;
  for (const std::string& s : args) argv.push_back(const_cast<char*>(s.c_str()));
  argv.push_back(nullptr);
  const int rc = ::posix_spawnp(&pid_, options.program.c_str(), &files, &attr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&files);
  posix_spawnattr_destroy(&attr);
  ::close(frames[0]);
  ::close(messages[1]);
  if (rc != 0) {
    ::close(frames[1]);
    ::close(messages[0]);
    pid_ = -1;
    closed_ = true;
    throw InputError(path, 0, "cannot start " + options.program + " to write the video (" + std::strerror(rc) +
                                  "): install the ffmpeg package");
  }
  frames_fd_ = frames[1];
  messages_fd_ = messages[0];
  ::fcntl(messages_fd_, F_SETFL, ::fcntl(messages_fd_, F_GETFL) | O_NONBLOCK);
}

EncoderProcess::~EncoderProcess() { Close(); }

void EncoderProcess::ReadMessages() {
  char buf[4096];
  for (;;) {
    const ssize_t n = ::read(messages_fd_, buf, sizeof buf);
    if (n > 0) {
      messages_.append(buf, static_cast<size_t>(n));
      if (messages_.size() > 65536) messages_.erase(0, messages_.size() - 65536);
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else {
      return;  // nothing more now (EAGAIN) or ever (0)
    }
  }
}

bool EncoderProcess::Write(const cv::Mat& bgr) {
  if (closed_ || frames_fd_ < 0 || !error_.empty()) return false;
  CV_Assert(bgr.size() == size_ && bgr.type() == CV_8UC3);
  const cv::Mat whole = bgr.isContinuous() ? bgr : bgr.clone();
  const char* p = reinterpret_cast<const char*>(whole.data);
  size_t left = whole.total() * whole.elemSize();
  while (left > 0) {
    const ssize_t n = ::write(frames_fd_, p, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      ReadMessages();
      const std::string said = LastLine(messages_);
      error_ = said.empty() ? std::string("the encoder stopped taking frames: ") + std::strerror(errno) : said;
      return false;
    }
    p += n;
    left -= static_cast<size_t>(n);
  }
  return true;
}

bool EncoderProcess::Close() {
  if (closed_) return error_.empty();
  closed_ = true;
  ::close(frames_fd_);  // the end of the input: ffmpeg writes what it holds and the file's end
  frames_fd_ = -1;
  int status = 0;
  while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  ::fcntl(messages_fd_, F_SETFL, ::fcntl(messages_fd_, F_GETFL) & ~O_NONBLOCK);
  ReadMessages();
  ::close(messages_fd_);
  messages_fd_ = -1;
  const bool ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  if (!ok && error_.empty()) {
    const std::string said = LastLine(messages_);
    error_ = !said.empty()            ? said
             : WIFSIGNALED(status)    ? "the encoder was stopped by signal " + std::to_string(WTERMSIG(status))
                                      : "the encoder ended with status " + std::to_string(WEXITSTATUS(status));
  }
  return error_.empty();
}

}  // namespace vedette::pipeline
