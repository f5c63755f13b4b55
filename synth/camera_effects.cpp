#include "synth/camera_effects.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <unistd.h>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

namespace vedette::synth {

bool CameraEffects::Check(std::string* error) const {
  auto fail = [&](const std::string& m) { if (error) *error = m; return false; };
  if (!(light_gradient >= 0 && light_gradient < 1)) return fail("light_gradient must be in [0, 1)");
  if (!(vignetting >= 0 && vignetting < 1)) return fail("vignetting must be in [0, 1)");
  // Each patch costs a pass over the image: thousands would render for hours, and 64 is far beyond a table.
  if (glare_patches < 0 || glare_patches > 64) return fail("glare_patches must be in [0, 64]");
  if (!(glare_radius_px > 0 && glare_radius_px <= 4000)) return fail("glare_radius_px must be in (0, 4000] px");
  if (!(blur_sigma_px >= 0 && blur_sigma_px <= 10)) return fail("blur_sigma_px must be in [0, 10]");
  if (!(motion_blur_px >= 0 && motion_blur_px <= 50)) return fail("motion_blur_px must be in [0, 50]");
  if (!(exposure > 0.05 && exposure <= 1)) return fail("exposure must be in (0.05, 1]");
  if (!(read_noise >= 0) || !(shot_noise >= 0)) return fail("noise levels must be >= 0");
  if (jpeg_quality < 0 || jpeg_quality > 100) return fail("jpeg_quality must be 0 (none) or 1..100");
  if (h264_crf < 0 || h264_crf > 51) return fail("h264_crf must be 0 (none) or 1..51");
  return true;
}

namespace {

// A ramp across the image in a random direction plus a broad lamp-shaped bump, then vignetting.
cv::Mat LightGain(const CameraEffects& o, cv::Size size, cv::RNG& rng) {
  cv::Mat gain(size, CV_32F);
  const double ang = rng.uniform(0.0, 2 * CV_PI);
  const cv::Point2d bump(rng.uniform(0.2, 0.8) * size.width, rng.uniform(0.2, 0.8) * size.height);
  const double bump_r = rng.uniform(0.3, 0.6) * size.width;
  const cv::Point2d centre(size.width / 2.0, size.height / 2.0);
  const double rmax2 = centre.dot(centre);
  for (int y = 0; y < size.height; ++y) {
    float* g = gain.ptr<float>(y);
    for (int x = 0; x < size.width; ++x) {
      const cv::Point2d p(x, y);
      const cv::Point2d d = p - centre;
      const double ramp = (d.x * std::cos(ang) + d.y * std::sin(ang)) / std::sqrt(rmax2);
      const cv::Point2d db = p - bump;
      const double blob = std::exp(-db.dot(db) / (2 * bump_r * bump_r));
      const double light = 1 + o.light_gradient * (0.6 * ramp + 0.4 * (2 * blob - 1));
      g[x] = float(light * (1 - o.vignetting * d.dot(d) / rmax2));
    }
  }
  return gain;
}

// A lamp's reflection adds light regardless of what is printed under it: ink and paper both come
// out near white at its centre, which is what erases markers under a glossy sleeve.
void AddGlare(const CameraEffects& o, cv::Mat& radiance, cv::RNG& rng) {
  const cv::Size size = radiance.size();
  for (int i = 0; i < o.glare_patches; ++i) {
    const cv::Point2d c(rng.uniform(0.1, 0.9) * size.width, rng.uniform(0.1, 0.9) * size.height);
    const double r = o.glare_radius_px * rng.uniform(0.7, 1.4);
    const double aspect = rng.uniform(0.5, 1.0), ang = rng.uniform(0.0, CV_PI);
    const double peak = rng.uniform(250.0, 400.0);  // grey levels added at the centre: at and past saturation
    const int reach = int(std::ceil(3 * r));
    const cv::Rect box = cv::Rect(int(c.x) - reach, int(c.y) - reach, 2 * reach + 1, 2 * reach + 1) & cv::Rect({}, size);
    const double ca = std::cos(ang), sa = std::sin(ang), k = std::log(2.0) / (r * r);
    for (int y = box.y; y < box.y + box.height; ++y) {
      cv::Vec3f* p = radiance.ptr<cv::Vec3f>(y);
      for (int x = box.x; x < box.x + box.width; ++x) {
        const double dx = x - c.x, dy = y - c.y;
        const double u = dx * ca + dy * sa, v = (-dx * sa + dy * ca) / aspect;
        const float add = float(peak * std::exp(-k * (u * u + v * v)));
        p[x] += cv::Vec3f(add, add, add);
      }
    }
  }
}

void MotionBlur(const CameraEffects& o, cv::Mat& radiance) {
  // A streak of the given length: a line kernel drawn anti-aliased, normalised to keep the light.
  const int n = 2 * int(std::ceil(o.motion_blur_px / 2)) + 3;
  cv::Mat kernel = cv::Mat::zeros(n, n, CV_32F);
  const double a = o.motion_blur_deg * CV_PI / 180, h = o.motion_blur_px / 2;
  const int steps = std::max(2, int(std::ceil(o.motion_blur_px * 8)));
  for (int i = 0; i <= steps; ++i) {
    const double t = -h + 2 * h * i / steps;
    const double x = (n - 1) / 2.0 + t * std::cos(a), y = (n - 1) / 2.0 + t * std::sin(a);
    const int x0 = int(std::floor(x)), y0 = int(std::floor(y));
    const float fx = float(x - x0), fy = float(y - y0);
    kernel.at<float>(y0, x0) += (1 - fx) * (1 - fy);
    kernel.at<float>(y0, x0 + 1) += fx * (1 - fy);
    kernel.at<float>(y0 + 1, x0) += (1 - fx) * fy;
    kernel.at<float>(y0 + 1, x0 + 1) += fx * fy;
  }
  kernel /= cv::sum(kernel)[0];
  cv::filter2D(radiance, radiance, -1, kernel, cv::Point(-1, -1), 0, cv::BORDER_REPLICATE);
}

// The sensor sees exposure x the light; read and shot noise are added there; the camera's gain
// then scales the picture back, noise and all.
void AddNoise(const CameraEffects& o, cv::Mat& radiance, cv::RNG& rng) {
  cv::Mat noise(radiance.size(), CV_32FC3);
  rng.fill(noise, cv::RNG::NORMAL, 0, 1);
  const float read2 = float(o.read_noise * o.read_noise), shot = float(o.shot_noise), e = float(o.exposure);
  const int width = radiance.cols * 3;
  cv::parallel_for_(cv::Range(0, radiance.rows), [&](const cv::Range& rows) {
    for (int y = rows.start; y < rows.end; ++y) {
      float* p = radiance.ptr<float>(y);
      const float* q = noise.ptr<float>(y);
      for (int i = 0; i < width; ++i) {
        const float signal = e * std::max(0.0f, p[i]);
        p[i] += q[i] * std::sqrt(read2 + shot * signal) / e;
      }
    }
  });
}

}  // namespace

cv::Mat ApplyCameraEffects(const CameraEffects& o, cv::Mat radiance, cv::RNG& rng, uint64_t glare_seed) {
  std::string error;
  if (!o.Check(&error)) throw std::invalid_argument("CameraEffects: " + error);
  CV_Assert(radiance.type() == CV_32FC3);
  const cv::Mat gain = LightGain(o, radiance.size(), rng);
  std::vector<cv::Mat> ch;
  cv::split(radiance, ch);
  for (cv::Mat& c : ch) c = c.mul(gain);
  cv::merge(ch, radiance);
  if (o.glare_patches > 0) {
    cv::RNG glare_rng(glare_seed * 31 + 7);
    AddGlare(o, radiance, glare_rng);
  }
  if (o.blur_sigma_px > 0) cv::GaussianBlur(radiance, radiance, cv::Size(), o.blur_sigma_px);
  if (o.motion_blur_px > 0) MotionBlur(o, radiance);
  if (o.read_noise > 0 || o.shot_noise > 0) AddNoise(o, radiance, rng);
  cv::Mat out;
  radiance.convertTo(out, CV_8UC3);
  if (o.jpeg_quality > 0) {
    std::vector<uchar> buf;
    cv::imencode(".jpg", out, buf, {cv::IMWRITE_JPEG_QUALITY, o.jpeg_quality});
    out = cv::imdecode(buf, cv::IMREAD_COLOR);
  }
  if (o.h264_crf > 0) out = EncodeDecodeH264(out, o.h264_crf);
  return out;
}

cv::Mat EncodeDecodeH264(const cv::Mat& bgr, int crf) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("vedette-h264-" + std::to_string(::getpid()) + "-" +
                                                    std::to_string(reinterpret_cast<uintptr_t>(bgr.data)));
  fs::create_directories(dir);
  const fs::path in = dir / "in.png", mkv = dir / "f.mkv", back = dir / "out.png";
  struct Cleanup { fs::path d; ~Cleanup() { std::error_code ec; fs::remove_all(d, ec); } } cleanup{dir};
  if (!cv::imwrite(in.string(), bgr)) throw std::runtime_error("H.264 simulation: cannot write " + in.string());
  // yuv420p as webcams send it: the chroma is halved too.
  const std::string cmd = "ffmpeg -nostdin -loglevel error -y -i '" + in.string() +
                          "' -c:v libx264 -preset veryfast -tune zerolatency -pix_fmt yuv420p -crf " + std::to_string(crf) +
                          " '" + mkv.string() + "' && ffmpeg -nostdin -loglevel error -y -i '" + mkv.string() + "' '" +
                          back.string() + "'";
  if (std::system(cmd.c_str()) != 0) throw std::runtime_error("H.264 simulation: ffmpeg failed (is the ffmpeg package installed?): " + cmd);
  cv::Mat out = cv::imread(back.string(), cv::IMREAD_COLOR);
  if (out.size() != bgr.size()) throw std::runtime_error("H.264 simulation: ffmpeg returned no frame of the input's size");
  return out;
}

}  // namespace vedette::synth
