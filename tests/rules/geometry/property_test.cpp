// Properties over random scenes: rigid motions of the whole table change nothing the rules measure;
// distances are symmetric; doubling every length (and the BW) leaves every BW figure unchanged.
#include <gtest/gtest.h>

#include <random>

#include "rules/geometry/arcs.h"
#include "rules/geometry/contact.h"
#include "rules/geometry/corridor.h"
#include "rules/geometry/distance.h"

namespace vedette::geom {
namespace {

// A base centred on a 300 x 300 mm table, any heading, width 15..60 mm, depth 7.5..30 mm.
Base RandomBaseOnTable(std::mt19937& rng) {
  std::uniform_real_distribution<double> pos(0, 300), ang(-180, 180), size(15, 60);
  return {{pos(rng), pos(rng)}, ang(rng), size(rng), size(rng) / 2};
}

Base Scaled(const Base& b, double s) { return {b.centre_mm * s, b.heading_deg, b.width_mm * s, b.depth_mm * s}; }

class GeometryProperties : public ::testing::TestWithParam<int> {};

TEST_P(GeometryProperties, RigidMotionSymmetryScale) {
  std::mt19937 rng(GetParam());
  std::uniform_real_distribution<double> ang(-180, 180), shift(-500, 500);
  const double bw = 40.0;
  for (int trial = 0; trial < 40; ++trial) {
    const Base a = RandomBaseOnTable(rng), b = RandomBaseOnTable(rng);
    const double angle = ang(rng);
    const Vec2 t(shift(rng), shift(rng));
    const Base ma = Transformed(a, angle, t), mb = Transformed(b, angle, t);
    const double d = BaseToBase(a, b).distance_mm;
    SCOPED_TRACE("a=(" + std::to_string(a.centre_mm.x()) + "," + std::to_string(a.centre_mm.y()) + "," +
                 std::to_string(a.heading_deg) + ") b=(" + std::to_string(b.centre_mm.x()) + "," +
                 std::to_string(b.centre_mm.y()) + "," + std::to_string(b.heading_deg) + ")");
    // Symmetry
    EXPECT_NEAR(d, BaseToBase(b, a).distance_mm, 1e-7);
    // Rigid motion
    EXPECT_NEAR(d, BaseToBase(ma, mb).distance_mm, 1e-7);
    EXPECT_NEAR(LeaderToBase(a, b).distance_mm, LeaderToBase(ma, mb).distance_mm, 1e-7);
    for (ArcModel model : {ArcModel::kTotsk, ArcModel::kCorner45, ArcModel::kKow}) {
      const ArcShares s = ArcSharesOf(a, b, model), ms = ArcSharesOf(ma, mb, model);
      for (Arc arc : {Arc::kFront, Arc::kLeftFlank, Arc::kRightFlank, Arc::kRear}) EXPECT_NEAR(s[arc], ms[arc], 1e-6);
      EXPECT_NEAR(s[Arc::kFront] + s[Arc::kLeftFlank] + s[Arc::kRightFlank] + s[Arc::kRear], 1.0, 1e-6);
    }
    const CorridorHit h = InCorridor(a, Edge::kFront, bw, b), mh = InCorridor(ma, Edge::kFront, bw, mb);
    EXPECT_EQ(h.inside, mh.inside);
    EXPECT_NEAR(h.reach_mm, mh.reach_mm, 1e-6);
    const Contact c = FindContact(a, b), mc = FindContact(ma, mb);
    EXPECT_EQ(c.in_contact, mc.in_contact);
    EXPECT_NEAR(FrontageBeyond(b, BehindFrontLine(a)), FrontageBeyond(mb, BehindFrontLine(ma)), 1e-7);
    // Scale: every length and the BW doubled, the BW figures stay.
    const Base sa = Scaled(a, 2), sb = Scaled(b, 2);
    EXPECT_NEAR(d / bw, BaseToBase(sa, sb).distance_mm / (2 * bw), 1e-9);
    const CorridorHit sh = InCorridor(sa, Edge::kFront, 2 * bw, sb, 1.0);
    const CorridorHit h1 = InCorridor(a, Edge::kFront, bw, b, 0.5);
    EXPECT_EQ(h1.inside, sh.inside);
    EXPECT_NEAR(h1.reach_mm / bw, sh.reach_mm / (2 * bw), 1e-9);
    EXPECT_NEAR(FrontageBeyond(b, BehindRearLine(a)) / bw, FrontageBeyond(sb, BehindRearLine(sa)) / (2 * bw), 1e-9);
    for (ArcModel model : {ArcModel::kTotsk, ArcModel::kCorner45, ArcModel::kKow})
      EXPECT_EQ(ArcOfBase(a, b, model), ArcOfBase(sa, sb, model));
  }
}

INSTANTIATE_TEST_SUITE_P(Seeds, GeometryProperties, ::testing::Range(1, 11));

}  // namespace
}  // namespace vedette::geom
