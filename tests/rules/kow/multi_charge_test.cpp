// Kings of War multiple charges on one target (seed 002 lines 21-24): which sets of chargers fit into
// base contact together, sharing a facing as equally as possible, never corner to corner (seed 17).
#include <gtest/gtest.h>

#include <string>

#include "rules/kow/multi_charge.h"
#include "rules/ruleset.h"
#include "rules/scene/scene_io.h"

namespace vedette {
namespace {

using nlohmann::json;
using geom::Edge;

// One 100 mm edge. Two 100 mm chargers: each centred on its half of the edge as far as they can be,
// i.e. side by side touching 50 mm each, sticking out 50 mm past each corner.
TEST(KowPlaceAlongEdge, TwoChargersShareTheEdgeEqually) {
  const std::vector<double> x = kow::PlaceAlongEdge(100, {100, 100}, true, true, 1.0);
  ASSERT_EQ(x.size(), 2u);
  EXPECT_NEAR(x[0], -50.0, 1e-9);
  EXPECT_NEAR(x[1], 50.0, 1e-9);
  // Narrow chargers stay on their own shares: centres 25 and 75.
  const std::vector<double> y = kow::PlaceAlongEdge(100, {30, 30}, true, true, 1.0);
  ASSERT_EQ(y.size(), 2u);
  EXPECT_NEAR(y[0], 10.0, 1e-9);
  EXPECT_NEAR(y[1], 60.0, 1e-9);
}

// Three chargers 40 | 98 | 40 on a 100 mm edge: the middle one lies within the edge from 1 to 99, the
// outer ones touch exactly 1 mm each (the least that is more than a corner): fits. A 100 mm middle one
// leaves the outer two only the corners (seed 17): does not fit, and nor does 98.5.
//
//      [-40-][--------98--------][-40-]
//        |====== edge 0..100 ======|
TEST(KowPlaceAlongEdge, MiddleChargersMustFitWithinTheEdge) {
  const std::vector<double> x = kow::PlaceAlongEdge(100, {40, 98, 40}, true, true, 1.0);
  ASSERT_EQ(x.size(), 3u);
  EXPECT_NEAR(x[0], -39.0, 1e-9);
  EXPECT_NEAR(x[1], 1.0, 1e-9);
  EXPECT_NEAR(x[2], 99.0, 1e-9);
  EXPECT_TRUE(kow::PlaceAlongEdge(100, {40, 98.5, 40}, true, true, 1.0).empty());
  EXPECT_TRUE(kow::PlaceAlongEdge(100, {40, 100, 40}, true, true, 1.0).empty());
}

// No corner may be overhung: 50 + 50 exactly fills the edge; 50 + 50.5 does not fit.
TEST(KowPlaceAlongEdge, ExactlyFittingSideBySide) {
  const std::vector<double> x = kow::PlaceAlongEdge(100, {50, 50}, false, false, 1.0);
  ASSERT_EQ(x.size(), 2u);
  EXPECT_NEAR(x[0], 0.0, 1e-9);
  EXPECT_NEAR(x[1], 50.0, 1e-9);
  EXPECT_TRUE(kow::PlaceAlongEdge(100, {50, 50.5}, false, false, 1.0).empty());
}

// T: 100 x 40 at the origin facing +y, front edge y = 20, x -50..50. Two blocking pieces W1 (x -150..-50)
// and W2 (x 50..150), y -20..120, hem in the space in front of it, so nobody can stick out past its front
// corners. Chargers P and Q (40 deep) stand at x = -30 and x = 30, y = 200.
//
//   |  W1  |  P     Q  |  W2  |
//   |      |+----T----+|      |   the gap is exactly T's 100 mm front
TEST(KowFitChargers, ExactlyFittingBetweenWalls) {
  const geom::Base t{{0, 0}, 90, 100, 40};
  const std::vector<geom::Polygon> walls = {{{-150, -20}, {-50, -20}, {-50, 120}, {-150, 120}},
                                            {{50, -20}, {150, -20}, {150, 120}, {50, 120}}};
  auto fit = [&](double q_width) {
    return kow::FitChargers(t, {{"P", {{-30, 200}, 270, 50, 40}, Edge::kFront}, {"Q", {{30, 200}, 270, q_width, 40}, Edge::kFront}},
                            walls, {"W1", "W2"});
  };
  const kow::ChargersFit ok = fit(50);
  ASSERT_TRUE(ok.fits) << ok.why_not;
  // P on the left half (x -50..0), Q on the right half (x 0..50), both 40 mm deep in front of y = 20.
  EXPECT_NEAR((ok.placed[0].at_contact.centre_mm - geom::Vec2(-25, 40)).norm(), 0.0, 1e-9);
  EXPECT_NEAR((ok.placed[1].at_contact.centre_mm - geom::Vec2(25, 40)).norm(), 0.0, 1e-9);
  EXPECT_NEAR(ok.placed[0].contact_mm, 50.0, 1e-9);
  EXPECT_NEAR(ok.placed[1].contact_mm, 50.0, 1e-9);
  EXPECT_NEAR(geom::NormalizeDeg(ok.placed[0].at_contact.heading_deg), -90.0, 1e-9);

  const kow::ChargersFit wide = fit(50.5);
  EXPECT_FALSE(wide.fits);
  EXPECT_NE(wide.why_not.find("W"), std::string::npos) << wide.why_not;
}

// Two facings that meet at a corner cannot both stick out past it. T as above with a wall flush against
// its rear edge (y -120..-20). F1 and F2 (100 mm each) on the front must stick out past both front
// corners; L1 (60 mm) on the 40 mm left flank must stick out past the front-left corner (-50, 20) or the
// rear-left one (-50, -20), where the wall is.
//
//          [F1][F2]
//     [L1] +--T--+
//     =====wall=====
TEST(KowFitChargers, FacingsMeetingAtACornerCannotBothOverhangIt) {
  const geom::Base t{{0, 0}, 90, 100, 40};
  const std::vector<geom::Polygon> wall = {{{-300, -120}, {300, -120}, {300, -20}, {-300, -20}}};
  const kow::ChargerOnFacing f1{"F1", {{-60, 200}, 270, 100, 40}, Edge::kFront};
  const kow::ChargerOnFacing f2{"F2", {{60, 200}, 270, 100, 40}, Edge::kFront};
  const kow::ChargerOnFacing l1{"L1", {{-200, 0}, 0, 60, 40}, Edge::kLeft};
  const kow::ChargersFit all = kow::FitChargers(t, {f1, f2, l1}, wall, {"wall"});
  EXPECT_FALSE(all.fits);
  EXPECT_NE(all.why_not.find("corner"), std::string::npos) << all.why_not;

  const kow::ChargersFit front_pair = kow::FitChargers(t, {f1, f2}, wall, {"wall"});
  ASSERT_TRUE(front_pair.fits) << front_pair.why_not;
  EXPECT_NEAR(front_pair.placed[0].contact_mm, 50.0, 1e-9);

  // F1 alone fills the front exactly; L1 sticks out 20 mm past the front-left corner: x -90..-50,
  // y -20..40, centre (-70, 10), touching F1's left end (-50) along y 20..40.
  const kow::ChargersFit one_front = kow::FitChargers(t, {f1, l1}, wall, {"wall"});
  ASSERT_TRUE(one_front.fits) << one_front.why_not;
  EXPECT_NEAR((one_front.placed[0].at_contact.centre_mm - geom::Vec2(0, 40)).norm(), 0.0, 1e-9);
  EXPECT_NEAR((one_front.placed[1].at_contact.centre_mm - geom::Vec2(-70, 10)).norm(), 0.0, 1e-9);
  EXPECT_NEAR(one_front.placed[1].contact_mm, 40.0, 1e-9);
}

TEST(KowFitChargers, OptionsCheck) {
  std::string err;
  EXPECT_TRUE(kow::MultiChargeOptions{}.Check(&err));
  kow::MultiChargeOptions bad;
  bad.min_contact_mm = 0;
  EXPECT_FALSE(bad.Check(&err));
}

// Scene joint_charge.yaml (sketch in the file).
TEST(KowMultiCharge, WhichSetsOfChargersFit) {
  const Findings f = MakeRuleset("kow")->Analyze(LoadScene(std::string(VEDETTE_TEST_DATA) + "/rules/kow/scenes/joint_charge.yaml"));
  ASSERT_EQ(f.report["multi_charges"].size(), 1u) << f.report["multi_charges"].dump(1);
  const json& m = f.report["multi_charges"][0];
  EXPECT_EQ(m["target"], "T");
  ASSERT_EQ(m["chargers"].size(), 3u) << m.dump(1);
  std::map<std::string, std::string> facing;
  for (const json& c : m["chargers"]) facing[c["unit"]] = c["facing"];
  EXPECT_EQ(facing["A"], "front");
  EXPECT_EQ(facing["B"], "front");
  EXPECT_EQ(facing["L"], "left_flank");
  EXPECT_FALSE(m["all_fit"].get<bool>());
  EXPECT_EQ(m["largest_fitting"], json::array({"A", "B"}));
  std::map<std::string, bool> fits;
  for (const json& c : m["combinations"]) {
    std::string k;
    for (const json& u : c["units"]) k += u.get<std::string>();
    fits[k] = c["fits"].get<bool>();
    if (k == "AB") {
      for (const json& p : c["placement"]) {
        EXPECT_NEAR(p["contact_mm"].get<double>(), 50.0, 1e-9);
        EXPECT_NEAR(p["centre_mm"][0].get<double>(), p["unit"] == "A" ? 450.0 : 550.0, 1e-9);
        EXPECT_NEAR(p["centre_mm"][1].get<double>(), 360.0, 1e-9);
      }
    }
    if (k == "AL") {
      for (const json& p : c["placement"])
        if (p["unit"] == "L") {
          EXPECT_NEAR(p["centre_mm"][0].get<double>(), 570.0, 1e-9);
          EXPECT_NEAR(p["centre_mm"][1].get<double>(), 390.0, 1e-9);
        }
    }
  }
  EXPECT_EQ(fits.size(), 4u);
  EXPECT_TRUE(fits["AB"]);
  EXPECT_TRUE(fits["AL"]);
  EXPECT_TRUE(fits["BL"]);
  EXPECT_FALSE(fits["ABL"]);
}

}  // namespace
}  // namespace vedette
