// What every ruleset shares: declarations it does not read are refused at their line, the plain text
// explains (no internal keys, modifiers with their source), the sample scene of each ruleset, the
// neighbour search (rules/unit_grid.h) that keeps big tables fast finds exactly what looking at every
// pair finds, and the frame path (no text, no report) draws and tests exactly what `analyze` does.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "rules/geometry/arcs.h"
#include "rules/geometry/corridor.h"
#include "rules/geometry/distance.h"
#include "rules/input_error.h"
#include "rules/kow/analysis.h"
#include "rules/kow/config.h"
#include "rules/overlaps.h"
#include "rules/ruleset.h"
#include "rules/scene/scene_io.h"
#include "rules/scene/synthetic_table.h"
#include "rules/unit_grid.h"
#include "tests/rules/report_util.h"

namespace vedette {
namespace {

const std::string kScenes = std::string(VEDETTE_ASSETS_DIR) + "/scenes/";

std::string OneUnit(const std::string& declaration) {
  return "bw_mm: 40\nunits:\n"
         "  - {id: B1, side: blue, type: infantry, base: {width_mm: 40, depth_mm: 20}, pose: {x_mm: 500, y_mm: 400, heading_deg: 90}}\n"
         "declarations:\n"
         "  B1: {" + declaration + "}\n";
}

// --- declarations a ruleset does not read --------------------------------------------------------

TEST(DeclarationKeys, UnknownKeysAreRefusedAtTheirLineWithTheKeysRead) {
  struct Case {
    std::string ruleset, declaration, listed;
  };
  for (const Case& c : {Case{"totsk", "wavering: true", "failed_morale"}, Case{"kow", "shaken: true", "charged_by"},
                        Case{"fkoe", "wavering: true", "disorder"}, Case{"states", "wavering: true", "flee_to"}}) {
    const Scene s = ParseScene(OneUnit(c.declaration), "scene.yaml");
    try {
      MakeRuleset(c.ruleset)->Analyze(s);
      ADD_FAILURE() << c.ruleset << " accepted " << c.declaration;
    } catch (const InputError& e) {
      EXPECT_EQ(e.file(), "scene.yaml") << c.ruleset;
      EXPECT_EQ(e.line(), 5) << c.ruleset;
      const std::string key = c.declaration.substr(0, c.declaration.find(':'));
      EXPECT_NE(e.message().find("B1." + key), std::string::npos) << e.what();
      EXPECT_NE(e.message().find(c.ruleset + " ruleset"), std::string::npos) << e.what();
      EXPECT_NE(e.message().find(c.listed), std::string::npos) << e.what();
    }
  }
}

TEST(DeclarationKeys, EachRulesetsOwnKeysAndTheStateMenusAreAccepted) {
  for (const auto& [ruleset, declaration] :
       std::vector<std::pair<std::string, std::string>>{{"kow", "wavering: true, order: halt"},
                                                        {"kow", "disordered: true"},
                                                        {"fkoe", "disorder: 1, uphill: true"},
                                                        {"states", "state: shaken, firing: true"},
                                                        {"totsk", "failed_morale: true"}}) {
    EXPECT_NO_THROW(MakeRuleset(ruleset)->Analyze(ParseScene(OneUnit(declaration), "ok.yaml"))) << ruleset << " " << declaration;
    // What the live window's state menu sets, under any ruleset.
    EXPECT_NO_THROW(MakeRuleset(ruleset)->Analyze(ParseScene(OneUnit("state: routed, limbered: false"), "menu.yaml"))) << ruleset;
  }
  // The geometry ruleset reads no declarations and judges none.
  EXPECT_NO_THROW(MakeRuleset("geometry")->Analyze(ParseScene(OneUnit("wavering: true"), "g.yaml")));
}

TEST(DeclarationKeys, KowOrdersAreTheSeedsSeven) {
  EXPECT_THROW(MakeRuleset("kow")->Analyze(ParseScene(OneUnit("order: gallop"), "o.yaml")), InputError);
  EXPECT_NO_THROW(MakeRuleset("kow")->Analyze(ParseScene(OneUnit("order: at_the_double"), "o.yaml")));
}

TEST(DeclarationKeys, UnknownSettingsAreRefusedWithTheValidOnes) {
  for (const std::string& name : RulesetNames()) {
    RulesetOptions o;
    o.settings["threat_distanse"] = "qrs";
    o.strict_keys = {"threat_distanse"};
    try {
      MakeRuleset(name, o);
      ADD_FAILURE() << name << " accepted threat_distanse";
    } catch (const InputError& e) {
      EXPECT_NE(e.message().find("no setting 'threat_distanse'"), std::string::npos) << e.what();
      const auto keys = MakeRuleset(name)->Info().settings;
      if (keys.empty()) {
        EXPECT_NE(e.message().find("it has no settings"), std::string::npos) << e.what();
      }
      for (const std::string& k : keys) EXPECT_NE(e.message().find(k), std::string::npos) << e.what();
    }
  }
}

// --- the plain text --------------------------------------------------------------------------------

void ExpectExplained(const std::string& text, const std::string& what) {
  EXPECT_EQ(text.find("(default)"), std::string::npos) << what << "\n" << text;
  EXPECT_EQ(text.find(" of -"), std::string::npos) << what << "\n" << text;
  EXPECT_EQ(text.find("\n\n"), std::string::npos) << what << ": an empty line\n" << text;
  EXPECT_EQ(text.find("_flank"), std::string::npos) << what << ": an internal key\n" << text;
  EXPECT_EQ(text.find("faq "), std::string::npos) << what << "\n" << text;
  EXPECT_FALSE(text.empty());
  EXPECT_EQ(text.back(), '\n');
}

TEST(ExplainedText, EachRulesetOnItsSampleScene) {
  for (const auto& [ruleset, file] : std::vector<std::pair<std::string, std::string>>{
           {"totsk", "sample_totsk.yaml"}, {"kow", "sample_kow.yaml"}, {"fkoe", "sample_fkoe.yaml"},
           {"states", "sample_states.yaml"}, {"geometry", "sample_totsk.yaml"}})
    ExpectExplained(MakeRuleset(ruleset)->Analyze(LoadScene(kScenes + file)).text, ruleset);
}

TEST(ExplainedText, ModifiersNameTheirSource) {
  // TotSK: B1's +1 for rear support from B3; R3's action test because BA targets it.
  const std::string t = MakeRuleset("totsk")->Analyze(LoadScene(kScenes + "sample_totsk.yaml")).text;
  EXPECT_NE(t.find("+1 Rear sup. w/1BW Inf., 2BW Cav (B3)"), std::string::npos) << t;
  EXPECT_NE(t.find("Under artillery or Light Infantry fire (QRS; FAQ: before acting) (BA)"), std::string::npos) << t;
  // FKoE: each combat value modifier with the unit giving it.
  const std::string f = MakeRuleset("fkoe")->Analyze(LoadScene(kScenes + "sample_fkoe.yaml")).text;
  EXPECT_NE(f.find("+2 In Melee, for each friendly unit in contact with an enemy's Flank or Rear (B2)"), std::string::npos) << f;
  EXPECT_NE(f.find("+1 If Firing, for each friendly supporting unit (S)"), std::string::npos) << f;
  // No odds for a shot that cannot be made: B5 does not see R3 in the wood.
  EXPECT_NE(f.find("B5 fires at R3: cannot"), std::string::npos) << f;
  const size_t b5 = f.find("B5 fires at R3");
  EXPECT_EQ(f.substr(b5, f.find('\n', b5) - b5).find('%'), std::string::npos) << f;
}

// --- the sample scenes -------------------------------------------------------------------------------

TEST(SampleScenes, KingsOfWar) {
  const Findings f = MakeRuleset("kow")->Analyze(LoadScene(kScenes + "sample_kow.yaml"));
  const auto charge = [&](const std::string& unit, const std::string& target) {
    const nlohmann::json report = UnitOf(f, unit);  // a copy: the loop below must not run over a temporary
    for (const auto& c : report["charges"])
      if (c["target"] == target) return c;
    return nlohmann::json();
  };
  EXPECT_TRUE(charge("B1", "R1")["chargeable"].get<bool>());
  EXPECT_NEAR(charge("B1", "R1")["distance_in"].get<double>(), 7.09, 0.005);
  EXPECT_FALSE(charge("B2", "R2")["chargeable"].get<bool>());  // 10.24 in of 10: a near miss, listed
  EXPECT_NEAR(charge("B2", "R2")["margin_in"].get<double>(), -0.24, 0.005);
  EXPECT_TRUE(UnitOf(f, "BW")["charges"].empty());             // a war engine
  EXPECT_EQ(UnitOf(f, "BW")["shooting"][0]["range_in"], 48.0);
  bool cover = false;
  const nlohmann::json ba = UnitOf(f, "BA");
  for (const auto& t : ba["shooting"][0]["targets"])
    if (t["target"] == "R3") cover = t["cover"].get<bool>() && t["modifier"] == -1;
  EXPECT_TRUE(cover);
  // On the picture: a dashed arrow from BA's leader point to R3, with the modifier to hit.
  int shot_arrows = 0;
  for (const DrawPrimitive& d : f.drawing) {
    if (d.layer != "ranges" || d.kind != DrawKind::kArrow) continue;
    ++shot_arrows;
    if (d.unit_id == "BA" && d.text.rfind("shoot R3", 0) == 0) {
      EXPECT_EQ(d.text, "shoot R3 -1");
      EXPECT_TRUE(d.dashed);
    }
  }
  int shots = 0;
  for (const auto& u : f.report["units"])
    for (const auto& w : u["shooting"]) shots += static_cast<int>(w["targets"].size());
  EXPECT_EQ(shot_arrows, shots);
  EXPECT_GT(shots, 0);
  EXPECT_TRUE(UnitOf(f, "RC")["one_inch"]["flagged"].get<bool>());
  EXPECT_FALSE(UnitOf(f, "B4")["one_inch"]["flagged"].get<bool>());  // halted
  EXPECT_TRUE(UnitOf(f, "R1")["counter_charges"][0]["chargeable"].get<bool>());
  ASSERT_EQ(f.tests.size(), 1u);
  EXPECT_EQ(f.tests[0].kind, "nerve");
}

TEST(SampleScenes, ForKingOrEmpress) {
  const Findings f = MakeRuleset("fkoe")->Analyze(LoadScene(kScenes + "sample_fkoe.yaml"));
  EXPECT_EQ(UnitOf(f, "B1")["melee"][0]["total_modifier"], 3);
  EXPECT_EQ(UnitOf(f, "B4")["firing"]["total_modifier"], 1);
  EXPECT_FALSE(UnitOf(f, "B5")["firing"]["visible"].get<bool>());
  EXPECT_EQ(UnitOf(f, "BA")["firing"]["artillery"]["range"], "long");
  EXPECT_EQ(UnitOf(f, "R1")["morale"]["total"], -8);
  int tests = 0;
  for (const RequiredTest& t : f.tests) tests += t.unit == "R1" || t.unit == "R2";
  EXPECT_EQ(tests, 2);  // R1's 2 Disorder Markers; R2 if hit by BA at long range
}

TEST(SampleScenes, UnitStates) {
  const Findings f = MakeRuleset("states")->Analyze(LoadScene(kScenes + "sample_states.yaml"));
  EXPECT_EQ(UnitOf(f, "E")["state_after"], "shaken");
  EXPECT_EQ(UnitOf(f, "S")["state_after"], "routed");
  EXPECT_EQ(UnitOf(f, "A")["state_after"], "silenced");
  EXPECT_TRUE(UnitOf(f, "F")["firing"].get<bool>());
  EXPECT_TRUE(UnitOf(f, "L")["limbered"].get<bool>());
  const Scene s = LoadScene(kScenes + "sample_states.yaml");
  MoveRequest m;
  m.unit = "F";
  m.to = {700, 450, -90};
  EXPECT_FALSE(MakeRuleset("states")->CheckMove(s, m).legal);  // Firing: nothing else (seed 83)
  m.unit = "L";
  m.to = {900, 450, -90};
  EXPECT_TRUE(MakeRuleset("states")->CheckMove(s, m).legal);   // limbered artillery moves (seed 97)
}

// --- the neighbour search against every pair --------------------------------------------------------

TEST(UnitGrid, FindsWhatLookingAtEveryPairFinds) {
  SyntheticTableOptions o;
  o.units = 120;
  o.seed = 7;
  const Scene s = MakeSyntheticTable(o);
  ASSERT_GE(s.units.size(), 100u);
  EXPECT_TRUE(FindOverlaps(s).empty()) << "a synthetic table's bases never overlap";
  const UnitGrid grid(s);
  size_t longest = 0;
  for (double reach : {0.0, 2.0, 25.4, 240.0, 600.0}) {
    for (int i = 0; i < static_cast<int>(s.units.size()); ++i) {
      const std::vector<int> near = grid.Near(i, reach);
      // Exactly the units the one-pair test lists, in increasing index, short lists and long ones
      // (which are sorted another way).
      std::vector<int> listed;
      for (int j = 0; j < static_cast<int>(s.units.size()); ++j)
        if (grid.Lists(i, j, reach)) listed.push_back(j);
      ASSERT_EQ(near, listed) << i << " " << reach;
      longest = std::max(longest, near.size());
      for (int j = 0; j < static_cast<int>(s.units.size()); ++j) {
        if (j == i) continue;
        const double gap = geom::BaseToBase(Footprint(s.units[i]), Footprint(s.units[j])).distance_mm;
        EXPECT_NEAR(grid.Gap(i, j), gap, 1e-9);
        if (gap <= reach) {
          EXPECT_NE(std::find(near.begin(), near.end(), j), near.end()) << i << " " << j << " " << reach;
        }
      }
    }
  }
  EXPECT_GT(longest, 60u);
  for (geom::ArcModel model : {geom::ArcModel::kTotsk, geom::ArcModel::kCorner45, geom::ArcModel::kKow})
    for (int i = 0; i < 40; ++i)
      for (int j = 0; j < static_cast<int>(s.units.size()); ++j)
        if (j != i) {
          EXPECT_EQ(grid.ArcOf(i, j, model), geom::ArcOfBase(Footprint(s.units[i]), Footprint(s.units[j]), model));
        }
}

// The cells a long thin region (a line of sight's fan) can reach, row by row: never a unit whose centre
// lies within its radius and the reach of the box and of every edge's line, on the line itself too.
TEST(UnitGrid, CollectInRegionListsEveryUnitThatMayReachTheRegion) {
  SyntheticTableOptions o;
  o.units = 300;
  o.seed = 3;
  const Scene s = MakeSyntheticTable(o);
  const UnitGrid grid(s);
  const int n = static_cast<int>(s.units.size());
  size_t listed_total = 0, admitted_total = 0;
  for (int v = 0; v < n; v += 7)
    for (int t = 1; t < n; t += 11) {
      if (t == v) continue;
      const geom::Vec2 eye = geom::LeaderPoint(grid.FootprintOf(v));
      const kow::ReachRegion fan(kow::SightFan(eye, grid.FootprintOf(t)));
      geom::Vec2 lo = eye, hi = eye;
      for (const geom::Vec2& c : geom::Corners(grid.FootprintOf(t))) lo = lo.cwiseMin(c), hi = hi.cwiseMax(c);
      for (double reach : {0.0, 1.0, 30.0}) {
        std::vector<int> got;
        grid.CollectInRegion(lo, hi, fan.normals(), fan.offsets(), reach, &got);
        listed_total += got.size();
        for (int i = 0; i < n; ++i) {
          const geom::Vec2& c = grid.FootprintOf(i).centre_mm;
          const double r = grid.Radius(i) + reach;
          bool admitted = c.x() >= lo.x() - r && c.x() <= hi.x() + r && c.y() >= lo.y() - r && c.y() <= hi.y() + r;
          for (size_t k = 0; k < fan.normals().size(); ++k) admitted = admitted && fan.normals()[k].dot(c) <= fan.offsets()[k] + r;
          if (!admitted) continue;
          ++admitted_total;
          EXPECT_NE(std::find(got.begin(), got.end(), i), got.end()) << v << " " << t << " " << i << " " << reach;
        }
      }
    }
  // A unit's centre exactly its radius right of a square's right edge (on the widened line) is listed.
  for (int t = 1; t < n; t += 11) {
    const geom::Vec2& c = grid.FootprintOf(t).centre_mm;
    const double right = c.x() - grid.Radius(t);
    const geom::Vec2 lo(right - 200.0, c.y() - 100.0), hi(right, c.y() + 100.0);
    const kow::ReachRegion square({lo, {hi.x(), lo.y()}, hi, {lo.x(), hi.y()}});
    std::vector<int> got;
    grid.CollectInRegion(lo, hi, square.normals(), square.offsets(), 0.0, &got);
    EXPECT_NE(std::find(got.begin(), got.end(), t), got.end()) << t;
  }
  EXPECT_GT(admitted_total, 1000u);
  EXPECT_LT(listed_total, static_cast<size_t>(n) * 43 * 28 * 3 / 4) << "the thin fans read a fraction of the table";
}

TEST(UnitGrid, GeometryZonesOfControlEqualEveryPairsCheck) {
  SyntheticTableOptions o;
  o.units = 150;
  o.seed = 3;
  const Scene s = MakeSyntheticTable(o);
  const Findings f = MakeRuleset("geometry")->Analyze(s);
  for (const Unit& u : s.units) {
    std::vector<std::string> zoc;
    for (const Unit& e : s.units)
      if (e.side != u.side && geom::InCorridor(Footprint(e), geom::Edge::kFront, s.BwFor(e), Footprint(u)).inside) zoc.push_back(e.id);
    EXPECT_EQ(UnitOf(f, u.id)["zoc_of"].get<std::vector<std::string>>(), zoc) << u.id;
  }
}

// Kings of War lists exactly the charges in reach (or missing it by less than an inch) that checking
// every pair of enemies with kow::CheckCharge finds, with the same verdicts.
TEST(UnitGrid, KowChargesEqualEveryPairsCheck) {
  SyntheticTableOptions o;
  o.units = 40;
  o.seed = 11;
  const Scene s = MakeSyntheticTable(o);
  const kow::KowConfig c = kow::LoadKowConfig(std::string(VEDETTE_ASSETS_DIR) + "/rulesets/kow.yaml");
  const Findings f = MakeRuleset("kow")->Analyze(s);
  int compared = 0;
  for (const Unit& u : s.units) {
    const kow::Profile p = kow::ProfileOf(u, c);
    if (!p.speed_in || c.cannot_charge.count(std::string(ToString(u.type)))) continue;
    const double listed_mm = (c.charge_range_factor * *p.speed_in + c.near_miss_in) * c.mm_per_unit;
    std::map<std::string, bool> expected;
    for (const Unit& t : s.units) {
      if (t.side == u.side) continue;
      const geom::Base ub = Footprint(u), tb = Footprint(t);
      if (geom::ArcSharesOf(ub, tb, geom::ArcModel::kKow)[geom::Arc::kFront] <= 1e-9) continue;
      if (geom::LeaderToBase(ub, tb).distance_mm > listed_mm + 1e-9) continue;
      expected[t.id] = kow::CheckCharge(s, c, u, t).chargeable;
    }
    std::map<std::string, bool> got;
    const nlohmann::json report = UnitOf(f, u.id);
    for (const auto& ch : report["charges"]) got[ch["target"].get<std::string>()] = ch["chargeable"].get<bool>();
    EXPECT_EQ(got, expected) << u.id;
    compared += static_cast<int>(expected.size());
  }
  EXPECT_GT(compared, 10);
}

// --- the frame path -------------------------------------------------------------------------------

// The scenes a ruleset is tried on: every sample scene of the assets (whichever ruleset it was written
// for: they are tables all the same, declarations aside) and a synthetic battle of 60 units.
std::vector<std::pair<std::string, Scene>> FramePathScenes(const std::string& ruleset) {
  std::vector<std::pair<std::string, Scene>> out;
  const std::string own = ruleset == "geometry" ? "totsk" : ruleset;
  for (const std::string& name : {"sample_" + own + ".yaml", std::string("totsk_small_table.yaml")})
    out.emplace_back(name, LoadScene(kScenes + name));
  if (ruleset == "totsk") out.emplace_back("sample_totsk_after_combat.yaml", LoadScene(kScenes + "sample_totsk_after_combat.yaml"));
  SyntheticTableOptions o;
  o.units = 60;
  o.seed = 5;
  out.emplace_back("synthetic 60", MakeSyntheticTable(o));
  return out;
}

TEST(FramePath, DrawsAndTestsWhatAnalyzeDoesWithoutTheWords) {
  for (const std::string& name : RulesetNames()) {
    for (const auto& [scene_name, scene] : FramePathScenes(name)) {
      const Findings full = MakeRuleset(name)->Analyze(scene);
      const Findings frame = MakeRuleset(name)->Analyze(scene, kFramePath);
      ASSERT_FALSE(full.drawing.empty()) << name << " " << scene_name;
      EXPECT_EQ(DrawingAndTests(frame), DrawingAndTests(full)) << name << " " << scene_name;
      EXPECT_TRUE(frame.text.empty()) << name << " " << scene_name;
      EXPECT_TRUE(frame.report.is_null()) << name << " " << scene_name;
      EXPECT_FALSE(full.text.empty()) << name << " " << scene_name;
      EXPECT_TRUE(full.report.contains("units")) << name << " " << scene_name;
      // Each alone: the text without the report and the report without the text are the full ones.
      const Findings text = MakeRuleset(name)->Analyze(scene, {.text = true, .report = false});
      const Findings report = MakeRuleset(name)->Analyze(scene, {.text = false, .report = true});
      EXPECT_EQ(text.text, full.text) << name << " " << scene_name;
      EXPECT_TRUE(text.report.is_null()) << name << " " << scene_name;
      EXPECT_EQ(report.report, full.report) << name << " " << scene_name;
      EXPECT_TRUE(report.text.empty()) << name << " " << scene_name;
    }
  }
}

// `vedette analyze` and a game's final report show no picture: asked without it, every ruleset gives
// the same words, and TotSK (whose picture was an eighth of its text's cost) leaves it out.
TEST(FramePath, WordsWithoutThePictureAreTheWordsWithIt) {
  for (const std::string& name : RulesetNames()) {
    auto scenes = FramePathScenes(name);
    // And two bases overlapping, which every ruleset reports and draws.
    Scene overlap = scenes.back().second;
    overlap.units[1].pose = overlap.units[0].pose;
    overlap.units[1].pose->x_mm += 5.0;
    scenes.emplace_back("synthetic 60, an overlap", overlap);
    for (const auto& [scene_name, scene] : scenes) {
      const Findings full = MakeRuleset(name)->Analyze(scene);
      const Findings words = MakeRuleset(name)->Analyze(scene, {.text = true, .report = true, .picture = false});
      EXPECT_EQ(words.text, full.text) << name << " " << scene_name;
      EXPECT_EQ(words.report, full.report) << name << " " << scene_name;
      if (scene_name.find("overlap") != std::string::npos) {
        EXPECT_NE(full.text.find("OVERLAP"), std::string::npos) << name;
      }
      if (name == "totsk") {
        EXPECT_TRUE(words.drawing.empty()) << scene_name;
        EXPECT_TRUE(words.tests.empty()) << scene_name;
      }
    }
  }
}

// Every ruleset marks the routed units on the picture (`routed: true`, or `state: routed` as the
// state menu sets it), and only those, whatever else the other units declare.
TEST(FramePath, TheRoutedUnitsAndOnlyThoseCarryTheRoutedMark) {
  SyntheticTableOptions o;
  o.units = 60;
  o.seed = 7;
  Scene s = MakeSyntheticTable(o);
  std::set<std::string> routed;
  for (size_t i = 0; i < s.units.size(); ++i) {
    const Unit& u = s.units[i];
    if (!u.pose || i % 4 == 3) continue;
    auto& d = s.declarations.units[u.id];
    if (i % 4 == 0) d["routed"] = Declared{true, 0}, routed.insert(u.id);
    else if (i % 4 == 1 && u.type == UnitType::kInfantry) d["state"] = Declared{"routed", 0}, routed.insert(u.id);  // a state guns lack
    else d["routed"] = Declared{false, 0};
  }
  ASSERT_GT(routed.size(), 20u);
  for (const std::string& name : RulesetNames()) {
    std::set<std::string> marked;
    for (const DrawPrimitive& p : MakeRuleset(name)->Analyze(s, kFramePath).drawing)
      if (p.kind == DrawKind::kGlyph && p.glyph == Glyph::kRouted) marked.insert(p.unit_id);
    EXPECT_EQ(marked, routed) << name;
  }
}

// Kings of War keeps each unit's findings between calls: a chunk made for the frame path (no words)
// must not answer a call that asks for them, and one made with words serves the frame path.
TEST(FramePath, KowReuseGivesTheWordsAskedForWhateverTheLastCallAsked) {
  SyntheticTableOptions o;
  o.units = 60;
  o.seed = 9;
  Scene s = MakeSyntheticTable(o);
  const Findings fresh = MakeRuleset("kow")->Analyze(s);
  const auto kept = MakeRuleset("kow");
  const Findings first = kept->Analyze(s, kFramePath);
  const Findings full = kept->Analyze(s);
  EXPECT_EQ(full.text, fresh.text);
  EXPECT_EQ(full.report, fresh.report);
  EXPECT_EQ(DrawingAndTests(first), DrawingAndTests(fresh));
  const Findings again = kept->Analyze(s, kFramePath);
  EXPECT_EQ(DrawingAndTests(again), DrawingAndTests(fresh));
  EXPECT_TRUE(again.text.empty());
  // One unit moves between calls: the words follow it.
  s.units[7].pose->x_mm += 25.0;
  kept->Analyze(s, kFramePath);
  s.units[7].pose->x_mm -= 25.0;
  kept->Analyze(s, {.text = true, .report = false});
  const Findings back = kept->Analyze(s);
  EXPECT_EQ(back.text, fresh.text);
  EXPECT_EQ(back.report, fresh.report);
  EXPECT_EQ(DrawingAndTests(back), DrawingAndTests(fresh));
}

}  // namespace
}  // namespace vedette
