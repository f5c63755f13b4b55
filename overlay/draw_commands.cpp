#include "overlay/draw_commands.h"

#include <algorithm>
#include <cmath>

#include "overlay/label_card.h"

namespace vedette::overlay {

namespace {

// A polygon of 3+ vertices is closed; a "polygon" of 2 is drawn as the segment it is.
bool IsClosed(const DrawPrimitive& p) { return p.kind == DrawKind::kPolygon && p.points_mm.size() >= 3; }

int VertexCount(const DrawPrimitive& p) {
  if (p.kind == DrawKind::kLabel || p.kind == DrawKind::kGlyph) return 1;
  if (p.kind == DrawKind::kArrow) return 2;  // from points[0] to points[1]
  return static_cast<int>(p.points_mm.size());
}

int EdgeCount(const DrawPrimitive& p) {
  if (p.kind == DrawKind::kLabel || p.kind == DrawKind::kGlyph) return 0;
  const int n = VertexCount(p);
  return IsClosed(p) ? n : n - 1;
}

float Cross(const cv::Point2f& a, const cv::Point2f& b, const cv::Point2f& c) {
  return (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
}

double SignedArea(const cv::Point2f* p, int n) {
  double a = 0;
  for (int i = 0, j = n - 1; i < n; j = i++) a += static_cast<double>(p[j].x) * p[i].y - static_cast<double>(p[i].x) * p[j].y;
  return a / 2;
}

// Convex up to float noise: subdivided straight edges have (nearly) collinear points.
bool IsConvex(const cv::Point2f* p, int n) {
  int sign = 0;
  for (int i = 0; i < n; ++i) {
    const cv::Point2f& a = p[i];
    const cv::Point2f& b = p[(i + 1) % n];
    const cv::Point2f& c = p[(i + 2) % n];
    const float cross = Cross(a, b, c);
    const float scale = static_cast<float>(cv::norm(b - a) * cv::norm(c - b));
    if (std::abs(cross) <= 1e-4f * scale) continue;
    const int s = cross > 0 ? 1 : -1;
    if (sign == 0) sign = s;
    else if (s != sign) return false;
  }
  return true;
}

// Inside or on the boundary: a reflex vertex touching an ear's edge must block it, or the ear would
// cut across the polygon's notch. A point at one of the corners (a repeated vertex) does not block.
bool InTriangle(const cv::Point2f& p, const cv::Point2f& a, const cv::Point2f& b, const cv::Point2f& c, float orient) {
  if (p == a || p == b || p == c) return false;
  return orient * Cross(a, b, p) >= 0 && orient * Cross(b, c, p) >= 0 && orient * Cross(c, a, p) >= 0;
}

// Ear clipping of the simple polygon pts[0, n) into triangles of absolute indices base + i.
void Triangulate(const cv::Point2f* pts, int n, int base, std::vector<int>* work, std::vector<int>* indices) {
  work->resize(n);
  for (int i = 0; i < n; ++i) (*work)[i] = i;
  const float orient = SignedArea(pts, n) >= 0 ? 1.0f : -1.0f;
  std::vector<int>& w = *work;
  size_t i = 0;
  size_t misses = 0;  // consecutive vertices that were not ears: a full round of them = degenerate input
  while (w.size() > 3 && misses < w.size()) {
    const size_t m = w.size();
    const int ip = w[(i + m - 1) % m], ic = w[i % m], in = w[(i + 1) % m];
    const cv::Point2f &a = pts[ip], &b = pts[ic], &c = pts[in];
    const float cross = orient * Cross(a, b, c);
    const float scale = static_cast<float>(cv::norm(b - a) * cv::norm(c - b));
    if (std::abs(cross) <= 1e-6f * scale) {  // collinear vertex: drop it, no triangle
      w.erase(w.begin() + static_cast<long>(i % m));
      misses = 0;
      continue;
    }
    bool ear = cross > 0;
    if (ear) {
      for (size_t j = 0; j < m && ear; ++j) {
        const int k = w[j];
        if (k == ip || k == ic || k == in) continue;
        const cv::Point2f& q = pts[k];
        // Only reflex vertices can lie inside an ear.
        const cv::Point2f& qp = pts[w[(j + m - 1) % m]];
        const cv::Point2f& qn = pts[w[(j + 1) % m]];
        if (orient * Cross(qp, q, qn) > 0) continue;
        if (InTriangle(q, a, b, c, orient)) ear = false;
      }
    }
    if (!ear) {
      i = (i + 1) % m;
      ++misses;
      continue;
    }
    indices->insert(indices->end(), {base + ip, base + ic, base + in});
    w.erase(w.begin() + static_cast<long>(i % m));
    if (i >= w.size()) i = 0;
    misses = 0;
  }
  if (w.size() == 3) {
    indices->insert(indices->end(), {base + w[0], base + w[1], base + w[2]});
  } else if (w.size() > 3) {  // self-intersecting outline: a fan is the least wrong fill
    for (size_t k = 1; k + 1 < w.size(); ++k) indices->insert(indices->end(), {base + w[0], base + w[k], base + w[k + 1]});
  }
}

void AddPath(DrawCommands* out, const cv::Point2f* pts, int n, std::uint32_t stroke, std::uint32_t fill,
             float thickness, bool closed, int primitive) {
  PathCommand c;
  c.stroke_rgba = stroke;
  c.fill_rgba = fill;
  c.thickness_px = thickness;
  c.closed = closed;
  c.first = static_cast<int>(out->points.size());
  c.count = n;
  c.primitive = primitive;
  out->points.insert(out->points.end(), pts, pts + n);
  out->paths.push_back(c);
}

// Cuts the polyline pts[0, n) into dashes; the pattern runs on across vertices.
void AddDashes(DrawCommands* out, const cv::Point2f* pts, int n, float dash, float gap, std::uint32_t stroke,
               float thickness, int primitive) {
  bool on = true;
  float remain = dash;
  int open_first = -1;  // first point of the dash being built
  auto start = [&](const cv::Point2f& p) {
    open_first = static_cast<int>(out->points.size());
    out->points.push_back(p);
  };
  auto finish = [&]() {
    const int count = static_cast<int>(out->points.size()) - open_first;
    if (count >= 2) {
      PathCommand c;
      c.stroke_rgba = stroke;
      c.thickness_px = thickness;
      c.first = open_first;
      c.count = count;
      c.primitive = primitive;
      out->paths.push_back(c);
    } else {
      out->points.resize(open_first);
    }
    open_first = -1;
  };
  start(pts[0]);
  for (int i = 0; i + 1 < n; ++i) {
    const cv::Point2f d = pts[i + 1] - pts[i];
    const float len = std::sqrt(d.x * d.x + d.y * d.y);
    float pos = 0;
    while (len - pos > remain) {
      pos += remain;
      const cv::Point2f q = pts[i] + d * (pos / len);
      if (on) {
        out->points.push_back(q);
        finish();
      } else {
        start(q);
      }
      on = !on;
      remain = on ? dash : gap;
    }
    remain -= len - pos;
    if (on) out->points.push_back(pts[i + 1]);
  }
  if (on && open_first >= 0) finish();
}

}  // namespace

void DrawCommands::Clear() {
  points.clear();
  indices.clear();
  paths.clear();
  labels.clear();
}

bool BuildOptions::Check(std::string* error) const {
  auto fail = [&](const std::string& m) {
    if (error) *error = m;
    return false;
  };
  if (!(max_segment_px > 0.5)) return fail("max_segment_px must be above 0.5 px (is " + std::to_string(max_segment_px) + ")");
  if (max_pieces_per_edge < 1) return fail("max_pieces_per_edge must be at least 1");
  if (!(scale > 0)) return fail("scale must be positive");
  if (!(text_scale >= 0)) return fail("text_scale must be positive (or 0: the scale)");
  if (!(faint_alpha >= 0 && faint_alpha <= 1)) return fail("faint_alpha must be within 0..1");
  return labels.Check(error) && callouts.Check(error);
}

bool IsReferenceLayer(const std::string& layer) { return layer == "zoc" || layer == "ranges" || layer == "support"; }

std::uint32_t StrokeColour(const DrawPrimitive& p, const StyleTable& styles) {
  const PrimitiveStyle& s = styles.For(p.style);
  if (p.rgba == 0) return WithAlpha(s.rgba, s.stroke_alpha);
  // A filled primitive's own alpha is meant for its fill; its outline keeps the style's.
  if (p.filled) return WithAlpha(p.rgba, s.stroke_alpha);
  return WithAlpha(p.rgba, std::min(Alpha(p.rgba), s.stroke_alpha));
}

std::uint32_t FillColour(const DrawPrimitive& p, const StyleTable& styles) {
  const PrimitiveStyle& s = styles.For(p.style);
  const std::uint32_t c = p.rgba != 0 ? p.rgba : s.rgba;
  return Alpha(c) < 0xFF ? c : WithAlpha(c, s.fill_alpha);
}

namespace {

// One build's inputs, shared by its steps.
struct Build {
  const BuildOptions& options;
  const std::vector<DrawPrimitive>& primitives;
  const TableProjection& projection;
  const StyleTable& styles;
  const LayerVisibility& layers;
  DrawCommands* out;
  DrawCommands::Workspace& ws;
  float scale;        // widths, dashes, arrowheads
  double text_scale;  // text sizes

  const DrawPrimitive& Visible(size_t v) const { return primitives[ws.visible[v]]; }
  // Reference geometry out of focus: its alpha times faint_alpha.
  std::uint32_t Faded(std::uint32_t rgba, size_t v) const {
    return ws.faint[v] ? WithAlpha(rgba, static_cast<std::uint8_t>(std::lround(Alpha(rgba) * options.faint_alpha))) : rgba;
  }
  bool AllDrawable(int first, int count) const {
    for (int i = first; i < first + count; ++i)
      if (!IsDrawable(ws.dense[i])) return false;
    return true;
  }
};

bool InFocus(const BuildOptions& o, const DrawPrimitive& p) {
  return std::find(o.focus_units.begin(), o.focus_units.end(), p.unit_id) != o.focus_units.end();
}

// Step 1: the visible primitives and their vertices, projected in one call.
void CollectVisible(Build& b) {
  DrawCommands::Workspace& ws = b.ws;
  ws.visible.clear();
  ws.faint.clear();
  ws.vertex_first.clear();
  ws.table.clear();
  for (size_t i = 0; i < b.primitives.size(); ++i) {
    const DrawPrimitive& p = b.primitives[i];
    const bool point_like = p.kind == DrawKind::kLabel || p.kind == DrawKind::kGlyph;
    if (static_cast<int>(p.points_mm.size()) < (point_like ? 1 : 2)) continue;
    if (p.kind == DrawKind::kLabel && p.text.empty()) continue;
    if (!b.layers.Visible(p.layer)) continue;
    const bool faint = b.options.faint_reference && IsReferenceLayer(p.layer) && !InFocus(b.options, p);
    if (faint && p.kind == DrawKind::kLabel) continue;  // the faint shape says enough; a click on the unit says more
    ws.visible.push_back(static_cast<int>(i));
    ws.faint.push_back(faint);
    ws.vertex_first.push_back(static_cast<int>(ws.table.size()));
    ws.table.insert(ws.table.end(), p.points_mm.begin(), p.points_mm.begin() + VertexCount(p));
  }
  ProjectTablePoints(b.projection, ws.table, &ws.table_px);
}

// Step 2: split edges. Without distortion a table line stays straight, so only edges with an end
// the camera cannot see are split (to find the part it can). With distortion the number of
// pieces follows the projected length.
void SplitEdges(Build& b) {
  DrawCommands::Workspace& ws = b.ws;
  const bool linear = b.projection.Linear();
  ws.edge_first.clear();
  ws.interior.clear();
  for (size_t v = 0; v < ws.visible.size(); ++v) {
    const DrawPrimitive& p = b.Visible(v);
    const int n = VertexCount(p), edges = EdgeCount(p), vf = ws.vertex_first[v];
    for (int e = 0; e < edges; ++e) {
      const int ia = vf + e, ib = vf + (e + 1) % n;
      const cv::Point2f &pa = ws.table_px[ia], &pb = ws.table_px[ib];
      int pieces = 1;
      if (IsDrawable(pa) && IsDrawable(pb)) {
        if (!linear) {
          const double len = cv::norm(pb - pa);
          pieces = std::clamp(static_cast<int>(std::ceil(len / b.options.max_segment_px)), 1, b.options.max_pieces_per_edge);
        }
      } else {
        pieces = b.options.max_pieces_per_edge;
      }
      ws.edge_first.push_back(static_cast<int>(ws.interior.size()));
      const geom::Vec2 &a = ws.table[ia], &c = ws.table[ib];
      for (int k = 1; k < pieces; ++k) ws.interior.push_back(a + (c - a) * (static_cast<double>(k) / pieces));
    }
  }
  ws.edge_first.push_back(static_cast<int>(ws.interior.size()));
  ProjectTablePoints(b.projection, ws.interior, &ws.interior_px);
}

// Step 3: each primitive's outline as one dense run of output px (NaN where not visible).
void DenseOutlines(Build& b) {
  DrawCommands::Workspace& ws = b.ws;
  ws.dense.clear();
  ws.dense_first.clear();
  int edge = 0;
  for (size_t v = 0; v < ws.visible.size(); ++v) {
    const DrawPrimitive& p = b.Visible(v);
    ws.dense_first.push_back(static_cast<int>(ws.dense.size()));
    const int n = VertexCount(p), edges = EdgeCount(p), vf = ws.vertex_first[v];
    for (int e = 0; e < edges; ++e, ++edge) {
      ws.dense.push_back(ws.table_px[vf + e]);
      ws.dense.insert(ws.dense.end(), ws.interior_px.begin() + ws.edge_first[edge], ws.interior_px.begin() + ws.edge_first[edge + 1]);
    }
    if (edges > 0 && !IsClosed(p)) ws.dense.push_back(ws.table_px[vf + n - 1]);
  }
  ws.dense_first.push_back(static_cast<int>(ws.dense.size()));
}

// Step 4: fills, under every stroke. A shape the camera sees only in part is outlined, not filled.
void AddFills(Build& b) {
  DrawCommands::Workspace& ws = b.ws;
  for (size_t v = 0; v < ws.visible.size(); ++v) {
    const DrawPrimitive& p = b.Visible(v);
    if (!p.filled || !IsClosed(p)) continue;
    const int d0 = ws.dense_first[v], count = ws.dense_first[v + 1] - d0;
    if (count < 3 || !b.AllDrawable(d0, count)) continue;
    AddPath(b.out, &ws.dense[d0], count, 0, b.Faded(FillColour(p, b.styles), v), 0.0f, true, ws.visible[v]);
    PathCommand& c = b.out->paths.back();
    c.convex = IsConvex(&b.out->points[c.first], count);
    if (!c.convex) {
      c.first_index = static_cast<int>(b.out->indices.size());
      Triangulate(&b.out->points[c.first], count, c.first, &ws.ear, &b.out->indices);
      c.index_count = static_cast<int>(b.out->indices.size()) - c.first_index;
    }
  }
}

// An arrow's head: a filled triangle at the tip, along the last piece of the shaft (which is short
// when the lens bends the shaft, so the head follows the curve). `last_path`: the shaft's run
// holding the tip (-1: none), shortened so its square end does not poke out at the tip.
void AddArrowHead(Build& b, size_t v, std::uint32_t stroke, int last_path) {
  DrawCommands::Workspace& ws = b.ws;
  const int d0 = ws.dense_first[v], count = ws.dense_first[v + 1] - d0;
  if (!IsDrawable(ws.dense[d0 + count - 1])) return;
  const cv::Point2f tip = ws.dense[d0 + count - 1];
  const cv::Point2f back = ws.dense[d0 + count - 2];
  if (!IsDrawable(back)) return;
  cv::Point2f dir = tip - back;
  const float piece = std::sqrt(dir.dot(dir));
  if (piece < 1e-3f) return;
  dir *= 1.0f / piece;
  float shaft = 0;
  for (int i = d0; i + 1 < d0 + count; ++i)
    if (IsDrawable(ws.dense[i]) && IsDrawable(ws.dense[i + 1])) shaft += static_cast<float>(cv::norm(ws.dense[i + 1] - ws.dense[i]));
  const float head = std::min(b.styles.For(b.Visible(v).style).arrow_head_px * b.scale, 0.6f * shaft);
  const cv::Point2f normal(-dir.y, dir.x);
  const cv::Point2f tri[3] = {tip, tip - dir * head + normal * (0.45f * head), tip - dir * head - normal * (0.45f * head)};
  if (last_path >= 0) {
    PathCommand& c = b.out->paths[last_path];
    cv::Point2f& end_point = b.out->points[c.first + c.count - 1];
    if (cv::norm(end_point - b.out->points[c.first + c.count - 2]) > 0.5 * head) end_point = tip - dir * (0.5f * head);
  }
  AddPath(b.out, tri, 3, 0, WithAlpha(stroke, 0xFF), 0.0f, true, ws.visible[v]);
}

// Step 5: outlines and lines, in the primitives' order; arrows get their head.
void AddStrokes(Build& b) {
  DrawCommands::Workspace& ws = b.ws;
  for (size_t v = 0; v < ws.visible.size(); ++v) {
    const DrawPrimitive& p = b.Visible(v);
    if (p.kind == DrawKind::kLabel || p.kind == DrawKind::kGlyph) continue;
    const PrimitiveStyle& s = b.styles.For(p.style);
    const std::uint32_t stroke = b.Faded(StrokeColour(p, b.styles), v);
    const float thickness = s.thickness_px * b.scale;
    const int d0 = ws.dense_first[v], count = ws.dense_first[v + 1] - d0;
    const bool closed = IsClosed(p);
    if (closed && !p.dashed && b.AllDrawable(d0, count)) {
      AddPath(b.out, &ws.dense[d0], count, stroke, 0, thickness, true, ws.visible[v]);
      continue;
    }
    // Open runs between points the camera cannot show; a closed outline is walked back to its start.
    if (closed) {
      const cv::Point2f first = ws.dense[d0];
      ws.dense.push_back(first);
    }
    const int end = closed ? d0 + count + 1 : d0 + count;
    int run = -1;
    int last_path = -1;  // the run holding the arrow's tip
    for (int i = d0; i <= end; ++i) {
      const bool ok = i < end && IsDrawable(ws.dense[i]);
      if (ok && run < 0) run = i;
      if (ok || run < 0) continue;
      const int n = i - run;
      if (n >= 2 && p.dashed) {
        AddDashes(b.out, &ws.dense[run], n, s.dash_px * b.scale, s.gap_px * b.scale, stroke, thickness, ws.visible[v]);
      } else if (n >= 2) {
        AddPath(b.out, &ws.dense[run], n, stroke, 0, thickness, false, ws.visible[v]);
        if (i == end) last_path = static_cast<int>(b.out->paths.size()) - 1;
      }
      run = -1;
    }
    if (closed) ws.dense.pop_back();
    if (p.kind == DrawKind::kArrow) AddArrowHead(b, v, stroke, last_path);
  }
}

// Where a primitive's text goes: a label at its point, a polygon's name at its vertices' centroid,
// a line's at the middle of its ends. false: no end the camera sees.
bool TextAnchor(const Build& b, size_t v, cv::Point2f* anchor) {
  const DrawPrimitive& p = b.Visible(v);
  const int vf = b.ws.vertex_first[v], n = VertexCount(p);
  if (p.kind == DrawKind::kLabel) {
    *anchor = b.ws.table_px[vf];
    return IsDrawable(*anchor);
  }
  *anchor = cv::Point2f(0, 0);
  int used = 0;
  const int take = IsClosed(p) ? n : 2;
  for (int k = 0; k < take; ++k) {
    const cv::Point2f q = b.ws.table_px[vf + (IsClosed(p) ? k : k * (n - 1))];
    if (!IsDrawable(q)) continue;
    *anchor += q;
    ++used;
  }
  if (used > 0) *anchor *= 1.0f / used;
  return used > 0;
}

// Step 6: labels on top. A kLabel follows its own layer; text written on a shape (terrain names)
// also needs the "labels" layer. Then each unit's labels and icons become its card.
void AddLabels(Build& b) {
  DrawCommands::Workspace& ws = b.ws;
  const bool labels_on = b.layers.Visible("labels");
  ws.glyphs.clear();
  for (size_t v = 0; v < ws.visible.size(); ++v) {
    const DrawPrimitive& p = b.Visible(v);
    if (p.kind == DrawKind::kGlyph) {
      ws.glyphs.push_back(ws.visible[v]);
      continue;
    }
    if (p.text.empty() || ws.faint[v]) continue;  // a faint zone is not named: a click on its unit names it
    if (p.kind != DrawKind::kLabel && !labels_on) continue;
    cv::Point2f anchor;
    if (!TextAnchor(b, v, &anchor)) continue;
    const PrimitiveStyle& s = b.styles.For(p.style);
    LabelCommand l;
    l.anchor_px = anchor;
    l.text = p.text;
    l.text_rgba = LabelTextColour(p.rgba != 0 ? p.rgba : s.rgba, b.styles);
    l.background_rgba = b.styles.label_background_rgba;
    l.height_px = LabelHeight(s, b.text_scale, b.styles);
    l.primitive = ws.visible[v];
    b.out->labels.push_back(std::move(l));
  }
  GatherCallouts(b.options.callouts, b.primitives, ws.glyphs, &b.out->labels);
}

// The markers' bounding boxes in output px: no label may cover one.
void MarkerObstacles(Build& b) {
  DrawCommands::Workspace& ws = b.ws;
  ws.obstacles.clear();
  if (!b.options.markers_mm || b.out->labels.empty()) return;
  ws.marker_table.clear();
  for (const TableQuad& q : *b.options.markers_mm) ws.marker_table.insert(ws.marker_table.end(), q.begin(), q.end());
  ProjectTablePoints(b.projection, ws.marker_table, &ws.marker_px);
  for (size_t m = 0; m + 4 <= ws.marker_px.size(); m += 4) {
    float x0 = ws.marker_px[m].x, x1 = x0, y0 = ws.marker_px[m].y, y1 = y0;
    bool drawable = true;
    for (size_t k = m; k < m + 4; ++k) {
      const cv::Point2f& q = ws.marker_px[k];
      drawable = drawable && IsDrawable(q);
      x0 = std::min(x0, q.x);
      x1 = std::max(x1, q.x);
      y0 = std::min(y0, q.y);
      y1 = std::max(y1, q.y);
    }
    if (drawable) ws.obstacles.emplace_back(x0, y0, x1 - x0, y1 - y0);
  }
}

// Step 7: labels apart from one another and off the markers (both renderers draw the result),
// and inside the picture: a card at a unit near the edge is read whole, not cut off.
void PlaceLabels(Build& b) {
  MarkerObstacles(b);
  const cv::Rect2f& c = b.options.canvas_px;
  const cv::Rect2f canvas = c.width > 0 && c.height > 0 ? c : cv::Rect2f();
  b.out->label_stats = LayoutLabels(b.options.labels, b.primitives, b.scale, b.out, nullptr, &b.ws.obstacles, canvas);
  if (b.options.labels.enabled || canvas.width <= 0) return;
  for (LabelCommand& l : b.out->labels) {
    const cv::Rect2f box = CardBox(l);
    const cv::Rect2f in = IntoCanvas(box, canvas);
    l.anchor_px += cv::Point2f(in.x - box.x, in.y - box.y);
  }
}

}  // namespace

void BuildDrawCommands(const BuildOptions& options, const std::vector<DrawPrimitive>& primitives,
                       const TableProjection& projection, const StyleTable& styles, const LayerVisibility& layers,
                       DrawCommands* out) {
  out->Clear();
  Build b{options, primitives, projection, styles, layers, out, out->workspace, static_cast<float>(options.scale),
          options.text_scale > 0 ? options.text_scale : options.scale};
  CollectVisible(b);
  SplitEdges(b);
  DenseOutlines(b);
  AddFills(b);
  AddStrokes(b);
  AddLabels(b);
  PlaceLabels(b);
}

}  // namespace vedette::overlay
