// The sample roster assets/rosters/totsk_small.yaml: it loads as a scene without poses, its markers
// are distinct and in its dictionary, and every printed marker (with its quiet zone) fits on its
// base and every anchor on the table.
#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "calibration/dictionary.h"
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
    EXPECT_DOUBLE_EQ(m.size_mm, 16) << u.id;
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

}  // namespace
}  // namespace vedette::calib
