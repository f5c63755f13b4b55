#pragma once
// Clip scripts: a synthetic video described in a few lines of YAML, so tests, the tracking
// benchmark and the demo battle all share one ground truth. A script names a roster (a scene file;
// its unit poses are the start poses), a synthetic webcam over the roster's table, the frame rate and
// length, and what happens over time: units moving along pose keyframes, lifted and put back, placed
// or taken away, hands sweeping over the table, the camera being bumped.
//
//   # demo.clip.yaml
//   roster: ../scenes/demo_roster.yaml   # relative to this file; needs `dictionary`, anchors, unit markers
//   fps: 15                               # frames per second (1..240)
//   duration_s: 4.0                       # frames = round(duration_s * fps)
//   camera:                               # SyntheticCameraOptions (synth/synthetic_camera.h); all optional
//     image_size: [960, 540]              # px
//     height_mm: 0                        # camera above the table, mm (0: from horizontal_fov_deg)
//     tilt_deg: 0                         # optical axis from straight down towards player B, deg
//     horizontal_fov_deg: 70
//     margin: 0.04                        # free border around the table, fraction of the image
//     k1: -0.06                           # lens distortion (also k2, p1, p2, k3)
//   render:                               # RenderOptions (synth/renderer.h); all optional
//     {supersample: 3, blur_sigma_px: 0.8, read_noise: 2.0, shot_noise: 0.03, light_gradient: 0.25,
//      vignetting: 0.2, jpeg_quality: 0, seed: 1}
//   units:                                # only units that do something; the others rest at their roster pose
//     B1:
//       keys:                             # pose over time: linear between keys, held before the first and after the last
//         - {t: 0.0, x_mm: 300, y_mm: 200, heading_deg: 90}
//         - {t: 1.0, y_mm: 240}           # a field left out keeps the previous key's value
//       lifted: [[2.0, 2.6]]              # off the table for t in [2.0, 2.6) s (state "lifted" in the truth)
//       placed_at: 0.5                    # not on the table before this time, s (state "absent")
//       removed_at: 3.0                   # taken away for good from this time, s (state "removed")
//   hands:                                # occluders held above the table, drawn over everything
//     - {radius_mm: 45, height_mm: 90, keys: [{t: 0.5, x_mm: 100, y_mm: 100}, {t: 1.5, x_mm: 500, y_mm: 100}]}
//       # present only from the first key's t to the last key's t; optional `seed` shapes the outline
//   camera_moves:                         # the camera bumped: from time t on, an extra rotation (deg, about
//     - {t: 2.0, rotate_deg: [0.5, -1.0, 0.3], translate_mm: [2, 0, 0]}  # the camera's x, y, z axes) and shift
//                                         # (mm, camera frame); moves add up in time order
//   declarations:                         # what the players declare as the game goes (the overlay's state
//     - {t: 7.9, unit: R2, key: state, value: routed}   # menu): applied from the first frame at or after t
//
// Bad scripts throw vedette::InputError naming the script file, the line and what is wrong (a bad
// roster names the roster's file and line).
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "calibration/camera_model.h"
#include "rules/scene/scene.h"
#include "synth/renderer.h"
#include "synth/synthetic_camera.h"

namespace vedette::synth {

// One pose keyframe; a field left out (nullopt) keeps the previous key's value.
struct ClipPoseKey {
  double t = 0;                       // s
  std::optional<double> x_mm, y_mm;   // table frame, mm
  std::optional<double> heading_deg;  // deg counter-clockwise from +x
  int line = 0;
};

struct ClipUnitScript {
  std::string id;
  std::vector<ClipPoseKey> keys;                      // sorted by t
  std::vector<std::pair<double, double>> lifted;      // [t0, t1) intervals, s
  std::optional<double> placed_at, removed_at;        // s
  int line = 0;
};

struct ClipHandKey {
  double t = 0;        // s
  double x_mm = 0, y_mm = 0;  // centre of the hand, table frame, mm
};

struct ClipHand {
  double radius_mm = 45;   // mean radius of the blob, mm
  double height_mm = 90;   // above the table, mm
  int seed = 1;            // outline shape
  std::vector<ClipHandKey> keys;  // sorted by t; the hand exists from the first to the last key
  int line = 0;
};

struct ClipCameraMove {
  double t = 0;                      // s
  cv::Vec3d rotate_deg{0, 0, 0};     // about the camera's x, y, z axes, deg
  cv::Vec3d translate_mm{0, 0, 0};   // camera frame, mm
  int line = 0;
};

// A declaration made at a time (the players set a unit's state in the overlay).
struct ClipDeclaration {
  double t = 0;          // s
  std::string unit, key;
  nlohmann::json value;
  int line = 0;
};

struct ClipScript {
  std::string source;                // the script file ("" when parsed from text)
  std::string roster_path;           // resolved path of the roster
  Scene roster;                      // units keep their roster poses (start poses) where given
  double fps = 15;
  double duration_s = 4;
  SyntheticCameraOptions camera;     // table size is taken from the roster
  RenderOptions render;
  std::vector<ClipUnitScript> units; // scripted units
  std::vector<ClipHand> hands;
  std::vector<ClipCameraMove> camera_moves;  // sorted by t
  std::vector<ClipDeclaration> declarations; // sorted by t

  int FrameCount() const;            // round(duration_s * fps), at least 1
  double TimeOf(int frame) const { return frame / fps; }
};

// Reads a clip script; relative roster paths are taken from the script's folder.
ClipScript LoadClipScript(const std::string& path);
// Same from text; base_dir resolves the roster path ("" = current folder). A script may also carry
// the roster inline under `roster_scene:` (a scene mapping) instead of `roster:`.
ClipScript ParseClipScript(const std::string& text, const std::string& source_name, const std::string& base_dir = "");

// Truth state of a unit at one time.
enum class ClipUnitState { kOnTable, kLifted, kAbsent, kRemoved };
std::string_view ToString(ClipUnitState s);  // "on_table", "lifted", "absent", "removed"

struct ClipHandAt {
  double x_mm = 0, y_mm = 0, radius_mm = 0, height_mm = 0;
  int seed = 1;
};

// Everything true at one time: the scene with the units on the table placed (units off the table
// have no pose), each roster unit's state and pose (the pose it has or last had), the hands, and
// where the camera is.
struct ClipMoment {
  int frame = 0;
  double t = 0;                                      // s
  Scene scene;
  std::map<std::string, ClipUnitState> states;       // every roster unit
  std::map<std::string, Pose> poses;                 // every unit with a pose at or before t
  std::vector<ClipHandAt> hands;
  calib::CameraFromTable camera_from_table;
};

// The synthetic camera of the script (intrinsics and the pose before any camera move).
SyntheticCamera ClipCamera(const ClipScript& script);
ClipMoment ClipMomentAt(const ClipScript& script, int frame);
// The declarations that take effect with this frame (t in (t(frame-1), t(frame)]).
std::vector<ClipDeclaration> ClipDeclarationsAt(const ClipScript& script, int frame);

// The camera pose after a bump: rotation about the camera's own axes, then a shift in its frame.
calib::CameraFromTable BumpCamera(const calib::CameraFromTable& camera_from_table, const cv::Vec3d& rotate_deg,
                                  const cv::Vec3d& translate_mm);

}  // namespace vedette::synth
