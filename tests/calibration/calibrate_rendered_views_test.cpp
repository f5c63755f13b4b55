// Lens calibration end to end against a known camera: views of a chessboard and of a ChArUco board
// are rendered through a true camera with lens distortion (supersampled, blurred, noisy), found by
// DetectBoard and calibrated by CalibrateIntrinsics (what `vedette calibrate` runs); the result is
// compared with the truth.
//
// The true camera (960x540, a ~64 deg webcam with barrel distortion, principal point off-centre,
// fy 0.5 % above fx):
//   fx 760  fy 763.8  cx 484.2  cy 265.6 px;  k1 -0.21  k2 0.09  p1 0.0007  p2 -0.0004  k3 -0.015
// Views: 12 per board, board centres aimed at a 3x3 grid of image positions then the centre, each
// board tilted 15-35 deg about a random axis and turned +-20 deg, about 45 % of the image wide,
// pulled inwards just enough to stay whole in the image:
//
//   +--------------------------------+
//   | [/]        [\]          [/]    |   each [ ] one view, tilted its own way
//   |                                |
//   | [\]        [/] [\]      [/]    |
//   |                                |
//   | [/]        [\]          [\]    |
//   +--------------------------------+
//
// Two weak sets: boards huddled in one corner (poor coverage) must warn; boards that all face the
// camera squarely (focal length undetermined) must be refused.
//
// Rendering and board detection are the slow part: the two good sets are made once for all tests.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include <opencv2/imgcodecs.hpp>

#include "calibration/board_detection.h"
#include "calibration/board_render.h"
#include "calibration/intrinsic_calibration.h"
#include "calibration/synthetic_views.h"
#include "rules/input_error.h"
#include "tests/app/run_command.h"
#include "tests/calibration/calibration_test_util.h"

namespace vedette::calib {
namespace {

using testing::AnyHas;

CameraIntrinsics TrueRenderCamera() {
  CameraIntrinsics k;
  k.camera_matrix = cv::Matx33d(760, 0, 484.2, 0, 763.8, 265.6, 0, 0, 1);
  k.distortion = (cv::Mat_<double>(1, 5) << -0.21, 0.09, 0.0007, -0.0004, -0.015);
  k.image_size = cv::Size(960, 540);
  return k;
}

BoardRenderOptions RenderOptions() {
  BoardRenderOptions o;
  o.image_size = TrueRenderCamera().image_size;
  o.supersample = 3;
  o.blur_sigma_px = 0.8;  // a webcam's optics
  o.noise_sigma = 2.0;    // grey levels
  o.seed = 7;
  return o;
}

struct RenderedSet {
  BoardSpec board;
  std::vector<CameraFromTable> poses;  // camera_from_board of each view
  std::vector<cv::Mat> images;
  std::vector<BoardView> views;
};

RenderedSet Render(const std::string& spec, const std::vector<CameraFromTable>& poses) {
  RenderedSet s;
  s.board = ParseBoardSpec(spec);
  s.poses = poses;
  s.images = RenderBoardViews(RenderOptions(), MakeBoardPattern(s.board), TrueRenderCamera(), poses);
  for (size_t i = 0; i < s.images.size(); ++i)
    s.views.push_back(DetectBoard({}, s.board, s.images[i], cv::format("view%02zu.png", i)));
  return s;
}

RenderedSet RenderSpread(const std::string& spec, unsigned seed) {
  SpreadPoseOptions o;
  o.views = 12;
  o.seed = seed;
  return Render(spec, SpreadBoardPoses(o, ParseBoardSpec(spec), TrueRenderCamera()));
}

const RenderedSet& Chessboard() {
  static const RenderedSet s = RenderSpread("chessboard:9x6:25", 3);
  return s;
}
const RenderedSet& Charuco() {
  static const RenderedSet s = RenderSpread("charuco:8x6:30:22:DICT_5X5_100", 5);
  return s;
}

// Mean offset (dx, dy) and mean distance of a view's found corners from where the true camera puts
// them, px.
cv::Vec3d CornerErrors(const BoardView& v, const CameraFromTable& pose) {
  std::vector<cv::Point3d> board;
  for (const cv::Point3f& p : v.board_mm) board.emplace_back(p.x, p.y, p.z);
  const std::vector<cv::Point2d> truth = ProjectToImage(TrueRenderCamera(), pose, board);
  cv::Vec3d e(0, 0, 0);
  for (size_t i = 0; i < truth.size(); ++i) {
    const cv::Point2d d = cv::Point2d(v.image_px[i]) - truth[i];
    e += cv::Vec3d(d.x, d.y, cv::norm(d)) / static_cast<double>(truth.size());
  }
  return e;
}

void ExpectCornersOnTruth(const RenderedSet& s) {
  for (size_t i = 0; i < s.views.size(); ++i) {
    const cv::Vec3d e = CornerErrors(s.views[i], s.poses[i]);
    EXPECT_LT(std::abs(e[0]), 0.05) << s.views[i].source;
    EXPECT_LT(std::abs(e[1]), 0.05) << s.views[i].source;
    EXPECT_LT(e[2], 0.15) << s.views[i].source;
  }
}

bool AnyWarningHas(const CalibrationResult& r, const std::string& text) { return AnyHas(r.warnings, text); }

// The checks shared by both boards: every figure against the truth, with the tolerance a user can
// rely on for a well-spread set of 12 views.
void ExpectCloseToTruth(const CalibrationResult& r, size_t expected_views) {
  const CameraIntrinsics truth = TrueRenderCamera();
  std::printf("%s", CalibrationSummary(r).c_str());
  ASSERT_EQ(r.views.size(), expected_views);
  for (const auto& v : r.views) EXPECT_TRUE(v.used) << v.source;
  const auto& k = r.intrinsics.camera_matrix;
  const auto& t = truth.camera_matrix;
  const double error[4] = {k(0, 0) - t(0, 0), k(1, 1) - t(1, 1), k(0, 2) - t(0, 2), k(1, 2) - t(1, 2)};
  const char* name[4] = {"fx", "fy", "cx", "cy"};
  ASSERT_EQ(r.stddev.size(), 9u);
  for (int i = 0; i < 4; ++i)
    std::printf("%s: error %+.3f px, reported std dev %.3f px (error / sd %.2f)\n", name[i], error[i], r.stddev[i],
                std::abs(error[i]) / r.stddev[i]);
  // Focal lengths within 0.25 %, the principal point within 2 px.
  EXPECT_LT(std::abs(error[0]) / t(0, 0), 0.0025);
  EXPECT_LT(std::abs(error[1]) / t(1, 1), 0.0025);
  EXPECT_LT(std::abs(error[2]), 2.0);
  EXPECT_LT(std::abs(error[3]), 2.0);
  // The aspect ratio (fy / fx = 1.005) is recovered, not assumed square.
  EXPECT_NEAR(k(1, 1) / k(0, 0), t(1, 1) / t(0, 0), 0.001);
  // The standard deviations must be honest: the actual error within 3 of them, and not so large as
  // to say nothing (below 0.25 % of the focal length, 1.5 px for the principal point).
  for (int i = 0; i < 4; ++i) {
    EXPECT_GT(r.stddev[i], 0.0) << name[i];
    EXPECT_LT(std::abs(error[i]), 3 * r.stddev[i]) << name[i];
  }
  EXPECT_LT(r.stddev[0], 0.0025 * t(0, 0));
  EXPECT_LT(r.stddev[1], 0.0025 * t(1, 1));
  EXPECT_LT(r.stddev[2], 1.5);
  EXPECT_LT(r.stddev[3], 1.5);
  // The lens: over the whole image (corners included), what the estimated model does to each
  // pixel's true ray, after the best homography (what a camera pose and camera matrix absorb when
  // looking at a plane): the distortion model's own error. A model without distortion is tens of
  // px off by the same yardstick (AModelWithoutDistortionIsFarOff); the largest differences are in
  // the image's far corners, which no board reached. The whole model's difference is dominated by
  // the principal point error.
  const ModelDifference d = CompareCameraModels(truth, r.intrinsics, 8);
  std::printf("model vs truth over the image: lens (after best homography) RMS %.3f max %.3f px; whole model RMS "
              "%.3f max %.3f px\n",
              d.planar_rms_px, d.planar_max_px, d.full_rms_px, d.full_max_px);
  EXPECT_LT(d.planar_rms_px, 0.1);
  EXPECT_LT(d.planar_max_px, 0.4);
  EXPECT_LT(d.full_rms_px, 0.8);
  // Reprojection RMS: blur and noise leave corners good to about a tenth of a pixel.
  EXPECT_LT(r.intrinsics.avg_reprojection_error_px, 0.15);
  EXPECT_GT(r.intrinsics.avg_reprojection_error_px, 0.005);
  // A well-spread set: nothing to warn about.
  EXPECT_GE(r.coverage, 0.5);
  EXPECT_GE(r.grid_cells_covered, 8);
  for (const std::string& w : r.warnings) ADD_FAILURE() << "unexpected warning: " << w;
  for (const std::string& w : r.refusals) ADD_FAILURE() << "unexpected refusal: " << w;
}

TEST(CalibrateRenderedViews, TheFastRendererDrawsWhatRenderBoardDraws) {
  // RenderBoardViews inverts the lens once per camera; RenderBoard inverts it per sample. Same
  // picture, on a 160x90 version of the camera (no blur, no noise, 4x4 samples a pixel): equal
  // except where a sample sits within ~1e-5 px of an edge and falls on the other side of it (one
  // sample of 16: (220 - 30) / 16 = 12 grey levels), in a handful of pixels.
  const CameraIntrinsics small = ScaledTo(TrueRenderCamera(), cv::Size(160, 90));
  const BoardSpec board = ParseBoardSpec("charuco:8x6:30:22:DICT_5X5_100");
  SpreadPoseOptions po;
  po.views = 2;
  const std::vector<CameraFromTable> poses = SpreadBoardPoses(po, board, small);
  BoardRenderOptions o;
  o.image_size = small.image_size;
  o.supersample = 4;
  const BoardPattern pattern = MakeBoardPattern(board);
  const std::vector<cv::Mat> fast = RenderBoardViews(o, pattern, small, poses);
  ASSERT_EQ(fast.size(), 2u);
  for (size_t i = 0; i < poses.size(); ++i) {
    const cv::Mat exact = RenderBoard(o, pattern, small, poses[i]);
    cv::Mat diff;
    cv::absdiff(fast[i], exact, diff);
    double max_diff = 0;
    cv::minMaxLoc(diff, nullptr, &max_diff);
    EXPECT_LE(max_diff, 12.0) << "view " << i;
    EXPECT_LT(cv::countNonZero(diff), static_cast<int>(diff.total() / 1000)) << "view " << i;
    // The board is really in the picture: dark and light both present.
    double lo = 0, hi = 0;
    cv::minMaxLoc(exact, &lo, &hi);
    EXPECT_LT(lo, 60);
    EXPECT_GT(hi, 200);
  }
}

TEST(CalibrateRenderedViews, SpreadPosesKeepTheBoardInsideAndCoverTheImage) {
  const BoardSpec board = ParseBoardSpec("chessboard:9x6:25");
  const CameraIntrinsics k = TrueRenderCamera();
  SpreadPoseOptions o;
  const auto poses = SpreadBoardPoses(o, board, k);
  ASSERT_EQ(poses.size(), 12u);
  const std::vector<cv::Point3d> outline = {{0, 0, 0}, {board.WidthMm(), 0, 0}, {board.WidthMm(), board.HeightMm(), 0},
                                            {0, board.HeightMm(), 0}};
  double min_x = 1e9, max_x = -1e9, min_y = 1e9, max_y = -1e9;
  for (const auto& pose : poses)
    for (const cv::Point2d& p : ProjectToImage(k, pose, outline)) {
      EXPECT_GE(p.x, 0);
      EXPECT_GE(p.y, 0);
      EXPECT_LE(p.x, k.image_size.width - 1);
      EXPECT_LE(p.y, k.image_size.height - 1);
      min_x = std::min(min_x, p.x), max_x = std::max(max_x, p.x);
      min_y = std::min(min_y, p.y), max_y = std::max(max_y, p.y);
    }
  // Boards reach within 40 px of every image edge.
  std::printf("boards span x %.1f..%.1f, y %.1f..%.1f px\n", min_x, max_x, min_y, max_y);
  EXPECT_LT(min_x, 40);
  EXPECT_LT(min_y, 40);
  EXPECT_GT(max_x, k.image_size.width - 41);
  EXPECT_GT(max_y, k.image_size.height - 41);
}

TEST(CalibrateRenderedViews, ChessboardRecoversTheTrueCamera) {
  const RenderedSet& s = Chessboard();
  for (const BoardView& v : s.views) EXPECT_EQ(v.ids.size(), 54u) << v.source;
  ExpectCornersOnTruth(s);
  ExpectCloseToTruth(CalibrateIntrinsics({}, s.board, s.views), 12);
}

TEST(CalibrateRenderedViews, CharucoRecoversTheTrueCamera) {
  const RenderedSet& s = Charuco();
  for (const BoardView& v : s.views) EXPECT_GE(v.ids.size(), 30u) << v.source;  // of 7 x 5 = 35
  ExpectCornersOnTruth(s);
  ExpectCloseToTruth(CalibrateIntrinsics({}, s.board, s.views), 12);

  // OpenCV 4.6's raw ChArUco corners, through the lens too, sit +0.5 px off each way; the corrected
  // ones (checked just above) do not.
  BoardDetectionOptions raw;
  raw.correct_charuco_bias = false;
  cv::Vec3d mean(0, 0, 0);
  for (size_t i = 0; i < s.images.size(); ++i)
    mean += CornerErrors(DetectBoard(raw, s.board, s.images[i]), s.poses[i]) / static_cast<double>(s.images.size());
  std::printf("raw ChArUco corners: mean offset (%+.3f, %+.3f) px\n", mean[0], mean[1]);
  EXPECT_NEAR(mean[0], 0.5, 0.1);
  EXPECT_NEAR(mean[1], 0.5, 0.1);
}

TEST(CalibrateRenderedViews, AModelWithoutDistortionIsFarOff) {
  // The yardstick of the checks above can fail: the true camera without its lens distortion is
  // tens of px off at the image corners even after the best homography, while a 0.5 % focal length
  // error or a 2 px principal point shift moves pixels (whole model) but leaves the lens right.
  const CameraIntrinsics truth = TrueRenderCamera();
  CameraIntrinsics pinhole = truth;
  pinhole.distortion = cv::Mat(cv::Mat::zeros(1, 5, CV_64F));  // a new buffer, not truth's
  const ModelDifference d = CompareCameraModels(truth, pinhole, 8);
  std::printf("no distortion: lens RMS %.2f max %.2f px; whole model max %.2f px\n", d.planar_rms_px, d.planar_max_px,
              d.full_max_px);
  EXPECT_GT(d.planar_max_px, 10);
  EXPECT_GT(d.full_max_px, 20);
  CameraIntrinsics shifted = truth;
  shifted.camera_matrix(0, 0) *= 1.005;
  shifted.camera_matrix(1, 1) *= 1.005;
  shifted.camera_matrix(0, 2) += 2;
  const ModelDifference f = CompareCameraModels(truth, shifted, 8);
  std::printf("fx, fy +0.5 %%, cx + 2 px: lens max %.3f px; whole model max %.2f px\n", f.planar_max_px, f.full_max_px);
  EXPECT_LT(f.planar_max_px, 0.3);
  EXPECT_GT(f.full_max_px, 2.0);
  EXPECT_LT(CompareCameraModels(truth, truth, 8).full_max_px, 1e-6);
}

TEST(CalibrateRenderedViews, BoardsHuddledInOneCornerWarnOfPoorCoverage) {
  // Ten views, tilted 20-30 deg, but all in the top-left of the image: boards 22 % of the image wide
  // (~210 px), centred within x 100-230, y 60-130 px:
  //   +--------------------+
  //   | [][]               |
  //   | [][]               |   no corner right of x ~340 or below y ~250
  //   |                    |
  //   +--------------------+
  // The calibration must say which parts of the image had no corner. The warning is deserved: the
  // whole model is px off over the image (mostly the principal point), and the reported deviations
  // are several times larger. (The lens alone extrapolates fairly well here, because the synthetic
  // lens is exactly OpenCV's model; a real lens is not.)
  const BoardSpec board = ParseBoardSpec("chessboard:9x6:25");
  const CameraIntrinsics k = TrueRenderCamera();
  std::vector<CameraFromTable> poses;
  cv::RNG rng(11);
  for (int i = 0; i < 10; ++i) {
    const cv::Point2d centre(rng.uniform(100.0, 230.0), rng.uniform(60.0, 130.0));
    CameraFromTable p = FrontalBoardPose(board, k, centre, 0.22);
    // Tilt each board 20-30 deg about a random in-plane axis through its centre.
    const double axis = rng.uniform(0.0, 2 * CV_PI), tilt = rng.uniform(20.0, 30.0) * CV_PI / 180;
    cv::Matx33d r;
    cv::Rodrigues(cv::Vec3d(std::cos(axis), std::sin(axis), 0) * tilt, r);
    const cv::Vec3d c = p.rotation * cv::Vec3d(board.WidthMm() / 2, board.HeightMm() / 2, 0) + p.translation_mm;
    p.rotation = r * p.rotation;
    p.translation_mm = c - p.rotation * cv::Vec3d(board.WidthMm() / 2, board.HeightMm() / 2, 0);
    poses.push_back(p);
  }
  const RenderedSet s = Render("chessboard:9x6:25", poses);
  int found = 0;
  for (const BoardView& v : s.views) found += v.found() ? 1 : 0;
  ASSERT_GE(found, 8);
  const CalibrationResult r = CalibrateIntrinsics({}, s.board, s.views);
  std::printf("%s", CalibrationSummary(r).c_str());
  for (const std::string& w : r.warnings) std::printf("warning: %s\n", w.c_str());
  EXPECT_LT(r.coverage, 0.5);
  EXPECT_LE(r.grid_cells_covered, 4);
  ASSERT_TRUE(AnyWarningHas(r, "of the image; no corner fell in the"));
  EXPECT_TRUE(AnyWarningHas(r, "bottom-right"));
  EXPECT_TRUE(AnyWarningHas(r, "show it near the edges too"));
  const ModelDifference d = CompareCameraModels(k, r.intrinsics, 8);
  std::printf("huddled: lens (after best homography) RMS %.3f max %.3f px; whole model RMS %.3f max %.3f px\n",
              d.planar_rms_px, d.planar_max_px, d.full_rms_px, d.full_max_px);
  EXPECT_GT(d.full_rms_px, 1.5);  // the well-spread set: below 0.8
  // Tilted views and deviations under the refusal thresholds (fx +- 0.4 %, cx +- 0.4 % of the
  // width): written, with the coverage warning.
  for (const std::string& w : r.refusals) ADD_FAILURE() << "unexpected refusal: " << w;
  // ...and the calibration's own deviations say so: several times those of the well-spread set.
  const CalibrationResult spread = CalibrateIntrinsics({}, Chessboard().board, Chessboard().views);
  for (int i = 0; i < 4; ++i) EXPECT_GT(r.stddev[i], 4 * spread.stddev[i]) << "intrinsic " << i;
}

TEST(CalibrateRenderedViews, FrontalViewsOnlyLeaveTheFocalLengthUnknownAndAreRefused) {
  // Nine views spread over the image but all facing the camera squarely. A frontal board's image is
  // exactly the same for a focal length s times longer with every board s times further away and
  // the distortion rescaled (k1 s^2, k2 s^4, p1 s, p2 s; k3 is held at 0 with 9 views): the focal
  // length is not determined at all, and OpenCV's reported deviation (a fraction of a px) says
  // nothing of it. The coverage is fine; the calibration must still be refused (it used to be
  // written with a warning), and say why.
  const BoardSpec board = ParseBoardSpec("chessboard:9x6:25");
  const CameraIntrinsics k = TrueRenderCamera();
  std::vector<CameraFromTable> poses;
  for (int i = 0; i < 9; ++i)
    poses.push_back(FrontalBoardPose(board, k, {(0.3 + 0.2 * (i % 3)) * 959, (0.3 + 0.2 * (i / 3)) * 539}, 0.45));
  const RenderedSet s = Render("chessboard:9x6:25", poses);
  const CalibrationResult r = CalibrateIntrinsics({}, s.board, s.views);
  std::printf("%s", CalibrationSummary(r).c_str());
  for (const std::string& w : r.warnings) std::printf("warning: %s\n", w.c_str());
  const double fx_error = r.intrinsics.camera_matrix(0, 0) - k.camera_matrix(0, 0);
  std::printf("frontal: fx error %+.2f px, reported std dev %.2f px\n", fx_error, r.stddev[0]);
  for (const auto& v : r.views) EXPECT_LT(v.tilt_deg, 1.0) << v.source;
  EXPECT_FALSE(r.accepted());
  EXPECT_TRUE(AnyHas(r.refusals, "only 0 of 9 views show the board tilted by 15 deg or more"));
  EXPECT_TRUE(AnyHas(r.refusals, "the focal length is not determined"));
  EXPECT_TRUE(AnyHas(r.refusals, "tilt the board 20-45 deg"));
  EXPECT_FALSE(AnyWarningHas(r, "the focal length is not determined"));  // said once, as the refusal
  EXPECT_THROW(ThrowIfRefused(r, "cam.yaml"), InputError);
  // The refusal is deserved: the focal length is percents off (its reported std dev does not say so,
  // which is why the refusal looks at the tilts instead).
  EXPECT_GT(std::abs(fx_error) / k.camera_matrix(0, 0), 0.01);
  EXPECT_GE(r.coverage, 0.5);  // not a coverage problem
}

TEST(CalibrateRenderedViews, TheCliCalibratesFromWrittenPngs) {
  // The same chessboard views as PNG files through `vedette calibrate`: the camera file holds what
  // CalibrateIntrinsics gives in process (PNG is lossless), and so matches the truth as above.
  const RenderedSet& s = Chessboard();
  const auto dir = std::filesystem::temp_directory_path() / ("vedette_rendered_calib_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::string files;
  for (size_t i = 0; i < s.images.size(); ++i) {
    const std::string path = (dir / s.views[i].source).string();
    ASSERT_TRUE(cv::imwrite(path, s.images[i]));
    files += " " + path;
  }
  const std::string out = (dir / "cam.yaml").string();
  const auto run = vedette::testing::RunVedette("calibrate --board chessboard:9x6:25 --out " + out + files);
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_NE(run.out.find("12 of 12 views used"), std::string::npos) << run.out;
  EXPECT_TRUE(run.err.empty()) << run.err;  // no warning for a good set
  const CameraIntrinsics from_cli = LoadIntrinsics(out);
  const CalibrationResult in_process = CalibrateIntrinsics({}, s.board, s.views);
  EXPECT_LT(cv::norm(cv::Mat(from_cli.camera_matrix), cv::Mat(in_process.intrinsics.camera_matrix)), 1e-6);
  EXPECT_LT(cv::norm(from_cli.distortion, in_process.intrinsics.distortion), 1e-9);
  EXPECT_EQ(from_cli.image_size, TrueRenderCamera().image_size);
  EXPECT_LT(std::abs(from_cli.camera_matrix(0, 0) / TrueRenderCamera().camera_matrix(0, 0) - 1), 0.003);
  EXPECT_LT(CompareCameraModels(TrueRenderCamera(), from_cli, 8).full_rms_px, 0.3);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace vedette::calib
