#include "rules/totsk/totsk_after.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "rules/geometry/contact.h"
#include "rules/geometry/distance.h"
#include "rules/input_error.h"
#include "rules/json_object.h"
#include "rules/totsk/command_points.h"
#include "rules/totsk/totsk_dice.h"
#include "rules/totsk/totsk_units.h"

namespace vedette::totsk {

namespace {

std::string Signed(int v) { return (v >= 0 ? "+" : "") + std::to_string(v); }
std::string Pct(double p) { return std::to_string(static_cast<int>(std::lround(p * 100.0))) + "%"; }
std::string Num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}
std::string Join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}
// "+1 Raw, -1 General within 1BW (G1)"
std::string ModsText(const std::vector<Modifier>& mods) {
  std::string s;
  for (const Modifier& m : mods)
    s += (s.empty() ? "" : ", ") + Signed(m.value) + " " + m.rule + (m.by.empty() ? "" : " (" + Join(m.by) + ")");
  return s.empty() ? "no modifier" : s;
}
nlohmann::json ModsJson(const std::vector<Modifier>& mods) {
  nlohmann::json out = nlohmann::json::array();
  for (const Modifier& m : mods) out.push_back(JsonObject("rule", m.rule, "value", m.value, "by", m.by));
  return out;
}

bool LostItself(const Scene& scene, const Unit& u) {
  if (const Declared* d = scene.declarations.Find(u.id, "lost")) {
    if (!d->value.is_boolean()) throw InputError(scene.source, d->line, "declarations: " + u.id + ".lost must be true or false");
    if (d->value.get<bool>()) return true;
  }
  return scene.declarations.Routed(u.id);
}

// Lost, or a gun whose crew sheltered in a unit that is lost (QRS 93 "if that unit is lost then the gun
// is lost too").
bool Lost(const Scene& scene, const Unit& u) {
  if (LostItself(scene, u)) return true;
  if (const Declared* d = scene.declarations.Find(u.id, "crew_with"); d && d->value.is_string())
    if (const Unit* host = scene.FindUnit(d->value.get<std::string>())) return LostItself(scene, *host);
  return false;
}

std::string WingOf(const Scene& scene, const Unit& u) {
  const Declared* d = scene.declarations.Find(u.id, "wing");
  if (!d) return "";
  if (!d->value.is_string() || d->value.get<std::string>().empty())
    throw InputError(scene.source, d->line, "declarations: " + u.id + ".wing must be the wing's name (a word)");
  return d->value.get<std::string>();
}

bool ArmyCommander(const Unit& g) { return g.HasTag("army_commander") || g.HasTag("cinc"); }

// A line on a placed unit's card (nothing for a unit off the table).
void CardLine(const Unit& u, DrawStyle style, std::string text, std::vector<DrawPrimitive>* drawing) {
  if (!u.pose) return;
  DrawPrimitive p;
  p.kind = DrawKind::kLabel;
  p.style = style;
  p.points_mm = {Footprint(u).centre_mm};
  p.layer = style == DrawStyle::kInfo ? "labels" : "tests";
  p.unit_id = u.id;
  p.text = std::move(text);
  drawing->push_back(std::move(p));
}

}  // namespace

namespace {

// The steps of AnalyzeAfterCombat over one scene, each writing its part of the findings, the text and
// the cards in the order the players read them.
class AfterCombatWriter {
 public:
  AfterCombatWriter(const TotskData& d, const TotskSettings& s, const Scene& scene, bool words);
  AfterCombatFindings Run();

 private:
  size_t Index(const Unit& u) const { return static_cast<size_t>(&u - scene_.units.data()); }
  bool IsLost(const Unit& u) const { return lost_of_[Index(u)] != 0; }
  const std::string& Wing(const Unit& u) const { return wing_of_[Index(u)]; }
  void ReadDeclarations();
  void CrewShelter();
  std::string CrewShelterRefusal(const Unit& gun, const Unit& host, double* gap) const;
  void MoraleFails();
  void MoraleFailsOf(const Unit& u);
  void Pursuit();
  std::vector<std::string> FleeingFrom(const Unit& p, const std::vector<const Unit*>& breaking) const;
  void PursuitOf(const Unit& p, const std::vector<std::string>& fleeing);
  std::vector<Modifier> PursuitModifiers(const Unit& p, const geom::Base& pfp) const;
  void BonusMoves();
  void BonusMovesUnserved(const CommandPoints& cp);
  void SideMorale(const std::string& side);
  // One wing or army morale test: its required test, card and text; the chance of passing.
  double MoraleTest(const std::string& kind, const std::string& name, const Unit* cmd, const std::string& why,
                    const std::vector<std::string>& members);
  std::vector<std::string> Standing(const std::string& side, const std::string* wing) const;

  const TotskData& d_;
  const TotskSettings& s_;
  const Scene& scene_;
  const bool words_;
  const Tolerances& tol_;
  const AfterCombat& a_;
  const std::string& active_;
  AfterCombatFindings out_;
  std::ostringstream text_;
  // Each unit's declarations, loss and wing, read once (validating `lost` and `wing`): most units
  // declare nothing, and a look-up per key per unit was a quarter of this step on a 300-unit table.
  std::vector<const Declarations::Keys*> keys_;
  std::vector<char> lost_of_;
  std::vector<std::string> wing_of_;
};

AfterCombatWriter::AfterCombatWriter(const TotskData& d, const TotskSettings& s, const Scene& scene, bool words)
    : d_(d), s_(s), scene_(scene), words_(words), tol_(d.tolerances), a_(d.after), active_(scene.declarations.active_side) {
  out_.report = {{"pursuit", nlohmann::json::array()}, {"bonus_moves", nlohmann::json::array()},
                 {"wing_morale", nlohmann::json::array()}, {"army_morale", nlohmann::json::array()}};
}

AfterCombatFindings AfterCombatWriter::Run() {
  ReadDeclarations();
  CrewShelter();
  MoraleFails();
  Pursuit();
  BonusMoves();
  // Step 3: wing and army morale (QRS 105; QRS 11 "Passive player take Wing then Army morale tests").
  std::set<std::string> sides;
  for (const Unit& u : scene_.units) sides.insert(u.side);
  for (const std::string& side : sides)
    if (active_.empty() || side != active_) SideMorale(side);
  out_.text = text_.str();
  return std::move(out_);
}

void AfterCombatWriter::ReadDeclarations() {
  const size_t n = scene_.units.size();
  keys_.resize(n);
  lost_of_.resize(n);
  wing_of_.resize(n);
  for (size_t i = 0; i < n; ++i) {
    const Unit& u = scene_.units[i];
    keys_[i] = scene_.declarations.Of(u.id);
    if (!keys_[i]) continue;
    lost_of_[i] = Lost(scene_, u);
    wing_of_[i] = WingOf(scene_, u);
    if (const Declared* p = scene_.declarations.Find(u.id, "pursuit_bw"))
      if (!p->value.is_number() || !(p->value.get<double>() >= 0))
        throw InputError(scene_.source, p->line, "declarations: " + u.id + ".pursuit_bw must be a distance in BW >= 0");
  }
}

// Step 0: artillery crews sheltering (QRS 93 "the crew join a friendly unit within 2 BW and shelter
// within it ... The exact unit must be indicated and if that unit is lost then the gun is lost too").
void AfterCombatWriter::CrewShelter() {
  out_.report["crew_shelter"] = nlohmann::json::array();
  for (const Unit& gun : scene_.units) {
    const Declared* dcl = Declarations::Find(keys_[Index(gun)], "crew_with");
    if (!dcl) continue;
    const Unit* host = dcl->value.is_string() ? scene_.FindUnit(dcl->value.get<std::string>()) : nullptr;
    if (!host) throw InputError(scene_.source, dcl->line, "declarations: " + gun.id + ".crew_with must name a unit of the scene");
    double gap = -1.0;
    const std::string why = CrewShelterRefusal(gun, *host, &gap);
    nlohmann::json j = JsonObject("gun", gun.id,
                                  "with", host->id,
                                  "allowed", why.empty(),
                                  "gun_lost", IsLost(gun));
    if (gap >= 0) j["distance_bw"] = std::round(gap / scene_.BwFor(gun) * 100.0) / 100.0;
    if (!why.empty()) j["why_not"] = why;
    out_.report["crew_shelter"].push_back(j);
    CardLine(gun, why.empty() ? DrawStyle::kInfo : DrawStyle::kTest,
             why.empty() ? "crew shelter in " + host->id + " (QRS 93)" : "crew cannot shelter in " + host->id + ": " + why, &out_.drawing);
    if (why.empty())
      text_ << "  " << gun.id << "'s crew shelter in " << host->id << " (within " << Num(a_.crew_shelter_bw)
            << " BW, QRS 93): the gun stays; if " << host->id << " is lost the gun is lost too"
            << (LostItself(scene_, *host) ? " (it is: " + gun.id + " is lost)" : "") << "\n";
    else
      text_ << "  " << gun.id << "'s crew cannot shelter in " << host->id << " (QRS 93: a friendly unit within "
            << Num(a_.crew_shelter_bw) << " BW): " << why << "\n";
  }
}

// Why the gun's crew may not shelter in `host` ("" when they may); *gap: the bases' distance, mm,
// when it was measured (else left as it was).
std::string AfterCombatWriter::CrewShelterRefusal(const Unit& gun, const Unit& host, double* gap) const {
  if (gun.type != UnitType::kArtillery) return gun.id + " is not artillery";
  if (host.side != gun.side) return host.id + " is not a friendly unit";
  if (IsGeneral(host) || host.type == UnitType::kArtillery) return host.id + " is not a unit the crew can join";
  if (!gun.pose || !host.pose) return "not both on the table";
  *gap = geom::BaseToBase(Footprint(gun), Footprint(host)).distance_mm;
  if (*gap > a_.crew_shelter_bw * scene_.BwFor(gun) + tol_.line_mm)
    return host.id + " is " + Num(std::round(*gap / scene_.BwFor(gun) * 100.0) / 100.0) + " BW away, beyond " +
           Num(a_.crew_shelter_bw) + " BW";
  return "";
}

// Step 0b: how many morale fails each unit can lose (FAQ "Number of morale fails"; FAQ 324 "If the unit
// fails its morale test (result of 4 to 7) and lose its last morale fail, the unit is destroyed").
void AfterCombatWriter::MoraleFails() {
  out_.report["morale_fails"] = nlohmann::json::array();
  for (const Unit& u : scene_.units)
    if (!IsGeneral(u)) MoraleFailsOf(u);
}

void AfterCombatWriter::MoraleFailsOf(const Unit& u) {
  const Declared* lost_d = Declarations::Find(keys_[Index(u)], "fails_lost");
  int lost_fails = 0;
  if (lost_d) {
    const double v = lost_d->value.is_number() ? lost_d->value.get<double>() : -1.0;
    if (v < 0 || v != std::floor(v) || v > 100)
      throw InputError(scene_.source, lost_d->line, "declarations: " + u.id + ".fails_lost must be a whole number >= 0");
    lost_fails = static_cast<int>(v);
  }
  std::vector<Modifier> mods;
  for (const auto& [tag, v] : a_.morale_fails_tags)
    if (u.HasTag(tag)) mods.push_back({tag, v, {}});
  const auto stat = u.stats.find("morale_fails");
  // Listed: units with something to say (a loss declared, a tag or a stat changing the number); every
  // other infantry unit has the FAQ's 3.
  if (!lost_d && mods.empty() && stat == u.stats.end()) return;
  std::optional<int> base;
  std::string source;
  if (stat != u.stats.end()) {
    base = static_cast<int>(std::lround(stat->second));
    source = "stats";
  } else if (auto b = a_.morale_fails_base.find(std::string(ToString(u.type))); b != a_.morale_fails_base.end()) {
    base = b->second;
    source = "FAQ";
  }
  nlohmann::json j = JsonObject("unit", u.id, "fails_lost", lost_fails);
  if (!base) {
    j["fails"] = nullptr;
    j["why"] = "the sheets give no number of morale fails for " + std::string(ToString(u.type)) + " (stats: morale_fails)";
    out_.report["morale_fails"].push_back(j);
    text_ << "  " << u.id << " has lost " << lost_fails << " morale fail" << (lost_fails == 1 ? "" : "s") << "; "
          << j["why"].get<std::string>() << "\n";
    return;
  }
  int fails = *base;
  for (const Modifier& m : mods) fails += m.value;
  fails = std::max(fails, 1);
  j["fails"] = fails;
  j["base"] = *base;
  j["source"] = source;
  j["modifiers"] = ModsJson(mods);
  j["left"] = std::max(0, fails - lost_fails);
  out_.report["morale_fails"].push_back(j);
  if (!lost_d) return;
  const bool last = lost_fails + 1 >= fails;
  CardLine(u, last ? DrawStyle::kTest : DrawStyle::kInfo,
           "morale fails lost: " + std::to_string(lost_fails) + " of " + std::to_string(fails) +
               (last ? ": another destroys it (FAQ 324)" : ""),
           &out_.drawing);
  std::string why = (source == "FAQ" ? std::string(ToString(u.type)) + " " : "its stats: ") + std::to_string(*base);
  for (const Modifier& m : mods) why += " " + Signed(m.value) + " " + m.rule;
  text_ << "  " << u.id << " can lose " << fails << " morale fail" << (fails == 1 ? "" : "s") << " (" << why
        << ", FAQ \"Number of morale fails\") and has lost " << lost_fails
        << (last ? ": losing another destroys it (FAQ 324)" : "") << "\n";
}

// Step 1: pursuit (QRS 97; QRS 10 "Active player Pursuit"). A unit may pursue when an enemy it touches
// routs (declared routed) or, being cavalry that failed its test, must break off (QRS 95).
// The units that flee first (a handful), then who touches them.
void AfterCombatWriter::Pursuit() {
  std::vector<const Unit*> breaking;
  for (const Unit& e : scene_.units)
    if (e.pose && !IsGeneral(e) && keys_[Index(e)] &&
        (scene_.declarations.Routed(e.id) || (e.type == UnitType::kCavalry && scene_.declarations.Flag(e.id, "failed_morale"))))
      breaking.push_back(&e);
  for (const Unit& p : scene_.units) {
    if (breaking.empty()) break;
    if (!p.pose || IsGeneral(p)) continue;
    if (!active_.empty() && p.side != active_) continue;
    if (s_.pursuit != "qrs" && p.type != UnitType::kCavalry) continue;
    if (scene_.declarations.Routed(p.id)) continue;
    const std::vector<std::string> fleeing = FleeingFrom(p, breaking);
    if (!fleeing.empty()) PursuitOf(p, fleeing);
  }
}

// The breaking enemies that unit p touches.
std::vector<std::string> AfterCombatWriter::FleeingFrom(const Unit& p, const std::vector<const Unit*>& breaking) const {
  const geom::Base pfp = Footprint(p);
  const double pr = std::hypot(pfp.width_mm, pfp.depth_mm) / 2.0;
  std::vector<std::string> fleeing;
  for (const Unit* e : breaking) {
    if (e->side == p.side) continue;
    const geom::Base efp = Footprint(*e);
    // Bounding circles apart by more than the contact slack: not touching.
    if ((efp.centre_mm - pfp.centre_mm).norm() - pr - std::hypot(efp.width_mm, efp.depth_mm) / 2.0 > tol_.contact_mm) continue;
    if (geom::FindContact(pfp, efp, tol_.contact_mm).in_contact) fleeing.push_back(e->id);
  }
  return fleeing;
}

std::vector<Modifier> AfterCombatWriter::PursuitModifiers(const Unit& p, const geom::Base& pfp) const {
  std::vector<Modifier> mods;
  auto add = [&](const char* key, std::vector<std::string> by = {}) {
    const MoraleModifierSpec& m = a_.pursuit_modifiers.at(key);
    mods.push_back({m.rule, m.value, std::move(by)});
  };
  if (p.HasTag("raw")) add("raw");
  if (p.HasTag("british")) add("british");
  std::vector<std::string> generals;
  for (const Unit& g : scene_.units)
    if (g.pose && IsGeneral(g) && g.side == p.side &&
        geom::BasesWithin(pfp, Footprint(g), a_.pursuit_general_bw * scene_.BwFor(p) + tol_.line_mm))
      generals.push_back(g.id);
  if (!generals.empty()) add("general_near", generals);
  if (p.HasTag("wavering")) add("wavering");
  return mods;
}

void AfterCombatWriter::PursuitOf(const Unit& p, const std::vector<std::string>& fleeing) {
  const std::vector<Modifier> mods = PursuitModifiers(p, Footprint(p));
  int total = 0;
  for (const Modifier& m : mods) total += m.value;
  std::vector<Modifier> dmods;
  for (const char* key : {"british", "trained", "elite"})
    if (p.HasTag(key)) {
      const MoraleModifierSpec& m = a_.pursuit_distance_modifiers.at(key);
      dmods.push_back({m.rule, m.value, {}});
    }
  int dtotal = 0;
  for (const Modifier& m : dmods) dtotal += m.value;
  const double p_pursue = ActionSuccess(total, a_.pursuit_need);
  const int dmin = std::max(0, 1 + dtotal), dmax = std::max(0, 6 + dtotal);
  RequiredTest t;
  t.unit = p.id;
  t.kind = "pursuit";
  t.reason = "may pursue " + Join(fleeing) + ": pursues on 1D6 " + Signed(total) + " >= " + std::to_string(a_.pursuit_need) + " (QRS 97)";
  t.modifiers = mods;
  t.total = total;
  t.p_success = p_pursue;
  t.odds = "pursues " + Pct(p_pursue);
  CardLine(p, DrawStyle::kTest, "may pursue " + Join(fleeing) + ": " + Pct(p_pursue) + ", " + std::to_string(dmin) + "-" +
                                    std::to_string(dmax) + " BW (QRS 97)", &out_.drawing);
  out_.tests.push_back(t);
  const double bw = scene_.BwFor(p);
  out_.report["pursuit"].push_back(JsonObject("unit", p.id,
                                              "after", fleeing,
                                              "need", a_.pursuit_need,
                                              "modifiers", ModsJson(mods),
                                              "total", total,
                                              "p_pursue", p_pursue,
                                              "distance_modifiers", ModsJson(dmods),
                                              "distance_bw", JsonObject("min", dmin, "max", dmax),
                                              "distance_mm", JsonObject("min", dmin * bw, "max", dmax * bw)));
  text_ << "  " << p.id << " may pursue " << Join(fleeing) << " (QRS 97): pursues on 1D6 " << Signed(total) << " >= "
        << a_.pursuit_need << " (" << ModsText(mods) << "): " << Pct(p_pursue) << "; if it does, 1D6 " << Signed(dtotal)
        << " BW (" << ModsText(dmods) << "): " << dmin << " to " << dmax << " BW (" << Num(dmin * bw) << " to "
        << Num(dmax * bw) << " mm), straight ahead; then it counts as pursued (-1 if it meets a fresh enemy)\n";
}

// Step 2: the generals' bonus moves and action tests (QRS 103): one per level, for units within 6 BW.
// Units declared `bonus_move: true` are matched to the generals' points (each point serves one unit).
void AfterCombatWriter::BonusMoves() {
  std::vector<std::string> declared;
  for (const Unit& u : scene_.units)
    if (u.pose && !IsGeneral(u) && Declarations::Flag(keys_[Index(u)], "bonus_move")) declared.push_back(u.id);
  const CommandPoints cp = MatchCommandPoints(scene_, declared, {a_.bonus_general_bw, tol_.line_mm, words_},
                                              [&](const Unit& u) { return IsLost(u); });
  for (const CommandPoints::General& cg : cp.generals) {
    const Unit& g = *cg.unit;
    const int rating = Rating(g);
    if (words_)  // the frame path reads the cards, not the report
      out_.report["bonus_moves"].push_back(JsonObject("general", g.id,
                                                      "side", g.side,
                                                      "rating", rating,
                                                      "reach_bw", a_.bonus_general_bw,
                                                      "units_within", cg.in_reach,
                                                      "declared_bonus_moves", cg.used_by));
    if ((!active_.empty() && g.side != active_) || rating <= 0) continue;
    CardLine(g, DrawStyle::kInfo,
             std::to_string(rating) + " bonus move" + (rating == 1 ? "" : "s") + " (QRS 103)" +
                 (cg.used_by.empty() ? "" : ": used by " + Join(cg.used_by)),
             &out_.drawing);
    text_ << "  " << g.id << " (rating " << rating << "): " << rating << " bonus move" << (rating == 1 ? "" : "s")
          << " or action test" << (rating == 1 ? "" : "s") << " this turn for units within " << Num(a_.bonus_general_bw)
          << " BW (QRS 103): " << (cg.in_reach.empty() ? "none in reach" : Join(cg.in_reach));
    if (!cg.used_by.empty()) text_ << "; used by " << Join(cg.used_by);
    text_ << "\n";
  }
  BonusMovesUnserved(cp);
  if (!declared.empty())
    text_ << "  units that made a bonus move cause no morale test and give no morale modifier next turn (QRS 103): "
          << Join(declared) << "\n";
}

void AfterCombatWriter::BonusMovesUnserved(const CommandPoints& cp) {
  for (const std::string& id : cp.unserved) {
    const bool none = !cp.servers.count(id);
    CardLine(*scene_.FindUnit(id), DrawStyle::kIllegal,
             none ? "bonus move: no General with a rating within " + Num(a_.bonus_general_bw) + " BW (QRS 103)"
                  : "bonus move: the Generals in reach have no point left (QRS 103)",
             &out_.drawing);
    out_.report["bonus_moves_unserved"].push_back(id);
    text_ << "  " << id << " is declared to have made a bonus move, but "
          << (none ? "no General with a rating is within " + Num(a_.bonus_general_bw) + " BW of it"
                   : "the Generals within " + Num(a_.bonus_general_bw) + " BW of it have no point left")
          << " (QRS 103: one per level of the General)\n";
  }
}

double AfterCombatWriter::MoraleTest(const std::string& kind, const std::string& name, const Unit* cmd, const std::string& why,
                                     const std::vector<std::string>& members) {
  std::vector<Modifier> mods;
  if (cmd && Rating(*cmd) != 0 && !IsLost(*cmd)) mods.push_back({"commander's rating", Rating(*cmd), {cmd->id}});
  const int total = mods.empty() ? 0 : mods[0].value;
  const double p = ActionSuccess(total, a_.army_need);
  const std::string level = kind == "wing_morale" ? "wing" : "army";
  RequiredTest t;
  // The test hangs on the commander, else on the first placed unit of the wing or army.
  if (cmd && cmd->pose) t.unit = cmd->id;
  for (const std::string& id : members)
    if (t.unit.empty() && scene_.FindUnit(id)->pose) t.unit = id;
  t.kind = kind;
  t.reason = name + " has " + why + ": " + level + " morale test, 1D6 " + Signed(total) + " >= " + std::to_string(a_.army_need) + " (QRS 105)";
  t.modifiers = mods;
  t.total = total;
  t.p_success = p;
  t.odds = "pass " + Pct(p);
  if (!t.unit.empty()) {
    CardLine(*scene_.FindUnit(t.unit), DrawStyle::kTest, level + " morale test: " + t.odds + " (QRS 105)", &out_.drawing);
    out_.tests.push_back(t);
  }
  text_ << "  " << name << " has " << why << ": " << level << " morale test, 1D6 " << Signed(total) << " >= " << a_.army_need
        << " (QRS 105; " << (cmd ? ModsText(mods) : "no commander declared") << "): pass " << Pct(p)
        << (kind == "wing_morale" ? "; if it fails, all its units are removed (FAQ)" : "") << "; it tests again every turn after\n";
  return p;
}

// The units of `side` (of `wing` when given) still standing, in scene order.
std::vector<std::string> AfterCombatWriter::Standing(const std::string& side, const std::string* wing) const {
  std::vector<std::string> members;
  for (const Unit& u : scene_.units)
    if (u.side == side && !IsGeneral(u) && (!wing || Wing(u) == *wing) && !IsLost(u)) members.push_back(u.id);
  return members;
}

void AfterCombatWriter::SideMorale(const std::string& side) {
  std::map<std::string, std::pair<int, int>> wings;  // wing -> (units, lost)
  int units = 0, lost = 0;
  const Unit* army_cmd = nullptr;
  std::map<std::string, const Unit*> wing_cmd;
  for (const Unit& u : scene_.units) {
    if (u.side != side) continue;
    const std::string& w = Wing(u);
    if (IsGeneral(u)) {
      if (ArmyCommander(u) && !army_cmd) army_cmd = &u;
      else if (!w.empty() && !wing_cmd.count(w)) wing_cmd[w] = &u;
      continue;
    }
    const bool l = IsLost(u);
    ++units;
    lost += l;
    if (!w.empty()) wings[w].first += 1, wings[w].second += l;
  }
  if (units == 0) return;
  int wings_lost = 0;
  for (const auto& [w, n] : wings) {
    const bool gone = n.second == n.first;
    wings_lost += gone;
    const bool tests = !gone && n.second >= a_.army_lost_share * n.first - 1e-9;
    const Unit* cmd = wing_cmd.count(w) ? wing_cmd[w] : nullptr;
    nlohmann::json j = JsonObject("side", side, "wing", w, "units", n.first, "lost", n.second, "tests", tests, "all_lost", gone);
    j["commander"] = cmd ? nlohmann::json(cmd->id) : nlohmann::json(nullptr);
    if (tests)
      j["p_pass"] = MoraleTest("wing_morale", side + " wing " + w, cmd,
                               "lost " + std::to_string(n.second) + " of its " + std::to_string(n.first) + " units", Standing(side, &w));
    out_.report["wing_morale"].push_back(j);
  }
  // The army: QRS "lost half of its units"; FAQ "the army has lost half or more of its wings".
  const bool by_wings = s_.army_morale != "qrs" && !wings.empty();
  const int n = by_wings ? static_cast<int>(wings.size()) : units;
  const int l = by_wings ? wings_lost : lost;
  const bool tests = l >= a_.army_lost_share * n - 1e-9 && lost < units;
  nlohmann::json j = JsonObject("side", side, "counts", by_wings ? "wings" : "units", "of", n, "lost", l, "tests", tests);
  j["commander"] = army_cmd ? nlohmann::json(army_cmd->id) : nlohmann::json(nullptr);
  if (tests) {
    const std::string why = "lost " + std::to_string(l) + " of its " + std::to_string(n) + (by_wings ? " wings" : " units") +
                            (by_wings ? " (FAQ \"ARMY MORALE TEST\"; --set army_morale=qrs counts units)"
                                      : s_.army_morale != "qrs" ? " (no wings declared)" : " (QRS 105)");
    j["p_pass"] = MoraleTest("army_morale", side + " army", army_cmd, why, Standing(side, nullptr));
  }
  out_.report["army_morale"].push_back(j);
}

}  // namespace

AfterCombatFindings AnalyzeAfterCombat(const TotskData& d, const TotskSettings& s, const Scene& scene, bool words) {
  return AfterCombatWriter(d, s, scene, words).Run();
}

}  // namespace vedette::totsk
