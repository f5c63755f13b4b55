#include "overlay/marker_quads.h"

#include "vision/marker_geometry.h"

namespace vedette::overlay {

namespace {

void AddMarkerQuad(vision::MarkerPlacement m, double margin_mm, std::vector<TableQuad>* out) {
  m.size_mm += 2 * margin_mm;
  const std::array<cv::Point3d, 4> c = vision::MarkerCornersInTable(m);
  out->push_back({geom::Vec2(c[0].x, c[0].y), geom::Vec2(c[1].x, c[1].y), geom::Vec2(c[2].x, c[2].y), geom::Vec2(c[3].x, c[3].y)});
}

}  // namespace

void MarkerQuadsOnTable(const Scene& scene, double margin_mm, std::vector<TableQuad>* out) {
  out->clear();
  for (const Unit& u : scene.units)
    if (u.pose && u.marker) AddMarkerQuad(vision::PlacementOf(u), margin_mm, out);
  for (const Anchor& a : scene.anchors) AddMarkerQuad(vision::PlacementOf(a), margin_mm, out);
}

}  // namespace vedette::overlay
