// `vedette measure` and `vedette analyze --ruleset geometry` through the real binary.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "tests/app/run_command.h"

namespace vedette {
namespace {

using testing::RunVedette;

std::string WriteTemp(const std::string& name, const std::string& text) {
  const auto p = testing::ProcessTempDir() / name;  // removed when the test program exits
  std::ofstream(p) << text;
  return p.string();
}

// B1 faces player B; R1 faces player A, its front edge 20 mm from B1's: half a BW apart, each in the
// other's zone of control. R2 sits on B1's left, wholly behind B1's front line.
//
//            R1 (y 430..450, facing down)
//   R2       B1 (y 390..410, facing up)
const char* kScene = R"(bw_mm: 40
units:
  - {id: B1, side: blue, type: infantry, base: {width_mm: 40, depth_mm: 20}, pose: {x_mm: 500, y_mm: 400, heading_deg: 90}}
  - {id: R1, side: red, type: infantry, base: {width_mm: 40, depth_mm: 20}, pose: {x_mm: 500, y_mm: 440, heading_deg: -90}}
  - {id: R2, side: red, type: cavalry, base: {width_mm: 40, depth_mm: 30}, pose: {x_mm: 440, y_mm: 395, heading_deg: 0}}
)";

TEST(MeasureCli, JsonHasTheAgreedKeys) {
  const std::string scene = WriteTemp("m.yaml", kScene);
  const auto r = RunVedette("measure " + scene + " --from B1 --to R1 --json");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_NEAR(j["distance_mm"].get<double>(), 20.0, 1e-9);
  EXPECT_NEAR(j["distance_bw"].get<double>(), 0.5, 1e-9);
  EXPECT_EQ(j["arc_of_to"], "front");
  EXPECT_EQ(j["arc_of_from"], "front");
  EXPECT_EQ(j["contact"], false);
  EXPECT_EQ(j["in_zoc_of_to"], true);
  EXPECT_NEAR(j["leader_to_closest_mm"].get<double>(), 20.0, 1e-9);
}

TEST(MeasureCli, FlankArcAndText) {
  const std::string scene = WriteTemp("m2.yaml", kScene);
  // R2 (x 425..455, y 375..415, facing +x) against B1 (x 480..520): 25 mm gap, on B1's left flank.
  const auto r = RunVedette("measure " + scene + " --from R2 --to B1 --json");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_NEAR(j["distance_mm"].get<double>(), 25.0, 1e-9);
  EXPECT_EQ(j["arc_of_to"], "left_flank");  // R2 is in B1's left flank
  EXPECT_EQ(j["arc_of_from"], "front");     // B1 is ahead of R2
  const auto text = RunVedette("measure " + scene + " --from R2 --to B1");
  EXPECT_NE(text.out.find("left flank"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("25.0 mm (0.62 BW)"), std::string::npos) << text.out;
}

TEST(MeasureCli, ArcModelOption) {
  const std::string scene = WriteTemp("m3.yaml", kScene);
  const auto r = RunVedette("measure " + scene + " --from R2 --to B1 --json --arc-model kow");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["arc_model"], "kow");
  const auto bad = RunVedette("measure " + scene + " --from R2 --to B1 --arc-model round");
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("unknown arc model"), std::string::npos);
}

TEST(MeasureCli, UnknownUnitIsAnInputError) {
  const std::string scene = WriteTemp("m4.yaml", kScene);
  const auto r = RunVedette("measure " + scene + " --from B1 --to Z9");
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(r.out.empty());
  EXPECT_NE(r.err.find("no unit 'Z9'"), std::string::npos) << r.err;
}

TEST(MeasureCli, BadSceneExits2WithFileAndLineAndNothingOnStdout) {
  const std::string scene = WriteTemp("bad.yaml", "bw_mm: 40\nunits:\n  - {id: B1, side: a, type: infantry,\n     pose: {x_mm: 1, y_mm: .inf, heading_deg: 0}}\n");
  for (const std::string& cmd : {"measure " + scene + " --from B1 --to B1", "analyze " + scene + " --json"}) {
    const auto r = RunVedette(cmd);
    EXPECT_EQ(r.status, 2) << cmd;
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_NE(r.err.find(scene + ":4:"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("finite"), std::string::npos) << r.err;
  }
}

TEST(AnalyzeCli, GeometryRuleset) {
  const std::string scene = WriteTemp("a.yaml", kScene);
  const auto r = RunVedette("analyze " + scene + " --ruleset geometry --json");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["ruleset"], "geometry");
  ASSERT_EQ(j["units"].size(), 3u);
  const auto& b1 = j["units"][0];
  EXPECT_EQ(b1["id"], "B1");
  EXPECT_EQ(b1["zoc_of"], nlohmann::json::array({"R1", "R2"}));  // R2 faces B1 25 mm away
  EXPECT_EQ(b1["arcs"]["left_flank"], nlohmann::json::array({"R2"}));
  EXPECT_TRUE(b1["contacts"].empty());
  const auto unknown = RunVedette("analyze " + scene + " --ruleset chess");
  EXPECT_EQ(unknown.status, 2);
  EXPECT_NE(unknown.err.find("unknown ruleset 'chess'"), std::string::npos);
}

TEST(Cli, HelpListsCommands) {
  const auto r = RunVedette("--help");
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("measure"), std::string::npos);
  EXPECT_NE(r.out.find("analyze"), std::string::npos);
}

}  // namespace
}  // namespace vedette
