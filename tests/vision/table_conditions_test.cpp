// Marker detection under each condition a real table has (synth/table_conditions.h), on one small
// render per condition, against the renderer's truth, against stock OpenCV at its best documented
// settings on the same image (DetectMarkersStockBest, DICT_4X4_50) and against AprilTag 3 at its
// best for small tags (quad_decimate 1, AprilTag 36h11). The full matrix is bench/condition_bench.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "bench/apriltag_reference.h"
#include "calibration/dictionary.h"
#include "synth/detection_score.h"
#include "synth/table_conditions.h"
#include "vision/detect.h"
#include "vision/grey.h"

namespace vedette::synth {
// Test names and failure messages show the condition's name, not its bytes.
void PrintTo(const TableCondition& c, std::ostream* os) { *os << c.name; }
}  // namespace vedette::synth

namespace vedette::vision {
namespace {

using synth::DetectionScore;
using synth::TableCondition;

// Recall the detector must reach on its own, whatever stock does: blur takes the smallest markers
// from every detector (stock best found 67-69 % under defocus and motion blur in the benchmark).
double FloorFor(const std::string& condition) {
  if (condition == "defocus" || condition == "motion_blur") return 0.6;
  return 0.9;
}

class TableConditionTest : public ::testing::TestWithParam<TableCondition> {};

TEST_P(TableConditionTest, FindsAtLeastWhatStockFindsWithNoWrongIdsAndSmallerErrors) {
  const TableCondition& c = GetParam();
  const synth::ConditionTable t = synth::MakeConditionTable(c, "DICT_4X4_50", 20, 1);
  const auto dict = calib::DictionaryByName("DICT_4X4_50");
  const cv::Mat gray = GreyFrame(t.rendering.image);
  const Detections d = DetectMarkers(DetectorOptionsFor(t.scene, t.camera.intrinsics), gray, *dict);
  const DetectionScore ours = synth::ScoreDetections({}, t.rendering.truth, d.markers);
  const DetectionScore stock = synth::ScoreDetections({}, t.rendering.truth, DetectMarkersStockBest(gray, *dict).markers);
  SCOPED_TRACE(c.name + " (" + c.what + "): Vedette " + std::to_string(ours.found) + "/" + std::to_string(ours.expected) +
               ", stock best " + std::to_string(stock.found) + "/" + std::to_string(stock.expected));
  ASSERT_GE(ours.expected, 18);
  EXPECT_EQ(ours.wrong, 0);
  EXPECT_GE(ours.found, stock.found);
  EXPECT_GE(ours.Recall(), FloorFor(c.name));
  EXPECT_LE(synth::Median(ours.centre_error_px), synth::Median(stock.centre_error_px));
  EXPECT_LT(synth::Median(ours.corner_error_px), 0.3);
}

INSTANTIATE_TEST_SUITE_P(Conditions, TableConditionTest, ::testing::ValuesIn(synth::StandardConditions()),
                         [](const ::testing::TestParamInfo<TableCondition>& info) { return info.param.name; });

// The same on AprilTag 36h11 codes against AprilTag 3 itself. OpenCV 4.6 declares no correctable
// bits for the AprilTag families, so a tag with one cell misread was lost where AprilTag corrects
// two: 11 markers of 84 under defocus in the benchmark (calib::CorrectableBits).
// Corners: at most AprilTag's median error on the markers both find, under every condition (the bar
// model of vision/edge_lines.h; before it, the centroid of the rise was 0.01-0.04 px behind under
// blur and compression).
// The detections of markers in `ids` alone.
std::vector<calib::MarkerObservation> OnlyIds(const std::vector<calib::MarkerObservation>& found, const std::set<int>& ids) {
  std::vector<calib::MarkerObservation> out;
  for (const auto& m : found)
    if (ids.count(m.id)) out.push_back(m);
  return out;
}

class TableCondition36h11Test : public ::testing::TestWithParam<TableCondition> {};

TEST_P(TableCondition36h11Test, FindsWhatAprilTagFindsWithNoWrongIdsAndCornersAsGood) {
  const TableCondition& c = GetParam();
  const synth::ConditionTable t = synth::MakeConditionTable(c, "DICT_APRILTAG_36h11", 20, 1);
  const auto dict = calib::DictionaryByName("DICT_APRILTAG_36h11");
  const cv::Mat gray = GreyFrame(t.rendering.image);
  const auto ours_found = DetectMarkers(DetectorOptionsFor(t.scene, t.camera.intrinsics), gray, *dict).markers;
  const auto apriltag_found = bench::AprilTag36h11(gray, 1);
  const DetectionScore ours = synth::ScoreDetections({}, t.rendering.truth, ours_found);
  const DetectionScore apriltag = synth::ScoreDetections({}, t.rendering.truth, apriltag_found);
  SCOPED_TRACE(c.name + " (" + c.what + "): Vedette " + std::to_string(ours.found) + "/" + std::to_string(ours.expected) +
               ", AprilTag 3 " + std::to_string(apriltag.found) + "/" + std::to_string(apriltag.expected));
  ASSERT_GE(ours.expected, 18);
  EXPECT_EQ(ours.wrong, 0);
  EXPECT_GE(ours.found, apriltag.found);
  // Corners compared on the markers both found: the one that finds more also finds the harder ones.
  std::set<int> ours_ids, both;
  for (const auto& m : ours_found) ours_ids.insert(m.id);
  for (const auto& m : apriltag_found)
    if (ours_ids.count(m.id)) both.insert(m.id);
  ASSERT_GE(both.size(), 10u);
  const DetectionScore ours_common = synth::ScoreDetections({}, t.rendering.truth, OnlyIds(ours_found, both));
  const DetectionScore apriltag_common = synth::ScoreDetections({}, t.rendering.truth, OnlyIds(apriltag_found, both));
  EXPECT_LE(synth::Median(ours_common.corner_error_px), synth::Median(apriltag_common.corner_error_px));
}

INSTANTIATE_TEST_SUITE_P(Conditions, TableCondition36h11Test, ::testing::ValuesIn(synth::StandardConditions()),
                         [](const ::testing::TestParamInfo<TableCondition>& info) { return info.param.name; });

// The cause behind small turned markers going unseen: a contour's point count is not its length.
// A 20 px marker turned 45 degrees has about 57 outline points; counted as its perimeter it looked
// like a 14 px marker and fell under a roster-derived lower limit of 14.4 px.
TEST(TableConditions, SizeLimitsMeasureTheOutlineNotItsPointCount) {
  TableCondition c = synth::StandardConditions().front();
  c.marker_min_mm = 17, c.marker_max_mm = 19, c.turned_45 = true;
  const synth::ConditionTable t = synth::MakeConditionTable(c, "DICT_4X4_50", 20, 2);
  const auto dict = calib::DictionaryByName("DICT_4X4_50");
  double smallest = 1e9;
  for (const auto& m : t.rendering.truth.markers) smallest = std::min(smallest, m.side_px);
  DetectorOptions o;
  o.min_marker_side_px = 0.95 * smallest;  // every marker is above the limit
  o.max_marker_side_px = 120;
  const Detections d = DetectMarkers(o, t.rendering.image, *dict);
  const DetectionScore s = synth::ScoreDetections({}, t.rendering.truth, d.markers);
  EXPECT_EQ(s.found, s.expected) << "smallest marker " << smallest << " px";
}

}  // namespace
}  // namespace vedette::vision
