#include "calibration/intrinsic_calibration.h"

#include <algorithm>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <numeric>
#include <sstream>

#include <opencv2/calib3d.hpp>
#include <opencv2/core/persistence.hpp>
#include <opencv2/imgproc.hpp>

#include "calibration/number_text.h"
#include "rules/input_error.h"

namespace vedette::calib {
namespace {

// Whether a view's corners span the board in two directions: corners on one line (one row of a
// partly hidden ChArUco board) give no homography and make calibrateCamera fail.
bool SpansTwoDirections(const BoardView& v, double square_mm) {
  if (v.board_mm.size() < 4) return false;
  cv::Mat pts(static_cast<int>(v.board_mm.size()), 2, CV_64F);
  for (int i = 0; i < pts.rows; ++i) {
    pts.at<double>(i, 0) = v.board_mm[i].x;
    pts.at<double>(i, 1) = v.board_mm[i].y;
  }
  cv::PCA pca(pts, cv::Mat(), cv::PCA::DATA_AS_ROW);
  // The second principal spread must be at least a third of a square.
  return std::sqrt(std::max(0.0, pca.eigenvalues.at<double>(1))) > square_mm / 3;
}

struct Run {
  double rms = 0;
  cv::Mat camera, distortion, stddev, per_view;
  std::vector<cv::Mat> rvecs, tvecs;  // camera_from_board of each view
};

// Angle between the board's plane and the image plane (the board's normal against the optical
// axis), deg. A board parallel to the image plane shows no perspective, wherever it sits.
double TiltDeg(const cv::Mat& rvec) {
  cv::Matx33d r;
  cv::Rodrigues(rvec, r);
  return std::acos(std::clamp(std::abs(r(2, 2)), 0.0, 1.0)) * 180 / CV_PI;
}

Run Calibrate(const std::vector<const BoardView*>& views, cv::Size size, int flags) {
  std::vector<std::vector<cv::Point3f>> object;
  std::vector<std::vector<cv::Point2f>> image;
  for (const BoardView* v : views) {
    object.push_back(v->board_mm);
    image.push_back(v->image_px);
  }
  Run r;
  cv::Mat extrinsic_stddev;
  r.rms = cv::calibrateCamera(  // the "Extended" overload: deviations and per-view errors
      object, image, size, r.camera, r.distortion, r.rvecs, r.tvecs, r.stddev,
                                      extrinsic_stddev, r.per_view, flags,
                                      cv::TermCriteria(cv::TermCriteria::COUNT | cv::TermCriteria::EPS, 100, 1e-12));
  return r;
}


struct TiltCount {
  int tilted = 0;          // used views tilted by tilted_view_deg or more
  double most_deg = 0;     // the largest tilt of a used view, deg
};

TiltCount CountTilted(const std::vector<CalibrationViewResult>& views, double tilted_view_deg) {
  TiltCount c;
  for (const CalibrationViewResult& v : views)
    if (v.used) {
      c.tilted += v.tilt_deg >= tilted_view_deg ? 1 : 0;
      c.most_deg = std::max(c.most_deg, v.tilt_deg);
    }
  return c;
}

std::string TiltMessage(const CalibrationOptions& options, const TiltCount& tilts, int used) {
  return "only " + std::to_string(tilts.tilted) + " of " + std::to_string(used) + " views show the board tilted by " +
         Fixed(options.tilted_view_deg, 0) + " deg or more (the most: " + Fixed(tilts.most_deg, 0) +
         " deg): a board facing the camera squarely looks the same to a longer lens further away, so the focal "
         "length is not determined (whatever its deviation says); tilt the board 20-45 deg towards different sides";
}

}  // namespace

bool CalibrationOptions::Check(std::string* error) const {
  auto fail = [&](const std::string& m) {
    if (error) *error = m;
    return false;
  };
  if (min_views < 1) return fail("min_views must be at least 1");
  if (!(high_rms_px > 0)) return fail("high_rms_px must be positive");
  if (!(outlier_factor > 1)) return fail("outlier_factor must be above 1");
  if (!(outlier_floor_px >= 0)) return fail("outlier_floor_px must be >= 0");
  if (!(max_dropped_fraction >= 0 && max_dropped_fraction < 1)) return fail("max_dropped_fraction must be in [0, 1)");
  if (!(min_coverage >= 0 && min_coverage <= 1)) return fail("min_coverage must be in [0, 1]");
  if (!(tilted_view_deg >= 0 && tilted_view_deg < 90)) return fail("tilted_view_deg must be in [0, 90)");
  if (min_tilted_views < 0) return fail("min_tilted_views must be >= 0");
  if (min_tilted_views_accepted < 0) return fail("min_tilted_views_accepted must be >= 0");
  if (!(max_focal_sd_share > 0)) return fail("max_focal_sd_share must be positive");
  if (!(max_centre_sd_share > 0)) return fail("max_centre_sd_share must be positive");
  return true;
}

CalibrationResult CalibrateIntrinsics(const CalibrationOptions& options, const BoardSpec& board,
                                      const std::vector<BoardView>& views,
                                      const std::vector<std::pair<std::string, std::string>>& rejected) {
  if (std::string error; !options.Check(&error)) throw InputError("CalibrationOptions", 0, error);
  // Step 1: usable views, all of one image size.
  std::vector<std::pair<std::string, std::string>> problems = rejected;
  std::vector<const BoardView*> usable;
  cv::Size size;
  for (const BoardView& v : views) {
    if (!v.found()) {
      problems.emplace_back(v.source, "the board " + ToString(board) + " was not found");
      continue;
    }
    if (!SpansTwoDirections(v, board.square_mm)) {
      problems.emplace_back(v.source, "only " + std::to_string(v.ids.size()) + " corners, all on one line");
      continue;
    }
    if (size.area() == 0) size = v.image_size;
    if (v.image_size != size) {
      problems.emplace_back(v.source, cv::format("image is %dx%d but the first view is %dx%d", v.image_size.width,
                                                 v.image_size.height, size.width, size.height));
      continue;
    }
    usable.push_back(&v);
  }
  if (static_cast<int>(usable.size()) < options.min_views) {
    std::string list;
    for (const auto& [source, why] : problems) list += "\n  " + (source.empty() ? "(view)" : source) + ": " + why;
    const std::string first = problems.empty() ? "calibration" : problems.front().first;
    throw InputError(first, 0,
                     "only " + std::to_string(usable.size()) + " usable view(s) of the board, need at least " +
                         std::to_string(options.min_views) + (list.empty() ? "" : ":" + list));
  }

  CalibrationResult out;
  out.board = board;
  int flags = 0;
  if (options.fix_k3 || (options.auto_fix_k3 && static_cast<int>(usable.size()) < options.recommended_views)) flags |= cv::CALIB_FIX_K3;
  out.flags = flags;

  // Step 2: calibrate, drop views that fit far worse than the median, calibrate again.
  Run run = Calibrate(usable, size, flags);
  std::vector<double> first_tilts;
  for (size_t i = 0; i < usable.size(); ++i) first_tilts.push_back(TiltDeg(run.rvecs[i]));
  std::vector<double> errors(run.per_view.begin<double>(), run.per_view.end<double>());
  std::vector<double> sorted = errors;
  std::nth_element(sorted.begin(), sorted.begin() + sorted.size() / 2, sorted.end());
  const double median = sorted[sorted.size() / 2];
  const double limit = std::max(options.outlier_factor * median, options.outlier_floor_px);
  std::vector<size_t> order(usable.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return errors[a] > errors[b]; });
  const size_t max_drop = std::min(static_cast<size_t>(options.max_dropped_fraction * usable.size()),
                                   usable.size() - static_cast<size_t>(options.min_views));
  std::vector<bool> keep(usable.size(), true);
  size_t dropped = 0;
  for (size_t i : order)
    if (errors[i] > limit && dropped < max_drop) {
      keep[i] = false;
      ++dropped;
    }
  std::vector<const BoardView*> kept;
  for (size_t i = 0; i < usable.size(); ++i)
    if (keep[i]) kept.push_back(usable[i]);
  if (dropped > 0) run = Calibrate(kept, size, flags);

  // Step 3: the result and its quality.
  out.intrinsics.camera_matrix = cv::Matx33d(run.camera);
  out.intrinsics.distortion = run.distortion.reshape(1, 1).clone();
  out.intrinsics.image_size = size;
  out.intrinsics.avg_reprojection_error_px = run.rms;
  for (int i = 0; i < 9 && i < static_cast<int>(run.stddev.total()); ++i) out.stddev.push_back(run.stddev.at<double>(i));
  size_t k = 0;
  for (size_t i = 0; i < usable.size(); ++i) {
    CalibrationViewResult v;
    v.source = usable[i]->source;
    v.corners = static_cast<int>(usable[i]->ids.size());
    v.used = keep[i];
    v.tilt_deg = keep[i] ? TiltDeg(run.rvecs[k]) : first_tilts[i];
    v.rms_px = keep[i] ? run.per_view.at<double>(static_cast<int>(k++)) : errors[i];
    out.views.push_back(v);
  }

  // Coverage: the union of the boards' outlines (convex hulls of the found corners), on a quarter-
  // resolution mask; and which cells of a 3x3 grid hold a corner (the lens edges matter most).
  const double scale = 0.25;
  cv::Mat mask = cv::Mat::zeros(std::max(1, static_cast<int>(size.height * scale)),
                                std::max(1, static_cast<int>(size.width * scale)), CV_8U);
  bool cell[9] = {};
  for (const BoardView* v : kept) {
    std::vector<cv::Point> pts, hull;
    for (const cv::Point2f& p : v->image_px) {
      pts.emplace_back(cvRound(p.x * scale), cvRound(p.y * scale));
      const int cx = std::clamp(static_cast<int>(3 * p.x / size.width), 0, 2);
      const int cy = std::clamp(static_cast<int>(3 * p.y / size.height), 0, 2);
      cell[cy * 3 + cx] = true;
    }
    cv::convexHull(pts, hull);
    cv::fillConvexPoly(mask, hull, 255);
  }
  out.coverage = static_cast<double>(cv::countNonZero(mask)) / static_cast<double>(mask.total());
  out.grid_cells_covered = static_cast<int>(std::count(std::begin(cell), std::end(cell), true));

  // Warnings in words.
  if (static_cast<int>(kept.size()) < options.recommended_views)
    out.warnings.push_back("only " + std::to_string(kept.size()) + " views were used; " +
                           std::to_string(options.recommended_views) +
                           " or more, with the board tilted different ways, give a steadier calibration" +
                           ((flags & cv::CALIB_FIX_K3) ? " (k3 was held at 0 for want of views)" : ""));
  if (run.rms > options.high_rms_px)
    out.warnings.push_back("the reprojection RMS is " + Fixed(run.rms) + " px (above " + Fixed(options.high_rms_px) +
                           " px): blurred views, a board that is not flat, or a wrong board size?");
  if (out.coverage < options.min_coverage || out.grid_cells_covered < 8) {
    std::string missing;
    static const char* kNames[9] = {"top-left", "top", "top-right", "left", "centre", "right", "bottom-left", "bottom",
                                    "bottom-right"};
    for (int i = 0; i < 9; ++i)
      if (!cell[i]) missing += (missing.empty() ? "" : ", ") + std::string(kNames[i]);
    out.warnings.push_back("the boards covered " + Fixed(100 * out.coverage, 0) + " % of the image" +
                           (missing.empty() ? "" : "; no corner fell in the " + missing + " part") +
                           ": the lens distortion is only known where the board was; show it near the edges too");
  }
  const TiltCount tilts = CountTilted(out.views, options.tilted_view_deg);
  if (tilts.tilted >= options.min_tilted_views_accepted && tilts.tilted < options.min_tilted_views)
    out.warnings.push_back(TiltMessage(options, tilts, static_cast<int>(kept.size())));
  for (const CalibrationViewResult& v : out.views)
    if (!v.used)
      out.warnings.push_back("dropped view " + v.source + ": its RMS " + Fixed(v.rms_px) + " px is far above the median " +
                             Fixed(median) + " px (blurred, or the board mis-detected)");
  for (const auto& [source, why] : problems) out.warnings.push_back("skipped " + source + ": " + why);
  out.refusals = CalibrationRefusals(options, out);
  return out;
}

std::vector<std::string> CalibrationRefusals(const CalibrationOptions& o, const CalibrationResult& r) {
  // The focal lengths' deviations say how well the views pinned the lens; the principal point's say
  // whether the views reached the image edges on both sides; the tilt count catches the one case
  // the deviations miss (frontal views: fx 8.6 % off with a deviation of 0.03 %).
  std::vector<std::string> out;
  const TiltCount tilts = CountTilted(r.views, o.tilted_view_deg);
  const int used = static_cast<int>(std::count_if(r.views.begin(), r.views.end(), [](const auto& v) { return v.used; }));
  if (tilts.tilted < o.min_tilted_views_accepted) out.push_back(TiltMessage(o, tilts, used));
  if (r.stddev.size() < 4) return out;
  const auto& k = r.intrinsics.camera_matrix;
  const double f[2] = {k(0, 0), k(1, 1)};
  const char* f_name[2] = {"fx", "fy"};
  for (int i = 0; i < 2; ++i)
    if (!(r.stddev[i] <= o.max_focal_sd_share * std::abs(f[i])))
      out.push_back(std::string(f_name[i]) + " is uncertain by " + Fixed(100 * r.stddev[i] / std::abs(f[i]), 1) +
                    " % (+- " + Fixed(r.stddev[i], 1) + " px; at most " + Fixed(100 * o.max_focal_sd_share, 1) +
                    " % accepted): add views with the board tilted 20-40 deg towards different sides, near the "
                    "image edges and corners too");
  const double extent[2] = {static_cast<double>(r.intrinsics.image_size.width),
                            static_cast<double>(r.intrinsics.image_size.height)};
  const char* c_name[2] = {"cx", "cy"};
  const char* c_where[2] = {"left and right", "top and bottom"};
  for (int i = 0; i < 2; ++i)
    if (!(r.stddev[2 + i] <= o.max_centre_sd_share * extent[i]))
      out.push_back(std::string(c_name[i]) + " is uncertain by +- " + Fixed(r.stddev[2 + i], 1) + " px (" +
                    Fixed(100 * r.stddev[2 + i] / extent[i], 1) + " % of the image; at most " +
                    Fixed(100 * o.max_centre_sd_share, 1) + " % accepted): add views with the board near the " +
                    c_where[i] + " edges of the image");
  return out;
}

void ThrowIfRefused(const CalibrationResult& result, const std::string& file) {
  if (result.accepted()) return;
  std::string list;
  for (const std::string& r : result.refusals) list += "\n  " + r;
  throw InputError(file, 0, "not written: the calibration is too uncertain to use:" + list);
}

void SaveCalibration(const CalibrationResult& r, const std::string& path) {
  cv::FileStorage fs;
  try {
    fs.open(path, cv::FileStorage::WRITE);
  } catch (const cv::Exception& e) {
    throw InputError(path, 0, "cannot write: " + e.msg);
  }
  if (!fs.isOpened()) throw InputError(path, 0, "cannot be written");
  const std::time_t now = std::time(nullptr);
  char stamp[64];
  std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  fs << "calibration_time" << stamp;
  fs << "board" << ToString(r.board);
  fs << "image_width" << r.intrinsics.image_size.width;
  fs << "image_height" << r.intrinsics.image_size.height;
  fs << "flags" << r.flags;
  fs << "camera_matrix" << cv::Mat(r.intrinsics.camera_matrix);
  fs << "distortion_coefficients" << r.intrinsics.distortion;
  fs << "avg_reprojection_error" << r.intrinsics.avg_reprojection_error_px;
  static const char* kNames[9] = {"fx", "fy", "cx", "cy", "k1", "k2", "p1", "p2", "k3"};
  fs << "std_deviations" << "{";
  for (size_t i = 0; i < r.stddev.size() && i < 9; ++i) fs << kNames[i] << r.stddev[i];
  fs << "}";
  fs << "image_coverage" << r.coverage;
  fs << "image_grid_cells_covered" << r.grid_cells_covered;
  std::vector<double> errors;
  for (const auto& v : r.views) errors.push_back(v.rms_px);
  fs << "per_view_reprojection_errors" << cv::Mat(errors, true);
  fs << "views" << "[";
  for (const auto& v : r.views)
    fs << "{" << "source" << v.source << "corners" << v.corners << "rms_px" << v.rms_px << "used" << (v.used ? 1 : 0)
       << "tilt_deg" << v.tilt_deg << "}";
  fs << "]";
  fs << "warnings" << "[";
  for (const auto& w : r.warnings) fs << w;
  fs << "]";
}

std::string CalibrationSummary(const CalibrationResult& r) {
  std::ostringstream s;
  const auto& k = r.intrinsics.camera_matrix;
  auto sd = [&](size_t i) { return i < r.stddev.size() ? " +- " + Fixed(r.stddev[i]) : std::string(); };
  int used = 0;
  for (const auto& v : r.views) used += v.used ? 1 : 0;
  s << "board " << ToString(r.board) << ", " << used << " of " << r.views.size() << " views used, image "
    << r.intrinsics.image_size.width << "x" << r.intrinsics.image_size.height << "\n";
  s << "fx " << Fixed(k(0, 0)) << sd(0) << "  fy " << Fixed(k(1, 1)) << sd(1) << "  cx " << Fixed(k(0, 2)) << sd(2) << "  cy "
    << Fixed(k(1, 2)) << sd(3) << " px\n";
  s << "distortion (k1 k2 p1 p2 k3):";
  for (int i = 0; i < static_cast<int>(r.intrinsics.distortion.total()); ++i)
    s << " " << Fixed(r.intrinsics.distortion.at<double>(i), 5);
  s << "\n";
  s << "reprojection RMS " << Fixed(r.intrinsics.avg_reprojection_error_px, 3) << " px; image coverage "
    << Fixed(100 * r.coverage, 0) << " %, " << r.grid_cells_covered << "/9 grid cells\n";
  for (const auto& v : r.views)
    s << "  " << v.source << ": " << v.corners << " corners, RMS " << Fixed(v.rms_px, 3) << " px, tilt " << Fixed(v.tilt_deg, 0)
      << " deg" << (v.used ? "" : " (dropped)") << "\n";
  return s.str();
}

}  // namespace vedette::calib
