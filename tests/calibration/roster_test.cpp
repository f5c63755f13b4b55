// The sample roster assets/rosters/totsk_small.yaml: it loads as a scene without poses, its markers
// are distinct and in its dictionary, and every printed marker (with its quiet zone) fits on its
// base and every anchor on the table.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>

#include "calibration/dictionary.h"
#include "calibration/roster.h"
#include "rules/input_error.h"
#include "rules/scene/scene_io.h"

namespace vedette::calib {
namespace {

TEST(SampleRoster, TotskSmallLoadsAndItsMarkersFit) {
  const std::string path = std::string(VEDETTE_TEST_DATA) + "/../assets/rosters/totsk_small.yaml";
  SceneLoadOptions options;
  options.require_poses = false;
  const Scene scene = LoadScene(path, options);
  EXPECT_EQ(scene.dictionary, "DICT_4X4_50");
  const auto dictionary = ResolveDictionary(scene.dictionary);
  ASSERT_EQ(scene.anchors.size(), 4u);
  ASSERT_EQ(scene.units.size(), 12u);
  std::set<int> ids;
  for (const Anchor& a : scene.anchors) {
    ids.insert(a.marker);
    // A 50 mm anchor with a one-cell (50/6 mm) quiet zone inside the 1200 x 900 table.
    const double half = a.size_mm / 2 + a.size_mm / 6;
    EXPECT_GE(a.x_mm - half, 0) << "anchor " << a.marker;
    EXPECT_LE(a.x_mm + half, 1200) << "anchor " << a.marker;
    EXPECT_GE(a.y_mm - half, 0) << "anchor " << a.marker;
    EXPECT_LE(a.y_mm + half, 900) << "anchor " << a.marker;
  }
  for (const Unit& u : scene.units) {
    EXPECT_FALSE(u.pose.has_value()) << u.id;
    ASSERT_TRUE(u.marker.has_value()) << u.id;
    const MarkerMount& m = *u.marker;
    EXPECT_LT(m.id, DictionarySize(*dictionary)) << u.id;
    EXPECT_TRUE(ids.insert(m.id).second) << u.id << ": marker " << m.id << " used twice";
    EXPECT_DOUBLE_EQ(m.size_mm, 18) << u.id;
    EXPECT_DOUBLE_EQ(m.height_mm, 3) << u.id;
    // The printed square (marker + one cell of quiet zone each side), turned by the marker's heading
    // and moved by its offset in the base frame (u right, v forward), inside the base rectangle.
    ASSERT_EQ(u.bases.size(), 1u);
    const double half = (m.size_mm + 2 * m.size_mm / 6) / 2;
    const double a = m.heading_deg * M_PI / 180;
    for (const auto& [su, sv] : {std::pair{-1, -1}, {1, -1}, {1, 1}, {-1, 1}}) {
      const double cu = m.offset_mm.x() + half * (su * std::cos(a) - sv * std::sin(a));
      const double cv = m.offset_mm.y() + half * (su * std::sin(a) + sv * std::cos(a));
      EXPECT_LE(std::abs(cu), u.bases[0].width_mm / 2 + 1e-9) << u.id;
      EXPECT_LE(std::abs(cv), u.bases[0].depth_mm / 2 + 1e-9) << u.id;
    }
  }
  EXPECT_EQ(ids.size(), 16u);
}

// A small valid roster as text, with one unit line to vary.
std::string RosterText(const std::string& unit_line, const std::string& dictionary = "DICT_4X4_50", int anchors = 3) {
  std::string s = "bw_mm: 40\ndictionary: " + dictionary + "\nanchors:\n";
  for (int i = 0; i < anchors; ++i)
    s += "  - {marker: " + std::to_string(i) + ", size_mm: 50, x_mm: " + std::to_string(40 + 500 * (i % 2)) +
         ", y_mm: " + std::to_string(40 + 400 * (i / 2)) + "}\n";
  return s + "units:\n" + unit_line + "\n";
}

// Writes the text to a file of its own and loads it as a roster; returns the error ("" when loaded).
std::string RosterError(const std::string& text) {
  const auto dir = std::filesystem::temp_directory_path() / ("vedette_roster_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto path = dir / "roster.yaml";
  { std::ofstream(path) << text; }
  std::string error;
  try {
    LoadRoster(path.string());
  } catch (const InputError& e) {
    error = e.what();
  }
  std::filesystem::remove_all(dir);
  return error;
}

const char* kGoodUnit =
    "  - {id: B1, side: blue, type: infantry, base: {width_mm: 40, depth_mm: 30}, marker: 10, marker_size_mm: 16}";

TEST(LoadRoster, ReadsTheSampleRosterWithoutPoses) {
  const Scene r = LoadRoster(std::string(VEDETTE_TEST_DATA) + "/../assets/rosters/totsk_small.yaml");
  EXPECT_EQ(r.units.size(), 12u);
  EXPECT_EQ(r.anchors.size(), 4u);
}

TEST(LoadRoster, IgnoresPosesAScenePuts) {
  std::string unit = kGoodUnit;
  unit.insert(unit.size() - 1, ", pose: {x_mm: 100, y_mm: 100, heading_deg: 90}");
  EXPECT_EQ(RosterError(RosterText(unit)), "");
  const auto dir = std::filesystem::temp_directory_path() / ("vedette_roster_pose_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  { std::ofstream(dir / "r.yaml") << RosterText(unit); }
  const Scene r = LoadRoster((dir / "r.yaml").string());
  std::filesystem::remove_all(dir);
  ASSERT_EQ(r.units.size(), 1u);
  EXPECT_FALSE(r.units[0].pose.has_value());
}

TEST(LoadRoster, RefusesWhatWouldFailAtTheTableNamingFileLineAndRemedy) {
  EXPECT_EQ(RosterError(RosterText(kGoodUnit)), "");
  // No dictionary, or one that does not exist.
  std::string text = RosterText(kGoodUnit);
  text.erase(text.find("dictionary:"), text.find('\n', text.find("dictionary:")) - text.find("dictionary:") + 1);
  EXPECT_NE(RosterError(text).find("names no `dictionary:`"), std::string::npos);
  const std::string unknown = RosterError(RosterText(kGoodUnit, "DICT_9X9_7"));
  EXPECT_NE(unknown.find("roster.yaml:2: dictionary:"), std::string::npos) << unknown;
  // Too few anchors to register the table.
  EXPECT_NE(RosterError(RosterText(kGoodUnit, "DICT_4X4_50", 2)).find("lists 2 anchors"), std::string::npos);
  // A marker the dictionary does not have (unit and anchor).
  std::string far = kGoodUnit;
  far.replace(far.find("marker: 10"), 10, "marker: 999");
  const std::string e999 = RosterError(RosterText(far));
  EXPECT_NE(e999.find(":8: unit B1: marker 999 is not in DICT_4X4_50 (its IDs are 0-49)"), std::string::npos) << e999;
  std::string anchor = RosterText(kGoodUnit);
  anchor.replace(anchor.find("marker: 1,"), 10, "marker: 60,");
  EXPECT_NE(RosterError(anchor).find("anchor 60 is not in DICT_4X4_50"), std::string::npos);
  // The same marker twice.
  const std::string twice =
      RosterError(RosterText(std::string(kGoodUnit) + "\n" + "  - {id: B2, side: blue, type: infantry, base: {width_mm: 40, depth_mm: 30}, marker: 10}"));
  EXPECT_NE(twice.find("unit B2: marker 10 is already unit B1's"), std::string::npos) << twice;
  // A unit the camera cannot place.
  EXPECT_NE(RosterError(RosterText("  - {id: G, side: blue, type: general}")).find("unit G has no marker"),
            std::string::npos);
}

TEST(LoadRoster, RefusesAMarkerWithNoWhiteMarginOnItsBase) {
  // 20 mm on a 20 mm deep base: the cloth touches the black border.
  const std::string tight = RosterError(
      RosterText("  - {id: B1, side: blue, type: infantry, base: {width_mm: 40, depth_mm: 20}, marker: 10, marker_size_mm: 20}"));
  EXPECT_NE(tight.find("unit B1: its 20.0 mm marker needs a white margin of 1.7 mm"), std::string::npos) << tight;
  EXPECT_NE(tight.find("at most 17.1 mm"), std::string::npos) << tight;  // 20 / (1 + 2 * 0.5 / 6)
  // 16 mm on a 20 mm deep base keeps 2 mm a side: accepted.
  EXPECT_EQ(RosterError(RosterText("  - {id: B1, side: blue, type: infantry, base: {width_mm: 40, depth_mm: 20}, marker: 10}")), "");
  // Pushed to the rear edge, the same marker runs off it.
  const std::string offset = RosterError(RosterText(
      "  - {id: B1, side: blue, type: infantry, base: {width_mm: 40, depth_mm: 30}, marker: 10, marker_offset_mm: [0, -10]}"));
  EXPECT_NE(offset.find("runs off its base"), std::string::npos) << offset;
  // Turned 45 degrees, a 16 mm marker needs 26.4 mm of a 30 mm deep base's depth: fits; on 24 mm it does not.
  EXPECT_EQ(RosterError(RosterText("  - {id: B1, side: blue, type: infantry, base: {width_mm: 40, depth_mm: 30}, marker: 10, "
                                   "marker_heading_deg: 45}")),
            "");
  EXPECT_NE(RosterError(RosterText("  - {id: B1, side: blue, type: infantry, base: {width_mm: 40, depth_mm: 24}, marker: 10, "
                                   "marker_heading_deg: 45}"))
                .find("runs off its base"),
            std::string::npos);
}

TEST(LoadRoster, EveryShippedRosterLoads) {
  const std::string assets = std::string(VEDETTE_TEST_DATA) + "/../assets";
  for (const char* r : {"/rosters/totsk_small.yaml", "/clips/example_roster.yaml", "/demo/roster.yaml"})
    EXPECT_NO_THROW(LoadRoster(assets + r)) << r;
}

}  // namespace
}  // namespace vedette::calib
