#pragma once
// Table registration: anchor markers lying flat at known table positions give camera_from_table
// for every frame, so a bumped camera re-registers by itself.
#include <string>
#include <vector>

#include "calibration/camera_model.h"
#include "calibration/marker_observation.h"
#include "rules/scene/scene.h"

namespace vedette::calib {

struct RegistrationOptions {
  int min_anchors = 3;                   // anchors needed (each gives 4 corners)
  double ransac_reprojection_px = 3.0;   // inlier threshold for outlier rejection, px
  bool Check(std::string* error) const;  // names the violated constraint
};

struct Registration {
  bool ok = false;
  CameraFromTable camera_from_table;
  std::vector<int> anchors_seen;       // anchor marker IDs found in the image
  std::vector<int> anchors_used;       // inliers used for the pose
  double rms_px = 0.0;                 // reprojection RMS over the inlier corners, px
  std::string message;                 // why it failed, in words (which anchors were seen)
  // Measured vs known distance between every pair of used anchors (mm): the check readout.
  struct PairCheck { int a, b; double known_mm, measured_mm; };
  std::vector<PairCheck> checks;
};

// Table-frame corners (mm, z = 0) of an anchor, in OpenCV's corner order.
std::array<cv::Point3d, 4> AnchorCornersInTable(const Anchor& anchor);

// The check readout for a person, one line per anchor pair, e.g.
//   "anchors 0-1: known 1120.0 mm, measured 1120.4 mm (+0.4)"
// followed by the largest disagreement. Empty when fewer than two anchors were used.
std::string CheckReadout(const Registration& registration);
// Largest |measured - known| over the pair checks, mm (0 without checks).
double WorstCheckErrorMm(const Registration& registration);

Registration RegisterTable(const RegistrationOptions& options, const CameraIntrinsics& intrinsics,
                           const std::vector<Anchor>& anchors, const std::vector<MarkerObservation>& observations);

}  // namespace vedette::calib
