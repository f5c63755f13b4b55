#include "overlay/label_layout.h"

#include "overlay/cv_renderer.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>

#include <opencv2/imgproc.hpp>

#include "overlay/draw_commands.h"
#include "overlay/label_card.h"
#include "overlay/style.h"

namespace vedette::overlay {

bool LabelLayoutOptions::Check(std::string* error) const {
  auto fail = [&](const std::string& m) {
    if (error) *error = m;
    return false;
  };
  if (rings < 0 || rings > 16) return fail("label layout: rings must be 0..16");
  if (!(gap_em >= 0) || !(ring_step_em > 0)) return fail("label layout: gap_em must be >= 0 and ring_step_em > 0 (text heights)");
  if (!(leader_alpha >= 0 && leader_alpha <= 1)) return fail("label layout: leader_alpha must be within 0..1");
  return true;
}

cv::Rect2f LabelBox(const std::string& text, float height_px, const cv::Point2f& centre) {
  // OpenCV backend (cv_renderer.cpp): Hershey simplex at height/22, the box padded by max(2, text
  // height / 4), the baseline below the centred capitals.
  int baseline = 0;
  const double font_scale = height_px / 22.0;
  const int thickness = std::max(1, static_cast<int>(std::lround(height_px / 12.0)));
  const cv::Size t = cv::getTextSize(HersheyText(text), cv::FONT_HERSHEY_SIMPLEX, font_scale, thickness, &baseline);
  const float pad_cv = static_cast<float>(std::max(2, t.height / 4));
  // ImGui backend (imgui_renderer.cpp): the default font at the size whose capitals are `height`
  // tall, centred on the capitals, padded by max(2, height / 4) from the capitals' top to the
  // descenders' bottom.
  const ImGuiFontShape f;
  const float em = height_px / (f.cap_bottom - f.cap_top);  // px per font px
  const float pad_im = std::max(2.0f, height_px / 4.0f);
  const float w_im = (f.advance + 0.3f) * em * static_cast<float>(text.size());  // +0.3 font px a character: slack for rounding
  const float cap_mid = (f.cap_top + f.cap_bottom) / 2;
  const float half_w = std::max(t.width / 2.0f + pad_cv, w_im / 2.0f + pad_im);
  const float bottom = std::max(t.height / 2.0f + baseline + pad_cv, (f.descent - cap_mid) * em + pad_im);
  const float up = std::max(t.height / 2.0f + pad_cv, (cap_mid - f.cap_top) * em + pad_im);
  return {centre.x - half_w, centre.y - up, 2 * half_w, up + bottom};
}

int LabelPriority(DrawStyle style) {
  switch (style) {
    case DrawStyle::kIllegal: return 0;        // a move the rules forbid
    case DrawStyle::kMeasure: return 0;        // what a dispute is about
    case DrawStyle::kVerdict: return 1;        // what the last moves need
    case DrawStyle::kTest: return 1;           // what the players must roll
    case DrawStyle::kThreat: return 2;
    case DrawStyle::kContact: return 3;
    case DrawStyle::kBase: return 4;           // unit names
    case DrawStyle::kSupport: return 5;
    case DrawStyle::kRange: return 6;
    case DrawStyle::kZoneOfControl: return 7;
    case DrawStyle::kFacing: return 8;
    case DrawStyle::kInfo: return 9;
    case DrawStyle::kTerrain: return 10;       // the players can see the wood
  }
  return 11;
}

namespace {

bool Overlap(const cv::Rect2f& a, const cv::Rect2f& b) {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

}  // namespace

cv::Rect2f IntoCanvas(const cv::Rect2f& box, const cv::Rect2f& c) {
  if (!(c.width > 0 && c.height > 0)) return box;
  cv::Rect2f out = box;
  // Wider than the canvas: its start is kept in (a line is read from the left).
  if (box.width <= c.width) out.x += std::max(0.0f, c.x - box.x) - std::max(0.0f, box.x + box.width - c.x - c.width);
  else out.x = c.x;
  if (box.height <= c.height) out.y += std::max(0.0f, c.y - box.y) - std::max(0.0f, box.y + box.height - c.y - c.height);
  return out;
}

namespace {

// The offset from `box` to the free box of its size nearest to it inside `canvas`, on a grid of half
// a text height; none when every place is taken.
template <typename FreeAt>
std::optional<cv::Point2f> NearestFreeInCanvas(const cv::Rect2f& box, const cv::Rect2f& canvas, float text_px, FreeAt&& free_at) {
  const float step = std::max(2.0f, text_px / 2);
  std::optional<cv::Point2f> best;
  float best_d = 0;
  // A box wider (taller) than the canvas keeps its left (top) end in, as IntoCanvas does.
  const float x_end = std::max(canvas.x, canvas.x + canvas.width - box.width);
  const float y_end = std::max(canvas.y, canvas.y + canvas.height - box.height);
  for (float y = canvas.y; y <= y_end; y += step)
    for (float x = canvas.x; x <= x_end; x += step) {
      const cv::Point2f o(x - box.x, y - box.y);
      const float d = o.dot(o);
      if (best && d >= best_d) continue;
      if (!free_at(cv::Rect2f(x, y, box.width, box.height))) continue;
      best = o;
      best_d = d;
    }
  return best;
}

}  // namespace

LabelLayoutStats LayoutLabels(const LabelLayoutOptions& options, const std::vector<DrawPrimitive>& primitives, float scale,
                              DrawCommands* commands, LabelLayoutScratch* scratch, const std::vector<cv::Rect2f>* obstacles_px,
                              const cv::Rect2f& canvas_px) {
  LabelLayoutStats stats;
  LabelLayoutScratch& ws = scratch ? *scratch : commands->workspace.label_layout;
  std::vector<LabelCommand>& labels = commands->labels;
  stats.labels = static_cast<int>(labels.size());
  if (!options.enabled || labels.empty()) return stats;
  auto style_of = [&](const LabelCommand& l) {
    return l.primitive >= 0 && l.primitive < static_cast<int>(primitives.size()) ? primitives[l.primitive].style
                                                                                  : DrawStyle::kInfo;
  };
  std::vector<int>& order = ws.order;
  order.resize(labels.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int a, int b) {
    const int pa = LabelPriority(style_of(labels[a])), pb = LabelPriority(style_of(labels[b]));
    return pa != pb ? pa < pb : a < b;
  });

  std::vector<cv::Rect2f>& placed = ws.placed;
  placed.clear();
  std::vector<char>& keep = ws.keep;
  keep.assign(labels.size(), 0);
  std::vector<cv::Point2f>& centre = ws.centre;
  centre.resize(labels.size());
  auto free_at = [&](const cv::Rect2f& box) {
    for (const cv::Rect2f& p : placed)
      if (Overlap(box, p)) return false;
    if (obstacles_px)
      for (const cv::Rect2f& o : *obstacles_px)
        if (Overlap(box, o)) return false;
    return true;
  };
  using Candidate = LabelLayoutScratch::Candidate;
  std::vector<Candidate>& candidates = ws.candidates;
  for (int i : order) {
    const LabelCommand& l = labels[i];
    const cv::Point2f a = l.anchor_px;
    const cv::Rect2f at_anchor = CardBoxAt(l, a);
    const cv::Rect2f first = IntoCanvas(at_anchor, canvas_px);
    const float w = at_anchor.width, h = at_anchor.height;
    const float gap = static_cast<float>(options.gap_em) * l.height_px;
    const float step = static_cast<float>(options.ring_step_em) * l.height_px;
    const float reach = options.rings * (h + gap);
    bool found = free_at(first);
    cv::Point2f offset(first.x - at_anchor.x, first.y - at_anchor.y);
    if (!found) {
      // Rows of boxes stacked above and below (j < 0: above first), each centred on the anchor,
      // hanging left or right of it, or beside it stepping out a text height at a time; the nearest
      // free one wins (ties: in this order).
      candidates.clear();
      for (int r = 1; r <= 2 * options.rings + 1; ++r) {
        const int j = r == 1 ? 0 : (r % 2 == 0 ? -(r / 2) : r / 2);
        float xs[3 + 2 * 16];
        int nx = 0;
        if (j != 0) {
          xs[nx++] = 0.0f;
          xs[nx++] = w / 2;
          xs[nx++] = -w / 2;
        }
        for (int m = 0; m < options.rings; ++m) {
          xs[nx++] = w / 2 + gap + m * step;
          xs[nx++] = -(w / 2 + gap + m * step);
        }
        for (int k = 0; k < nx; ++k) {
          const float x = xs[k];
          const cv::Point2f o(x, j * (h + gap));
          const float dx = std::max(0.0f, std::abs(o.x) - w / 2), dy = std::max(0.0f, std::abs(o.y) - h / 2);
          const float dist = std::hypot(dx, dy);
          if (dist <= reach) candidates.push_back({o, dist, static_cast<int>(candidates.size())});
        }
      }
      std::sort(candidates.begin(), candidates.end(), [](const Candidate& x, const Candidate& y) {
        return x.distance != y.distance ? x.distance < y.distance : x.index < y.index;
      });
      for (const Candidate& c : candidates) {
        const cv::Rect2f box = IntoCanvas(cv::Rect2f(at_anchor.x + c.offset.x, at_anchor.y + c.offset.y, w, h), canvas_px);
        if (free_at(box)) {
          offset = cv::Point2f(box.x - at_anchor.x, box.y - at_anchor.y);
          found = true;
          break;
        }
      }
    }
    // What a player must act on (a test, a verdict, an illegal move, a measurement) is never dropped
    // while the picture has room for it anywhere: the nearest free place, with a long leader.
    // In a picture too small for that, it may cover other units' markers (in the picture only: the
    // camera still sees them), never another label.
    if (!found && LabelPriority(style_of(l)) <= 1 && canvas_px.width > 0 && canvas_px.height > 0) {
      std::optional<cv::Point2f> far = NearestFreeInCanvas(at_anchor, canvas_px, l.height_px, free_at);
      if (!far) {
        far = NearestFreeInCanvas(at_anchor, canvas_px, l.height_px, [&](const cv::Rect2f& box) {
          for (const cv::Rect2f& p : placed)
            if (Overlap(box, p)) return false;
          return true;
        });
        if (far) ++stats.over_markers;
      }
      if (far) {
        offset = *far;
        found = true;
      }
    }
    if (!found) {
      ++stats.dropped;
      continue;
    }
    keep[i] = 1;
    centre[i] = a + offset;
    placed.emplace_back(at_anchor.x + offset.x, at_anchor.y + offset.y, w, h);
    if (offset.x == 0 && offset.y == 0) continue;
    ++stats.moved;
    // The leader: from the anchor to the nearest point of the moved box.
    const cv::Rect2f& box = placed.back();
    const cv::Point2f end(std::clamp(a.x, box.x, box.x + box.width), std::clamp(a.y, box.y, box.y + box.height));
    PathCommand c;
    c.stroke_rgba = WithAlpha(l.text_rgba, static_cast<std::uint8_t>(std::lround(options.leader_alpha * Alpha(l.text_rgba))));
    c.thickness_px = std::max(1.0f, scale);
    c.first = static_cast<int>(commands->points.size());
    c.count = 2;
    c.primitive = l.primitive;
    commands->points.push_back(a);
    commands->points.push_back(end);
    commands->paths.push_back(c);
  }
  // Drawn in their original order (later labels on top, as before).
  size_t out = 0;
  for (size_t i = 0; i < labels.size(); ++i) {
    if (!keep[i]) continue;
    labels[i].anchor_px = centre[i];
    if (out != i) labels[out] = std::move(labels[i]);
    ++out;
  }
  labels.resize(out);
  return stats;
}

}  // namespace vedette::overlay
