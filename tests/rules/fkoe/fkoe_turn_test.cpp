// For King or Empress (seed 004): step 4's extra Disorder Markers (seed 29-40), the morale modifiers the
// players declare (seed 59, 65, 68), what a failed test means (recoil and withdrawal, seed 53-55, 73-75),
// the turn sequence (seed 42-48), and the sample scene assets/scenes/sample_fkoe.yaml. Scenes in
// tests/rules/fkoe/scenes/.
#include <gtest/gtest.h>

#include <string>

#include "rules/input_error.h"
#include "rules/ruleset.h"
#include "rules/scene/scene_io.h"
#include "tests/app/run_command.h"

namespace vedette {
namespace {

using nlohmann::json;

std::string ScenePath(const std::string& name) { return std::string(VEDETTE_TEST_DATA) + "/rules/fkoe/scenes/" + name; }

Findings AnalyzeWithSettings(const Scene& s, const std::map<std::string, std::string>& settings = {}) {
  RulesetOptions o;
  o.settings = settings;
  return MakeRuleset("fkoe", o)->Analyze(s);
}

// The report's entry for one unit; a test failure (and null) when it is absent.
json UnitOrFailure(const Findings& f, const std::string& id) {
  for (const json& u : f.report["units"])
    if (u["id"] == id) return u;
  ADD_FAILURE() << "no unit " << id;
  return json();
}

// The step 4 bullets a unit takes, by the sheet's words.
std::vector<std::string> Bullets(const Findings& f, const std::string& id) {
  std::vector<std::string> out;
  const json u = UnitOrFailure(f, id);
  for (const json& b : u["step4"]["bullets"]) out.push_back(b["rule"].get<std::string>());
  return out;
}

int Markers(const Findings& f, const std::string& id) { return UnitOrFailure(f, id)["step4"]["markers"].get<int>(); }

int MoraleModifier(const json& u, const std::string& words) {
  for (const json& m : u["morale"]["modifiers"])
    if (m["rule"].get<std::string>().find(words) != std::string::npos) return m["value"].get<int>();
  return 0;
}

TEST(FkoeStep4, EachBulletOnItsSide) {
  const Scene s = LoadScene(ScenePath("step4.yaml"));
  const Findings f = AnalyzeWithSettings(s);
  EXPECT_EQ(Bullets(f, "HC"), (std::vector<std::string>{"Heavy Cavalry in frontal contact with Unlimbered Artillery or Muskets"}));
  EXPECT_EQ(Bullets(f, "A1"), (std::vector<std::string>{"Artillery in contact with any unit"}));
  EXPECT_EQ(Bullets(f, "HC2"), (std::vector<std::string>{"Heavy Cavalry in frontal contact with Unlimbered Artillery or Muskets"}));
  EXPECT_EQ(Bullets(f, "M"), (std::vector<std::string>{"Muskets in any contact with Heavy Cavalry while in Good Going"}));
  EXPECT_EQ(Bullets(f, "L"), (std::vector<std::string>{"Light Infantry in any contact with Mounted while in Good Going"}));
  EXPECT_EQ(Markers(f, "L2"), 0) << "in woods: not in good going";
  EXPECT_EQ(Bullets(f, "C2"), (std::vector<std::string>{"Mounted in Bad Going"}));
  EXPECT_EQ(Markers(f, "C"), 0);
  EXPECT_EQ(Markers(f, "A2"), 2);  // artillery in contact, and an enemy on its flank
  EXPECT_EQ(Markers(f, "T"), 1);   // shot at on the flank
  EXPECT_EQ(Markers(f, "F"), 0);
  EXPECT_EQ(UnitOrFailure(f, "T")["step4"]["applies"], "in this combat");
  EXPECT_NE(f.text.find("HC step 4: +1 Disorder Marker (seed 29-40: Heavy Cavalry in frontal contact with Unlimbered Artillery or "
                        "Muskets (A1))"),
            std::string::npos)
      << f.text;
}

// "Frontal contact": HC4's front touches A2's flank. Front edge to front edge (default) does not count;
// frontal_contact=own_front does.
TEST(FkoeStep4, FrontalContactSetting) {
  const Scene s = LoadScene(ScenePath("step4.yaml"));
  EXPECT_EQ(Markers(AnalyzeWithSettings(s), "HC4"), 0);
  EXPECT_EQ(Markers(AnalyzeWithSettings(s, {{"frontal_contact", "own_front"}}), "HC4"), 1);
  const Findings hit = AnalyzeWithSettings(s, {{"step4_markers", "if_hit"}});
  EXPECT_EQ(UnitOrFailure(hit, "T")["step4"]["applies"], "if hit");
  EXPECT_NE(hit.text.find("T step 4: +1 Disorder Marker if hit"), std::string::npos) << hit.text;
  EXPECT_THROW(AnalyzeWithSettings(s, {{"step4_markers", "sometimes"}}), InputError);
}

// Muskets in contact with heavy cavalry "while in Good Going": M in the woods takes no marker.
TEST(FkoeStep4, GoodGoingThreshold) {
  Scene s = LoadScene(ScenePath("step4.yaml"));
  // Woods over M's front edge (y=320, x 550..650): exactly half the frontage in bad going (seed 81).
  s.terrain.push_back({"W3", "woods", {{600, 310}, {700, 310}, {700, 400}, {600, 400}}, 0.0, 0});
  EXPECT_EQ(Markers(AnalyzeWithSettings(s), "M"), 0);
  s.terrain.back().polygon = {{600.5, 310}, {700, 310}, {700, 400}, {600.5, 400}};
  EXPECT_EQ(Markers(AnalyzeWithSettings(s), "M"), 1);
}

TEST(FkoeMoraleDeclared, CincBreakOffForcedMarch) {
  const Findings f = AnalyzeWithSettings(LoadScene(ScenePath("morale_results.yaml")));
  EXPECT_EQ(MoraleModifier(UnitOrFailure(f, "U1"), "C-n-C with no command"), 3);
  EXPECT_EQ(UnitOrFailure(f, "U1")["morale"]["total"], 3);
  EXPECT_EQ(UnitOrFailure(f, "U2")["morale"]["total"], 2);
  EXPECT_EQ(MoraleModifier(UnitOrFailure(f, "U3"), "Break Off"), -1);
  EXPECT_EQ(MoraleModifier(UnitOrFailure(f, "U4"), "Forced Marching"), -5);
  EXPECT_EQ(UnitOrFailure(f, "U5")["morale"]["total"], -2);
}

// Seed 53, 73-75: a failed test with 2 markers: recoil one base depth (40 mm), then withdraw 1D6" (mounted
// 2D6"); with withdrawal=full_move (seed 53) the unit's stats move_in.
TEST(FkoeMoraleDeclared, RecoilAndWithdrawal) {
  const Scene s = LoadScene(ScenePath("morale_results.yaml"));
  const Findings f = AnalyzeWithSettings(s);
  const json foot = UnitOrFailure(f, "U5")["morale"]["on_fail"];
  EXPECT_DOUBLE_EQ(foot["recoil_mm"].get<double>(), 40.0);
  EXPECT_EQ(foot["withdraw"]["dice"], "1D6");
  EXPECT_EQ(foot["withdraw"]["max_in"], 6);
  const json horse = UnitOrFailure(f, "U6")["morale"]["on_fail"];
  EXPECT_EQ(horse["withdraw"]["dice"], "2D6");
  EXPECT_EQ(horse["withdraw"]["min_in"], 2);
  EXPECT_DOUBLE_EQ(horse["withdraw"]["max_mm"].get<double>(), 304.8);
  EXPECT_FALSE(UnitOrFailure(f, "U4")["morale"].contains("on_fail")) << "no test, no result";
  const Findings full = AnalyzeWithSettings(s, {{"withdrawal", "full_move"}});
  EXPECT_DOUBLE_EQ(UnitOrFailure(full, "U6")["morale"]["on_fail"]["withdraw"]["full_move_mm"].get<double>(), 9 * 25.4);
  EXPECT_TRUE(UnitOrFailure(full, "U5")["morale"]["on_fail"]["withdraw"]["full_move_in"].is_null());
  EXPECT_NE(f.text.find("if it fails: recoil one base depth (40 mm = 1.57 in), then withdraw 2D6\" (2 to 12 in"), std::string::npos)
      << f.text;
}

TEST(FkoeMoraleDeclared, GeneralAttachedMustBeAGeneral) {
  Scene s = LoadScene(ScenePath("morale_results.yaml"));
  s.declarations.units["U2"]["general_attached"] = Declared{"U3", 0};
  EXPECT_THROW(AnalyzeWithSettings(s), InputError);
}

// Seed 42-48 and the sample scene: the turn sequence, each combat's step, B1's melee (+2 flank by B2, +1
// overlap by B3: CV 4 -> 7), and R1's test (2 markers, -6 flank melee: 1D20 - 8 >= 11 passes 10%).
TEST(FkoeSample, TurnSequenceAndTheSampleTable) {
  const Scene s = LoadScene(AssetsDir() + "/scenes/sample_fkoe.yaml");
  RulesetOptions o;
  for (const auto& [k, d] : s.declarations.settings) o.settings[k] = d.value.is_string() ? d.value.get<std::string>() : d.value.dump();
  const Findings f = MakeRuleset("fkoe", o)->Analyze(s);
  ASSERT_EQ(f.report["turn_sequence"].size(), 5u);
  EXPECT_EQ(f.report["turn_sequence"][0], "General makes his Initiative Roll");
  const json b1 = UnitOrFailure(f, "B1");
  EXPECT_EQ(b1["melee"][0]["step"], 5);
  EXPECT_EQ(b1["melee"][0]["modified_combat_value"], 7.0);
  EXPECT_EQ(UnitOrFailure(f, "BA")["firing"]["step"], 2);
  EXPECT_EQ(UnitOrFailure(f, "B4")["firing"]["step"], 4);
  const json r1 = UnitOrFailure(f, "R1");
  EXPECT_EQ(r1["morale"]["total"], -8);
  EXPECT_DOUBLE_EQ(r1["morale"]["p_pass"].get<double>(), 0.1);
  EXPECT_EQ(r1["step4"]["markers"], 1);
  EXPECT_NE(f.text.find("1 General makes his Initiative Roll; 2 Artillery Fires; 3 Movement; 4 Firing Combat; 5 Melee Combat"),
            std::string::npos);
}

}  // namespace
}  // namespace vedette

namespace vedette {
namespace {

MoveCheck Recoil(const Scene& s, const std::string& unit, double x, double y, double h) {
  MoveRequest m;
  m.unit = unit;
  m.to = {x, y, h};
  return MakeRuleset("fkoe")->CheckMove(s, m);
}

// `check-move --ruleset fkoe` judges a declared recoil: one base depth plus 1D6" (mounted 2D6"), or the
// declared roll, facing away; 0.25 in of hand-placement slack on each side.
TEST(FkoeRecoilMove, DistanceAndFacing) {
  const Scene s = LoadScene(ScenePath("recoil.yaml"));
  const MoveCheck ok = Recoil(s, "U", 300, 500, 270);  // 100 mm back
  ASSERT_TRUE(ok.supported);
  EXPECT_TRUE(ok.legal) << ok.text;
  EXPECT_TRUE(Recoil(s, "U", 300, 540, 270).legal);    // 60 mm >= 65.4 - 6.35
  EXPECT_FALSE(Recoil(s, "U", 300, 542, 270).legal);   // 58 mm
  EXPECT_TRUE(Recoil(s, "U", 300, 402, 270).legal);    // 198 mm <= 192.4 + 6.35
  EXPECT_FALSE(Recoil(s, "U", 300, 400, 270).legal);   // 200 mm
  const MoveCheck facing = Recoil(s, "U", 300, 500, 90);
  EXPECT_FALSE(facing.legal);
  EXPECT_NE(facing.illegal_reason.find("facing away"), std::string::npos) << facing.illegal_reason;
  EXPECT_TRUE(Recoil(s, "C", 700, 600 - 340, 270).legal);   // mounted: up to 344.8 mm
  EXPECT_FALSE(Recoil(s, "C", 700, 600 - 352, 270).legal);
  EXPECT_FALSE(Recoil(s, "C", 700, 600 - 84, 270).legal);   // below 90.8 - 6.35
  EXPECT_TRUE(Recoil(s, "K", 1100, 600 - 116.2, 270).legal);  // the declared 3 in
  EXPECT_FALSE(Recoil(s, "K", 1100, 600 - 124, 270).legal);
  EXPECT_FALSE(Recoil(s, "S", 1500, 500, 270).supported) << "only a declared recoil is judged";
}

}  // namespace
}  // namespace vedette


namespace vedette {
namespace {

// Through the binary: a recoil judged (exit 0 legal, 1 illegal), an undeclared move not judged (exit 2),
// and the new settings' bad values refused (exit 2).
TEST(FkoeCli, RecoilMoveAndSettings) {
  const std::string scene = ScenePath("recoil.yaml");
  const auto ok = testing::RunVedette("check-move " + scene + " --ruleset fkoe --unit U --to 300,500,270");
  EXPECT_EQ(ok.status, 0) << ok.out << ok.err;
  EXPECT_NE(ok.out.find("recoil one base depth, then withdraw"), std::string::npos) << ok.out;
  EXPECT_EQ(testing::RunVedette("check-move " + scene + " --ruleset fkoe --unit U --to 300,400,270").status, 1);
  EXPECT_EQ(testing::RunVedette("check-move " + scene + " --ruleset fkoe --unit S --to 1500,500,270").status, 2);
  for (const char* bad : {"step4_markers=all", "frontal_contact=side", "withdrawal=run"})
    EXPECT_EQ(testing::RunVedette("analyze " + scene + " --ruleset fkoe --set " + bad).status, 2) << bad;
  EXPECT_EQ(testing::RunVedette("analyze " + scene + " --ruleset fkoe --set withdrawal=full_move").status, 0);
}

}  // namespace
}  // namespace vedette
