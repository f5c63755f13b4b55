#include "calibration/camera_model.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <sstream>
#include <fstream>
#include <limits>

#include <opencv2/calib3d.hpp>
#include <opencv2/core/persistence.hpp>

#include "rules/input_error.h"
#include "rules/yaml_file.h"
#include "rules/path_checks.h"

namespace vedette::calib {
namespace {

cv::Mat ReadMatrix(const cv::FileStorage& fs, const std::string& path, const char* key) {
  cv::FileNode n = fs[key];
  if (n.empty()) throw InputError(path, 0, std::string("missing key '") + key + "'");
  // OpenCV allocates rows x cols before it reads the data: sizes are checked first (a camera
  // matrix is 3x3, distortion at most 14 values).
  const bool sized = n.isMap() && n["rows"].isInt() && n["cols"].isInt() && static_cast<int>(n["rows"]) >= 1 &&
                     static_cast<int>(n["cols"]) >= 1 && static_cast<int>(n["rows"]) <= 16 && static_cast<int>(n["cols"]) <= 16;
  if (!sized)
    throw InputError(path, 0, std::string("key '") + key +
                                  "' must be an !!opencv-matrix with whole-number rows and cols of 1 to 16");
  cv::Mat m;
  try {
    n >> m;
  } catch (const cv::Exception& e) {
    throw InputError(path, 0, std::string("key '") + key + "' is not a matrix whose rows x cols match its data (!!opencv-matrix)");
  }
  if (m.empty()) throw InputError(path, 0, std::string("key '") + key + "' is not an OpenCV matrix (!!opencv-matrix)");
  m.convertTo(m, CV_64F);
  return m;
}

// OpenCV 4.6's YAML reader loops for ever on some malformed indentation (found by the fuzzer:
// "%YAML:1.0\n   rows: 3\n ncv-matrix\n   rows: 3"), so YAML text is first read by yaml-cpp, with
// the loader's limits; OpenCV's "%YAML:1.0" directive line is blanked (yaml-cpp wants "%YAML 1.2"),
// keeping the line numbers.
// Block indentation must come back to a level it left (yaml-cpp lets "   a: 1\n b: 2" pass, and
// that is what OpenCV loops on). Lines inside a flow list or map ("data: [ ... ]") are not checked.
void RequireConsistentIndentation(const std::string& text, const std::string& path) {
  std::vector<size_t> levels = {0};
  int depth = 0, line_number = 0;
  bool content = false;  // a line of the document has come
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    ++line_number;
    const size_t indent = line.find_first_not_of(' ');
    const bool blank = indent == std::string::npos || line[indent] == '#' || line[indent] == '\r';
    // OpenCV writes one document ("---" first) and never its end marker; its reader loops on text
    // after a "..." (fuzzing found "...-" then a line) and on a second document.
    if (line.rfind("...", 0) == 0)
      throw InputError(path, line_number, "'...' (a YAML document end): a camera file is one document, written by vedette calibrate");
    if (line.rfind("---", 0) == 0 && content)
      throw InputError(path, line_number, "a second YAML document ('---'): a camera file is one document");
    // And on a directive after the first line ("---%YAML:1.0"): '---' stands alone, '%' only on line 1.
    if (line.rfind("---", 0) == 0 && line.find_first_not_of(" \t\r", 3) != std::string::npos)
      throw InputError(path, line_number, "'---' must stand alone on its line");
    if (line_number > 1 && line.rfind("%", 0) == 0)
      throw InputError(path, line_number, "a YAML directive ('%') is allowed on the first line only");
    content = content || (!blank && line.rfind("---", 0) != 0);
    if (!blank && depth == 0 && line_number > 1 && line.rfind("---", 0) != 0) {
      if (indent > levels.back()) levels.push_back(indent);
      while (levels.back() > indent) levels.pop_back();
      if (levels.back() != indent)
        throw InputError(path, line_number, "indented by " + std::to_string(indent) + " spaces, which matches no enclosing level");
    }
    for (char c : line) depth += (c == '[' || c == '{') - (c == ']' || c == '}');
    if (depth < 0) depth = 0;
  }
}

// OpenCV 4.6's readers recurse once per nesting level of JSON brackets and XML elements, and once per
// character of a run like "a:----..." in YAML (which yaml-cpp reads as one plain scalar): tens of
// thousands overflow the stack (found by the camera file's fuzzer). A camera file nests three deep and
// OpenCV writes it in lines under a hundred characters, so deeper or longer is refused first.
void RequireShallowText(const std::string& text, const std::string& path) {
  constexpr int kMaxDepth = 64;
  constexpr size_t kMaxLine = 4096;
  int depth = 0, line = 1;
  size_t line_start = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const char next = i + 1 < text.size() ? text[i + 1] : '\0';
    if (c == '\n') {
      ++line;
      line_start = i + 1;
      continue;
    }
    if (i - line_start >= kMaxLine)
      throw InputError(path, line, "a line longer than " + std::to_string(kMaxLine) +
                                       " characters: not a camera file (OpenCV writes short lines)");
    if (c == '[' || c == '{' || (c == '<' && std::isalpha(static_cast<unsigned char>(next)))) ++depth;
    if (c == ']' || c == '}' || (c == '<' && next == '/') || (c == '/' && next == '>')) depth = std::max(0, depth - 1);
    if (depth > kMaxDepth)
      throw InputError(path, line, "nested more than " + std::to_string(kMaxDepth) + " deep: not a camera file");
  }
}

void RequireWellFormedYaml(std::string text, const std::string& path) {
  RequireShallowText(text, path);
  if (text.rfind("%YAML", 0) != 0) return;  // XML or JSON: OpenCV's own readers
  text.replace(0, text.find('\n') == std::string::npos ? text.size() : text.find('\n'), "");
  RequireConsistentIndentation(text, path);
  ParseYamlText(text, path);
}

bool EmptyFile(const std::string& path) {
  std::error_code ec;
  return std::filesystem::file_size(path, ec) == 0 && !ec;
}

bool AllFinite(const cv::Mat& m) { return cv::checkRange(m, true, nullptr, -1e300, 1e300); }

}  // namespace

CameraIntrinsics LoadIntrinsics(const std::string& path) {
  if (!PathExists(path)) throw InputError(path, 0, "camera file not found");
  {
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    RequireWellFormedYaml(text.str(), path);
  }
  cv::FileStorage fs;
  try {
    fs.open(path, cv::FileStorage::READ);
  } catch (const std::exception&) {  // cv::Exception, and std::length_error from OpenCV's YAML parser on a damaged key
    throw InputError(path, 0, IsRegularFile(path) && EmptyFile(path)
                                  ? "empty: not a camera file"
                                  : "not a camera file OpenCV can read (YAML starting %YAML:1.0, XML or JSON)");
  }
  if (!fs.isOpened()) throw InputError(path, 0, "cannot be read as an OpenCV FileStorage file (YAML/XML)");
  return IntrinsicsFrom(fs, path);
}

CameraIntrinsics ParseIntrinsics(const std::string& text, const std::string& path) {
  RequireWellFormedYaml(text, path);
  cv::FileStorage fs;
  try {
    fs.open(text, cv::FileStorage::READ | cv::FileStorage::MEMORY);
  } catch (const std::exception&) {  // cv::Exception, and std::length_error from OpenCV's YAML parser on a damaged key
    throw InputError(path, 0, text.empty() ? "empty: not a camera file" : "not a camera file OpenCV can read (YAML starting %YAML:1.0, XML or JSON)");
  }
  if (!fs.isOpened()) throw InputError(path, 0, "cannot be read as an OpenCV FileStorage file (YAML/XML)");
  return IntrinsicsFrom(fs, path);
}

CameraIntrinsics IntrinsicsFrom(const cv::FileStorage& fs, const std::string& path) {
  // OpenCV asserts (throws) on a key looked up in a list or a scalar: a root that is no mapping is
  // not a camera file, said so before any lookup.
  if (!fs.root().isMap())
    throw InputError(path, 0, "not a camera file: it must be a mapping with camera_matrix, distortion_coefficients, "
                              "image_width and image_height (vedette calibrate writes one)");
  CameraIntrinsics k;
  k.source = path;
  const cv::Mat camera = ReadMatrix(fs, path, "camera_matrix");
  if (camera.rows != 3 || camera.cols != 3) throw InputError(path, 0, "camera_matrix must be 3x3");
  if (!AllFinite(camera)) throw InputError(path, 0, "camera_matrix holds a non-finite value");
  k.camera_matrix = cv::Matx33d(camera);
  if (!(k.camera_matrix(0, 0) > 0 && k.camera_matrix(1, 1) > 0))
    throw InputError(path, 0, "camera_matrix: the focal lengths fx, fy must be positive");
  if (k.camera_matrix(2, 0) != 0 || k.camera_matrix(2, 1) != 0 || k.camera_matrix(2, 2) != 1)
    throw InputError(path, 0, "camera_matrix: the last row must be [0, 0, 1]");

  cv::Mat distortion = ReadMatrix(fs, path, "distortion_coefficients");
  const int n = static_cast<int>(distortion.total());
  if (!(distortion.rows == 1 || distortion.cols == 1) || !(n == 4 || n == 5 || n == 8 || n == 12 || n == 14))
    throw InputError(path, 0, "distortion_coefficients must be a row or column of 4, 5, 8, 12 or 14 values (has " +
                                  std::to_string(distortion.rows) + "x" + std::to_string(distortion.cols) + ")");
  if (!AllFinite(distortion)) throw InputError(path, 0, "distortion_coefficients holds a non-finite value");
  k.distortion = distortion.reshape(1, 1).clone();

  const cv::FileNode w = fs["image_width"], h = fs["image_height"];
  if (w.empty() != h.empty()) throw InputError(path, 0, "give both image_width and image_height, or neither");
  if (!w.empty()) {
    if (!w.isInt() || !h.isInt()) throw InputError(path, 0, "image_width and image_height must be integers (px)");
    k.image_size = cv::Size(static_cast<int>(w), static_cast<int>(h));
    if (k.image_size.width <= 0 || k.image_size.height <= 0)
      throw InputError(path, 0, "image_width and image_height must be positive (px)");
    // Past any camera's sensor: an image of that size would take gigabytes to hold.
    if (k.image_size.width > 16384 || k.image_size.height > 16384)
      throw InputError(path, 0, "image_width and image_height must be at most 16384 px, got " +
                                    std::to_string(k.image_size.width) + "x" + std::to_string(k.image_size.height));
  }
  const cv::FileNode err = fs["avg_reprojection_error"];
  if (!err.empty()) {
    if (!err.isReal() && !err.isInt()) throw InputError(path, 0, "avg_reprojection_error must be a number (px)");
    k.avg_reprojection_error_px = static_cast<double>(err);
  }
  return k;
}

CameraIntrinsics ScaledTo(const CameraIntrinsics& k, cv::Size image_size) {
  if (image_size == k.image_size) return k;
  if (k.image_size.width <= 0 || k.image_size.height <= 0)
    throw InputError(k.source, 0, "the camera file gives no image_width/image_height, so it cannot be scaled to " +
                                      std::to_string(image_size.width) + "x" + std::to_string(image_size.height));
  if (image_size.width <= 0 || image_size.height <= 0)
    throw InputError(k.source, 0, "cannot scale the intrinsics to an empty image size");
  const double sx = static_cast<double>(image_size.width) / k.image_size.width;
  const double sy = static_cast<double>(image_size.height) / k.image_size.height;
  if (std::abs(sx / sy - 1.0) > 0.01)
    throw InputError(k.source, 0,
                     "calibrated at " + std::to_string(k.image_size.width) + "x" + std::to_string(k.image_size.height) +
                         " but the stream is " + std::to_string(image_size.width) + "x" +
                         std::to_string(image_size.height) +
                         ": a different aspect ratio is usually a crop of the sensor; calibrate again at this size "
                         "(vedette calibrate --camera N --board SPEC --out CAM.yaml) or set the camera to the "
                         "calibration's size");
  CameraIntrinsics out = k;
  out.image_size = image_size;
  out.camera_matrix(0, 0) *= sx;
  out.camera_matrix(0, 1) *= sx;  // skew
  out.camera_matrix(1, 1) *= sy;
  out.camera_matrix(0, 2) = sx * (k.camera_matrix(0, 2) + 0.5) - 0.5;
  out.camera_matrix(1, 2) = sy * (k.camera_matrix(1, 2) + 0.5) - 0.5;
  out.avg_reprojection_error_px = k.avg_reprojection_error_px * 0.5 * (sx + sy);
  return out;
}

CameraFromTable PoseFromRvecTvec(const cv::Vec3d& rvec, const cv::Vec3d& tvec_mm) {
  CameraFromTable pose;
  cv::Rodrigues(rvec, pose.rotation);
  pose.translation_mm = tvec_mm;
  return pose;
}

cv::Vec3d RvecOf(const CameraFromTable& pose) {
  cv::Vec3d rvec;
  cv::Rodrigues(pose.rotation, rvec);
  return rvec;
}

cv::Point3d CameraCentreInTable(const CameraFromTable& pose) {
  const cv::Vec3d c = -(pose.rotation.t() * pose.translation_mm);
  return {c[0], c[1], c[2]};
}

}  // namespace vedette::calib
