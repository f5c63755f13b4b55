// `check-move` under TotSK: the movement table (every line used, open and rough), the move kinds of the
// QRS action-test lists, the zone-of-control restriction, contact tests, the FAQ's order of tests and
// where a failed test halts the unit. 1 BW = 40 mm. Unless said, the mover M is a 40x20 base at
// (500,200) facing +y (front edge y=210).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "rules/move_judge.h"
#include "rules/verdict_drawing.h"
#include "tests/rules/totsk/totsk_test_util.h"

namespace vedette {
namespace {

using namespace totsk_test;
using nlohmann::json;

std::string M(const std::string& type, const std::string& extra = "", double depth = 20) {
  return "  - {id: M, side: blue, type: " + type + ", base: {width_mm: 40, depth_mm: " + std::to_string(depth) +
         "}, pose: {x_mm: 500, y_mm: 200, heading_deg: 90}" + (extra.empty() ? "" : ", " + extra) + "}\n";
}

std::string R(const std::string& id, const std::string& type, double x, double y, double h, const std::string& extra = "") {
  std::ostringstream s;
  s << "  - {id: " << id << ", side: red, type: " << type << ", base: {width_mm: 40, depth_mm: 20}, pose: {x_mm: " << x
    << ", y_mm: " << y << ", heading_deg: " << h << "}" << (extra.empty() ? "" : ", " + extra) << "}\n";
  return s.str();
}

Scene Make(const std::string& units, const std::string& rest = "") {
  return ParseScene("bw_mm: 40\nunits:\n" + units + rest, "move.yaml");
}

MoveCheck Check(const Scene& s, double x, double y, double h, bool second = false, const std::string& formation = "",
                const std::map<std::string, std::string>& settings = {}) {
  MoveRequest m;
  m.unit = "M";
  m.to = {x, y, h};
  m.second_move = second;
  m.formation = formation;
  return Totsk(settings)->CheckMove(s, m);
}

const char* kRoughEverywhere = "terrain:\n  - {id: G, type: rough, polygon: [[0, 0], [1800, 0], [1800, 1200], [0, 1200]]}\n";
const char* kRoadEverywhere = "terrain:\n  - {id: Rd, type: road, polygon: [[0, 0], [1800, 0], [1800, 1200], [0, 1200]]}\n";

// QRS "MOVEMENT": a straight move of exactly the allowance is legal, 3 mm more is not; in rough ground
// (the whole table rough) the rough column applies; "NA" forbids it.
TEST(TotskMoveTable, EveryLineOpenAndRough) {
  struct Line {
    std::string type, extra;
    double open_bw, rough_bw;  // rough < 0: NA
    std::string terrain;       // "" or a road
  };
  const std::vector<Line> lines = {
      {"infantry", "formation: line", 2, 1, ""},
      {"infantry", "formation: column", 4, 1, ""},
      {"infantry", "formation: march_column", 4, 1, ""},
      {"infantry", "formation: line, tags: [light]", 4, 1, ""},        // Column/LI
      {"infantry", "formation: road_column", 6, 2, ""},                // Strategic
      {"infantry", "formation: road_column", 8, -2, kRoadEverywhere},  // Road (rough not tested)
      {"cavalry", "formation: line", 4, -1, ""},                       // rough NA
      {"cavalry", "formation: column", 6, 2, ""},
      {"cavalry", "formation: line, tags: [light]", 6, 2, ""},         // Column/LC
      {"cavalry", "formation: road_column", 8, 6, ""},
      {"cavalry", "formation: road_column", 10, -2, kRoadEverywhere},
      {"artillery", "formation: unlimbered", 1, 1, ""},                // Prolong
      {"artillery", "formation: limbered", 2, 1, ""},
      {"artillery", "formation: road_column", 6, 2, ""},
      {"general", "formation: individual", 10, 6, ""},
  };
  for (const Line& l : lines) {
    SCOPED_TRACE(l.type + " {" + l.extra + "} " + (l.terrain.empty() ? "" : "on a road"));
    const Scene open = Make(M(l.type, l.extra), l.terrain);
    const double d = l.open_bw * 40;
    const MoveCheck ok = Check(open, 500, 200 + d, 90);
    EXPECT_TRUE(ok.legal) << ok.text;
    EXPECT_EQ(ok.report["allowance_bw"], l.open_bw);
    const MoveCheck far = Check(open, 500, 200 + d + 3, 90);
    EXPECT_FALSE(far.legal);
    EXPECT_NE(far.illegal_reason.find("allowed"), std::string::npos) << far.illegal_reason;
    if (l.rough_bw == -2) continue;
    const Scene rough = Make(M(l.type, l.extra), kRoughEverywhere);
    if (l.rough_bw < 0) {
      const MoveCheck na = Check(rough, 500, 210, 90);
      EXPECT_FALSE(na.legal);
      EXPECT_NE(na.illegal_reason.find("NA"), std::string::npos) << na.illegal_reason;
      continue;
    }
    const MoveCheck rok = Check(rough, 500, 200 + l.rough_bw * 40, 90);
    EXPECT_TRUE(rok.legal) << rok.text;
    EXPECT_EQ(rok.report["ground"], "rough");
    EXPECT_FALSE(Check(rough, 500, 200 + l.rough_bw * 40 + 3, 90).legal);
  }
}

// Straight ahead: no test. Straight back: up to half a move (line infantry: 1 BW), Standard, IM Easy.
TEST(TotskMoveKinds, StraightAheadAndBack) {
  const Scene s = Make(M("infantry"));
  const MoveCheck ahead = Check(s, 500, 260, 90);
  EXPECT_EQ(ahead.kinds, std::vector<std::string>{"straight_ahead"});
  EXPECT_TRUE(ahead.tests.empty());
  const MoveCheck back = Check(s, 500, 160, 90);
  EXPECT_EQ(back.kinds, std::vector<std::string>{"straight_back"});
  EXPECT_EQ(Actions(back), std::vector<std::string>{"straight_back"});
  EXPECT_EQ(back.report["tests"][0]["difficulty"], "standard");
  EXPECT_FALSE(Check(s, 500, 157, 90).legal);  // 1 BW + 3 mm
  const MoveCheck im = Check(Make(M("infantry", "tags: [im]")), 500, 160, 90);
  EXPECT_EQ(im.report["tests"][0]["difficulty"], "easy");
  EXPECT_DOUBLE_EQ(im.tests[0].p_success, 5.0 / 6);
}

// Echelon up to 45 degrees (IM only); sideways beyond 45 degrees keeping the facing is no TotSK move.
TEST(TotskMoveKinds, EchelonImOnly) {
  EXPECT_FALSE(Check(Make(M("infantry")), 530, 230, 90).legal);
  const MoveCheck im = Check(Make(M("infantry", "tags: [im]")), 530, 230, 90);
  EXPECT_TRUE(im.legal) << im.text;
  EXPECT_EQ(Actions(im), std::vector<std::string>{"echelon"});
  const MoveCheck side = Check(Make(M("infantry", "tags: [im]")), 540, 210, 90);
  EXPECT_FALSE(side.legal);
  EXPECT_NE(side.illegal_reason.find("off its facing"), std::string::npos);
}

// Wheel up to 45 degrees in line: Standard (IM Easy); none for Light Troops; more than 45 in line is
// illegal, a column may. The wheel pivots on the front-left corner (480,210).
TEST(TotskMoveKinds, Wheel) {
  auto wheel = [](double deg) {
    const geom::Vec2 pivot(480, 210);
    const double r = geom::DegToRad(deg);
    const geom::Vec2 c0(500, 200);
    const geom::Vec2 v = c0 - pivot;
    const geom::Vec2 c(pivot.x() + v.x() * std::cos(r) - v.y() * std::sin(r), pivot.y() + v.x() * std::sin(r) + v.y() * std::cos(r));
    return std::array<double, 3>{c.x(), c.y(), 90 + deg};
  };
  const auto w30 = wheel(30), w60 = wheel(60);
  const MoveCheck line = Check(Make(M("infantry")), w30[0], w30[1], w30[2]);
  EXPECT_EQ(line.kinds, std::vector<std::string>{"wheel"});
  EXPECT_EQ(Actions(line), std::vector<std::string>{"wheel"});
  EXPECT_EQ(line.report["tests"][0]["halt_if_failed"]["pose"]["y_mm"], 200.0);
  // The outer (front-right) corner travels the arc 40 mm * pi/6 = 20.9 mm.
  EXPECT_NEAR(line.report["distance_mm"].get<double>(), 40 * M_PI / 6, 0.1);
  EXPECT_TRUE(Actions(Check(Make(M("infantry", "tags: [light]")), w30[0], w30[1], w30[2])).empty());
  EXPECT_TRUE(Actions(Check(Make(M("cavalry", "tags: [lh]")), w30[0], w30[1], w30[2])).empty());
  EXPECT_FALSE(Check(Make(M("infantry")), w60[0], w60[1], w60[2]).legal);
  EXPECT_TRUE(Check(Make(M("infantry", "formation: column")), w60[0], w60[1], w60[2]).legal);
}

// Face to flank and about face: Standard (IM Easy); light troops about face with no test.
TEST(TotskMoveKinds, FaceToFlankAndAboutFace) {
  const MoveCheck flank = Check(Make(M("infantry")), 500, 200, 0);
  EXPECT_EQ(flank.kinds, std::vector<std::string>{"face_to_flank"});
  EXPECT_EQ(Actions(flank), std::vector<std::string>{"face_to_flank"});
  const MoveCheck about = Check(Make(M("infantry")), 500, 200, -90);
  EXPECT_EQ(about.kinds, std::vector<std::string>{"about_face"});
  EXPECT_EQ(Actions(about), std::vector<std::string>{"about_face"});
  EXPECT_TRUE(Actions(Check(Make(M("infantry", "tags: [light]")), 500, 200, -90)).empty());
  EXPECT_FALSE(Check(Make(M("infantry")), 500, 200, 30 + 90 + 30).legal);  // 60 degrees in line
}

// A routed unit flees (QRS: a morale score of 3 or less routs it): declared routed, its about-face
// and 10 BW dash to the rear is a rout, legal and free of tests; undeclared, the same move is an
// about face followed by movement beyond the allowance, which is illegal.
TEST(TotskMoveKinds, DeclaredRoutIsAFlightNotAnOrder) {
  const std::string decl = "declarations:\n  M: {routed: true}\n";
  const MoveCheck rout = Check(Make(M("infantry"), decl), 500, -200, -90);
  EXPECT_TRUE(rout.legal) << rout.text;
  EXPECT_EQ(rout.kinds, std::vector<std::string>{"rout"});
  EXPECT_TRUE(Actions(rout).empty());
  EXPECT_NEAR(rout.report["distance_mm"].get<double>(), 400.0, 1e-9);
  const MoveCheck by_state = Check(Make(M("infantry"), "declarations:\n  M: {state: routed}\n"), 500, -200, -90);
  EXPECT_EQ(by_state.kinds, std::vector<std::string>{"rout"});
  EXPECT_FALSE(Check(Make(M("infantry")), 500, -200, -90).legal);
}

// Change of formation: facing the same way is IM only; by turning 90 degrees Standard (IM Easy); then
// up to half the new rate (column 4 BW: 2 BW = 80 mm).
TEST(TotskMoveKinds, FormationChange) {
  EXPECT_FALSE(Check(Make(M("infantry")), 500, 240, 90, false, "column").legal);
  const MoveCheck im = Check(Make(M("infantry", "tags: [im]")), 500, 280, 90, false, "column");
  EXPECT_TRUE(im.legal) << im.text;
  EXPECT_EQ(Actions(im), std::vector<std::string>{"formation_same_facing"});
  EXPECT_FALSE(Check(Make(M("infantry", "tags: [im]")), 500, 283, 90, false, "column").legal);
  const MoveCheck turning = Check(Make(M("infantry")), 500, 200, 0, false, "column");
  EXPECT_EQ(Actions(turning), std::vector<std::string>{"formation_turning"});
  // Artillery: limber Extreme for field guns, Difficult for infantry guns, Extreme -1 for obsolete ones.
  auto limber = [](const std::string& tags) {
    return Check(Make(M("artillery", "formation: unlimbered, tags: [" + tags + "]")), 500, 200, 90, false, "limbered");
  };
  EXPECT_EQ(limber("fg").report["tests"][0]["difficulty"], "extreme");
  EXPECT_EQ(limber("ig").report["tests"][0]["difficulty"], "difficult");
  EXPECT_EQ(limber("og").report["tests"][0]["total"], -1);
}

// Artillery may rotate on the spot up to 45 degrees (no test, but it cannot fire next enemy phase).
TEST(TotskMoveKinds, ArtilleryPivot) {
  const MoveCheck p = Check(Make(M("artillery", "formation: unlimbered", 40)), 500, 200, 130);
  EXPECT_EQ(p.kinds, std::vector<std::string>{"pivot"});
  EXPECT_TRUE(p.tests.empty());
  EXPECT_FALSE(p.report["notes"].empty());
}

// "Any unit within an enemy unit's ZOC may only move directly fwd. or bck." R's front edge is 30 mm
// ahead of M's: M is in R's zone of control.
TEST(TotskMoveZoc, OnlyForwardOrBack) {
  const Scene s = Make(M("infantry") + R("R", "infantry", 500, 250, -90));
  const MoveCheck wheel = Check(s, 505, 200, 100);
  EXPECT_FALSE(wheel.legal);
  EXPECT_NE(wheel.illegal_reason.find("zone of control of R"), std::string::npos) << wheel.illegal_reason;
  EXPECT_TRUE(Check(s, 500, 170, 90).legal);
  EXPECT_TRUE(Check(s, 500, 220, 90).legal);  // straight ahead into contact with R's front
}

// "Moving into contact against front edge (Difficult vs. artillery/inf.)"; vs cavalry Standard;
// +1 AT/BT into contact with infantry. A failed test halts the unit 5 mm short of the target.
TEST(TotskMoveContact, FrontContactTests) {
  const Scene inf = Make(M("infantry") + R("R", "infantry", 500, 260, -90));  // R's front edge y=250
  const MoveCheck c = Check(inf, 500, 240, 90);
  EXPECT_TRUE(c.legal) << c.text;
  EXPECT_EQ(c.kinds, (std::vector<std::string>{"straight_ahead", "contact_front"}));
  ASSERT_EQ(Actions(c), std::vector<std::string>{"contact_front_hard"});
  EXPECT_EQ(c.contacts, std::vector<std::string>{"R"}) << "the ruler names whom it meets";
  EXPECT_TRUE(Check(inf, 500, 230, 90).contacts.empty()) << "short of R: no contact";
  EXPECT_EQ(c.report["tests"][0]["difficulty"], "difficult");
  EXPECT_DOUBLE_EQ(c.report["tests"][0]["halt_if_failed"]["pose"]["y_mm"].get<double>(), 235.0);
  const MoveCheck at = Check(Make(M("infantry", "tags: [at]") + R("R", "infantry", 500, 260, -90)), 500, 240, 90);
  EXPECT_EQ(at.report["tests"][0]["total"], 1);
  EXPECT_DOUBLE_EQ(at.tests[0].p_success, 4.0 / 6);
  const MoveCheck cav = Check(Make(M("cavalry") + R("R", "cavalry", 500, 260, -90)), 500, 240, 90);
  EXPECT_EQ(cav.report["tests"][0]["difficulty"], "standard");
  // Infantry cannot contact cavalry (FAQ).
  EXPECT_FALSE(Check(Make(M("infantry") + R("R", "cavalry", 500, 260, -90)), 500, 240, 90).legal);
}

// "Unit in line moving into contact against a Flank or Rear (except Light Troops, who must take a
// test)". R faces +x; its left flank edge is y=250 (R: (500,260) heading 0, x 490..510, y 240..280).
TEST(TotskMoveContact, FlankContact) {
  const std::string r = R("R", "infantry", 500, 270, 0);  // left edge on y=250
  const MoveCheck line = Check(Make(M("infantry") + r), 500, 240, 90);
  EXPECT_TRUE(line.legal) << line.text;
  EXPECT_EQ(line.kinds, (std::vector<std::string>{"straight_ahead", "contact_flank"}));
  EXPECT_TRUE(line.tests.empty());
  const MoveCheck li = Check(Make(M("infantry", "tags: [light]") + r), 500, 240, 90);
  EXPECT_EQ(Actions(li), std::vector<std::string>{"light_contact_flank"});
}

// FAQ order: artillery-fire test, then the second-move test, then the move's own tests. A second
// move cannot contact. A is a gun 4 BW ahead of M; M moves ahead then (second move) wheels.
TEST(TotskMoveOrder, FireThenSecondMoveThenWheel) {
  const Scene s = Make(M("infantry") + R("A", "artillery", 500, 380, -90));
  const MoveCheck c = Check(s, 505, 200, 100, true);
  ASSERT_TRUE(c.legal) << c.text;
  EXPECT_EQ(Actions(c), (std::vector<std::string>{"under_fire", "second_move", "wheel"}));
  EXPECT_EQ(c.report["tests"][0]["halt_if_failed"]["where"], "where it stands (it does not move)");
  EXPECT_NEAR(c.report["p_all_pass"].get<double>(), (4.0 / 6) * (4.0 / 6) * (4.0 / 6), 1e-12);
  const MoveCheck contact = Check(Make(M("infantry") + R("R", "infantry", 500, 260, -90)), 500, 240, 90, true);
  EXPECT_FALSE(contact.legal);
  EXPECT_NE(contact.illegal_reason.find("2nd"), std::string::npos);
  // QRS setting: an IM unit's bonus move straight ahead is Easy.
  const MoveCheck qrs = Check(Make(M("infantry", "tags: [im]")), 500, 240, 90, true, "", {{"second_move", "qrs"}});
  EXPECT_EQ(qrs.report["tests"][0]["difficulty"], "easy");
}

// FAQ: moving in bad going needs a test (not LI/LH); a failure halts the unit where it reaches it.
// Woods start at y=230: M's front edge (y=210) reaches them after 20 mm; it moves 1 BW (the rough rate
// of a column) to end 20 mm inside.
TEST(TotskMoveTerrain, BadGoingHaltsAtTheEdge) {
  const std::string woods = "terrain:\n  - {id: W, type: woods, polygon: [[400, 230], [600, 230], [600, 400], [400, 400]]}\n";
  const MoveCheck c = Check(Make(M("infantry", "formation: column"), woods), 500, 240, 90);
  ASSERT_EQ(Actions(c), std::vector<std::string>{"bad_going"});
  EXPECT_EQ(c.report["ground"], "rough");
  EXPECT_NEAR(c.report["tests"][0]["halt_if_failed"]["pose"]["y_mm"].get<double>(), 220.0, 1.0);
  EXPECT_FALSE(Check(Make(M("infantry", "formation: column"), woods), 500, 243, 90).legal);
  EXPECT_TRUE(Actions(Check(Make(M("infantry", "tags: [light]"), woods), 500, 240, 90)).empty());
}

// Illegal, not thrown: through an enemy, onto a unit, odd poses, unknown units.
TEST(TotskMoveRobust, IllegalMovesAreReported) {
  const Scene s = Make(M("infantry", "formation: column") + R("R", "infantry", 500, 260, 0));
  const MoveCheck through = Check(s, 500, 330, 90);
  EXPECT_FALSE(through.legal);
  EXPECT_NE(through.illegal_reason.find("R"), std::string::npos) << through.illegal_reason;
  EXPECT_FALSE(Check(s, 500, 262, 90).legal);
  const MoveCheck nan = Check(s, std::numeric_limits<double>::quiet_NaN(), 0, 90);
  EXPECT_FALSE(nan.legal);
  EXPECT_TRUE(nan.supported);
  MoveRequest m;
  m.unit = "nobody";
  EXPECT_FALSE(Totsk()->CheckMove(s, m).legal);
  // A friend in the way without being its support or in combat.
  const Scene friends = Make(M("infantry", "formation: column") +
                             "  - {id: F, side: blue, type: infantry, base: {width_mm: 40, depth_mm: 20}, pose: {x_mm: 500, y_mm: 270, heading_deg: 0}}\n");
  EXPECT_FALSE(Check(friends, 500, 330, 90).legal);
}

// Passage of lines (FAQ): a unit directly behind the one it supports moves through it with no test;
// not directly aligned: "replace forward" (Standard, IM Easy).
TEST(TotskMoveKinds, PassageOfLines) {
  const std::string front = "  - {id: F, side: blue, type: infantry, base: {width_mm: 40, depth_mm: 20}, pose: {x_mm: 500, y_mm: 230, heading_deg: 90}}\n";
  const MoveCheck aligned = Check(Make(M("infantry") + front), 500, 260, 90);
  EXPECT_TRUE(aligned.legal) << aligned.text;
  EXPECT_TRUE(aligned.tests.empty());
  const std::string offset = "  - {id: F, side: blue, type: infantry, base: {width_mm: 40, depth_mm: 20}, pose: {x_mm: 520, y_mm: 230, heading_deg: 90}}\n";
  const MoveCheck replace = Check(Make(M("infantry") + offset), 500, 260, 90);
  EXPECT_TRUE(replace.legal) << replace.text;
  EXPECT_EQ(Actions(replace), std::vector<std::string>{"replace_forward"});
}

}  // namespace
}  // namespace vedette

namespace vedette {
namespace {

// The ruler's figures (MoveCheck::counted_mm, allowance_mm): line infantry (2 BW of 40 mm in the
// open) 60 mm straight ahead has used 60 of 80 mm; its ruler says so in BW while it moves.
TEST(TotskMoveRuler, CountedAndAllowedDistance) {
  const Scene s = Make(M("infantry", "formation: line"));
  const MoveCheck ahead = Check(s, 500, 260, 90);
  EXPECT_NEAR(ahead.counted_mm, 60.0, 0.01);
  EXPECT_DOUBLE_EQ(ahead.allowance_mm, 80.0);
  ObservedMove so_far;
  so_far.unit = "M";
  so_far.from = {500, 200, 90};
  so_far.to = {500, 260, 90};
  MoveVerdict v;
  v.judged = true;
  v.check = ahead;
  EXPECT_EQ(MoveRulerText(s, so_far, v), "M 60 mm (1.5 BW); 1.5 of 2.0 BW allowed\nstraight ahead");
}

}  // namespace
}  // namespace vedette
