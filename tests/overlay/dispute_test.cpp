// Disputes on synthetic photographs: verdicts agree with the ground truth wherever the true margin
// exceeds three times the stated uncertainty, and say TOO_CLOSE_TO_CALL when the true margin is
// inside it; the stated uncertainty covers the actual distance error.
//
// The table (600 x 400 mm, 1280x720 webcam, about 2 px per mm, 16 mm markers) holds three pairs,
// each a blue unit facing +y and a red unit facing -y straight ahead of it, 40 x 30 mm bases:
//
//      R1          R2          R3         red fronts at y = 215 + gap
//      |  gap 40   |  gap 25   |  gap 58
//      A1          A2          A3         blue fronts at y = 215
//    x=150       x=300       x=450
//
// "within 1 BW" (40 mm): A1-R1 margin 0 (TOO CLOSE), A2-R2 YES by 15 mm, A3-R3 NO by 18 mm; every
// other rule the ruleset lists is checked against its truth the same way.
#include <cmath>
#include <cstdio>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <opencv2/imgcodecs.hpp>

#include "calibration/dictionary.h"
#include "rules/dispute.h"
#include "overlay/annotate.h"
#include "overlay/evidence.h"
#include "overlay/projection.h"
#include "overlay/still_image.h"
#include "rules/measure.h"
#include <fstream>
#include "rules/scene/scene_io.h"
#include "tests/overlay/test_scenes.h"
#include "synth/clip_render.h"
#include "synth/renderer.h"
#include "synth/synthetic_camera.h"

namespace vedette::overlay {
namespace {

std::string PairRoster() {
  std::string s = testing::kFlankTable + "units:\n";
  const double xs[3] = {150, 300, 450}, gaps[3] = {40, 25, 58};
  for (int i = 0; i < 3; ++i) {
    char buf[512];
    std::snprintf(buf, sizeof buf,
                  "  - {id: A%d, side: blue, type: infantry, base: {width_mm: 40, depth_mm: 30}, pose: {x_mm: %g, y_mm: 200, "
                  "heading_deg: 90}, marker: %d, marker_size_mm: 16, marker_offset_mm: [0, -2], marker_height_mm: 3}\n"
                  "  - {id: R%d, side: red, type: infantry, base: {width_mm: 40, depth_mm: 30}, pose: {x_mm: %g, y_mm: %g, "
                  "heading_deg: -90}, marker: %d, marker_size_mm: 16, marker_offset_mm: [0, -2], marker_height_mm: 3}\n",
                  i + 1, xs[i], 10 + 2 * i, i + 1, xs[i], 215 + gaps[i] + 15, 11 + 2 * i);
    s += buf;
  }
  return s;
}

struct Photo {
  std::string dir;
  Scene truth;
  synth::SyntheticCamera camera;
  cv::Mat image;
};

const Photo& TestPhoto() {
  static const Photo photo = [] {
    Photo p;
    p.dir = testing::TempDir("dispute");
    testing::WriteFile(p.dir + "/roster.yaml", PairRoster());
    p.truth = LoadScene(p.dir + "/roster.yaml");
    synth::SyntheticCameraOptions co;
    co.image_size = {1280, 720};
    co.table_width_mm = 600;
    co.table_depth_mm = 400;
    co.tilt_deg = 8;
    p.camera = synth::MakeSyntheticCamera(co);
    synth::SceneRenderer renderer(p.camera.intrinsics);
    synth::RenderOptions ro;
    ro.supersample = 3;
    ro.seed = 11;
    p.image = renderer.Render(ro, p.truth, p.camera.camera_from_table, *calib::DictionaryByName("DICT_4X4_50")).image;
    cv::imwrite(p.dir + "/photo.png", p.image);
    synth::WriteIntrinsicsYaml(p.camera.intrinsics, p.dir + "/cam.yaml");
    return p;
  }();
  return photo;
}

TEST(Dispute, VerdictsAgreeWithTheTruthOutsideThreeSigma) {
  const Photo& p = TestPhoto();
  const StillLocation still = LocateStill(p.image, "photo.png", p.camera.intrinsics, p.truth);
  ASSERT_EQ(still.location.units.size(), 6u) << "every unit must be located";
  const auto ruleset = MakeRuleset("totsk");
  const DisputeOptions options;
  ASSERT_EQ(options.verdict.k_sigma, 3.0);
  int called = 0, too_close = 0;
  for (int i = 1; i <= 3; ++i) {
    const std::string a = "A" + std::to_string(i), b = "R" + std::to_string(i);
    const Dispute d = SettleDispute(options, *ruleset, still.scene, still.sigmas, a, b);
    const std::vector<PairRule> truth = ruleset->PairRules(p.truth, a, b);
    ASSERT_EQ(truth.size(), d.rules.size());
    ASSERT_GT(d.sigma_mm, 0.0);
    EXPECT_LT(d.sigma_mm, 1.0) << "2 px per mm should locate bases well below a millimetre";
    // The stated sigma covers the real error of the distance.
    const double true_distance = Measure(p.truth, a, b, {}).distance_mm;
    EXPECT_LE(std::abs(d.distance_mm - true_distance), 3 * d.sigma_mm)
        << a << "-" << b << ": measured " << d.distance_mm << " mm, true " << true_distance << " mm, sigma " << d.sigma_mm;
    for (size_t r = 0; r < truth.size(); ++r) {
      const double true_margin = truth[r].threshold_mm - truth[r].measured_mm;
      const VerdictKind got = d.verdicts[r].kind;
      const std::string what = a + "-" + b + " '" + truth[r].rule + "': true margin " + std::to_string(true_margin) +
                               " mm, sigma " + std::to_string(d.sigma_mm) + " mm, said " + d.verdicts[r].text;
      if (!std::isfinite(true_margin) || std::abs(true_margin) > 3 * d.sigma_mm) {
        EXPECT_EQ(got, true_margin > 0 ? VerdictKind::kYes : VerdictKind::kNo) << what;
        ++called;
      } else if (std::abs(true_margin) <= d.sigma_mm) {
        // Inside one sigma the measured margin is within 3 sigma of zero unless the error is > 2 sigma.
        EXPECT_EQ(got, VerdictKind::kTooCloseToCall) << what;
        ++too_close;
      } else {
        // Between 1 and 3 sigma either answer may come, but never the wrong one.
        EXPECT_NE(got, true_margin > 0 ? VerdictKind::kNo : VerdictKind::kYes) << what;
      }
    }
  }
  EXPECT_GE(called, 2) << "the table must hold clear calls";
  EXPECT_GE(too_close, 1) << "A1-R1 is exactly 1 BW apart";
}

TEST(Dispute, CommandPrintsTheAgreedJson) {
  const Photo& p = TestPhoto();
  const std::string cmd = std::string(VEDETTE_BINARY) + " dispute --image " + p.dir + "/photo.png --calib " + p.dir +
                          "/cam.yaml --roster " + p.dir + "/roster.yaml --ruleset totsk --from A2 --to R2 --json --evidence " +
                          p.dir + "/ev 2>/dev/null";
  std::string out;
  FILE* pipe = popen(cmd.c_str(), "r");
  char buf[4096];
  while (pipe && fgets(buf, sizeof buf, pipe)) out += buf;
  ASSERT_EQ(pipe ? pclose(pipe) : -1, 0) << out;
  const nlohmann::json j = nlohmann::json::parse(out);
  EXPECT_EQ(j["from"], "A2");
  EXPECT_EQ(j["to"], "R2");
  EXPECT_NEAR(j["distance_mm"].get<double>(), 25.0, 1.0);
  EXPECT_GT(j["sigma_mm"].get<double>(), 0.0);
  EXPECT_NEAR(j["distance_bw"].get<double>(), 25.0 / 40.0, 0.03);
  bool within = false;
  for (const auto& v : j["verdicts"]) {
    EXPECT_TRUE(v.contains("rule") && v.contains("threshold_mm") && v.contains("margin_mm") && v.contains("verdict"));
    if (v["rule"] == "within 1 BW") {
      within = true;
      EXPECT_EQ(v["threshold_mm"].get<double>(), 40.0);
      EXPECT_NEAR(v["margin_mm"].get<double>(), 15.0, 1.0);
      EXPECT_EQ(v["verdict"], "YES");
    }
  }
  EXPECT_TRUE(within) << out;
  // Evidence: the PNG is the photo's size and the record holds the verdicts and the calibration.
  const cv::Mat ev = cv::imread(p.dir + "/ev.png");
  EXPECT_EQ(ev.size(), p.image.size());
  std::ifstream in(p.dir + "/ev.json");
  const nlohmann::json e = nlohmann::json::parse(in);
  EXPECT_EQ(e["dispute"]["from"], "A2");
  EXPECT_EQ(e["units"].size(), 6u);
  EXPECT_TRUE(e["calibration"].contains("camera_matrix"));
  // The PNG carries the verdicts: a dark band behind text lines at its bottom (most of the band's
  // pixels are between the letters: its median is dark).
  const cv::Mat photo = cv::imread(p.dir + "/photo.png");
  auto median_green = [](const cv::Mat& m) {
    std::vector<int> g;
    for (int y = 0; y < m.rows; ++y)
      for (int x = 0; x < m.cols; ++x) g.push_back(m.at<cv::Vec3b>(y, x)[1]);
    std::nth_element(g.begin(), g.begin() + g.size() / 2, g.end());
    return g[g.size() / 2];
  };
  const cv::Rect bottom(0, ev.rows - 20, ev.cols, 20);
  EXPECT_LT(median_green(ev(bottom)), 0.4 * median_green(photo(bottom)) + 1) << "the band behind the verdict lines";
}

// The evidence's words and its inset: every rule's verdict in the lines, and the inset placed where
// it covers neither unit of the dispute.
TEST(Evidence, LinesCarryTheVerdictsAndTheInsetCoversNoUnitOfTheDispute) {
  EvidenceInput in;
  in.frame = cv::Mat(720, 1280, CV_8UC3, cv::Scalar(60, 110, 60));
  in.intrinsics.image_size = in.frame.size();
  in.intrinsics.camera_matrix = cv::Matx33d(1000, 0, 640, 0, 1000, 360, 0, 0, 1);
  in.intrinsics.distortion = cv::Mat::zeros(1, 5, CV_64F);
  // Straight down from 1 m above the table point (600, 400): x right, table y up in the picture.
  in.camera_from_table.rotation = cv::Matx33d(1, 0, 0, 0, -1, 0, 0, 0, -1);
  in.camera_from_table.translation_mm = cv::Vec3d(-600, 400, 1000);
  in.scene = LoadScene(std::string(VEDETTE_TEST_DATA) + "/../assets/scenes/sample_totsk.yaml");
  std::vector<std::string> ids;
  for (const Unit& u : in.scene.units)
    if (u.pose) ids.push_back(u.id);
  ASSERT_GE(ids.size(), 2u);
  const auto ruleset = MakeRuleset("totsk");
  in.dispute = SettleDispute(DisputeOptions{}, *ruleset, in.scene, {}, ids[0], ids[1]);
  const std::vector<std::string> lines = EvidenceLines(in);
  ASSERT_GE(lines.size(), 1u + in.dispute.verdicts.size());
  for (const Verdict& v : in.dispute.verdicts) {
    bool found = false;
    for (const std::string& l : lines) found = found || l.find(v.text.substr(0, 2)) != std::string::npos;
    EXPECT_TRUE(found) << v.text;
  }
  const int inset = 288;
  const cv::Rect r = EvidenceInsetRect(in, inset);
  const TableProjection proj = FrameProjection(in.intrinsics, in.camera_from_table);
  for (const std::string& id : {ids[0], ids[1]}) {
    const Unit* u = in.scene.FindUnit(id);
    for (const geom::Base& b : BasesOf(*u))
      for (const geom::Vec2& c : geom::Corners(b)) {
        const cv::Point2d q = ProjectTablePoint(proj, c);
        EXPECT_FALSE(r.contains(cv::Point(int(q.x), int(q.y)))) << id << " under the inset at " << q;
      }
  }
}

// Sigma to two significant figures, the value to as many decimals: a sigma of 0.049 mm is not "0.0".
TEST(Verdict, SigmaShownToTwoSignificantFigures) {
  EXPECT_EQ(MmWithSigma(12.3456, 0.049), "12.346 \u00b1 0.049 mm");
  EXPECT_EQ(MmWithSigma(12.3456, 1.234), "12.3 \u00b1 1.2 mm");
  EXPECT_EQ(MmWithSigma(12.3456, 0.0), "12.3 \u00b1 0.0 mm");
  EXPECT_EQ(MmWithSigma(-1.5, 0.25, true), "-1.50 \u00b1 0.25 mm");
  EXPECT_EQ(MmWithSigma(1.5, 0.25, true), "+1.50 \u00b1 0.25 mm");
}

TEST(Verdict, HandComputedCalls) {
  // within 1 BW: threshold 40 mm. Measured 36.9 mm, sigma 0.4: margin +3.1 > 3 x 0.4 -> YES.
  VerdictOptions o;
  o.k_sigma = 3;
  EXPECT_EQ(DecideRule(o, {"within 1 BW", "edge_to_edge", 40.0, 36.9}, 0.4).kind, VerdictKind::kYes);
  EXPECT_EQ(DecideRule(o, {"within 1 BW", "edge_to_edge", 40.0, 36.9}, 0.4).text, "YES by 3.10 \u00b1 0.40 mm");
  // Measured 41.0: margin -1.0, 3 sigma = 1.2 -> too close.
  EXPECT_EQ(DecideRule(o, {"within 1 BW", "edge_to_edge", 40.0, 41.0}, 0.4).kind, VerdictKind::kTooCloseToCall);
  // Measured 42.0: margin -2.0 -> NO.
  EXPECT_EQ(DecideRule(o, {"within 1 BW", "edge_to_edge", 40.0, 42.0}, 0.4).kind, VerdictKind::kNo);
  // Not in the corridor at all (infinite measurement): NO, whatever the sigma.
  EXPECT_EQ(DecideRule(o, {"in ZOC", "zoc_reach", 40.0, INFINITY}, 5.0).kind, VerdictKind::kNo);
  // Distance sigma: 0.1 mm each plus 0.1 deg over a 25 mm lever each: sqrt(2 (0.01 + 0.0436^2)) = 0.154 mm.
  const double s = DistanceSigmaMm({0.1, 0.1}, 25.0, {0.1, 0.1}, 25.0);
  EXPECT_NEAR(s, std::sqrt(2 * (0.01 + std::pow(0.1 * M_PI / 180 * 25, 2))), 1e-12);
}

}  // namespace
}  // namespace vedette::overlay
