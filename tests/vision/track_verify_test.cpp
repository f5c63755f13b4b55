// The tracker's bit check (vision/track_verify.h) on a synthetic marker whose corners are known
// exactly (tests/vision/synthetic_marker.h).
#include <gtest/gtest.h>

#include <opencv2/imgproc.hpp>

#include "calibration/dictionary.h"
#include "vision/bilinear.h"
#include "tests/vision/synthetic_marker.h"
#include "vision/track_verify.h"

namespace vedette::vision {
namespace {

using testing::Draw;
using testing::Synthetic;

TEST(MarkerBits, CellsGivenOrLookedUpAgree) {
  const Synthetic s = Draw(20.0);
  const cv::aruco::Dictionary dict = cv::aruco::getPredefinedDictionary(cv::aruco::DICT_4X4_50);
  const BitCheck by_id = CheckMarkerBits(s.gray, s.corners, dict, 7);
  const BitCheck by_cells = CheckMarkerBits(s.gray, s.corners, calib::MarkerCells(dict, 7));
  EXPECT_EQ(by_id.errors, 0);
  EXPECT_EQ(by_cells.errors, 0);
  EXPECT_NEAR(by_id.contrast, by_cells.contrast, 1e-9);
  EXPECT_GT(by_cells.contrast, 150);  // light 230 - dark 30, a little blur
  // Another marker's code disagrees in several cells.
  EXPECT_GT(CheckMarkerBits(s.gray, s.corners, calib::MarkerCells(dict, 8)).errors, 1);
  // The same check on the colour image (GreyAt's path).
  cv::Mat bgr;
  cv::cvtColor(s.gray, bgr, cv::COLOR_GRAY2BGR);
  EXPECT_EQ(CheckMarkerBits(bgr, s.corners, calib::MarkerCells(dict, 7)).errors, 0);
}

// The check's cell means through cv::getPerspectiveTransform, as it was written before the closed-form
// map: the reference the fast path must agree with.
std::vector<double> ReferenceMeans(const cv::Mat& gray, const std::array<cv::Point2f, 4>& c, int n, bool* inside) {
  const cv::Point2f src[4] = {{0, 0}, {float(n), 0}, {float(n), float(n)}, {0, float(n)}};
  const cv::Matx33d h = cv::getPerspectiveTransform(src, c.data());
  std::vector<double> v;
  *inside = true;
  for (int r = 0; r < n; ++r)
    for (int col = 0; col < n; ++col) {
      double sum = 0;
      for (int s = 0; s < 4; ++s) {
        const double u = col + 0.5 + ((s & 1) ? 0.2 : -0.2), w = r + 0.5 + ((s & 2) ? 0.2 : -0.2);
        const double z = h(2, 0) * u + h(2, 1) * w + h(2, 2);
        double g = 0;
        *inside = *inside && SampleBilinear(gray, (h(0, 0) * u + h(0, 1) * w + h(0, 2)) / z, (h(1, 0) * u + h(1, 1) * w + h(1, 2)) / z, &g);
        sum += g;
      }
      v.push_back(sum / 4);
    }
  return v;
}

// On random quads (turned, in perspective, some leaving the image) over noise, the check gives the
// reference's contrast and cell errors, and is not checkable exactly where a sample leaves the image.
TEST(MarkerBits, ClosedFormMapAgreesWithPerspectiveTransform) {
  cv::RNG rng(31);
  cv::Mat gray(80, 90, CV_8U);
  rng.fill(gray, cv::RNG::UNIFORM, 0, 256);
  cv::GaussianBlur(gray, gray, cv::Size(5, 5), 1.5);
  cv::Mat cells(6, 6, CV_8U);
  int checked = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    rng.fill(cells, cv::RNG::UNIFORM, 0, 2);
    cells *= 255;
    const cv::Point2f centre(rng.uniform(0.f, 90.f), rng.uniform(0.f, 80.f));
    const float side = rng.uniform(8.f, 40.f), turn = rng.uniform(0.f, 6.3f);
    std::array<cv::Point2f, 4> q;
    for (int i = 0; i < 4; ++i) {
      const float a = turn + float(i) * 1.5708f, r = side * 0.7071f * rng.uniform(0.8f, 1.2f);
      q[i] = centre + cv::Point2f(r * std::cos(a), r * std::sin(a));
    }
    bool inside = false;
    const std::vector<double> v = ReferenceMeans(gray, q, 6, &inside);
    const BitCheck got = CheckMarkerBits(gray, q, cells, 0.0);
    if (!inside) {
      EXPECT_EQ(got.errors, -1) << "trial " << trial;
      continue;
    }
    double white = 0, black = 0;
    int nw = 0, nb = 0;
    for (int i = 0; i < 36; ++i) (cells.data[i] ? white : black) += v[i], ++(cells.data[i] ? nw : nb);
    if (nw == 0 || nb == 0) continue;
    const double contrast = white / nw - black / nb, mid = 0.5 * (white / nw + black / nb);
    if (contrast < 0) continue;
    // The 8 x 8 solve puts samples a few 1e-9 px from the closed form's: equal to 1e-5 grey levels.
    int errors = 0;
    bool on_threshold = false;
    for (int i = 0; i < 36; ++i) {
      errors += (v[i] > mid) != (cells.data[i] != 0);
      on_threshold = on_threshold || std::abs(v[i] - mid) < 1e-5;
    }
    if (on_threshold) continue;
    ++checked;
    EXPECT_NEAR(got.contrast, contrast, 1e-5) << "trial " << trial;
    EXPECT_EQ(got.errors, errors) << "trial " << trial;
  }
  EXPECT_GT(checked, 300);
}

}  // namespace
}  // namespace vedette::vision
