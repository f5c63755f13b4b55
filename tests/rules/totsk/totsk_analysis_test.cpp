// `analyze --ruleset totsk`: zones of control, threats, security, support, morale reasons and modifiers.
// Every scene: 1 BW = 40 mm; blue B1 is a 40x20 infantry base at (500,400) facing +y (heading 90):
// x 480..520, front edge y=410, rear edge y=390. Red bases are 40x20 unless said.
#include <gtest/gtest.h>

#include "tests/rules/totsk/totsk_test_util.h"

namespace vedette {
namespace {

using namespace totsk_test;
using nlohmann::json;

const char* kB1 = "  - {id: B1, side: blue, type: infantry, base: {width_mm: 40, depth_mm: 20}, pose: {x_mm: 500, y_mm: 400, heading_deg: 90}}\n";

std::string U(const std::string& id, const std::string& side, const std::string& type, double x, double y, double h,
              const std::string& extra = "") {
  std::ostringstream s;
  s << "  - {id: " << id << ", side: " << side << ", type: " << type << ", base: {width_mm: 40, depth_mm: 20}, pose: {x_mm: "
    << x << ", y_mm: " << y << ", heading_deg: " << h << "}" << (extra.empty() ? "" : ", " + extra) << "}\n";
  return s.str();
}

json ChoiceBy(const json& report, const std::string& by) {
  for (const auto& c : report["test_targets"])
    if (c["by"] == by) return c;
  return json::object();
}

Scene AnalysisScene(const std::string& units, const std::string& rest = "") {
  return ParseScene("bw_mm: 40\nunits:\n" + units + rest, "test.yaml");
}

// FAQ "Flanking units", case 2: R faces -x with its front edge on x=520, wholly behind the rear line of
// the blue line. B1 (x 480..520) is ahead of R's front: flanked (rear). B2 (x 521..561) lies wholly
// behind R's front line: R faces away from it, no threat.
//        +----++----+
//        | B1 || B2 |      y 390..410
//        +----++----+
//          <|R |           R: (530,350) heading 180, x 510..530, y 330..370
TEST(TotskThreats, FaqCase2FacingAway) {
  const auto r = Analyze(AnalysisScene(std::string(kB1) + U("B2", "blue", "infantry", 541, 400, 90) + U("R", "red", "infantry", 530, 350, 180)));
  EXPECT_EQ(UnitOf(r, "B1")["threats"]["rear"], json::array({"R"}));
  EXPECT_EQ(ModifierValue(UnitOf(r, "B1"), "At least one enemy BW entirely behind rear"), -2);
  EXPECT_TRUE(UnitOf(r, "B2")["threats"]["rear"].empty());
  EXPECT_TRUE(UnitOf(r, "B2")["threats"]["right_flank"].empty());
}

// FAQ "Flanking units", cases 1/3: R beside the line, behind both fronts, facing them: both flanked.
//   R|> B1 B2      R: (440,380) heading 0, front edge x=450, y 360..400 (wholly behind y=410)
TEST(TotskThreats, FaqCase1BothFlanked) {
  const auto r = Analyze(AnalysisScene(std::string(kB1) + U("B2", "blue", "infantry", 541, 400, 90) + U("R", "red", "infantry", 440, 380, 0)));
  EXPECT_EQ(UnitOf(r, "B1")["threats"]["left_flank"], json::array({"R"}));
  EXPECT_EQ(UnitOf(r, "B2")["threats"]["left_flank"], json::array({"R"}));
}

// "(unless the enemy unit is LI or LH)": the same enemy 1.5 BW off the left flank, as line infantry
// and as light infantry (out of its 1 BW range, so only the passive modifier is in question).
//   R|>  (60 mm)  B1      R: (410,395) heading 0, front edge x=420
TEST(TotskThreats, LightTroopsGiveNoPassiveModifier) {
  const auto line = UnitOf(Analyze(AnalysisScene(std::string(kB1) + U("R", "red", "infantry", 410, 395, 0))), "B1");
  EXPECT_EQ(line["threats"]["left_flank"], json::array({"R"}));
  EXPECT_EQ(line["morale"]["total"], -1) << ModifierList(line);
  const auto li = UnitOf(Analyze(AnalysisScene(std::string(kB1) + U("R", "red", "infantry", 410, 395, 0, "tags: [light]"))), "B1");
  EXPECT_TRUE(li["threats"]["left_flank"].empty());
  EXPECT_EQ(li["threats"]["light_troops"], json::array({"R"}));
  EXPECT_EQ(li["morale"]["total"], 0) << ModifierList(li);
  const auto lh = UnitOf(Analyze(AnalysisScene(std::string(kB1) + U("R", "red", "cavalry", 410, 395, 0, "tags: [lh]"))), "B1");
  EXPECT_TRUE(lh["threats"]["left_flank"].empty());
}

// Threat distance behind a flank: FAQ 2 BW (80 mm), QRS 4 BW (160 mm). R's front edge is 100 mm
// (2.5 BW) from B1's left edge: only the QRS counts it; threat_distance_bw=2.5 is the boundary.
TEST(TotskThreats, ThreatDistanceFaqVersusQrs) {
  const Scene s = AnalysisScene(std::string(kB1) + U("R", "red", "infantry", 370, 395, 0));
  EXPECT_TRUE(UnitOf(Analyze(s), "B1")["threats"]["left_flank"].empty());
  EXPECT_EQ(UnitOf(Analyze(s, {{"threat_distance", "qrs"}}), "B1")["threats"]["left_flank"], json::array({"R"}));
  EXPECT_EQ(UnitOf(Analyze(s, {{"rules", "qrs"}}), "B1")["morale"]["total"], -1);
  EXPECT_EQ(UnitOf(Analyze(s, {{"threat_distance_bw", "2.5"}}), "B1")["threats"]["left_flank"], json::array({"R"}));
  EXPECT_TRUE(UnitOf(Analyze(s, {{"threat_distance_bw", "2.45"}}), "B1")["threats"]["left_flank"].empty());
  const auto r = Analyze(s, {{"threat_distance", "qrs"}});
  EXPECT_EQ(r["settings"]["threat_distance"]["bw"], 4.0);
}

// Ranges that cause a morale test: FAQ 1/2 BW foot, QRS 1 BW. R faces B1's front 30 mm (0.75 BW) away.
TEST(TotskMorale, FootRangeFaqVersusQrs) {
  const Scene s = AnalysisScene(std::string(kB1) + U("R", "red", "infantry", 500, 450, -90));
  const auto faq = UnitOf(Analyze(s), "B1");
  EXPECT_TRUE(faq["morale"]["reasons"].empty());
  EXPECT_FALSE(faq["morale"]["tests"]);
  const auto qrs = UnitOf(Analyze(s, {{"morale_ranges", "qrs"}}), "B1");
  ASSERT_EQ(qrs["morale"]["reasons"].size(), 1u);
  EXPECT_EQ(qrs["morale"]["reasons"][0]["kind"], "under_fire");
  EXPECT_EQ(qrs["morale"]["reasons"][0]["by"], "R");
  EXPECT_TRUE(qrs["morale"]["tests"]);
  EXPECT_EQ(qrs["morale"]["total"], 0);
  // Exactly 1/2 BW (20 mm) is in range under the FAQ.
  const auto edge = UnitOf(Analyze(AnalysisScene(std::string(kB1) + U("R", "red", "infantry", 500, 440, -90))), "B1");
  EXPECT_EQ(edge["morale"]["reasons"].size(), 1u);
}

// Artillery: FAQ 3 BW, QRS 6 BW. One gun 160 mm (4 BW) straight ahead of B1: under the FAQ it does not
// cause a test (a lone gun is no bombardment), but B1 is still under artillery fire for its action test.
TEST(TotskMorale, ArtilleryRangeFaqVersusQrs) {
  const Scene s = AnalysisScene(std::string(kB1) + U("A", "red", "artillery", 500, 580, -90));
  const auto faq = UnitOf(Analyze(s), "B1");
  EXPECT_TRUE(faq["morale"]["reasons"].empty());
  ASSERT_EQ(faq["action_tests"].size(), 1u);
  EXPECT_EQ(faq["action_tests"][0]["difficulty"], "standard");
  EXPECT_DOUBLE_EQ(faq["action_tests"][0]["p_success"].get<double>(), 4.0 / 6);
  const auto qrs = UnitOf(Analyze(s, {{"morale_ranges", "qrs"}}), "B1");
  ASSERT_EQ(qrs["morale"]["reasons"].size(), 1u);
  EXPECT_EQ(qrs["morale"]["reasons"][0]["kind"], "under_fire");
}

// QRS reason 4: bombardment by two guns 4 BW away (FAQ: beyond their 3 BW range) is one reason; the
// action test under artillery fire takes -1 for the additional gun (Standard 3+ at -1: 50%).
TEST(TotskMorale, BombardmentByTwoGuns) {
  const auto b1 = UnitOf(Analyze(AnalysisScene(std::string(kB1) + U("A1", "red", "artillery", 490, 580, -90) +
                                               U("A2", "red", "artillery", 531, 580, -90))),
                         "B1");
  ASSERT_EQ(b1["morale"]["reasons"].size(), 1u);
  EXPECT_EQ(b1["morale"]["reasons"][0]["kind"], "bombardment");
  EXPECT_EQ(b1["morale"]["reasons"][0]["guns"], json::array({"A1", "A2"}));
  EXPECT_TRUE(b1["morale"]["tests"]);
  ASSERT_EQ(b1["action_tests"].size(), 1u);
  EXPECT_EQ(b1["action_tests"][0]["total"], -1);
  EXPECT_DOUBLE_EQ(b1["action_tests"][0]["p_success"].get<double>(), 3.0 / 6);
}

// A cavalry front edge in contact with infantry that is not secure: FAQ -1, QRS +1; secure: nothing.
//   R (cavalry) faces -y, front edge on y=410 (B1's front). Secure: S1, S2 beside B1 10 mm away.
TEST(TotskMorale, InfantryChargedByCavalry) {
  const std::string cav = U("R", "red", "cavalry", 500, 420, -90);
  const Scene open = AnalysisScene(std::string(kB1) + cav);
  const auto faq = UnitOf(Analyze(open), "B1");
  EXPECT_EQ(faq["morale"]["reasons"][0]["kind"], "contact_front");
  EXPECT_EQ(faq["secure"], false);
  EXPECT_EQ(faq["morale"]["total"], -1) << ModifierList(faq);
  EXPECT_EQ(UnitOf(Analyze(open, {{"charged_by_cavalry", "qrs"}}), "B1")["morale"]["total"], 1);
  const Scene secure = AnalysisScene(std::string(kB1) + cav + U("S1", "blue", "infantry", 450, 400, 90) + U("S2", "blue", "infantry", 550, 400, 90));
  const auto s = UnitOf(Analyze(secure), "B1");
  EXPECT_EQ(s["secure"], true);
  EXPECT_EQ(s["morale"]["total"], 0) << ModifierList(s);
}

// QRS reason 3 and FAQ "Infantry vs cavalry": cavalry 10 mm off the left flank, facing it. With woods
// 10 mm beyond the left flank the cavalry there (C at (460,400) facing +x, front edge x=470) gives no
// reason; on the open right flank (C at (540,400) facing -x, front edge x=530) it does.
TEST(TotskMorale, CavalryThreatAndSecuredFlank) {
  const std::string woods = "terrain:\n  - {id: W, type: woods, polygon: [[300, 300], [470, 300], [470, 500], [300, 500]]}\n";
  const auto left = UnitOf(Analyze(AnalysisScene(std::string(kB1) + U("C", "red", "cavalry", 540, 400, 180), woods)), "B1");
  EXPECT_EQ(left["secure_flanks"]["left"], json::array({"W"}));
  ASSERT_EQ(left["morale"]["reasons"].size(), 1u);  // C on the right (x 530..550 after turning) is not secured
  EXPECT_EQ(left["morale"]["reasons"][0]["kind"], "cavalry_threat");
  const Scene on_woods_side = AnalysisScene(std::string(kB1) + U("C", "red", "cavalry", 460, 400, 0), woods);
  EXPECT_TRUE(UnitOf(Analyze(on_woods_side), "B1")["morale"]["reasons"].empty());
  // Exactly 1/2 BW away counts (FAQ range), 21 mm does not.
  EXPECT_EQ(UnitOf(Analyze(AnalysisScene(std::string(kB1) + U("C", "red", "cavalry", 550, 400, 180))), "B1")["morale"]["reasons"].size(), 1u);
  EXPECT_TRUE(UnitOf(Analyze(AnalysisScene(std::string(kB1) + U("C", "red", "cavalry", 551, 400, 180))), "B1")["morale"]["reasons"].empty());
}

// Zone of control: 1 BW ahead of the enemy's front edge; 40 mm in, 41 mm out.
TEST(TotskZoc, OneBwBoundary) {
  EXPECT_EQ(UnitOf(Analyze(AnalysisScene(std::string(kB1) + U("R", "red", "infantry", 500, 460, -90))), "B1")["zoc_of"], json::array({"R"}));
  EXPECT_TRUE(UnitOf(Analyze(AnalysisScene(std::string(kB1) + U("R", "red", "infantry", 500, 461, -90))), "B1")["zoc_of"].empty());
  // Beside the ZOC (flush with its side line): not in it.
  EXPECT_TRUE(UnitOf(Analyze(AnalysisScene(std::string(kB1) + U("R", "red", "infantry", 540, 440, -90))), "B1")["zoc_of"].empty());
}

// Rear support: infantry within 1 BW, cavalry within 2 BW behind; a supporter in contact gives none.
//   B1 (y 390..410); supporter's front edge `gap` mm behind y=390.
TEST(TotskSupport, RearSupportDistances) {
  auto support = [](const std::string& type, double gap, const std::string& more = "") {
    const std::string s = U("S", "blue", type, 500, 390 - gap - 10, 90);
    return UnitOf(Analyze(AnalysisScene(std::string(kB1) + s + more)), "B1")["rear_support"];
  };
  EXPECT_EQ(support("infantry", 40), json::array({"S"}));
  EXPECT_TRUE(support("infantry", 41).empty());
  EXPECT_EQ(support("cavalry", 80), json::array({"S"}));
  EXPECT_TRUE(support("cavalry", 81).empty());
  EXPECT_TRUE(support("artillery", 10).empty());
  // S in contact with an enemy behind it: "A unit in contact can't provide rear support".
  EXPECT_TRUE(support("infantry", 10, U("R", "red", "infantry", 500, 350, 90)).empty());
  const auto b1 = UnitOf(Analyze(AnalysisScene(std::string(kB1) + U("S", "blue", "infantry", 500, 370, 90) + U("R", "red", "infantry", 500, 440, -90))), "B1");
  EXPECT_EQ(ModifierValue(b1, "Rear sup."), 1);
  EXPECT_EQ(b1["morale"]["total"], 1);
}

// Secure infantry: a friend or terrain within 1 BW of both flanks (40 mm in, 41 mm out).
TEST(TotskSupport, SecureBoundary) {
  auto secure = [](double left_gap) {
    const std::string f = U("F", "blue", "infantry", 480 - left_gap - 20, 400, 90);
    const std::string t = "terrain:\n  - {id: T, type: town, polygon: [[530, 380], [600, 380], [600, 420], [530, 420]]}\n";
    return UnitOf(Analyze(AnalysisScene(std::string(kB1) + f, t)), "B1")["secure"];
  };
  EXPECT_EQ(secure(40), true);
  EXPECT_EQ(secure(41), false);
}

// Each enemy imposes one test: in range of B1 (10 mm) and B2 (15 mm), R makes the closer one test;
// declared, the other.   R faces -y, front edge y=420, x 500..540; B2 at (541,395): front 405.
TEST(TotskMorale, OneTestPerEnemyClosestOrDeclared) {
  const std::string units = std::string(kB1) + U("B2", "blue", "infantry", 541, 395, 90) + U("R", "red", "infantry", 520, 430, -90);
  auto r = Analyze(AnalysisScene(units));
  EXPECT_TRUE(UnitOf(r, "B1")["morale"]["tests"]);
  EXPECT_FALSE(UnitOf(r, "B2")["morale"]["tests"]);
  EXPECT_EQ(ChoiceBy(r, "R")["why"], "the closest");
  r = Analyze(AnalysisScene(units, "declarations:\n  R: {target: B2}\n"));
  EXPECT_FALSE(UnitOf(r, "B1")["morale"]["tests"]);
  EXPECT_TRUE(UnitOf(r, "B2")["morale"]["tests"]);
  EXPECT_EQ(ChoiceBy(r, "R")["why"], "declared target");
  EXPECT_THROW(Analyze(AnalysisScene(units, "declarations:\n  R: {target: 7}\n")), InputError);
}

// FAQ: "if a unit is in range on the flank of 2 or more units, only one will have the -2". R faces +x
// beside B1 and B2 (one behind the other), in range of both; the -2 goes to its target, the one most
// in front of it (B2, whose centre is 8 mm off R's centre line against B1's 20 mm).
//   R|> B1 (y 390..410)
//   R|> B2 (y 362..382)        R: (460,380) heading 0, front edge x=470, y 360..400
TEST(TotskMorale, InRangeOfFlankGoesToOneUnit) {
  const auto r = Analyze(AnalysisScene(std::string(kB1) + U("B2", "blue", "infantry", 500, 372, 90) + U("R", "red", "infantry", 460, 380, 0)));
  const auto b1 = UnitOf(r, "B1"), b2 = UnitOf(r, "B2");
  EXPECT_EQ(ModifierValue(b2, "Enemy in contact with or in range of flank OR rear"), -2) << ModifierList(b2);
  EXPECT_EQ(ModifierValue(b1, "Enemy in contact with or in range of flank OR rear"), 0) << ModifierList(b1);
  EXPECT_EQ(ModifierValue(b1, "At least one enemy BW entirely behind flank"), -1);
  EXPECT_EQ(ModifierValue(b2, "At least one enemy BW entirely behind flank"), -1);
}

// FAQ "Flank support": blue B2 beside B1 (5 mm to its right, no target of its own) gives red R1, in
// contact with B1's front, a -1 when R1 tests. R1 faces -y with its front edge on y=410.
TEST(TotskMorale, EnemyFlankSupportIsAnAdditionalReason) {
  const auto r1 = UnitOf(Analyze(AnalysisScene(std::string(kB1) + U("B2", "blue", "infantry", 545, 400, 90) + U("R1", "red", "infantry", 500, 420, -90))), "R1");
  EXPECT_TRUE(r1["morale"]["tests"]);
  EXPECT_EQ(ModifierValue(r1, "Ea. reason to test above one"), -1) << ModifierList(r1);
}

// FAQ "A regiment attacked an artillery unit protected by entrenchments": +1 fortification, -1 in
// contact with infantry: no modifier.  A (artillery 40x40) in works, R's front edge on A's front.
TEST(TotskMorale, ArtilleryInEntrenchmentsContactedByInfantry) {
  const std::string a = "  - {id: A, side: blue, type: artillery, base: {width_mm: 40, depth_mm: 40}, pose: {x_mm: 500, y_mm: 400, heading_deg: 90}}\n";
  const std::string works = "terrain:\n  - {id: E, type: works, polygon: [[470, 370], [530, 370], [530, 425], [470, 425]]}\n";
  const auto art = UnitOf(Analyze(AnalysisScene(a + U("R", "red", "infantry", 500, 430, -90), works)), "A");
  EXPECT_EQ(ModifierValue(art, "Art in contact with Inf"), -1) << ModifierList(art);
  EXPECT_EQ(ModifierValue(art, "In fortification"), 1) << ModifierList(art);
  EXPECT_EQ(art["morale"]["total"], 0) << ModifierList(art);
  const auto cav = UnitOf(Analyze(AnalysisScene(a + U("R", "red", "cavalry", 500, 430, -90), works)), "A");
  EXPECT_EQ(cav["morale"]["total"], -1) << ModifierList(cav);  // -2 cavalry, +1 fortification
}

// FAQ "fortification on the edge of a stream would be +2 if in contact ... but only +1 if fired at".
// B1 in works, its front edge on a stream; R in contact (front to front), or firing from 10 mm.
TEST(TotskMorale, FortificationOnAStream) {
  const std::string t = "terrain:\n  - {id: S, type: stream, polygon: [[400, 410], [600, 410], [600, 418], [400, 418]]}\n"
                        "  - {id: E, type: works, polygon: [[470, 385], [530, 385], [530, 412], [470, 412]]}\n";
  const auto contact = UnitOf(Analyze(AnalysisScene(std::string(kB1) + U("R", "red", "infantry", 500, 420, -90), t)), "B1");
  EXPECT_EQ(contact["morale"]["terrain_column"], "in_contact");
  EXPECT_EQ(contact["morale"]["total"], 2) << ModifierList(contact);
  const auto fire = UnitOf(Analyze(AnalysisScene(std::string(kB1) + U("R", "red", "infantry", 500, 430, -90), t)), "B1");
  EXPECT_EQ(fire["morale"]["terrain_column"], "under_fire");
  EXPECT_EQ(fire["morale"]["total"], 1) << ModifierList(fire);
}

// Unit quality and formation lines: elite +1, raw -1, small -1, in column -1 and, infantry fired at
// in column, +1. R fires from 10 mm ahead.
TEST(TotskMorale, QualityAndFormationLines) {
  const std::string r = U("R", "red", "infantry", 500, 430, -90);
  auto total = [&](const std::string& extra) {
    const std::string b = "  - {id: B1, side: blue, type: infantry, base: {width_mm: 40, depth_mm: 20}, pose: {x_mm: 500, y_mm: 400, heading_deg: 90}, " + extra + "}\n";
    return UnitOf(Analyze(AnalysisScene(b + r)), "B1")["morale"]["total"].get<int>();
  };
  EXPECT_EQ(total("tags: [elite]"), 1);
  EXPECT_EQ(total("tags: [raw]"), -1);
  EXPECT_EQ(total("tags: [militia, raw]"), -1);
  EXPECT_EQ(total("tags: [small]"), -1);
  EXPECT_EQ(total("formation: column"), 0);  // -1 in column, +1 fired at in column
  EXPECT_EQ(total("tags: [stubborn]"), 1);
}

// Fired on by LI or inferior firepower +1; by artillery within 1 BW -1; by small artillery +1.
TEST(TotskMorale, FiredOnLines) {
  EXPECT_EQ(UnitOf(Analyze(AnalysisScene(std::string(kB1) + U("R", "red", "infantry", 500, 430, -90, "tags: [light]"))), "B1")["morale"]["total"], 1);
  EXPECT_EQ(UnitOf(Analyze(AnalysisScene(std::string(kB1) + U("R", "red", "infantry", 500, 430, -90, "tags: [inferior_fp]"))), "B1")["morale"]["total"], 1);
  EXPECT_EQ(UnitOf(Analyze(AnalysisScene(std::string(kB1) + U("A", "red", "artillery", 500, 440, -90))), "B1")["morale"]["total"], -1);
  EXPECT_EQ(UnitOf(Analyze(AnalysisScene(std::string(kB1) + U("A", "red", "artillery", 500, 480, -90, "tags: [small]"))), "B1")["morale"]["total"], 1);
  // Cavalry under fire -1 (not light horse).
  const std::string c = "  - {id: C, side: blue, type: cavalry, base: {width_mm: 40, depth_mm: 20}, pose: {x_mm: 500, y_mm: 400, heading_deg: 90}";
  EXPECT_EQ(UnitOf(Analyze(AnalysisScene(c + "}\n" + U("R", "red", "infantry", 500, 430, -90))), "C")["morale"]["total"], -1);
  EXPECT_EQ(UnitOf(Analyze(AnalysisScene(c + ", tags: [lh]}\n" + U("R", "red", "infantry", 500, 430, -90))), "C")["morale"]["total"], 0);
}

// With an active side declared, only the passive side's morale tests are required.
TEST(TotskMorale, ActiveSideDecidesWhoTests) {
  const std::string units = std::string(kB1) + U("R", "red", "infantry", 500, 420, -90);
  const auto r = Analyze(AnalysisScene(units, "declarations:\n  active_side: red\n"));
  EXPECT_TRUE(UnitOf(r, "B1")["morale"]["tests"]);
  EXPECT_FALSE(UnitOf(r, "R")["morale"]["tests"]);
  const auto f = Totsk()->Analyze(AnalysisScene(units, "declarations:\n  active_side: red\n"));
  ASSERT_EQ(f.tests.size(), 1u);
  EXPECT_EQ(f.tests[0].unit, "B1");
  EXPECT_EQ(f.tests[0].kind, "morale");
}

// The overlay list: zones of control, a threatened edge with its link, a range corridor, a test label.
TEST(TotskDrawing, PrimitivesForTheOverlay) {
  const auto f = Totsk()->Analyze(LoadScene(ScenePath("faq_flank_and_rear.yaml")));
  int zoc = 0, threat_edges = 0, links = 0, ranges = 0, labels = 0;
  for (const DrawPrimitive& p : f.drawing) {
    if (p.style == DrawStyle::kZoneOfControl) ++zoc;
    if (p.style == DrawStyle::kThreat && p.kind == DrawKind::kPolyline && !p.dashed && p.unit_id == "B1") ++threat_edges;
    if (p.style == DrawStyle::kThreat && p.dashed && p.unit_id == "B1") ++links;
    if (p.style == DrawStyle::kRange) ++ranges;
    if (p.style == DrawStyle::kTest && p.kind == DrawKind::kLabel) {
      ++labels;
      EXPECT_NE(p.text.find("rout"), std::string::npos) << p.text;
    }
  }
  EXPECT_EQ(zoc, 3);
  EXPECT_EQ(threat_edges, 2);  // left flank and rear
  EXPECT_EQ(links, 2);
  EXPECT_EQ(ranges, 3);
  EXPECT_EQ(labels, 1);
}

// The JSON is stable: the same scene twice gives the same bytes.
TEST(TotskReport, Deterministic) {
  const Scene s = LoadScene(ScenePath("faq_two_on_flank.yaml"));
  EXPECT_EQ(Analyze(s).dump(), Analyze(s).dump());
}

}  // namespace
}  // namespace vedette
