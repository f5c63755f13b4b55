#include "rules/geometry/distance.h"

namespace vedette::geom {

ClosestPoints BaseToBase(const Base& a, const Base& b) { return PolygonToPolygon(PolygonCcw(a), PolygonCcw(b)); }

ClosestPoints BaseToPoint(const Base& a, const Vec2& point) {
  ClosestPoints c = PointToPolygon(point, PolygonCcw(a));
  std::swap(c.on_a, c.on_b);
  return c;
}

ClosestPoints LeaderToBase(const Base& a, const Base& b) { return PointToPolygon(LeaderPoint(a), PolygonCcw(b)); }

double LeaderToPoint(const Base& a, const Vec2& point) { return (point - LeaderPoint(a)).norm(); }

}  // namespace vedette::geom
