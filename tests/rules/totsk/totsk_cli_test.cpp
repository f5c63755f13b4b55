// `vedette analyze` (totsk is the default ruleset) and `vedette check-move` through the real binary:
// JSON keys, exit codes (0 legal, 1 illegal, 2 bad input with file:line on stderr, nothing on stdout).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "tests/app/run_command.h"
#include "tests/rules/totsk/totsk_test_util.h"

namespace vedette {
namespace {

using testing::RunVedette;
using totsk_test::ScenePath;

std::string WriteTemp(const std::string& name, const std::string& text) {
  const auto p = testing::ProcessTempDir() / ("totsk_" + name);  // removed when the test program exits
  std::ofstream(p) << text;
  return p.string();
}

TEST(TotskCli, AnalyzeDefaultsToTotsk) {
  const auto r = RunVedette("analyze " + ScenePath("faq_flank_and_rear.yaml") + " --json");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["ruleset"], "totsk");
  const auto& b1 = j["units"][0];
  for (const char* k : {"id", "zoc_of", "threats", "secure", "rear_support", "morale", "action_tests"})
    EXPECT_TRUE(b1.contains(k)) << k;
  for (const char* k : {"reasons", "modifiers", "total", "p_pass", "p_lose_fail", "p_rout"})
    EXPECT_TRUE(b1["morale"].contains(k)) << k;
  EXPECT_EQ(b1["morale"]["total"], -6);
  const auto qrs = RunVedette("analyze " + ScenePath("faq_flank_and_rear.yaml") + " --json --set rules=qrs");
  ASSERT_EQ(qrs.status, 0) << qrs.err;
  EXPECT_EQ(nlohmann::json::parse(qrs.out)["settings"]["threat_distance"]["bw"], 4.0);
  const auto bad = RunVedette("analyze " + ScenePath("faq_flank_and_rear.yaml") + " --set threat_distance=far");
  EXPECT_EQ(bad.status, 2);
  EXPECT_TRUE(bad.out.empty());
}

TEST(TotskCli, CheckMoveJsonAndExitCodes) {
  // B1 of the scene is at (500,400) facing +y; 1 BW = 40 mm; line infantry moves 2 BW.
  const std::string scene = ScenePath("faq_two_on_rear.yaml");
  auto r = RunVedette("check-move " + scene + " --unit B1 --to 500,440,90 --json");
  ASSERT_EQ(r.status, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["legal"], true);
  EXPECT_EQ(j["kinds"], nlohmann::json::array({"straight_ahead"}));
  for (const char* k : {"tests", "distance_bw", "allowance_bw", "ground", "zoc_of", "from", "to"}) EXPECT_TRUE(j.contains(k)) << k;
  r = RunVedette("check-move " + scene + " --unit B1 --to 500,520,90 --json");
  EXPECT_EQ(r.status, 1);
  j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["legal"], false);
  EXPECT_NE(j["illegal_reason"].get<std::string>().find("allowed 2 BW"), std::string::npos) << j["illegal_reason"];
  r = RunVedette("check-move " + scene + " --unit B1 --to 500,440,90 --second-move");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("Second or subsequent move"), std::string::npos) << r.out;
  r = RunVedette("check-move " + scene + " --unit B1 --to 500,x,90");
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(r.out.empty());
  EXPECT_NE(r.err.find("--to"), std::string::npos) << r.err;
  r = RunVedette("check-move " + scene + " --unit Z9 --to 500,440,90");
  EXPECT_EQ(r.status, 2);
}

// A declaration of the wrong type names the scene file and line.
TEST(TotskCli, BadDeclarationNamesFileAndLine) {
  const std::string scene = WriteTemp("decl.yaml", R"(bw_mm: 40
units:
  - {id: B1, side: blue, type: infantry, pose: {x_mm: 500, y_mm: 400, heading_deg: 90}}
  - {id: R1, side: red, type: infantry, pose: {x_mm: 500, y_mm: 430, heading_deg: -90}}
declarations:
  B1:
    failed_morale: perhaps
  R1: {target: B1}
)");
  const auto r = RunVedette("analyze " + scene + " --ruleset totsk --json");
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(r.out.empty());
  EXPECT_NE(r.err.find(scene + ":7:"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace vedette

namespace vedette {
namespace {

using testing::RunVedette;

// The after-combat rules through the binary: the sample's commands, the new settings and their bad values.
TEST(TotskCli, AfterCombatSampleAndSettings) {
  const std::string sample = AssetsDir() + "/scenes/sample_totsk_after_combat.yaml";
  const auto off = RunVedette("check-move " + sample + " --unit B1 --to 400,170,270");
  EXPECT_EQ(off.status, 0) << off.out << off.err;
  EXPECT_NE(off.out.find("retire 6 BW (240 mm) to the rear, facing away from the enemy (QRS 95)"), std::string::npos) << off.out;
  const auto short_off = RunVedette("check-move " + sample + " --unit B1 --to 400,250,270");
  EXPECT_EQ(short_off.status, 1) << short_off.out;
  const auto qrs = RunVedette("analyze " + sample + " --json --set pursuit=qrs --set army_morale=qrs --set forced_back=qrs");
  ASSERT_EQ(qrs.status, 0) << qrs.err;
  const auto j = nlohmann::json::parse(qrs.out);
  EXPECT_EQ(j["settings"]["pursuit"]["who"], "any unit");
  EXPECT_EQ(j["settings"]["forced_back"]["bw"], 1.0);
  for (const char* bad : {"pursuit=some", "army_morale=x", "forced_back=far"}) {
    const auto r = RunVedette("analyze " + sample + " --set " + bad);
    EXPECT_EQ(r.status, 2) << bad;
    EXPECT_TRUE(r.out.empty()) << bad;
  }
}

}  // namespace
}  // namespace vedette
