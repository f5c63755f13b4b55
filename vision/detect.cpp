#include "vision/detect.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include <opencv2/imgproc.hpp>

namespace vedette::vision {

bool DetectorOptions::Check(std::string* error) const {
  auto fail = [&](const std::string& m) { if (error) *error = m; return false; };
  if (!(min_marker_side_px >= 4)) return fail("min_marker_side_px must be >= 4 px");
  if (!(max_marker_side_px > min_marker_side_px)) return fail("max_marker_side_px must exceed min_marker_side_px");
  if (subpix_window_px < 0 || subpix_window_px > 20) return fail("subpix_window_px must be 0..20 px");
  if (!(edge_search_px > 0 && edge_search_px <= 10)) return fail("edge_search_px must be in (0, 10] px");
  if (!(max_edge_shift_px > 0)) return fail("max_edge_shift_px must be positive");
  if (!(duplicate_merge_px >= 0)) return fail("duplicate_merge_px must be >= 0");
  if (adaptive_win_min_px < 3 || adaptive_win_max_px < adaptive_win_min_px || adaptive_win_step_px < 1)
    return fail("adaptive threshold windows: need 3 <= min <= max and step >= 1 px");
  if (!(polygonal_approx_accuracy > 0 && polygonal_approx_accuracy < 0.5))
    return fail("polygonal_approx_accuracy must be in (0, 0.5)");
  if (!(min_corner_distance_rate >= 0 && min_corner_distance_rate < 0.5))
    return fail("min_corner_distance_rate must be in [0, 0.5)");
  if (bit_pixels_per_cell < 2 || bit_pixels_per_cell > 20) return fail("bit_pixels_per_cell must be 2..20");
  if (!(bit_ignored_margin >= 0 && bit_ignored_margin < 0.45)) return fail("bit_ignored_margin must be in [0, 0.45)");
  if (error_correction_bits_rate_x100 < 0 || error_correction_bits_rate_x100 > 100)
    return fail("error_correction_bits_rate_x100 must be 0..100");
  return true;
}

DetectorOptions DetectorOptionsFor(const Scene& roster, const calib::CameraIntrinsics& k, double camera_height_mm_hint) {
  double min_mm = 1e9, max_mm = 0;
  for (const Unit& u : roster.units) {
    if (!u.marker) continue;
    min_mm = std::min(min_mm, u.marker->size_mm);
    max_mm = std::max(max_mm, u.marker->size_mm);
  }
  for (const Anchor& a : roster.anchors) {
    min_mm = std::min(min_mm, a.size_mm);
    max_mm = std::max(max_mm, a.size_mm);
  }
  DetectorOptions o;
  if (max_mm <= 0 || k.image_size.width <= 0) return o;
  const double f = 0.5 * (k.camera_matrix(0, 0) + k.camera_matrix(1, 1));
  // Without a height, assume the table's longer side just fills the image's longer side.
  const double table = std::max(roster.table_width_mm, roster.table_depth_mm);
  const double dim = std::max(k.image_size.width, k.image_size.height);
  const double h = camera_height_mm_hint > 0 ? camera_height_mm_hint : f * table / dim;
  // Tilt, distortion and the spread of distances across the table: the far side can be ~1.8x
  // farther than the height and a marker seen edge-on by a tilted camera looks shorter.
  const double min_side = f * min_mm / h / 2.0;
  const double max_side = f * max_mm / h * 2.0;
  o.min_marker_side_px = std::max(6.0, min_side);
  o.max_marker_side_px = std::max(o.min_marker_side_px + 1, max_side);
  // Cells of the smallest marker (4x4 + border = 6; a 6x6 dictionary has 8).
  int cells = 6;
  if (!roster.dictionary.empty()) {
    for (int n = 4; n <= 7; ++n)
      if (roster.dictionary.find(std::to_string(n) + "X" + std::to_string(n)) != std::string::npos) cells = n + 2;
  }
  const double cell_px = f * min_mm / h / cells;
  o.subpix_window_px = std::clamp(int(std::lround(cell_px * 0.5)), 1, 5);
  return o;
}

namespace {

using Clock = std::chrono::steady_clock;

cv::Ptr<cv::aruco::DetectorParameters> ParamsFor(const DetectorOptions& o, cv::Size size) {
  cv::Ptr<cv::aruco::DetectorParameters> p = cv::aruco::DetectorParameters::create();
  const double dim = std::max(size.width, size.height);
  p->minMarkerPerimeterRate = 4.0 * o.min_marker_side_px / dim;
  p->maxMarkerPerimeterRate = 4.0 * o.max_marker_side_px / dim;
  p->adaptiveThreshWinSizeMin = o.adaptive_win_min_px;
  p->adaptiveThreshWinSizeMax = o.adaptive_win_max_px;
  p->adaptiveThreshWinSizeStep = o.adaptive_win_step_px;
  p->polygonalApproxAccuracyRate = o.polygonal_approx_accuracy;
  p->minCornerDistanceRate = o.min_corner_distance_rate;
  p->errorCorrectionRate = o.error_correction_bits_rate_x100 / 100.0;
  // Read the bits from the middle of each cell, finely sampled: blurred 3 px cells otherwise
  // bleed into their neighbours (measured on 1080p renders: a third fewer misses below 24 px).
  p->perspectiveRemovePixelPerCell = o.bit_pixels_per_cell;
  p->perspectiveRemoveIgnoredMarginPerCell = o.bit_ignored_margin;
  // Small markers near the image border are still whole markers.
  p->minDistanceToBorder = 2;
  // Edge refinement replaces SUBPIX's result; SUBPIX still gives it a better start.
  if (o.subpix_window_px > 0) {
    p->cornerRefinementMethod = cv::aruco::CORNER_REFINE_SUBPIX;
    p->cornerRefinementWinSize = o.subpix_window_px;
    p->cornerRefinementMaxIterations = 30;
    p->cornerRefinementMinAccuracy = 0.01;
  } else {
    p->cornerRefinementMethod = cv::aruco::CORNER_REFINE_NONE;
  }
  return p;
}

cv::Mat ToGray(const cv::Mat& image) {
  if (image.channels() == 1) return image;
  cv::Mat gray;
  cv::cvtColor(image, gray, image.channels() == 4 ? cv::COLOR_BGRA2GRAY : cv::COLOR_BGR2GRAY);
  return gray;
}

// Bilinear sample of an 8-bit gray image; false outside.
inline bool Sample(const cv::Mat& g, double x, double y, double* v) {
  if (x < 0 || y < 0 || x > g.cols - 1.001 || y > g.rows - 1.001) return false;
  const int x0 = int(x), y0 = int(y);
  const double fx = x - x0, fy = y - y0;
  const uchar* r0 = g.ptr<uchar>(y0) + x0;
  const uchar* r1 = g.ptr<uchar>(y0 + 1) + x0;
  *v = (1 - fy) * ((1 - fx) * r0[0] + fx * r0[1]) + fy * ((1 - fx) * r1[0] + fx * r1[1]);
  return true;
}

struct Line {  // n . p = d, |n| = 1
  cv::Point2d n;
  double d = 0;
};

bool Intersect(const Line& a, const Line& b, cv::Point2d* p) {
  const double det = a.n.x * b.n.y - a.n.y * b.n.x;
  if (std::abs(det) < 1e-9) return false;
  p->x = (a.d * b.n.y - a.n.y * b.d) / det;
  p->y = (a.n.x * b.d - a.d * b.n.x) / det;
  return true;
}

// Fits the edge between corners a and b (the marker's dark inside on the left of a->b when the
// quad runs clockwise in the image, as OpenCV's corners do) as a line through sub-pixel edge
// points: along the side, each sample's profile across the edge gives the position of the steepest
// dark-to-light rise (parabola through the derivative's peak). Total least squares with one pass of
// outlier rejection.
bool FitEdge(const cv::Mat& g, const cv::Point2d& a, const cv::Point2d& b, cv::Point2d outward, double search_px,
             double cell_px, Line* line) {
  const cv::Point2d ab = b - a;
  const double len = std::hypot(ab.x, ab.y);
  if (len < 4) return false;
  const cv::Point2d t = ab / len;
  // The profile must stay within one cell inward (the next cell may be white) and outward (the
  // quiet zone is at least one cell).
  const double reach = std::min(search_px, 0.9 * cell_px);
  const double step = 0.25;
  const int half = std::max(2, int(std::ceil(reach / step)));
  // 1.5 profiles per pixel of side, at most 48: beyond that the line's error hardly falls
  // (1/sqrt(n)) while the cost keeps growing with the side (4K windows).
  const int n_samples = std::clamp(int(len * 1.5), 6, 48);
  // Stay away from the corners, where the neighbouring sides bend the profile.
  const double margin = std::min(0.25 * len, std::max(1.5 * cell_px * 0.5, 1.5));
  std::vector<cv::Point2d> pts;
  pts.reserve(n_samples);
  std::vector<double> prof(2 * half + 1);
  for (int i = 0; i < n_samples; ++i) {
    const double s = margin + (len - 2 * margin) * (i + 0.5) / n_samples;
    const cv::Point2d c = a + s * t;
    bool ok = true;
    for (int j = -half; j <= half && ok; ++j) {
      const cv::Point2d q = c + (j * step) * outward;
      ok = Sample(g, q.x, q.y, &prof[j + half]);
    }
    if (!ok) continue;
    // First differences d_j = prof[j+1] - prof[j] sit at (j + 0.5) steps. The edge is the centroid
    // of the rise around its steepest part: unbiased for a symmetrically blurred step, and unlike a
    // parabola through the peak it is not fooled by bilinear sampling, whose derivative is flat
    // between pixel rows when the edge runs along the pixel grid.
    const int m = int(prof.size()) - 1;
    int best = -1;
    double best_d = 0;
    for (int j = 0; j < m; ++j) {
      const double d = prof[j + 1] - prof[j];
      if (d > best_d) { best_d = d, best = j; }
    }
    if (best < 1 || best > m - 2) continue;
    const double lo = *std::min_element(prof.begin(), prof.end());
    const double hi = *std::max_element(prof.begin(), prof.end());
    if (hi - lo < 12) continue;  // no edge here (occluded, washed out)
    const int w = int(std::ceil(1.5 / step));
    int j0 = best, j1 = best;
    while (j0 > 0 && j0 > best - w && prof[j0] - prof[j0 - 1] > 0) --j0;
    while (j1 < m - 1 && j1 < best + w && prof[j1 + 2] - prof[j1 + 1] > 0) ++j1;
    double sw = 0, swx = 0;
    for (int j = j0; j <= j1; ++j) {
      const double d = prof[j + 1] - prof[j];
      sw += d, swx += d * (j + 0.5);
    }
    if (sw <= 0) continue;
    const double off = swx / sw - best;
    pts.push_back(c + ((best + off - half) * step) * outward);
  }
  if (int(pts.size()) < std::max(4, n_samples / 3)) return false;
  auto fit = [&](const std::vector<cv::Point2d>& p, Line* l) {
    cv::Point2d m(0, 0);
    for (const auto& q : p) m += q;
    m /= double(p.size());
    double sxx = 0, sxy = 0, syy = 0;
    for (const auto& q : p) {
      const cv::Point2d d = q - m;
      sxx += d.x * d.x, sxy += d.x * d.y, syy += d.y * d.y;
    }
    // Normal = eigenvector of the smaller eigenvalue of the scatter matrix.
    const double theta = 0.5 * std::atan2(2 * sxy, sxx - syy);  // direction of the line
    l->n = {-std::sin(theta), std::cos(theta)};
    l->d = l->n.dot(m);
  };
  fit(pts, line);
  std::vector<double> res;
  for (const auto& q : pts) res.push_back(std::abs(line->n.dot(q) - line->d));
  std::vector<double> sorted = res;
  std::nth_element(sorted.begin(), sorted.begin() + sorted.size() / 2, sorted.end());
  const double thr = std::max(0.15, 3.0 * 1.4826 * sorted[sorted.size() / 2]);
  std::vector<cv::Point2d> in;
  for (size_t i = 0; i < pts.size(); ++i)
    if (res[i] <= thr) in.push_back(pts[i]);
  if (int(in.size()) < std::max(4, n_samples / 3)) return false;
  fit(in, line);
  return true;
}

double SignedArea(const std::array<cv::Point2d, 4>& q) {
  double a = 0;
  for (int i = 0; i < 4; ++i) a += q[i].x * q[(i + 1) % 4].y - q[(i + 1) % 4].x * q[i].y;
  return 0.5 * a;
}

bool EdgeRefine(const DetectorOptions& o, const cv::Mat& g, std::array<cv::Point2f, 4>* corners, int cells) {
  std::array<cv::Point2d, 4> q;
  for (int i = 0; i < 4; ++i) q[i] = (*corners)[i];
  const double area = SignedArea(q);
  if (std::abs(area) < 9) return false;
  double side = 0;
  for (int i = 0; i < 4; ++i) side += cv::norm(q[(i + 1) % 4] - q[i]);
  side /= 4;
  const double cell_px = side / cells;
  const std::array<cv::Point2d, 4> start = q;
  // Two passes: the second searches a narrower band around the first pass's lines.
  for (int pass = 0; pass < 2; ++pass) {
    std::array<Line, 4> lines;
    for (int i = 0; i < 4; ++i) {
      const cv::Point2d a = q[i], b = q[(i + 1) % 4];
      cv::Point2d t = b - a;
      t /= std::max(1e-9, cv::norm(t));
      // Outward normal: for a quad with positive signed area (counter-clockwise in a y-down image
      // as drawn = clockwise on screen), the outside of a->b is on the left (t.y, -t.x)... pick by
      // testing against the centroid instead of reasoning about orientation.
      cv::Point2d n(t.y, -t.x);
      const cv::Point2d centre = 0.25 * (q[0] + q[1] + q[2] + q[3]);
      if (n.dot(0.5 * (a + b) - centre) < 0) n = -n;
      const double search = pass == 0 ? o.edge_search_px : std::min(o.edge_search_px, 1.0);
      if (!FitEdge(g, a, b, n, search, cell_px, &lines[i])) return false;
    }
    std::array<cv::Point2d, 4> r;
    for (int i = 0; i < 4; ++i)
      if (!Intersect(lines[(i + 3) % 4], lines[i], &r[i])) return false;
    for (int i = 0; i < 4; ++i)
      if (cv::norm(r[i] - start[i]) > o.max_edge_shift_px) return false;
    if (SignedArea(r) * area <= 0) return false;
    q = r;
  }
  for (int i = 0; i < 4; ++i) (*corners)[i] = cv::Point2f(float(q[i].x), float(q[i].y));
  return true;
}

// Re-reads the marker's cells through the refined corners: the mean of a 3x3 grid in the middle
// half of every cell, split by the threshold halfway between the cells the ID says are white and
// those it says are black. OpenCV reads small markers from a coarse perspective-removed patch and
// sometimes takes one marker for another; a misread disagrees with the image here in several cells.
bool BitsAgree(const cv::Mat& g, const std::array<cv::Point2f, 4>& corners, const cv::aruco::Dictionary& dict, int id,
               int allowed_mismatches) {
  const int n = dict.markerSize, cells = n + 2;
  const std::vector<cv::Point2f> square = {{0, 0}, {float(cells), 0}, {float(cells), float(cells)}, {0, float(cells)}};
  const std::vector<cv::Point2f> quad(corners.begin(), corners.end());
  const cv::Matx33d h = cv::getPerspectiveTransform(square, quad);
  const cv::Mat inner = cv::aruco::Dictionary::getBitsFromByteList(dict.bytesList.rowRange(id, id + 1), n);
  std::vector<double> mean(size_t(cells) * cells);
  std::vector<char> white(size_t(cells) * cells, 0);
  double sum_w = 0, sum_b = 0;
  int n_w = 0, n_b = 0;
  for (int r = 0; r < cells; ++r)
    for (int c = 0; c < cells; ++c) {
      double acc = 0;
      int k = 0;
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
          const double u = c + 0.25 + 0.25 * j, v = r + 0.25 + 0.25 * i;
          const cv::Vec3d p = h * cv::Vec3d(u, v, 1);
          double val;
          if (Sample(g, p[0] / p[2], p[1] / p[2], &val)) acc += val, ++k;
        }
      if (k == 0) return false;
      const size_t idx = size_t(r) * cells + c;
      mean[idx] = acc / k;
      const bool is_white = r > 0 && c > 0 && r <= n && c <= n && inner.at<uchar>(r - 1, c - 1) != 0;
      white[idx] = is_white;
      (is_white ? sum_w : sum_b) += mean[idx];
      ++(is_white ? n_w : n_b);
    }
  if (n_w == 0) return true;  // an all-black code has nothing to compare
  const double w = sum_w / n_w, b = sum_b / n_b;
  if (w - b < 15) return false;
  const double t = 0.5 * (w + b);
  int wrong = 0;
  for (size_t i = 0; i < mean.size(); ++i) wrong += (mean[i] > t) != bool(white[i]);
  return wrong <= allowed_mismatches;
}

// Merges the same id reported twice at one spot; flags the same id at different spots.
void MergeAndFlag(const DetectorOptions& o, Detections* d) {
  std::vector<calib::MarkerObservation> out;
  std::vector<double> sides;
  auto side_of = [](const calib::MarkerObservation& m) {
    double s = 0;
    for (int i = 0; i < 4; ++i) s += cv::norm(m.corners_px[(i + 1) % 4] - m.corners_px[i]);
    return s / 4;
  };
  auto centre_of = [](const calib::MarkerObservation& m) {
    return 0.25f * (m.corners_px[0] + m.corners_px[1] + m.corners_px[2] + m.corners_px[3]);
  };
  for (const auto& m : d->markers) {
    bool merged = false;
    const double s = side_of(m);
    for (size_t i = 0; i < out.size() && !merged; ++i) {
      if (out[i].id != m.id) continue;
      const double limit = o.duplicate_merge_px > 0 ? o.duplicate_merge_px : 0.5 * std::min(s, sides[i]);
      if (cv::norm(centre_of(out[i]) - centre_of(m)) <= limit) {
        if (s > sides[i]) out[i] = m, sides[i] = s;
        merged = true;
      }
    }
    if (!merged) out.push_back(m), sides.push_back(s);
  }
  d->duplicate_ids.clear();
  for (size_t i = 0; i < out.size(); ++i)
    for (size_t j = i + 1; j < out.size(); ++j)
      if (out[i].id == out[j].id &&
          std::find(d->duplicate_ids.begin(), d->duplicate_ids.end(), out[i].id) == d->duplicate_ids.end())
        d->duplicate_ids.push_back(out[i].id);
  std::sort(d->duplicate_ids.begin(), d->duplicate_ids.end());
  d->markers = std::move(out);
}

Detections Collect(const std::vector<int>& ids, const std::vector<std::vector<cv::Point2f>>& corners) {
  Detections d;
  for (size_t i = 0; i < ids.size(); ++i) {
    calib::MarkerObservation m;
    m.id = ids[i];
    for (int j = 0; j < 4; ++j) m.corners_px[j] = corners[i][j];
    d.markers.push_back(m);
  }
  return d;
}

}  // namespace

Detections DetectMarkers(const DetectorOptions& o, const cv::Mat& image, const cv::aruco::Dictionary& dict) {
  const auto t0 = Clock::now();
  const cv::Mat gray = ToGray(image);
  std::vector<int> ids;
  std::vector<std::vector<cv::Point2f>> corners;
  cv::Ptr<cv::aruco::Dictionary> d = cv::makePtr<cv::aruco::Dictionary>(dict);
  cv::aruco::detectMarkers(gray, d, corners, ids, ParamsFor(o, gray.size()));
  Detections out = Collect(ids, corners);
  const int cells = dict.markerSize + 2;
  if (o.edge_refinement)
    for (auto& m : out.markers) EdgeRefine(o, gray, &m.corners_px, cells);
  if (o.verify_bits) {
    const int allowed = int(dict.maxCorrectionBits * o.error_correction_bits_rate_x100 / 100.0);
    std::erase_if(out.markers, [&](const calib::MarkerObservation& m) {
      return !BitsAgree(gray, m.corners_px, dict, m.id, allowed);
    });
  }
  MergeAndFlag(o, &out);
  out.ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  return out;
}

bool RefineMarkerCorners(const DetectorOptions& o, const cv::Mat& gray_in, std::array<cv::Point2f, 4>* corners_px) {
  const cv::Mat gray = ToGray(gray_in);
  std::array<cv::Point2d, 4> q;
  for (int i = 0; i < 4; ++i) {
    q[i] = (*corners_px)[i];
    if (!(q[i].x >= 1 && q[i].y >= 1 && q[i].x < gray.cols - 2 && q[i].y < gray.rows - 2)) return false;
  }
  if (std::abs(SignedArea(q)) < 9) return false;
  std::array<cv::Point2f, 4> c = *corners_px;
  if (o.subpix_window_px > 0) {
    std::vector<cv::Point2f> v(c.begin(), c.end());
    cv::cornerSubPix(gray, v, cv::Size(o.subpix_window_px, o.subpix_window_px), cv::Size(-1, -1),
                     cv::TermCriteria(cv::TermCriteria::MAX_ITER | cv::TermCriteria::EPS, 30, 0.01));
    bool sane = true;
    for (int i = 0; i < 4; ++i) sane = sane && cv::norm(v[i] - c[i]) <= o.max_edge_shift_px;
    if (sane) std::copy(v.begin(), v.end(), c.begin());
  }
  if (o.edge_refinement) {
    // The cell count is unknown here; 6 (4x4 markers) is the roster default and only bounds the
    // search band.
    if (!EdgeRefine(o, gray, &c, 6) && o.subpix_window_px == 0) return false;
  }
  *corners_px = c;
  return true;
}

Detections DetectMarkersStock(const cv::Mat& image, const cv::aruco::Dictionary& dict) {
  const auto t0 = Clock::now();
  const cv::Mat gray = ToGray(image);
  std::vector<int> ids;
  std::vector<std::vector<cv::Point2f>> corners;
  cv::Ptr<cv::aruco::Dictionary> d = cv::makePtr<cv::aruco::Dictionary>(dict);
  cv::aruco::detectMarkers(gray, d, corners, ids, cv::aruco::DetectorParameters::create());
  Detections out = Collect(ids, corners);
  DetectorOptions o;
  MergeAndFlag(o, &out);
  out.ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  return out;
}

}  // namespace vedette::vision
