#pragma once
// The one error type for bad input files: it names the file, the line and what is wrong, so every
// command can print it the same way ("scene.yaml:12: unit B3: width_mm must be positive") and exit 2.
#include <stdexcept>
#include <string>

namespace vedette {

class InputError : public std::runtime_error {
 public:
  InputError(std::string file, int line, const std::string& what)
      : std::runtime_error(Format(file, line, what)), file_(std::move(file)), line_(line), message_(what) {}
  const std::string& file() const { return file_; }
  int line() const { return line_; }  // 1-based; 0 when the problem is not at one line
  const std::string& message() const { return message_; }

 private:
  static std::string Format(const std::string& file, int line, const std::string& what) {
    std::string out = file.empty() ? std::string("<input>") : file;
    if (line > 0) out += ":" + std::to_string(line);
    return out + ": " + what;
  }
  std::string file_;
  int line_;
  std::string message_;
};

}  // namespace vedette
