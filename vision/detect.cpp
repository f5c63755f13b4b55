#include "vision/detect.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>

#include <opencv2/imgproc.hpp>

#include "calibration/dictionary.h"
#include "vision/edge_lines.h"
#include "vision/grey.h"
#include "vision/marker_candidates.h"
#include "vision/marker_decode.h"

namespace vedette::vision {

bool DetectorOptions::Check(std::string* error) const {
  auto fail = [&](const std::string& m) { if (error) *error = m; return false; };
  if (!(min_marker_side_px >= 4)) return fail("min_marker_side_px must be >= 4 px");
  if (!(max_marker_side_px > min_marker_side_px)) return fail("max_marker_side_px must exceed min_marker_side_px");
  for (const ThresholdPass& p : threshold_passes)
    if (p.window_px < 3 || p.window_px % 2 == 0 || (p.scale != 1 && p.scale != 2))
      return fail("threshold passes need odd windows >= 3 px and scale 1 or 2, got window " + std::to_string(p.window_px) +
                  " scale " + std::to_string(p.scale));
  if (!(threshold_offset >= 0 && threshold_offset < 128)) return fail("threshold_offset must be in [0, 128) grey levels");
  if (!(polygon_accuracy > 0 && polygon_accuracy < 0.5)) return fail("polygon_accuracy must be in (0, 0.5)");
  if (!(min_corner_distance >= 0 && min_corner_distance < 0.5)) return fail("min_corner_distance must be in [0, 0.5)");
  if (!(min_contrast >= 0)) return fail("min_contrast must be >= 0 grey levels");
  if (!(border_error_rate >= 0 && border_error_rate < 1)) return fail("border_error_rate must be in [0, 1)");
  if (error_correction_bits_rate_x100 < 0 || error_correction_bits_rate_x100 > 100)
    return fail("error_correction_bits_rate_x100 must be 0..100");
  if (subpix_window_px < 0 || subpix_window_px > 20) return fail("subpix_window_px must be 0..20 px");
  if (!(edge_search_px > 0 && edge_search_px <= 10)) return fail("edge_search_px must be in (0, 10] px");
  if (!(max_edge_shift_px > 0)) return fail("max_edge_shift_px must be positive");
  if (!(duplicate_merge_px >= 0)) return fail("duplicate_merge_px must be >= 0");
  if (!(cell_sharpening >= 0 && cell_sharpening <= 1)) return fail("cell_sharpening must be in [0, 1]");
  if (!(small_marker_cell_margin >= 0 && small_marker_cell_margin < 0.5)) return fail("small_marker_cell_margin must be in [0, 0.5)");
  if (expected_markers < 0) return fail("expected_markers must be >= 0");
  return mid_range.Check(error);
}

std::vector<ThresholdPass> DetectorOptions::Passes(int cells) const {
  if (!threshold_passes.empty()) return threshold_passes;
  if (max_marker_side_px > 20 * min_marker_side_px) return CandidateOptions{}.passes;
  return ThresholdPassesFor(min_marker_side_px, cells);
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
  // Cells per side, border included (4x4 + border = 6; AprilTag 36h11 has 8): from the dictionary
  // itself, as a name's "NxN" misses the AprilTag families.
  int cells = 6;
  if (!roster.dictionary.empty()) {
    try {
      cells = calib::ResolveDictionary(roster.dictionary)->markerSize + 2;
    } catch (const std::exception&) {
      // The roster's loader has already named a bad dictionary; 6 only sizes the SUBPIX window.
    }
  }
  const double cell_px = f * min_mm / h / cells;
  o.subpix_window_px = std::clamp(int(std::lround(cell_px * 0.5)), 1, 5);
  // Every unit and anchor on the table: when all of them are read there is nothing to look again for.
  for (const Unit& u : roster.units) o.expected_markers += u.marker ? 1 : 0;
  o.expected_markers += int(roster.anchors.size());
  return o;
}

namespace {

using Clock = std::chrono::steady_clock;


double SignedArea(const std::array<cv::Point2d, 4>& q) {
  double a = 0;
  for (int i = 0; i < 4; ++i) a += q[i].x * q[(i + 1) % 4].y - q[(i + 1) % 4].x * q[i].y;
  return 0.5 * a;
}

EdgeLineOptions EdgeLinesFor(const DetectorOptions& o, bool bar_model) {
  EdgeLineOptions e;
  e.search_px = o.edge_search_px;
  e.max_shift_px = o.max_edge_shift_px;
  e.bar_model = bar_model && o.edge_bar_model;
  return e;
}

// centroid (optional): the corners without the bar model, on which markers are read and checked.
// bar_model false: the centroid lines alone, whatever the options say (the bar model changes neither
// whether the refinement succeeds nor its centroid corners).
bool EdgeRefine(const DetectorOptions& o, const cv::Mat& gray, std::array<cv::Point2f, 4>* corners, int cells,
                std::array<cv::Point2f, 4>* centroid = nullptr, bool bar_model = true, const BarGate& bar_if = {}) {
  return RefineEdgeLines(EdgeLinesFor(o, bar_model), gray, cells, corners, centroid, bar_if);
}

// cornerSubPix on the four corners; kept only if no corner jumps further than max_edge_shift_px.
// Eight iterations: it only has to bring the corners within the edge lines' search, and left to
// run (30) its small window drifted on large markers (benchmark: anchors' registration 0.053 ->
// 0.045 mm median, unit headings unchanged, a third of its time).
void SubPix(const DetectorOptions& o, const cv::Mat& gray, std::array<cv::Point2f, 4>* c) {
  std::vector<cv::Point2f> v(c->begin(), c->end());
  cv::cornerSubPix(gray, v, cv::Size(o.subpix_window_px, o.subpix_window_px), cv::Size(-1, -1),
                   cv::TermCriteria(cv::TermCriteria::MAX_ITER | cv::TermCriteria::EPS, 8, 0.03));
  for (int i = 0; i < 4; ++i)
    if (!(cv::norm(v[i] - (*c)[i]) <= o.max_edge_shift_px)) return;
  std::copy(v.begin(), v.end(), c->begin());
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

namespace {

CandidateOptions CandidatesFor(const DetectorOptions& o, int cells) {
  CandidateOptions co;
  co.min_side_px = o.min_marker_side_px;
  co.max_side_px = o.max_marker_side_px;
  co.passes = o.Passes(cells);
  co.threshold_offset = o.threshold_offset;
  co.polygon_accuracy = o.polygon_accuracy;
  co.min_corner_distance = o.min_corner_distance;
  return co;
}

DecodeOptions DecodingFor(const DetectorOptions& o) {
  DecodeOptions deco;
  deco.min_contrast = o.min_contrast;
  deco.border_error_rate = o.border_error_rate;
  deco.sharpening = o.cell_sharpening;
  deco.correction_rate = o.error_correction_bits_rate_x100 / 100.0;
  return deco;
}

// A marker read from one candidate outline.
struct Found {
  calib::MarkerObservation marker;
  double side_px;       // the outline's mean side
  bool second_reading;  // read only through refined corners (which it keeps)
  std::array<cv::Point2f, 4> outline{};  // the corners it was read through, before any refinement
  // The refined corners without the bar model: the cells are checked through these, so which
  // markers are kept is what it was before the bar model (which moves corners by hundredths of a
  // pixel, enough to tip a marginal small marker either way).
  std::array<cv::Point2f, 4> checked{};
};

// A marker measured already: candidates centred within reach_px of it are that marker.
struct Known {
  cv::Point2f centre;
  double reach_px;  // half the mean side, px
};

Known KnownOf(const std::array<cv::Point2f, 4>& k) {
  const double side = 0.25 * (cv::norm(k[1] - k[0]) + cv::norm(k[2] - k[1]) + cv::norm(k[3] - k[2]) + cv::norm(k[0] - k[3]));
  return {0.25f * (k[0] + k[1] + k[2] + k[3]), 0.5 * side};
}

// What the stages of one detection share.
struct DetectionWork {
  const DetectorOptions& o;
  const cv::Mat& gray;
  const cv::aruco::Dictionary& dict;
  int cells;
  DecodeOptions deco;
  std::vector<Known> known;
  std::vector<Found> found;
  std::optional<CodeBook> codes;  // built when the first candidate is read (most tracker windows read none)
  const CodeBook* Codes() {
    if (!codes) codes.emplace(dict);
    return &*codes;
  }
};

// `quad` turned as `turned` is turned from `like` (the reading turns corner 0 to the marker's top-left).
std::array<cv::Point2f, 4> TurnedLike(const std::array<cv::Point2f, 4>& quad, const std::array<cv::Point2f, 4>& like,
                                      const std::array<cv::Point2f, 4>& turned) {
  int k = 0;
  while (k < 3 && turned[0] != like[k]) ++k;
  std::array<cv::Point2f, 4> r;
  for (int i = 0; i < 4; ++i) r[i] = quad[(i + k) % 4];
  return r;
}

double MeanSide(const Quad& q) {
  return 0.25 * (cv::norm(q[1] - q[0]) + cv::norm(q[2] - q[1]) + cv::norm(q[3] - q[2]) + cv::norm(q[0] - q[3]));
}

cv::Point2f CentreOf(const Quad& q) { return 0.25f * (q[0] + q[1] + q[2] + q[3]); }

// Adds a marker read from one outline. The same marker is often outlined twice (a box narrower than
// the black border splits it into two rings, whose inner outline reads as the marker too): the
// outer outline is the marker's, and it is refined once.
void AddFound(DetectionWork& w, const Found& f) {
  const cv::Point2f c = CentreOf(f.checked);
  for (Found& g : w.found) {
    if (g.marker.id == f.marker.id && cv::norm(CentreOf(g.marker.corners_px) - c) < 0.25 * std::min(f.side_px, g.side_px)) {
      if (f.side_px > g.side_px) g = f;
      return;
    }
  }
  w.found.push_back(f);
}

// Whether an outline lies inside a marker read already: centred within half its side. Markers do
// not overlap, so it is that marker's other outline (a box narrower than the border outlines both
// edges of a hollow ring) or a piece of its code. Read again it reads as none, or as that marker, or,
// misread, as another ID; a larger outer outline reading as the marker would have replaced the one
// read, whose corners are refined from its own outline instead. At 720p on the condition matrix
// 36-46 such outlines a frame were refined and read again, and nearly all read as none; skipping them
// changed no answer in any of the matrix's 28 cells (issue 21).
bool InsideFound(const DetectionWork& w, const Quad& q) {
  const cv::Point2f c = CentreOf(q);
  return std::any_of(w.found.begin(), w.found.end(), [&](const Found& g) {
    return cv::norm(CentreOf(g.marker.corners_px) - c) < 0.5 * g.side_px;
  });
}

// Small markers' cells are 3 px: an outline that looks like a marker but reads as none is read
// again through corners refined from it. It is read through the centroid corners; the bar model's,
// which only the reported corners use, are fitted from the same last pass once it reads (most
// outlines read again read as none: issue 21).
void ReadRefined(DetectionWork& w, Quad q) {
  const DetectorOptions& o = w.o;
  if (o.subpix_window_px > 0) SubPix(o, w.gray, &q);
  std::array<cv::Point2f, 4> bar = q, centroid;
  DecodedMarker m;
  DecodeResult read = DecodeResult::kUnreadable;
  const auto read_centroid = [&](const Quad& c) {
    read = DecodeMarker(w.deco, w.gray, c, w.dict, &m, w.Codes());
    return read == DecodeResult::kMarker;
  };
  if (!EdgeRefine(o, w.gray, &bar, w.cells, &centroid, true, read_centroid) || read != DecodeResult::kMarker) return;
  AddFound(w, {{m.id, TurnedLike(bar, centroid, m.corners_px)}, MeanSide(centroid), true, {}, m.corners_px});
}

// Reads each candidate not already known. Those that read as none are read again through refined
// corners once every outline has been read at once, unless they lie inside a marker read (refining
// them was most of the second readings' cost at 720p: issue 21).
void ReadCandidates(DetectionWork& w, std::vector<Quad> quads) {
  std::vector<Quad> again;
  for (const Quad& q : quads) {
    const cv::Point2f qc = CentreOf(q);
    if (std::any_of(w.known.begin(), w.known.end(), [&](const Known& k) { return cv::norm(qc - k.centre) < k.reach_px; }))
      continue;
    DecodedMarker m;
    const DecodeResult read = DecodeMarker(w.deco, w.gray, q, w.dict, &m, w.Codes());
    if (read == DecodeResult::kMarker) AddFound(w, {{m.id, m.corners_px}, MeanSide(q), false, {}, m.corners_px});
    else if (read == DecodeResult::kUnreadable && w.o.edge_refinement) again.push_back(q);
  }
  // Largest first: an outer outline that reads is the marker's, as it was when every outline was read
  // (it replaced the inner one), and the inner one is then not read again.
  std::stable_sort(again.begin(), again.end(), [](const Quad& a, const Quad& b) { return MeanSide(a) > MeanSide(b); });
  for (const Quad& q : again)
    if (!InsideFound(w, q)) ReadRefined(w, q);
}

// Whether the mean threshold's pieces are worth a second look: not when the caller expects a
// number of markers and that many different ones have been read.
bool WantSecondLook(const DetectionWork& w, const std::vector<cv::Rect>& unclosed) {
  if (!w.o.second_look || unclosed.empty()) return false;
  if (w.o.expected_markers <= 0) return true;
  std::vector<int> ids;
  for (const Found& f : w.found) ids.push_back(f.marker.id);
  std::sort(ids.begin(), ids.end());
  return std::unique(ids.begin(), ids.end()) - ids.begin() < w.o.expected_markers;
}

// Outlines again, with the mid-range threshold, where the mean threshold left pieces outside the
// markers read so far (a marker's own code cells leave pieces too). Returns how many it looked at.
int SecondLook(DetectionWork& w, const CandidateOptions& co, std::vector<cv::Rect> unclosed) {
  for (const Found& f : w.found) w.known.push_back(KnownOf(f.marker.corners_px));
  unclosed.erase(std::remove_if(unclosed.begin(), unclosed.end(),
                                [&](const cv::Rect& r) {
                                  const cv::Point2f c(r.x + 0.5f * r.width, r.y + 0.5f * r.height);
                                  return std::any_of(w.known.begin(), w.known.end(),
                                                     [&](const Known& k) { return cv::norm(c - k.centre) < 1.5 * k.reach_px; });
                                }),
                 unclosed.end());
  if (!unclosed.empty()) ReadCandidates(w, FindBlurredCandidates(co, w.o.mid_range, w.gray, unclosed));
  return int(unclosed.size());
}

// Outline corners are good to about a pixel; cornerSubPix brings them within the edge lines'
// narrow search, and from there the lines converge alike for every marker (started straight
// from the outline, a few grid-aligned markers settled 0.4 px off).
void RefineFound(DetectionWork& w) {
  for (Found& f : w.found) {
    if (f.second_reading) continue;  // refined before it was read
    f.outline = f.marker.corners_px;
    if (w.o.subpix_window_px > 0) SubPix(w.o, w.gray, &f.marker.corners_px);
    f.checked = f.marker.corners_px;
    if (w.o.edge_refinement) EdgeRefine(w.o, w.gray, &f.marker.corners_px, w.cells, &f.checked);
  }
}

// The markers whose cells, read again through the refined corners, agree with their id.
Detections Verified(const DetectionWork& w) {
  const DetectorOptions& o = w.o;
  Detections out;
  AgreeOptions agree;
  agree.allowed_mismatches = int(w.dict.maxCorrectionBits * o.error_correction_bits_rate_x100 / 100.0);
  agree.sharpening = o.cell_sharpening;
  for (const Found& f : w.found) {
    // A small marker the outline could not read, read through refined corners, is now and then
    // another marker's code: its cells must read clearly (benchmark: one wrong ID in 1,200 markers
    // without this, none with it; markers read at once need no margin).
    // Only 4x4 codes are that close (16 bits: IDs a few cells apart); 5x5 and larger codes are 7 or
    // more cells apart (AprilTag 36h11: 11), and the margin only cost them markers (36h11 at 720p,
    // 12-18 px: 74 -> 80 % without it, no wrong ID either way).
    const bool doubtful = f.second_reading && f.side_px < 3.0 * w.cells && w.dict.markerSize <= 4;
    agree.min_margin = doubtful ? o.small_marker_cell_margin : 0.0;
    if (!o.verify_bits || CellsAgreeWithId(w.gray, f.checked, w.dict, f.marker.id, agree)) {
      out.markers.push_back(f.marker);
    } else if (!f.second_reading && CellsAgreeWithId(w.gray, f.outline, w.dict, f.marker.id, agree)) {
      // A hand or a figure over one side pulls the refinement to its own outline: the corners the
      // marker was read through still agree with the code, so it is kept with them, rough as they
      // are (condition matrix, hands: a partly covered marker stock found and Vedette dropped).
      out.markers.push_back({f.marker.id, f.outline});
    }
  }
  return out;
}

}  // namespace

Detections DetectMarkers(const DetectorOptions& o, const cv::Mat& image, const cv::aruco::Dictionary& dict,
                         const std::vector<std::array<cv::Point2f, 4>>& known_px) {
  const auto t0 = Clock::now();
  const cv::Mat gray = GreyFrame(image);
  DetectionWork w{o, gray, dict, dict.markerSize + 2, DecodingFor(o), {}, {}, {}};
  for (const auto& k : known_px) w.known.push_back(KnownOf(k));
  const CandidateOptions co = CandidatesFor(o, w.cells);
  std::vector<cv::Rect> unclosed;
  ReadCandidates(w, FindMarkerCandidates(co, gray, o.second_look ? &unclosed : nullptr));
  const int looked = WantSecondLook(w, unclosed) ? SecondLook(w, co, std::move(unclosed)) : -1;
  RefineFound(w);
  Detections out = Verified(w);
  out.second_look_outlines = looked;
  MergeAndFlag(o, &out);
  out.ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  return out;
}

bool RefineMarkerCorners(const DetectorOptions& o, const cv::Mat& gray_in, std::array<cv::Point2f, 4>* corners_px,
                         int cells) {
  const cv::Mat gray = GreyFrame(gray_in);
  std::array<cv::Point2d, 4> q;
  for (int i = 0; i < 4; ++i) {
    q[i] = (*corners_px)[i];
    if (!(q[i].x >= 1 && q[i].y >= 1 && q[i].x < gray.cols - 2 && q[i].y < gray.rows - 2)) return false;
  }
  if (std::abs(SignedArea(q)) < 9) return false;
  std::array<cv::Point2f, 4> c = *corners_px;
  if (o.subpix_window_px > 0) SubPix(o, gray, &c);
  if (o.edge_refinement) {
    if (!EdgeRefine(o, gray, &c, cells) && o.subpix_window_px == 0) return false;
  }
  *corners_px = c;
  return true;
}

namespace {

Detections RunStock(const cv::Mat& image, const cv::aruco::Dictionary& dict, const cv::Ptr<cv::aruco::DetectorParameters>& p) {
  const auto t0 = Clock::now();
  const cv::Mat gray = GreyFrame(image);
  std::vector<int> ids;
  std::vector<std::vector<cv::Point2f>> corners;
  cv::Ptr<cv::aruco::Dictionary> d = cv::makePtr<cv::aruco::Dictionary>(dict);
  cv::aruco::detectMarkers(gray, d, corners, ids, p);
  Detections out = Collect(ids, corners);
  DetectorOptions o;
  MergeAndFlag(o, &out);
  out.ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  return out;
}

}  // namespace

Detections DetectMarkersStock(const cv::Mat& image, const cv::aruco::Dictionary& dict) {
  return RunStock(image, dict, cv::aruco::DetectorParameters::create());
}

Detections DetectMarkersStockBest(const cv::Mat& image, const cv::aruco::Dictionary& dict, double min_side_px) {
  auto p = cv::aruco::DetectorParameters::create();
  p->cornerRefinementMethod = cv::aruco::CORNER_REFINE_SUBPIX;
  p->minMarkerPerimeterRate = 4 * min_side_px / std::max(image.cols, image.rows);
  return RunStock(image, dict, p);
}

}  // namespace vedette::vision
