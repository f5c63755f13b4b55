#pragma once
// For King or Empress defended places (seed 004 lines 13, 60, 62): whether a unit defends a Strong
// Point, Village or Works, or the bank of a stream, against one enemy, decided from the table.
// A unit is IN a piece when at least `defended_share` of its base area is inside it, and defends a piece
// it is in against an enemy that is not in it. Works and strong points may also be held from AT them
// (a unit lining a line of works): the base within `at_mm`, not in it, the piece between the two units'
// centres; when the enemy lines the same piece from the other side the table cannot tell who holds it,
// and only a unit declared to hold it (`declarations: U: {holds: W}`) defends it. A stream bank is held
// from AT the stream against an enemy across it or in it (on both banks, both hold their own).
#include <string>
#include <vector>

#include "rules/fkoe/config.h"
#include "rules/geometry/base.h"
#include "rules/geometry/polygon.h"
#include "rules/scene/scene.h"

namespace vedette::fkoe {

// Share (0..1) of the base's area inside the polygon.
double AreaShareInside(const geom::Base& b, const geom::Polygon& piece);

// `unit` defends `piece` against `enemy` (both footprints); `from_at` allows holding it from at its edge;
// `unit_holds` / `enemy_holds`: declared to hold this piece.
bool DefendsPiece(const geom::Base& unit, const geom::Base& enemy, const geom::Polygon& piece, bool from_at,
                  const FkoeConfig& c, bool unit_holds = false, bool enemy_holds = false);

// The terrain ids a unit is declared to hold (`holds: W` or `holds: [W, X]`); throws InputError naming the
// line for anything but terrain ids of the scene.
std::vector<std::string> DeclaredHolds(const Scene& scene, const Unit& u);

// `unit` stands at the stream (within at_mm, not in it) and `enemy` is across it or in it: the straight
// line between their centres runs through the stream.
bool DefendsBank(const geom::Base& unit, const geom::Base& enemy, const geom::Polygon& stream, const FkoeConfig& c);

struct Defence {
  std::vector<std::string> strong_point_village_works;  // terrain ids: CV +1 (seed 13)
  std::vector<std::string> village_works;               // terrain ids: morale +2 (seed 60)
  std::vector<std::string> stream_banks;                // terrain ids: morale +2 (seed 62)
};

// The table's pieces of the kinds fkoe.yaml `defended_places` names, sorted out once per analysis:
// every unit asks this of every piece, for each enemy it fights.
class Places {
 public:
  Places(const Scene& scene, const FkoeConfig& c);
  // What `u` defends against `enemy`.
  Defence DefenceAgainst(const Unit& u, const Unit& enemy) const;
  // Villages and works (by area) that `u` is in, for a morale test with no enemy engaging it.
  std::vector<std::string> VillagesWorksHeld(const Unit& u) const;

 private:
  struct Piece {
    const Terrain* terrain = nullptr;
    bool strong = false, village = false, works = false, stream = false;
  };
  const Scene& scene_;
  const FkoeConfig& c_;
  std::vector<Piece> pieces_;  // the pieces of a defended kind, in scene order
};

}  // namespace vedette::fkoe
