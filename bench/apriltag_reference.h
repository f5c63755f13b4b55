#pragma once
// AprilTag 3 (Debian's libapriltag 3.3), the detector robotics holds as the reference, run the way
// the condition benchmark and test compare against it: tag36h11, one thread, refine_edges on (the
// library's default), quad_decimate as given (1: its best for small tags). Its corners put pixel
// centres at 0.5; they are moved by -0.5 px to the convention of OpenCV and the renderer's truth
// (centres at integers).
#include <vector>

#include <apriltag/apriltag.h>
#include <apriltag/tag36h11.h>
#include <opencv2/core.hpp>

#include "calibration/marker_observation.h"

namespace vedette::bench {

inline std::vector<calib::MarkerObservation> AprilTag36h11(const cv::Mat& gray, float quad_decimate) {
  apriltag_family_t* family = tag36h11_create();
  apriltag_detector_t* td = apriltag_detector_create();
  apriltag_detector_add_family(td, family);
  td->quad_decimate = quad_decimate;
  td->nthreads = 1;
  image_u8_t im{gray.cols, gray.rows, int(gray.step), gray.data};
  zarray_t* dets = apriltag_detector_detect(td, &im);
  std::vector<calib::MarkerObservation> out;
  for (int i = 0; i < zarray_size(dets); ++i) {
    apriltag_detection_t* d;
    zarray_get(dets, i, &d);
    calib::MarkerObservation m;
    m.id = d->id;
    for (int j = 0; j < 4; ++j) m.corners_px[j] = cv::Point2f(float(d->p[j][0] - 0.5), float(d->p[j][1] - 0.5));
    out.push_back(m);
  }
  apriltag_detections_destroy(dets);
  apriltag_detector_destroy(td);
  tag36h11_destroy(family);
  return out;
}

}  // namespace vedette::bench
