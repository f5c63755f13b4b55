#pragma once
// Base poses in table millimetres from detected markers: undistort each marker's corners, intersect
// the viewing rays with the plane of the marker's face (z = marker height, so a raised marker's
// parallax is corrected), take the centre and heading from all four corners, then apply the roster's
// marker mount (offset, heading) to get the unit's pose, with an uncertainty from the corner
// residuals and the geometry.
#include <string>
#include <vector>

#include "calibration/camera_model.h"
#include "calibration/marker_observation.h"
#include "calibration/registration.h"
#include "rules/scene/scene.h"

namespace vedette::vision {

struct BasePoseEstimate {
  std::string unit;        // unit ID in the roster
  int marker = -1;         // its marker ID
  Pose pose;               // unit pose, table frame (mm, deg)
  double sigma_mm = 0;     // 1-sigma uncertainty of the unit's position, mm
  double sigma_deg = 0;    // 1-sigma uncertainty of its heading, deg
};

struct LocateOptions {
  calib::RegistrationOptions registration;
  double corner_sigma_px = 0.1;  // assumed corner noise floor (refined corners), px; combined with residuals
  bool Check(std::string* error) const;
};

struct Location {
  calib::Registration registration;
  std::vector<BasePoseEstimate> units;  // located roster units, roster order
  std::vector<int> unknown_markers;     // detected IDs that are neither an anchor nor a unit's marker
  std::vector<int> duplicate_ids;       // unit marker IDs seen at two spots (those units are not located)
};

// Registers the table from the anchors, then locates every unit whose marker was seen.
// registration.ok == false (with its message) when too few anchors were seen; units is then empty.
Location LocateBases(const LocateOptions& options, const calib::CameraIntrinsics& k, const Scene& roster,
                     const std::vector<calib::MarkerObservation>& markers);

// Same with a camera pose already known (tracked registration). Markers of unknown or duplicated
// IDs are skipped.
std::vector<BasePoseEstimate> PosesFromMarkers(const calib::CameraIntrinsics& k, const calib::CameraFromTable& camera_from_table,
                                               const Scene& roster, const std::vector<calib::MarkerObservation>& markers);

// One marker's centre (mm) and top-edge heading (deg) on the plane z = height_mm, and the RMS
// distance (mm) of its 4 corners from the best-fitting square of side size_mm (the residual).
struct MarkerOnPlane {
  cv::Point2d centre_mm;
  double heading_deg = 0;
  double residual_mm = 0;
  double side_mm = 0;       // measured mean side, mm
  double mm_per_px = 0;     // local scale of the image on that plane, mm per px
  bool ok = false;
};
MarkerOnPlane MarkerPoseOnPlane(const calib::CameraIntrinsics& k, const calib::CameraFromTable& camera_from_table,
                                const std::array<cv::Point2f, 4>& corners_px, double height_mm, double size_mm);

}  // namespace vedette::vision
