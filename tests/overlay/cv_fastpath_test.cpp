// The OpenCV backend's shortcuts (overlay/cv_renderer.h) draw what the plain calls draw:
// - a label's text, rasterised once into a coverage sprite and blended, equals cv::putText
//   straight onto the frame (to rounding), also when the label is cut by the image border (where
//   the reference is putText on a larger canvas, cropped: putText itself leaves stray pixels at
//   the image corner when its strokes are clipped);
// - a path bent by the lens, split every 6 px, drawn without its nearly collinear points
//   (simplify_px 0.1) covers the same pixels as drawn point by point, and corners stay sharp.
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include <opencv2/imgproc.hpp>

#include "overlay/cv_renderer.h"
#include "overlay/draw_commands.h"

namespace vedette::overlay {
namespace {

LabelCommand Label(cv::Point2f anchor) {
  LabelCommand l;
  l.anchor_px = anchor;
  l.text = "IM Easy 4+: 50%";
  l.text_rgba = 0xFFE040FF;
  l.background_rgba = 0;
  l.height_px = 16.0f;
  return l;
}

// What the backend drew before the sprites: putText at the label's origin.
void PutTextReference(const LabelCommand& l, cv::Mat* frame) {
  int baseline = 0;
  const cv::Size text = LabelTextSize(l.text, l.height_px, &baseline);
  const cv::Point origin(cvRound(l.anchor_px.x - text.width / 2.0), cvRound(l.anchor_px.y + text.height / 2.0));
  cv::putText(*frame, l.text, origin, cv::FONT_HERSHEY_SIMPLEX, l.height_px / 22.0, cv::Scalar(0x40, 0xE0, 0xFF),
              std::max(1, static_cast<int>(std::lround(l.height_px / 12.0))), cv::LINE_AA);
}

double MaxDiff(const cv::Mat& a, const cv::Mat& b) {
  double m = 0;
  cv::Mat d;
  cv::absdiff(a, b, d);
  cv::minMaxLoc(d.reshape(1), nullptr, &m);
  return m;
}

// A ruler's text changes every frame while a unit moves: hours of such texts keep the sprite cache
// within its bytes (it starts afresh when full) and every label is still drawn.
TEST(CvFastPath, SpriteCacheStaysBoundedByBytes) {
  cv::Mat frame(1080, 1920, CV_8UC3, cv::Scalar::all(0));
  CvRenderScratch scratch;
  size_t most = 0;
  for (int i = 0; i < 3000; ++i) {
    DrawCommands commands;
    LabelCommand l = Label(cv::Point2f(960, 540));
    l.height_px = 30.0f;
    l.text = "moved " + std::to_string(i) + " mm of 160 mm allowed (1 BW = 40 mm)";
    commands.labels.push_back(l);
    frame.setTo(cv::Scalar::all(0));
    RenderCommands(commands, &frame, &scratch);
    ASSERT_GT(cv::countNonZero(frame.reshape(1)), 100) << "label " << i << " drawn";
    most = std::max(most, scratch.label_sprite_bytes);
  }
  size_t bytes = 0;
  for (const auto& [key, sprite] : scratch.label_sprites) bytes += sprite.coverage.total();
  EXPECT_EQ(bytes, scratch.label_sprite_bytes);
  EXPECT_LE(most, size_t{4} << 20);
  EXPECT_GT(most, size_t{3} << 20) << "the cache is used up to its bound before it starts afresh";
}

TEST(CvFastPath, CachedLabelEqualsPutText) {
  // Textured background so blending errors would show; anchors inside and cut by the left border.
  cv::Mat background(120, 300, CV_8UC3);
  cv::randu(background, cv::Scalar::all(0), cv::Scalar::all(255));
  constexpr int kPad = 150;
  for (const cv::Point2f anchor : {cv::Point2f(150, 60), cv::Point2f(20, 10)}) {
    DrawCommands commands;
    commands.labels.push_back(Label(anchor));
    cv::Mat drawn = background.clone(), again = background.clone();
    CvRenderScratch scratch;
    RenderCommands(commands, &drawn, &scratch);
    RenderCommands(commands, &again, &scratch);  // the second time from the sprite cache
    EXPECT_EQ(scratch.label_sprites.size(), 1u);
    EXPECT_EQ(MaxDiff(drawn, again), 0.0);
    cv::Mat padded;
    cv::copyMakeBorder(background, padded, kPad, kPad, kPad, kPad, cv::BORDER_CONSTANT, cv::Scalar::all(0));
    LabelCommand shifted = commands.labels[0];
    shifted.anchor_px += cv::Point2f(kPad, kPad);
    PutTextReference(shifted, &padded);
    const cv::Mat reference = padded(cv::Rect(kPad, kPad, background.cols, background.rows));
    // OpenCV blends antialiased strokes in its own fixed point: a few grey levels of rounding.
    EXPECT_LE(MaxDiff(drawn, reference), 6.0) << "anchor " << anchor;
    cv::Mat d;
    cv::absdiff(drawn, reference, d);
    EXPECT_LT(cv::mean(d.reshape(1))[0], 0.1) << "anchor " << anchor;
    EXPECT_GT(cv::norm(drawn, background, cv::NORM_L1), 1000.0);  // the text is there
  }
}

// A thick translucent stroke along a gently curved line (radius 3000 px, points 6 px apart, as
// the builder splits a table edge under barrel distortion), then a right-angle turn.
DrawCommands CurvedPath() {
  DrawCommands c;
  const cv::Point2f centre(200, 3050);
  for (int i = 0; i <= 50; ++i) {
    const double a = -0.05 + 0.1 * i / 50.0;  // rad: 300 px of arc, sagitta 3.7 px
    c.points.emplace_back(static_cast<float>(centre.x + 3000 * std::sin(a)), static_cast<float>(centre.y - 3000 * std::cos(a)));
  }
  c.points.emplace_back(c.points.back().x, c.points.back().y + 60);  // the corner: straight down
  PathCommand p;
  p.stroke_rgba = 0xFF8C00C0;
  p.thickness_px = 3.0f;
  p.first = 0;
  p.count = static_cast<int>(c.points.size());
  c.paths.push_back(p);
  return c;
}

TEST(CvFastPath, SimplifiedPathCoversTheSamePixels) {
  const DrawCommands commands = CurvedPath();
  cv::Mat fast(140, 400, CV_8UC3, cv::Scalar(40, 40, 40)), exact = fast.clone();
  CvRenderScratch s1, s2;
  RenderCommands(commands, &fast, &s1, CvRenderOptions{});
  CvRenderOptions every_point;
  every_point.simplify_px = 0.0f;
  RenderCommands(commands, &exact, &s2, every_point);
  EXPECT_LT(s1.simplified.size(), 20u);  // most of the 52 points were straight to 0.1 px
  cv::Mat d;
  cv::absdiff(fast, exact, d);
  const double mean_diff = cv::mean(d.reshape(1))[0];
  EXPECT_LT(mean_diff, 0.5);
  // Pixels the stroke covers (differs from the background) agree: none drawn by one and not the other.
  cv::Mat on_fast, on_exact;
  cv::inRange(fast, cv::Scalar(40, 40, 40), cv::Scalar(40, 40, 40), on_fast);
  cv::inRange(exact, cv::Scalar(40, 40, 40), cv::Scalar(40, 40, 40), on_exact);
  // Strongly covered in one (more than half the colour) and untouched in the other: none.
  cv::Mat fast_grey, exact_grey;
  cv::cvtColor(fast, fast_grey, cv::COLOR_BGR2GRAY);
  cv::cvtColor(exact, exact_grey, cv::COLOR_BGR2GRAY);
  cv::Mat disagree = ((fast_grey > 100) & on_exact) | ((exact_grey > 100) & on_fast);
  EXPECT_EQ(cv::countNonZero(disagree), 0);
  // The corner stays: the vertical leg is drawn at the last point's column, 40 px below the turn.
  const cv::Point2f corner = commands.points[commands.points.size() - 2];
  const cv::Vec3b below = fast.at<cv::Vec3b>(cvRound(corner.y) + 40, cvRound(corner.x));
  EXPECT_GT(below[2], 150) << "red channel of the threat colour";
}

}  // namespace
}  // namespace vedette::overlay
