#include "rules/states/unit_states.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "rules/geometry/contact.h"
#include "rules/geometry/distance.h"
#include "rules/geometry/sweep.h"
#include "rules/input_error.h"

namespace vedette::states {

const UnitState* StateTable::Find(const std::string& id) const {
  for (const UnitState& u : units)
    if (u.unit == id) return &u;
  return nullptr;
}

namespace {

int Severity(const std::vector<std::string>& list, const std::string& s) {
  return static_cast<int>(std::find(list.begin(), list.end(), s) - list.begin());
}

bool Allowed(const StatesConfig& c, const std::string& type, const std::string& what) {
  if (auto m = c.markers.find(what); m != c.markers.end()) return m->second.count(type) > 0;
  auto s = c.states.find(type);
  return s != c.states.end() && std::find(s->second.begin(), s->second.end(), what) != s->second.end();
}

std::string AllowedList(const StatesConfig& c, const std::string& type) {
  std::string out;
  for (const std::string& s : c.states.at(type)) out += (out.empty() ? "" : ", ") + s;
  return out;
}

// A token goes to the nearest placed base within reach (none when two are as near).
TokenAssignment AssignToken(const Token& t, const std::string& meaning, const std::vector<const Unit*>& units,
                            const StatesConfig& c) {
  TokenAssignment a{t, meaning, "", std::numeric_limits<double>::infinity(), ""};
  bool tie = false;
  for (const Unit* u : units) {
    if (!u->pose) continue;
    for (const geom::Base& b : BasesOf(*u)) {
      const double d = geom::BaseToPoint(b, {t.x_mm, t.y_mm}).distance_mm;
      if (d < a.distance_mm - 1e-9) {
        a.distance_mm = d;
        a.unit = u->id;
        tie = false;
      } else if (std::abs(d - a.distance_mm) <= 1e-9 && u->id != a.unit) {
        tie = true;
      }
    }
  }
  if (a.unit.empty() || a.distance_mm > c.token_max_distance_mm) {
    a.note = "no unit within " + std::to_string(static_cast<int>(c.token_max_distance_mm)) + " mm";
    a.unit.clear();
  } else if (tie) {
    a.note = "as near to two units: ignored";
    a.unit.clear();
  }
  if (!std::isfinite(a.distance_mm)) a.distance_mm = 0.0;
  return a;
}

// The unit's state from its tokens (the most severe counts), and its firing and limbered markers.
void ApplyTokens(const StatesConfig& c, std::vector<TokenAssignment>* tokens, UnitState* s) {
  const std::vector<std::string>& list = c.states.at(s->type);
  std::string token_state, token_source;
  for (TokenAssignment& a : *tokens) {
    if (a.unit != s->unit) continue;
    if (!Allowed(c, s->type, a.meaning)) {
      a.note = s->type + " cannot be " + a.meaning + ": ignored";
      s->notes.push_back("token " + std::to_string(a.token.marker) + " (" + a.meaning + ") ignored: " + s->type + " cannot be " + a.meaning);
      continue;
    }
    if (a.meaning == "firing") s->firing = true;
    else if (a.meaning == "limbered") s->limbered = true;
    else if (token_state.empty() || Severity(list, a.meaning) > Severity(list, token_state)) {
      if (!token_state.empty()) s->notes.push_back("tokens " + token_state + " and " + a.meaning + ": the more severe counts");
      token_state = a.meaning;
      token_source = "token " + std::to_string(a.token.marker);
    }
  }
  if (token_state.empty()) return;
  s->state = token_state;
  s->state_source = token_source;
}

// What the players declared overrides the tokens.
void ApplyDeclarations(const Scene& scene, const StatesConfig& c, UnitState* s) {
  const std::string& type = s->type;
  if (const Declared* d = scene.declarations.Find(s->unit, "state")) {
    const std::string v = d->value.is_string() ? d->value.get<std::string>() : d->value.dump();
    if (!Allowed(c, type, v))
      throw InputError(scene.source, d->line, "unit " + s->unit + ": state '" + v + "' is not one of " + type + "'s (" + AllowedList(c, type) + ")");
    if (s->state_source.rfind("token ", 0) == 0 && s->state != v)
      s->notes.push_back("declared " + v + " overrides " + s->state_source + " (" + s->state + ")");
    s->state = v;
    s->state_source = "declared";
  }
  for (const char* marker : {"firing", "limbered"}) {
    const Declared* d = scene.declarations.Find(s->unit, marker);
    if (!d) continue;
    if (!d->value.is_boolean()) throw InputError(scene.source, d->line, "unit " + s->unit + ": " + marker + " must be true or false");
    const bool on = d->value.get<bool>();
    if (on && !Allowed(c, type, marker)) throw InputError(scene.source, d->line, "unit " + s->unit + ": " + type + " cannot be " + marker);
    (std::string(marker) == "firing" ? s->firing : s->limbered) = on;
  }
}

}  // namespace

StateTable ResolveStates(const Scene& scene, const StatesConfig& c) {
  StateTable table;
  std::vector<const Unit*> units;
  for (const Unit& u : scene.units)
    if (c.states.count(std::string(ToString(u.type)))) units.push_back(&u);
  std::sort(units.begin(), units.end(), [](const Unit* a, const Unit* b) { return a->id < b->id; });
  for (const Token& t : scene.tokens)
    if (auto id = c.token_ids.find(t.marker); id != c.token_ids.end()) table.tokens.push_back(AssignToken(t, id->second, units, c));
  // Each unit's state: declared, else the most severe token, else the default.
  for (const Unit* u : units) {
    const std::string type(ToString(u->type));
    UnitState s{u->id, type, c.states.at(type).front(), "default", false, u->formation == "limbered", {}};
    ApplyTokens(c, &table.tokens, &s);
    ApplyDeclarations(scene, c, &s);
    table.units.push_back(s);
  }
  return table;
}

std::vector<PassThrough> PassedThrough(const Scene& scene, const StatesConfig& c, const StateTable& table,
                                       const Unit& fleeing, const std::vector<Pose>& path) {
  std::vector<PassThrough> out;
  if (path.size() < 2) return out;
  // The ground swept by the fleeing unit's outline along the path.
  std::vector<geom::Polygon> swept;
  auto at = [&](const Pose& p) {
    Unit moved = fleeing;
    moved.pose = p;
    return Footprint(moved);
  };
  for (size_t i = 0; i + 1 < path.size(); ++i)
    for (geom::Polygon& piece : geom::SweptBetween(at(path[i]), at(path[i + 1])))
      swept.push_back(std::move(piece));
  for (const UnitState& s : table.units) {
    if (s.unit == fleeing.id) continue;
    const Unit* u = scene.FindUnit(s.unit);
    if (!u || !u->pose) continue;
    double overlap = 0.0;
    for (const geom::Base& b : BasesOf(*u))
      for (const geom::Polygon& piece : swept) overlap = std::max(overlap, geom::OverlapArea(b, piece));
    if (overlap <= c.pass_through_min_overlap_mm2) continue;
    std::string after = s.state;
    if (auto t = c.pass_through.find(s.type); t != c.pass_through.end())
      if (auto n = t->second.find(s.state); n != t->second.end()) after = n->second;
    out.push_back({s.unit, s.state, after, overlap});
  }
  return out;
}

std::vector<std::string> ArtilleryChargedFromTheFront(const Scene& scene, const StateTable& table, const Unit& mover,
                                                      const Pose& to) {
  std::vector<std::string> out;
  Unit moved = mover;
  moved.pose = to;
  const geom::Base front = Footprint(moved);
  for (const UnitState& s : table.units) {
    if (s.type != "artillery" || s.firing || s.state == "silenced" || s.unit == mover.id) continue;
    const Unit* gun = scene.FindUnit(s.unit);
    if (!gun || !gun->pose || gun->side == mover.side) continue;
    const geom::Contact c = geom::FindContact(front, Footprint(*gun));
    // Edge to edge, not a corner brushing past: the charger's front on the guns' front.
    if (c.in_contact && !c.corner_only && c.edge_a == geom::Edge::kFront && c.edge_b == geom::Edge::kFront)
      out.push_back(s.unit);
  }
  return out;
}

}  // namespace vedette::states
