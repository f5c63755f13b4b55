#include "vision/view_check.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <numeric>
#include <set>
#include <stdexcept>

#include <opencv2/imgproc.hpp>

#include "calibration/dictionary.h"
#include "rules/input_error.h"
#include "vision/bilinear.h"
#include "vision/detect.h"
#include "vision/grey.h"

namespace vedette::vision {

bool ViewCheckOptions::Check(std::string* error) const {
  auto fail = [&](const char* what) {
    if (error) *error = what;
    return false;
  };
  if (!(min_reliable_side_px > 0)) return fail("min_reliable_side_px must be > 0");
  if (!(max_edge_rise_px > 0)) return fail("max_edge_rise_px must be > 0");
  if (!(min_contrast >= 0 && min_contrast <= 255)) return fail("min_contrast must be within 0-255 grey levels");
  if (!(min_white_level >= 0 && min_white_level <= 255)) return fail("min_white_level must be within 0-255 grey levels");
  if (!(max_clipped_share >= 0 && max_clipped_share <= 1)) return fail("max_clipped_share must be within 0-1");
  if (!(max_registration_rms_px > 0)) return fail("max_registration_rms_px must be > 0");
  if (!(max_distance_error_mm > 0)) return fail("max_distance_error_mm must be > 0");
  if (!(min_image_mean_level >= 0 && min_image_mean_level <= 255)) return fail("min_image_mean_level must be within 0-255");
  return registration.Check(error);
}

std::string_view ToString(MarkerProblem p) {
  switch (p) {
    case MarkerProblem::kNotSeen: return "not seen";
    case MarkerProblem::kSeenTwice: return "seen twice";
    case MarkerProblem::kSmall: return "small";
    case MarkerProblem::kBlurred: return "blurred";
    case MarkerProblem::kDark: return "dark";
    case MarkerProblem::kLowContrast: return "low contrast";
    case MarkerProblem::kClipped: return "clipped";
  }
  return "?";
}

namespace {

using Clock = std::chrono::steady_clock;

// Blur from the marker's own pattern. Profiles are taken across each side at the centre of every
// bit cell along it: from half a cell outside (the white margin a roster guarantees) to 2.5 cells
// inside (the black border and two rows of bits). What each profile would look like printed and
// seen without blur is known: the marker's cells through its corners. Blurred by a Gaussian of
// sigma s it becomes black + (white - black) * t_s(d), with t_s a sum of error functions over its
// white stretches; s, black and white are fitted to all profiles at once (least squares, s on a
// grid then refined). Unlike a plain 10-90 % reading of the profile this still works when the blur
// is as wide as a cell, where a small marker's border never reaches its true black.
struct Profile {
  std::vector<double> d, v;                      // px along the outward normal (0 on the side), grey
  std::vector<std::pair<double, double>> white;  // white stretches of the unblurred pattern, px
};

// The unblurred pattern along p + n d: white outside the marker, the cells inside.
std::vector<std::pair<double, double>> WhiteStretches(const cv::Matx33d& px_to_cells, const cv::Mat& bits, int cells,
                                                      cv::Point2d p, cv::Point2d n, double from, double to) {
  constexpr double kFine = 0.05;  // px
  std::vector<std::pair<double, double>> out;
  bool in_white = false;
  for (double d = from; d <= to + 1e-9; d += kFine) {
    const cv::Point2d q = p + n * d;
    const cv::Vec3d c = px_to_cells * cv::Vec3d(q.x, q.y, 1.0);
    const double x = c[0] / c[2], y = c[1] / c[2];
    const bool white = x < 0 || y < 0 || x >= cells || y >= cells || bits.at<uchar>(int(y), int(x)) != 0;
    if (white && !in_white) out.push_back({d == from ? -1e9 : d, 1e9});
    if (!white && in_white) out.back().second = d;
    in_white = white;
  }
  return out;
}

std::vector<Profile> SideProfiles(const cv::Mat& gray, const std::array<cv::Point2f, 4>& c, const cv::Matx33d& px_to_cells,
                                  const cv::Mat& bits, int cells, double cell_px) {
  const double step = std::max(0.25, cell_px / 12.0);  // px: about 36 samples a profile, whatever the size
  std::vector<Profile> out;
  const cv::Point2d centre = (cv::Point2d(c[0]) + cv::Point2d(c[1]) + cv::Point2d(c[2]) + cv::Point2d(c[3])) * 0.25;
  for (int i = 0; i < 4; ++i) {
    const cv::Point2d a(c[i]), b(c[(i + 1) % 4]);
    const cv::Point2d t = (b - a) / std::max(1e-9, cv::norm(b - a));
    cv::Point2d n(-t.y, t.x);
    if (n.dot((a + b) * 0.5 - centre) < 0) n = -n;
    for (int k = 1; k + 1 < cells; ++k) {
      Profile pr;
      const cv::Point2d p = a + (b - a) * ((k + 0.5) / cells);
      bool inside = true;
      for (double d = -2.5 * cell_px; d <= 0.5 * cell_px && inside; d += step) {
        double v = 0;
        const cv::Point2d q = p + n * d;
        inside = SampleBilinear(gray, q.x, q.y, &v);
        pr.d.push_back(d);
        pr.v.push_back(v);
      }
      if (!inside) continue;
      pr.white = WhiteStretches(px_to_cells, bits, cells, p, n, -(cells + 1) * cell_px, 2.0 * cell_px);
      out.push_back(std::move(pr));
    }
  }
  return out;
}

struct EdgeFit {
  double sigma = 0, black = 0, white = 0, residual = 1e300;
};

EdgeFit FitBlur(const std::vector<Profile>& profiles, double sigma) {
  std::vector<double> t, v;
  for (const Profile& p : profiles)
    for (size_t i = 0; i < p.d.size(); ++i) {
      double w = 0;
      for (const auto& [a, b] : p.white)
        w += 0.5 * (std::erf((p.d[i] - a) / (sigma * M_SQRT2)) - std::erf((p.d[i] - b) / (sigma * M_SQRT2)));
      t.push_back(w);
      v.push_back(p.v[i]);
    }
  EdgeFit f;
  f.sigma = sigma;
  if (t.size() < 4) return f;
  const double tm = std::accumulate(t.begin(), t.end(), 0.0) / t.size(), vm = std::accumulate(v.begin(), v.end(), 0.0) / v.size();
  double stt = 0, stv = 0;
  for (size_t i = 0; i < t.size(); ++i) {
    stt += (t[i] - tm) * (t[i] - tm);
    stv += (t[i] - tm) * (v[i] - vm);
  }
  if (stt <= 0) return f;
  const double contrast = stv / stt;
  f.black = vm - contrast * tm;
  f.white = f.black + contrast;
  f.residual = 0;
  for (size_t i = 0; i < t.size(); ++i) f.residual += std::pow(v[i] - f.black - contrast * t[i], 2);
  return f;
}

// The residual falls then rises with sigma: a coarse geometric grid (15 % steps, as fine for a
// sharp edge as for a blurred one) finds the valley, a golden-section search narrows it to 0.01 px.
EdgeFit BestBlur(const std::vector<Profile>& profiles) {
  EdgeFit best;
  double best_s = 0.2;
  for (double s = 0.2; s <= 8.0; s *= 1.15)
    if (EdgeFit f = FitBlur(profiles, s); f.residual < best.residual) {
      best = f;
      best_s = s;
    }
  constexpr double kGolden = 0.6180339887;
  double a = best_s / 1.15, b = best_s * 1.15;
  double x1 = b - kGolden * (b - a), x2 = a + kGolden * (b - a);
  EdgeFit f1 = FitBlur(profiles, x1), f2 = FitBlur(profiles, x2);
  while (b - a > 0.01) {
    if (f1.residual < f2.residual) {
      b = x2, x2 = x1, f2 = f1;
      x1 = b - kGolden * (b - a);
      f1 = FitBlur(profiles, x1);
    } else {
      a = x1, x1 = x2, f1 = f2;
      x2 = a + kGolden * (b - a);
      f2 = FitBlur(profiles, x2);
    }
  }
  for (const EdgeFit& f : {f1, f2})
    if (f.residual < best.residual) best = f;
  return best;
}

// Mean grey and clipped share over the marker and one cell round it (the part a player can light).
void Exposure(const cv::Mat& gray, const cv::Matx33d& cells_to_px, int cells, MarkerQuality* q) {
  std::vector<cv::Point2d> ring_cells = {{-1, -1}, {cells + 1.0, -1}, {cells + 1.0, cells + 1.0}, {-1, cells + 1.0}}, ring_px;
  cv::perspectiveTransform(ring_cells, ring_px, cells_to_px);
  std::vector<cv::Point> poly;
  for (const auto& p : ring_px) poly.emplace_back(cvRound(p.x), cvRound(p.y));
  const cv::Rect box = cv::boundingRect(poly) & cv::Rect(0, 0, gray.cols, gray.rows);
  if (box.area() == 0) return;
  cv::Mat mask = cv::Mat::zeros(box.size(), CV_8U);
  for (auto& p : poly) p -= box.tl();
  cv::fillConvexPoly(mask, poly, 255);
  const cv::Mat roi = gray(box);
  const double count = cv::countNonZero(mask);
  if (count == 0) return;
  q->mean_level = cv::mean(roi, mask)[0];
  const int clipped = cv::countNonZero((roi == 0) & mask) + cv::countNonZero((roi == 255) & mask);
  q->clipped_share = clipped / count;
}

}  // namespace

MarkerQuality MeasureMarker(const cv::Mat& gray, const std::array<cv::Point2f, 4>& corners_px, int cells,
                            const cv::Mat& bits) {
  MarkerQuality q;
  q.seen = true;
  for (int i = 0; i < 4; ++i) q.side_px += 0.25 * cv::norm(corners_px[(i + 1) % 4] - corners_px[i]);
  const cv::Point2f square[4] = {{0, 0}, {float(cells), 0}, {float(cells), float(cells)}, {0, float(cells)}};
  const cv::Matx33d cells_to_px = cv::getPerspectiveTransform(square, corners_px.data());
  const EdgeFit fit = BestBlur(SideProfiles(gray, corners_px, cells_to_px.inv(), bits, cells, q.side_px / cells));
  if (fit.white > fit.black) {
    // A Gaussian edge of sigma s rises from 10 to 90 % over 2 * 1.2816 s.
    q.edge_rise_px = 2.563 * fit.sigma;
    q.black_level = std::clamp(fit.black, 0.0, 255.0);
    q.white_level = std::clamp(fit.white, 0.0, 255.0);
    q.contrast = q.white_level - q.black_level;
  }
  Exposure(gray, cells_to_px, cells, &q);
  return q;
}

namespace {

// Seen once: measured; not seen or seen at two spots: a problem and nothing measured.
MarkerCheck CheckOne(const ViewCheckOptions& o, const cv::Mat& gray, const cv::aruco::Dictionary& dict,
                     const std::vector<calib::MarkerObservation>& markers, MarkerCheck c) {
  const int id = c.quality.marker;
  std::vector<const calib::MarkerObservation*> found;
  for (const auto& m : markers)
    if (m.id == id) found.push_back(&m);
  if (found.empty()) c.problems.push_back(MarkerProblem::kNotSeen);
  if (found.size() > 1) c.problems.push_back(MarkerProblem::kSeenTwice);
  if (found.size() != 1) return c;
  const int cells = dict.markerSize + 2;
  c.quality = MeasureMarker(gray, found[0]->corners_px, cells, calib::MarkerCells(dict, id));
  c.quality.marker = id;
  const MarkerQuality& q = c.quality;
  if (q.side_px < o.min_reliable_side_px) c.problems.push_back(MarkerProblem::kSmall);
  if (q.edge_rise_px > o.max_edge_rise_px) c.problems.push_back(MarkerProblem::kBlurred);  // no fit (0): kDark says why
  if (q.white_level < o.min_white_level) c.problems.push_back(MarkerProblem::kDark);
  else if (q.contrast < o.min_contrast) c.problems.push_back(MarkerProblem::kLowContrast);
  if (q.clipped_share > o.max_clipped_share) c.problems.push_back(MarkerProblem::kClipped);
  return c;
}

// Markers not seen: how large they would be at the anchors' scale (their side px per mm), so that
// a camera too far or too coarse for the unit markers is named as the reason.
void ExpectSizes(const ViewCheckOptions& o, ViewCheck* v) {
  double sum = 0;
  int n = 0;
  for (const MarkerCheck& a : v->anchors)
    if (a.quality.seen && a.size_mm > 0) {
      sum += a.quality.side_px / a.size_mm;
      ++n;
    }
  if (n == 0) return;
  for (auto* list : {&v->anchors, &v->units})
    for (MarkerCheck& c : *list) {
      if (c.quality.seen || c.problems.empty() || c.problems[0] != MarkerProblem::kNotSeen) continue;
      c.expected_side_px = c.size_mm * sum / n;
      if (c.expected_side_px < o.min_reliable_side_px) c.problems.push_back(MarkerProblem::kSmall);
    }
}

bool Has(const MarkerCheck& c, MarkerProblem p) { return std::find(c.problems.begin(), c.problems.end(), p) != c.problems.end(); }

std::string Names(const std::vector<const MarkerCheck*>& list) {
  std::string s;
  for (size_t i = 0; i < list.size(); ++i) {
    if (i == 5 && list.size() > 6) return s + " and " + std::to_string(list.size() - 5) + " more";
    s += (i ? ", " : "") + list[i]->name;
  }
  return s;
}

std::vector<const MarkerCheck*> With(const ViewCheck& v, MarkerProblem p, bool anchors, bool units) {
  std::vector<const MarkerCheck*> out;
  if (anchors)
    for (const auto& c : v.anchors)
      if (Has(c, p)) out.push_back(&c);
  if (units)
    for (const auto& c : v.units)
      if (Has(c, p)) out.push_back(&c);
  return out;
}

std::string Format(const char* fmt, double a, double b = 0, double c = 0) {
  char buf[256];
  std::snprintf(buf, sizeof buf, fmt, a, b, c);
  return buf;
}

// Markers under the reliable size (seen, or expected at the anchors' scale): how much closer the
// camera must come, or how large the markers must be printed.
std::string SmallAdvice(const ViewCheckOptions& o, const std::vector<const MarkerCheck*>& l, bool anchors) {
  double smallest = 1e9, need_mm = 0;
  for (const MarkerCheck* c : l) {
    const double side = c->quality.seen ? c->quality.side_px : c->expected_side_px;
    smallest = std::min(smallest, side);
    need_mm = std::max(need_mm, c->size_mm * o.min_reliable_side_px / side);
  }
  char buf[320];
  std::snprintf(buf, sizeof buf,
                ": markers are %.1f px (read reliably from %.0f px): camera lower (about %.0f %% closer, if the table "
                "still fits), a higher camera resolution, or %s markers of at least %.1f mm",
                smallest, o.min_reliable_side_px, std::ceil(100.0 * (1.0 - smallest / o.min_reliable_side_px)), anchors ? "anchor" : "unit",
                std::ceil(need_mm * 2.0) / 2.0);
  return Names(l) + buf;
}

// What to do about the markers, in the order a player would fix things: what is missing first,
// then the camera's distance, focus, light.
void MarkerAdvice(const ViewCheckOptions& o, ViewCheck* v) {
  if (auto l = With(*v, MarkerProblem::kNotSeen, true, false); !l.empty())
    v->advice.push_back(Names(l) + " not seen: is the whole table in view, and nothing lying on them?");
  if (auto l = With(*v, MarkerProblem::kNotSeen, false, true); !l.empty())
    v->advice.push_back("unit" + std::string(l.size() > 1 ? "s " : " ") + Names(l) +
                        " not seen: are they on the table and in view?");
  if (auto l = With(*v, MarkerProblem::kSeenTwice, true, true); !l.empty())
    v->advice.push_back(Names(l) + ": the same marker seen at two spots: two bases carry one ID; reprint one");
  for (bool anchors : {true, false})
    if (auto l = With(*v, MarkerProblem::kSmall, anchors, !anchors); !l.empty()) v->advice.push_back(SmallAdvice(o, l, anchors));
  if (auto l = With(*v, MarkerProblem::kBlurred, true, true); !l.empty()) {
    double worst = 0;
    for (const MarkerCheck* c : l) worst = std::max(worst, c->quality.edge_rise_px);
    v->advice.push_back(Format("blurred: marker edges rise over %.1f px (sharp is under %.1f px) at ", worst, o.max_edge_rise_px) +
                        Names(l) + ": refocus the camera, and keep it still");
  }
  if (auto l = With(*v, MarkerProblem::kDark, true, true); !l.empty())
    v->advice.push_back("too dark at " + Names(l) + ": more light on the table (or a longer exposure)");
  if (auto l = With(*v, MarkerProblem::kLowContrast, true, true); !l.empty())
    v->advice.push_back("low contrast at " + Names(l) + ": glare on the markers or a faded print; move the light or reprint");
  if (auto l = With(*v, MarkerProblem::kClipped, true, true); !l.empty())
    v->advice.push_back("glare/clipped at " + Names(l) + ": move the light or turn it down so white is not burnt out");
}

}  // namespace

namespace {

// What the anchors' fit says: the table cannot be registered, the fit is loose (wrong camera file,
// an anchor lifted), or one anchor is off its spot (the known distances disagree).
void RegistrationAdvice(const ViewCheckOptions& o, const Scene& roster, ViewCheck* v) {
  const calib::Registration& r = v->registration;
  if (!r.ok) {
    v->advice.push_back("the table cannot be registered: " + r.message);
    return;
  }
  for (int id : r.anchors_seen)
    if (std::find(r.anchors_used.begin(), r.anchors_used.end(), id) == r.anchors_used.end())
      for (const Anchor& a : roster.anchors)
        if (a.marker == id)
          v->advice.push_back("anchor " + std::to_string(id) +
                              Format(" does not fit the others: is it flat on its spot (x %.0f, y %.0f mm)?", a.x_mm, a.y_mm));
  if (r.rms_px > o.max_registration_rms_px)
    v->advice.push_back(Format("registration RMS %.2f px (limit %.2f): is the camera file for this camera at this "
                               "resolution, and does every anchor lie flat on its spot?",
                               r.rms_px, o.max_registration_rms_px));
  for (const auto& c : r.checks)
    if (std::abs(c.measured_mm - c.known_mm) > o.max_distance_error_mm)
      v->advice.push_back("anchors " + std::to_string(c.a) + "-" + std::to_string(c.b) +
                          Format(" measure %.1f mm apart, the roster says %.1f: is one off its spot?", c.measured_mm, c.known_mm));
}

bool Ready(const ViewCheckOptions& o, const ViewCheck& v) {
  for (const MarkerCheck& a : v.anchors)
    if (Has(a, MarkerProblem::kNotSeen) || Has(a, MarkerProblem::kSeenTwice)) return false;
  const calib::Registration& r = v.registration;
  if (!r.ok || r.anchors_used.size() != v.anchors.size() || r.rms_px > o.max_registration_rms_px ||
      v.worst_distance_error_mm > o.max_distance_error_mm)
    return false;
  // A unit's clipped margin alone does not stop it being read; every other problem may.
  for (const MarkerCheck& u : v.units)
    for (MarkerProblem p : u.problems)
      if (p != MarkerProblem::kClipped) return false;
  return true;
}

}  // namespace

ViewCheck CheckView(const ViewCheckOptions& options, const cv::Mat& image, const calib::CameraIntrinsics& k,
                    const Scene& roster) {
  if (std::string error; !options.Check(&error)) throw std::invalid_argument("view check options: " + error);
  if (roster.dictionary.empty()) throw InputError(roster.source, 0, "the roster names no `dictionary:`");
  const auto t0 = Clock::now();
  const cv::Mat gray = GreyFrame(image);
  const cv::Ptr<cv::aruco::Dictionary> dict = calib::ResolveDictionary(roster.dictionary);
  // Step 1: detection as every other command runs it for this roster and lens.
  const Detections det = DetectMarkers(DetectorOptionsFor(roster, k), gray, *dict);
  ViewCheck v;
  v.duplicate_ids = det.duplicate_ids;
  // Step 2: each anchor and unit marker, seen or not, and how well.
  for (const Anchor& a : roster.anchors) {
    MarkerCheck c;
    c.name = "anchor " + std::to_string(a.marker);
    c.anchor = true;
    c.size_mm = a.size_mm;
    c.quality.marker = a.marker;
    v.anchors.push_back(CheckOne(options, gray, *dict, det.markers, c));
  }
  for (const Unit& u : roster.units) {
    if (!u.marker) continue;
    MarkerCheck c;
    c.name = u.id;
    c.size_mm = u.marker->size_mm;
    c.quality.marker = u.marker->id;
    v.units.push_back(CheckOne(options, gray, *dict, det.markers, c));
  }
  ExpectSizes(options, &v);
  std::set<int> known;
  for (const Anchor& a : roster.anchors) known.insert(a.marker);
  for (const Unit& u : roster.units)
    if (u.marker) known.insert(u.marker->id);
  for (const auto& m : det.markers)
    if (!known.count(m.id) && std::find(v.unknown_markers.begin(), v.unknown_markers.end(), m.id) == v.unknown_markers.end())
      v.unknown_markers.push_back(m.id);
  std::sort(v.unknown_markers.begin(), v.unknown_markers.end());
  // Step 3: registration from the anchors seen once (a duplicated anchor cannot be trusted).
  std::vector<calib::MarkerObservation> usable;
  for (const auto& m : det.markers)
    if (std::find(det.duplicate_ids.begin(), det.duplicate_ids.end(), m.id) == det.duplicate_ids.end()) usable.push_back(m);
  v.registration = calib::RegisterTable(options.registration, k, roster.anchors, usable);
  v.worst_distance_error_mm = calib::WorstCheckErrorMm(v.registration);
  // Step 4: the picture as a whole (says why nothing was seen when nothing was).
  v.image_mean_level = cv::mean(gray)[0];
  v.image_clipped_share = double(cv::countNonZero(gray == 0) + cv::countNonZero(gray == 255)) / double(gray.total());
  // Step 5: advice and the verdict.
  if (v.image_mean_level < options.min_image_mean_level)
    v.advice.push_back(Format("the whole picture is dark (mean grey %.0f of 255): more light on the table", v.image_mean_level));
  MarkerAdvice(options, &v);
  RegistrationAdvice(options, roster, &v);
  v.ready = Ready(options, v);
  v.ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  return v;
}

}  // namespace vedette::vision
