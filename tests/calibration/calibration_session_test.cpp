// The live calibration session (calibration/calibration_session.h) and `vedette calibrate --video`
// / `--camera`, on synthetic board videos written by WriteSyntheticBoardVideo through a known lens.
//
// The true camera: the 960x540 webcam of calibrate_rendered_views_test.cpp scaled to 640x360 (fx
// 506.7, fy 509.2, cx 322.6, cy 176.8 px; k1 -0.21, k2 0.09: barrel distortion). Videos:
//  - "spread": 12 poses from SpreadBoardPoses (board centres on a 3x3 grid of the image then the
//    centre, tilted 15-35 deg, ~45 % of the image wide), each held 5 frames (60 frames):
//      +------------------------+
//      | [/]     [\]     [/]    |   a person showing the board round the image,
//      | [\]     [/][\]  [/]    |   tilting it a different way each time
//      | [/]     [\]     [\]    |
//      +------------------------+
//  - "frontal": the board squarely facing the camera in the image centre, 4 poses a few px apart:
//      +------------------------+
//      |                        |
//      |         [  ]           |   no tilt, nothing near the edges: must be refused
//      |                        |
//      +------------------------+
#include "calibration/calibration_session.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/videoio.hpp>

#include "calibration/synthetic_views.h"
#include "rules/input_error.h"
#include "tests/app/run_command.h"
#include "tests/calibration/calibration_test_util.h"

namespace vedette::calib {
namespace {

using testing::AnyHas;
using vedette::testing::RunVedette;

const char* kBoard = "chessboard:9x6:25";

CameraIntrinsics TrueVideoCamera() {
  CameraIntrinsics k;
  k.camera_matrix = cv::Matx33d(760, 0, 484.2, 0, 763.8, 265.6, 0, 0, 1);
  k.distortion = (cv::Mat_<double>(1, 5) << -0.21, 0.09, 0.0007, -0.0004, -0.015);
  k.image_size = cv::Size(960, 540);
  return ScaledTo(k, cv::Size(640, 360));
}

SyntheticVideoOptions VideoOptions() {
  SyntheticVideoOptions o;
  o.spread.views = 12;
  o.spread.seed = 3;
  o.render.supersample = 3;
  o.render.blur_sigma_px = 0.7;  // a webcam's optics
  o.render.noise_sigma = 2.0;    // grey levels, new in every frame
  o.frames_per_pose = 5;
  return o;
}

std::vector<CameraFromTable> FrontalCentrePoses() {
  const CameraIntrinsics k = TrueVideoCamera();
  std::vector<CameraFromTable> poses;
  for (int i = 0; i < 4; ++i)
    poses.push_back(FrontalBoardPose(ParseBoardSpec(kBoard), k, {320.0 + 6 * (i % 2), 180.0 + 6 * (i / 2)}, 0.25));
  return poses;
}

// The videos are written once into this test program's own temp folder, removed at the end.
class SessionVideos : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = std::filesystem::temp_directory_path() / ("vedette_calib_session_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
    spread_frames_ = WriteSyntheticBoardVideo(VideoOptions(), ParseBoardSpec(kBoard), TrueVideoCamera(), Spread());
    SyntheticVideoOptions frontal = VideoOptions();
    frontal.poses = FrontalCentrePoses();
    frontal_frames_ = WriteSyntheticBoardVideo(frontal, ParseBoardSpec(kBoard), TrueVideoCamera(), Frontal());
  }
  static void TearDownTestSuite() { std::filesystem::remove_all(dir_); }
  static std::string Spread() { return (dir_ / "spread.avi").string(); }
  static std::string Frontal() { return (dir_ / "frontal.avi").string(); }
  static std::string Path(const std::string& name) { return (dir_ / name).string(); }

  static std::filesystem::path dir_;
  static int spread_frames_, frontal_frames_;
};
std::filesystem::path SessionVideos::dir_;
int SessionVideos::spread_frames_ = 0;
int SessionVideos::frontal_frames_ = 0;

// Every frame of a video through a session; per frame whether it was kept and whether the session
// then had enough.
struct Fed {
  std::vector<bool> kept, enough;
};
Fed FeedVideo(const std::string& path, CalibrationSession* session) {
  cv::VideoCapture video(path);
  EXPECT_TRUE(video.isOpened()) << path;
  Fed fed;
  cv::Mat frame;
  for (int n = 0; video.read(frame); ++n) {
    fed.kept.push_back(session->AddFrame(frame, "frame " + std::to_string(n)));
    fed.enough.push_back(session->state().enough);
  }
  return fed;
}

TEST(CalibrationSession, CellNamesFollowTheThirdsOfTheImage) {
  EXPECT_EQ(CellName(0, 0, 3, 3), "top-left");
  EXPECT_EQ(CellName(1, 0, 3, 3), "top");
  EXPECT_EQ(CellName(2, 1, 3, 3), "right");
  EXPECT_EQ(CellName(1, 1, 3, 3), "centre");
  EXPECT_EQ(CellName(2, 2, 3, 3), "bottom-right");
  // A 4x2 grid: columns centred at 12.5, 37.5, 62.5, 87.5 % (left, centre, centre, right), rows at
  // 25 and 75 % (top, bottom).
  EXPECT_EQ(CellName(1, 0, 4, 2), "top");
  EXPECT_EQ(CellName(3, 1, 4, 2), "bottom-right");
}

TEST(CalibrationSession, OptionsAreChecked) {
  CalibrationSessionOptions o;
  std::string why;
  EXPECT_TRUE(o.Check(&why)) << why;
  o.still_frames = 0;
  EXPECT_FALSE(o.Check(&why));
  EXPECT_NE(why.find("still_frames"), std::string::npos);
  o = {};
  o.enough_views = 2;  // below calibration.min_views (3)
  EXPECT_FALSE(o.Check(&why));
  EXPECT_THROW(CalibrationSession(o, ParseBoardSpec(kBoard)), InputError);
}

TEST(CalibrationSession, KeepsAViewOnlyOnceTheBoardIsHeldStillAndNew) {
  // One rendered pose shown 6 times: kept at the 4th frame (3 frames still after the first), never
  // again (nothing new); a frame of another size is refused.
  const CameraIntrinsics k = TrueVideoCamera();
  BoardRenderOptions ro;
  ro.image_size = k.image_size;
  SpreadPoseOptions po;
  po.views = 1;
  const BoardSpec board = ParseBoardSpec(kBoard);
  const cv::Mat image = RenderBoardViews(ro, MakeBoardPattern(board), k, SpreadBoardPoses(po, board, k))[0];
  CalibrationSession session({}, board);
  std::vector<bool> kept;
  for (int i = 0; i < 6; ++i) kept.push_back(session.AddFrame(image, "frame " + std::to_string(i)));
  EXPECT_EQ(kept, (std::vector<bool>{false, false, false, true, false, false}));
  EXPECT_NE(session.state().current_note.find("nothing new"), std::string::npos) << session.state().current_note;
  ASSERT_EQ(session.state().kept.size(), 1u);
  EXPECT_EQ(session.state().kept[0].frame, 3);
  EXPECT_EQ(session.state().current.ids.size(), 54u);
  EXPECT_FALSE(session.state().calibration);  // fewer than 3 views: no calibration yet
  EXPECT_TRUE(AnyHas(session.state().missing, "only 1 view kept"));
  cv::Mat small;
  cv::resize(image, small, cv::Size(320, 180));
  EXPECT_THROW(session.AddFrame(small, "small"), InputError);
}

TEST(CalibrationSession, ABlurredBoardIsNotKept) {
  // Pose 1 sharp (kept), then pose 2 blurred by a Gaussian of 2.5 px (a hand still moving, or out
  // of focus): its board region is under half as sharp as pose 1's, so it is not kept, although it
  // is still and covers new cells; shown sharp, it is kept.
  const CameraIntrinsics k = TrueVideoCamera();
  BoardRenderOptions ro;
  ro.image_size = k.image_size;
  SpreadPoseOptions po;
  po.views = 2;
  const BoardSpec board = ParseBoardSpec(kBoard);
  const std::vector<cv::Mat> images = RenderBoardViews(ro, MakeBoardPattern(board), k, SpreadBoardPoses(po, board, k));
  cv::Mat blurred;
  cv::GaussianBlur(images[1], blurred, cv::Size(), 2.5);
  CalibrationSession session({}, board);
  int n = 0;
  for (const cv::Mat* image : std::vector<const cv::Mat*>{&images[0], &blurred, &images[1]}) {
    bool kept = false;
    for (int i = 0; i < 5; ++i) kept |= session.AddFrame(*image, "frame " + std::to_string(n++));
    if (image == &blurred) {
      ASSERT_TRUE(session.state().current.found()) << "the blurred board must still be found for this test";
      EXPECT_FALSE(kept);
      EXPECT_EQ(session.state().current_note, "board blurred");
    } else {
      EXPECT_TRUE(kept) << "frame " << n;
    }
  }
  EXPECT_EQ(session.state().kept.size(), 2u);
}

TEST_F(SessionVideos, SpreadVideoGivesEnoughAndTheTrueLens) {
  ASSERT_EQ(spread_frames_, 60);
  CalibrationSession session({}, ParseBoardSpec(kBoard));
  const Fed fed = FeedVideo(Spread(), &session);
  ASSERT_EQ(fed.kept.size(), 60u);
  const SessionState& s = session.state();
  for (const std::string& m : s.missing) ADD_FAILURE() << "still missing: " << m;
  ASSERT_TRUE(s.enough);
  ASSERT_TRUE(s.calibration);
  // One view per pose at most, each once the board was still for 3 frames (the 4th of 5).
  EXPECT_GE(s.kept.size(), 10u);
  EXPECT_LE(s.kept.size(), 12u);
  for (const SessionView& v : s.kept) EXPECT_EQ(v.frame % 5, 3) << "frame " << v.frame;
  EXPECT_EQ(s.cells_covered, 9);
  // "Enough" only from the 10th kept view on, and then for good.
  int views = 0;
  for (size_t i = 0; i < fed.kept.size(); ++i) {
    views += fed.kept[i] ? 1 : 0;
    if (views < 10) {
      EXPECT_FALSE(fed.enough[i]) << "enough at frame " << i << " with " << views << " views";
    }
  }
  EXPECT_TRUE(fed.enough.back());
  // The lens, against the truth.
  const CalibrationResult& r = *s.calibration;
  std::printf("%s", CalibrationSummary(r).c_str());
  const CameraIntrinsics truth = TrueVideoCamera();
  EXPECT_LT(std::abs(r.intrinsics.camera_matrix(0, 0) / truth.camera_matrix(0, 0) - 1), 0.005);
  EXPECT_LT(std::abs(r.intrinsics.camera_matrix(1, 1) / truth.camera_matrix(1, 1) - 1), 0.005);
  const ModelDifference d = CompareCameraModels(truth, r.intrinsics, 8);
  std::printf("session vs truth: lens RMS %.3f max %.3f px; whole model RMS %.3f px\n", d.planar_rms_px,
              d.planar_max_px, d.full_rms_px);
  EXPECT_LT(d.planar_rms_px, 0.1);
  EXPECT_LT(d.full_rms_px, 0.6);
  EXPECT_TRUE(r.accepted());
}

TEST_F(SessionVideos, FrontalCentreVideoIsNotEnoughAndSaysWhy) {
  ASSERT_EQ(frontal_frames_, 20);
  CalibrationSession session({}, ParseBoardSpec(kBoard));
  const Fed fed = FeedVideo(Frontal(), &session);
  const SessionState& s = session.state();
  for (const std::string& m : s.missing) std::printf("missing: %s\n", m.c_str());
  EXPECT_FALSE(s.enough);
  for (bool e : fed.enough) EXPECT_FALSE(e);
  EXPECT_EQ(s.kept.size(), 1u);  // the same frontal pose, a few px apart, adds nothing
  EXPECT_TRUE(AnyHas(s.missing, "no view in the top-left of the image"));
  EXPECT_TRUE(AnyHas(s.missing, "no view in the bottom-right of the image"));
  EXPECT_FALSE(AnyHas(s.missing, "no view in the centre"));
  EXPECT_TRUE(AnyHas(s.missing, "only 0 tilted views: tilt the board 20-40 degrees"));
}

TEST_F(SessionVideos, CliCalibratesFromTheVideoHeadless) {
  const std::string out = Path("cam_headless.yaml");
  const auto run = RunVedette("calibrate --video " + Spread() + " --board " + kBoard + " --out " + out + " --headless");
  ASSERT_EQ(run.status, 0) << run.err << run.out;
  std::printf("%s", run.out.c_str());
  EXPECT_NE(run.out.find("view 1 (frame 3): 54 corners"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("- ENOUGH"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("wrote " + out), std::string::npos) << run.out;
  EXPECT_EQ(run.err.find("without a window"), std::string::npos) << run.err;  // --headless: no need to say
  // The same frames through the session in process give the same camera file.
  CalibrationSession session({}, ParseBoardSpec(kBoard));
  FeedVideo(Spread(), &session);
  ASSERT_TRUE(session.state().calibration);
  const CameraIntrinsics written = LoadIntrinsics(out);
  EXPECT_LT(cv::norm(cv::Mat(written.camera_matrix), cv::Mat(session.state().calibration->intrinsics.camera_matrix)),
            1e-6);
  EXPECT_LT(CompareCameraModels(TrueVideoCamera(), written, 8).full_rms_px, 0.6);

  // --auto-save stops at the first "enough" (the 10th view) and writes from those views.
  const std::string early = Path("cam_auto.yaml");
  const auto autorun =
      RunVedette("calibrate --video " + Spread() + " --board " + kBoard + " --out " + early + " --headless --auto-save");
  ASSERT_EQ(autorun.status, 0) << autorun.err;
  EXPECT_NE(autorun.out.find("- ENOUGH\nboard " + std::string(kBoard) + ", 10 of 10 views used"), std::string::npos)
      << autorun.out;
  EXPECT_EQ(autorun.out.find("view 11"), std::string::npos) << autorun.out;
  EXPECT_LT(CompareCameraModels(TrueVideoCamera(), LoadIntrinsics(early), 8).full_rms_px, 0.6);
}

TEST_F(SessionVideos, CliRefusesTheFrontalVideoAndWritesNothing) {
  const std::string out = Path("cam_frontal.yaml");
  const auto run = RunVedette("calibrate --video " + Frontal() + " --board " + kBoard + " --out " + out + " --headless");
  EXPECT_EQ(run.status, 2) << run.out;
  EXPECT_NE(run.err.find("vedette: " + Frontal() + ": not enough for a calibration after 20 frames (1 view kept)"),
            std::string::npos)
      << run.err;
  EXPECT_NE(run.err.find(out + " not written"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("no view in the top-left of the image"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("tilt the board 20-40 degrees"), std::string::npos) << run.err;
  EXPECT_FALSE(std::filesystem::exists(out));
}

TEST_F(SessionVideos, CliLiveInputsAreCheckedAndAMissingCameraIsNamed) {
  const std::string out = Path("cam_bad.yaml");
  auto run = RunVedette(std::string("calibrate --camera 57 --board ") + kBoard + " --out " + out + " --headless");
  EXPECT_EQ(run.status, 2);
  EXPECT_NE(run.err.find("vedette: --camera: camera 57 does not exist (no /dev/video57)"), std::string::npos) << run.err;
  run = RunVedette("calibrate --video " + Spread() + " --board " + kBoard + " --out " + out + " " + Frontal());
  EXPECT_EQ(run.status, 2);
  EXPECT_NE(run.err.find("--video: cannot be combined with image or video files"), std::string::npos) << run.err;
  run = RunVedette("calibrate --camera 0 --video " + Spread() + " --board " + kBoard + " --out " + out);
  EXPECT_EQ(run.status, 2);
  EXPECT_NE(run.err.find("--camera and --video exclude each other"), std::string::npos) << run.err;
  run = RunVedette(std::string("calibrate --board ") + kBoard + " --out " + out);
  EXPECT_EQ(run.status, 2);
  EXPECT_NE(run.err.find("give images or videos of the board, or --camera N, or --video FILE"), std::string::npos)
      << run.err;
  EXPECT_FALSE(std::filesystem::exists(out));
}

// Pixels clearly redder than they are green or blue (the frames are grey) in rows above max_y.
int RedPixels(const cv::Mat& bgr, int max_y) {
  int red = 0;
  for (int y = 0; y < std::min(max_y, bgr.rows); ++y)
    for (int x = 0; x < bgr.cols; ++x) {
      const cv::Vec3b p = bgr.at<cv::Vec3b>(y, x);
      red += p[2] > p[1] + 30 && p[2] > p[0] + 30 ? 1 : 0;
    }
  return red;
}

TEST_F(SessionVideos, WindowShowsTheMissingCellsAndStopsAtTheFrameLimit) {
  // Needs a display (xvfb-run -a -s '-screen 0 1280x720x24' build/tests/test_calibration).
  const char* display = std::getenv("DISPLAY");
  if (!display || !*display) GTEST_SKIP() << "no display for the calibration window";
  // 15 frames = the first 3 poses (top-left, top, top-right, each reaching into the middle row):
  // not enough yet; the window's last picture shows the frame with the 3 bottom cells, still
  // lacking views, shaded red.
  const std::string out = Path("cam_window.yaml"), shot = Path("window.png");
  const auto run = RunVedette("calibrate --video " + Spread() + " --board " + kBoard + " --out " + out +
                              " --max-frames 15 --screenshot " + shot);
  EXPECT_EQ(run.status, 2) << run.out;
  EXPECT_EQ(run.err.find("without a window"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("not enough for a calibration after 15 frames (3 views kept)"), std::string::npos) << run.err;
  EXPECT_NE(run.out.find("view 3 (frame 13)"), std::string::npos) << run.out;  // one line per kept view
  EXPECT_FALSE(std::filesystem::exists(out));
  const cv::Mat png = cv::imread(shot);
  ASSERT_FALSE(png.empty()) << shot;
  EXPECT_EQ(png.size(), cv::Size(1280, 720));
  // Red-shaded cells. The 640x360 frame is fitted into the 900x720 left of the panel: y 107..613,
  // its bottom third from y 444 on; nothing above the middle row may be red.
  const int red = RedPixels(png, png.rows), red_above = RedPixels(png, 400);
  std::printf("red-shaded pixels: %d (above y 400: %d)\n", red, red_above);
  EXPECT_GT(red, 100000);  // 3 cells of 300 x 169 px
  EXPECT_EQ(red_above, 0);

  // The whole video with --auto-save: the window closes at "enough" and the file is written; its
  // last picture shows the green "ENOUGH - press Enter/S to save" button and no red cell.
  const std::string saved = Path("cam_window_saved.yaml"), shot2 = Path("window_enough.png");
  const auto save = RunVedette("calibrate --video " + Spread() + " --board " + kBoard + " --out " + saved +
                               " --auto-save --screenshot " + shot2);
  ASSERT_EQ(save.status, 0) << save.err;
  EXPECT_NE(save.out.find("wrote " + saved), std::string::npos) << save.out;
  EXPECT_LT(CompareCameraModels(TrueVideoCamera(), LoadIntrinsics(saved), 8).full_rms_px, 0.6);
  const cv::Mat enough = cv::imread(shot2);
  ASSERT_FALSE(enough.empty()) << shot2;
  EXPECT_EQ(RedPixels(enough, enough.rows), 0);
  cv::Mat button;
  cv::inRange(enough, cv::Scalar(50, 140, 20), cv::Scalar(70, 160, 40), button);  // BGR (60, 150, 30) +- 10
  std::printf("ENOUGH button pixels: %d\n", cv::countNonZero(button));
  EXPECT_GT(cv::countNonZero(button), 5000);  // a 360 x 48 px button, text aside
}

}  // namespace
}  // namespace vedette::calib
