#include "rules/scene/synthetic_table.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "rules/geometry/distance.h"

namespace vedette {

namespace {

// SplitMix64: small, fast and the same everywhere.
struct Rng {
  uint64_t s;
  uint64_t Next() {
    uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  double Uniform(double lo, double hi) { return lo + (hi - lo) * (Next() >> 11) * (1.0 / 9007199254740992.0); }
  int Int(int lo, int hi) { return lo + static_cast<int>(Next() % static_cast<uint64_t>(hi - lo + 1)); }
};

bool Clear(const Scene& scene, const Unit& u, double gap_mm) {
  const geom::Base b = Footprint(u);
  const double r = std::hypot(b.width_mm, b.depth_mm) / 2.0;
  for (const Unit& o : scene.units) {
    const geom::Base ob = Footprint(o);
    if ((ob.centre_mm - b.centre_mm).norm() > r + std::hypot(ob.width_mm, ob.depth_mm) / 2.0 + gap_mm) continue;
    const geom::ClosestPoints c = geom::BaseToBase(b, ob);
    if (c.overlap || c.distance_mm < gap_mm) return false;
  }
  return true;
}

}  // namespace

bool SyntheticTableOptions::Check(std::string* error) const {
  auto fail = [&](const char* what) {
    if (error) *error = what;
    return false;
  };
  if (units < 0 || units > 100000) return fail("units must be in [0, 100000]");
  if (!(table_width_mm >= 200 && table_depth_mm >= 200)) return fail("the table must be at least 200 x 200 mm");
  if (!(bw_mm > 0)) return fail("bw_mm must be > 0");
  if (!(contact_share >= 0 && contact_share <= 1)) return fail("contact_share must be in [0, 1]");
  if (terrain_pieces < 0) return fail("terrain_pieces must be >= 0");
  return true;
}

namespace {

// Terrain first (units may stand in it): hexagons of woods, rough, hills, villages and marsh.
void AddTerrain(const SyntheticTableOptions& o, Rng& rng, Scene* scene) {
  const char* kinds[] = {"woods", "rough", "hill", "village", "woods", "marsh"};
  for (int i = 0; i < o.terrain_pieces; ++i) {
    const double cx = rng.Uniform(100, o.table_width_mm - 100), cy = rng.Uniform(100, o.table_depth_mm - 100);
    const double rx = rng.Uniform(40, 110), ry = rng.Uniform(40, 110);
    Terrain t;
    t.id = "T" + std::to_string(i + 1);
    t.type = kinds[i % 6];
    for (int k = 0; k < 6; ++k) {
      const double a = k * std::numbers::pi / 3.0;
      t.polygon.push_back({cx + rx * std::cos(a), cy + ry * std::sin(a)});
    }
    scene->terrain.push_back(t);
  }
}

// A unit of a random type, tags, formation, base and stats (no id, no pose yet).
Unit RandomUnit(const SyntheticTableOptions& o, Rng& rng, bool is_blue) {
  Unit u;
  u.side = is_blue ? "blue" : "red";
  const int roll = rng.Int(0, 99);
  double w = o.bw_mm, d = o.bw_mm / 2.0;
  if (roll < 60) {
    u.type = UnitType::kInfantry;
    if (roll < 12) u.tags.push_back("light");
    if (rng.Int(0, 9) == 0) u.formation = "column";
  } else if (roll < 80) {
    u.type = UnitType::kCavalry;
    d = o.bw_mm * 0.75;
    if (rng.Int(0, 4) == 0) u.tags.push_back("light");
  } else if (roll < 92) {
    u.type = UnitType::kArtillery;
    d = o.bw_mm;
    u.formation = rng.Int(0, 4) == 0 ? "limbered" : "unlimbered";
  } else if (roll < 96) {
    u.type = UnitType::kGeneral;
    w = d = o.bw_mm * 0.6;
  } else {
    u.type = UnitType::kInfantry;
    u.tags.push_back(rng.Int(0, 1) ? "elite" : "raw");
  }
  u.bases = {BaseSpec{w, d, {0.0, 0.0}}};
  // Kings of War and For King or Empress numbers.
  u.stats["speed_in"] = u.type == UnitType::kCavalry ? 8 : u.type == UnitType::kGeneral ? 10 : u.type == UnitType::kArtillery ? 5 : 6;
  u.stats["nerve_waver"] = rng.Int(10, 14);
  u.stats["nerve_rout"] = u.stats["nerve_waver"] + 2;
  if (u.type == UnitType::kArtillery) u.stats["range_in"] = 48;
  else if (u.type == UnitType::kInfantry && rng.Int(0, 2) == 0) u.stats["range_in"] = rng.Int(0, 1) ? 24 : 18;
  u.stats["combat_value"] = rng.Int(3, 7);
  return u;
}

// Where unit u stands: into contact with the front of a random enemy (a share of the units), else in
// its army's half; none when the unit drawn to be contacted is a friend or a general.
std::optional<Pose> RandomPose(const SyntheticTableOptions& o, Rng& rng, const Scene& scene, const Unit& u, bool is_blue) {
  const double w = u.bases[0].width_mm, d = u.bases[0].depth_mm;
  const double facing = is_blue ? 90.0 : -90.0;
  if (rng.Uniform(0, 1) < o.contact_share && !scene.units.empty()) {
    // Facing it, a gap of 0..1 mm.
    const Unit& e = scene.units[rng.Int(0, static_cast<int>(scene.units.size()) - 1)];
    if (e.side == u.side || e.type == UnitType::kGeneral) return std::nullopt;
    const geom::Base eb = Footprint(e);
    const geom::Vec2 fwd = geom::HeadingVector(eb.heading_deg);
    const geom::Vec2 c = eb.centre_mm + fwd * (eb.depth_mm / 2.0 + d / 2.0 + rng.Uniform(0, 1)) +
                         geom::HeadingVector(eb.heading_deg - 90.0) * rng.Uniform(-w / 3, w / 3);
    return Pose{c.x(), c.y(), eb.heading_deg + 180.0};
  }
  // Each army mostly in its own half, the middle mixed.
  const double y = is_blue ? rng.Uniform(40, o.table_depth_mm * 0.6) : rng.Uniform(o.table_depth_mm * 0.4, o.table_depth_mm - 40);
  const double heading = rng.Int(0, 9) == 0 ? rng.Uniform(-180, 180) : facing + rng.Uniform(-30, 30);
  return Pose{rng.Uniform(40, o.table_width_mm - 40), y, heading};
}

}  // namespace

Scene MakeSyntheticTable(const SyntheticTableOptions& o) {
  Rng rng{o.seed * 0x2545F4914F6CDD1Dull + 1};
  Scene scene;
  scene.source = "synthetic table (seed " + std::to_string(o.seed) + ")";
  scene.bw_mm = o.bw_mm;
  scene.table_width_mm = o.table_width_mm;
  scene.table_depth_mm = o.table_depth_mm;
  scene.sides = {{"blue", 0.0, ""}, {"red", 0.0, ""}};
  AddTerrain(o, rng, &scene);
  int blue = 0, red = 0;
  for (int attempt = 0; static_cast<int>(scene.units.size()) < o.units && attempt < 200 * std::max(1, o.units); ++attempt) {
    const bool is_blue = (blue + red) % 2 == 0;
    Unit u = RandomUnit(o, rng, is_blue);
    const std::optional<Pose> p = RandomPose(o, rng, scene, u, is_blue);
    if (!p) continue;
    u.pose = *p;
    if (!Clear(scene, u, 0.0)) continue;
    u.id = (is_blue ? "B" : "R") + std::to_string(is_blue ? ++blue : ++red);
    scene.units.push_back(std::move(u));
  }
  return scene;
}

}  // namespace vedette
