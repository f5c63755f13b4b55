#pragma once
// What a webcam does to the light that reaches it, in image space, after the scene has been traced:
// uneven light and vignetting, specular glare, defocus and motion blur, sensor noise at an exposure,
// 8-bit quantisation, and the codec (MJPEG is JPEG per frame; H.264 through ffmpeg's x264).
// Each effect is a parameter with a physical meaning, so a benchmark condition names what a real
// table does ("a window on one side", "a glossy sleeve under a lamp", "a dim room"), not a number
// tuned until the detector passes.
#include <cstdint>
#include <string>

#include <opencv2/core.hpp>

namespace vedette::synth {

struct CameraEffects {
  double light_gradient = 0.25;   // brightness varies by up to this fraction across the image (0.5: one side at a third of the other)
  double vignetting = 0.2;        // brightness lost in the image corners, fraction
  int glare_patches = 0;          // specular reflections of a lamp in glossy prints, sleeves or a mat: saturated soft blobs
  double glare_radius_px = 40;    // a glare patch's radius where it has half its strength, px
  double blur_sigma_px = 0.8;     // defocus and lens blur, Gaussian sigma, px (0: none)
  double motion_blur_px = 0;      // camera shake or a bumped table during the exposure: blur streak length, px (0: none)
  double motion_blur_deg = 30;    // the streak's direction in the image, deg from +x
  double exposure = 1.0;          // light the sensor collects relative to a well-lit table; the camera's gain brings the
                                  // picture back, multiplying the noise by 1 / exposure (0.3: a dim room)
  double read_noise = 2.0;        // sensor read noise, sigma in grey levels (of 255) at exposure 1
  double shot_noise = 0.03;       // photon noise: variance adds shot_noise * level (grey levels) at exposure 1
  int jpeg_quality = 92;          // JPEG / MJPEG quality 1..100 (webcam MJPEG streams run at about 50-80); 0: none
  int h264_crf = 0;               // H.264 (x264) constant rate factor (webcam streams ~ 28-35 at 1080p); 0: none
  bool Check(std::string* error) const;
};

// radiance: CV_32FC3, linear grey levels (0..255 for white paper under the main light). Returns
// the 8-bit BGR frame. rng: the render's generator, continued (lighting, then noise); glare draws
// from its own generator seeded by glare_seed, so turning glare on leaves the rest of the picture's
// light and noise as they were.
cv::Mat ApplyCameraEffects(const CameraEffects& o, cv::Mat radiance, cv::RNG& rng, uint64_t glare_seed);

// One frame through ffmpeg's libx264 at the given CRF (an intra frame, as after a scene cut or at a
// key frame); throws std::runtime_error naming what failed when ffmpeg is missing or fails.
cv::Mat EncodeDecodeH264(const cv::Mat& bgr, int crf);

}  // namespace vedette::synth
