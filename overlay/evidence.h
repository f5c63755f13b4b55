#pragma once
// "Save evidence": what a judge keeps from a dispute. A PNG of the annotated frame with the measured
// gap drawn and a zoomed inset of it (top right corner), and a JSON record of everything the
// verdicts rest on: the poses and their uncertainties, the calibration and registration, the
// distances and the verdicts.
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <opencv2/core.hpp>

#include "calibration/camera_model.h"
#include "rules/dispute.h"
#include "rules/drawing.h"
#include "rules/scene/scene.h"

namespace vedette::overlay {

struct EvidenceInput {
  cv::Mat frame;                                   // the camera frame, BGR, unannotated
  calib::CameraIntrinsics intrinsics;              // at the frame's size
  calib::CameraFromTable camera_from_table;
  double registration_rms_px = 0;                  // px
  int anchors_seen = 0;
  Scene scene;                                     // with the poses the dispute used
  std::map<std::string, PoseUncertainty> sigmas;
  std::vector<DrawPrimitive> primitives;           // the overlay as shown (the gap is added)
  Dispute dispute;
  std::string source;                              // image or video name, frame number
};

struct EvidenceFiles {
  std::string png, json;
};

// The annotated frame with the inset (what the PNG holds).
cv::Mat EvidenceImage(const EvidenceInput& in);
nlohmann::json EvidenceJson(const EvidenceInput& in);
// Writes PREFIX.png and PREFIX.json; throws InputError naming a file that cannot be written.
EvidenceFiles SaveEvidence(const EvidenceInput& in, const std::string& prefix);

}  // namespace vedette::overlay
