#include "synth/renderer.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <sstream>
#include <stdexcept>

#include <opencv2/core/utility.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "rules/geometry/vec.h"
#include "rules/input_error.h"
#include "vision/camera_rays.h"

namespace vedette::synth {

using vision::MarkerCornersInTable;
using vision::MarkerPlacement;
using vision::NormalizedToPixel;
using vision::PixelCornerRays;
using vision::PlacementOf;

bool RenderOptions::Check(std::string* error) const {
  auto fail = [&](const std::string& m) { if (error) *error = m; return false; };
  if (!CameraEffects::Check(error)) return false;
  if (supersample < 1 || supersample > 8) return fail("supersample must be 1..8");
  if (occluders < 0 || occluders > 64) return fail("occluders must be in [0, 64]");  // hands: each one a pass over the image
  if (!(quiet_zone_cells >= 0) || !(anchor_quiet_zone_cells >= 0)) return fail("quiet zones must be >= 0 cells");
  if (!(base_height_mm >= 0)) return fail("base_height_mm must be >= 0");
  return true;
}

namespace {

using Clock = std::chrono::steady_clock;

// Reflectances on a 0..255 scale, before lighting.
constexpr float kPaperWhite = 232.0f;
constexpr float kInkBlack = 24.0f;

struct Pattern {
  cv::Point2d centre, h, r;  // marker centre and top/right unit vectors, table frame
  double half = 0;           // half the marker side, mm
  double paper_half = 0;     // half the white square (marker + quiet zone), mm
  int cells = 6;             // cells per side including the black border
  cv::Mat bits;              // cells x cells, 1 = white
};

struct Item {
  enum Kind { kBase, kAnchor, kOccluder } kind = kBase;
  double z = 0;                  // top face height, mm
  cv::Point2d centre, ex, ey;    // local axes: ex right, ey forward (table frame)
  double half_x = 0, half_y = 0; // half extents, mm (occluder: radius)
  cv::Vec3f colour, wall;        // BGR reflectance, 0..255
  int pattern = -1;              // marker on its top
  std::array<double, 4> amp{}, phase{};  // occluder outline harmonics 2..5
  cv::Rect bbox;                 // image bounding box, px
};

struct Hit {
  double z = -1e9;
  cv::Vec3f colour;
  int item = -1;
};

cv::Vec3f ParseColour(const std::string& hex, const cv::Vec3f& fallback) {
  if (hex.size() != 7 || hex[0] != '#') return fallback;
  try {
    const unsigned long v = std::stoul(hex.substr(1), nullptr, 16);
    return {float(v & 0xff), float((v >> 8) & 0xff), float((v >> 16) & 0xff)};
  } catch (...) {
    return fallback;
  }
}

cv::Vec3f TerrainColour(const std::string& type) {
  static const std::map<std::string, cv::Vec3f> colours = {
      {"woods", {45, 85, 50}},     {"wood", {45, 85, 50}},      {"forest", {45, 85, 50}},
      {"hill", {95, 140, 150}},    {"river", {150, 115, 70}},   {"water", {150, 115, 70}},
      {"lake", {150, 115, 70}},    {"town", {120, 120, 128}},   {"village", {120, 120, 128}},
      {"road", {125, 165, 190}},   {"field", {90, 175, 195}},   {"marsh", {95, 120, 100}},
      {"rough", {85, 110, 115}}};
  auto it = colours.find(type);
  return it != colours.end() ? it->second : cv::Vec3f(80, 115, 120);
}

// Felt-like table cloth at 1 mm per texel: mottled at several scales, with the terrain tinted in.
cv::Mat MakeTableTexture(const Scene& scene, const RenderOptions& o, cv::RNG& rng) {
  const int w = std::max(2, int(std::ceil(scene.table_width_mm)) + 2);
  const int h = std::max(2, int(std::ceil(scene.table_depth_mm)) + 2);
  cv::Mat tex(h, w, CV_32FC3, cv::Scalar(70, 118, 84));
  cv::Mat mottle(h, w, CV_32F, cv::Scalar(0));
  for (double scale : {90.0, 25.0, 6.0}) {
    cv::Mat n(h, w, CV_32F);
    rng.fill(n, cv::RNG::NORMAL, 0, 1);
    cv::GaussianBlur(n, n, cv::Size(), scale);
    cv::Scalar mean, sd;
    cv::meanStdDev(n, mean, sd);
    mottle += n * (0.035 / std::max(1e-9, sd[0]));
  }
  cv::Mat grain(h, w, CV_32F);
  rng.fill(grain, cv::RNG::NORMAL, 0, 0.02);
  mottle += grain;
  if (o.draw_terrain) {
    for (const Terrain& t : scene.terrain) {
      std::vector<cv::Point> poly;
      for (const geom::Vec2& p : t.polygon) poly.emplace_back(int(std::lround(p.x())), int(std::lround(p.y())));
      if (poly.size() >= 3) cv::fillPoly(tex, std::vector<std::vector<cv::Point>>{poly}, TerrainColour(t.type), cv::LINE_AA);
    }
  }
  std::vector<cv::Mat> ch;
  cv::split(tex, ch);
  for (cv::Mat& c : ch) c = c.mul(1.0 + mottle);
  cv::merge(ch, tex);
  return tex;
}

cv::Vec3f SampleTexture(const cv::Mat& tex, double x, double y) {
  const float fx = float(std::clamp(x, 0.0, tex.cols - 1.001)), fy = float(std::clamp(y, 0.0, tex.rows - 1.001));
  const int ix = int(fx), iy = int(fy);
  const float ax = fx - ix, ay = fy - iy;
  const cv::Vec3f* r0 = tex.ptr<cv::Vec3f>(iy);
  const cv::Vec3f* r1 = tex.ptr<cv::Vec3f>(iy + 1);
  return (r0[ix] * (1 - ax) + r0[ix + 1] * ax) * (1 - ay) + (r1[ix] * (1 - ax) + r1[ix + 1] * ax) * ay;
}

class Shader {
 public:
  Shader(const Scene& scene, const cv::Mat& texture, const std::vector<Item>& items, const std::vector<Pattern>& patterns,
         const cv::Vec3d& origin)
      : scene_(scene), texture_(texture), items_(items), patterns_(patterns), origin_(origin) {}

  // The first surface along the ray origin + t * dir (table frame).
  Hit Trace(const cv::Vec3d& dir, const int* candidates, int n) const {
    Hit best;
    if (dir[2] >= -1e-12) {
      best.colour = {30, 30, 32};
      return best;
    }
    auto at = [&](double z) {
      const double t = (z - origin_[2]) / dir[2];
      return cv::Point2d(origin_[0] + t * dir[0], origin_[1] + t * dir[1]);
    };
    const cv::Point2d p0 = at(0.0);
    for (int k = 0; k < n; ++k) {
      const Item& it = items_[candidates[k]];
      if (it.z <= best.z) continue;
      const cv::Point2d pt = at(it.z);
      const cv::Point2d d = pt - it.centre;
      const double lx = d.dot(it.ex), ly = d.dot(it.ey);
      if (it.kind == Item::kOccluder) {
        const double rho = std::hypot(lx, ly);
        if (rho > it.half_x * 1.5) continue;
        const double th = std::atan2(ly, lx);
        double rad = it.half_x;
        for (int m = 0; m < 4; ++m) rad *= 1 + it.amp[m] * std::cos((m + 2) * th + it.phase[m]);
        if (rho <= rad) {
          const double shade = 1.0 - 0.35 * std::pow(rho / rad, 4);
          best = {it.z, it.colour * float(shade), candidates[k]};
        }
        continue;
      }
      if (std::abs(lx) <= it.half_x && std::abs(ly) <= it.half_y) {
        best = {it.z, TopColour(it, pt), candidates[k]};
        continue;
      }
      if (it.kind != Item::kBase || it.z <= 0) continue;
      // Side wall: where the ray, going down from the top plane to the table, enters the box.
      const cv::Point2d d0 = p0 - it.centre;
      const double qx = d0.dot(it.ex), qy = d0.dot(it.ey);
      double s_in = 0, s_out = 1;
      const double a[2] = {lx, ly}, b[2] = {qx, qy}, lim[2] = {it.half_x, it.half_y};
      bool crosses = true;
      for (int axis = 0; axis < 2 && crosses; ++axis) {
        const double delta = b[axis] - a[axis];
        if (std::abs(delta) < 1e-15) {
          crosses = std::abs(a[axis]) <= lim[axis];
          continue;
        }
        double s1 = (-lim[axis] - a[axis]) / delta, s2 = (lim[axis] - a[axis]) / delta;
        if (s1 > s2) std::swap(s1, s2);
        s_in = std::max(s_in, s1);
        s_out = std::min(s_out, s2);
        crosses = s_in <= s_out;
      }
      if (crosses) {
        const double z = it.z * (1 - s_in);
        if (z > best.z) best = {z, it.wall, candidates[k]};
      }
    }
    if (best.z < 0) {
      const bool on_table = p0.x >= 0 && p0.y >= 0 && p0.x <= scene_.table_width_mm && p0.y <= scene_.table_depth_mm;
      best.z = 0;
      best.item = -1;
      best.colour = on_table ? SampleTexture(texture_, p0.x, p0.y) : cv::Vec3f(48, 50, 54);
    }
    return best;
  }

 private:
  cv::Vec3f TopColour(const Item& it, const cv::Point2d& p) const {
    if (it.pattern < 0) return it.colour;
    const Pattern& m = patterns_[it.pattern];
    const cv::Point2d d = p - m.centre;
    const double a = d.dot(m.r), b = d.dot(m.h);
    if (std::abs(a) <= m.half && std::abs(b) <= m.half) {
      const int col = std::clamp(int((a + m.half) / (2 * m.half) * m.cells), 0, m.cells - 1);
      const int row = std::clamp(int((m.half - b) / (2 * m.half) * m.cells), 0, m.cells - 1);
      const bool white = m.bits.at<uchar>(row, col) != 0;
      return white ? cv::Vec3f(kPaperWhite, kPaperWhite, kPaperWhite) : cv::Vec3f(kInkBlack, kInkBlack, kInkBlack);
    }
    if (std::abs(a) <= m.paper_half && std::abs(b) <= m.paper_half)
      return {kPaperWhite, kPaperWhite, kPaperWhite};
    return it.colour;
  }

  const Scene& scene_;
  const cv::Mat& texture_;
  const std::vector<Item>& items_;
  const std::vector<Pattern>& patterns_;
  cv::Vec3d origin_;
};

cv::Point2d Project(const calib::CameraIntrinsics& k, const calib::CameraFromTable& pose, const cv::Point3d& p) {
  const cv::Vec3d c = pose.rotation * cv::Vec3d(p.x, p.y, p.z) + pose.translation_mm;
  return NormalizedToPixel(k, {c[0] / c[2], c[1] / c[2]});
}

Pattern MakePattern(const MarkerPlacement& m, double quiet_cells, const cv::aruco::Dictionary& dict) {
  Pattern p;
  const double a = geom::DegToRad(m.heading_deg);
  p.centre = m.centre_mm;
  p.h = {std::cos(a), std::sin(a)};
  p.r = {p.h.y, -p.h.x};
  p.half = m.size_mm / 2;
  p.cells = dict.markerSize + 2;
  p.paper_half = p.half + quiet_cells * m.size_mm / p.cells;
  p.bits = cv::Mat::zeros(p.cells, p.cells, CV_8U);
  const cv::Mat inner = cv::aruco::Dictionary::getBitsFromByteList(dict.bytesList.rowRange(m.id, m.id + 1), dict.markerSize);
  inner.copyTo(p.bits(cv::Rect(1, 1, dict.markerSize, dict.markerSize)));
  return p;
}

cv::Vec3f SideColour(const Scene& scene, const std::string& side) {
  static const cv::Vec3f palette[] = {{150, 80, 50}, {50, 55, 150}, {60, 140, 150}, {130, 60, 120}};
  for (size_t i = 0; i < scene.sides.size(); ++i)
    if (scene.sides[i].name == side) return ParseColour(scene.sides[i].colour, palette[i % 4]) * 0.75f;
  return palette[0] * 0.75f;
}

}  // namespace

cv::Mat SceneRenderer::TableTexture(const Scene& scene, const RenderOptions& o, cv::RNG& rng) const {
  std::ostringstream key;
  key.precision(17);
  key << rng.state << ' ' << scene.table_width_mm << ' ' << scene.table_depth_mm << ' ' << o.draw_terrain;
  for (const Terrain& t : scene.terrain) {
    key << '|' << t.type;
    for (const geom::Vec2& p : t.polygon) key << ' ' << p.x() << ',' << p.y();
  }
  TextureCache& cache = *texture_cache_;
  {
    std::lock_guard lock(cache.mutex);
    if (cache.key == key.str()) {
      rng.state = cache.rng_after;
      return cache.texture;  // shared: the shader only reads it
    }
  }
  cv::Mat texture = MakeTableTexture(scene, o, rng);
  std::lock_guard lock(cache.mutex);
  cache.key = key.str();
  cache.texture = texture;
  cache.rng_after = rng.state;
  return texture;
}

SceneRenderer::SceneRenderer(const calib::CameraIntrinsics& intrinsics)
    : intrinsics_(intrinsics), corner_rays_(PixelCornerRays(intrinsics)) {}

Rendering SceneRenderer::Render(const RenderOptions& o, const Scene& scene, const calib::CameraFromTable& pose,
                                const cv::aruco::Dictionary& dict) const {
  std::string error;
  if (!o.Check(&error)) throw std::invalid_argument("RenderOptions: " + error);
  const auto t0 = Clock::now();
  const cv::Size size = intrinsics_.image_size;
  cv::RNG rng(o.seed * 0x9E3779B97F4A7C15ULL + 12345);
  const cv::Mat texture = TableTexture(scene, o, rng);

  // Step 1: the scene's surfaces as items with image bounding boxes.
  std::vector<Item> items;
  std::vector<Pattern> patterns;
  Rendering out;
  out.truth.image_size = size;
  auto check_id = [&](int id, int line, const std::string& who) {
    if (id < 0 || id >= dict.bytesList.rows)
      throw InputError(scene.source, line, who + ": marker " + std::to_string(id) + " is not in the dictionary (IDs 0-" +
                                               std::to_string(dict.bytesList.rows - 1) + ")");
  };
  std::vector<std::pair<int, int>> truth_item;  // (truth marker index, item index)
  for (const Unit& u : scene.units) {
    if (!u.pose) continue;
    out.truth.units.emplace_back(u.id, *u.pose);
    int pattern = -1;
    if (u.marker) {
      check_id(u.marker->id, u.line, "unit " + u.id);
      const MarkerPlacement mp = PlacementOf(u);
      patterns.push_back(MakePattern(mp, o.quiet_zone_cells, dict));
      pattern = int(patterns.size()) - 1;
      MarkerTruth t;
      t.unit = u.id;
      t.placement = mp;
      out.truth.markers.push_back(t);
    }
    const double top = u.marker && u.marker->height_mm > 0 ? u.marker->height_mm : o.base_height_mm;
    const cv::Vec3f colour = SideColour(scene, u.side);
    // The marker sits on the base whose rectangle holds its centre (the first base otherwise).
    int carrier = 0;
    for (size_t b = 0; b < u.bases.size() && pattern >= 0; ++b) {
      const geom::Base base = BaseOf(u, b);
      if (geom::Contains(base, geom::Vec2(patterns[pattern].centre.x, patterns[pattern].centre.y))) {
        carrier = int(b);
        break;
      }
    }
    for (size_t b = 0; b < u.bases.size(); ++b) {
      const geom::Base base = BaseOf(u, b);
      Item it;
      it.kind = Item::kBase;
      it.z = top;
      it.centre = {base.centre_mm.x(), base.centre_mm.y()};
      const geom::Vec2 f = geom::Forward(base), r = geom::Right(base);
      it.ex = {r.x(), r.y()};
      it.ey = {f.x(), f.y()};
      it.half_x = base.width_mm / 2;
      it.half_y = base.depth_mm / 2;
      it.colour = colour;
      it.wall = colour * 0.55f;
      if (int(b) == carrier && pattern >= 0) {
        it.pattern = pattern;
        truth_item.emplace_back(int(out.truth.markers.size()) - 1, int(items.size()));
      }
      items.push_back(it);
    }
  }
  for (const Anchor& a : scene.anchors) {
    check_id(a.marker, 0, "anchor " + std::to_string(a.marker));
    const MarkerPlacement mp = PlacementOf(a);
    patterns.push_back(MakePattern(mp, o.anchor_quiet_zone_cells, dict));
    Item it;
    it.kind = Item::kAnchor;
    it.z = 0.05;  // paper on the cloth
    it.centre = mp.centre_mm;
    it.ex = patterns.back().r;
    it.ey = patterns.back().h;
    it.half_x = it.half_y = patterns.back().paper_half;
    it.colour = {kPaperWhite, kPaperWhite, kPaperWhite};
    it.pattern = int(patterns.size()) - 1;
    MarkerTruth t;
    t.placement = mp;
    out.truth.markers.push_back(t);
    truth_item.emplace_back(int(out.truth.markers.size()) - 1, int(items.size()));
    items.push_back(it);
  }
  for (int i = 0; i < o.occluders; ++i) {
    Item it;
    it.kind = Item::kOccluder;
    it.z = rng.uniform(40.0, 150.0);
    it.centre = {rng.uniform(0.0, scene.table_width_mm), rng.uniform(0.0, scene.table_depth_mm)};
    const double a = rng.uniform(0.0, 2 * CV_PI);
    it.ex = {std::cos(a), std::sin(a)};
    it.ey = {-it.ex.y, it.ex.x};
    it.half_x = rng.uniform(40.0, 60.0);
    for (int m = 0; m < 4; ++m) {
      it.amp[m] = rng.uniform(0.02, 0.12);
      it.phase[m] = rng.uniform(0.0, 2 * CV_PI);
    }
    it.colour = {140, 168, 215};
    items.push_back(it);
  }
  const cv::Matx33d rt = pose.rotation.t();
  const cv::Vec3d origin = -(rt * pose.translation_mm);
  for (Item& it : items) {
    const double ext_x = it.kind == Item::kOccluder ? it.half_x * 1.5 : it.half_x;
    const double ext_y = it.kind == Item::kOccluder ? it.half_x * 1.5 : it.half_y;
    // Min/max by hand: cv::Rect's union ignores an empty (single point) rectangle.
    double x0 = 1e300, y0 = 1e300, x1 = -1e300, y1 = -1e300;
    bool first = true;
    for (double z : {0.0, it.z})
      for (int sx : {-1, 1})
        for (int sy : {-1, 1}) {
          const cv::Point2d p = it.centre + sx * ext_x * it.ex + sy * ext_y * it.ey;
          const cv::Vec3d c = pose.rotation * cv::Vec3d(p.x, p.y, z) + pose.translation_mm;
          if (c[2] <= 1e-6) continue;
          const cv::Point2d q = Project(intrinsics_, pose, {p.x, p.y, z});
          if (!std::isfinite(q.x) || !std::isfinite(q.y)) continue;
          x0 = std::min(x0, q.x), y0 = std::min(y0, q.y), x1 = std::max(x1, q.x), y1 = std::max(y1, q.y);
          first = false;
        }
    if (first) continue;
    // Distortion bends the outline between corners; 2 px covers it for sane lenses.
    x0 = std::clamp(x0, -1e6, 1e6), y0 = std::clamp(y0, -1e6, 1e6), x1 = std::clamp(x1, -1e6, 1e6), y1 = std::clamp(y1, -1e6, 1e6);
    it.bbox = cv::Rect(int(std::floor(x0)) - 2, int(std::floor(y0)) - 2, int(std::ceil(x1 - x0)) + 5,
                       int(std::ceil(y1 - y0)) + 5) & cv::Rect(0, 0, size.width, size.height);
  }

  // Step 2: per-tile candidate lists, then the per-pixel pass.
  constexpr int kTile = 16;
  const int tiles_x = (size.width + kTile - 1) / kTile, tiles_y = (size.height + kTile - 1) / kTile;
  std::vector<std::vector<int>> tiles(size_t(tiles_x) * tiles_y);
  for (int i = 0; i < int(items.size()); ++i) {
    const cv::Rect& b = items[i].bbox;
    if (b.empty()) continue;
    for (int ty = b.y / kTile; ty <= (b.y + b.height - 1) / kTile; ++ty)
      for (int tx = b.x / kTile; tx <= (b.x + b.width - 1) / kTile; ++tx) tiles[size_t(ty) * tiles_x + tx].push_back(i);
  }
  const Shader shader(scene, texture, items, patterns, origin);
  cv::Mat radiance(size, CV_32FC3);
  const int n = o.supersample;
  cv::parallel_for_(cv::Range(0, size.height), [&](const cv::Range& rows) {
    std::vector<int> local;
    for (int y = rows.start; y < rows.end; ++y) {
      cv::Vec3f* dst = radiance.ptr<cv::Vec3f>(y);
      const cv::Vec2f* r0 = corner_rays_.ptr<cv::Vec2f>(y);
      const cv::Vec2f* r1 = corner_rays_.ptr<cv::Vec2f>(y + 1);
      for (int x = 0; x < size.width; ++x) {
        local.clear();
        for (int i : tiles[size_t(y / kTile) * tiles_x + x / kTile])
          if (items[i].bbox.contains({x, y})) local.push_back(i);
        auto ray = [&](float u, float v) {
          const cv::Vec2f q = (r0[x] * (1 - u) + r0[x + 1] * u) * (1 - v) + (r1[x] * (1 - u) + r1[x + 1] * u) * v;
          return rt * cv::Vec3d(q[0], q[1], 1.0);
        };
        if (local.empty()) {
          dst[x] = shader.Trace(ray(0.5f, 0.5f), nullptr, 0).colour;
          continue;
        }
        cv::Vec3f acc(0, 0, 0);
        for (int sy = 0; sy < n; ++sy)
          for (int sx = 0; sx < n; ++sx)
            acc += shader.Trace(ray((sx + 0.5f) / n, (sy + 0.5f) / n), local.data(), int(local.size())).colour;
        dst[x] = acc * (1.0f / float(n * n));
      }
    }
  });

  // Step 3: truth. Corners through the same lens model; visibility by tracing rays to the marker.
  std::vector<int> all(items.size());
  for (size_t i = 0; i < items.size(); ++i) all[i] = int(i);
  for (const auto& [ti, item] : truth_item) {
    MarkerTruth& t = out.truth.markers[ti];
    const auto corners = MarkerCornersInTable(t.placement);
    double perimeter = 0;
    t.in_image = true;
    for (int c = 0; c < 4; ++c) {
      t.corners_px[c] = Project(intrinsics_, pose, corners[c]);
      const cv::Point2d& q = t.corners_px[c];
      if (q.x < 3 || q.y < 3 || q.x > size.width - 4 || q.y > size.height - 4) t.in_image = false;
    }
    for (int c = 0; c < 4; ++c) perimeter += cv::norm(t.corners_px[c] - t.corners_px[(c + 1) % 4]);
    t.side_px = perimeter / 4;
    t.cell_px = t.side_px / (dict.markerSize + 2);
    const Pattern& m = patterns[items[item].pattern];
    const double z = items[item].kind == Item::kAnchor ? items[item].z : t.placement.height_mm;
    int hidden = 0, total = 0;
    for (int i = 0; i < 8; ++i)
      for (int j = 0; j < 8; ++j) {
        const cv::Point2d p = m.centre + m.half * ((i + 0.5) / 4 - 1) * m.r + m.half * ((j + 0.5) / 4 - 1) * m.h;
        const cv::Vec3d dir = cv::Vec3d(p.x, p.y, z) - origin;
        const Hit hit = shader.Trace(dir, all.data(), int(all.size()));
        ++total;
        if (hit.item != item) ++hidden;
      }
    t.occluded_fraction = double(hidden) / total;
  }

  // Step 4: the camera: lighting, glare, blur, noise, quantisation, compression.
  out.image = ApplyCameraEffects(o, radiance, rng, o.seed);
  out.truth.render_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  return out;
}

nlohmann::json ToJson(const RenderTruth& truth) {
  nlohmann::json j;
  j["image_size"] = {truth.image_size.width, truth.image_size.height};
  j["units"] = nlohmann::json::array();
  for (const auto& [id, p] : truth.units)
    j["units"].push_back({{"id", id}, {"x_mm", p.x_mm}, {"y_mm", p.y_mm}, {"heading_deg", p.heading_deg}});
  j["markers"] = nlohmann::json::array();
  for (const MarkerTruth& m : truth.markers) {
    nlohmann::json mj;
    mj["id"] = m.placement.id;
    if (m.unit.empty()) mj["anchor"] = true;
    else mj["unit"] = m.unit;
    mj["corners"] = nlohmann::json::array();
    for (const cv::Point2d& c : m.corners_px) mj["corners"].push_back({c.x, c.y});
    mj["side_px"] = m.side_px;
    mj["in_image"] = m.in_image;
    mj["occluded_fraction"] = m.occluded_fraction;
    mj["centre_mm"] = {m.placement.centre_mm.x, m.placement.centre_mm.y};
    mj["heading_deg"] = m.placement.heading_deg;
    mj["size_mm"] = m.placement.size_mm;
    mj["height_mm"] = m.placement.height_mm;
    j["markers"].push_back(mj);
  }
  return j;
}

}  // namespace vedette::synth
