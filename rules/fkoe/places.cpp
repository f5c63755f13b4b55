#include "rules/fkoe/places.h"

#include <algorithm>

#include "rules/geometry/coverage.h"
#include "rules/input_error.h"

namespace vedette::fkoe {

double AreaShareInside(const geom::Base& b, const geom::Polygon& piece) {
  const double area = b.width_mm * b.depth_mm;
  // A piece whose box is clear of the base's holds none of it (every unit is asked this of every
  // village and works on the table).
  if (!(area > 0) || geom::BoxOf(b).Apart(geom::BoxOf(piece), 1e-6)) return 0.0;
  return geom::AreaInsideAny(b, {piece}) / area;
}

namespace {

bool In(const geom::Base& b, const geom::Polygon& piece, const FkoeConfig& c) {
  return AreaShareInside(b, piece) >= c.defended_share - 1e-9;
}

bool At(const geom::Base& b, const geom::Polygon& piece, const FkoeConfig& c) {
  if (geom::BoxOf(b).Apart(geom::BoxOf(piece), c.at_mm + 1e-6)) return false;
  return geom::PolygonToPolygon(geom::PolygonCcw(b), piece).distance_mm <= c.at_mm + 1e-9;
}

// The line between the centres runs through the piece (more than touching it).
bool Between(const geom::Base& a, const geom::Base& b, const geom::Polygon& piece) {
  return geom::SegmentLengthInside({a.centre_mm, b.centre_mm}, piece) > 1e-6;
}

}  // namespace

bool DefendsPiece(const geom::Base& unit, const geom::Base& enemy, const geom::Polygon& piece, bool from_at,
                  const FkoeConfig& c, bool unit_holds, bool enemy_holds) {
  if (In(enemy, piece, c)) return false;
  if (In(unit, piece, c)) return true;
  if (!from_at || !At(unit, piece, c) || !Between(unit, enemy, piece)) return false;
  // Both lining the same works from either side: only a declaration says whose works they are.
  if (At(enemy, piece, c)) return unit_holds && !enemy_holds;
  return true;
}

std::vector<std::string> DeclaredHolds(const Scene& scene, const Unit& u) {
  const Declared* d = scene.declarations.Find(u.id, "holds");
  if (!d) return {};
  std::vector<std::string> ids;
  auto bad = [&]() {
    return InputError(scene.source, d->line, "declarations for " + u.id + ": holds must be a terrain id or a list of terrain ids");
  };
  if (d->value.is_string()) {
    ids.push_back(d->value.get<std::string>());
  } else if (d->value.is_array()) {
    for (const auto& v : d->value) {
      if (!v.is_string()) throw bad();
      ids.push_back(v.get<std::string>());
    }
  } else {
    throw bad();
  }
  for (const std::string& id : ids) {
    bool found = false;
    for (const Terrain& t : scene.terrain) found = found || t.id == id;
    if (!found) throw InputError(scene.source, d->line, "declarations for " + u.id + ": holds: no terrain '" + id + "' in the scene");
  }
  return ids;
}

bool DefendsBank(const geom::Base& unit, const geom::Base& enemy, const geom::Polygon& stream, const FkoeConfig& c) {
  return !In(unit, stream, c) && At(unit, stream, c) && Between(unit, enemy, stream);
}

Places::Places(const Scene& scene, const FkoeConfig& c) : scene_(scene), c_(c) {
  for (const Terrain& t : scene.terrain) {
    Piece p{&t, c.strong_point_terrain.count(t.type) > 0, c.village_terrain.count(t.type) > 0,
            c.works_terrain.count(t.type) > 0, c.stream_terrain.count(t.type) > 0};
    if (p.strong || p.village || p.works || p.stream) pieces_.push_back(p);
  }
}

Defence Places::DefenceAgainst(const Unit& u, const Unit& enemy) const {
  Defence d;
  const geom::Base ub = Footprint(u), eb = Footprint(enemy);
  const std::vector<std::string> u_holds = DeclaredHolds(scene_, u), e_holds = DeclaredHolds(scene_, enemy);
  auto holds = [](const std::vector<std::string>& v, const std::string& id) { return std::find(v.begin(), v.end(), id) != v.end(); };
  for (const Piece& p : pieces_) {
    const Terrain& t = *p.terrain;
    if ((p.strong || p.village || p.works) &&
        DefendsPiece(ub, eb, t.polygon, p.strong || p.works, c_, holds(u_holds, t.id), holds(e_holds, t.id))) {
      d.strong_point_village_works.push_back(t.id);
      if (p.village || p.works) d.village_works.push_back(t.id);
    }
    if (p.stream && DefendsBank(ub, eb, t.polygon, c_)) d.stream_banks.push_back(t.id);
  }
  return d;
}

std::vector<std::string> Places::VillagesWorksHeld(const Unit& u) const {
  std::vector<std::string> out;
  const geom::Base ub = Footprint(u);
  for (const Piece& p : pieces_)
    if ((p.village || p.works) && In(ub, p.terrain->polygon, c_)) out.push_back(p.terrain->id);
  return out;
}

}  // namespace vedette::fkoe
