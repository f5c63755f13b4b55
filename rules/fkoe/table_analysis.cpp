#include "rules/fkoe/table_analysis.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "rules/fkoe/places.h"
#include "rules/geometry/contact.h"
#include "rules/geometry/corridor.h"
#include "rules/geometry/coverage.h"
#include "rules/geometry/distance.h"
#include "rules/input_error.h"
#include "rules/json_object.h"
#include "rules/overlaps.h"
#include "rules/scene_drawing.h"
#include "rules/unit_grid.h"

namespace vedette::fkoe {

namespace {

using nlohmann::json;
using geom::Arc;

double Round2(double v) { return std::round(v * 100.0) / 100.0; }

bool IsFlankOrRear(geom::Edge e) { return e != geom::Edge::kFront; }
bool IsFlankOrRear(Arc a) { return a != Arc::kFront; }

std::string Signed(int v) { return (v >= 0 ? "+" : "") + std::to_string(v); }
// As printf's "%g" and "%.0f" (std::to_chars with a format and precision is specified to print what
// they print), at a fraction of snprintf's cost: these run for every combat on the table.
std::string Num(double v) {
  char buf[32];
  return std::string(buf, std::to_chars(buf, buf + sizeof buf, v, std::chars_format::general, 6).ptr);
}
std::string Whole(double v) {
  char buf[32];
  return std::string(buf, std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed, 0).ptr);
}

struct Mods {
  int total = 0;
  std::vector<Modifier> modifiers;
  void Add(const RuleValue& r, int times, std::vector<std::string> by) {
    if (times == 0) return;
    total += r.value * times;
    modifiers.push_back({r.rule, r.value * times, std::move(by)});
  }
  json List() const {
    json list = json::array();
    for (const Modifier& m : modifiers) list.push_back(JsonObject("rule", m.rule, "value", m.value, "by", m.by));
    return list;
  }
};

// "+2 In Melee, for each friendly unit in contact with an enemy's Flank or Rear (B2), -2 ... ; total +0"
std::string Explain(const Mods& m) {
  if (m.modifiers.empty()) return "no modifier";
  std::string out;
  for (const Modifier& x : m.modifiers) {
    std::string by;
    for (const std::string& id : x.by) by += (by.empty() ? "" : ", ") + id;
    out += (out.empty() ? "" : ", ") + Signed(x.value) + " " + x.rule + (by.empty() ? "" : " (" + by + ")");
  }
  return out + "; total " + Signed(m.total);
}

// Seed 20: "; CV 4 -> 7: first hit 100%, second hit 17%" (nothing without a combat value).
std::string CvText(const std::optional<double>& cv, int mods) {
  if (!cv) return "; no combat_value in its stats, so no hit odds";
  const double v = *cv + mods;
  std::string out = "; CV " + Num(*cv) + " -> " + Num(v) + ": hits on 1D6 <= " + Num(v) + ", first hit " +
                    Whole(100.0 * std::clamp(std::floor(v), 0.0, 6.0) / 6.0) + "%";
  if (v > 6) out += ", second hit " + Whole(100.0 * std::clamp(std::floor(v) - 6.0, 0.0, 6.0) / 6.0) + "% (seed 18-20)";
  return out;
}

std::string Total(const std::optional<double>& cv, int mods) {
  if (!cv) return "";
  return " -> CV " + Num(*cv + mods);
}

// Seed 20: roll 1D6 <= CV to hit; above 6, one hit is automatic and a second needs 1D6 <= CV - 6.
json CombatEntry(const std::string& enemy, const Mods& m, const std::optional<double>& cv) {
  json e = JsonObject("enemy", enemy, "modifiers", m.List(), "total_modifier", m.total);
  if (cv) {
    const double v = *cv + m.total;
    e["combat_value"] = *cv;
    e["modified_combat_value"] = v;
    e["p_first_hit"] = std::clamp(std::floor(v), 0.0, 6.0) / 6.0;
    e["p_second_hit"] = std::clamp(std::floor(v) - 6.0, 0.0, 6.0) / 6.0;
  }
  return e;
}

void AddTestLabel(const Unit& u, const std::string& what, const Mods& m, const std::optional<double>& cv, Findings* f) {
  DrawPrimitive l;
  l.kind = DrawKind::kLabel;
  l.style = DrawStyle::kTest;
  l.points_mm = {Footprint(u).centre_mm};
  l.text = what + ": CV " + Signed(m.total) + Total(cv, m.total);
  l.layer = "tests";
  l.unit_id = u.id;
  f->drawing.push_back(l);
}

// What every unit's findings read, worked out once a call: who is near whom (contacts, supports and
// sight within 1 inch are all short reaches, so each unit looks only at its neighbours, in id order as
// the report lists them), who touches whom, who fires at whom, who stands in bad going.
class Table {
 public:
  Table(const FkoeConfig& config, const Scene& s, const AnalyzeOptions& o);

  const FkoeConfig& c;
  const Scene& scene;
  const bool want_report, want_text;
  const UnitGrid grid;
  const Places places;
  const double visibility_mm;  // seed 80: 1 in, mm
  std::vector<const Unit*> placed;  // by id
  std::map<const Unit*, std::vector<const Unit*>> near;           // within the longest short reach, by id
  std::map<std::string, std::vector<const Unit*>> fired_at_by;   // target id -> firers, by id
  std::vector<double> frontage_in;  // by scene index: frontage in bad going, mm
  std::vector<int> in_bad_going;    // the placed units in bad going, by scene index

  int IndexOf(const Unit& u) const { return static_cast<int>(&u - scene.units.data()); }
  const Declared* DeclaredOf(const Unit& u, std::string_view key) const {
    return Declarations::Find(declared_keys_[IndexOf(u)], key);
  }
  bool Flag(const Unit& u, std::string_view key) const { return Declarations::Flag(declared_keys_[IndexOf(u)], key); }
  bool InBad(const Unit& u) const { return bad_going_[IndexOf(u)] != 0; }
  double Gap(const Unit& a, const Unit& b) const {
    return geom::BaseToBase(grid.FootprintOf(IndexOf(a)), grid.FootprintOf(IndexOf(b))).distance_mm;
  }
  // Seed 80: visibility in or out of bad going is 1".
  bool Hidden(const Unit& a, const Unit& b) const { return (InBad(a) || InBad(b)) && Gap(a, b) > visibility_mm + 1e-9; }
  geom::Contact ContactOf(const Unit& a, const Unit& b) const {
    auto it = touching_.find({&a, &b});
    return it == touching_.end() ? geom::Contact{} : it->second;
  }
  int DeclaredInt(const Unit& u, const char* key) const;
  const Unit* DeclaredTarget(const Unit& u) const;
  std::string ArtilleryBand(const Unit& gun, const Unit& target) const;

 private:
  std::vector<const Declarations::Keys*> declared_keys_;  // by scene index, found once: several keys of every unit are read
  std::map<std::pair<const Unit*, const Unit*>, geom::Contact> touching_;  // pairs within the contact tolerance
  std::vector<char> bad_going_;  // by scene index
};

Table::Table(const FkoeConfig& config, const Scene& s, const AnalyzeOptions& o)
    : c(config), scene(s), want_report(o.report), want_text(o.text), grid(s), places(s, config),
      visibility_mm(config.visibility_in * config.mm_per_unit) {
  for (const Unit& u : scene.units)
    if (u.pose) placed.push_back(&u);
  std::sort(placed.begin(), placed.end(), [](const Unit* a, const Unit* b) { return a->id < b->id; });
  declared_keys_.assign(scene.units.size(), nullptr);
  for (const Unit* u : placed) declared_keys_[IndexOf(*u)] = scene.declarations.Of(u->id);
  const double near_mm = std::max({visibility_mm, c.support_distance_in * c.mm_per_unit, c.contact_mm, c.at_mm}) + 1.0;
  for (const Unit* u : placed) {
    std::vector<const Unit*>& list = near[u];
    for (int j : grid.Near(IndexOf(*u), near_mm)) list.push_back(&scene.units[j]);
    std::sort(list.begin(), list.end(), [](const Unit* a, const Unit* b) { return a->id < b->id; });
    for (const Unit* o : list)
      if (grid.Gap(IndexOf(*u), IndexOf(*o)) <= c.contact_mm + 1e-6)
        touching_[{u, o}] = geom::FindContact(grid.FootprintOf(IndexOf(*u)), grid.FootprintOf(IndexOf(*o)), c.contact_mm);
  }
  for (const Unit* u : placed)
    if (const Declared* d = DeclaredOf(*u, "target"); d && d->value.is_string()) fired_at_by[d->value.get<std::string>()].push_back(u);
  // Seed 81: in bad going when at least half the base frontage is in the terrain.
  std::vector<geom::Polygon> bad;
  for (const Terrain& t : scene.terrain)
    if (c.bad_going_terrain.count(t.type)) bad.push_back(t.polygon);
  frontage_in.assign(scene.units.size(), 0.0);
  bad_going_.assign(scene.units.size(), 0);
  for (const Unit* u : placed) {
    const geom::Base& b = grid.FootprintOf(IndexOf(*u));
    frontage_in[IndexOf(*u)] = geom::FrontageInsideAny(b, bad);
    bad_going_[IndexOf(*u)] = frontage_in[IndexOf(*u)] >= c.bad_going_frontage_share * b.width_mm - 1e-6;
    if (InBad(*u)) in_bad_going.push_back(IndexOf(*u));
  }
}

int Table::DeclaredInt(const Unit& u, const char* key) const {
  const Declared* d = DeclaredOf(u, key);
  if (!d) return 0;
  if (!d->value.is_number() || d->value.get<double>() < 0 || d->value.get<double>() != std::floor(d->value.get<double>()))
    throw InputError(scene.source, d->line, "declarations for " + u.id + ": " + key + " must be a whole number >= 0");
  return static_cast<int>(d->value.get<double>());
}

const Unit* Table::DeclaredTarget(const Unit& u) const {
  const Declared* d = DeclaredOf(u, "target");
  if (!d) return nullptr;
  const Unit* t = d->value.is_string() ? scene.FindUnit(d->value.get<std::string>()) : nullptr;
  if (!t || !t->pose || t->side == u.side)
    throw InputError(scene.source, d->line, "declarations for " + u.id + ": target must name a placed enemy unit");
  return t;
}

// Seed 27, 66: artillery fire at short or long range (edge to edge, inclusive); the sheet gives no
// ranges, so without both set in fkoe.yaml or --set the band is "not judged".
std::string Table::ArtilleryBand(const Unit& gun, const Unit& target) const {
  if (!c.artillery_short_range_in || !c.artillery_long_range_in) return "not judged";
  const double d = Gap(gun, target);
  if (d <= *c.artillery_short_range_in * c.mm_per_unit + 1e-9) return "short";
  if (d <= *c.artillery_long_range_in * c.mm_per_unit + 1e-9) return "long";
  return "beyond long range";
}

// One unit's findings, in the report's order: its entry (when the report is asked for), its lines
// (when the text is), its tests and its labels on the picture (always).
class UnitWriter {
 public:
  UnitWriter(const Table& t, const Unit& u, Findings* f, std::ostringstream* text);
  void Write();
  json entry;  // its report entry (empty unless the report is asked for)

 private:
  void Visibility();
  void Melee();
  void Firing();
  void MoraleModifiers();
  void EngagedModifiers();  // seed 60, 62, 66, 27: places defended, stream banks, guns firing at it
  void MoraleTests();
  void StepFour();          // seed 29-40
  void OnFail();            // seed 53, 73-75
  void MoraleText() const;

  const Table& t_;
  const FkoeConfig& c_;
  const Unit& u_;
  Findings* f_;
  std::ostringstream* text_;
  const geom::Base ub_;
  const bool light_inf_;
  const int disorder_;
  bool general_ = false;
  const Unit* attached_ = nullptr;  // the general attached by id, if any
  std::optional<double> cv_;        // stats: combat_value
  const std::vector<const Unit*>& near_;
  const std::vector<const Unit*>& firers_;  // enemies declaring it their target
  Mods mm_;                                 // its 1D20 morale modifiers
  std::vector<std::string> fired_flank_, melee_flank_, long_guns_;
  json morale_;
  std::string fail_text_;
  size_t first_test_ = 0;  // its tests are f_->tests[first_test_ ..]
};

const std::vector<const Unit*> kNoFirers;

UnitWriter::UnitWriter(const Table& t, const Unit& u, Findings* f, std::ostringstream* text)
    : t_(t), c_(t.c), u_(u), f_(f), text_(text), ub_(Footprint(u)),
      light_inf_(u.type == UnitType::kInfantry && u.HasTag("light")), disorder_(t.DeclaredInt(u, "disorder")),
      near_(t.near.at(&u)),
      firers_(t.fired_at_by.count(u.id) ? t.fired_at_by.at(u.id) : kNoFirers) {
  // `general_attached: true`, or the general's id (a C-n-C with no command of his own: +3, seed 59).
  general_ = t.Flag(u, "general_attached");
  if (const Declared* g = t.DeclaredOf(u, "general_attached"); g && g->value.is_string()) {
    attached_ = t.scene.FindUnit(g->value.get<std::string>());
    if (!attached_ || attached_->type != UnitType::kGeneral || attached_->side != u.side)
      throw InputError(t.scene.source, g->line, "declarations for " + u.id + ": general_attached must be true or a general of its side");
    general_ = true;
  }
  if (auto it = u.stats.find("combat_value"); it != u.stats.end()) cv_ = it->second;
}

void UnitWriter::Write() {
  if (disorder_ > 0) AppendStateGlyph(u_, Glyph::kDisordered, &f_->drawing);
  if (t_.want_report)
    entry = JsonObject("id", u_.id, "side", u_.side, "type", std::string(ToString(u_.type)),
                       "bad_going", JsonObject("in", t_.InBad(u_), "frontage_in_terrain_mm", Round2(t_.frontage_in[t_.IndexOf(u_)]),
                                               "frontage_mm", Round2(ub_.width_mm)),
                       "disorder", disorder_);
  Visibility();
  Melee();
  Firing();
  MoraleModifiers();
  first_test_ = f_->tests.size();
  MoraleTests();
  if (t_.want_report || t_.want_text) {
    StepFour();
    if (disorder_ >= 2) OnFail();
  }
  if (t_.want_report) entry["morale"] = std::move(morale_);
  if (t_.want_text) MoraleText();
}

// Seed 80: in or out of bad going, units see each other only within 1 in. Listed (in the report
// only): the enemies within the report's reach (c.visibility_report_in) that the unit would otherwise see.
void UnitWriter::Visibility() {
  if (!t_.want_report) return;
  std::vector<std::string> hidden_ids;
  const double report_mm = c_.visibility_report_in * c_.mm_per_unit;
  const bool u_bad = t_.InBad(u_);
  const int ui = t_.IndexOf(u_);
  if (!t_.in_bad_going.empty()) {
    // A unit out of bad going is hidden only from enemies in it: those few are looked at, not every
    // unit within the report's reach (a bounding circle further than that cannot be within it).
    for (int oi : u_bad ? t_.grid.Near(ui, report_mm) : t_.in_bad_going) {
      const Unit& o = t_.scene.units[oi];
      if (o.side == u_.side || (!u_bad && !t_.InBad(o))) continue;
      if (!u_bad && t_.grid.CircleGap(ui, oi) > report_mm + 1e-3) continue;
      // The quick gap decides unless it is within rounding of a threshold; then the exact one does.
      const double g = t_.grid.Gap(ui, oi);
      const double d = std::abs(g - report_mm) < 1e-6 || std::abs(g - t_.visibility_mm) < 1e-6 ? t_.Gap(u_, o) : g;
      if (d <= report_mm + 1e-9 && d > t_.visibility_mm + 1e-9) hidden_ids.push_back(o.id);
    }
    std::sort(hidden_ids.begin(), hidden_ids.end());
  }
  entry["cannot_see"] = hidden_ids;
}

// Melee: every enemy in contact (seed 9, 13, 15).
void UnitWriter::Melee() {
  json melee = json::array();
  for (const Unit* e : near_) {
    const geom::Contact ue = t_.ContactOf(u_, *e);
    if (e->side == u_.side || !ue.in_contact || ue.corner_only) continue;  // corners touching: an overlap, not a melee
    Mods m;
    std::vector<std::string> flankers, overlappers;
    for (const Unit* fr : t_.near.at(e)) {
      if (fr->side != u_.side) continue;
      const geom::Contact ce = t_.ContactOf(*e, *fr);  // edge_a is the enemy's
      if (ce.in_contact && !ce.corner_only && IsFlankOrRear(ce.edge_a)) flankers.push_back(fr->id);
      if (fr == &u_) continue;
      // Overlap: side by side with this unit and touching the enemy (a corner is enough).
      const geom::Contact cu = t_.ContactOf(u_, *fr);
      const bool beside = cu.in_contact && !cu.corner_only && (cu.edge_a == geom::Edge::kLeft || cu.edge_a == geom::Edge::kRight) &&
                          std::abs(geom::NormalizeDeg(fr->pose->heading_deg - u_.pose->heading_deg)) <= 45.0;
      if (beside && ce.in_contact && !(ce.edge_b == geom::Edge::kFront && !ce.corner_only)) overlappers.push_back(fr->id);
    }
    m.Add(c_.Cv("flank_rear_contact"), static_cast<int>(flankers.size()), flankers);
    m.Add(c_.Cv("overlapping"), static_cast<int>(overlappers.size()), overlappers);
    if (e->formation == "road_column") m.Add(c_.Cv("road_column"), 1, {e->id});
    if (general_) m.Add(c_.Cv("general_attached"), 1, {});
    if (disorder_ == 2) m.Add(c_.Cv("two_disorder"), 1, {});
    if (t_.InBad(u_) && !light_inf_) m.Add(c_.Cv("bad_going"), 1, {});
    const Defence held = t_.places.DefenceAgainst(u_, *e);
    if (!held.strong_point_village_works.empty()) m.Add(c_.Cv("defending_place"), 1, held.strong_point_village_works);
    if (t_.want_report) {
      melee.push_back(CombatEntry(e->id, m, cv_));
      melee.back()["step"] = 5;
    }
    AddTestLabel(u_, "melee " + e->id, m, cv_, f_);
    if (t_.want_text)
      *text_ << "  " << u_.id << " in melee with " << e->id << " (step 5): " << Explain(m) << CvText(cv_, m.total)
             << "; each hit: 1 Disorder Marker on " << e->id << " and possibly a recoil (seed 25-26)\n";
  }
  if (t_.want_report) entry["melee"] = std::move(melee);
}

// Firing at the declared target (seed 10-12, 17-18).
void UnitWriter::Firing() {
  const Unit* t = t_.DeclaredTarget(u_);
  if (!t) return;
  Mods m;
  std::vector<std::string> support;
  const double support_mm = c_.support_distance_in * c_.mm_per_unit;
  for (const Unit* fr : near_) {
    if (fr == &u_ || fr->side != u_.side) continue;
    const bool aligned = std::abs(geom::NormalizeDeg(fr->pose->heading_deg - u_.pose->heading_deg)) <=
                         c_.support_max_heading_difference_deg;
    if (aligned && geom::InCorridor(ub_, geom::Edge::kRear, support_mm, Footprint(*fr)).inside) support.push_back(fr->id);
  }
  m.Add(c_.Cv("supporting"), static_cast<int>(support.size()), support);
  const Arc arc = geom::ArcOfPoint(Footprint(*t), geom::LeaderPoint(ub_), geom::ArcModel::kTotsk);
  if (IsFlankOrRear(arc)) m.Add(c_.Cv("fire_flank_rear"), 1, {t->id});
  if (t->formation == "road_column") m.Add(c_.Cv("road_column"), 1, {t->id});
  if (disorder_ == 2) m.Add(c_.Cv("two_disorder"), 1, {});
  const bool muskets = u_.type == UnitType::kArtillery || u_.HasTag("muskets");
  if (muskets && t->type == UnitType::kInfantry && t->HasTag("light")) m.Add(c_.Cv("at_light_infantry"), 1, {t->id});
  if (t_.InBad(u_) && !light_inf_) m.Add(c_.Cv("bad_going"), 1, {});
  const Defence held = t_.places.DefenceAgainst(u_, *t);
  if (!held.strong_point_village_works.empty()) m.Add(c_.Cv("defending_place"), 1, held.strong_point_village_works);
  const bool gun = u_.type == UnitType::kArtillery;
  if (t_.want_report) {
    json fire = CombatEntry(t->id, m, cv_);
    fire["step"] = gun ? 2 : 4;
    fire["target_arc"] = std::string(geom::ToString(arc));
    fire["visible"] = !t_.Hidden(u_, *t);
    if (gun) {
      const double d = t_.Gap(u_, *t);
      fire["artillery"] = JsonObject("distance_mm", Round2(d), "distance_in", Round2(d / c_.mm_per_unit), "range", t_.ArtilleryBand(u_, *t));
      if (c_.artillery_short_range_in) fire["artillery"]["short_range_in"] = *c_.artillery_short_range_in;
      if (c_.artillery_long_range_in) fire["artillery"]["long_range_in"] = *c_.artillery_long_range_in;
    }
    entry["firing"] = std::move(fire);
  }
  AddTestLabel(u_, "fire at " + t->id, m, cv_, f_);
  if (!t_.want_text) return;
  std::ostringstream& text = *text_;
  if (gun && t_.ArtilleryBand(u_, *t) == "beyond long range") {
    text << "  " << u_.id << " fires at " << t->id << ": cannot, " << t->id << " is beyond its long range ("
         << *c_.artillery_long_range_in << " in, artillery_long_range_in; " << Round2(t_.Gap(u_, *t) / c_.mm_per_unit) << " in apart)\n";
  } else if (t_.Hidden(u_, *t)) {
    // No odds for a shot that cannot be fired.
    text << "  " << u_.id << " fires at " << t->id << ": cannot, it does not see " << t->id
         << " (in or out of bad going sight is 1 in, seed 80; " << Round2(t_.Gap(u_, *t) / c_.mm_per_unit) << " in apart)\n";
  } else {
    text << "  " << u_.id << " fires at " << t->id
         << (gun ? " (step 2, artillery range: " + t_.ArtilleryBand(u_, *t) + ")" : std::string(" (step 4)")) << ": " << Explain(m)
         << CvText(cv_, m.total) << "; each hit: "
         << (gun && t_.ArtilleryBand(u_, *t) == "long" ? "a morale test for " + t->id + " (seed 27)" : "1 Disorder Marker on " + t->id + " (seed 24)")
         << "\n";
  }
}

// Morale 1D20 modifiers (seed 57-69).
void UnitWriter::MoraleModifiers() {
  const bool cinc_attached = attached_ && attached_->HasTag("cinc") && attached_->HasTag("no_command");
  if (cinc_attached) mm_.Add(c_.Morale("cinc_attached"), 1, {attached_->id});
  else if (general_) mm_.Add(c_.Morale("general_attached"), 1, attached_ ? std::vector<std::string>{attached_->id} : std::vector<std::string>{});
  if (t_.Flag(u_, "break_off")) mm_.Add(c_.Morale("break_off"), 1, {});
  if (t_.Flag(u_, "forced_march")) mm_.Add(c_.Morale("forced_march"), 1, {});
  if (t_.Flag(u_, "uphill")) mm_.Add(c_.Morale("uphill"), 1, {});
  if (c_.command_range_in) {
    for (const Unit* g : t_.placed) {
      if (g->side != u_.side || g == &u_ || g->type != UnitType::kGeneral || !g->HasTag("cinc") || !g->HasTag("no_command")) continue;
      if (t_.Gap(u_, *g) <= *c_.command_range_in * c_.mm_per_unit + 1e-9) {
        mm_.Add(c_.Morale("cinc_in_range"), 1, {g->id});
        break;
      }
    }
  }
  mm_.Add(c_.Morale("per_disorder"), disorder_, {});
  for (const Unit* e : firers_)
    if (e->side != u_.side && IsFlankOrRear(geom::ArcOfPoint(ub_, geom::LeaderPoint(Footprint(*e)), geom::ArcModel::kTotsk)))
      fired_flank_.push_back(e->id);
  for (const Unit* e : near_) {
    if (e->side == u_.side) continue;
    const geom::Contact ce = t_.ContactOf(u_, *e);
    if (ce.in_contact && !ce.corner_only && IsFlankOrRear(ce.edge_a)) melee_flank_.push_back(e->id);
  }
  if (!fired_flank_.empty()) mm_.Add(c_.Morale("fired_flank_rear"), 1, fired_flank_);
  if (!melee_flank_.empty()) mm_.Add(c_.Morale("melee_flank_rear"), 1, melee_flank_);
  EngagedModifiers();
}

// Seed 60, 62: defending a village or works, or the bank of a stream, against the enemies engaging
// this unit (in melee contact with it, or firing at it). With none, a village or works it is in.
// Seed 66, 27: artillery firing at it at short range (-2), or at long range (a test if hit).
void UnitWriter::EngagedModifiers() {
  std::set<std::string> village_works, banks;
  std::vector<std::string> short_guns;
  bool engaged = false;
  std::vector<const Unit*> engaging = near_;  // in contact, or firing at it: by id
  for (const Unit* e : firers_)
    if (std::find(engaging.begin(), engaging.end(), e) == engaging.end()) engaging.push_back(e);
  std::sort(engaging.begin(), engaging.end(), [](const Unit* a, const Unit* b) { return a->id < b->id; });
  for (const Unit* e : engaging) {
    if (e->side == u_.side) continue;
    const geom::Contact ce = t_.ContactOf(u_, *e);
    const bool fires_at_u = std::find(firers_.begin(), firers_.end(), e) != firers_.end();
    if (!(ce.in_contact && !ce.corner_only) && !fires_at_u) continue;
    engaged = true;
    const Defence held = t_.places.DefenceAgainst(u_, *e);
    village_works.insert(held.village_works.begin(), held.village_works.end());
    banks.insert(held.stream_banks.begin(), held.stream_banks.end());
    if (fires_at_u && e->type == UnitType::kArtillery) {
      const std::string band = t_.ArtilleryBand(*e, u_);
      if (band == "short") short_guns.push_back(e->id);
      if (band == "long") long_guns_.push_back(e->id);
    }
  }
  if (!engaged)
    for (const std::string& id : t_.places.VillagesWorksHeld(u_)) village_works.insert(id);
  if (!village_works.empty()) mm_.Add(c_.Morale("defending_village_works"), 1, {village_works.begin(), village_works.end()});
  if (!banks.empty()) mm_.Add(c_.Morale("stream_bank"), 1, {banks.begin(), banks.end()});
  if (!short_guns.empty()) mm_.Add(c_.Morale("artillery_short_range"), 1, short_guns);
}

// The tests: if hit by artillery at long range (seed 27), and with 2 or 3 Disorder Markers (seed
// 52-55; 4 is eliminated without a test).
void UnitWriter::MoraleTests() {
  if (t_.want_report) {
    morale_ = JsonObject("modifiers", mm_.List(), "total", mm_.total);
    morale_["not_judged"] = json::array();
    if (!c_.command_range_in) morale_["not_judged"].push_back("command range of C-n-C (set command_range_in)");
    if (!c_.artillery_short_range_in || !c_.artillery_long_range_in)
      morale_["not_judged"].push_back("artillery short/long range (set artillery_short_range_in and artillery_long_range_in)");
  }
  auto test = [&](std::string reason) {
    RequiredTest rt;
    rt.unit = u_.id;
    rt.kind = "morale";
    rt.reason = std::move(reason);
    rt.modifiers = mm_.modifiers;
    rt.total = mm_.total;
    if (c_.morale_pass_at_least) {
      // 1D20 + total >= K: faces K - total .. 20 pass.
      const int need = *c_.morale_pass_at_least - mm_.total;
      rt.p_success = std::clamp(21 - need, 0, 20) / 20.0;
      rt.odds = "1D20 " + Signed(mm_.total) + " >= " + std::to_string(*c_.morale_pass_at_least) + ": pass " +
                std::to_string(static_cast<int>(std::lround(rt.p_success * 100))) + "%";
    } else {
      rt.odds = "1D20 " + Signed(mm_.total) + " (the sheet gives no pass score: --set morale_pass_at_least=K)";
    }
    f_->tests.push_back(rt);
    return rt;
  };
  if (!long_guns_.empty()) {
    // Only if a shot hits; listed so the players see the test and its modifiers in advance.
    std::string guns;
    for (const std::string& g : long_guns_) guns += (guns.empty() ? "" : ", ") + g;
    const RequiredTest rt = test("if hit by " + guns + " (artillery at long range): " + c_.artillery_long_range_test);
    if (t_.want_report) morale_["artillery_long_range"] = JsonObject("by", long_guns_, "test", rt.reason);
  }
  if (disorder_ == 2 || disorder_ == 3) {
    const RequiredTest rt = test(std::to_string(disorder_) + " Disorder Markers: Morale Test (fail = " +
                                 (disorder_ == 2 ? "Recoil & Withdrawal" : "Recoil & Eliminated") + ")");
    if (t_.want_report) {
      if (c_.morale_pass_at_least) morale_["p_pass"] = rt.p_success;
      morale_["test"] = rt.reason;
    }
  } else if (disorder_ >= 4 && t_.want_report) {
    morale_["test"] = "4 Disorder Markers: Unit Recoils & Eliminated";
  }
}

// Seed 29-40, STEP 4: one more Disorder Marker for each bullet that holds (once a bullet). Who takes
// them: the units in the melee or shot at (step4_markers=engaged), or only those hit (if_hit).
void UnitWriter::StepFour() {
  const bool mounted = u_.type == UnitType::kCavalry;
  const bool heavy_cav = mounted && u_.HasTag("heavy");
  const bool light_cav = mounted && u_.HasTag("light");
  const bool muskets_u = u_.type == UnitType::kInfantry && u_.HasTag("muskets");
  auto unlimbered_guns = [](const Unit& e) { return e.type == UnitType::kArtillery && e.formation != "limbered" && e.formation != "road_column"; };
  // "Frontal contact": this unit's front edge against the enemy's front edge (both_fronts), or
  // against any edge of it (own_front).
  auto frontal = [&](const geom::Contact& ce) {
    return ce.edge_a == geom::Edge::kFront && (c_.frontal_contact == "own_front" || ce.edge_b == geom::Edge::kFront);
  };
  std::vector<std::pair<std::string, std::vector<std::string>>> hold;  // bullet key -> enemies
  auto add = [&](const std::string& key, const std::string& by) {
    for (auto& [k, v] : hold)
      if (k == key) {
        if (!by.empty()) v.push_back(by);
        return;
      }
    hold.push_back({key, by.empty() ? std::vector<std::string>{} : std::vector<std::string>{by}});
  };
  bool in_melee = false;
  const bool bad = t_.InBad(u_);
  for (const Unit* e : near_) {
    if (e->side == u_.side || e->type == UnitType::kGeneral) continue;
    const geom::Contact ce = t_.ContactOf(u_, *e);
    if (!ce.in_contact || ce.corner_only) continue;
    in_melee = true;
    if (heavy_cav && frontal(ce) && (unlimbered_guns(*e) || e->HasTag("muskets"))) add("heavy_cavalry_frontal", e->id);
    if (light_cav && frontal(ce) && unlimbered_guns(*e)) add("light_cavalry_frontal", e->id);
    if (muskets_u && !bad && e->type == UnitType::kCavalry && e->HasTag("heavy")) add("muskets_heavy_cavalry", e->id);
    if ((muskets_u || light_inf_) && frontal(ce) && unlimbered_guns(*e)) add("foot_frontal_artillery", e->id);
    if (light_inf_ && !bad && e->type == UnitType::kCavalry) add("light_infantry_mounted", e->id);
    if (u_.type == UnitType::kArtillery) add("artillery_contact", e->id);
  }
  if (mounted && bad && (in_melee || !firers_.empty())) add("mounted_bad_going", "");
  for (const std::string& id : fired_flank_) add("flank_rear", id);
  for (const std::string& id : melee_flank_) add("flank_rear", id);
  json bullets = json::array();
  int markers = 0;
  std::string words;
  for (const auto& [key, by] : hold) {
    const RuleValue& r = c_.extra_disorder.at(key);
    markers += r.value;
    bullets.push_back(JsonObject("rule", r.rule, "markers", r.value, "by", by));
    std::string b;
    for (const std::string& id : by) b += (b.empty() ? "" : ", ") + id;
    words += (words.empty() ? "" : "; ") + r.rule + (b.empty() ? "" : " (" + b + ")");
  }
  const bool if_hit = c_.step4_markers == "if_hit";
  if (t_.want_report)
    entry["step4"] = JsonObject("markers", markers, "bullets", std::move(bullets), "applies", if_hit ? "if hit" : "in this combat");
  if (markers > 0 && t_.want_text)
    *text_ << "  " << u_.id << " step 4: +" << markers << " Disorder Marker" << (markers == 1 ? "" : "s") << (if_hit ? " if hit" : "")
           << " (seed 29-40: " << words << ")\n";
}

// Seed 53, 73-75: what a failed test (or 4 markers) means: recoil one base depth, then withdraw.
// Worked out only for a unit with 2 or more markers: the only ones whose report and text show it.
void UnitWriter::OnFail() {
  const bool mounted = u_.type == UnitType::kCavalry;
  const int dice = mounted ? c_.mounted_withdraw_dice : c_.withdraw_dice;
  json on_fail = JsonObject("recoil_mm", Round2(ub_.depth_mm), "recoil_in", Round2(ub_.depth_mm / c_.mm_per_unit));
  std::ostringstream w;
  w << "recoil one base depth (" << Round2(ub_.depth_mm) << " mm = " << Round2(ub_.depth_mm / c_.mm_per_unit) << " in)";
  if (c_.withdrawal == "dice") {
    on_fail["withdraw"] = JsonObject("dice", std::to_string(dice) + "D6", "min_in", dice, "max_in", 6 * dice,
                                     "min_mm", Round2(dice * c_.mm_per_unit), "max_mm", Round2(6 * dice * c_.mm_per_unit));
    w << ", then withdraw " << dice << "D6\" (" << dice << " to " << 6 * dice << " in = " << Round2(dice * c_.mm_per_unit) << " to "
      << Round2(6 * dice * c_.mm_per_unit) << " mm" << (mounted ? ", mounted" : "") << ", seed 74)";
  } else if (auto mv = u_.stats.find("move_in"); mv != u_.stats.end()) {
    on_fail["withdraw"] = JsonObject("full_move_in", mv->second, "full_move_mm", Round2(mv->second * c_.mm_per_unit));
    w << ", then withdraw a full move (" << mv->second << " in = " << Round2(mv->second * c_.mm_per_unit) << " mm, seed 53)";
  } else {
    on_fail["withdraw"] = {{"full_move_in", nullptr}};
    w << ", then withdraw a full move (seed 53; the sheet gives no move distance: stats move_in)";
  }
  w << ", ending the turn facing away from the enemy (seed 75)";
  on_fail["text"] = w.str();
  fail_text_ = w.str();
  if (t_.want_report) morale_["on_fail"] = std::move(on_fail);  // a failed long-range test only adds a marker (seed 27)
}

void UnitWriter::MoraleText() const {
  if (mm_.modifiers.empty() && disorder_ < 2 && long_guns_.empty()) return;
  std::ostringstream& text = *text_;
  text << "  " << u_.id << (t_.InBad(u_) ? " (in bad going)" : "") << " morale on 1D20: " << Explain(mm_) << "\n";
  for (size_t i = first_test_; i < f_->tests.size(); ++i) text << "    morale test: " << f_->tests[i].reason << ": " << f_->tests[i].odds << "\n";
  if (disorder_ == 2) text << "    if it fails: " << fail_text_ << "\n";
  if (disorder_ == 3) text << "    if it fails: it recoils one base depth (" << Round2(ub_.depth_mm) << " mm) and is eliminated (seed 54)\n";
  if (disorder_ >= 4) text << "    4 Disorder Markers: the unit recoils and is eliminated (seed 55)\n";
}

}  // namespace

Findings AnalyzeTable(const FkoeConfig& c, const Scene& scene, const AnalyzeOptions& options) {
  Findings f;
  f.ruleset = "fkoe";
  f.drawing.reserve(scene.terrain.size() + 5 * scene.units.size());  // outlines and about one more each
  AppendSceneOutlines(scene, &f.drawing);
  std::ostringstream text;
  if (options.text) {
    text << c.title << " (1 " << c.unit_name << " = " << c.mm_per_unit << " mm)\n";
    // Seed 42-48: the turn of an activated command, and where each finding below belongs in it.
    text << "  turn of the activated command (seed 44-48):";
    for (size_t i = 0; i < c.turn_sequence.size(); ++i) text << (i ? ";" : "") << " " << i + 1 << " " << c.turn_sequence[i];
    text << " (the sheet gives no initiative table)\n";
  }
  const Table table(c, scene, options);
  json units = json::array();
  for (const Unit* u : table.placed) {
    UnitWriter w(table, *u, &f, &text);
    w.Write();
    if (options.report) units.push_back(std::move(w.entry));  // moved, not copied: a large list on a big table
  }
  if (options.report)
    f.report = {{"ruleset", "fkoe"}, {"unit", c.unit_name}, {"mm_per_unit", c.mm_per_unit}, {"units", std::move(units)},
                {"turn_sequence", c.turn_sequence},
                {"settings", {{"step4_markers", c.step4_markers}, {"frontal_contact", c.frontal_contact}, {"withdrawal", c.withdrawal}}}};
  if (options.text) f.text = text.str();
  AppendOverlaps(scene, table.grid, c.contact_mm, options, &f);
  return f;
}

}  // namespace vedette::fkoe
