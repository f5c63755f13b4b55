#include "overlay/still_image.h"

#include "calibration/dictionary.h"
#include "rules/input_error.h"
#include "vision/detect.h"

namespace vedette::overlay {

StillLocation LocateStill(const cv::Mat& image, const std::string& image_name, const calib::CameraIntrinsics& intrinsics,
                          const Scene& roster) {
  if (roster.dictionary.empty())
    throw InputError(roster.source, 0, "the roster names no marker `dictionary:` (e.g. DICT_4X4_50)");
  StillLocation out;
  out.intrinsics = intrinsics.image_size == image.size() ? intrinsics : calib::ScaledTo(intrinsics, image.size());
  const cv::Ptr<cv::aruco::Dictionary> dict = calib::ResolveDictionary(roster.dictionary);
  const vision::Detections det = vision::DetectMarkers(vision::DetectorOptionsFor(roster, out.intrinsics), image, *dict);
  out.detect_ms = det.ms;
  out.location = vision::LocateBases(vision::LocateOptions{}, out.intrinsics, roster, det.markers);
  if (!out.location.registration.ok)
    throw InputError(image_name, 0, "the table is not registered: " + out.location.registration.message);
  out.scene = roster;
  for (Unit& u : out.scene.units) u.pose.reset();  // a roster may carry start poses: only what is seen counts
  for (const vision::BasePoseEstimate& e : out.location.units) {
    if (Unit* u = out.scene.FindUnit(e.unit)) u->pose = e.pose;
    out.sigmas[e.unit] = PoseUncertainty{e.sigma_mm, e.sigma_deg};
  }
  return out;
}

}  // namespace vedette::overlay
