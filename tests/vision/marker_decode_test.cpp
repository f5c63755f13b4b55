// Reading a candidate's cells where they are: IDs, the corner order OpenCV reports, and the checks
// that keep a misread out.
#include <gtest/gtest.h>

#include <opencv2/aruco.hpp>
#include <opencv2/imgproc.hpp>

#include "calibration/dictionary.h"
#include "vision/marker_decode.h"

namespace vedette::vision {
namespace {

// Marker `id` drawn 60 px wide (10 px cells) with a 20 px white margin, on a 100 x 100 image:
// its own top-left corner at image (20, 20), clockwise (20,20) (79,20) (79,79) (20,79) in pixel
// centres, with edges at the pixel boundaries (19.5 .. 79.5).
cv::Mat MarkerImage(const cv::aruco::Dictionary& dict, int id) {
  cv::Mat marker;
  cv::aruco::drawMarker(cv::makePtr<cv::aruco::Dictionary>(dict), id, 60, marker, 1);
  cv::Mat image(100, 100, CV_8UC1, cv::Scalar(255));
  marker.copyTo(image(cv::Rect(20, 20, 60, 60)));
  return image;
}

const Quad kEdges = {cv::Point2f(19.5f, 19.5f), cv::Point2f(79.5f, 19.5f), cv::Point2f(79.5f, 79.5f), cv::Point2f(19.5f, 79.5f)};

TEST(DecodeMarker, ReadsTheIdAndTurnsTheCornersLikeOpenCv) {
  const auto dict = calib::DictionaryByName("DICT_4X4_50");
  // Turned by 90 deg clockwise, the marker's own top-left corner is at image top-right (79.5, 19.5).
  cv::Mat turned;
  cv::rotate(MarkerImage(*dict, 7), turned, cv::ROTATE_90_CLOCKWISE);
  DecodedMarker m;
  ASSERT_EQ(DecodeMarker(DecodeOptions{}, turned, kEdges, *dict, &m), DecodeResult::kMarker);
  EXPECT_EQ(m.id, 7);
  EXPECT_NEAR(m.corners_px[0].x, 79.5, 1e-3);
  EXPECT_NEAR(m.corners_px[0].y, 19.5, 1e-3);
  // Stock OpenCV on the same image names the same corner first.
  std::vector<int> ids;
  std::vector<std::vector<cv::Point2f>> corners;
  cv::aruco::detectMarkers(turned, cv::makePtr<cv::aruco::Dictionary>(*dict), corners, ids);
  ASSERT_EQ(ids.size(), 1u);
  EXPECT_EQ(ids[0], 7);
  EXPECT_NEAR(corners[0][0].x, m.corners_px[0].x, 1.5);
  EXPECT_NEAR(corners[0][0].y, m.corners_px[0].y, 1.5);
  // Any starting corner of the same quad gives the same answer.
  const Quad shifted = {kEdges[2], kEdges[3], kEdges[0], kEdges[1]};
  ASSERT_EQ(DecodeMarker(DecodeOptions{}, turned, shifted, *dict, &m), DecodeResult::kMarker);
  EXPECT_NEAR(m.corners_px[0].x, 79.5, 1e-3);
}

TEST(DecodeMarker, FlatOrUncodedQuadsAreNotRead) {
  const auto dict = calib::DictionaryByName("DICT_4X4_50");
  DecodedMarker m;
  const cv::Mat flat(100, 100, CV_8UC1, cv::Scalar(128));
  EXPECT_EQ(DecodeMarker(DecodeOptions{}, flat, kEdges, *dict, &m), DecodeResult::kNotMarker);
  // A black border around a pattern that is no code of the dictionary (checked first): it looks
  // like a marker but reads as none.
  cv::Mat bits(4, 4, CV_8UC1);
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 4; ++c) bits.at<uchar>(r, c) = (r == c || r + c == 3) ? 1 : 0;
  int id = -1, rotation = 0;
  ASSERT_FALSE(dict->identify(bits, id, rotation, 0.6)) << "the X pattern is code " << id;
  cv::Mat image(100, 100, CV_8UC1, cv::Scalar(255));
  image(cv::Rect(20, 20, 60, 60)).setTo(0);
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 4; ++c)
      if (bits.at<uchar>(r, c)) image(cv::Rect(30 + 10 * c, 30 + 10 * r, 10, 10)).setTo(255);
  EXPECT_EQ(DecodeMarker(DecodeOptions{}, image, kEdges, *dict, &m), DecodeResult::kUnreadable);
  // A quad that leaves the image is not read.
  const Quad outside = {cv::Point2f(-5, -5), cv::Point2f(40, -5), cv::Point2f(40, 40), cv::Point2f(-5, 40)};
  EXPECT_EQ(DecodeMarker(DecodeOptions{}, image, outside, *dict, &m), DecodeResult::kNotMarker);
}

TEST(CellsAgreeWithId, RightIdAgreesOthersDoNotAndDoubtfulCellsFailTheMargin) {
  const auto dict = calib::DictionaryByName("DICT_4X4_50");
  cv::Mat image = MarkerImage(*dict, 7);
  EXPECT_TRUE(CellsAgreeWithId(image, kEdges, *dict, 7, {}));
  EXPECT_FALSE(CellsAgreeWithId(image, kEdges, *dict, 8, {.allowed_mismatches = 1}));
  // Make one light inner cell barely light: 55 % of the way from black (0) to white (255). It is
  // still on the light side (no mismatch) but only 5 % of the gap from the split.
  const cv::Mat code = cv::aruco::Dictionary::getBitsFromByteList(dict->bytesList.rowRange(7, 8), 4);
  int r = -1, c = -1;
  for (int i = 0; i < 16 && r < 0; ++i)
    if (code.at<uchar>(i / 4, i % 4)) r = i / 4, c = i % 4;
  ASSERT_GE(r, 0);
  image(cv::Rect(30 + 10 * c, 30 + 10 * r, 10, 10)).setTo(140);
  // Without sharpening: it would pull the grey cell towards the light side, away from the split.
  EXPECT_TRUE(CellsAgreeWithId(image, kEdges, *dict, 7, {.sharpening = 0}));
  EXPECT_FALSE(CellsAgreeWithId(image, kEdges, *dict, 7, {.min_margin = 0.1, .sharpening = 0}));
}

// 2 px cells under a 1 px blur: a light cell among dark ones reads grey and the split misreads
// the code; taking the neighbours' bleed back out (sharpening) reads it, as AprilTag 3 does. Read
// with no bit corrected, so the comparison is of the cells' levels alone (36h11's correction
// reads most of them either way).
TEST(DecodeMarker, SharpeningReadsSmallBlurredCells) {
  const auto dict = calib::DictionaryByName("DICT_APRILTAG_36h11");
  const int cell = 8, cells = 8, quiet = 2;  // drawn at 8x the final size, then shrunk 4x: 2 px cells
  int plain = 0, sharpened = 0;
  for (int id = 0; id < 40; ++id) {
    cv::Mat marker, big(cell * (cells + 2 * quiet), cell * (cells + 2 * quiet), CV_8UC1, cv::Scalar(255));
    cv::aruco::drawMarker(cv::makePtr<cv::aruco::Dictionary>(*dict), id, cell * cells, marker, 1);
    marker.copyTo(big(cv::Rect(cell * quiet, cell * quiet, cell * cells, cell * cells)));
    cv::Mat small;
    cv::resize(big, small, cv::Size(), 0.25, 0.25, cv::INTER_AREA);
    cv::GaussianBlur(small, small, cv::Size(), 1.0);
    const float a = quiet * 2 - 0.5f, b = a + cells * 2;  // pixel centres at integers
    const Quad q = {cv::Point2f(a, a), cv::Point2f(b, a), cv::Point2f(b, b), cv::Point2f(a, b)};
    DecodedMarker m;
    DecodeOptions o;
    o.correction_rate = 0;
    o.sharpening = 0;
    plain += DecodeMarker(o, small, q, *dict, &m) == DecodeResult::kMarker && m.id == id;
    o.sharpening = 0.25;
    const bool read = DecodeMarker(o, small, q, *dict, &m) == DecodeResult::kMarker;
    sharpened += read && m.id == id;
    EXPECT_TRUE(!read || m.id == id) << "marker " << id << " read as " << m.id;
  }
  EXPECT_GE(sharpened, 38);
  EXPECT_LT(plain, sharpened - 10) << "plain " << plain << ", sharpened " << sharpened;
}

// A tag with cells misread (a speck of dust, a glint, blur) is still read when its code stays
// far nearer its own than any other: 36h11 codes are 11 apart, so 3 wrong cells leave it 8 from
// the next, as AprilTag 3 reads them (2 by default). OpenCV 4.6 declares none for the AprilTag
// families, so 1 wrong cell lost the tag; DICT_4X4_50's codes are 4 apart and correct none.
TEST(DecodeMarker, ReadsATagWithCellsWrongAsFarAsItsCodesDistanceAllows) {
  auto read_with_wrong_cells = [](const std::string& dict_name, int id, int wrong) {
    const auto dict = calib::DictionaryByName(dict_name);
    const int cells = dict->markerSize + 2, cell = 8, quiet = 2;
    cv::Mat marker, image(cell * (cells + 2 * quiet), cell * (cells + 2 * quiet), CV_8UC1, cv::Scalar(255));
    cv::aruco::drawMarker(dict, id, cell * cells, marker, 1);
    marker.copyTo(image(cv::Rect(cell * quiet, cell * quiet, cell * cells, cell * cells)));
    for (int k = 0; k < wrong; ++k) {  // inner cells along the diagonal, flipped
      cv::Mat c = image(cv::Rect(cell * (quiet + 1 + k), cell * (quiet + 1 + k), cell, cell));
      c.setTo(c.at<uchar>(cell / 2, cell / 2) > 127 ? 0 : 255);
    }
    const float a = cell * quiet - 0.5f, b = a + cell * cells;
    const Quad q = {cv::Point2f(a, a), cv::Point2f(b, a), cv::Point2f(b, b), cv::Point2f(a, b)};
    DecodedMarker m;
    return DecodeMarker(DecodeOptions{}, image, q, *dict, &m) == DecodeResult::kMarker ? m.id : -1;
  };
  for (int id : {0, 17, 300, 586}) {
    EXPECT_EQ(read_with_wrong_cells("DICT_APRILTAG_36h11", id, 0), id);
    EXPECT_EQ(read_with_wrong_cells("DICT_APRILTAG_36h11", id, 3), id) << "3 wrong cells, 3 correctable at the rate of 0.6";
    EXPECT_EQ(read_with_wrong_cells("DICT_APRILTAG_36h11", id, 4), -1) << "4 wrong cells: beyond the correction";
  }
  EXPECT_EQ(read_with_wrong_cells("DICT_4X4_50", 7, 0), 7);
  EXPECT_EQ(read_with_wrong_cells("DICT_4X4_50", 7, 1), -1);
}


// The code book must answer as Dictionary::identify does, rotation included, on every dictionary
// the detector is given: each code turned and with bits flipped up to past the correction, and noise.
TEST(CodeBook, AnswersAsIdentify) {
  cv::RNG rng(21);
  for (const char* name : {"DICT_4X4_50", "DICT_5X5_100", "DICT_6X6_250", "DICT_7X7_50", "DICT_APRILTAG_36h11",
                           "DICT_ARUCO_ORIGINAL"}) {
    const auto dict = calib::DictionaryByName(name);
    const CodeBook book(*dict);
    const int n = dict->markerSize;
    for (int trial = 0; trial < 3000; ++trial) {
      cv::Mat bits(n, n, CV_8UC1);
      if (trial % 3 == 2) {
        rng.fill(bits, cv::RNG::UNIFORM, 0, 2);
      } else {
        const int id = rng.uniform(0, dict->bytesList.rows);
        const cv::Mat code = cv::aruco::Dictionary::getBitsFromByteList(dict->bytesList.rowRange(id, id + 1), n);
        const int turn = rng.uniform(0, 4);  // 3: as drawn
        if (turn < 3) cv::rotate(code, bits, turn);
        else code.copyTo(bits);
        for (int f = rng.uniform(0, dict->maxCorrectionBits + 3); f > 0; --f) bits.at<uchar>(rng.uniform(0, n), rng.uniform(0, n)) ^= 1;
      }
      for (double rate : {0.0, 0.6, 1.0}) {
        int id0 = -7, rot0 = -7, id1 = -7, rot1 = -7;
        const bool a = dict->identify(bits, id0, rot0, rate);
        const bool b = book.Identify(bits, rate, &id1, &rot1);
        ASSERT_EQ(a, b) << name << " trial " << trial;
        ASSERT_EQ(id0, id1) << name << " trial " << trial;
        if (a) {
          ASSERT_EQ(rot0, rot1) << name << " trial " << trial;
        }
      }
    }
  }
}

}  // namespace
}  // namespace vedette::vision
