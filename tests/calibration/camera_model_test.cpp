#include "calibration/camera_model.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <opencv2/calib3d.hpp>

#include "rules/input_error.h"
#include "tests/calibration/calibration_test_util.h"
#include "tests/calibration/test_scene.h"
#include "tests/calibration/scoped_temp_dir.h"

namespace vedette::calib {
namespace {

using testing::OverheadPose;
using testing::RealData;
using testing::TestIntrinsics;

std::string WriteTemp(const std::string& name, const std::string& text) {
  static const vedette::testing::ScopedTempDir dir("calib_test");  // removed when the test process ends
  const std::string path = dir.File(name);
  std::ofstream(path) << text;
  return path;
}

TEST(LoadIntrinsics, ReadsOpenCvSampleFileWithImageSize) {
  // aruco's tutorial_camera_charuco.yml: fx 452.51, fy 456.77, 640x480, 5 coefficients in a row.
  const CameraIntrinsics k = LoadIntrinsics(RealData("aruco/tutorial_camera_charuco.yml"));
  EXPECT_NEAR(k.camera_matrix(0, 0), 452.5107, 1e-3);
  EXPECT_NEAR(k.camera_matrix(1, 1), 456.7671, 1e-3);
  EXPECT_NEAR(k.camera_matrix(0, 2), 317.7030, 1e-3);
  EXPECT_EQ(k.image_size, cv::Size(640, 480));
  EXPECT_EQ(k.distortion.cols, 5);
  EXPECT_EQ(k.distortion.rows, 1);
  EXPECT_NEAR(k.distortion.at<double>(0, 4), 2.95426, 1e-4);
  EXPECT_NEAR(k.avg_reprojection_error_px, 0.18235, 1e-4);
}

TEST(LoadIntrinsics, ColumnDistortionAndNoImageSize) {
  // tutorial_camera_params.yml stores 5x1 coefficients and no image size.
  const CameraIntrinsics k = LoadIntrinsics(RealData("aruco/tutorial_camera_params.yml"));
  EXPECT_NEAR(k.camera_matrix(0, 0), 628.158, 1e-6);
  EXPECT_EQ(k.distortion.rows, 1);
  EXPECT_EQ(k.distortion.cols, 5);
  EXPECT_NEAR(k.distortion.at<double>(0, 1), -0.206384, 1e-9);
  EXPECT_EQ(k.image_size, cv::Size(0, 0));
  EXPECT_THROW(ScaledTo(k, cv::Size(1280, 960)), InputError);
}

TEST(LoadIntrinsics, NamesMissingAndBadKeys) {
  const std::string no_dist = WriteTemp("no_dist.yml",
                                        "%YAML:1.0\ncamera_matrix: !!opencv-matrix\n   rows: 3\n   cols: 3\n   dt: d\n"
                                        "   data: [ 500., 0., 320., 0., 500., 240., 0., 0., 1. ]\n");
  try {
    LoadIntrinsics(no_dist);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("distortion_coefficients"), std::string::npos) << e.what();
    EXPECT_EQ(e.file(), no_dist);
  }
  const std::string bad = WriteTemp("bad_matrix.yml",
                                    "%YAML:1.0\ncamera_matrix: !!opencv-matrix\n   rows: 2\n   cols: 2\n   dt: d\n"
                                    "   data: [ 500., 0., 0., 500. ]\n"
                                    "distortion_coefficients: !!opencv-matrix\n   rows: 1\n   cols: 5\n   dt: d\n"
                                    "   data: [ 0., 0., 0., 0., 0. ]\n");
  try {
    LoadIntrinsics(bad);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("3x3"), std::string::npos) << e.what();
  }
  EXPECT_THROW(LoadIntrinsics(WriteTemp("garbage.yml", "this is: [not, opencv")), InputError);
  EXPECT_THROW(LoadIntrinsics("/nonexistent/cam.yaml"), InputError);
}

// Stack overflows found by the camera file's fuzzer in OpenCV 4.6's readers: deep JSON brackets, deep
// XML elements, and a long run of '-' after a YAML key. Each is refused with its line before OpenCV reads it.
TEST(LoadIntrinsics, DeepOrLongTextIsRefusedBeforeOpenCvRecursesOnIt) {
  auto refusal = [](const std::string& text) -> std::string {
    try {
      ParseIntrinsics(text, "cam.txt");
    } catch (const InputError& e) {
      return e.what();
    }
    return "accepted";
  };
  const std::string json = refusal("{\"a\": " + std::string(60000, '[') + std::string(60000, ']') + "}");
  EXPECT_NE(json.find("cam.txt:1: nested more than 64 deep"), std::string::npos) << json;
  std::string xml = "<?xml version=\"1.0\"?>\n<opencv_storage>\n";
  for (int i = 0; i < 100; ++i) xml += "<a>\n";
  EXPECT_NE(refusal(xml).find("cam.txt:66: nested more than 64 deep"), std::string::npos) << refusal(xml);
  const std::string yaml = refusal("%YAML:1.0\n---\nimage_width:" + std::string(36000, '-') + "\n");
  EXPECT_NE(yaml.find("cam.txt:3: a line longer than 4096 characters"), std::string::npos) << yaml;
  // What OpenCV writes still reads.
  EXPECT_NO_THROW(LoadIntrinsics(RealData("aruco/tutorial_camera_params.yml")));
}

TEST(ScaledTo, DoublesFocalAndKeepsPixelCentres) {
  const CameraIntrinsics k = TestIntrinsics();
  const CameraIntrinsics k2 = ScaledTo(k, cv::Size(3840, 2160));
  EXPECT_DOUBLE_EQ(k2.camera_matrix(0, 0), 2800);
  EXPECT_DOUBLE_EQ(k2.camera_matrix(1, 1), 2800);
  // 959.5 is the centre of a 1920 px row; 1919.5 is the centre of a 3840 px row.
  EXPECT_DOUBLE_EQ(k2.camera_matrix(0, 2), 1919.5);
  EXPECT_DOUBLE_EQ(k2.camera_matrix(1, 2), 1079.5);
  // Property: a table point lands at the same place of the picture, i.e. u' = 2 (u + 0.5) - 0.5.
  const CameraFromTable pose = OverheadPose();
  const std::vector<cv::Point3d> pts = {{100, 100, 0}, {1100, 800, 0}, {600, 450, 30}};
  const auto a = ProjectToImage(k, pose, pts);
  const auto b = ProjectToImage(k2, pose, pts);
  for (size_t i = 0; i < pts.size(); ++i) {
    EXPECT_NEAR(b[i].x, 2 * (a[i].x + 0.5) - 0.5, 1e-9);
    EXPECT_NEAR(b[i].y, 2 * (a[i].y + 0.5) - 0.5, 1e-9);
  }
  EXPECT_THROW(ScaledTo(k, cv::Size(1440, 1080)), InputError);  // 4:3 from 16:9: a crop, not a scale
}

TEST(ProjectToImage, HandComputedPinhole) {
  // Camera 1000 mm straight above (600, 450), f = 1000 px, principal point (960, 540), no distortion.
  CameraIntrinsics k;
  k.camera_matrix = cv::Matx33d(1000, 0, 960, 0, 1000, 540, 0, 0, 1);
  k.distortion = cv::Mat::zeros(1, 5, CV_64F);
  k.image_size = {1920, 1080};
  const CameraFromTable pose = OverheadPose({600, 450, 1000}, 0, 0);
  const auto px = ProjectToImage(k, pose, {{700, 450, 0}, {600, 550, 0}, {700, 450, 500}, {600, 450, 1500}});
  EXPECT_NEAR(px[0].x, 1060, 1e-9);  // 100 mm right at 1000 mm depth: 100 px right
  EXPECT_NEAR(px[0].y, 540, 1e-9);
  EXPECT_NEAR(px[1].x, 960, 1e-9);   // 100 mm towards player B: 100 px up
  EXPECT_NEAR(px[1].y, 440, 1e-9);
  EXPECT_NEAR(px[2].x, 1160, 1e-9);  // raised 500 mm: half the depth, twice the offset
  EXPECT_TRUE(std::isnan(px[3].x));  // above the camera: not projectable
}

// ProjectToImage writes OpenCV's lens model out by hand: it must agree with cv::projectPoints for
// every distortion length it handles (5: k1 k2 p1 p2 k3; 8: rational; 12: thin prism) and hand the
// 14-value tilted model to OpenCV, over points spread across a tilted view.
TEST(ProjectToImage, AgreesWithOpenCvForEveryDistortionModel) {
  const CameraFromTable pose = OverheadPose({600, 450, 1100}, 12, 25);
  std::vector<cv::Point3d> pts;
  for (double x = 0; x <= 1200; x += 150)
    for (double y = 0; y <= 900; y += 150) pts.push_back({x, y, std::fmod(x + y, 7.0)});
  const double all[14] = {-0.21, 0.09, 0.0007, -0.0004, -0.015, 0.02, -0.01, 0.005, 0.001, -0.0005, 0.0008, 0.0002, 0.01, -0.02};
  for (int n : {4, 5, 8, 12, 14}) {
    CameraIntrinsics k;
    k.camera_matrix = cv::Matx33d(1400, 0, 955.5, 0, 1395, 542.25, 0, 0, 1);
    k.distortion = cv::Mat(1, n, CV_64F, const_cast<double*>(all)).clone();
    k.image_size = {1920, 1080};
    std::vector<cv::Point2d> ref;
    cv::projectPoints(pts, RvecOf(pose), pose.translation_mm, k.camera_matrix, k.distortion, ref);
    const auto ours = ProjectToImage(k, pose, pts);
    ASSERT_EQ(ours.size(), ref.size());
    for (size_t i = 0; i < pts.size(); ++i) {
      EXPECT_NEAR(ours[i].x, ref[i].x, 1e-6) << n << " coefficients, point " << i;
      EXPECT_NEAR(ours[i].y, ref[i].y, 1e-6) << n << " coefficients, point " << i;
    }
  }
}

TEST(ImageToTablePlane, InvertsProjectionAtHeightsZeroAndThree) {
  const CameraIntrinsics k = TestIntrinsics();
  const CameraFromTable pose = OverheadPose();
  for (double height : {0.0, 3.0}) {
    std::vector<cv::Point3d> table;
    for (double x = 0; x <= 1200; x += 100)
      for (double y = 0; y <= 900; y += 75) table.emplace_back(x + 0.37, y - 0.21, height);
    const auto px = ProjectToImage(k, pose, table);
    const auto back = ImageToTablePlane(k, pose, px, height);
    double worst = 0;
    for (size_t i = 0; i < table.size(); ++i)
      worst = std::max(worst, std::hypot(back[i].x - table[i].x, back[i].y - table[i].y));
    EXPECT_LT(worst, 1e-6) << "height " << height << " mm: worst round trip " << worst << " mm";
  }
}

// Every distortion model (4-12 coefficients written out, 14 through OpenCV), coefficients stored as
// doubles or floats, out to the image's corners under a strong barrel: the cut is exact.
TEST(ImageToTablePlane, InvertsEveryDistortionModelToTheImageCorners) {
  const CameraFromTable pose = OverheadPose({600, 450, 1100}, 12, 25);
  const double all[14] = {-0.32, 0.11, 0.0007, -0.0004, -0.015, 0.02, -0.01, 0.005, 0.001, -0.0005, 0.0008, 0.0002, 0.01, -0.02};
  for (int n : {4, 5, 8, 12, 14})
    for (int depth : {CV_64F, CV_32F}) {
      CameraIntrinsics k;
      k.camera_matrix = cv::Matx33d(1400, 0, 955.5, 0, 1395, 542.25, 0, 0, 1);
      cv::Mat(1, n, CV_64F, const_cast<double*>(all)).convertTo(k.distortion, depth);
      k.image_size = {1920, 1080};
      std::vector<cv::Point2d> px;
      for (double x = 0; x <= 1919; x += 1919.0 / 8)
        for (double y = 0; y <= 1079; y += 1079.0 / 6) px.emplace_back(x, y);
      const auto table = ImageToTablePlane(k, pose, px, 3.0);
      std::vector<cv::Point3d> table3;
      for (const auto& t : table) table3.emplace_back(t.x, t.y, 3.0);
      const auto again = ProjectToImage(k, pose, table3);
      for (size_t i = 0; i < px.size(); ++i)
        ASSERT_LT(std::hypot(again[i].x - px[i].x, again[i].y - px[i].y), 1e-8)
            << n << " coefficients, depth " << depth << ", pixel " << px[i] << " -> " << table[i];
    }
}

TEST(ImageToTablePlane, ParallaxOfARaisedMarker) {
  // A marker face 3 mm up, seen off-axis, read on the table plane instead lands further from the
  // camera's foot: exactly why the roster gives marker_height_mm.
  const CameraIntrinsics k = TestIntrinsics(false);
  const CameraFromTable pose = OverheadPose({600, 450, 1000}, 0, 0);
  const auto px = ProjectToImage(k, pose, {{1000, 450, 3}});
  const auto on_table = ImageToTablePlane(k, pose, px, 0);
  const auto at_height = ImageToTablePlane(k, pose, px, 3);
  EXPECT_NEAR(at_height[0].x, 1000, 1e-6);
  // Similar triangles: 400 mm off-axis at 997 mm depth reaches 400 * 1000 / 997 on the table.
  EXPECT_NEAR(on_table[0].x, 600 + 400.0 * 1000 / 997, 1e-6);
}

TEST(ImageToTablePlane, ParallelOrBehindGivesNaN) {
  CameraIntrinsics k = TestIntrinsics(false);
  // A camera lying on its side at table height looking along +x: the principal ray is parallel to z = 0
  // and the rays above the horizon meet the plane behind the camera.
  CameraFromTable pose;
  pose.rotation = cv::Matx33d(0, -1, 0, 0, 0, -1, 1, 0, 0);  // camera z = table x, camera y = -table z
  const cv::Vec3d c(0, 450, 100);
  pose.translation_mm = -(pose.rotation * c);
  const auto out = ImageToTablePlane(k, pose, {{959.5, 539.5}, {959.5, 100}, {959.5, 1000}}, 0);
  EXPECT_TRUE(std::isnan(out[0].x));  // the horizon
  EXPECT_TRUE(std::isnan(out[1].x));  // above the horizon: behind
  EXPECT_FALSE(std::isnan(out[2].x)); // below: on the table ahead
  EXPECT_GT(out[2].x, 0);
}

TEST(CameraFromTable, RvecRoundTripAndCentre) {
  const CameraFromTable pose = OverheadPose({300, 200, 900}, 10, 30);
  const CameraFromTable again = PoseFromRvecTvec(RvecOf(pose), pose.translation_mm);
  EXPECT_LT(cv::norm(again.rotation - pose.rotation), 1e-12);
  const cv::Point3d c = CameraCentreInTable(pose);
  EXPECT_NEAR(c.x, 300, 1e-9);
  EXPECT_NEAR(c.y, 200, 1e-9);
  EXPECT_NEAR(c.z, 900, 1e-9);
}

}  // namespace
}  // namespace vedette::calib
