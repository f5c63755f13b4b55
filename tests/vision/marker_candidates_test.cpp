// Candidate quads: dark square outlines found by Vedette's own thresholding and outline fitting.
#include <gtest/gtest.h>

#include <algorithm>

#include <opencv2/imgproc.hpp>

#include "vision/marker_candidates.h"

namespace vedette::vision {
namespace {

// A grey (120) image with a white card (220) carrying a black square (30), drawn 8x supersampled so
// its edges sit where the corners say; corners clockwise on screen from the top-left.
cv::Mat SquareOnCard(const std::array<cv::Point2f, 4>& square, double card_scale = 1.6) {
  const int s = 8;
  cv::Mat big(300 * s, 400 * s, CV_8UC1, cv::Scalar(120));
  const cv::Point2f c = 0.25f * (square[0] + square[1] + square[2] + square[3]);
  std::vector<cv::Point> card, dark;
  for (const auto& p : square) {
    const cv::Point2f q = c + float(card_scale) * (p - c);
    card.emplace_back(int(std::lround((q.x + 0.5f) * s)), int(std::lround((q.y + 0.5f) * s)));
    dark.emplace_back(int(std::lround((p.x + 0.5f) * s)), int(std::lround((p.y + 0.5f) * s)));
  }
  cv::fillConvexPoly(big, card, cv::Scalar(220));
  cv::fillConvexPoly(big, dark, cv::Scalar(30));
  cv::Mat small;
  cv::resize(big, small, cv::Size(400, 300), 0, 0, cv::INTER_AREA);
  cv::GaussianBlur(small, small, cv::Size(0, 0), 0.8);
  return small;
}

// A square of side ~42 px turned by about 20 deg:
//      (200,90)
//   (160,105)    (215,130)      corners clockwise on screen from the top-left
//      (175,145)
TEST(FindMarkerCandidates, OutlinesATurnedSquareWithinAFractionOfAPixel) {
  const std::array<cv::Point2f, 4> truth = {cv::Point2f(160.3f, 104.6f), cv::Point2f(199.8f, 90.2f), cv::Point2f(214.2f, 129.7f),
                                            cv::Point2f(174.7f, 144.1f)};
  const cv::Mat image = SquareOnCard(truth);
  CandidateOptions o;
  o.min_side_px = 20;
  o.max_side_px = 80;
  o.passes = ThresholdPassesFor(o.min_side_px, 6);
  const std::vector<Quad> quads = FindMarkerCandidates(o, image);
  int matched = 0;
  for (const Quad& q : quads) {
    // Find which corner is the top-left one (order is clockwise, the start is free).
    for (int s = 0; s < 4; ++s) {
      double worst = 0;
      for (int i = 0; i < 4; ++i) worst = std::max(worst, double(cv::norm(q[(i + s) % 4] - truth[i])));
      if (worst < 0.8) {
        ++matched;
        const cv::Point2f a = q[1] - q[0], b = q[2] - q[0];
        EXPECT_GE(a.x * b.y - a.y * b.x, 0) << "clockwise on screen, as OpenCV orders candidates";
      }
    }
  }
  EXPECT_EQ(matched, 1) << quads.size() << " quads";
}

// Outlines outside [min, max] marker side are left out. The 12 px square sits on a 19 px card,
// whose outline also shows (the grey around a light card is dark against its mean).
TEST(FindMarkerCandidates, SideLimitsAreKept) {
  const std::array<cv::Point2f, 4> small = {cv::Point2f(100, 100), cv::Point2f(112, 100), cv::Point2f(112, 112), cv::Point2f(100, 112)};
  const cv::Mat image = SquareOnCard(small);
  CandidateOptions o;
  o.passes = {{5, 1, 0}};
  o.min_side_px = 8;
  o.max_side_px = 40;
  EXPECT_FALSE(FindMarkerCandidates(o, image).empty());
  // The limits apply to the side the candidate's corners give (12 px for the marker), with no
  // allowance: besides the marker, the card's edge outlines ~22-24 px quads of the grey table and
  // the 5 px box leaves the square's middle hollow, a ~9 px quad.
  auto mean_side = [](const Quad& q) {
    return 0.25 * (cv::norm(q[1] - q[0]) + cv::norm(q[2] - q[1]) + cv::norm(q[3] - q[2]) + cv::norm(q[0] - q[3]));
  };
  auto has_marker = [&](const std::vector<Quad>& found) {
    return std::any_of(found.begin(), found.end(), [&](const Quad& q) { return std::abs(mean_side(q) - 12) < 1; });
  };
  for (const auto& [lo, hi] : std::vector<std::pair<double, double>>{{4, 40}, {13, 40}, {4, 11}, {25, 40}, {10, 14}}) {
    o.min_side_px = lo, o.max_side_px = hi;
    const std::vector<Quad> found = FindMarkerCandidates(o, image);
    for (const Quad& q : found) {
      EXPECT_GE(mean_side(q), lo);
      EXPECT_LE(mean_side(q), hi);
    }
    EXPECT_EQ(has_marker(found), lo <= 12 && 12 <= hi) << "limits " << lo << "-" << hi;
  }
  o.min_side_px = 25;
  EXPECT_TRUE(FindMarkerCandidates(o, image).empty());
}

// One box of about 2.5 cells of the smallest marker; cells of 8 px or more are outlined on the
// half-size image with half the box.
TEST(ThresholdPassesFor, BoxFitsTheSmallestMarkersCells) {
  const auto small = ThresholdPassesFor(18, 6);  // 3 px cells: 2.5 * 3 + 1 = 8.5 -> 9
  ASSERT_EQ(small.size(), 1u);
  EXPECT_EQ(small[0].window_px, 9);
  EXPECT_EQ(small[0].scale, 1);
  const auto large = ThresholdPassesFor(60, 6);  // 10 px cells: 2.5 * 5 + 1 = 13.5 -> 15 on the half-size image
  ASSERT_EQ(large.size(), 1u);
  EXPECT_EQ(large[0].scale, 2);
  EXPECT_EQ(large[0].window_px % 2, 1);
  EXPECT_EQ(large[0].window_px, 15);
}

// An 11 px horizontal motion streak (a box kernel along x) over a 20 px square turned 30 degrees
// on its card: the box mean (the window ThresholdPassesFor gives a 6-cell marker of 10 px and up)
// cuts the smeared border in two halves, neither a quad. The mean pass reports both as unclosed;
// the mid-range threshold over their boxes (merged) outlines the square again. (Streaks up to 9 px
// the mean pass outlines itself.)
TEST(FindBlurredCandidates, OutlinesAMotionBlurredSquareTheMeanThresholdBreaks) {
  const float c = 0.8660254f, s = 0.5f, h = 10.0f;
  const cv::Point2f m(150.3f, 120.6f);
  auto at = [&](float x, float y) { return m + cv::Point2f(c * x - s * y, s * x + c * y); };
  const cv::Mat sharp = SquareOnCard({at(-h, -h), at(h, -h), at(h, h), at(-h, h)}, 1.5);
  cv::Mat image;
  cv::blur(sharp, image, cv::Size(11, 1));
  CandidateOptions o;
  o.min_side_px = 10;
  o.max_side_px = 60;
  o.passes = ThresholdPassesFor(o.min_side_px, 6);
  auto finds_square = [&](const std::vector<Quad>& found) {
    return std::any_of(found.begin(), found.end(),
                       [&](const Quad& q) { return cv::norm(0.25f * (q[0] + q[1] + q[2] + q[3]) - m) < 1.0; });
  };
  std::vector<cv::Rect> unclosed;
  EXPECT_FALSE(finds_square(FindMarkerCandidates(o, image, &unclosed)));
  ASSERT_FALSE(unclosed.empty());
  for (const cv::Rect& r : unclosed) EXPECT_LT(cv::norm(cv::Point2f(r.x + r.width / 2.f, r.y + r.height / 2.f) - m), 20.0);
  EXPECT_TRUE(finds_square(FindBlurredCandidates(o, MidRangeOptions{}, image, unclosed)));
  // Nothing unclosed, nothing looked at; and on the sharp image the mean pass outlines the square.
  EXPECT_TRUE(FindBlurredCandidates(o, MidRangeOptions{}, image, {}).empty());
  unclosed.clear();
  EXPECT_TRUE(finds_square(FindMarkerCandidates(o, sharp, &unclosed)));
}

TEST(MidRangeOptions, CheckNamesTheProblem) {
  MidRangeOptions m;
  std::string error;
  EXPECT_TRUE(m.Check(&error)) << error;
  m.window_px = 12;
  EXPECT_FALSE(m.Check(&error));
  EXPECT_NE(error.find("window_px"), std::string::npos);
  m.window_px = 13;
  m.min_range = 300;
  EXPECT_FALSE(m.Check(&error));
}

TEST(CandidateOptions, CheckNamesTheProblem) {
  CandidateOptions o;
  std::string error;
  EXPECT_TRUE(o.Check(&error)) << error;
  o.passes = {{8, 1, 0}};
  EXPECT_FALSE(o.Check(&error));
  EXPECT_NE(error.find("odd"), std::string::npos);
  o.passes = {{9, 3, 0}};
  EXPECT_FALSE(o.Check(&error));
  EXPECT_NE(error.find("scale"), std::string::npos);
  o.passes.clear();
  EXPECT_FALSE(o.Check(&error));
}


// The one-pass threshold must give the image cv::blur, cv::add and cv::compare give, pixel for pixel:
// every box size the passes use (both paths: boxes of up to 256 px, and larger ones through cv::blur),
// images narrower and shorter than the box, noise and smooth shading.
TEST(MeanThreshold, IsTheBoxFiltersImageToThePixel) {
  cv::RNG rng(21);
  for (const cv::Size size : {cv::Size(1, 1), cv::Size(5, 3), cv::Size(9, 40), cv::Size(37, 29), cv::Size(640, 360)})
    for (int window : {3, 5, 7, 9, 11, 13, 15, 17, 23})
      for (double offset : {0.0, 7.0, 13.5, 30.0, 255.0})
        for (int kind = 0; kind < 3; ++kind) {
          cv::Mat gray(size, CV_8UC1);
          rng.fill(gray, cv::RNG::UNIFORM, 0, 256);
          if (kind == 1) cv::GaussianBlur(gray, gray, cv::Size(0, 0), 2.0);
          if (kind == 2) gray = gray / 8 + 120;  // flat: sums near the rounding steps
          cv::Mat mean, lifted, expected;
          cv::blur(gray, mean, cv::Size(window, window), cv::Point(-1, -1), cv::BORDER_REPLICATE);
          cv::add(gray, cv::Scalar(offset), lifted);
          cv::compare(lifted, mean, expected, cv::CMP_LT);
          const cv::Mat got = MeanThreshold(gray, window, offset);
          ASSERT_EQ(cv::countNonZero(got != expected), 0)
              << size << " window " << window << " offset " << offset << " kind " << kind;
        }
}

}  // namespace
}  // namespace vedette::vision
