#include "calibration/board_render.h"

#include <cmath>
#include <random>

#include <opencv2/calib3d.hpp>
#include <opencv2/imgproc.hpp>

#include "rules/input_error.h"

namespace vedette::calib {

bool BoardRenderOptions::Check(std::string* error) const {
  auto fail = [&](const std::string& m) {
    if (error) *error = m;
    return false;
  };
  if (image_size.width <= 0 || image_size.height <= 0) return fail("image_size must be positive");
  if (supersample < 1 || supersample > 16) return fail("supersample must be 1..16");
  if (!(blur_sigma_px >= 0) || !(noise_sigma >= 0)) return fail("blur_sigma_px and noise_sigma must be >= 0");
  if (!(sheet_margin_mm >= 0)) return fail("sheet_margin_mm must be >= 0");
  return true;
}

cv::Mat RenderBoard(const BoardRenderOptions& o, const BoardPattern& pattern, const RowToBoard& row_to_board) {
  if (std::string error; !o.Check(&error)) throw InputError("BoardRenderOptions", 0, error);
  cv::Mat_<float> out(o.image_size);
  const int s = o.supersample;
  const cv::Rect2d sheet(-o.sheet_margin_mm, -o.sheet_margin_mm, pattern.width_mm + 2 * o.sheet_margin_mm,
                         pattern.height_mm + 2 * o.sheet_margin_mm);
  cv::parallel_for_(cv::Range(0, o.image_size.height), [&](const cv::Range& rows) {
    std::vector<cv::Point2d> pixels, board;
    for (int v = rows.start; v < rows.end; ++v) {
      // Samples of row v: pixel-major, then sub-row j, then sub-column i.
      pixels.clear();
      for (int u = 0; u < o.image_size.width; ++u)
        for (int j = 0; j < s; ++j)
          for (int i = 0; i < s; ++i) pixels.emplace_back(u - 0.5 + (i + 0.5) / s, v - 0.5 + (j + 0.5) / s);
      board.assign(pixels.size(), cv::Point2d());
      row_to_board(pixels, &board);
      size_t k = 0;
      for (int u = 0; u < o.image_size.width; ++u) {
        double sum = 0;
        for (int n = 0; n < s * s; ++n, ++k) {
          const cv::Point2d& b = board[k];
          if (!std::isfinite(b.x) || !std::isfinite(b.y) || !sheet.contains(b)) sum += o.background_level;
          else sum += IsBlackAt(pattern, b) ? o.black_level : o.white_level;
        }
        out(v, u) = static_cast<float>(sum / (s * s));
      }
    }
  });
  return FinishBoardImage(o, out);
}

cv::Mat FinishBoardImage(const BoardRenderOptions& o, cv::Mat_<float> out) {
  if (o.blur_sigma_px > 0) cv::GaussianBlur(out, out, cv::Size(), o.blur_sigma_px);
  if (o.noise_sigma > 0) {
    std::mt19937 rng(o.seed);
    std::normal_distribution<float> noise(0.0f, static_cast<float>(o.noise_sigma));
    for (auto& p : out) p += noise(rng);
  }
  cv::Mat grey;
  out.convertTo(grey, CV_8U);  // rounds and saturates
  return grey;
}

cv::Mat RenderBoard(const BoardRenderOptions& o, const BoardPattern& pattern, const cv::Matx33d& image_from_board) {
  const cv::Matx33d board_from_image = image_from_board.inv();
  return RenderBoard(o, pattern, [&](const std::vector<cv::Point2d>& pixels, std::vector<cv::Point2d>* board) {
    for (size_t k = 0; k < pixels.size(); ++k) {
      const cv::Vec3d h = board_from_image * cv::Vec3d(pixels[k].x, pixels[k].y, 1);
      (*board)[k] = std::abs(h[2]) > 1e-15 ? cv::Point2d(h[0] / h[2], h[1] / h[2]) : cv::Point2d(NAN, NAN);
    }
  });
}

cv::Mat RenderBoard(const BoardRenderOptions& o, const BoardPattern& pattern, const CameraIntrinsics& camera,
                    const CameraFromTable& camera_from_board) {
  // ImageToTablePlane cuts each sample's viewing ray with the plane z = 0 of the given frame: here
  // the board's, so the lens distortion is inverted exactly.
  return RenderBoard(o, pattern, [&](const std::vector<cv::Point2d>& pixels, std::vector<cv::Point2d>* board) {
    *board = ImageToTablePlane(camera, camera_from_board, pixels, 0.0);
  });
}

}  // namespace vedette::calib
