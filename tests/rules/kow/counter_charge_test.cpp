// Kings of War counter-charges (seed 002 line 27): only against the unit declared as having charged
// this one last turn, no line of sight or front arc needed, a pivot to face the target's front, then
// flush contact with the leader points lined up (seed 17); never Hindered (seed 53).
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <string>

#include "rules/input_error.h"
#include "rules/kow/counter_charge.h"
#include "rules/ruleset.h"
#include "rules/scene/scene_io.h"
#include "tests/rules/kow/kow_test_util.h"
#include "tests/rules/report_util.h"

namespace vedette {
namespace {

using nlohmann::json;

using kow_test::Analyze;

// Scene counter_charge.yaml (sketch and arithmetic in the file).
TEST(KowCounterCharge, ExactlyAtRangeWithoutFrontArcOrSight) {
  const Findings f = Analyze(LoadScene(std::string(VEDETTE_TEST_DATA) + "/rules/kow/scenes/counter_charge.yaml"));
  const json b1 = UnitOf(f, "B1");
  for (const json& c : b1["charges"]) EXPECT_NE(c["target"], "R1") << "R1 is not in B1's front arc";
  ASSERT_EQ(b1["counter_charges"].size(), 1u);
  const json& cc = b1["counter_charges"][0];
  EXPECT_EQ(cc["target"], "R1");
  EXPECT_TRUE(cc["chargeable"].get<bool>()) << cc.dump();
  EXPECT_NEAR(cc["distance_mm"].get<double>(), 101.6, 1e-9);
  EXPECT_NEAR(cc["range_in"].get<double>(), 4.0, 1e-9);
  EXPECT_NEAR(cc["margin_mm"].get<double>(), 0.0, 1e-9);
  EXPECT_EQ(cc["facing"], "front");
  EXPECT_EQ(cc["leader_arc"], "front");
  EXPECT_FALSE(cc["hindered"].get<bool>());
  EXPECT_NEAR(cc["route"]["pivot_deg"].get<double>(), 90.0, 1e-9);
  EXPECT_NEAR(cc["route"]["slide_mm"].get<double>(), 0.0, 1e-9);
  EXPECT_NEAR(cc["route"]["move_mm"].get<double>(), std::hypot(81.6, 20.0), 0.01);
  EXPECT_NEAR(cc["route"]["length_mm"].get<double>(), std::hypot(81.6, 20.0) + 20.0 * std::numbers::pi / 2, 0.01);
  // Contact: the whole of R1's front edge, x = 398.4, y 230..330, middle (398.4, 280).
  EXPECT_NEAR(cc["route"]["contact_point_mm"][0].get<double>(), 398.4, 1e-9);
  EXPECT_NEAR(cc["route"]["contact_point_mm"][1].get<double>(), 280.0, 1e-9);

  const json b2 = UnitOf(f, "B2");
  ASSERT_EQ(b2["counter_charges"].size(), 1u);
  EXPECT_FALSE(b2["counter_charges"][0]["chargeable"].get<bool>());
  EXPECT_NEAR(b2["counter_charges"][0]["margin_mm"].get<double>(), -0.5, 1e-9);

  // Nobody declared charged_by for R1: it has no counter-charge.
  EXPECT_TRUE(UnitOf(f, "R1")["counter_charges"].empty());

  // The overlay gets an arrow and the dashed outline where B1 would end (centre (418.4, 280)).
  bool arrow = false, ghost = false;
  for (const DrawPrimitive& d : f.drawing) {
    if (d.unit_id != "B1") continue;
    if (d.kind == DrawKind::kArrow && d.text == "counter-charge R1") arrow = true;
    if (d.kind == DrawKind::kPolygon && d.dashed && d.style == DrawStyle::kThreat) {
      geom::Vec2 c(0, 0);
      for (const geom::Vec2& p : d.points_mm) c += p / 4.0;
      ghost = (c - geom::Vec2(418.4, 280)).norm() < 1e-6;
    }
  }
  EXPECT_TRUE(arrow);
  EXPECT_TRUE(ghost);
}

// T: 100 x 40 at the origin facing +y, front edge y = 20, x -50..50, leader point (0, 20).
// C: 100 x 40 at (0, 200) facing +x (x -20..20, y 150..250). It pivots -90 deg to face -y (now
// x -50..50, y 180..220) and moves 160 mm straight down to centre (0, 40): leader points lined up.
//
//        [====C====]   y 180..220 after the pivot
//          |
//        [=F=]         F (only in the second case): x -50..-10, y 80..120, in the way
//        +----T----+   y -20..20
TEST(KowCounterChargeRoute, PivotThenStraightIntoFlushContact) {
  const geom::Base t{{0, 0}, 90, 100, 40};
  const geom::Base c{{0, 200}, 0, 100, 40};
  const kow::CounterChargeRoute r = kow::FindCounterChargeRoute(c, t, {}, {});
  ASSERT_TRUE(r.found) << r.why_not;
  EXPECT_NEAR(r.pivot_deg, -90.0, 1e-9);
  EXPECT_NEAR(r.move_mm, 160.0, 1e-9);
  EXPECT_NEAR(r.slide_mm, 0.0, 1e-12);
  EXPECT_NEAR(r.length_mm, 160.0 + 20.0 * std::numbers::pi / 2, 1e-9);
  EXPECT_NEAR((r.at_contact.centre_mm - geom::Vec2(0, 40)).norm(), 0.0, 1e-9);
  EXPECT_NEAR((r.contact_point - geom::Vec2(0, 20)).norm(), 0.0, 1e-9);

  // F stands in the way of the lined-up spot. The nearest spot C can reach slides 40 mm to T's right
  // (+x): C slides sideways 40 mm, then moves straight down with its left edge x = -10 running exactly
  // along F's right edge (touching is clear): move 40 + 160 mm. (Straight there diagonally would clip
  // F's corner: the line from (-50, 180) to (-10, 20) passes x = -35 at y = 120.) Contact x -10..50.
  const std::vector<geom::Polygon> f = {{{-50, 80}, {-10, 80}, {-10, 120}, {-50, 120}}};
  const kow::CounterChargeRoute s = kow::FindCounterChargeRoute(c, t, f, {"F"});
  ASSERT_TRUE(s.found) << s.why_not;
  EXPECT_NEAR(s.slide_mm, 40.0, 1e-9);
  EXPECT_NEAR(s.move_mm, 200.0, 1e-9);
  EXPECT_NEAR((s.contact_point - geom::Vec2(20, 20)).norm(), 0.0, 1e-9);

  // F 1 mm wider (to x = -9): 40 mm no longer clears it, the next step (45 mm) does.
  const std::vector<geom::Polygon> f1 = {{{-50, 80}, {-9, 80}, {-9, 120}, {-50, 120}}};
  EXPECT_NEAR(kow::FindCounterChargeRoute(c, t, f1, {"F"}).slide_mm, 45.0, 1e-9);

  // A friend E already in contact with T's front (x -50..-10, y 20..60) takes the lined-up spot: C ends
  // beside it, exactly fitting between E's right edge (x = -10) and beyond T's right corner.
  const std::vector<geom::Polygon> e = {{{-50, 20}, {-10, 20}, {-10, 60}, {-50, 60}}};
  const kow::CounterChargeRoute beside = kow::FindCounterChargeRoute(c, t, e, {"E"});
  ASSERT_TRUE(beside.found) << beside.why_not;
  EXPECT_NEAR(beside.slide_mm, 40.0, 1e-9);
  EXPECT_NEAR((beside.at_contact.centre_mm - geom::Vec2(40, 40)).norm(), 0.0, 1e-9);

  // A wall across the whole way: no room, and the reason names it.
  const std::vector<geom::Polygon> wall = {{{-300, 80}, {300, 80}, {300, 120}, {-300, 120}}};
  const kow::CounterChargeRoute w = kow::FindCounterChargeRoute(c, t, wall, {"W"});
  EXPECT_FALSE(w.found);
  EXPECT_NE(w.why_not.find("W"), std::string::npos) << w.why_not;
}

// The pivot may sweep through things but must end clear (seed 10). G (x 25..65, y 190..210) is clear of
// C as it stands (x -20..20) but inside C after the pivot (x -50..50, y 180..220).
TEST(KowCounterChargeRoute, PivotMustEndClear) {
  const geom::Base t{{0, 0}, 90, 100, 40};
  const geom::Base c{{0, 200}, 0, 100, 40};
  const std::vector<geom::Polygon> g = {{{25, 190}, {65, 190}, {65, 210}, {25, 210}}};
  const kow::CounterChargeRoute r = kow::FindCounterChargeRoute(c, t, g, {"G"});
  EXPECT_FALSE(r.found);
  EXPECT_NE(r.why_not.find("pivot"), std::string::npos) << r.why_not;
  EXPECT_NE(r.why_not.find("G"), std::string::npos) << r.why_not;
}

// A unit behind its target cannot counter-charge through it: C stands behind T (rear edge y = -20),
// facing away. It would have to pass through T to reach T's front.
TEST(KowCounterChargeRoute, CannotPassThroughTheTarget) {
  const geom::Base t{{0, 0}, 90, 100, 40};
  const geom::Base c{{0, -100}, 270, 100, 40};
  const kow::CounterChargeRoute r = kow::FindCounterChargeRoute(c, t, {}, {});
  EXPECT_FALSE(r.found);
  EXPECT_NE(r.why_not.find("target"), std::string::npos) << r.why_not;
}

TEST(KowCounterCharge, ChargedByMustNameAnEnemy) {
  const Scene s = ParseScene(R"(bw_mm: 40
units:
  - {id: B, side: blue, type: infantry, pose: {x_mm: 500, y_mm: 100, heading_deg: 90}, stats: {speed_in: 5}}
  - {id: F, side: blue, type: infantry, pose: {x_mm: 700, y_mm: 100, heading_deg: 90}}
declarations:
  B: {charged_by: F}
)", "bad.yaml");
  try {
    Analyze(s);
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.line(), 6);
    EXPECT_NE(std::string(e.what()).find("not an enemy"), std::string::npos);
  }
}

}  // namespace
}  // namespace vedette

namespace vedette {
namespace {

// Hindered (seed 53): a normal charge through difficult terrain is Hindered, a counter-charge never.
// B (100 x 40 at (500, 160), facing +y, leader (500, 180)) charges R (front edge y = 380) straight
// ahead over x 450..550. Rough ground (difficult, no height: no effect on sight):
//   across the path, x 300..700, y 240..260        -> hindered by it;
//   beside the path from x = 550 (touching its edge) -> not hindered.
TEST(KowHindered, ChargeThroughDifficultTerrain) {
  auto charge = [](const std::string& x0) {
    const std::string yaml = R"(
bw_mm: 40
units:
  - {id: B, side: blue, type: infantry, base: {width_mm: 100, depth_mm: 40}, pose: {x_mm: 500, y_mm: 160, heading_deg: 90}, stats: {speed_in: 6}}
  - {id: R, side: red, type: infantry, base: {width_mm: 100, depth_mm: 40}, pose: {x_mm: 500, y_mm: 400, heading_deg: 270}}
terrain:
  - {id: G, type: rough, polygon: [[)" + x0 + R"(, 240], [700, 240], [700, 260], [)" + x0 + R"(, 260]]}
)";
    const Findings f = MakeRuleset("kow")->Analyze(ParseScene(yaml, "hindered"));
    return UnitOf(f, "B")["charges"][0];
  };
  const json across = charge("300");
  EXPECT_TRUE(across["chargeable"].get<bool>()) << across.dump();
  EXPECT_TRUE(across["hindered"].get<bool>());
  EXPECT_EQ(across["hindered_by"], json::array({"G"}));
  const json beside = charge("550");
  EXPECT_TRUE(beside["chargeable"].get<bool>());
  EXPECT_FALSE(beside["hindered"].get<bool>());
}

}  // namespace
}  // namespace vedette
