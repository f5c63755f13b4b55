#pragma once
// Is the camera set up well enough to play? One picture, the camera's lens and the roster in; for
// every anchor and every unit out: seen or not, and how well: the marker's size in px against the
// smallest the detector reads reliably, how sharp its edges are, its contrast and exposure; then
// the table's registration (RMS, and the known distances between anchors measured again); then
// what to change, in a player's words, and READY or NOT READY.
//
// The measures, each with a physical meaning and a threshold (ViewCheckOptions):
//   - side: mean of the marker's 4 sides, px. Vedette's detector reads every marker from 18 px
//     (100 % recall over 16 benchmark scenes, README "Recall by marker side"), but only 65 % at
//     12-18 px: a marker under 18 px may be lost on any frame.
//   - sharpness: the 10-90 % rise width of the marker's edges, px. The marker's own pattern, seen
//     through its corners, is what the picture would show without blur; the Gaussian blur sigma s
//     (with the black and white levels) that best turns it into profiles taken across the 4 sides
//     is fitted, and the rise of an edge blurred by it is 2.56 s. A focused camera's edges rise
//     over about 1.5-2.5 px. The benchmark's 100 % recall covered blur up to sigma 1.2 px (rise
//     ~3.1 px), so wider than 3.5 px is "out of focus". The fit uses the whole pattern, so it still
//     reads a blur as wide as a cell, where a small marker's border never reaches its true black.
//   - contrast: the fitted white level minus the fitted black level, grey levels: the print's
//     contrast under this light, blur set apart (blur is the sharpness's business). The detector
//     needs 15 between cells; 40 leaves room for noise and uneven light.
//   - exposure: the mean grey level round the marker, and the share of its pixels clipped at 0 or
//     255 (what was lost to darkness or glare cannot be read back).
// Perception only: no rules, no JSON; the CLI (`vedette check`) and the live window's set-up panel
// both show this struct.
#include <array>
#include <string>
#include <string_view>
#include <vector>

#include <opencv2/core.hpp>

#include "calibration/camera_model.h"
#include "calibration/registration.h"
#include "rules/scene/scene.h"

namespace vedette::vision {

struct ViewCheckOptions {
  double min_reliable_side_px = 18.0;     // marker side from which the detector's recall is 100 % (README), px
  double max_edge_rise_px = 3.5;          // 10-90 % edge rise beyond which the picture is blurred, px
  double min_contrast = 40.0;             // white cells minus black cells at a marker, grey levels (of 255)
  double min_white_level = 80.0;          // white cells darker than this: too little light, grey levels
  double max_clipped_share = 0.05;        // share of pixels round a marker at 0 or 255 beyond which it is clipped
  double max_registration_rms_px = 1.0;   // anchor corners' reprojection RMS beyond which the table is not trusted, px
  double max_distance_error_mm = 2.0;     // |measured - known| distance between two anchors beyond which one is off its spot, mm
  double min_image_mean_level = 40.0;     // a whole picture darker than this is too dark, grey levels
  calib::RegistrationOptions registration;
  bool Check(std::string* error) const;
};

// How one marker looks in the picture. Everything but `seen` and `marker` is 0 when not seen.
struct MarkerQuality {
  int marker = -1;             // marker ID
  bool seen = false;           // detected (once: a marker seen at two spots is not `seen`)
  double side_px = 0;          // mean of the 4 sides, px
  double edge_rise_px = 0;     // 10-90 % rise width of the marker's edges (2.56 x fitted blur sigma), px (0: no fit)
  double black_level = 0;      // fitted grey of the black print, grey levels
  double white_level = 0;      // fitted grey of the white print, grey levels
  double contrast = 0;         // white_level - black_level, grey levels
  double mean_level = 0;       // mean grey over the marker and one cell round it, grey levels
  double clipped_share = 0;    // share of those pixels at 0 or 255
};

// What is wrong with one marker, each a reason for NOT READY (kClipped only advises).
enum class MarkerProblem { kNotSeen, kSeenTwice, kSmall, kBlurred, kDark, kLowContrast, kClipped };
std::string_view ToString(MarkerProblem p);

struct MarkerCheck {
  std::string name;               // "anchor 2" or the unit's id
  bool anchor = false;
  double size_mm = 0;             // printed marker side from the roster, mm
  MarkerQuality quality;
  double expected_side_px = 0;    // not seen: its side at the anchors' scale (px per mm), px (0: no anchor seen)
  std::vector<MarkerProblem> problems;  // empty: fine; a marker not seen whose expected side is under
                                        // the reliable size is also kSmall (the likely reason)
};

struct ViewCheck {
  std::vector<MarkerCheck> anchors;  // roster order
  std::vector<MarkerCheck> units;    // roster order (units with a marker)
  calib::Registration registration;  // ok == false with its message when too few anchors were seen
  double worst_distance_error_mm = 0;  // largest |measured - known| over the anchor pairs, mm
  std::vector<int> unknown_markers;  // IDs seen that the roster does not list
  std::vector<int> duplicate_ids;    // IDs seen at two or more spots
  double image_mean_level = 0;       // whole picture, grey levels
  double image_clipped_share = 0;    // whole picture, share of pixels at 0 or 255
  std::vector<std::string> advice;   // what to change, most important first; empty when READY
  bool ready = false;                // all anchors seen and used, registration within its limits,
                                     // every unit's marker seen once at a reliable size, sharp, with contrast
  double ms = 0;                     // time taken, ms
};

// Measures one detected marker (corners in OpenCV order, px) in an 8-bit grey image; `cells`:
// cells per side including the border (6 for 4x4 markers); `bits`: MarkerCells of its ID
// (255 white, 0 black): the pattern the blur is fitted to.
MarkerQuality MeasureMarker(const cv::Mat& gray, const std::array<cv::Point2f, 4>& corners_px, int cells,
                            const cv::Mat& bits);

// The whole check. image: 8-bit grey or BGR; k at the image's size. Throws std::invalid_argument
// for bad options, vedette::InputError for a roster without a dictionary.
ViewCheck CheckView(const ViewCheckOptions& options, const cv::Mat& image, const calib::CameraIntrinsics& k,
                    const Scene& roster);

}  // namespace vedette::vision
