#include "overlay/view_transform.h"

#include <algorithm>

namespace vedette::overlay {

ViewTransform MakeView(const ViewState& state, const cv::Rect2d& content, const cv::Rect2d& viewport, bool flip_y) {
  ViewTransform v;
  v.flip_y = flip_y;
  const double fit = (content.width > 0 && content.height > 0)
                         ? std::min(viewport.width / content.width, viewport.height / content.height)
                         : 1.0;
  v.scale = fit * std::clamp(state.zoom, kMinZoom, kMaxZoom);
  const cv::Point2d centre = state.centred ? state.centre
                                           : cv::Point2d(content.x + content.width / 2, content.y + content.height / 2);
  const cv::Point2d viewport_centre(viewport.x + viewport.width / 2, viewport.y + viewport.height / 2);
  v.offset_x = viewport_centre.x - v.scale * centre.x;
  v.offset_y = viewport_centre.y - (flip_y ? -v.scale : v.scale) * centre.y;
  return v;
}

namespace {
// The content point at the viewport's centre under `current`.
cv::Point2d CentreOf(const ViewTransform& current, const cv::Rect2d& viewport) {
  return current.Inverse({viewport.x + viewport.width / 2, viewport.y + viewport.height / 2});
}
}  // namespace

ViewState ZoomedAbout(const ViewState& state, const ViewTransform& current, const cv::Rect2d& viewport,
                      const cv::Point2d& at_px, double factor) {
  ViewState s = state;
  const double zoom = std::clamp(state.zoom * factor, kMinZoom, kMaxZoom);
  const double applied = zoom / state.zoom;  // the factor left after clamping
  const cv::Point2d under = current.Inverse(at_px);
  s.centre = under + (CentreOf(current, viewport) - under) * (1.0 / applied);
  s.zoom = zoom;
  s.centred = true;
  return s;
}

ViewState Panned(const ViewState& state, const ViewTransform& current, const cv::Rect2d& viewport,
                 const cv::Point2d& delta_px) {
  ViewState s = state;
  const cv::Point2d d(delta_px.x / current.scale, (current.flip_y ? -delta_px.y : delta_px.y) / current.scale);
  s.centre = CentreOf(current, viewport) - d;
  s.centred = true;
  return s;
}

}  // namespace vedette::overlay
