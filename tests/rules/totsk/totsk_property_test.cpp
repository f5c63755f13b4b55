// Properties over many seeded random moves of the sample scene (assets/scenes/sample_totsk.yaml): the
// checker never throws, every legal move is within its allowance, tests come in the FAQ's order, and a
// straight move never needs more than the fire / second-move tests.
#include <gtest/gtest.h>

#include <random>

#include "rules/totsk/totsk_analysis.h"
#include "rules/totsk/totsk_geometry.h"
#include "tests/rules/totsk/totsk_test_util.h"

namespace vedette {
namespace {

using namespace totsk_test;

TEST(TotskMoveProperties, RandomMovesOfTheSampleScene) {
  const Scene s = LoadScene(AssetsDir() + "/scenes/sample_totsk.yaml");
  const auto ruleset = Totsk();
  std::mt19937 rng(20221201);
  std::uniform_real_distribution<double> dxy(-200.0, 200.0), dh(-180.0, 180.0), coin(0.0, 1.0);
  const std::vector<std::string> order = {"under_fire", "second_move"};
  int legal = 0;
  for (int i = 0; i < 400; ++i) {
    const Unit& u = s.units[i % s.units.size()];
    MoveRequest m;
    m.unit = u.id;
    const bool straight = coin(rng) < 0.3;
    const double h = straight ? u.pose->heading_deg : u.pose->heading_deg + dh(rng);
    const geom::Vec2 fwd = geom::HeadingVector(u.pose->heading_deg);
    const double step = dxy(rng);
    m.to = straight ? Pose{u.pose->x_mm + fwd.x() * step, u.pose->y_mm + fwd.y() * step, h}
                    : Pose{u.pose->x_mm + dxy(rng), u.pose->y_mm + dxy(rng), h};
    m.second_move = coin(rng) < 0.2;
    MoveCheck c;
    ASSERT_NO_THROW(c = ruleset->CheckMove(s, m)) << u.id;
    ASSERT_TRUE(c.supported);
    if (!c.legal) {
      EXPECT_FALSE(c.illegal_reason.empty());
      continue;
    }
    ++legal;
    const double bw = s.BwFor(u);
    EXPECT_LE(c.report["distance_mm"].get<double>(), c.report["allowance_bw"].get<double>() * bw + 1.0 + 0.05)
        << c.report.dump();
    // Tests before the move's own come first, fire before the second move.
    int last = -1;
    for (const auto& t : c.report["tests"]) {
      const std::string a = t["action"].get<std::string>();
      const int rank = a == "under_fire" ? 0 : (a == "second_move" || a == "second_move_qrs_im") ? 1 : 2;
      EXPECT_GE(rank, last) << c.report.dump();
      last = rank;
      const double p = t["p_success"].get<double>();
      EXPECT_TRUE(p >= 0.0 && p <= 1.0);
    }
    if (straight && step > 2.0 && c.kinds.size() == 1 && c.kinds[0] == "straight_ahead")
      for (const auto& t : c.report["tests"]) {
        const std::string a = t["action"].get<std::string>();
        EXPECT_TRUE(a == "under_fire" || a == "second_move" || a == "bad_going") << "straight ahead needs " << a;
      }
  }
  EXPECT_GT(legal, 20);  // the generator is not all illegal
}

// Judging a move analyses the mover alone (AnalyzeTotskUnit); what it reads must be exactly what the
// whole-table analysis says: crowded random tables of three copies of the sample army plus
// generals, with declared targets, failed tests, bonus moves and pivoted guns.
TEST(TotskGeometryProperties, SegmentWithinAnswersAsSegmentToPolygon) {
  // A flank edge against random bases near it, the limit far from the distance and within
  // nanometres of it on both sides: the shortcut's answer is the exact comparison's every time.
  std::mt19937 rng(31);
  std::uniform_real_distribution<double> xy(-120.0, 120.0), deg(-180.0, 180.0), size(10.0, 60.0);
  int by_corner = 0;
  for (int n = 0; n < 3000; ++n) {
    const geom::Segment flank{{xy(rng), xy(rng)}, {xy(rng), xy(rng)}};
    const auto quad = geom::CornersCcw(geom::Base{{xy(rng), xy(rng)}, deg(rng), size(rng), size(rng)});
    const double d = totsk::SegmentToPolygon(flank, quad);
    for (double off : {-30.0, -1e-6, -1e-10, 0.0, 1e-10, 1e-6, 30.0}) {
      ASSERT_EQ(totsk::SegmentWithin(flank, quad, d + off), d <= d + off) << n << " " << off;
    }
    for (const geom::Vec2& c : quad) by_corner += geom::PointToSegment(c, flank).distance_mm <= d + 30.0 - 1e-9;
  }
  EXPECT_GT(by_corner, 1000);  // the shortcut answered often enough to be tested
}

TEST(TotskAnalysisProperties, OneUnitAnalysisEqualsTheWholeTables) {
  const Scene sample = LoadScene(AssetsDir() + "/scenes/sample_totsk.yaml");
  const totsk::TotskData data = totsk::LoadTotskData(AssetsDir() + "/rulesets/totsk.yaml");
  std::mt19937 rng(77);
  std::uniform_real_distribution<double> x(0.0, 500.0), y(0.0, 380.0), h(-180.0, 180.0), coin(0.0, 1.0);
  int compared = 0, with_zoc = 0, with_tests = 0, with_two_guns = 0;
  for (const char* ruleset_settings : {"faq", "qrs"}) {
    const totsk::TotskSettings settings =
        totsk::ParseTotskSettings(std::string(ruleset_settings) == "qrs" ? std::map<std::string, std::string>{{"rules", "qrs"}}
                                                                         : std::map<std::string, std::string>{},
                                  "settings");
    for (int trial = 0; trial < 25; ++trial) {
      Scene s = sample;
      s.units.clear();
      for (int copy = 0; copy < 3; ++copy)
        for (Unit u : sample.units) {
          u.id += "_" + std::to_string(copy);
          if (copy == 2 && u.type == UnitType::kCavalry) u.type = UnitType::kGeneral;
          u.pose = Pose{x(rng), y(rng), h(rng)};
          s.units.push_back(u);
        }
      std::vector<std::string> ids;
      for (const Unit& u : s.units) ids.push_back(u.id);
      for (const Unit& u : s.units) {
        auto& d = s.declarations.units[u.id];
        if (coin(rng) < 0.3) d["target"] = Declared{ids[size_t(coin(rng) * ids.size()) % ids.size()], 1};
        if (coin(rng) < 0.3) d["failed_morale"] = Declared{true, 1};
        if (coin(rng) < 0.1) d["bonus_move"] = Declared{true, 1};
        if (u.type == UnitType::kArtillery && coin(rng) < 0.2) d["pivoted"] = Declared{true, 1};
      }
      const totsk::TotskAnalysis whole = totsk::AnalyzeTotsk(data, settings, s);
      for (const Unit& u : s.units) {
        const totsk::TotskAnalysis one = totsk::AnalyzeTotskUnit(data, settings, s, u.id);
        ASSERT_EQ(one.units.size(), 1u);
        const totsk::UnitAnalysis* w = whole.Find(u.id);
        ASSERT_NE(w, nullptr);
        const totsk::UnitAnalysis& o = one.units[0];
        SCOPED_TRACE(std::string(ruleset_settings) + " trial " + std::to_string(trial) + " unit " + u.id);
        EXPECT_EQ(o.zoc_of, w->zoc_of);
        ASSERT_EQ(o.action_tests.size(), w->action_tests.size());
        for (size_t i = 0; i < o.action_tests.size(); ++i) {
          const totsk::ActionTest &a = o.action_tests[i], &b = w->action_tests[i];
          EXPECT_EQ(a.key, b.key);
          EXPECT_EQ(a.by, b.by);
          EXPECT_EQ(a.need, b.need);
          EXPECT_EQ(a.test.total, b.test.total);
          EXPECT_EQ(a.test.odds, b.test.odds);
          ASSERT_EQ(a.test.modifiers.size(), b.test.modifiers.size());
          for (size_t j = 0; j < a.test.modifiers.size(); ++j) {
            EXPECT_EQ(a.test.modifiers[j].rule, b.test.modifiers[j].rule);
            EXPECT_EQ(a.test.modifiers[j].value, b.test.modifiers[j].value);
            EXPECT_EQ(a.test.modifiers[j].by, b.test.modifiers[j].by);
          }
          with_two_guns += b.by.size() > 1;
        }
        ++compared;
        with_zoc += !w->zoc_of.empty();
        with_tests += !w->action_tests.empty();
      }
    }
  }
  // The tables are crowded enough that both answers are often non-trivial.
  EXPECT_GT(with_zoc, compared / 20) << compared << " units compared";
  EXPECT_GT(with_tests, compared / 20) << compared << " units compared";
  EXPECT_GT(with_two_guns, 0);
  EXPECT_TRUE(totsk::AnalyzeTotskUnit(data, totsk::ParseTotskSettings({}, "settings"), sample, "nobody").units.empty());
}

}  // namespace
}  // namespace vedette
