// Arcs under the three models, by hand, and the "behind a line" measurements TotSK's flanking uses.
#include <gtest/gtest.h>

#include <cmath>

#include "rules/geometry/arcs.h"
#include "tests/rules/geometry/geometry_test_util.h"

namespace vedette::geom {
namespace {

// Unit U: 40 x 20 at the origin facing +y (heading 90). Half sizes w = 20, d = 10.
//
//            front (y > 10)
//     +-------------------+
//  L  |        U          |  R
//     +-------------------+
//            rear (y < -10)
using geometry_test::U;

TEST(Arcs, TotskJudgesAgainstEdgeLines) {
  EXPECT_EQ(ArcOfPoint(U, {0, 50}, ArcModel::kTotsk), Arc::kFront);
  EXPECT_EQ(ArcOfPoint(U, {-200, 11}, ArcModel::kTotsk), Arc::kFront);  // far out but ahead of the front line
  EXPECT_EQ(ArcOfPoint(U, {-200, 9}, ArcModel::kTotsk), Arc::kLeftFlank);
  EXPECT_EQ(ArcOfPoint(U, {30, 0}, ArcModel::kTotsk), Arc::kRightFlank);
  EXPECT_EQ(ArcOfPoint(U, {300, -11}, ArcModel::kTotsk), Arc::kRear);
}

TEST(Arcs, Corner45UsesDiagonalsOutOfCorners) {
  // Beyond the front-left corner (-20, 10): on the 45 degree line y - 10 = -(x + 20).
  EXPECT_EQ(ArcOfPoint(U, {-30, 21}, ArcModel::kCorner45), Arc::kFront);
  EXPECT_EQ(ArcOfPoint(U, {-30, 19}, ArcModel::kCorner45), Arc::kLeftFlank);
  EXPECT_EQ(ArcOfPoint(U, {-30, 20}, ArcModel::kCorner45), Arc::kLeftFlank);  // on the line: flank
  EXPECT_EQ(ArcOfPoint(U, {50, -45}, ArcModel::kCorner45), Arc::kRear);
}

TEST(Arcs, KowUsesLinesThroughCentreAndCorners) {
  // Diagonal through (20, 10): slope 1/2. (40, 21) is just in front of it, (40, 19) just beside.
  EXPECT_EQ(ArcOfPoint(U, {40, 21}, ArcModel::kKow), Arc::kFront);
  EXPECT_EQ(ArcOfPoint(U, {40, 19}, ArcModel::kKow), Arc::kRightFlank);
  EXPECT_EQ(ArcOfPoint(U, {40, 20}, ArcModel::kKow), Arc::kFront);  // on the line: front
  EXPECT_EQ(ArcOfPoint(U, {-40, -21}, ArcModel::kKow), Arc::kRear);
}

TEST(Arcs, InsideTheBaseNearestEdge) {
  EXPECT_EQ(ArcOfPoint(U, {0, 9}, ArcModel::kTotsk), Arc::kFront);
  EXPECT_EQ(ArcOfPoint(U, {-19, 0}, ArcModel::kCorner45), Arc::kLeftFlank);
  EXPECT_EQ(ArcOfPoint(U, {0, -9}, ArcModel::kCorner45), Arc::kRear);
}

TEST(Arcs, RegionsAgreeWithPointClassification) {
  for (ArcModel model : {ArcModel::kTotsk, ArcModel::kCorner45, ArcModel::kKow}) {
    const Base b{{12, -7}, 33, 40, 24};
    for (int i = -30; i <= 30; ++i) {
      for (int j = -30; j <= 30; ++j) {
        const Vec2 p(12 + i * 3.1 + 0.05, -7 + j * 2.9 + 0.05);
        const Arc arc = ArcOfPoint(b, p, model);
        bool inside = false;
        for (const Polygon& piece : ArcRegion(b, arc, model, 1000)) inside |= PolygonContains(piece, p, 1e-6);
        EXPECT_TRUE(inside) << "model " << ToString(model) << ": point (" << p.x() << ", " << p.y()
                            << ") classified " << ToString(arc) << " but outside that region";
      }
    }
  }
}

TEST(Arcs, ArcOfBaseByLargestShare) {
  // Enemy 40 x 20 to U's left, straddling the front line: 3/4 of it behind the front line.
  const Base e{{-60, 5}, 0, 40, 20};  // facing +x: width along y (from -15 to 25), depth along x
  const ArcShares s = ArcSharesOf(U, e, ArcModel::kTotsk);
  EXPECT_NEAR(s[Arc::kFront], 15.0 / 40.0, 1e-9);
  EXPECT_NEAR(s[Arc::kLeftFlank], 20.0 / 40.0, 1e-9);
  EXPECT_NEAR(s[Arc::kRear], 5.0 / 40.0, 1e-9);
  EXPECT_EQ(ArcOfBase(U, e, ArcModel::kTotsk), Arc::kLeftFlank);
}

// TotSK FAQ "Flanking units": an enemy BW entirely behind the front line. Enemy frontage (its front
// edge, 40 mm) lies along x = -40 from y = 25 down to y = -15; U's front line is y = 10.
// One arc's share is the very number the four shares give it, under every model, for bases wholly in
// one arc, straddling arcs, and overlapping the unit (Kings of War asks for the front share alone).
TEST(Arcs, OneArcsShareIsTheSameNumberAsAmongAllFour) {
  const Base unit{{0, 0}, 90, 40, 20};
  int straddling = 0;
  for (ArcModel model : {ArcModel::kTotsk, ArcModel::kCorner45, ArcModel::kKow})
    for (int i = 0; i < 400; ++i) {
      // A deterministic spread of places and headings round the unit, near and far.
      const double a = 0.37 * i, r = 5.0 + (i % 23) * 6.0;
      const Base other{{r * std::cos(a), r * std::sin(a)}, 17.0 * i, 30.0 + i % 3 * 10.0, 15.0 + i % 2 * 10.0};
      const ArcShares all = ArcSharesOf(unit, other, model);
      int in = 0;
      for (Arc arc : {Arc::kFront, Arc::kLeftFlank, Arc::kRightFlank, Arc::kRear}) {
        EXPECT_EQ(ArcShareOf(unit, other, arc, model), all[arc]) << i << " " << ToString(arc);
        in += all[arc] > 1e-9;
      }
      straddling += in > 1;
    }
  EXPECT_GT(straddling, 100);
}

TEST(Arcs, FrontageBehindFrontLine) {
  const Base e{{-50, 5}, 0, 40, 20};  // front edge at x = -40
  EXPECT_NEAR(FrontageBeyond(e, BehindFrontLine(U)), 25.0, 1e-9);  // y from 10 down to -15
  EXPECT_FALSE(EntirelyBeyond(e, BehindFrontLine(U)));
  const Base e2{{-50, -15}, 0, 40, 20};  // y from -35 to 5: wholly behind
  EXPECT_NEAR(FrontageBeyond(e2, BehindFrontLine(U)), 40.0, 1e-9);
  EXPECT_TRUE(EntirelyBeyond(e2, BehindFrontLine(U)));
  EXPECT_NEAR(FrontageBeyond(e2, BehindRearLine(U)), 0.0 + 25.0, 1e-9);  // y from -10 to -35
  EXPECT_TRUE(EntirelyBeyond(e2, OutsideLeftLine(U)));
  EXPECT_FALSE(EntirelyBeyond(e2, OutsideRightLine(U)));
}

TEST(Arcs, ParseAndPrint) {
  for (Arc a : {Arc::kFront, Arc::kLeftFlank, Arc::kRightFlank, Arc::kRear}) EXPECT_EQ(ParseArc(ToString(a)), a);
  for (ArcModel m : {ArcModel::kTotsk, ArcModel::kCorner45, ArcModel::kKow}) EXPECT_EQ(ParseArcModel(ToString(m)), m);
  EXPECT_FALSE(ParseArc("flank").has_value());
}

}  // namespace
}  // namespace vedette::geom
