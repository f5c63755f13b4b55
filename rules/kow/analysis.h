#pragma once
// Kings of War facts between two units, each a plain value the ruleset turns into its report: line of
// sight from the leader point (by unit and terrain heights), whether a charge can be declared and what
// it would hit, shooting targets with cover, and the 1-inch rule. Seed 002 line numbers in comments.
#include <optional>
#include <string>
#include <vector>

#include "rules/geometry/arcs.h"
#include "rules/geometry/sight.h"
#include "rules/kow/charge.h"
#include "rules/kow/config.h"
#include "rules/kow/counter_charge.h"
#include "rules/kow/nerve.h"
#include "rules/scene/scene.h"
#include "rules/unit_grid.h"

namespace vedette::kow {

// What the ruleset reads from a unit: stats speed_in, nerve_waver, nerve_rout, height, range_in or
// range_<weapon>_in; type general or tag `individual` = an individual.
struct Profile {
  std::optional<double> speed_in;          // in
  NerveValues nerve;
  double height = 0.0;                     // KoW height (stats `height`, else by type from kow.yaml)
  bool individual = false;
  std::vector<std::pair<std::string, double>> weapons;  // name ("range" for range_in), range in inches; sorted
  // The unit's profile for attacks (stats attacks, melee, ranged, defence; 4 = 4+): absent = not given.
  std::optional<int> attacks, melee, ranged, defence;
  bool war_engine = false;                 // type in cannot_charge (artillery)
};
Profile ProfileOf(const Unit& u, const KowConfig& c);

// What every check between two units reads about the table, worked out once per Analyze: the units'
// footprints and bounding circles in a grid (who is near whom), their profiles and outlines, and the
// difficult terrain. The checks below take it optionally (null: they work it out for the two units and
// scan the whole table, as a single check-move does); the results are the same either way.
struct KowTable {
  KowTable(const Scene& scene, const KowConfig& c);
  // The same table, but each unit i with same[i] takes its profile, outlines (their convexity and
  // circles), terrain overlaps and difficult share from unit i of `last` (moved out of it) instead of
  // working them out: the caller vouches that its own data (UnitKey) and the terrain are as they were
  // for `last`. A live table's frame reworks only the units that moved.
  KowTable(const Scene& scene, const KowConfig& c, KowTable* last, const std::vector<char>& same);
  const Scene* scene;
  UnitGrid grid;
  std::vector<Profile> profile;                      // by index into scene.units (placed units only)
  std::vector<std::vector<geom::Polygon>> outlines;  // each placed unit's bases, counter-clockwise
  // geom::ConvexForSight of each outline (unit i's from first_outline[i], in one list: a table is made
  // every call) and of each terrain piece, worked out once (sight asks it of every occluder it traces).
  std::vector<char> outline_convex;
  std::vector<size_t> first_outline;
  std::vector<char> terrain_convex;
  // kow::BoundingCircleOf each outline (indexed as outline_convex) and each terrain piece: the charge
  // searches' quick test, worked out once rather than in every search.
  std::vector<ShapeCircle> outline_circle;
  std::vector<ShapeCircle> terrain_circle;
  // What each terrain piece does to sight (kow.yaml's blocking_terrain and terrain_heights, looked up
  // by type name once here rather than in every trace): blocks it, or has this height, or neither.
  struct TerrainSight {
    bool blocks = false;
    std::optional<double> height;  // KoW height, when not blocking and given one
  };
  std::vector<TerrainSight> terrain_sight;
  std::vector<geom::Polygon> difficult;              // difficult terrain pieces
  std::vector<std::vector<char>> in_terrain;         // [unit][terrain piece]: the unit's footprint overlaps it
  std::vector<double> difficult_share;               // of each placed unit's footprint area in difficult terrain, 0..1
  // The index of `u` in scene.units, or -1 when `u` is not one of them (a copy).
  int IndexOf(const Unit& u) const;
};

// Line of sight from `viewer`'s leader point to the part of `target` in its front arc, past every other
// placed unit (individuals excepted, seed 77) and terrain. An occluder as high as both units blocks; a
// lower one is seen over and gives cover (seed 41). Tags index `Scene::units` (>= 0) or
// `Scene::terrain` (-1 - index).
// `need`: what the caller reads of the answer (geom::SightNeed): less than everything lets the trace stop
// early; `visible` is the same whatever it is. `fan`: ReachRegion(SightFan(leader point, target's
// footprint)) when the caller has it (below), else worked out here.
class ReachRegion;
geom::SightResult KowSight(const Scene& scene, const KowConfig& c, const Unit& viewer, const Unit& target, const KowTable* table = nullptr,
                           geom::SightNeed need = geom::SightNeed::kAll, const ReachRegion* fan = nullptr);

// Where every line of sight from `eye` to `target` runs: the convex hull of the eye and the target's
// corners (counter-clockwise). A unit outside it hides nothing of the target, wherever it moves.
geom::Polygon SightFan(const geom::Vec2& eye, const geom::Base& target);

// A convex region (a sight fan, a charge's route region) for the quick question "may this base reach
// into it": no when the base's bounding circle (1 mm to spare) lies beyond the region's bounding box
// or beyond the line of one of its edges. Near a corner the answer may be yes for a base just off it:
// the test errs on the side of looking, never of missing.
class ReachRegion {
 public:
  explicit ReachRegion(const geom::Polygon& convex_ccw);
  bool MayReach(const geom::Base& b) const;
  // Its edges' lines: normals()[k] . x <= offsets()[k] inside (unit normals, table mm).
  const std::vector<geom::Vec2>& normals() const { return normal_; }
  const std::vector<double>& offsets() const { return offset_; }

 private:
  geom::Vec2 lo_, hi_;                // bounding box, table mm
  std::vector<geom::Vec2> normal_;    // each edge's outward unit normal
  std::vector<double> offset_;        // normal . a point of the edge, mm
};
std::string OccluderName(const Scene& scene, int tag);

struct ChargeCheck {
  double front_arc_share = 0.0;   // of the target's area in the charger's front arc, 0..1
  bool visible = false;
  double distance_mm = 0.0;       // leader point to the target's closest point, mm
  geom::Vec2 closest_point{0, 0}; // on the target, table mm
  double range_mm = 0.0;          // range factor x speed, mm (0 without a speed)
  geom::Arc facing = geom::Arc::kFront;  // the target's arc holding the charger's leader point
  bool leader_on_arc_line = false;       // within the line tolerance of one of the target's arc lines
  std::optional<ChargeRoute> route;      // searched only when arc, sight and range allow
  bool hindered = false;                 // the route passes through difficult terrain (seed 53)
  std::vector<std::string> hindered_by;  // those terrain pieces' ids
  bool chargeable = false;
  std::vector<std::string> reasons;      // why not, in the seed's words
};
// `sight`: KowSight(scene, c, charger, target, table), when the caller has it (CheckShot's too).
// `same_route`: an earlier check of this charger on this target, both standing where they stand,
// whose route search read no obstacle that has moved since (ChargeRoute::read_in): its route (and
// Hindered, read from the route and the terrain) serves instead of a new search.
ChargeCheck CheckCharge(const Scene& scene, const KowConfig& c, const Unit& charger, const Unit& target,
                        const ChargeOptions& options = {}, const KowTable* table = nullptr,
                        const ChargeCheck* same_route = nullptr, const geom::SightResult* sight = nullptr);

// Seed 27: a unit charged by an enemy unit in the previous turn may counter-charge that unit (only it).
// Read from `declarations: U: {charged_by: X}` (or a list of ids); throws InputError naming the line for
// anything but placed enemy unit ids. Sorted, without duplicates.
std::vector<std::string> ChargedBy(const Scene& scene, const Unit& u);

// A counter-charge (seed 27): no line of sight and no front arc needed; every other charge rule holds
// (seed 27 "All rules that apply during a charge also apply"): leader point to base within twice the
// speed (seed 13), room to move (seed 13, 15), no corner to corner (seed 17), no war engines (seed 74).
// It always hits the target's front and is never Hindered (seed 53).
struct CounterChargeCheck {
  double distance_mm = 0.0;        // leader point (before the pivot) to the target's closest point, mm
  geom::Vec2 closest_point{0, 0};  // on the target, table mm
  double range_mm = 0.0;           // range factor x speed, mm (0 without a speed)
  geom::Arc leader_arc = geom::Arc::kFront;  // the target's arc holding the leader point (information only)
  std::optional<CounterChargeRoute> route;  // searched only when the range allows
  bool chargeable = false;
  std::vector<std::string> reasons;
};
CounterChargeCheck CheckCounterCharge(const Scene& scene, const KowConfig& c, const Unit& charger, const Unit& target,
                                      const ChargeOptions& options = {}, const KowTable* table = nullptr);

struct ShotCheck {
  bool in_arc = false;
  bool visible = false;
  double distance_mm = 0.0;   // closest base to base, mm
  bool in_range = false;
  bool cover = false;
  double difficult_share = 0.0;  // of the target's area in difficult terrain
  double hidden_share = 0.0;     // of the target seen from the leader point that is blocked or seen over something
  std::vector<std::string> cover_reasons;
  std::vector<std::string> obscured_by;  // occluders sight passes over
};
ShotCheck CheckShot(const Scene& scene, const KowConfig& c, const Unit& shooter, const Unit& target, double range_in,
                    const KowTable* table = nullptr, const geom::SightResult* sight = nullptr);

// Enemies within `c.contact_mm` (engaged in melee), sorted by id.
std::vector<std::string> EngagedWith(const Scene& scene, const KowConfig& c, const Unit& u);

}  // namespace vedette::kow
