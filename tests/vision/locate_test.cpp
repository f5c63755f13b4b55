// Base poses from markers: hand-computed geometry (a camera straight down), parallax of a raised
// marker, and a round trip through the renderer and the detector.
#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "calibration/dictionary.h"
#include "rules/geometry/vec.h"
#include "tests/vision/vision_scenes.h"
#include "vision/detect.h"
#include "vision/locate.h"
#include "vision/marker_geometry.h"
#include "synth/renderer.h"

namespace vedette::vision {

using namespace vedette::synth;  // the synthetic table gives these tests their ground truth
namespace {

// A pinhole camera 1000 mm above table point (200, 150), looking straight down, f = 1000 px:
// 1 px = 1 mm on the table; image x = table x, image y = -table y.
calib::CameraIntrinsics Pinhole() {
  calib::CameraIntrinsics k;
  k.camera_matrix = cv::Matx33d(1000, 0, 400, 0, 1000, 300, 0, 0, 1);
  k.distortion = cv::Mat::zeros(1, 5, CV_64F);
  k.image_size = {800, 600};
  return k;
}
calib::CameraFromTable StraightDown() {
  calib::CameraFromTable p;
  p.rotation = cv::Matx33d(1, 0, 0, 0, -1, 0, 0, 0, -1);
  p.translation_mm = -(p.rotation * cv::Vec3d(200, 150, 1000));
  return p;
}

std::array<cv::Point2f, 4> Corners(const calib::CameraIntrinsics& k, const calib::CameraFromTable& pose,
                                   const MarkerPlacement& m) {
  const auto c = MarkerCornersInTable(m);
  const auto px = calib::ProjectToImage(k, pose, {c.begin(), c.end()});
  std::array<cv::Point2f, 4> out;
  for (int i = 0; i < 4; ++i) out[i] = cv::Point2f(px[i]);
  return out;
}

// Marker of 20 mm at (250, 100), top edge towards +y (90 deg): its corners are (240,110) (260,110)
// (260,90) (240,90) on the table -> pixels (440,340) (460,340) (460,360) (440,360).
TEST(MarkerPoseOnPlane, HandComputedStraightDown) {
  const MarkerPlacement m{1, {250, 100}, 90, 20, 0};
  const auto px = Corners(Pinhole(), StraightDown(), m);
  EXPECT_NEAR(px[0].x, 440, 1e-3);
  EXPECT_NEAR(px[0].y, 340, 1e-3);
  EXPECT_NEAR(px[2].x, 460, 1e-3);
  EXPECT_NEAR(px[2].y, 360, 1e-3);
  const MarkerOnPlane p = MarkerPoseOnPlane(Pinhole(), StraightDown(), px, 0, 20);
  ASSERT_TRUE(p.ok);
  EXPECT_NEAR(p.centre_mm.x, 250, 1e-4);
  EXPECT_NEAR(p.centre_mm.y, 100, 1e-4);
  EXPECT_NEAR(p.heading_deg, 90, 1e-4);
  EXPECT_NEAR(p.side_mm, 20, 1e-4);
  EXPECT_NEAR(p.mm_per_px, 1.0, 1e-4);
  EXPECT_LT(p.residual_mm, 1e-6);
}

// Parallax: a marker 30 mm above the table at (300, 150), 100 mm from the camera's nadir along x.
// Its image lands where a table-level marker at 200 + 100 * 1000 / 970 = 303.09 mm would; reading
// it on z = 0 puts it 3.09 mm too far out, reading it on z = 30 puts it right.
TEST(MarkerPoseOnPlane, RaisedMarkerNeedsItsOwnPlane) {
  const MarkerPlacement m{1, {300, 150}, 0, 16, 30};
  const auto px = Corners(Pinhole(), StraightDown(), m);
  const MarkerOnPlane right = MarkerPoseOnPlane(Pinhole(), StraightDown(), px, 30, 16);
  const MarkerOnPlane wrong = MarkerPoseOnPlane(Pinhole(), StraightDown(), px, 0, 16);
  EXPECT_NEAR(right.centre_mm.x, 300, 1e-4);
  EXPECT_NEAR(right.centre_mm.y, 150, 1e-4);
  EXPECT_NEAR(right.heading_deg, 0, 1e-4);
  EXPECT_NEAR(wrong.centre_mm.x, 200 + 100 * 1000.0 / 970.0, 1e-3);
}

// The roster's mount: marker 5 mm behind the base centre, its top edge turned 90 deg left of the
// unit's front. A unit at (100, 80) facing 30 deg carries its marker at (100, 80) - 5 (cos 30, sin 30)
// = (95.670, 77.5), heading 120; PosesFromMarkers inverts that.
TEST(PosesFromMarkers, AppliesTheMountAndSkipsUnknownAndDuplicated) {
  Scene roster;
  roster.source = "hand";
  Unit u;
  u.id = "B1";
  u.bases = {BaseSpec{40, 20, {0, 0}}};
  MarkerMount mount;
  mount.id = 7;
  mount.size_mm = 16;
  mount.offset_mm = {0, -5};
  mount.heading_deg = 90;
  u.marker = mount;
  u.pose = Pose{100, 80, 30};
  const MarkerPlacement m = PlacementOf(u);
  EXPECT_NEAR(m.centre_mm.x, 100 - 5 * std::cos(geom::DegToRad(30)), 1e-9);
  EXPECT_NEAR(m.centre_mm.y, 77.5, 1e-9);
  EXPECT_NEAR(m.heading_deg, 120, 1e-9);
  u.pose.reset();
  roster.units.push_back(u);
  calib::MarkerObservation obs{7, Corners(Pinhole(), StraightDown(), m)};
  calib::MarkerObservation stranger{33, obs.corners_px};
  auto est = PosesFromMarkers(Pinhole(), StraightDown(), roster, {obs, stranger});
  ASSERT_EQ(est.size(), 1u);
  EXPECT_EQ(est[0].unit, "B1");
  EXPECT_NEAR(est[0].pose.x_mm, 100, 1e-4);
  EXPECT_NEAR(est[0].pose.y_mm, 80, 1e-4);
  EXPECT_NEAR(est[0].pose.heading_deg, 30, 1e-4);
  EXPECT_GT(est[0].sigma_mm, 0);
  EXPECT_GT(est[0].sigma_deg, 0);
  // The same ID at a second spot: the unit is not placed at either.
  calib::MarkerObservation twin = obs;
  for (auto& p : twin.corners_px) p.x += 100;
  EXPECT_TRUE(PosesFromMarkers(Pinhole(), StraightDown(), roster, {obs, twin}).empty());
}

// Round trip: render the small table (blur, noise, JPEG; tilted camera with barrel distortion),
// detect, register from the anchors, locate. Every unit within 0.3 mm and 0.3 deg, and the error
// inside 5 of its stated sigmas (the sigma must not be wildly optimistic).
TEST(LocateBases, RoundTripThroughTheRenderer) {
  const Scene scene = testing::SmallTable();
  const SyntheticCamera cam = testing::SmallCamera(12);
  RenderOptions o;
  o.seed = 3;
  o.blur_sigma_px = 0.8;
  const auto dict = calib::DictionaryByName(scene.dictionary);
  const Rendering r = SceneRenderer(cam.intrinsics).Render(o, scene, cam.camera_from_table, *dict);
  const Detections d = DetectMarkers(DetectorOptionsFor(scene, cam.intrinsics), r.image, *dict);
  Scene roster = scene;
  for (Unit& u : roster.units) u.pose.reset();
  const Location loc = LocateBases(LocateOptions{}, cam.intrinsics, roster, d.markers);
  ASSERT_TRUE(loc.registration.ok) << loc.registration.message;
  EXPECT_EQ(loc.registration.anchors_seen.size(), 4u);
  EXPECT_TRUE(loc.unknown_markers.empty());
  ASSERT_EQ(loc.units.size(), scene.units.size());
  for (const BasePoseEstimate& e : loc.units) {
    const Pose& t = *scene.FindUnit(e.unit)->pose;
    const double dmm = std::hypot(e.pose.x_mm - t.x_mm, e.pose.y_mm - t.y_mm);
    const double ddeg = std::abs(geom::NormalizeDeg(e.pose.heading_deg - t.heading_deg));
    EXPECT_LT(dmm, 0.3) << e.unit;
    EXPECT_LT(ddeg, 0.3) << e.unit;
    EXPECT_LT(dmm, 5 * e.sigma_mm + 0.02) << e.unit << " sigma " << e.sigma_mm;
    EXPECT_LT(e.sigma_mm, 1.0) << e.unit;
  }
}

// Fewer anchors than needed: no units, and the message says which anchors were seen.
TEST(LocateBases, TooFewAnchorsSaysWhichWereSeen) {
  const Scene scene = testing::SmallTable();
  const SyntheticCamera cam = testing::SmallCamera();
  std::vector<calib::MarkerObservation> seen;
  for (int id : {1, 2}) {  // only anchors 1 and 2, plus a marker nobody owns
    const auto px = Corners(cam.intrinsics, cam.camera_from_table, PlacementOf(scene.anchors[id]));
    seen.push_back({id, px});
  }
  seen.push_back({40, seen[0].corners_px});
  const Location loc = LocateBases(LocateOptions{}, cam.intrinsics, scene, seen);
  EXPECT_FALSE(loc.registration.ok);
  EXPECT_TRUE(loc.units.empty());
  EXPECT_EQ(loc.registration.anchors_seen, (std::vector<int>{1, 2}));
  EXPECT_NE(loc.registration.message.find("1, 2"), std::string::npos) << loc.registration.message;
  EXPECT_EQ(loc.unknown_markers, std::vector<int>{40});
}

}  // namespace
}  // namespace vedette::vision
