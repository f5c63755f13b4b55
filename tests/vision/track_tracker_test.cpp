// The tracker on synthetic clips rendered by the project's renderer (synth/clip_render.h): units
// resting and moving, a hand sweeping over half of them, a unit lifted and put back one base width
// away, the camera bumped, duplicate and unknown markers. The table (600 x 400 mm, seen at 680 x 425
// px, so a 14 mm marker is about 14 px):
//
//   y=400 +---------------------------------+
//         | A3                           A2 |
//         |              R1 (300,260) v     |
//         |    B1 (200,150) ^  B2 (260,150) ^
//         | A0                           A1 |
//   y=0   +---------------------------------+ x=600
#include <gtest/gtest.h>

#include <set>

#include <cmath>
#include <map>

#include "synth/clip_render.h"
#include "synth/clip_script.h"
#include "synth/renderer.h"
#include "tests/synth/small_table.h"
#include "vision/track_tracker.h"

namespace vedette::vision {

using namespace vedette::synth;  // the synthetic table gives these tests their ground truth
namespace {

const std::string kSmallTableClip = vedette::testing::SmallTableClipRoster() + R"(
camera: {image_size: [680, 425]}
render: {supersample: 2, blur_sigma_px: 0.7, read_noise: 2.0, jpeg_quality: 0}
fps: 15
)";

struct ClipRun {
  std::vector<TrackFrame> frames;
  std::vector<ClipMoment> truth;
  std::vector<TrackEvent> events;
  std::vector<double> event_t;         // s, per event
  std::vector<double> marker_side_px;  // truth, per unit (first frame)
};

ClipRun Track(const std::string& extra, TrackerOptions o = {}) {
  ClipRenderer r(ParseClipScript(kSmallTableClip + extra, "test.clip.yaml"));
  Tracker tracker(o, r.intrinsics(), r.script().roster, r.dictionary());
  ClipRun run;
  for (int f = 0; f < r.FrameCount(); ++f) {
    ClipFrame cf = r.Render(f);
    if (f == 0)
      for (const auto& m : cf.render_truth.markers)
        if (!m.unit.empty()) run.marker_side_px.push_back(m.side_px);
    TrackFrame tf = tracker.Process(cf.image, cf.t);
    for (const auto& e : tf.events) {
      run.events.push_back(e);
      run.event_t.push_back(tf.t);
    }
    run.truth.push_back(std::move(cf.moment));
    run.frames.push_back(std::move(tf));
  }
  return run;
}

const TrackedUnit& UnitOf(const TrackFrame& f, const std::string& id) {
  for (const auto& u : f.units)
    if (u.id == id) return u;
  throw std::runtime_error("no unit " + id);
}

std::vector<TrackEvent> EventsOf(const ClipRun& r, const std::string& type, const std::string& unit = "") {
  std::vector<TrackEvent> out;
  for (const auto& e : r.events)
    if (ToString(e.type) == type && (unit.empty() || e.unit == unit)) out.push_back(e);
  return out;
}

double Dist(const Pose& a, const Pose& b) { return std::hypot(a.x_mm - b.x_mm, a.y_mm - b.y_mm); }

// Every measured unit is near its own truth (identity never swapped), on every frame.
void ExpectNoIdentitySwap(const ClipRun& r, double tol_mm) {
  for (size_t f = 0; f < r.frames.size(); ++f)
    for (const auto& u : r.frames[f].units) {
      if (!u.measured) continue;
      ASSERT_TRUE(r.truth[f].poses.count(u.id)) << "frame " << f << ": " << u.id << " measured but not on the table";
      EXPECT_LT(Dist(u.pose, r.truth[f].poses.at(u.id)), tol_mm) << "frame " << f << ": " << u.id << " far from its truth";
    }
}

// B1 advances 40 mm straight ahead during t = 0.5..1.3 s; B2 and R1 rest. One move event, within
// 1 mm and 0.5 deg of the truth at both ends; the resting units hold still.
TEST(Tracker, MoveEventAndRestJitter) {
  const ClipRun r = Track(R"(
duration_s: 2.4
units:
  B1: {keys: [{t: 0.5}, {t: 1.3, y_mm: 190}]}
)");
  for (double s : r.marker_side_px) EXPECT_LT(s, 16.0) << "markers are meant to be about 14 px";
  ExpectNoIdentitySwap(r, 3.0);
  const auto moves = EventsOf(r, "move");
  ASSERT_EQ(moves.size(), 1u) << (moves.empty() ? "" : moves[1].move.unit);
  const ObservedMove& m = moves[0].move;
  EXPECT_EQ(moves[0].unit, "B1");
  EXPECT_EQ(m.unit, "B1");
  EXPECT_NEAR(m.from.x_mm, 200, 1.0);
  EXPECT_NEAR(m.from.y_mm, 150, 1.0);
  EXPECT_NEAR(m.from.heading_deg, 90, 0.5);
  EXPECT_NEAR(m.to.x_mm, 200, 1.0);
  EXPECT_NEAR(m.to.y_mm, 190, 1.0);
  EXPECT_NEAR(m.to.heading_deg, 90, 0.5);
  EXPECT_GE(m.path.size(), 5u) << "the path seen while it moved";
  EXPECT_NEAR(m.started_t, 0.5, 0.25);
  EXPECT_GT(m.ended_t, 1.3);
  EXPECT_GT(m.sigma_mm, 0);
  // The move shows while it happens.
  bool seen_moving = false;
  for (const auto& f : r.frames) seen_moving = seen_moving || UnitOf(f, "B1").state == UnitState::kMoving;
  EXPECT_TRUE(seen_moving);
  EXPECT_EQ(UnitOf(r.frames.back(), "B1").state, UnitState::kAtRest);
  // Rest jitter of B2 after it settled (frames from 0.5 s): far below a 14 px marker's measurement
  // noise (~0.1 mm, ~0.3 deg). The bound stated in TRACKING_NOTES.md: 0.05 mm and 0.1 deg peak to peak.
  double xmin = 1e9, xmax = -1e9, hmin = 1e9, hmax = -1e9;
  for (size_t f = 8; f < r.frames.size(); ++f) {
    const TrackedUnit& u = UnitOf(r.frames[f], "B2");
    ASSERT_EQ(u.state, UnitState::kAtRest) << "frame " << f;
    xmin = std::min(xmin, u.pose.x_mm), xmax = std::max(xmax, u.pose.x_mm);
    hmin = std::min(hmin, u.pose.heading_deg), hmax = std::max(hmax, u.pose.heading_deg);
  }
  EXPECT_LT(xmax - xmin, 0.05) << "mm";
  EXPECT_LT(hmax - hmin, 0.1) << "deg";
  EXPECT_NEAR(UnitOf(r.frames.back(), "B2").pose.x_mm, 260, 0.5);
}

// A hand (radius 45 mm, 80 mm up) sweeps over B1 and B2 and stays a while; they keep their poses,
// are reported occluded, and no move, lift or removal is made up.
TEST(Tracker, HandSweepKeepsPoses) {
  const ClipRun r = Track(R"(
duration_s: 2.4
hands:
  - {radius_mm: 45, height_mm: 80, keys: [{t: 0.5, x_mm: 120, y_mm: 150}, {t: 1.0, x_mm: 230, y_mm: 150}, {t: 1.6, x_mm: 230, y_mm: 150}, {t: 1.8, x_mm: 230, y_mm: 40}]}
)");
  ExpectNoIdentitySwap(r, 2.0);
  EXPECT_TRUE(EventsOf(r, "move").empty());
  EXPECT_TRUE(EventsOf(r, "lifted").empty());
  EXPECT_TRUE(EventsOf(r, "removed").empty());
  EXPECT_FALSE(EventsOf(r, "occluded", "B1").empty());
  EXPECT_FALSE(EventsOf(r, "occluded", "B2").empty());
  int occluded_frames = 0;
  for (size_t f = 0; f < r.frames.size(); ++f)
    for (const std::string id : {"B1", "B2"}) {
      const TrackedUnit& u = UnitOf(r.frames[f], id);
      if (u.state != UnitState::kOccluded) continue;
      ++occluded_frames;
      // Kept where it was, within its uncertainty (3 sigma, at least 0.2 mm).
      EXPECT_LT(Dist(u.pose, r.truth[f].poses.at(id)), std::max(0.2, 3 * u.sigma_mm)) << "frame " << f << " " << id;
    }
  EXPECT_GE(occluded_frames, 10);
  EXPECT_EQ(UnitOf(r.frames.back(), "B1").state, UnitState::kAtRest);
  EXPECT_EQ(UnitOf(r.frames.back(), "B2").state, UnitState::kAtRest);
}

// B2 is lifted at 0.6 s and put back one base width (40 mm) to its right at 1.4 s: "lifted", then
// "replaced" and a move from (260,150) to (300,150); its identity is kept.
TEST(Tracker, LiftAndReplaceOneBaseWidthAway) {
  const ClipRun r = Track(R"(
duration_s: 2.8
units:
  B2:
    keys: [{t: 0.8}, {t: 0.9, x_mm: 300}]
    lifted: [[0.6, 1.4]]
)");
  ExpectNoIdentitySwap(r, 3.0);
  ASSERT_EQ(EventsOf(r, "lifted", "B2").size(), 1u);
  ASSERT_EQ(EventsOf(r, "replaced", "B2").size(), 1u);
  EXPECT_TRUE(EventsOf(r, "removed").empty());
  bool lifted_state = false;
  for (const auto& f : r.frames) lifted_state = lifted_state || UnitOf(f, "B2").state == UnitState::kLifted;
  EXPECT_TRUE(lifted_state);
  const auto moves = EventsOf(r, "move");
  std::string all;
  for (const auto& e : r.events) all += std::string(ToString(e.type)) + " " + e.unit + "\n";
  ASSERT_EQ(moves.size(), 1u) << all;
  EXPECT_EQ(moves[0].unit, "B2");
  EXPECT_NEAR(moves[0].move.from.x_mm, 260, 1.0);
  EXPECT_NEAR(moves[0].move.to.x_mm, 300, 1.0);
  EXPECT_NEAR(moves[0].move.to.y_mm, 150, 1.0);
  EXPECT_NEAR(moves[0].move.to.heading_deg, 90, 0.5);
  EXPECT_EQ(UnitOf(r.frames.back(), "B2").state, UnitState::kAtRest);
}

// The camera is bumped (1.5 deg, 1 deg, 0.5 deg about its axes) at t = 1.0 s: re-registered within a
// second, and no unit moves in table coordinates.
TEST(Tracker, CameraBumpReRegistersWithoutMovingUnits) {
  const ClipRun r = Track(R"(
duration_s: 2.2
camera_moves:
  - {t: 1.0, rotate_deg: [1.5, -1.0, 0.5]}
)");
  ExpectNoIdentitySwap(r, 1.0);
  const auto bumps = EventsOf(r, "camera_moved");
  ASSERT_EQ(bumps.size(), 1u);
  double bump_t = -1;
  for (size_t i = 0; i < r.events.size(); ++i)
    if (r.events[i].type == TrackEventType::kCameraMoved) bump_t = r.event_t[i];
  EXPECT_GE(bump_t, 1.0 - 1e-6);
  EXPECT_LE(bump_t, 2.0);
  EXPECT_NEAR(bumps[0].rotation_deg, std::sqrt(1.5 * 1.5 + 1 + 0.25), 0.2);
  EXPECT_GT(bumps[0].shift_px, 1.0);
  EXPECT_TRUE(EventsOf(r, "move").empty());
  EXPECT_TRUE(EventsOf(r, "lifted").empty());
  for (const std::string id : {"B1", "B2", "R1"}) {
    const TrackedUnit& u = UnitOf(r.frames.back(), id);
    EXPECT_LT(Dist(u.pose, r.truth.back().poses.at(id)), 0.5) << id;
    EXPECT_EQ(u.state, UnitState::kAtRest) << id;
  }
}

// A unit that appears mid-clip (put down at 0.8 s) is found in the frame it appears or the next.
TEST(Tracker, AppearingUnitFoundAtOnce) {
  const ClipRun r = Track(R"(
duration_s: 1.4
units:
  R1: {placed_at: 0.8}
)");
  int placed = -1, found = -1;
  for (size_t f = 0; f < r.frames.size(); ++f) {
    if (placed < 0 && r.truth[f].states.at("R1") == ClipUnitState::kOnTable) placed = int(f);
    if (found < 0 && UnitOf(r.frames[f], "R1").measured) found = int(f);
  }
  ASSERT_GE(placed, 0);
  ASSERT_GE(found, 0);
  EXPECT_LE(found - placed, 1);
  EXPECT_EQ(EventsOf(r, "appeared", "R1").size(), 1u);
  EXPECT_EQ(UnitOf(r.frames.front(), "R1").state, UnitState::kUnseen);
  EXPECT_FALSE(UnitOf(r.frames.front(), "R1").has_pose);
}

// New markers are looked for on the table, not on the floor beside it: after the first frame a
// stray marker 31 is put on the floor, in view; neither the change it makes nor the band sweeping
// the table (twice here) reports it. (Anything surprising on the table would start a whole-picture
// detection, which sees everything.)
TEST(Tracker, NewMarkersAreLookedForOnTheTableOnly) {
  const ClipScript script = ParseClipScript(std::string(kSmallTableClip) + "duration_s: 1\n", "test.clip.yaml");
  ClipRenderer clip(script);
  const Scene start = ClipMomentAt(script, 0).scene;
  Scene shown = start;
  Unit on_floor = *shown.FindUnit("B2");
  on_floor.id = "Y";
  on_floor.marker->id = 31;
  on_floor.pose = Pose{-36, 200, 0};
  shown.units.push_back(on_floor);
  SceneRenderer renderer(clip.intrinsics());
  RenderOptions ro = script.render;
  TrackerOptions options;
  options.band_cycle_s = 0.4;
  Tracker tracker(options, clip.intrinsics(), script.roster, clip.dictionary());
  int unknown = 0, full = 0;
  cv::Mat last;
  for (int f = 0; f < 13; ++f) {
    last = renderer.Render(ro, f == 0 ? start : shown, clip.initial_camera_from_table(), clip.dictionary()).image;
    const TrackFrame tf = tracker.Process(last, f / 15.0);
    full += f > 0 && tf.timing.full_detection;
    for (const auto& e : tf.events) unknown += e.type == TrackEventType::kUnknownMarker;
  }
  EXPECT_EQ(unknown, 0);
  EXPECT_EQ(full, 0);
  DetectorOptions whole;
  whole.min_marker_side_px = 8;
  bool floor_marker_visible = false;
  for (const auto& mo : DetectMarkers(whole, last, clip.dictionary()).markers) floor_marker_visible |= mo.id == 31;
  EXPECT_TRUE(floor_marker_visible) << "the test needs marker 31 in view";
}

// A second marker 11 (B2's) and a marker 30 nobody owns lie on the table: both are reported as
// events, and the tracker does not pick one silently.
TEST(Tracker, DuplicateAndUnknownMarkersAreEvents) {
  const ClipScript script = ParseClipScript(std::string(kSmallTableClip) + "duration_s: 1\n", "test.clip.yaml");
  ClipRenderer clip(script);
  Scene shown = ClipMomentAt(script, 0).scene;
  Unit copy = *shown.FindUnit("B2");
  copy.id = "B2copy";
  copy.pose = Pose{450, 200, 0};
  shown.units.push_back(copy);
  Unit stranger = copy;
  stranger.id = "X";
  stranger.marker->id = 30;
  stranger.pose = Pose{450, 110, 45};
  shown.units.push_back(stranger);
  SceneRenderer renderer(clip.intrinsics());
  RenderOptions ro = script.render;
  TrackerOptions options;
  options.band_cycle_s = 0.75;
  Tracker tracker(options, clip.intrinsics(), script.roster, clip.dictionary());
  std::vector<TrackEvent> events;
  for (int f = 0; f < 13; ++f) {  // 13 frames at 15 fps: the band (one sweep per 0.75 s) has swept the image once
    ro.seed = 1 + f;
    const Rendering img = renderer.Render(ro, shown, clip.initial_camera_from_table(), clip.dictionary());
    for (const auto& e : tracker.Process(img.image, f / 15.0).events) events.push_back(e);
  }
  int dup = 0, unknown = 0;
  for (const auto& e : events) {
    if (e.type == TrackEventType::kDuplicateId) {
      ++dup;
      EXPECT_EQ(e.unit, "B2");
      EXPECT_EQ(e.spots.size(), 2u);
    }
    if (e.type == TrackEventType::kUnknownMarker) {
      ++unknown;
      EXPECT_EQ(e.marker, 30);
    }
  }
  std::string all;
  for (const auto& e : events) all += std::string(ToString(e.type)) + " " + e.unit + "\n";
  EXPECT_EQ(dup, 1) << "reported once while it lasts\n" << all;
  EXPECT_EQ(unknown, 1);
}

TEST(Tracker, OptionsCheckNamesTheProblem) {
  TrackerOptions o;
  std::string error;
  EXPECT_TRUE(o.Check(&error)) << error;
  o.band_cycle_s = -1;
  EXPECT_FALSE(o.Check(&error));
  EXPECT_NE(error.find("band_cycle_s"), std::string::npos);
  o = {};
  o.filter.step_frames = 0;
  EXPECT_FALSE(o.Check(&error));
  EXPECT_NE(error.find("filter: step_frames"), std::string::npos);
  o = {};
  o.move_refine.search_px = 0;
  EXPECT_FALSE(o.Check(&error));
  EXPECT_NE(error.find("move_refine: search_px"), std::string::npos) << error;
  o = {};
  o.rest_refine.passes = 0;
  EXPECT_FALSE(o.Check(&error));
  EXPECT_NE(error.find("rest_refine: passes"), std::string::npos) << error;
  o = {};
  o.registration_refresh_px = 0;
  EXPECT_FALSE(o.Check(&error));
  EXPECT_NE(error.find("registration_refresh_px"), std::string::npos) << error;
  o = {};
  o.spot_refresh_max = 2;
  EXPECT_FALSE(o.Check(&error));
  EXPECT_NE(error.find("spot_refresh_max"), std::string::npos) << error;
  o = {};
  o.band_half_res_min_side_px = -1;
  EXPECT_FALSE(o.Check(&error));
  EXPECT_NE(error.find("band_half_res_min_side_px"), std::string::npos) << error;
}

}  // namespace
}  // namespace vedette::vision
