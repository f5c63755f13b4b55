// The camera file reader (OpenCV FileStorage: YAML, XML or JSON): a camera that is read has a
// usable lens (positive focal lengths, finite distortion, a sane image size).
#include <cmath>

#include "calibration/camera_model.h"
#include "tests/fuzz/fuzz_input.h"

using namespace vedette;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    const calib::CameraIntrinsics k = calib::ParseIntrinsics(fuzz::Text(data, size), "fuzz_cam.yaml");
    fuzz::Require(k.camera_matrix(0, 0) > 0 && k.camera_matrix(1, 1) > 0, "positive focal lengths");
    fuzz::Require(cv::checkRange(k.distortion), "finite distortion");
    fuzz::Require(k.image_size.width >= 0 && k.image_size.width <= 16384 && k.image_size.height <= 16384, "a sane image size");
  } catch (const InputError&) {
  }
  return 0;
}
