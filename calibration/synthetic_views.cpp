#include "calibration/synthetic_views.h"

#include <algorithm>
#include <cmath>

#include <opencv2/calib3d.hpp>

#include "rules/input_error.h"

namespace vedette::calib {
namespace {

// The frame in which ImageToTablePlane returns normalised camera coordinates: its plane z = 0 is
// the camera's plane Z = 1 (table point (x, y, 0) -> camera point (x, y, 1)).
CameraFromTable UnitDepthPlane() {
  CameraFromTable pose;
  pose.translation_mm = {0, 0, 1};
  return pose;
}

cv::Point2d Normalised(const CameraIntrinsics& camera, cv::Point2d pixel) {
  return ImageToTablePlane(camera, UnitDepthPlane(), {pixel}, 0.0)[0];
}

cv::Matx33d RotationAbout(cv::Vec3d axis, double angle_deg) {
  cv::Matx33d r;
  cv::Rodrigues(cv::Vec3d(axis * (angle_deg * CV_PI / 180 / cv::norm(axis))), r);
  return r;
}

// Board outline (mm) sampled along its edges: a lens bends the edges, so the corners alone do not
// bound the board's image.
std::vector<cv::Point3d> Outline(const BoardSpec& board) {
  std::vector<cv::Point3d> out;
  const double w = board.WidthMm(), h = board.HeightMm();
  constexpr int kSteps = 8;
  for (int i = 0; i < kSteps; ++i) {
    const double a = static_cast<double>(i) / kSteps;
    out.emplace_back(a * w, 0, 0);
    out.emplace_back(w, a * h, 0);
    out.emplace_back(w - a * w, h, 0);
    out.emplace_back(0, h - a * h, 0);
  }
  return out;
}

CameraFromTable Place(const BoardSpec& board, const CameraIntrinsics& camera, const cv::Matx33d& rotation,
                      cv::Point2d centre_px, double distance_mm) {
  const cv::Point2d ray = Normalised(camera, centre_px);
  CameraFromTable pose;
  pose.rotation = rotation;
  pose.translation_mm = cv::Vec3d(ray.x, ray.y, 1) * distance_mm - rotation * cv::Vec3d(board.WidthMm() / 2, board.HeightMm() / 2, 0);
  return pose;
}

bool Inside(const CameraIntrinsics& camera, const CameraFromTable& pose, const std::vector<cv::Point3d>& outline,
            double margin_px) {
  for (const cv::Point2d& p : ProjectToImage(camera, pose, outline))
    if (!(p.x >= margin_px && p.y >= margin_px && p.x <= camera.image_size.width - 1 - margin_px &&
          p.y <= camera.image_size.height - 1 - margin_px))
      return false;
  return true;
}

// Whether a board-frame box (mm) lies inside one region of constant colour: wholly off the sheet, in
// the white margin, in one plain board square, or in one cell of one marker (or in the white part of
// a marker's square, away from the marker). NaN corners: no.
bool UniformOver(const BoardPattern& p, const cv::Rect2d& sheet, const cv::Rect2d& box) {
  if (!std::isfinite(box.x) || !std::isfinite(box.y) || !std::isfinite(box.width) || !std::isfinite(box.height))
    return false;
  const double x0 = box.x, x1 = box.x + box.width, y0 = box.y, y1 = box.y + box.height;
  auto crosses = [](double a0, double a1, double line) { return a0 <= line && line <= a1; };
  auto inside = [&](const cv::Rect2d& r) { return x0 > r.x && x1 < r.x + r.width && y0 > r.y && y1 < r.y + r.height; };
  auto apart = [&](const cv::Rect2d& r) { return x1 < r.x || x0 > r.x + r.width || y1 < r.y || y0 > r.y + r.height; };
  if (apart(sheet)) return true;
  if (!inside(sheet)) return false;
  const cv::Rect2d board(0, 0, p.width_mm, p.height_mm);
  if (apart(board)) return true;
  if (!inside(board)) return false;
  const int sx = static_cast<int>(x0 / p.square_mm), sy = static_cast<int>(y0 / p.square_mm);
  if (static_cast<int>(x1 / p.square_mm) != sx || static_cast<int>(y1 / p.square_mm) != sy) return false;
  if (crosses(x0, x1, sx * p.square_mm) || crosses(y0, y1, sy * p.square_mm)) return false;
  if (sx >= p.squares_x || sy >= p.squares_y) return false;
  const int content = p.square_content[sy * p.squares_x + sx];
  if (content < 0) return true;
  const BoardPattern::Marker& m = p.markers[content];
  if (apart(m.square_mm)) return true;
  if (!inside(m.square_mm)) return false;
  const int n = m.cells.rows;
  auto cell = [&](double v, double origin, double size) { return static_cast<int>((v - origin) / size * n); };
  return cell(x0, m.square_mm.x, m.square_mm.width) == cell(x1, m.square_mm.x, m.square_mm.width) &&
         cell(y0, m.square_mm.y, m.square_mm.height) == cell(y1, m.square_mm.y, m.square_mm.height);
}

}  // namespace

bool SpreadPoseOptions::Check(std::string* error) const {
  auto fail = [&](const std::string& m) {
    if (error) *error = m;
    return false;
  };
  if (views < 1) return fail("views must be at least 1");
  if (!(board_width_share > 0 && board_width_share <= 1)) return fail("board_width_share must be in (0, 1]");
  if (!(min_tilt_deg >= 0 && max_tilt_deg >= min_tilt_deg && max_tilt_deg < 70))
    return fail("tilts must satisfy 0 <= min_tilt_deg <= max_tilt_deg < 70");
  if (!(max_turn_deg >= 0)) return fail("max_turn_deg must be >= 0");
  if (!(edge_margin_px >= 0)) return fail("edge_margin_px must be >= 0");
  return true;
}

std::vector<CameraFromTable> SpreadBoardPoses(const SpreadPoseOptions& o, const BoardSpec& board,
                                              const CameraIntrinsics& camera) {
  if (std::string error; !o.Check(&error)) throw InputError("SpreadPoseOptions", 0, error);
  if (camera.image_size.area() <= 0) throw InputError("SpreadBoardPoses", 0, "the camera has no image size");
  const cv::Size size = camera.image_size;
  const cv::Point2d centre((size.width - 1) / 2.0, (size.height - 1) / 2.0);
  const std::vector<cv::Point3d> outline = Outline(board);
  cv::RNG rng(o.seed);
  std::vector<CameraFromTable> poses;
  for (int i = 0; i < o.views; ++i) {
    const int slot = i % 10;  // 0..8: the 3x3 grid, 9: the centre
    cv::Point2d target = centre;
    if (slot < 9)
      target = {(0.2 + 0.3 * (slot % 3)) * (size.width - 1), (0.2 + 0.3 * (slot / 3)) * (size.height - 1)};
    const double share = o.board_width_share * rng.uniform(0.85, 1.15);
    double distance = camera.camera_matrix(0, 0) * board.WidthMm() / (share * size.width);
    const double tilt = rng.uniform(o.min_tilt_deg, o.max_tilt_deg);
    const double axis = rng.uniform(0.0, 2 * CV_PI);
    const double turn = rng.uniform(-o.max_turn_deg, o.max_turn_deg);
    const cv::Matx33d rotation =
        RotationAbout({std::cos(axis), std::sin(axis), 0}, tilt) * RotationAbout({0, 0, 1}, turn);
    // Pull the board towards the image centre until it fits; at the centre, move it away.
    CameraFromTable pose = Place(board, camera, rotation, target, distance);
    for (int attempt = 0; attempt < 200 && !Inside(camera, pose, outline, o.edge_margin_px); ++attempt) {
      if (cv::norm(target - centre) > 1) target = centre + 0.98 * (target - centre);
      else distance *= 1.02;
      pose = Place(board, camera, rotation, target, distance);
    }
    poses.push_back(pose);
  }
  return poses;
}

CameraFromTable FrontalBoardPose(const BoardSpec& board, const CameraIntrinsics& camera, cv::Point2d centre_px,
                                 double board_width_share) {
  const double distance = camera.camera_matrix(0, 0) * board.WidthMm() / (board_width_share * camera.image_size.width);
  return Place(board, camera, cv::Matx33d::eye(), centre_px, distance);
}

std::vector<cv::Mat> RenderBoardViews(const BoardRenderOptions& options, const BoardPattern& pattern,
                                      const CameraIntrinsics& camera, const std::vector<CameraFromTable>& poses) {
  if (std::string error; !options.Check(&error)) throw InputError("BoardRenderOptions", 0, error);
  if (camera.image_size != options.image_size)
    throw InputError("RenderBoardViews", 0,
                     cv::format("the camera is %dx%d but the render size is %dx%d", camera.image_size.width,
                                camera.image_size.height, options.image_size.width, options.image_size.height));
  // Exact rays (normalised camera coordinates) at every integer pixel position from -1 to the size:
  // every sample point (within half a pixel of a pixel centre) lies inside this grid. The lens
  // mapping is smooth, so bilinear interpolation between neighbours is off by ~1e-5 px.
  const int gw = options.image_size.width + 2, gh = options.image_size.height + 2;
  std::vector<cv::Point2d> nodes;
  nodes.reserve(static_cast<size_t>(gw) * gh);
  for (int y = 0; y < gh; ++y)
    for (int x = 0; x < gw; ++x) nodes.emplace_back(x - 1, y - 1);
  const std::vector<cv::Point2d> rays = ImageToTablePlane(camera, UnitDepthPlane(), nodes, 0.0);

  const int s = options.supersample;
  const cv::Rect2d sheet(-options.sheet_margin_mm, -options.sheet_margin_mm,
                         pattern.width_mm + 2 * options.sheet_margin_mm, pattern.height_mm + 2 * options.sheet_margin_mm);
  std::vector<cv::Mat> out;
  for (size_t v = 0; v < poses.size(); ++v) {
    // Board (X, Y, 1) -> ray (x, y, 1) up to scale: the columns r1 r2 t of the pose.
    const cv::Matx33d& r = poses[v].rotation;
    const cv::Vec3d& t = poses[v].translation_mm;
    const cv::Matx33d ray_from_board(r(0, 0), r(0, 1), t[0], r(1, 0), r(1, 1), t[1], r(2, 0), r(2, 1), t[2]);
    const cv::Matx33d board_from_ray = ray_from_board.inv();
    // Board position (mm) of an image point (px), through the ray grid; NaN off the board's plane.
    auto board_at = [&](double px, double py) {
      const double gx = px + 1, gy = py + 1;
      const int x0 = std::clamp(static_cast<int>(std::floor(gx)), 0, gw - 2);
      const int y0 = std::clamp(static_cast<int>(std::floor(gy)), 0, gh - 2);
      const double ax = gx - x0, ay = gy - y0;
      const size_t i = static_cast<size_t>(y0) * gw + x0;
      const cv::Point2d ray =
          (1 - ay) * ((1 - ax) * rays[i] + ax * rays[i + 1]) + ay * ((1 - ax) * rays[i + gw] + ax * rays[i + gw + 1]);
      const cv::Vec3d b = board_from_ray * cv::Vec3d(ray.x, ray.y, 1);
      // b = (X, Y, 1) / depth: a negative depth is a ray meeting the board's plane behind the camera.
      return b[2] > 1e-15 ? cv::Point2d(b[0] / b[2], b[1] / b[2]) : cv::Point2d(NAN, NAN);
    };
    auto level_at = [&](cv::Point2d b) {
      if (!std::isfinite(b.x) || !std::isfinite(b.y) || !sheet.contains(b)) return options.background_level;
      return IsBlackAt(pattern, b) ? options.black_level : options.white_level;
    };
    // Most pixels lie inside one region of constant colour (a square, a marker cell, the margin, the
    // background): those take one value; the others average s x s samples exactly as RenderBoard
    // does, so the picture is the same.
    cv::Mat_<float> sampled(options.image_size);
    cv::parallel_for_(cv::Range(0, options.image_size.height), [&](const cv::Range& rows) {
      const int w = options.image_size.width;
      std::vector<cv::Point2d> top(w + 1), bottom(w + 1);
      for (int y = rows.start; y < rows.end; ++y) {
        for (int x = 0; x <= w; ++x) {
          top[x] = board_at(x - 0.5, y - 0.5);
          bottom[x] = board_at(x - 0.5, y + 0.5);
        }
        for (int x = 0; x < w; ++x) {
          const cv::Point2d c[4] = {top[x], top[x + 1], bottom[x], bottom[x + 1]};
          double x0 = c[0].x, x1 = c[0].x, y0 = c[0].y, y1 = c[0].y;
          bool finite = true;
          for (const cv::Point2d& p : c) {
            finite = finite && std::isfinite(p.x) && std::isfinite(p.y);
            x0 = std::min(x0, p.x), x1 = std::max(x1, p.x);
            y0 = std::min(y0, p.y), y1 = std::max(y1, p.y);
          }
          // The pixel's footprint lies in this box (its edges bend by ~1e-6 mm over a pixel).
          constexpr double kPadMm = 1e-4;
          const cv::Rect2d box(x0 - kPadMm, y0 - kPadMm, x1 - x0 + 2 * kPadMm, y1 - y0 + 2 * kPadMm);
          if (finite && UniformOver(pattern, sheet, box)) {
            sampled(y, x) = static_cast<float>(level_at(board_at(x, y)));
            continue;
          }
          double sum = 0;
          for (int j = 0; j < s; ++j)
            for (int i = 0; i < s; ++i) sum += level_at(board_at(x - 0.5 + (i + 0.5) / s, y - 0.5 + (j + 0.5) / s));
          sampled(y, x) = static_cast<float>(sum / (s * s));
        }
      }
    });
    BoardRenderOptions view = options;
    view.seed = options.seed + static_cast<unsigned>(v);
    out.push_back(FinishBoardImage(view, sampled));
  }
  return out;
}

ModelDifference CompareCameraModels(const CameraIntrinsics& truth, const CameraIntrinsics& estimate, double step_px) {
  if (truth.image_size != estimate.image_size || truth.image_size.area() <= 0)
    throw InputError("CompareCameraModels", 0, "the two cameras must have the same, non-empty image size");
  if (!(step_px > 0)) throw InputError("CompareCameraModels", 0, "step_px must be positive");
  const double w = truth.image_size.width - 1, h = truth.image_size.height - 1;
  std::vector<cv::Point2d> pixels;
  for (double y = 0;; y = std::min(h, y + step_px)) {
    for (double x = 0;; x = std::min(w, x + step_px)) {
      pixels.emplace_back(x, y);
      if (x >= w) break;
    }
    if (y >= h) break;
  }
  const std::vector<cv::Point2d> rays = ImageToTablePlane(truth, UnitDepthPlane(), pixels, 0.0);
  const std::vector<cv::Point2d> estimated_rays = ImageToTablePlane(estimate, UnitDepthPlane(), pixels, 0.0);
  // Least squares on the rays (then Levenberg-Marquardt on the estimated side's residuals).
  const cv::Matx33d estimated_from_true(cv::findHomography(rays, estimated_rays, 0));
  std::vector<cv::Point3d> points, mapped;
  for (const cv::Point2d& r : rays) {
    points.emplace_back(r.x, r.y, 0);
    const cv::Vec3d m = estimated_from_true * cv::Vec3d(r.x, r.y, 1);
    mapped.emplace_back(m[0] / m[2], m[1] / m[2], 0);
  }
  const std::vector<cv::Point2d> full = ProjectToImage(estimate, UnitDepthPlane(), points);
  const std::vector<cv::Point2d> planar = ProjectToImage(estimate, UnitDepthPlane(), mapped);
  ModelDifference d;
  for (size_t i = 0; i < pixels.size(); ++i) {
    const double ef = cv::norm(full[i] - pixels[i]), ep = cv::norm(planar[i] - pixels[i]);
    d.full_rms_px += ef * ef;
    d.planar_rms_px += ep * ep;
    d.full_max_px = std::max(d.full_max_px, ef);
    d.planar_max_px = std::max(d.planar_max_px, ep);
  }
  d.full_rms_px = std::sqrt(d.full_rms_px / pixels.size());
  d.planar_rms_px = std::sqrt(d.planar_rms_px / pixels.size());
  return d;
}

}  // namespace vedette::calib
