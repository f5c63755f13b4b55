#pragma once
// Marker dictionaries by name. Both calibration (boards, anchors) and vision (unit markers) need to
// turn a scene file's `dictionary: DICT_4X4_50` into an OpenCV dictionary, so the lookup lives here.
#include <string>
#include <vector>

#include <opencv2/aruco/dictionary.hpp>

namespace vedette::calib {

// One of OpenCV's predefined dictionaries by its enum name ("DICT_4X4_50", "DICT_6X6_250",
// "DICT_ARUCO_ORIGINAL", "DICT_APRILTAG_36h11", ...). Throws vedette::InputError naming the unknown
// name and listing the valid ones. Where OpenCV 4.6 declares no correctable bits (the AprilTag
// families, DICT_ARUCO_ORIGINAL), the dictionary corrects what its codes' distance allows
// (CorrectableBits: 36h11, 11 apart, 5 bits; the detectors' rate of 0.6 then corrects 3).
cv::Ptr<cv::aruco::Dictionary> DictionaryByName(const std::string& name);

// The names DictionaryByName accepts, in OpenCV's enum order.
const std::vector<std::string>& PredefinedDictionaryNames();

// A custom dictionary in OpenCV's FileStorage format (aruco's samples/tutorial_dict.yml):
//   nmarkers: 35, markersize: 6, maxCorrectionBits: 5 (optional), marker_0: "1010..." (markersize^2
//   bits, row by row, 1 = white) ... marker_<nmarkers-1>.
// Without maxCorrectionBits the dictionary corrects as many bits as its codes' minimum distance
// safely allows: (min Hamming distance over all pairs and rotations - 1) / 2.
// Throws vedette::InputError naming the file and the bad or missing key.
cv::Ptr<cv::aruco::Dictionary> LoadDictionaryFile(const std::string& path);

// A predefined name, or else a path to a custom dictionary file (anything with a '/' or a
// .yml/.yaml/.xml/.json ending). What a --dict option or a scene's `dictionary:` accepts.
cv::Ptr<cv::aruco::Dictionary> ResolveDictionary(const std::string& name_or_path);

// The least Hamming distance between two codes of the dictionary over every relative rotation,
// a code's own rotations included (a turned marker must not read as another or as itself turned).
int MinCodeDistance(const cv::aruco::Dictionary& d);
// Bits a reading may get wrong and still name the nearest code safely: (MinCodeDistance - 1) / 2.
int CorrectableBits(const cv::aruco::Dictionary& d);

// Number of markers in a dictionary.
inline int DictionarySize(const cv::aruco::Dictionary& d) { return d.bytesList.rows; }

// The marker's bit grid including its one-cell black border: (markerSize+2)^2 cells, 255 = white,
// 0 = black, row 0 at the marker's top edge (OpenCV corners 0-1).
cv::Mat MarkerCells(const cv::aruco::Dictionary& d, int id);

}  // namespace vedette::calib
