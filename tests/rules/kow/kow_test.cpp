// Kings of War ruleset (seed 002): charges, the 1-inch rule, shooting with cover, nerve odds.
// Scenes are given inline (YAML) or under tests/rules/kow/scenes/, each with a sketch.
#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <string>

#include "rules/kow/analysis.h"
#include "rules/kow/nerve.h"
#include "rules/ruleset.h"
#include "rules/scene/scene_io.h"
#include "tests/rules/kow/kow_test_util.h"

namespace vedette {
namespace {

using nlohmann::json;

using kow_test::Analyze;
using kow_test::UnitReport;

const json* ChargeOn(const json& unit, const std::string& target) {
  for (const json& c : unit["charges"])
    if (c["target"] == target) return &c;
  return nullptr;
}

TEST(KowRuleset, DeclaresInchesAndKowArcs) {
  const RulesetInfo info = MakeRuleset("kow")->Info();
  EXPECT_EQ(info.unit_name, "in");
  EXPECT_EQ(info.arc_model, geom::ArcModel::kKow);
}

// Scene charge_at_range.yaml (sketch in the file): B1 exactly 10 in from R1, B2 10 in + 0.5 mm from R2.
TEST(KowCharge, ExactlyAtChargeRangeIsAllowedHalfAMillimetreMoreIsNot) {
  const Findings f = Analyze(LoadScene(std::string(VEDETTE_TEST_DATA) + "/rules/kow/scenes/charge_at_range.yaml"));
  const json* b1 = ChargeOn(UnitReport(f, "B1"), "R1");
  ASSERT_NE(b1, nullptr);
  EXPECT_TRUE((*b1)["chargeable"].get<bool>()) << b1->dump();
  EXPECT_NEAR((*b1)["distance_in"].get<double>(), 10.0, 1e-9);
  EXPECT_NEAR((*b1)["margin_mm"].get<double>(), 0.0, 1e-9);
  EXPECT_EQ((*b1)["facing"], "front");
  EXPECT_NEAR((*b1)["route"]["length_mm"].get<double>(), 254.0, 1e-6);  // straight in, no pivot
  EXPECT_NEAR((*b1)["route"]["pivot_deg"].get<double>(), 0.0, 1e-9);

  const json* b2 = ChargeOn(UnitReport(f, "B2"), "R2");
  ASSERT_NE(b2, nullptr);
  EXPECT_FALSE((*b2)["chargeable"].get<bool>());
  EXPECT_NEAR((*b2)["margin_mm"].get<double>(), -0.5, 1e-9);
  ASSERT_EQ((*b2)["reasons"].size(), 1u);
  EXPECT_NE((*b2)["reasons"][0].get<std::string>().find("twice the speed"), std::string::npos);
}

// R3 faces +x (heading 0) 180 mm ahead of B3's leader point, so B3's leader point is in R3's right
// flank arc and B3 runs straight into R3's right edge (y = 250, 40 mm long):
//
//            R3 front ->  x 480..520, y 250..350
//   y=120  [==B3==]  leader (500, 120), speed 8 in
TEST(KowCharge, FacingIsTheArcOfTheLeaderPoint) {
  const Scene s = ParseScene(R"(
bw_mm: 40
units:
  - {id: B3, side: blue, type: cavalry, base: {width_mm: 100, depth_mm: 40}, pose: {x_mm: 500, y_mm: 100, heading_deg: 90}, stats: {speed_in: 8}}
  - {id: R3, side: red, type: infantry, base: {width_mm: 100, depth_mm: 40}, pose: {x_mm: 500, y_mm: 300, heading_deg: 0}}
)", "flank");
  const Findings f = Analyze(s);
  const json* c = ChargeOn(UnitReport(f, "B3"), "R3");
  ASSERT_NE(c, nullptr);
  EXPECT_TRUE((*c)["chargeable"].get<bool>()) << c->dump();
  EXPECT_EQ((*c)["facing"], "right_flank");
  EXPECT_NEAR((*c)["distance_mm"].get<double>(), 130.0, 1e-9);
  EXPECT_NEAR((*c)["route"]["length_mm"].get<double>(), 130.0, 1e-6);
}

// Leader point exactly on R's arc line. R: 100 x 40 at (500, 500) facing +y, so its front-right arc
// line runs from the centre through the corner (550, 520), slope 0.4; the point (650, 560) is on it.
// The charger C faces R's centre with its leader point at (650, 560): the line goes to the front
// (kow model, rules/geometry/arcs.h), and the report says the leader point is on the line. One
// millimetre lower, (650, 559), the leader point is in the right flank.
TEST(KowCharge, LeaderPointOnAnArcLine) {
  for (double ly : {560.0, 559.0}) {
    const geom::Vec2 lp(650, ly), towards = geom::Vec2(500, 500) - lp;
    const double heading = geom::HeadingOf(towards);
    const geom::Vec2 centre = lp - 20.0 * towards.normalized();
    char yaml[1024];
    std::snprintf(yaml, sizeof yaml, R"(
bw_mm: 40
units:
  - {id: C, side: blue, type: infantry, base: {width_mm: 60, depth_mm: 40}, pose: {x_mm: %.12f, y_mm: %.12f, heading_deg: %.12f}, stats: {speed_in: 6}}
  - {id: R, side: red, type: infantry, base: {width_mm: 100, depth_mm: 40}, pose: {x_mm: 500, y_mm: 500, heading_deg: 90}}
)", centre.x(), centre.y(), heading);
    const Findings f = Analyze(ParseScene(yaml, "arc_line"));
    const json* c = ChargeOn(UnitReport(f, "C"), "R");
    ASSERT_NE(c, nullptr);
    if (ly == 560.0) {
      EXPECT_EQ((*c)["facing"], "front");
      EXPECT_TRUE((*c)["leader_on_arc_line"].get<bool>());
    } else {
      EXPECT_EQ((*c)["facing"], "right_flank");
      EXPECT_FALSE((*c)["leader_on_arc_line"].get<bool>());
    }
  }
}

// A low friendly unit F (height 1, 400 mm wide) stands across the whole way from B to R. B sees over
// it (seed 41: intervening units lower than the viewer), R is in range (200 mm < 12 in), but no
// route with one pivot of at most 90 degrees gets round F: no room (seed 13, 15). Without F, B charges.
//
//   y=400     +--R--+            (R front edge y=380)
//   y=250  [=========F=========]  x 300..700, y 240..260
//   y=160     [==B==]            leader (500, 180)
TEST(KowCharge, NoRoomToReachContact) {
  const std::string base = R"(
bw_mm: 40
units:
  - {id: B, side: blue, type: infantry, base: {width_mm: 100, depth_mm: 40}, pose: {x_mm: 500, y_mm: 160, heading_deg: 90}, stats: {speed_in: 6}}
  - {id: R, side: red, type: infantry, base: {width_mm: 100, depth_mm: 40}, pose: {x_mm: 500, y_mm: 400, heading_deg: 270}}
)";
  const std::string friend_f =
      "  - {id: F, side: blue, type: infantry, base: {width_mm: 400, depth_mm: 20}, pose: {x_mm: 500, y_mm: 250, heading_deg: 90}, stats: {height: 1}}\n";
  const Findings fb = Analyze(ParseScene(base + friend_f, "blocked"));
  const json* blocked = ChargeOn(UnitReport(fb, "B"), "R");
  ASSERT_NE(blocked, nullptr);
  EXPECT_TRUE((*blocked)["visible"].get<bool>());
  EXPECT_FALSE((*blocked)["chargeable"].get<bool>());
  ASSERT_EQ((*blocked)["reasons"].size(), 1u) << blocked->dump();
  EXPECT_NE((*blocked)["reasons"][0].get<std::string>().find("no room"), std::string::npos);

  const Findings fo = Analyze(ParseScene(base, "open"));
  const json* open = ChargeOn(UnitReport(fo, "B"), "R");
  ASSERT_NE(open, nullptr);
  EXPECT_TRUE((*open)["chargeable"].get<bool>());
  EXPECT_NEAR((*open)["distance_mm"].get<double>(), 200.0, 1e-9);
}

// The same F but as tall as B and R (height 2 by type): it blocks sight too (seed 13).
TEST(KowCharge, TallerInterveningUnitBlocksSight) {
  const Scene s = ParseScene(R"(
bw_mm: 40
units:
  - {id: B, side: blue, type: infantry, base: {width_mm: 100, depth_mm: 40}, pose: {x_mm: 500, y_mm: 160, heading_deg: 90}, stats: {speed_in: 6}}
  - {id: R, side: red, type: infantry, base: {width_mm: 100, depth_mm: 40}, pose: {x_mm: 500, y_mm: 400, heading_deg: 270}}
  - {id: F, side: blue, type: infantry, base: {width_mm: 400, depth_mm: 20}, pose: {x_mm: 500, y_mm: 250, heading_deg: 90}}
  - {id: G, side: blue, type: general, base: {width_mm: 25, depth_mm: 25}, pose: {x_mm: 500, y_mm: 220, heading_deg: 90}}
)", "tall");
  const Findings f = Analyze(s);
  const json* c = ChargeOn(UnitReport(f, "B"), "R");
  ASSERT_NE(c, nullptr);
  EXPECT_FALSE((*c)["visible"].get<bool>());
  EXPECT_FALSE((*c)["chargeable"].get<bool>());
}

// Corner to corner (seed 17). C: 100 x 40 at the origin facing +y (front edge y = 20, x -50..50).
// T: x 50..150, y 100..140, facing +y, so C's leader point is in T's rear arc. Walls flush with both
// sides of C (x -90..-50 and x 50..90, up to y = 99) leave no room to pivot, and straight ahead C's
// front-right corner meets T's rear-left corner (50, 100) and nothing else: no charge.
//
//            +--T--+  y 100..140
//   |wall|   x=50
//   |[=C=]|wall|
TEST(KowChargeRoute, CornerToCornerOnlyIsRefused) {
  const geom::Base c{{0, 0}, 90, 100, 40};
  const geom::Base t{{100, 120}, 90, 100, 40};
  const std::vector<geom::Polygon> walls = {{{-90, -20}, {-50, -20}, {-50, 99}, {-90, 99}}, {{50, -20}, {90, -20}, {90, 99}, {50, 99}}};
  const kow::ChargeRoute r = kow::FindChargeRoute(c, t, geom::Edge::kRear, walls, 300);
  EXPECT_FALSE(r.found);
  EXPECT_TRUE(r.corner_only);
  // Without the walls C pivots right and meets T's rear edge properly.
  const kow::ChargeRoute open = kow::FindChargeRoute(c, t, geom::Edge::kRear, {}, 300);
  EXPECT_TRUE(open.found);
  EXPECT_LT(open.pivot_deg, 0.0);
}

// Straight ahead into a target square to the charger: no pivot, route = the gap.
TEST(KowChargeRoute, StraightAheadIsTheShortest) {
  const geom::Base c{{0, 0}, 90, 100, 40};
  const geom::Base t{{10, 200}, 270, 120, 40};  // front edge y = 180, 160 mm from C's front edge
  const kow::ChargeRoute r = kow::FindChargeRoute(c, t, geom::Edge::kFront, {}, 300);
  ASSERT_TRUE(r.found);
  EXPECT_NEAR(r.pivot_deg, 0.0, 1e-12);
  EXPECT_NEAR(r.length_mm, 160.0, 1e-9);
  std::string err;
  EXPECT_TRUE(kow::ChargeOptions{}.Check(&err));
}

// War engines cannot charge (seed 74).
TEST(KowCharge, WarEnginesCannotCharge) {
  const Scene s = ParseScene(R"(
bw_mm: 40
units:
  - {id: A, side: blue, type: artillery, base: {width_mm: 50, depth_mm: 50}, pose: {x_mm: 500, y_mm: 100, heading_deg: 90}, stats: {speed_in: 6}}
  - {id: R, side: red, type: infantry, base: {width_mm: 100, depth_mm: 40}, pose: {x_mm: 500, y_mm: 300, heading_deg: 270}}
)", "engine");
  const Findings f = Analyze(s);
  // No charge values for an action the unit can never take: no entries, one reason.
  EXPECT_TRUE(UnitReport(f, "A")["charges"].empty());
  EXPECT_NE(UnitReport(f, "A")["cannot_charge"].get<std::string>().find("war engines, seed 74"), std::string::npos);
  EXPECT_NE(f.text.find("charges: none, artillery cannot charge (war engines, seed 74)"), std::string::npos) << f.text;
  EXPECT_EQ(f.text.find("hits"), std::string::npos) << f.text;
  // Seed 74: with no range in its stats a war engine shoots 48 in.
  const json& w = UnitReport(f, "A")["shooting"];
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0]["range_in"], 48.0);
  EXPECT_EQ(w[0]["targets"].size(), 1u);
}

// 1-inch rule (seed 10). B faces away from the enemies (heading 270), so none is a charge target.
//   R1 25.4 mm (exactly 1 in) above B's top edge: flagged.   R2 25.6 mm: not.   R3 1 mm: in contact.
TEST(KowOneInch, FlagsExactlyOneInchButNotContactOrFurther) {
  auto scene = [](double gap, const std::string& order) {
    char yaml[1024];
    std::snprintf(yaml, sizeof yaml, R"(
bw_mm: 40
units:
  - {id: B, side: blue, type: infantry, base: {width_mm: 100, depth_mm: 40}, pose: {x_mm: 500, y_mm: 100, heading_deg: 270}}
  - {id: R, side: red, type: infantry, base: {width_mm: 100, depth_mm: 40}, pose: {x_mm: 500, y_mm: %.6f, heading_deg: 270}}
%s)", 140.0 + gap, order.empty() ? "" : ("declarations:\n  B: {order: " + order + "}\n").c_str());
    return json(UnitReport(Analyze(ParseScene(yaml, "one_inch")), "B")["one_inch"]);
  };
  EXPECT_TRUE(scene(25.4, "")["flagged"].get<bool>());
  EXPECT_NEAR(scene(25.4, "")["within"][0]["gap_in"].get<double>(), 1.0, 1e-9);
  EXPECT_FALSE(scene(25.6, "")["flagged"].get<bool>());
  EXPECT_FALSE(scene(1.0, "")["flagged"].get<bool>());   // in contact: a melee, not a move ending near
  EXPECT_TRUE(scene(10.0, "advance")["flagged"].get<bool>());
  EXPECT_FALSE(scene(10.0, "charge")["flagged"].get<bool>());
}

// Shooting (seed 34, 41). S has a 24 in weapon and faces +y; R stands 400 mm (15.75 in) ahead.
//   - open ground: target, no cover;
//   - R with exactly half its base in woods (x 500..560): cover (difficult share 0.5);
//   - R with 49% in woods: no cover;
//   - a low unit L (height 1) across the whole line of sight: cover (sight passes over it).
TEST(KowShooting, CoverFromHalfInDifficultTerrainOrLowerInterveningUnits) {
  auto shoot = [](const std::string& extra_units, const std::string& terrain) {
    const std::string yaml = R"(
bw_mm: 40
units:
  - {id: S, side: blue, type: infantry, base: {width_mm: 100, depth_mm: 40}, pose: {x_mm: 500, y_mm: 100, heading_deg: 90}, stats: {range_in: 24}}
  - {id: R, side: red, type: infantry, base: {width_mm: 120, depth_mm: 40}, pose: {x_mm: 500, y_mm: 540, heading_deg: 270}}
)" + extra_units + terrain;
    const Findings f = Analyze(ParseScene(yaml, "shoot"));
    const json targets = UnitReport(f, "S")["shooting"][0]["targets"];
    EXPECT_EQ(targets.size(), 1u);
    return targets.empty() ? json() : targets[0];
  };
  const json open = shoot("", "");
  EXPECT_FALSE(open["cover"].get<bool>());
  EXPECT_NEAR(open["distance_mm"].get<double>(), 400.0, 1e-9);
  EXPECT_NEAR(open["margin_in"].get<double>(), 24.0 - 400.0 / 25.4, 0.01);
  const json half = shoot("", "terrain:\n  - {id: W, type: woods, polygon: [[500, 500], [700, 500], [700, 600], [500, 600]]}\n");
  EXPECT_TRUE(half["cover"].get<bool>());
  EXPECT_NEAR(half["difficult_share"].get<double>(), 0.5, 1e-9);
  const json less = shoot("", "terrain:\n  - {id: W, type: woods, polygon: [[501.2, 500], [700, 500], [700, 600], [501.2, 600]]}\n");
  EXPECT_FALSE(less["cover"].get<bool>());
  const json low = shoot(
      "  - {id: L, side: blue, type: infantry, base: {width_mm: 600, depth_mm: 20}, pose: {x_mm: 500, y_mm: 300, heading_deg: 90}, stats: {height: 1}}\n",
      "");
  EXPECT_TRUE(low["cover"].get<bool>());
  EXPECT_NEAR(low["hidden_share"].get<double>(), 1.0, 1e-9);
  EXPECT_EQ(low["obscured_by"], json::array({"L"}));
}

// Out of range by 1 mm: no target.
TEST(KowShooting, RangeIsInclusive) {
  auto targets = [](double y) {
    char yaml[1024];
    std::snprintf(yaml, sizeof yaml, R"(
bw_mm: 40
units:
  - {id: S, side: blue, type: infantry, base: {width_mm: 100, depth_mm: 40}, pose: {x_mm: 500, y_mm: 100, heading_deg: 90}, stats: {range_bows_in: 12}}
  - {id: R, side: red, type: infantry, base: {width_mm: 100, depth_mm: 40}, pose: {x_mm: 500, y_mm: %.6f, heading_deg: 270}}
)", y);
    const Findings f = Analyze(ParseScene(yaml, "range"));
    const json w = UnitReport(f, "S")["shooting"][0];
    EXPECT_EQ(w["weapon"], "bows");
    return w["targets"].size();
  };
  EXPECT_EQ(targets(120 + 12 * 25.4 + 20), 1u);      // exactly 12 in edge to edge
  EXPECT_EQ(targets(120 + 12 * 25.4 + 21), 0u);
}

// Nerve (seed 65-71), counted over the 36 rolls of 2D6.
TEST(KowNerve, ExactOddsWithDoubleOneAndDoubleSix) {
  // Nerve 10/12, no damage: routed only on 12 (6+6); wavering on 10 or 11 (3 + 2 ways); else steady.
  kow::NerveOdds o = kow::NerveTestOdds(0, {10, 12});
  EXPECT_EQ(o.steady, 30);
  EXPECT_EQ(o.wavering, 5);
  EXPECT_EQ(o.routed, 1);
  // 8 damage: a total of 12+ (dice 4+) routs except a double 1, which always passes; dice 3 waver.
  o = kow::NerveTestOdds(8, {10, 12});
  EXPECT_EQ(o.steady, 1);
  EXPECT_EQ(o.wavering, 2);
  EXPECT_EQ(o.routed, 33);
  // Nerve -/14, no damage: 12 never reaches 14, but a double 6 still wavers.
  o = kow::NerveTestOdds(0, {std::nullopt, 14});
  EXPECT_EQ(o.steady, 35);
  EXPECT_EQ(o.wavering, 1);
  EXPECT_EQ(o.routed, 0);
  EXPECT_EQ(kow::NerveResult(1, 1, 50, {10, 12}), "steady");
  EXPECT_EQ(kow::NerveResult(6, 6, 0, {20, 25}), "wavering");
}

TEST(KowNerve, RequiredTestFromDeclaredDamage) {
  const Findings f = Analyze(LoadScene(std::string(VEDETTE_TEST_DATA) + "/rules/kow/scenes/charge_at_range.yaml"));
  ASSERT_EQ(f.tests.size(), 1u);
  EXPECT_EQ(f.tests[0].unit, "B1");
  EXPECT_EQ(f.tests[0].kind, "nerve");
  EXPECT_DOUBLE_EQ(f.tests[0].p_success, 1.0 / 36.0);
  EXPECT_EQ(UnitReport(f, "B1")["nerve"]["routed_of_36"], 33);
}

TEST(KowRuleset, BadDamageDeclarationNamesTheLine) {
  const Scene s = ParseScene(R"(bw_mm: 40
units:
  - {id: B, side: blue, type: infantry, pose: {x_mm: 500, y_mm: 100, heading_deg: 90}, stats: {nerve_waver: 10}}
declarations:
  B: {damage: 2.5}
)", "bad.yaml");
  try {
    Analyze(s);
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.line(), 5);
    EXPECT_NE(std::string(e.what()).find("damage"), std::string::npos);
  }
}

TEST(KowRuleset, PairRulesGiveChargeRangeOneInchAndWeaponRanges) {
  const Scene s = LoadScene(std::string(VEDETTE_TEST_DATA) + "/rules/kow/scenes/charge_at_range.yaml");
  const auto rules = MakeRuleset("kow")->PairRules(s, "B1", "R1");
  bool charge = false;
  for (const PairRule& r : rules) {
    if (r.quantity == "leader_to_closest") {
      charge = true;
      EXPECT_NEAR(r.threshold_mm, 254.0, 1e-9);
      EXPECT_NEAR(r.measured_mm, 254.0, 1e-9);
    }
  }
  EXPECT_TRUE(charge);
}

TEST(KowRuleset, ReportIsDeterministic) {
  const Scene s = LoadScene(std::string(VEDETTE_TEST_DATA) + "/rules/kow/scenes/charge_at_range.yaml");
  EXPECT_EQ(Analyze(s).report.dump(), Analyze(s).report.dump());
}

TEST(KowCli, AnalyzeJson) {
  if (FILE* exe = fopen(VEDETTE_BINARY, "rb")) fclose(exe);
  else GTEST_SKIP() << VEDETTE_BINARY << " is not built";
  const std::string cmd = std::string(VEDETTE_BINARY) + " analyze " + VEDETTE_TEST_DATA +
                          "/rules/kow/scenes/charge_at_range.yaml --ruleset kow --json";
  FILE* p = popen(cmd.c_str(), "r");
  ASSERT_NE(p, nullptr);
  std::string out;
  char buf[4096];
  while (size_t n = fread(buf, 1, sizeof buf, p)) out.append(buf, n);
  ASSERT_EQ(pclose(p), 0);
  const json j = json::parse(out);
  EXPECT_EQ(j["ruleset"], "kow");
  EXPECT_EQ(j["units"][0]["id"], "B1");
  EXPECT_TRUE(j["units"][0]["charges"][0]["chargeable"].get<bool>());
}

// The issue's table: two lines of 30 facing each other 300 mm apart. The front arcs' sides end at the
// charge reach or at the table's edge, whichever is nearer: none runs off the table.
TEST(KowDrawing, FrontArcsStopAtTheTablesEdge) {
  Scene s;
  s.table_width_mm = 1800;
  s.table_depth_mm = 1200;
  for (int side = 0; side < 2; ++side)
    for (int i = 0; i < 30; ++i) {
      Unit u;
      u.id = std::string(side ? "R" : "B") + std::to_string(i + 1);
      u.side = side ? "red" : "blue";
      u.bases = {BaseSpec{50.0, 40.0, {0, 0}}};
      u.stats["speed_in"] = 6;
      u.pose = Pose{30.0 + i * 58.0, side ? 750.0 : 450.0, side ? -90.0 : 90.0};
      s.units.push_back(u);
    }
  const Findings f = Analyze(s);
  int arcs = 0, cut = 0;
  for (const DrawPrimitive& p : f.drawing) {
    if (p.layer != "ranges" || p.kind != DrawKind::kPolyline) continue;
    ++arcs;
    for (const geom::Vec2& q : p.points_mm) {
      EXPECT_GE(q.x(), -1e-6) << p.unit_id;
      EXPECT_LE(q.x(), 1800 + 1e-6) << p.unit_id;
      EXPECT_GE(q.y(), -1e-6) << p.unit_id;
      EXPECT_LE(q.y(), 1200 + 1e-6) << p.unit_id;
    }
    if ((p.points_mm[1] - p.points_mm[0]).norm() < 12 * 25.4 - 1) ++cut;
  }
  EXPECT_EQ(arcs, 120) << "two sides of each unit's front arc";
  EXPECT_GT(cut, 0) << "the end units' outer sides reach the edge";
}

}  // namespace
}  // namespace vedette
