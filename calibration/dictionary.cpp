#include "calibration/dictionary.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <mutex>

#include <opencv2/core/hal/hal.hpp>
#include <opencv2/core/persistence.hpp>

#include "rules/input_error.h"
#include "rules/path_checks.h"

namespace vedette::calib {
namespace {

struct NamedDictionary {
  const char* name;
  cv::aruco::PREDEFINED_DICTIONARY_NAME value;
};

constexpr NamedDictionary kPredefined[] = {
    {"DICT_4X4_50", cv::aruco::DICT_4X4_50},
    {"DICT_4X4_100", cv::aruco::DICT_4X4_100},
    {"DICT_4X4_250", cv::aruco::DICT_4X4_250},
    {"DICT_4X4_1000", cv::aruco::DICT_4X4_1000},
    {"DICT_5X5_50", cv::aruco::DICT_5X5_50},
    {"DICT_5X5_100", cv::aruco::DICT_5X5_100},
    {"DICT_5X5_250", cv::aruco::DICT_5X5_250},
    {"DICT_5X5_1000", cv::aruco::DICT_5X5_1000},
    {"DICT_6X6_50", cv::aruco::DICT_6X6_50},
    {"DICT_6X6_100", cv::aruco::DICT_6X6_100},
    {"DICT_6X6_250", cv::aruco::DICT_6X6_250},
    {"DICT_6X6_1000", cv::aruco::DICT_6X6_1000},
    {"DICT_7X7_50", cv::aruco::DICT_7X7_50},
    {"DICT_7X7_100", cv::aruco::DICT_7X7_100},
    {"DICT_7X7_250", cv::aruco::DICT_7X7_250},
    {"DICT_7X7_1000", cv::aruco::DICT_7X7_1000},
    {"DICT_ARUCO_ORIGINAL", cv::aruco::DICT_ARUCO_ORIGINAL},
    {"DICT_APRILTAG_16h5", cv::aruco::DICT_APRILTAG_16h5},
    {"DICT_APRILTAG_25h9", cv::aruco::DICT_APRILTAG_25h9},
    {"DICT_APRILTAG_36h10", cv::aruco::DICT_APRILTAG_36h10},
    {"DICT_APRILTAG_36h11", cv::aruco::DICT_APRILTAG_36h11},
};

std::string Upper(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::toupper(c); });
  return s;
}

// OpenCV 4.6 declares no correctable bits for the AprilTag families and DICT_ARUCO_ORIGINAL, so
// their markers would be read only when every bit is right, where AprilTag 3 itself corrects two
// bits of 36h11 (whose codes are 11 apart). Those dictionaries get what their codes' distance
// allows, once per process (2320 codes of 36h10: about 0.2 s).
int CorrectableBitsOnce(const std::string& name, const cv::aruco::Dictionary& d) {
  static std::mutex mutex;
  static std::map<std::string, int> known;
  const std::lock_guard<std::mutex> lock(mutex);
  const auto it = known.find(name);
  if (it != known.end()) return it->second;
  return known[name] = CorrectableBits(d);
}

}  // namespace

int MinCodeDistance(const cv::aruco::Dictionary& d) {
  // bytesList holds each code's four rotations one after the other (as Dictionary::identify reads them).
  const int n = d.bytesList.rows, nbytes = d.bytesList.cols;
  int best = d.markerSize * d.markerSize;
  for (int a = 0; a < n; ++a) {
    const uchar* code_a = d.bytesList.ptr(a);
    for (int r = 1; r < 4; ++r) best = std::min(best, cv::hal::normHamming(code_a, code_a + r * nbytes, nbytes));
    for (int b = a + 1; b < n; ++b) {
      const uchar* code_b = d.bytesList.ptr(b);
      for (int r = 0; r < 4; ++r) best = std::min(best, cv::hal::normHamming(code_a, code_b + r * nbytes, nbytes));
    }
  }
  return best;
}

int CorrectableBits(const cv::aruco::Dictionary& d) { return std::max(0, (MinCodeDistance(d) - 1) / 2); }

const std::vector<std::string>& PredefinedDictionaryNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (const auto& d : kPredefined) v.push_back(d.name);
    return v;
  }();
  return names;
}

cv::Ptr<cv::aruco::Dictionary> DictionaryByName(const std::string& name) {
  // Accept any letter case ("dict_4x4_50"), since people type these by hand; AprilTag names keep
  // OpenCV's spelling in messages.
  const std::string wanted = Upper(name);
  for (const auto& d : kPredefined)
    if (Upper(d.name) == wanted) {
      auto dict = cv::makePtr<cv::aruco::Dictionary>(*cv::aruco::getPredefinedDictionary(d.value));
      if (dict->maxCorrectionBits == 0) dict->maxCorrectionBits = CorrectableBitsOnce(d.name, *dict);
      return dict;
    }
  std::string list;
  for (const auto& d : kPredefined) list += (list.empty() ? "" : ", ") + std::string(d.name);
  throw InputError(name.empty() ? "dictionary" : name, 0,
                   "not an OpenCV predefined dictionary (expected one of: " + list + ")");
}

cv::Ptr<cv::aruco::Dictionary> LoadDictionaryFile(const std::string& path) {
  if (!PathExists(path)) throw InputError(path, 0, "dictionary file not found");
  cv::FileStorage fs;
  try {
    fs.open(path, cv::FileStorage::READ);
  } catch (const cv::Exception& e) {
    throw InputError(path, 0, "not an OpenCV FileStorage file: " + e.msg);
  }
  if (!fs.isOpened()) throw InputError(path, 0, "cannot be read as an OpenCV FileStorage file");
  auto read_int = [&](const char* key, bool required, int fallback) {
    cv::FileNode n = fs[key];
    if (n.empty()) {
      if (required) throw InputError(path, 0, std::string("missing key '") + key + "'");
      return fallback;
    }
    if (!n.isInt()) throw InputError(path, 0, std::string("key '") + key + "' must be an integer");
    return static_cast<int>(n);
  };
  const int n_markers = read_int("nmarkers", true, 0);
  const int marker_size = read_int("markersize", true, 0);
  if (n_markers <= 0) throw InputError(path, 0, "nmarkers must be positive");
  if (marker_size < 3 || marker_size > 12) throw InputError(path, 0, "markersize must be between 3 and 12 bits");
  const int n_bits = marker_size * marker_size;

  cv::Mat bytes_list;
  for (int i = 0; i < n_markers; ++i) {
    const std::string key = "marker_" + std::to_string(i);
    cv::FileNode n = fs[key];
    if (n.empty()) throw InputError(path, 0, "missing key '" + key + "' (nmarkers is " + std::to_string(n_markers) + ")");
    if (!n.isString()) throw InputError(path, 0, "key '" + key + "' must be a string of 0 and 1");
    const std::string code = static_cast<std::string>(n);
    if (static_cast<int>(code.size()) != n_bits || code.find_first_not_of("01") != std::string::npos)
      throw InputError(path, 0, "key '" + key + "' must hold exactly " + std::to_string(n_bits) + " characters 0 or 1");
    cv::Mat bits(marker_size, marker_size, CV_8UC1);
    for (int k = 0; k < n_bits; ++k) bits.at<uchar>(k / marker_size, k % marker_size) = code[k] == '1' ? 1 : 0;
    bytes_list.push_back(cv::aruco::Dictionary::getByteListFromBits(bits));
  }

  auto dict = cv::makePtr<cv::aruco::Dictionary>(bytes_list, marker_size, 0);
  const int max_correction = read_int("maxCorrectionBits", false, -1);
  dict->maxCorrectionBits = max_correction >= 0 ? max_correction : CorrectableBits(*dict);
  return dict;
}

cv::Ptr<cv::aruco::Dictionary> ResolveDictionary(const std::string& name_or_path) {
  const std::filesystem::path p(name_or_path);
  const std::string ext = Upper(p.extension().string());
  const bool looks_like_file = name_or_path.find('/') != std::string::npos || ext == ".YML" || ext == ".YAML" ||
                               ext == ".XML" || ext == ".JSON";
  if (looks_like_file) return LoadDictionaryFile(name_or_path);
  return DictionaryByName(name_or_path);
}

cv::Mat MarkerCells(const cv::aruco::Dictionary& d, int id) {
  if (id < 0 || id >= DictionarySize(d))
    throw InputError("dictionary", 0, "marker ID " + std::to_string(id) + " is outside the dictionary (0.." +
                                          std::to_string(DictionarySize(d) - 1) + ")");
  const int cells = d.markerSize + 2;
  cv::Mat img;
  // One pixel per cell: drawMarker then gives exactly the bit grid with its black border.
  d.drawMarker(id, cells, img, 1);
  return img;
}

}  // namespace vedette::calib
