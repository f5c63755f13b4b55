// Every threshold a ruleset has between two units (Ruleset::PairRules, what `dispute` and
// `measure --ruleset` judge), each tested half a millimetre on each side of it.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "rules/ruleset.h"
#include "rules/scene/scene_io.h"

namespace vedette {
namespace {

// The rule whose words hold every piece of `words`; fails the test when there is none or several.
PairRule RuleWith(const std::vector<PairRule>& rules, const std::vector<std::string>& words) {
  std::vector<PairRule> found;
  for (const PairRule& r : rules) {
    bool all = true;
    for (const std::string& w : words) all = all && r.rule.find(w) != std::string::npos;
    if (all) found.push_back(r);
  }
  std::string list;
  for (const PairRule& r : rules) list += "\n  " + r.rule;
  EXPECT_EQ(found.size(), 1u) << "rules holding '" << words.front() << "'..." << list;
  return found.empty() ? PairRule{} : found.front();
}

// Holds: measured <= threshold.
bool Holds(const PairRule& r) { return r.measured_mm <= r.threshold_mm; }

// Unit A (given as a YAML line) at the origin side, unit B another line; 1 BW = 40 mm.
std::vector<PairRule> Rules(const std::string& ruleset, const std::string& a, const std::string& b, const std::string& extra = "",
                            const RulesetOptions& o = {}) {
  const std::string yaml = "bw_mm: 40\nunits:\n" + a + "\n" + b + "\n" + extra;
  return MakeRuleset(ruleset, o)->PairRules(ParseScene(yaml, "pair"), "A", "B");
}

// One unit as a line of a scene's `units:` list.
std::string UnitLine(const char* id, const char* side, const char* type, double w, double d, double x, double y, double h,
                     const std::string& more = "") {
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "  - {id: %s, side: %s, type: %s, base: {width_mm: %g, depth_mm: %g}, pose: {x_mm: %.3f, y_mm: %.3f, heading_deg: %g}%s}",
                id, side, type, w, d, x, y, h, more.c_str());
  return buf;
}

// B faces A's front edge (y = 410) from `gap` mm away.
std::string FacingB(const char* type, double gap, double depth = 20, const std::string& more = "") {
  return UnitLine("B", "red", type, 40, depth, 500, 410 + gap + depth / 2, -90, more);
}

// --- Twilight of the Soldier Kings (QRS seed 001, FAQ seed 000) ------------------------------------

TEST(TotskPairRules, FireStraightAheadWithinHalfABw) {  // FAQ: foot 1/2 BW
  for (double gap : {19.5, 20.5}) {
    const auto rules = Rules("totsk", UnitLine("A", "blue", "infantry", 40, 20, 500, 400, 90), FacingB("infantry", gap));
    const PairRule r = RuleWith(rules, {"B under A's fire", "0.5 BW straight ahead"});
    EXPECT_EQ(r.quantity, "straight_ahead_reach");
    EXPECT_NEAR(r.measured_mm, gap, 1e-9);
    EXPECT_EQ(Holds(r), gap < 20);
  }
  // QRS: 1 BW.
  RulesetOptions qrs;
  qrs.settings["morale_ranges"] = "qrs";
  for (double gap : {39.5, 40.5}) {
    const auto rules = Rules("totsk", UnitLine("A", "blue", "infantry", 40, 20, 500, 400, 90), FacingB("infantry", gap), "", qrs);
    EXPECT_EQ(Holds(RuleWith(rules, {"B under A's fire", "1 BW straight ahead"})), gap < 40);
  }
}

TEST(TotskPairRules, ArtilleryFireAndBombardment) {  // FAQ 3 BW; QRS 76: bombardment 6 BW
  for (double gap : {119.5, 120.5, 239.5, 240.5}) {
    const auto rules = Rules("totsk", UnitLine("A", "blue", "artillery", 40, 20, 500, 400, 90), FacingB("infantry", gap));
    EXPECT_EQ(Holds(RuleWith(rules, {"B under A's fire", "3 BW"})), gap < 120) << gap;
    EXPECT_EQ(Holds(RuleWith(rules, {"B under A's bombardment", "6 BW"})), gap < 240) << gap;
  }
  // Limbered guns cannot fire: no fire rule.
  const auto limbered = Rules("totsk", UnitLine("A", "blue", "artillery", 40, 20, 500, 400, 90, ", formation: limbered"),
                              FacingB("infantry", 50));
  for (const PairRule& r : limbered) EXPECT_EQ(r.rule.find("A's fire"), std::string::npos) << r.rule;
}

TEST(TotskPairRules, LightInfantryFireEdgeToEdge) {  // FAQ halves LI's 2 BW: 1 BW, ahead of the front line
  for (double gap : {39.5, 40.5}) {
    const auto rules = Rules("totsk", UnitLine("A", "blue", "infantry", 40, 20, 500, 400, 90, ", tags: [light]"), FacingB("infantry", gap));
    const PairRule r = RuleWith(rules, {"under A's light infantry fire"});
    EXPECT_EQ(Holds(r), gap < 40);
    EXPECT_NE(r.rule.find("B is ahead of it"), std::string::npos) << r.rule;
  }
}

TEST(TotskPairRules, CavalryReachAgainstInfantry) {  // QRS 75 (1 BW), FAQ 1/2 BW
  for (double gap : {19.5, 20.5}) {
    const auto rules = Rules("totsk", UnitLine("A", "blue", "cavalry", 40, 30, 500, 395, 90), FacingB("infantry", gap));
    EXPECT_EQ(Holds(RuleWith(rules, {"B within A's cavalry reach", "0.5 BW"})), gap < 20);
  }
}

TEST(TotskPairRules, ThreatDistanceBehindAFlank) {  // FAQ "Applying penalties": 2 BW (QRS 4 BW)
  // B faces +x on A's left, wholly behind A's front line, its front edge `gap` mm from A's left edge (x = 480).
  for (double gap : {79.5, 80.5}) {
    const auto rules = Rules("totsk", UnitLine("A", "blue", "infantry", 40, 20, 500, 400, 90),
                             UnitLine("B", "red", "infantry", 40, 20, 480 - gap - 10, 395, 0));
    const PairRule r = RuleWith(rules, {"B within the threat distance of A", "2 BW"});
    EXPECT_EQ(Holds(r), gap < 80);
    EXPECT_NE(r.rule.find("B is behind A's left flank"), std::string::npos) << r.rule;
  }
  RulesetOptions qrs;
  qrs.settings["threat_distance"] = "qrs";
  for (double gap : {159.5, 160.5}) {
    const auto rules = Rules("totsk", UnitLine("A", "blue", "infantry", 40, 20, 500, 400, 90),
                             UnitLine("B", "red", "infantry", 40, 20, 480 - gap - 10, 395, 0), "", qrs);
    EXPECT_EQ(Holds(RuleWith(rules, {"B within the threat distance of A", "4 BW"})), gap < 160);
  }
}

TEST(TotskPairRules, ZonesOfControlBothWays) {  // QRS 29-31
  for (double gap : {39.5, 40.5}) {
    const auto rules = Rules("totsk", UnitLine("A", "blue", "infantry", 40, 20, 500, 400, 90), FacingB("infantry", gap));
    EXPECT_EQ(Holds(RuleWith(rules, {"in B's zone of control"})), gap < 40);
    EXPECT_EQ(Holds(RuleWith(rules, {"in A's zone of control"})), gap < 40);
  }
}

TEST(TotskPairRules, RearSupportFlankSupportSecureFlankAndGenerals) {
  // B (a friend) behind A's rear edge (y = 390): infantry supports within 1 BW (QRS 86).
  for (double gap : {39.5, 40.5}) {
    const auto rules = Rules("totsk", UnitLine("A", "blue", "infantry", 40, 20, 500, 400, 90),
                             UnitLine("B", "blue", "infantry", 40, 20, 500, 390 - gap - 10, 90));
    EXPECT_EQ(Holds(RuleWith(rules, {"B gives A rear support", "1 BW"})), gap < 40);
  }
  // Cavalry within 2 BW.
  for (double gap : {79.5, 80.5}) {
    const auto rules = Rules("totsk", UnitLine("A", "blue", "infantry", 40, 20, 500, 400, 90),
                             UnitLine("B", "blue", "cavalry", 40, 30, 500, 390 - gap - 15, 90));
    EXPECT_EQ(Holds(RuleWith(rules, {"B gives A rear support", "2 BW"})), gap < 80);
  }
  // B beside A's right edge (x = 520): flank support (FAQ) and a secure flank (QRS 89), 1 BW.
  for (double gap : {39.5, 40.5}) {
    const auto rules = Rules("totsk", UnitLine("A", "blue", "infantry", 40, 20, 500, 400, 90),
                             UnitLine("B", "blue", "infantry", 40, 20, 520 + gap + 20, 400, 90));
    const PairRule beside = RuleWith(rules, {"B beside A's flank", "flank support"});
    EXPECT_EQ(Holds(beside), gap < 40);
    EXPECT_NE(beside.rule.find("B is on its right"), std::string::npos) << beside.rule;
    EXPECT_EQ(Holds(RuleWith(rules, {"of A's flank: that flank is secure"})), gap < 40);
  }
  // A general within 2 BW may re-roll (QRS 101).
  for (double gap : {79.5, 80.5}) {
    const auto rules = Rules("totsk", UnitLine("A", "blue", "infantry", 40, 20, 500, 400, 90),
                             UnitLine("B", "blue", "general", 20, 20, 520 + gap + 10, 400, 90));
    EXPECT_EQ(Holds(RuleWith(rules, {"B within 2 BW of A", "re-roll"})), gap < 80);
  }
  // A general within 1 BW: -1 to pursue (QRS 97).
  for (double gap : {39.5, 40.5}) {
    const auto rules = Rules("totsk", UnitLine("A", "blue", "cavalry", 40, 20, 500, 400, 90),
                             UnitLine("B", "blue", "general", 20, 20, 520 + gap + 10, 400, 90));
    EXPECT_EQ(Holds(RuleWith(rules, {"B within 1 BW of A", "pursuit"})), gap < 40);
  }
  // A unit within 6 BW of a general may take its bonus moves (QRS 103).
  for (double gap : {239.5, 240.5}) {
    const auto rules = Rules("totsk", UnitLine("A", "blue", "infantry", 40, 20, 500, 400, 90),
                             UnitLine("B", "blue", "general", 20, 20, 520 + gap + 10, 400, 90));
    EXPECT_EQ(Holds(RuleWith(rules, {"A within 6 BW of B", "bonus moves"})), gap < 240);
  }
}

// The list depends on the units, not on where they stand (a dispute from a photo and its truth list
// the same rules).
TEST(TotskPairRules, TheListDoesNotDependOnThePositions) {
  const auto near = Rules("totsk", UnitLine("A", "blue", "infantry", 40, 20, 500, 400, 90), FacingB("cavalry", 5, 30));
  const auto far = Rules("totsk", UnitLine("A", "blue", "infantry", 40, 20, 500, 400, 120), UnitLine("B", "red", "cavalry", 40, 30, 900, 900, 0));
  ASSERT_EQ(near.size(), far.size());
  for (size_t i = 0; i < near.size(); ++i) EXPECT_EQ(near[i].quantity, far[i].quantity);
  // The three the dispute tool always listed stay, by name.
  EXPECT_EQ(near[0].rule, "in contact");
  EXPECT_EQ(near[1].rule, "within 1 BW");
}

// --- Kings of War (seed 002) ------------------------------------------------------------------------

TEST(KowPairRules, ChargeReachOneInchAndRangesBothWays) {
  // A (speed 5: 10 in = 254 mm) and B (bows 24 in = 609.6 mm) face each other across `gap` mm.
  for (double gap : {253.5, 254.5}) {
    const auto rules = Rules("kow", UnitLine("A", "blue", "infantry", 100, 40, 500, 400, 90, ", stats: {speed_in: 5}"),
                             UnitLine("B", "red", "infantry", 100, 40, 500, 420 + gap + 20, -90, ", stats: {speed_in: 6, range_bows_in: 24}"));
    EXPECT_EQ(Holds(RuleWith(rules, {"A's charge reach", "10 in (seed 13; B is partly in its front arc)"})), gap < 254);
    EXPECT_TRUE(Holds(RuleWith(rules, {"B's charge reach", "12 in"})));
    EXPECT_TRUE(Holds(RuleWith(rules, {"B's bows range, 24 in"})));
  }
  for (double gap : {609.1, 610.1}) {
    const auto rules = Rules("kow", UnitLine("A", "blue", "infantry", 100, 40, 500, 400, 90, ", stats: {speed_in: 5}"),
                             UnitLine("B", "red", "infantry", 100, 40, 500, 420 + gap + 20, -90, ", stats: {range_bows_in: 24}"));
    EXPECT_EQ(Holds(RuleWith(rules, {"B's bows range, 24 in"})), gap < 609.6);
  }
  for (double gap : {24.9, 25.9}) {
    const auto rules = Rules("kow", UnitLine("A", "blue", "infantry", 100, 40, 500, 400, 90), UnitLine("B", "red", "infantry", 100, 40, 500, 420 + gap + 20, -90));
    EXPECT_EQ(Holds(RuleWith(rules, {"within 1 in"})), gap < 25.4);
  }
}

TEST(KowPairRules, WarEnginesShoot48InchesAndNeverCharge) {  // seed 74
  for (double gap : {1218.9, 1219.9}) {
    const auto rules = Rules("kow", UnitLine("A", "blue", "artillery", 50, 50, 500, 100, 90, ", stats: {speed_in: 5}"),
                             UnitLine("B", "red", "infantry", 100, 40, 500, 125 + gap + 20, -90));
    EXPECT_EQ(Holds(RuleWith(rules, {"A's ranged attack range, 48 in", "74"})), gap < 1219.2);
    for (const PairRule& r : rules) EXPECT_EQ(r.rule.find("A's charge reach"), std::string::npos) << r.rule;
  }
}

// --- For King or Empress (seed 004) -------------------------------------------------------------------

TEST(FkoePairRules, SupportCommandRangeAndArtilleryRanges) {
  // B behind A's rear edge (y = 380): supports A's fire within 1 in (seed 11; fkoe.yaml).
  for (double gap : {24.9, 25.9}) {
    const auto rules = Rules("fkoe", UnitLine("A", "blue", "infantry", 100, 40, 500, 400, 90),
                             UnitLine("B", "blue", "infantry", 100, 40, 500, 380 - gap - 20, 90));
    EXPECT_EQ(Holds(RuleWith(rules, {"B supports A's fire", "1 in"})), gap < 25.4);
  }
  // A commander-in-chief with no command of his own: command range 4 in when set (seed 63).
  RulesetOptions o;
  o.settings["command_range_in"] = "4";
  o.settings["artillery_short_range_in"] = "6";
  o.settings["artillery_long_range_in"] = "18";
  for (double gap : {101.1, 102.1}) {
    const auto rules = Rules("fkoe", UnitLine("A", "blue", "infantry", 100, 40, 500, 400, 90),
                             UnitLine("B", "blue", "general", 30, 30, 550 + gap + 15, 400, 90, ", tags: [cinc, no_command]"), "", o);
    EXPECT_EQ(Holds(RuleWith(rules, {"A in command range of B", "4 in"})), gap < 101.6);
  }
  // Artillery short (6 in = 152.4 mm, seed 66) and long range (18 in = 457.2 mm, seed 27).
  for (double gap : {151.9, 152.9, 456.7, 457.7}) {
    const auto rules = Rules("fkoe", UnitLine("A", "blue", "artillery", 50, 50, 500, 400, 90),
                             UnitLine("B", "red", "infantry", 100, 40, 500, 425 + gap + 20, -90), "", o);
    EXPECT_EQ(Holds(RuleWith(rules, {"B at A's short range, 6 in"})), gap < 152.4) << gap;
    EXPECT_EQ(Holds(RuleWith(rules, {"B within A's long range, 18 in"})), gap < 457.2) << gap;
  }
  // Without the settings those ranges are not the sheet's: not listed.
  const auto unset = Rules("fkoe", UnitLine("A", "blue", "artillery", 50, 50, 500, 400, 90), UnitLine("B", "red", "infantry", 100, 40, 500, 600, -90));
  for (const PairRule& r : unset) EXPECT_EQ(r.rule.find("range"), std::string::npos) << r.rule;
  // Seed 80: 1 in of sight in or out of bad going.
  for (double gap : {24.9, 25.9}) {
    const auto rules = Rules("fkoe", UnitLine("A", "blue", "infantry", 100, 40, 500, 400, 90), UnitLine("B", "red", "infantry", 100, 40, 500, 420 + gap + 20, -90));
    EXPECT_EQ(Holds(RuleWith(rules, {"within 1 in", "seed 80"})), gap < 25.4);
  }
}

}  // namespace
}  // namespace vedette
