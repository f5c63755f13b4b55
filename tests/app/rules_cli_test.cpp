// The rules through the real binary: overlaps in `measure` and `check-move`, `measure --ruleset` in the
// ruleset's unit with its thresholds, unknown settings and declarations refused for every ruleset, and
// each ruleset's sample scene.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/app/run_command.h"

namespace vedette {
namespace {

using testing::CommandResult;
using testing::RunVedette;
using testing::TestFolder;

using testing::Has;
using testing::kAssets;
using testing::Q;
using testing::Write;
const std::string kScenes = kAssets + "/scenes/";

// The sample's B2 and R1 (assets/scenes/sample_totsk.yaml) with B2 at (541, y).
std::string B2AndR1(double y) {
  return "bw_mm: 40\nunits:\n"
         "  - {id: B2, side: blue, type: infantry, base: {width_mm: 40, depth_mm: 20}, pose: {x_mm: 541, y_mm: " + std::to_string(y) +
         ", heading_deg: 90}}\n"
         "  - {id: R1, side: red, type: infantry, base: {width_mm: 40, depth_mm: 20}, pose: {x_mm: 505, y_mm: 440, heading_deg: -90}}\n";
}

TEST(RulesCli, CheckMoveRefusesAMoveEndingInsideAnotherBase) {
  const CommandResult r = RunVedette("check-move " + Q(kScenes + "sample_totsk.yaml") + " --unit B2 --to 541,430,90");
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_TRUE(Has(r.out, "ILLEGAL")) << r.out;
  EXPECT_TRUE(Has(r.out, "B2 overlaps R1 by 4.0 x 10.0 mm")) << r.out;
}

TEST(RulesCli, MeasureFlagsAnOverlapNotACornerContact) {
  TestFolder dir;
  // 4 x 10 mm into R1: an overlap.
  const std::string over = Write(dir / "over.yaml", B2AndR1(430));
  const CommandResult t = RunVedette("measure " + Q(over) + " --from B2 --to R1");
  ASSERT_EQ(t.status, 0) << t.err;
  EXPECT_TRUE(Has(t.out, "overlap")) << t.out;
  EXPECT_TRUE(Has(t.out, "B2 and R1 overlap by 4.0 x 10.0 mm")) << t.out;
  EXPECT_FALSE(Has(t.out, "corner only")) << t.out;
  const auto j = nlohmann::json::parse(RunVedette("measure " + Q(over) + " --from B2 --to R1 --json").out);
  EXPECT_TRUE(j["overlapping"].get<bool>());
  EXPECT_FALSE(j["contact"].get<bool>());
  EXPECT_NEAR(j["overlap"]["depth_mm"].get<double>(), 4.0, 1e-9);
  EXPECT_NEAR(j["overlap"]["width_mm"].get<double>(), 10.0, 1e-9);
  // 1.9 mm deep (4 x 1.9 mm at the corner): within the contact slack, a corner contact.
  const std::string touch = Write(dir / "touch.yaml", B2AndR1(421.9));
  const CommandResult c = RunVedette("measure " + Q(touch) + " --from B2 --to R1");
  ASSERT_EQ(c.status, 0) << c.err;
  EXPECT_TRUE(Has(c.out, "contact                 yes")) << c.out;
  EXPECT_FALSE(Has(c.out, "overlap ")) << c.out;
  EXPECT_FALSE(nlohmann::json::parse(RunVedette("measure " + Q(touch) + " --from B2 --to R1 --json").out)["overlapping"].get<bool>());
}

TEST(RulesCli, MeasureInTheRulesetsUnitWithItsThresholds) {
  const CommandResult r = RunVedette("measure " + Q(kScenes + "sample_kow.yaml") + " --from B2 --to R2 --ruleset kow");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(Has(r.out, "1 in = 25.4 mm")) << r.out;
  EXPECT_TRUE(Has(r.out, "260.0 mm (10.24 in)")) << r.out;
  EXPECT_TRUE(Has(r.out, "no  B2's charge reach")) << r.out;
  EXPECT_TRUE(Has(r.out, "outside by 6.0 mm (0.24 in)")) << r.out;
  const auto j = nlohmann::json::parse(RunVedette("measure " + Q(kScenes + "sample_kow.yaml") + " --from B2 --to R2 --ruleset kow --json").out);
  EXPECT_EQ(j["unit"], "in");
  EXPECT_NEAR(j["distance_in"].get<double>(), 260.0 / 25.4, 1e-9);
  EXPECT_EQ(j["ruleset"], "kow");
  EXPECT_FALSE(j["rules"].empty());
  const CommandResult f = RunVedette("measure " + Q(kScenes + "sample_fkoe.yaml") + " --from B4 --to R2 --ruleset fkoe");
  ASSERT_EQ(f.status, 0) << f.err;
  EXPECT_TRUE(Has(f.out, " in)")) << f.out;
  // --set needs a ruleset; an unknown one is refused.
  EXPECT_EQ(RunVedette("measure " + Q(kScenes + "sample_kow.yaml") + " --from B2 --to R2 --set x=1").status, 2);
  EXPECT_EQ(RunVedette("measure " + Q(kScenes + "sample_kow.yaml") + " --from B2 --to R2 --ruleset kow --set x=1").status, 2);
}

TEST(RulesCli, UnknownSettingsAreRefusedForEveryRuleset) {
  for (const std::string name : {"totsk", "kow", "fkoe", "states", "geometry"}) {
    const std::string scene = kScenes + (name == "totsk" || name == "geometry" ? "sample_totsk.yaml" : "sample_" + name + ".yaml");
    const CommandResult r = RunVedette("analyze " + Q(scene) + " --ruleset " + name + " --set threat_distanse=qrs");
    EXPECT_EQ(r.status, 2) << name;
    EXPECT_TRUE(r.out.empty()) << name;
    EXPECT_TRUE(Has(r.err, "no setting 'threat_distanse'")) << name << ": " << r.err;
    const std::string listed = name == "totsk"  ? "threat_distance, threat_distance_bw"
                               : name == "fkoe" ? "command_range_in"
                               : name == "geometry" ? "arc_reach_bw"
                               : name == "kow"      ? "one_inch_rule, post_combat_back"
                                                    : "it has no settings";
    EXPECT_TRUE(Has(r.err, listed)) << name << ": " << r.err;
  }
}

TEST(RulesCli, UnknownDeclarationsAreRefusedAtTheirLine) {
  TestFolder dir;
  const std::string unit =
      "bw_mm: 40\nunits:\n"
      "  - {id: B1, side: blue, type: infantry, base: {width_mm: 40, depth_mm: 20}, pose: {x_mm: 600, y_mm: 400, heading_deg: 90}}\n"
      "declarations:\n";
  for (const auto& [ruleset, declaration, listed] :
       std::vector<std::tuple<std::string, std::string, std::string>>{{"kow", "shaken", "charged_by"},
                                                                      {"fkoe", "wavering", "disorder"},
                                                                      {"states", "wavering", "flee_to"},
                                                                      {"totsk", "wavering", "failed_morale"}}) {
    const std::string scene = Write(dir / (ruleset + ".yaml"), unit + "  B1: {" + declaration + ": true}\n");
    const CommandResult r = RunVedette("analyze " + Q(scene) + " --ruleset " + ruleset);
    EXPECT_EQ(r.status, 2) << ruleset;
    EXPECT_TRUE(r.out.empty()) << ruleset;
    EXPECT_TRUE(Has(r.err, scene + ":5:")) << r.err;
    EXPECT_TRUE(Has(r.err, "B1." + declaration)) << r.err;
    EXPECT_TRUE(Has(r.err, listed)) << r.err;
  }
  // Kings of War has a Wavering state (seed 67): it reads it.
  const std::string wavering = Write(dir / "w.yaml", unit + "  B1: {wavering: true}\n");
  EXPECT_EQ(RunVedette("analyze " + Q(wavering) + " --ruleset kow").status, 0);
  // The states ruleset judges moves: the same refusal from check-move.
  const std::string st = Write(dir / "st.yaml", unit + "  B1: {wavering: true}\n");
  const CommandResult m = RunVedette("check-move " + Q(st) + " --ruleset states --unit B1 --to 600,420,90");
  EXPECT_EQ(m.status, 2);
  EXPECT_TRUE(Has(m.err, st + ":5:")) << m.err;
}

TEST(RulesCli, EachRulesetsSampleScene) {
  for (const std::string name : {"kow", "fkoe", "states"}) {
    const CommandResult r = RunVedette("analyze " + Q(kScenes + "sample_" + name + ".yaml") + " --ruleset " + name);
    EXPECT_EQ(r.status, 0) << name << ": " << r.err;
    EXPECT_FALSE(r.out.empty()) << name;
    const CommandResult j = RunVedette("analyze " + Q(kScenes + "sample_" + name + ".yaml") + " --ruleset " + name + " --json");
    EXPECT_EQ(nlohmann::json::parse(j.out)["ruleset"], name);
  }
}

}  // namespace
}  // namespace vedette
