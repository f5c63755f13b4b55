// Bases on top of one another (rules/overlaps.h): the overlap's size, the 2 mm threshold, every
// ruleset's report of them, and no move ending in one.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "rules/geometry/contact.h"
#include "rules/geometry/polygon.h"
#include "rules/overlaps.h"
#include "rules/ruleset.h"
#include "rules/scene/scene_io.h"

namespace vedette {
namespace {

const std::string kAssets = std::string(VEDETTE_ASSETS_DIR);

TEST(BaseOverlap, CornerOverlapIsMeasuredDepthByWidth) {
  // B2 of the sample moved to (541, 430): x 521..561, y 420..440; R1: x 485..525, y 430..450.
  const geom::Base b2{{541, 430}, 90, 40, 20}, r1{{505, 440}, -90, 40, 20};
  const geom::Overlap o = geom::BaseOverlap(b2, r1);
  ASSERT_TRUE(o.overlapping);
  EXPECT_NEAR(o.depth_mm, 4.0, 1e-9);
  EXPECT_NEAR(o.width_mm, 10.0, 1e-9);
  EXPECT_NEAR(o.area_mm2, 40.0, 1e-9);
  // Symmetric in size.
  EXPECT_NEAR(geom::BaseOverlap(r1, b2).depth_mm, 4.0, 1e-9);
}

TEST(BaseOverlap, FlushAndApartAreNotOverlaps) {
  const geom::Base a{{0, 0}, 90, 40, 20};
  EXPECT_FALSE(geom::BaseOverlap(a, {{0, 20}, -90, 40, 20}).overlapping);   // front to front, flush
  EXPECT_FALSE(geom::BaseOverlap(a, {{0, 25}, -90, 40, 20}).overlapping);   // 5 mm apart
  const geom::Overlap in = geom::BaseOverlap(a, {{0, 19}, -90, 40, 20});   // 1 mm into it along the whole front
  ASSERT_TRUE(in.overlapping);
  EXPECT_NEAR(in.depth_mm, 1.0, 1e-9);
  EXPECT_NEAR(in.width_mm, 40.0, 1e-9);
  // Turned 45 degrees, a corner 3 mm deep into the front edge.
  const double r = 20.0 * std::sqrt(2.0);  // centre to corner of a 40 x 40 square
  const geom::Overlap corner = geom::BaseOverlap({{0, 0}, 90, 40, 40}, {{0, 20 + r - 3}, 45, 40, 40});
  ASSERT_TRUE(corner.overlapping);
  EXPECT_NEAR(corner.depth_mm, 3.0, 1e-9);
  EXPECT_NEAR(corner.width_mm, 6.0, 1e-9);
}

// Two units front to front, R's front edge `depth` mm into B's.
std::string FrontToFront(double depth) {
  char yaml[768];
  std::snprintf(yaml, sizeof yaml, R"(bw_mm: 40
units:
  - {id: B, side: blue, type: infantry, base: {width_mm: 40, depth_mm: 20}, pose: {x_mm: 500, y_mm: 400, heading_deg: 90}, stats: {speed_in: 6, combat_value: 3}}
  - {id: R, side: red, type: infantry, base: {width_mm: 40, depth_mm: 20}, pose: {x_mm: 500, y_mm: %.3f, heading_deg: -90}, stats: {speed_in: 6, combat_value: 3}}
)",
                420.0 - depth);
  return yaml;
}

TEST(Overlaps, DeeperThanTwoMillimetresIsAnOverlap) {
  const auto deep = FindOverlaps(ParseScene(FrontToFront(2.1), "deep"));
  ASSERT_EQ(deep.size(), 1u);
  EXPECT_EQ(deep[0].a, "B");
  EXPECT_EQ(deep[0].b, "R");
  EXPECT_EQ(Describe(deep[0]), "B overlaps R by 2.1 x 40.0 mm (84 mm^2)");
  EXPECT_TRUE(FindOverlaps(ParseScene(FrontToFront(1.9), "shallow")).empty());
  EXPECT_TRUE(FindOverlaps(ParseScene(FrontToFront(2.0), "exactly 2")).empty());
}

TEST(Overlaps, EveryRulesetReportsThem) {
  for (const std::string& name : RulesetNames()) {
    const auto ruleset = MakeRuleset(name);
    const Findings deep = ruleset->Analyze(ParseScene(FrontToFront(2.1), "deep"));
    ASSERT_TRUE(deep.report.contains("overlaps")) << name;
    ASSERT_EQ(deep.report["overlaps"].size(), 1u) << name;
    EXPECT_NEAR(deep.report["overlaps"][0]["depth_mm"].get<double>(), 2.1, 1e-9) << name;
    EXPECT_NEAR(deep.report["overlaps"][0]["width_mm"].get<double>(), 40.0, 1e-9) << name;
    EXPECT_NE(deep.text.find("OVERLAP: B overlaps R by 2.1 x 40.0 mm"), std::string::npos) << name << "\n" << deep.text;
    const Findings shallow = ruleset->Analyze(ParseScene(FrontToFront(1.9), "shallow"));
    EXPECT_TRUE(shallow.report["overlaps"].empty()) << name;
    EXPECT_EQ(shallow.text.find("OVERLAP"), std::string::npos) << name;
  }
}

// The players see an overlap where it is, whatever the ruleset and on the frame path too: the shared
// area filled in the illegal style, and a label at its middle saying who and how deep.
TEST(Overlaps, EveryRulesetDrawsThemOnThePicture) {
  auto drawn = [](const Findings& f) {
    std::vector<const DrawPrimitive*> out;
    for (const DrawPrimitive& d : f.drawing)
      if (d.style == DrawStyle::kIllegal) out.push_back(&d);
    return out;
  };
  for (const std::string& name : RulesetNames()) {
    const auto ruleset = MakeRuleset(name);
    const Findings deep = ruleset->Analyze(ParseScene(FrontToFront(2.1), "deep"), kFramePath);
    const auto shown = drawn(deep);
    ASSERT_EQ(shown.size(), 2u) << name;
    EXPECT_EQ(shown[0]->kind, DrawKind::kPolygon) << name;
    EXPECT_TRUE(shown[0]->filled) << name;
    EXPECT_NEAR(geom::Area(shown[0]->points_mm), 2.1 * 40.0, 1e-6) << name;
    EXPECT_EQ(shown[1]->kind, DrawKind::kLabel) << name;
    EXPECT_EQ(shown[1]->text, "OVERLAP B / R: 2.1 mm deep") << name;
    ASSERT_EQ(shown[1]->points_mm.size(), 1u) << name;
    // The middle of the shared strip (R's front edge 2.1 mm into B's).
    double cx = 0, cy = 0;
    for (const geom::Vec2& p : shown[0]->points_mm) cx += p.x() / shown[0]->points_mm.size(), cy += p.y() / shown[0]->points_mm.size();
    EXPECT_NEAR(shown[1]->points_mm[0].x(), cx, 1e-6) << name;
    EXPECT_NEAR(shown[1]->points_mm[0].y(), cy, 1e-6) << name;
    EXPECT_TRUE(drawn(ruleset->Analyze(ParseScene(FrontToFront(1.9), "shallow"), kFramePath)).empty()) << name;
  }
}

TEST(Overlaps, EveryRulesetsDisputeAsksWhetherTheBasesAreClear) {
  for (const std::string& name : RulesetNames()) {
    const auto ruleset = MakeRuleset(name);
    for (double depth : {1.9, 2.1}) {
      const auto rules = ruleset->PairRules(ParseScene(FrontToFront(depth), "pair"), "B", "R");
      bool found = false;
      for (const PairRule& r : rules) {
        if (r.quantity != "overlap_depth") continue;
        found = true;
        EXPECT_NEAR(r.measured_mm, depth, 1e-9) << name;
        EXPECT_EQ(r.measured_mm <= r.threshold_mm, depth < 2.0) << name << ": " << r.rule;
      }
      EXPECT_TRUE(found) << name;
    }
  }
}

// The issue's case: the sample's B2 moved to (541, 430, 90) reaches 4 x 10 mm into R1.
TEST(Overlaps, NoMoveMayEndInsideAnotherBase) {
  const Scene s = LoadScene(kAssets + "/scenes/sample_totsk.yaml");
  const auto totsk = MakeRuleset("totsk");
  MoveRequest m;
  m.unit = "B2";
  m.to = {541, 430, 90};
  const MoveCheck c = totsk->CheckMove(s, m);
  EXPECT_FALSE(c.legal);
  EXPECT_NE(c.illegal_reason.find("B2 overlaps R1 by 4.0 x 10.0 mm"), std::string::npos) << c.illegal_reason;
  ASSERT_EQ(c.report["overlaps"].size(), 1u);
  EXPECT_NEAR(c.report["overlaps"][0]["depth_mm"].get<double>(), 4.0, 1e-9);
  EXPECT_NEAR(c.report["overlaps"][0]["width_mm"].get<double>(), 10.0, 1e-9);
}

// Scene tests/rules/totsk/scenes/overlap_move.yaml: B moves straight ahead into R's front edge and
// stops 1.9 mm into it (contact, within the slack: the contact test) or 2.1 mm (on top of R: illegal).
TEST(Overlaps, TotskMoveIntoContactEachSideOfTheThreshold) {
  const Scene s = LoadScene(std::string(VEDETTE_TEST_DATA) + "/rules/totsk/scenes/overlap_move.yaml");
  const auto totsk = MakeRuleset("totsk");
  MoveRequest m;
  m.unit = "B";
  m.to = {500, 421.9, 90};
  const MoveCheck in_contact = totsk->CheckMove(s, m);
  EXPECT_TRUE(in_contact.legal) << in_contact.text;
  EXPECT_NE(std::find(in_contact.kinds.begin(), in_contact.kinds.end(), "contact_front"), in_contact.kinds.end()) << in_contact.text;
  EXPECT_TRUE(in_contact.report["overlaps"].empty());
  m.to = {500, 422.1, 90};
  const MoveCheck on_top = totsk->CheckMove(s, m);
  EXPECT_FALSE(on_top.legal);
  EXPECT_NE(on_top.illegal_reason.find("B overlaps R by 2.1 x 40.0 mm"), std::string::npos) << on_top.illegal_reason;
}

// The states ruleset judges moves too: E (eager) sidles towards N, 1.9 mm into it (legal) or 2.1 mm.
TEST(Overlaps, StatesMoveEachSideOfTheThreshold) {
  const Scene s = LoadScene(kAssets + "/scenes/sample_states.yaml");
  const auto states = MakeRuleset("states");
  MoveRequest m;
  m.unit = "E";
  m.to = {361.9, 200, 90};
  EXPECT_TRUE(states->CheckMove(s, m).legal);
  m.to = {362.1, 200, 90};
  const MoveCheck c = states->CheckMove(s, m);
  EXPECT_FALSE(c.legal);
  EXPECT_NE(c.illegal_reason.find("E overlaps N by 2.1 x 30.0 mm"), std::string::npos) << c.illegal_reason;
}

}  // namespace
}  // namespace vedette
