#include "overlay/cv_renderer.h"

#include <algorithm>
#include <cmath>

#include <opencv2/imgproc.hpp>

namespace vedette::overlay {

namespace {

constexpr int kShift = 4;  // cv:: drawing with 4 fractional bits: 1/16 px precision
constexpr float kOne = 1 << kShift;
constexpr int kFont = cv::FONT_HERSHEY_SIMPLEX;

cv::Scalar Bgr(std::uint32_t rgba) { return cv::Scalar(Blue(rgba), Green(rgba), Red(rgba)); }

void ToFixed(const cv::Point2f* p, int n, cv::Point2f offset, std::vector<cv::Point>* out) {
  out->resize(n);
  for (int i = 0; i < n; ++i)
    (*out)[i] = cv::Point(cvRound((p[i].x - offset.x) * kOne), cvRound((p[i].y - offset.y) * kOne));
}

// Bounding box of the points grown by `margin`, clipped to the image; empty when off-image.
cv::Rect BoundsOf(const cv::Point2f* p, int n, float margin, const cv::Size& size) {
  float x0 = p[0].x, x1 = p[0].x, y0 = p[0].y, y1 = p[0].y;
  for (int i = 1; i < n; ++i) {
    x0 = std::min(x0, p[i].x);
    x1 = std::max(x1, p[i].x);
    y0 = std::min(y0, p[i].y);
    y1 = std::max(y1, p[i].y);
  }
  const cv::Rect r(cv::Point(static_cast<int>(std::floor(x0 - margin)), static_cast<int>(std::floor(y0 - margin))),
                   cv::Point(static_cast<int>(std::ceil(x1 + margin)) + 1, static_cast<int>(std::ceil(y1 + margin)) + 1));
  return r & cv::Rect(0, 0, size.width, size.height);
}

// bgr(roi) += (colour - bgr) * coverage * alpha, coverage from mask(roi).
void Blend(cv::Mat* bgr, const cv::Mat& mask, const cv::Rect& roi, std::uint32_t rgba) {
  const int b = Blue(rgba), g = Green(rgba), r = Red(rgba), alpha = Alpha(rgba);
  for (int y = roi.y; y < roi.y + roi.height; ++y) {
    const std::uint8_t* m = mask.ptr<std::uint8_t>(y) + roi.x;
    std::uint8_t* px = bgr->ptr<std::uint8_t>(y) + 3 * roi.x;
    for (int x = 0; x < roi.width; ++x, px += 3) {
      if (m[x] == 0) continue;
      const int a = (m[x] * alpha + 127) / 255;
      px[0] = static_cast<std::uint8_t>((px[0] * (255 - a) + b * a + 127) / 255);
      px[1] = static_cast<std::uint8_t>((px[1] * (255 - a) + g * a + 127) / 255);
      px[2] = static_cast<std::uint8_t>((px[2] * (255 - a) + r * a + 127) / 255);
    }
  }
}

// Draws with `draw(target, offset)`: straight onto the frame when opaque, else into the coverage
// mask over `roi` and blended.
template <typename DrawFn>
void DrawShape(cv::Mat* bgr, CvRenderScratch* s, const cv::Rect& roi, std::uint32_t rgba, DrawFn draw) {
  if (roi.empty() || Alpha(rgba) == 0) return;
  if (Alpha(rgba) == 0xFF) {
    draw(*bgr, cv::Point2f(0, 0), Bgr(rgba));
    return;
  }
  if (s->mask.size() != bgr->size()) s->mask = cv::Mat::zeros(bgr->size(), CV_8U);
  cv::Mat m = s->mask(roi);
  m.setTo(0);
  draw(m, cv::Point2f(static_cast<float>(roi.x), static_cast<float>(roi.y)), cv::Scalar(255));
  Blend(bgr, s->mask, roi, rgba);
}

}  // namespace

cv::Size LabelTextSize(const std::string& text, float height_px, int* baseline) {
  // Hershey simplex capitals are about 22 px tall at scale 1.
  const double font_scale = height_px / 22.0;
  const int thickness = std::max(1, static_cast<int>(std::lround(height_px / 12.0)));
  return cv::getTextSize(text, kFont, font_scale, thickness, baseline);
}

void RenderCommands(const DrawCommands& commands, cv::Mat* bgr, CvRenderScratch* scratch) {
  CV_Assert(bgr->type() == CV_8UC3);
  const cv::Size size = bgr->size();
  for (const PathCommand& c : commands.paths) {
    if (c.count < 2) continue;
    const cv::Point2f* p = &commands.points[c.first];
    if (c.fill_rgba != 0 && c.count >= 3) {
      const cv::Rect roi = BoundsOf(p, c.count, 1.0f, size);
      DrawShape(bgr, scratch, roi, c.fill_rgba, [&](cv::Mat& target, cv::Point2f offset, const cv::Scalar& colour) {
        // fillPoly fills concave outlines itself: the triangles are for backends that cannot.
        ToFixed(p, c.count, offset, &scratch->fixed);
        const cv::Point* pts = scratch->fixed.data();
        const int n = c.count;
        cv::fillPoly(target, &pts, &n, 1, colour, cv::LINE_AA, kShift);
      });
    }
    if (c.stroke_rgba != 0) {
      const int thickness = std::max(1, static_cast<int>(std::lround(c.thickness_px)));
      const cv::Rect roi = BoundsOf(p, c.count, c.thickness_px + 2.0f, size);
      DrawShape(bgr, scratch, roi, c.stroke_rgba, [&](cv::Mat& target, cv::Point2f offset, const cv::Scalar& colour) {
        ToFixed(p, c.count, offset, &scratch->fixed);
        const cv::Point* pts = scratch->fixed.data();
        const int n = c.count;
        cv::polylines(target, &pts, &n, 1, c.closed, colour, thickness, cv::LINE_AA, kShift);
      });
    }
  }
  for (const LabelCommand& l : commands.labels) {
    int baseline = 0;
    const cv::Size text = LabelTextSize(l.text, l.height_px, &baseline);
    const double font_scale = l.height_px / 22.0;
    const int thickness = std::max(1, static_cast<int>(std::lround(l.height_px / 12.0)));
    const cv::Point origin(cvRound(l.anchor_px.x - text.width / 2.0), cvRound(l.anchor_px.y + text.height / 2.0));
    if (l.background_rgba != 0) {
      const int pad = std::max(2, text.height / 4);
      const cv::Rect box = cv::Rect(origin.x - pad, origin.y - text.height - pad, text.width + 2 * pad,
                                    text.height + baseline + 2 * pad) &
                           cv::Rect(0, 0, size.width, size.height);
      DrawShape(bgr, scratch, box, l.background_rgba, [&](cv::Mat& target, cv::Point2f offset, const cv::Scalar& colour) {
        const cv::Point o(static_cast<int>(offset.x), static_cast<int>(offset.y));
        cv::rectangle(target, cv::Rect(box.tl() - o, box.size()), colour, cv::FILLED);
      });
    }
    cv::putText(*bgr, l.text, origin, kFont, font_scale, Bgr(l.text_rgba), thickness, cv::LINE_AA);
  }
}

}  // namespace vedette::overlay
