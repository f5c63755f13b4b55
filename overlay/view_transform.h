#pragma once
// Pan and zoom: a 2-D similarity from a content plane (camera image px, or table mm) to output px.
// The camera view and the top-down view differ only in their content plane, so panning and zooming
// is the same code for both, and a view is remembered as "zoom relative to fit + the content point
// at the centre" so it survives a window resize and a restart.
#include <opencv2/core.hpp>

namespace vedette::overlay {

struct ViewTransform {
  double scale = 1.0;     // output px per content unit (px per image px, or px per mm)
  double offset_x = 0.0;  // output px where content x = 0 lands
  double offset_y = 0.0;  // output px where content y = 0 lands
  bool flip_y = false;    // true for the table plane: table +y (away from player A) points up on screen

  cv::Point2d Apply(const cv::Point2d& content) const {
    return {offset_x + scale * content.x, offset_y + (flip_y ? -scale : scale) * content.y};
  }
  cv::Point2d Inverse(const cv::Point2d& out) const {
    return {(out.x - offset_x) / scale, (out.y - offset_y) / (flip_y ? -scale : scale)};
  }
};

inline constexpr double kMinZoom = 0.05;  // relative to fit
inline constexpr double kMaxZoom = 200.0;

// What the user chose: zoom relative to "fit the content in the viewport", and the content point
// shown at the viewport's centre.
struct ViewState {
  double zoom = 1.0;             // 1 = fit; > 1 = closer
  cv::Point2d centre{0.0, 0.0};  // content units (image px, or table mm)
  bool centred = false;          // false: centre on the content (first use)
};

// The transform that shows `content` (a rectangle in content units) whole and centred in
// `viewport` (output px), scaled by `state`.
ViewTransform MakeView(const ViewState& state, const cv::Rect2d& content, const cv::Rect2d& viewport, bool flip_y);

// Zoom by `factor` keeping the content point under `at_px` (output px) where it is. `current` is
// the transform MakeView gave for `state` in `viewport`.
ViewState ZoomedAbout(const ViewState& state, const ViewTransform& current, const cv::Rect2d& viewport,
                      const cv::Point2d& at_px, double factor);
// Move the content by `delta_px` (output px), as a drag does.
ViewState Panned(const ViewState& state, const ViewTransform& current, const cv::Rect2d& viewport,
                 const cv::Point2d& delta_px);

}  // namespace vedette::overlay
