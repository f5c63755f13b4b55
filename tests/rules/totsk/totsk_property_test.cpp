// Properties over many seeded random moves of the sample scene (assets/scenes/sample_totsk.yaml): the
// checker never throws, every legal move is within its allowance, tests come in the FAQ's order, and a
// straight move never needs more than the fire / second-move tests.
#include <gtest/gtest.h>

#include <random>

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

}  // namespace
}  // namespace vedette
