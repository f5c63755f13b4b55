// Dictionaries by name and from files, and the bits each may correct.
#include <gtest/gtest.h>

#include <opencv2/aruco.hpp>

#include "calibration/dictionary.h"

namespace vedette::calib {
namespace {

// The AprilTag families' published minimum distances (tag16h5 ... tag36h11), which OpenCV 4.6
// leaves out: its predefined AprilTag dictionaries declare no correctable bits.
TEST(Dictionary, AprilTagFamiliesCorrectWhatTheirDistanceAllows) {
  struct Family {
    const char* name;
    int distance;
  };
  const auto stock = cv::aruco::getPredefinedDictionary(cv::aruco::DICT_APRILTAG_36h11);
  EXPECT_EQ(stock->maxCorrectionBits, 0) << "OpenCV now declares the correction itself: this workaround can go";
  for (const Family f : {Family{"DICT_APRILTAG_16h5", 5}, Family{"DICT_APRILTAG_25h9", 9}, Family{"DICT_APRILTAG_36h11", 11}}) {
    SCOPED_TRACE(f.name);
    const auto d = DictionaryByName(f.name);
    EXPECT_EQ(MinCodeDistance(*d), f.distance);
    EXPECT_EQ(d->maxCorrectionBits, (f.distance - 1) / 2);
  }
}

TEST(Dictionary, DeclaredCorrectionIsKept) {
  // OpenCV's own ArUco dictionaries keep what they declare (DICT_4X4_50: 1 bit, 6x6_250: 5).
  EXPECT_EQ(DictionaryByName("DICT_4X4_50")->maxCorrectionBits, 1);
  EXPECT_EQ(DictionaryByName("DICT_6X6_250")->maxCorrectionBits, 5);
  // Codes closer than 3 apart correct nothing.
  const auto d = DictionaryByName("DICT_4X4_1000");
  EXPECT_LT(MinCodeDistance(*d), 3);
  EXPECT_EQ(d->maxCorrectionBits, 0);
}

TEST(Dictionary, MinCodeDistanceCountsACodesOwnRotations) {
  // Two codes far apart, but the first reads as itself turned half a turn: distance 0.
  cv::Mat symmetric = (cv::Mat_<uchar>(3, 3) << 1, 0, 0, 0, 1, 0, 0, 0, 1);
  cv::Mat other = (cv::Mat_<uchar>(3, 3) << 0, 1, 1, 1, 0, 1, 1, 1, 0);
  cv::Mat bytes;
  bytes.push_back(cv::aruco::Dictionary::getByteListFromBits(symmetric));
  bytes.push_back(cv::aruco::Dictionary::getByteListFromBits(other));
  const cv::aruco::Dictionary d(bytes, 3, 0);
  EXPECT_EQ(MinCodeDistance(d), 0);
  EXPECT_EQ(CorrectableBits(d), 0);
}

}  // namespace
}  // namespace vedette::calib
