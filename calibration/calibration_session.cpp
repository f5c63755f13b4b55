#include "calibration/calibration_session.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include <opencv2/calib3d.hpp>
#include <opencv2/imgproc.hpp>

#include "calibration/number_text.h"
#include "rules/input_error.h"

namespace vedette::calib {
namespace {

// Mean distance the corners seen in both frames moved, px; infinite when fewer than half of this
// frame's corners were in the previous one (a different view, or the board just appeared).
double MeanMotion(const BoardView& previous, const BoardView& current) {
  std::map<int, cv::Point2f> before;
  for (size_t i = 0; i < previous.ids.size(); ++i) before[previous.ids[i]] = previous.image_px[i];
  double sum = 0;
  int common = 0;
  for (size_t i = 0; i < current.ids.size(); ++i) {
    const auto it = before.find(current.ids[i]);
    if (it == before.end()) continue;
    sum += cv::norm(current.image_px[i] - it->second);
    ++common;
  }
  if (common == 0 || 2 * common < static_cast<int>(current.ids.size())) return std::numeric_limits<double>::infinity();
  return sum / common;
}

// The sharpness of the board's own region: the whole frame's would mix in the background, whose
// texture changes with whatever else the camera sees.
double BoardSharpness(const cv::Mat& image, const BoardView& v) {
  const cv::Rect box = cv::boundingRect(v.image_px) & cv::Rect(0, 0, image.cols, image.rows);
  return box.area() > 0 ? Sharpness(image(box)) : 0.0;
}

// The board's normal(s) in the camera frame and its tilt against the image plane, from a pose found
// with the current calibration or, before one, a guessed pinhole camera (good enough to tell poses
// apart; CalibrateIntrinsics reports the real tilts). IPPE gives both mirror poses of a plane; the
// second is kept when it fits nearly as well as the first.
void RoughPose(const BoardView& v, const cv::Matx33d& camera, const cv::Mat& distortion, SessionView* out) {
  std::vector<cv::Mat> rvecs, tvecs;
  cv::Mat errors;
  cv::solvePnPGeneric(v.board_mm, v.image_px, camera, distortion, rvecs, tvecs, false, cv::SOLVEPNP_IPPE,
                      cv::noArray(), cv::noArray(), errors);
  for (size_t i = 0; i < rvecs.size(); ++i) {
    if (i > 0 && errors.at<double>(static_cast<int>(i)) > 2 * errors.at<double>(0) + 0.2) continue;
    cv::Matx33d r;
    cv::Rodrigues(rvecs[i], r);
    out->normals.push_back(r * cv::Vec3d(0, 0, 1));
  }
  if (!out->normals.empty())
    out->tilt_deg = std::acos(std::clamp(std::abs(out->normals[0][2]), 0.0, 1.0)) * 180 / CV_PI;
}

double Scale(const BoardView& v) {
  std::vector<cv::Point2f> hull;
  cv::convexHull(v.image_px, hull);
  return std::sqrt(cv::contourArea(hull) / static_cast<double>(v.image_size.area()));
}

int CellOf(cv::Point2f p, cv::Size size, int cols, int rows) {
  const int c = std::clamp(static_cast<int>(cols * p.x / size.width), 0, cols - 1);
  const int r = std::clamp(static_cast<int>(rows * p.y / size.height), 0, rows - 1);
  return r * cols + c;
}

// The smallest angle between two views' candidate normals, deg (0 when a pose was not found: such
// a view can still be new by the cells it covers).
double AngleDeg(const std::vector<cv::Vec3d>& a, const std::vector<cv::Vec3d>& b) {
  if (a.empty() || b.empty()) return 0;
  double best = 180;
  for (const cv::Vec3d& x : a)
    for (const cv::Vec3d& y : b) best = std::min(best, std::acos(std::clamp(x.dot(y), -1.0, 1.0)) * 180 / CV_PI);
  return best;
}

}  // namespace

bool CalibrationSessionOptions::Check(std::string* error) const {
  auto fail = [&](const std::string& m) {
    if (error) *error = m;
    return false;
  };
  if (std::string e; !detection.Check(&e)) return fail("detection: " + e);
  if (std::string e; !calibration.Check(&e)) return fail("calibration: " + e);
  if (grid_cols < 1 || grid_rows < 1) return fail("grid_cols and grid_rows must be at least 1");
  if (min_cell_corners < 1) return fail("min_cell_corners must be at least 1");
  if (!(still_px > 0)) return fail("still_px must be positive");
  if (still_frames < 1) return fail("still_frames must be at least 1");
  if (!(min_relative_sharpness >= 0 && min_relative_sharpness <= 1)) return fail("min_relative_sharpness must be in [0, 1]");
  if (!(new_tilt_deg > 0 && new_tilt_deg < 90)) return fail("new_tilt_deg must be in (0, 90)");
  if (!(new_scale_share > 0)) return fail("new_scale_share must be positive");
  if (!(guess_focal_share > 0)) return fail("guess_focal_share must be positive");
  if (enough_views < calibration.min_views) return fail("enough_views must be at least calibration.min_views");
  if (!(enough_focal_sd_share > 0)) return fail("enough_focal_sd_share must be positive");
  if (max_views < enough_views) return fail("max_views must be at least enough_views");
  return true;
}

std::string CellName(int col, int row, int cols, int rows) {
  // By the thirds of the image the cell's centre falls in.
  const double x = (col + 0.5) / cols, y = (row + 0.5) / rows;
  const std::string h = x < 1.0 / 3 ? "left" : x > 2.0 / 3 ? "right" : "";
  const std::string v = y < 1.0 / 3 ? "top" : y > 2.0 / 3 ? "bottom" : "";
  if (h.empty() && v.empty()) return "centre";
  if (h.empty() || v.empty()) return h + v;
  return v + "-" + h;
}

CalibrationSession::CalibrationSession(const CalibrationSessionOptions& options, const BoardSpec& board)
    : options_(options), board_(board) {
  if (std::string error; !options_.Check(&error)) throw InputError("calibration session", 0, error);
  state_.cell_corners.assign(static_cast<size_t>(options_.grid_cols * options_.grid_rows), 0);
  state_.cell_best = state_.cell_corners;
  UpdateVerdict();
}

bool CalibrationSession::AddFrame(const cv::Mat& image, const std::string& source) {
  if (state_.image_size.area() == 0) state_.image_size = image.size();
  if (image.size() != state_.image_size)
    throw InputError(source, 0, cv::format("frame is %dx%d but the first frame was %dx%d", image.cols, image.rows,
                                           state_.image_size.width, state_.image_size.height));
  ++state_.frames;
  BoardView found = DetectBoard(options_.detection, board_, image, source);
  const bool still = found.found() && MeanMotion(previous_, found) <= options_.still_px;
  state_.still_count = still ? state_.still_count + 1 : 0;
  previous_ = found;
  state_.current = found;
  state_.current_kept = found.found() && Keep(image, found);
  if (state_.current_kept) {
    Recalibrate();
    UpdateVerdict();
  }
  return state_.current_kept;
}

// Step 1: is the board still and sharp; step 2: does it add something; step 3: keep it.
bool CalibrationSession::Keep(const cv::Mat& image, const BoardView& found) {
  if (state_.still_count < options_.still_frames) {
    state_.current_note = "board moving: hold it still";
    return false;
  }
  const double sharpness = BoardSharpness(image, found);
  state_.best_sharpness = std::max(state_.best_sharpness, sharpness);
  if (sharpness < options_.min_relative_sharpness * state_.best_sharpness) {
    state_.current_note = "board blurred";
    return false;
  }
  if (static_cast<int>(state_.kept.size()) >= options_.max_views) {
    state_.current_note = "enough views kept (" + std::to_string(options_.max_views) + ")";
    return false;
  }
  SessionView sv = Describe(found);
  std::vector<int> mine(state_.cell_corners.size(), 0);
  for (const cv::Point2f& p : found.image_px) ++mine[CellOf(p, state_.image_size, options_.grid_cols, options_.grid_rows)];
  const bool adds_cell = AddsCell(mine);
  if (!adds_cell && !NewPose(sv)) {
    state_.current_note = "nothing new: move the board to an empty cell, or tilt it another way";
    return false;
  }
  for (size_t c = 0; c < mine.size(); ++c) {
    state_.cell_corners[c] += mine[c];
    state_.cell_best[c] = std::max(state_.cell_best[c], mine[c]);
  }
  state_.kept.push_back(std::move(sv));
  state_.current_note = adds_cell ? "kept: covers a new part of the image" : "kept: a new tilt or size";
  return true;
}

SessionView CalibrationSession::Describe(const BoardView& found) const {
  SessionView sv;
  sv.view = found;
  sv.frame = state_.frames - 1;
  sv.scale = Scale(found);
  const cv::Scalar centroid = cv::mean(found.image_px);
  sv.centre_cell = CellOf(cv::Point2f(static_cast<float>(centroid[0]), static_cast<float>(centroid[1])),
                          state_.image_size, options_.grid_cols, options_.grid_rows);
  if (state_.calibration) {
    RoughPose(found, state_.calibration->intrinsics.camera_matrix, state_.calibration->intrinsics.distortion, &sv);
  } else {
    const double f = options_.guess_focal_share * state_.image_size.width;
    const cv::Matx33d guess(f, 0, (state_.image_size.width - 1) / 2.0, 0, f, (state_.image_size.height - 1) / 2.0, 0, 0, 1);
    RoughPose(found, guess, cv::Mat(), &sv);
  }
  return sv;
}

// New for coverage: more corners in a cell not yet covered than any kept view put there (a repeat
// of a kept view is not, however many times it is shown).
bool CalibrationSession::AddsCell(const std::vector<int>& corners_per_cell) const {
  for (size_t c = 0; c < corners_per_cell.size(); ++c)
    if (state_.cell_best[c] < options_.min_cell_corners && corners_per_cell[c] > state_.cell_best[c]) return true;
  return false;
}

// New pose: no kept view had its board centred in the same cell, turned the same way, at the same size.
bool CalibrationSession::NewPose(const SessionView& sv) const {
  for (const SessionView& k : state_.kept)
    if (k.centre_cell == sv.centre_cell && AngleDeg(k.normals, sv.normals) < options_.new_tilt_deg &&
        std::abs(k.scale - sv.scale) < options_.new_scale_share * std::max(k.scale, sv.scale))
      return false;
  return true;
}

std::vector<BoardView> CalibrationSession::Views() const {
  std::vector<BoardView> out;
  for (const SessionView& k : state_.kept) out.push_back(k.view);
  return out;
}

void CalibrationSession::Recalibrate() {
  if (static_cast<int>(state_.kept.size()) < options_.calibration.min_views) return;
  try {
    state_.calibration = CalibrateIntrinsics(options_.calibration, board_, Views());
  } catch (const InputError& e) {  // e.g. corners all on one line in too many views
    state_.calibration.reset();
    state_.current_note += std::string("; calibration failed: ") + e.message();
    return;
  } catch (const cv::Exception& e) {  // a degenerate set OpenCV cannot solve
    state_.calibration.reset();
    state_.current_note += std::string("; calibration failed: ") + e.msg;
    return;
  }
  // The calibration's own tilts replace the rough ones (same sources, same order).
  std::map<std::string, double> tilt;
  for (const CalibrationViewResult& v : state_.calibration->views) tilt[v.source] = v.tilt_deg;
  for (SessionView& k : state_.kept)
    if (const auto it = tilt.find(k.view.source); it != tilt.end()) k.tilt_deg = it->second;
}

void CalibrationSession::UpdateVerdict() {
  const CalibrationOptions& c = options_.calibration;
  std::vector<std::string>& m = state_.missing;
  m.clear();
  const int kept = static_cast<int>(state_.kept.size());
  if (kept < options_.enough_views)
    m.push_back("only " + std::to_string(kept) + " view" + (kept == 1 ? "" : "s") + " kept: " +
                std::to_string(options_.enough_views) + " or more wanted (hold the board still in new places and tilts)");
  state_.cells_covered = 0;
  for (int r = 0; r < options_.grid_rows; ++r)
    for (int col = 0; col < options_.grid_cols; ++col)
      if (state_.cell_best[r * options_.grid_cols + col] >= options_.min_cell_corners)
        ++state_.cells_covered;
      else
        m.push_back("no view in the " + CellName(col, r, options_.grid_cols, options_.grid_rows) + " of the image");
  int tilted = 0;
  for (const SessionView& k : state_.kept) tilted += k.tilt_deg >= c.tilted_view_deg ? 1 : 0;
  if (tilted < c.min_tilted_views)
    m.push_back("only " + std::to_string(tilted) + " tilted view" + (tilted == 1 ? "" : "s") +
                ": tilt the board 20-40 degrees, towards different sides (" + std::to_string(c.min_tilted_views) +
                " views tilted " + Fixed(c.tilted_view_deg, 0) + " deg or more wanted)");
  if (!state_.calibration) {
    if (kept >= c.min_views) m.push_back("no calibration yet: the views so far do not solve");
  } else {
    const CalibrationResult& r = *state_.calibration;
    const auto& k = r.intrinsics.camera_matrix;
    const double f[2] = {k(0, 0), k(1, 1)};
    for (int i = 0; i < 2 && r.stddev.size() >= 4; ++i)
      if (!(r.stddev[i] <= options_.enough_focal_sd_share * std::abs(f[i])))
        m.push_back(std::string(i == 0 ? "fx" : "fy") + " uncertain by " + Fixed(100 * r.stddev[i] / std::abs(f[i]), 1) +
                    " % (" + Fixed(100 * options_.enough_focal_sd_share, 1) + " % wanted): add tilted views near the edges");
    for (const std::string& refusal : r.refusals)
      if (refusal.rfind("cx", 0) == 0 || refusal.rfind("cy", 0) == 0) m.push_back(refusal);
    if (r.intrinsics.avg_reprojection_error_px > c.high_rms_px)
      m.push_back("reprojection RMS " + Fixed(r.intrinsics.avg_reprojection_error_px, 2) + " px (above " +
                  Fixed(c.high_rms_px, 2) + " px): blurred views, or a board that is not flat?");
  }
  state_.enough = m.empty();
}

std::string KeptViewLine(const SessionState& s) {
  if (s.kept.empty()) return "no view kept";
  const SessionView& v = s.kept.back();
  std::string line = "view " + std::to_string(s.kept.size()) + " (frame " + std::to_string(v.frame) + "): " +
                     std::to_string(v.view.ids.size()) + " corners, tilt " + Fixed(v.tilt_deg, 0) + " deg, cells " +
                     std::to_string(s.cells_covered) + "/" + std::to_string(s.cell_corners.size());
  if (s.calibration) {
    const CalibrationResult& r = *s.calibration;
    line += ", RMS " + Fixed(r.intrinsics.avg_reprojection_error_px, 3) + " px, fx " +
            Fixed(r.intrinsics.camera_matrix(0, 0), 1) + (r.stddev.empty() ? "" : " +- " + Fixed(r.stddev[0], 1));
  }
  line += s.enough ? " - ENOUGH" : ", " + std::to_string(s.missing.size()) + " thing(s) missing";
  return line;
}

}  // namespace vedette::calib
