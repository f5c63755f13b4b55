#include "rules/totsk/totsk_data.h"

#include <yaml-cpp/yaml.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "rules/input_error.h"
#include "rules/yaml_reader.h"

namespace vedette::totsk {

namespace {


const char* const kDifficulties[] = {"easy", "standard", "difficult", "extreme"};

bool IsDifficulty(const std::string& s) {
  for (const char* d : kDifficulties)
    if (s == d) return true;
  return false;
}

TerrainCap ReadCap(const YamlReader& r, const YAML::Node& n, const std::string& what) {
  if (!n.IsMap()) r.Fail(n, what + " must be a mapping");
  TerrainCap c;
  if (n["cover"]) c.cover = r.IntegerField(n, "cover", what);
  if (n["defending_terrain"]) c.defending_terrain = r.IntegerField(n, "defending_terrain", what);
  if (n["fortification"]) c.fortification = r.IntegerField(n, "fortification", what);
  c.max = r.IntegerField(n, "max", what);
  return c;
}

MoraleRanges ReadRanges(const YamlReader& r, const YAML::Node& n, const std::string& what) {
  if (!n.IsMap()) r.Fail(n, what + " must be a mapping");
  return {r.NonNegativeField(n, "foot", what), r.NonNegativeField(n, "light_infantry", what),
          r.NonNegativeField(n, "cavalry", what), r.NonNegativeField(n, "artillery", what)};
}

MoraleModifierSpec ReadModifier(const YamlReader& r, const YAML::Node& n, const std::string& what) {
  if (!n.IsMap()) r.Fail(n, what + " must be a mapping {value: N, rule: \"...\"}");
  return {r.IntegerField(n, "value", what), r.StringField(n, "rule", what)};
}

}  // namespace

const MoraleModifierSpec& TotskData::Morale(std::string_view key) const {
  const auto it = morale_modifiers.find(key);
  if (it == morale_modifiers.end()) throw std::out_of_range("no TotSK morale modifier '" + std::string(key) + "'");
  return it->second;
}

namespace {

// Step 1: movement table and the rows each formation moves by.
void ReadMovement(const YamlReader& r, const YAML::Node& root, TotskData* d) {
  const YAML::Node mv = r.RequireMap(root, "movement", "ruleset");
  for (auto t = mv.begin(); t != mv.end(); ++t) {
    const std::string type = t->first.as<std::string>();
    if (!t->second.IsMap()) r.Fail(t->second, "movement." + type + " must be a mapping");
    for (auto row = t->second.begin(); row != t->second.end(); ++row) {
      const std::string what = "movement." + type + "." + row->first.as<std::string>();
      const YAML::Node n = row->second;
      if (!n.IsMap()) r.Fail(n, what + " must be {open: BW, rough: BW or null}");
      MoveRate rate;
      rate.open_bw = r.NonNegativeField(n, "open", what);
      const YAML::Node rough = r.Require(n, "rough", what);
      if (!rough.IsNull()) {
        rate.rough_bw = r.Number(rough, what + ".rough");
        if (*rate.rough_bw < 0) r.Fail(rough, what + ".rough must not be negative");
      }
      d->movement[type][row->first.as<std::string>()] = rate;
    }
  }
  const YAML::Node fr = r.RequireMap(root, "formation_rows", "ruleset");
  for (auto t = fr.begin(); t != fr.end(); ++t) {
    const std::string type = t->first.as<std::string>();
    if (!d->movement.count(type)) r.Fail(t->first, "formation_rows." + type + ": no movement table for type '" + type + "'");
    if (!t->second.IsMap()) r.Fail(t->second, "formation_rows." + type + " must be a mapping");
    for (auto f = t->second.begin(); f != t->second.end(); ++f) {
      const std::string row = f->second.as<std::string>();
      if (!d->movement[type].count(row))
        r.Fail(f->second, "formation_rows." + type + "." + f->first.as<std::string>() + ": no movement row '" + row + "'");
      d->formation_rows[type][f->first.as<std::string>()] = row;
    }
  }
  for (const char* type : {"infantry", "cavalry", "artillery"})
    if (!d->movement.count(type)) r.Fail(mv, std::string("movement: missing type '") + type + "'");
}

// Step 2: distances.
void ReadDistances(const YamlReader& r, const YAML::Node& root, TotskData* d) {
  d->zoc_depth_bw = r.NonNegativeField(r.RequireMap(root, "zone_of_control", "ruleset"), "depth_bw", "zone_of_control");
  const YAML::Node rs = r.RequireMap(root, "rear_support", "ruleset");
  d->rear_support_infantry_bw = r.NonNegativeField(rs, "infantry_bw", "rear_support");
  d->rear_support_cavalry_bw = r.NonNegativeField(rs, "cavalry_bw", "rear_support");
  const YAML::Node sec = r.RequireMap(root, "secure", "ruleset");
  d->secure_distance_bw = r.NonNegativeField(sec, "distance_bw", "secure");
  const YAML::Node st = r.Require(sec, "terrain", "secure");
  if (!st.IsSequence()) r.Fail(st, "secure.terrain must be a list of terrain types");
  for (const auto& e : st) d->secure_terrain.push_back(YamlText(r.source(), e, "secure.terrain entry"));
  const YAML::Node fs = r.RequireMap(root, "flank_support", "ruleset");
  d->flank_support_distance_bw = r.NonNegativeField(fs, "distance_bw", "flank_support");
  d->flank_support_max_heading_deg = r.NonNegativeField(fs, "max_heading_difference_deg", "flank_support");
  const YAML::Node td = r.RequireMap(root, "threat_distance_bw", "ruleset");
  d->threat_distance_faq_bw = r.NonNegativeField(td, "faq", "threat_distance_bw");
  d->threat_distance_qrs_bw = r.NonNegativeField(td, "qrs", "threat_distance_bw");
  const YAML::Node mr = r.RequireMap(root, "morale_ranges_bw", "ruleset");
  d->ranges_faq = ReadRanges(r, r.Require(mr, "faq", "morale_ranges_bw"), "morale_ranges_bw.faq");
  d->ranges_qrs = ReadRanges(r, r.Require(mr, "qrs", "morale_ranges_bw"), "morale_ranges_bw.qrs");
  const YAML::Node bo = r.RequireMap(root, "bombardment", "ruleset");
  d->bombardment_range_bw = r.NonNegativeField(bo, "range_bw", "bombardment");
  d->bombardment_min_guns = r.IntegerField(bo, "min_guns", "bombardment");
  const YAML::Node af = r.RequireMap(root, "artillery_fire", "ruleset");
  d->artillery_close_bw = r.NonNegativeField(af, "close_bw", "artillery_fire");
  d->artillery_far_bw = r.NonNegativeField(af, "far_bw", "artillery_fire");
  const YAML::Node ge = r.RequireMap(root, "generals", "ruleset");
  d->general_reroll_bw = r.NonNegativeField(ge, "reroll_bw", "generals");
  d->general_killed_on_natural = r.IntegerField(ge, "killed_on_natural", "generals");
  const YAML::Node rk = r.Require(ge, "reroll_killed_on_natural", "generals");
  if (!rk.IsSequence()) r.Fail(rk, "generals.reroll_killed_on_natural must be a list of 2D6 totals");
  d->general_reroll_killed_on_natural.clear();
  for (const auto& v : rk) d->general_reroll_killed_on_natural.push_back(static_cast<int>(r.Number(v, "generals.reroll_killed_on_natural")));
}

// Step 3: action tests.
void ReadActionTests(const YamlReader& r, const YAML::Node& root, TotskData* d) {
  const YAML::Node at = r.RequireMap(root, "action_test", "ruleset");
  const YAML::Node need = r.RequireMap(at, "need", "action_test");
  for (const char* diff : kDifficulties) d->action_need[diff] = r.IntegerField(need, diff, "action_test.need");
  const YAML::Node amods = r.RequireMap(at, "modifiers", "action_test");
  for (auto it = amods.begin(); it != amods.end(); ++it)
    d->action_modifiers[it->first.as<std::string>()] = static_cast<int>(r.Number(it->second, "action_test.modifiers"));
  for (const char* k : {"additional_gun", "failed_morale_last_turn", "obsolete_gun_limbering",
                        "at_bt_into_contact_infantry_artillery"})
    if (!d->action_modifiers.count(k)) r.Fail(amods, std::string("action_test.modifiers: missing '") + k + "'");
  const YAML::Node moves = r.RequireMap(at, "moves", "action_test");
  for (auto it = moves.begin(); it != moves.end(); ++it) {
    const std::string what = "action_test.moves." + it->first.as<std::string>();
    if (!it->second.IsMap()) r.Fail(it->second, what + " must be a mapping");
    MoveTest t;
    t.difficulty = r.StringField(it->second, "difficulty", what);
    if (!IsDifficulty(t.difficulty)) r.Fail(it->second["difficulty"], what + ": unknown difficulty '" + t.difficulty + "'");
    if (it->second["im"]) {
      t.im_difficulty = r.StringField(it->second, "im", what);
      if (!IsDifficulty(t.im_difficulty)) r.Fail(it->second["im"], what + ": unknown difficulty '" + t.im_difficulty + "'");
    }
    t.rule = r.StringField(it->second, "rule", what);
    d->move_tests[it->first.as<std::string>()] = t;
  }
  for (const char* k : {"under_fire", "second_move", "second_move_qrs_im", "contact_front", "contact_front_hard",
                        "light_contact_flank", "straight_back", "replace_forward", "pass_through", "echelon",
                        "formation_same_facing", "formation_turning", "face_to_flank", "wheel", "about_face", "limber",
                        "limber_ig", "unlimber", "bad_going", "fire_after_pivot", "light_pull_back", "face_flank_attacker"})
    if (!d->move_tests.count(k)) r.Fail(moves, std::string("action_test.moves: missing '") + k + "'");
}

// Step 4: morale.
void ReadMorale(const YamlReader& r, const YAML::Node& root, TotskData* d) {
  const YAML::Node mt = r.RequireMap(root, "morale_test", "ruleset");
  d->morale_pass_at_least = r.IntegerField(mt, "pass_at_least", "morale_test");
  d->morale_rout_at_most = r.IntegerField(mt, "rout_at_most", "morale_test");
  if (d->morale_rout_at_most >= d->morale_pass_at_least)
    r.Fail(mt["rout_at_most"], "morale_test.rout_at_most must be below pass_at_least");
  const YAML::Node mm = r.RequireMap(mt, "modifiers", "morale_test");
  for (auto it = mm.begin(); it != mm.end(); ++it)
    d->morale_modifiers[it->first.as<std::string>()] =
        ReadModifier(r, it->second, "morale_test.modifiers." + it->first.as<std::string>());
  for (const char* k :
       {"elite", "stubborn_not_moved", "fired_on_by_artillery_far", "fired_on_by_inferior_or_li",
        "fired_on_by_small_artillery", "raw_or_militia", "small_unit", "fired_on_by_artillery_close", "column_or_limbered",
        "rear_support", "additional_reason", "enemy_behind_flank", "enemy_behind_rear", "enemy_in_range_of_flank_or_rear",
        "cavalry_under_fire_or_bad_going", "cavalry_pursued", "infantry_fired_at_in_column",
        "li_in_contact_with_non_li_in_open", "artillery_in_contact_with_infantry", "artillery_in_contact_with_cavalry"})
    if (!d->morale_modifiers.count(k)) r.Fail(mm, std::string("morale_test.modifiers: missing '") + k + "'");
  const YAML::Node cc = r.RequireMap(mt, "infantry_charged_by_cavalry", "morale_test");
  const std::string cbc = "infantry_charged_by_cavalry";
  d->charged_by_cavalry_faq = ReadModifier(r, r.Require(cc, "faq", cbc), cbc + ".faq");
  d->charged_by_cavalry_qrs = ReadModifier(r, r.Require(cc, "qrs", cbc), cbc + ".qrs");
  const YAML::Node tr = r.RequireMap(mt, "terrain", "morale_test");
  const YAML::Node uf = r.RequireMap(tr, "under_fire", "morale_test.terrain");
  const YAML::Node ic = r.RequireMap(tr, "in_contact", "morale_test.terrain");
  for (const char* type : {"infantry", "cavalry", "artillery"}) {
    d->under_fire[type] = ReadCap(r, r.Require(uf, type, "terrain.under_fire"), std::string("terrain.under_fire.") + type);
    d->in_contact[type] = ReadCap(r, r.Require(ic, type, "terrain.in_contact"), std::string("terrain.in_contact.") + type);
  }
  const YAML::Node trr = r.RequireMap(tr, "rules", "morale_test.terrain");
  d->rule_cover = r.StringField(trr, "cover", "terrain.rules");
  d->rule_defending_terrain = r.StringField(trr, "defending_terrain", "terrain.rules");
  d->rule_fortification = r.StringField(trr, "fortification", "terrain.rules");
}

// Step 5: how exactly a hand-placed table is read.
void ReadTolerances(const YamlReader& r, const YAML::Node& root, TotskData* d) {
  const YAML::Node tol = r.RequireMap(root, "tolerances", "ruleset");
  d->tolerances.contact_mm = r.NonNegativeField(tol, "contact_mm", "tolerances");
  d->tolerances.line_mm = r.NonNegativeField(tol, "line_mm", "tolerances");
  d->tolerances.straight_deg = r.NonNegativeField(tol, "straight_deg", "tolerances");
  d->tolerances.turn_deg = r.NonNegativeField(tol, "turn_deg", "tolerances");
  d->tolerances.pivot_bw = r.NonNegativeField(tol, "pivot_bw", "tolerances");
  d->tolerances.distance_mm = r.NonNegativeField(tol, "distance_mm", "tolerances");
  d->tolerances.contact_halt_gap_mm = r.NonNegativeField(tol, "contact_halt_gap_mm", "tolerances");
  d->tolerances.placement_bw = r.NonNegativeField(tol, "placement_bw", "tolerances");
}

// Step 6: after the morale tests (QRS 95-105).
void ReadAfterCombat(const YamlReader& r, const YAML::Node& root, TotskData* d) {
  const YAML::Node cb = r.RequireMap(root, "cavalry_break_off", "ruleset");
  d->after.break_off_retire_bw = r.NonNegativeField(cb, "retire_bw", "cavalry_break_off");
  d->after.break_off_choose_bw = r.NonNegativeField(cb, "choose_retire_bw", "cavalry_break_off");
  const YAML::Node ib = r.RequireMap(root, "infantry_break_off", "ruleset");
  d->after.infantry_withdraw_bw = r.NonNegativeField(ib, "withdraw_bw", "infantry_break_off");
  const YAML::Node fb = r.RequireMap(ib, "forced_back_bw", "infantry_break_off");
  d->after.forced_back_faq_bw = r.NonNegativeField(fb, "faq", "infantry_break_off.forced_back_bw");
  d->after.forced_back_qrs_bw = r.NonNegativeField(fb, "qrs", "infantry_break_off.forced_back_bw");
  d->after.crew_shelter_bw = r.NonNegativeField(r.RequireMap(root, "artillery_break_off", "ruleset"), "shelter_bw", "artillery_break_off");
  const YAML::Node pu = r.RequireMap(root, "pursuit", "ruleset");
  d->after.pursuit_need = r.IntegerField(pu, "need", "pursuit");
  d->after.pursuit_general_bw = r.NonNegativeField(pu, "general_bw", "pursuit");
  auto mods = [&](const char* key, std::initializer_list<const char*> needed) {
    std::map<std::string, MoraleModifierSpec> out;
    const YAML::Node m = r.RequireMap(pu, key, "pursuit");
    for (auto it = m.begin(); it != m.end(); ++it)
      out[it->first.as<std::string>()] = ReadModifier(r, it->second, std::string("pursuit.") + key + "." + it->first.as<std::string>());
    for (const char* k : needed)
      if (!out.count(k)) r.Fail(m, std::string("pursuit.") + key + ": missing '" + k + "'");
    return out;
  };
  d->after.pursuit_modifiers = mods("modifiers", {"raw", "british", "general_near", "wavering"});
  d->after.pursuit_distance_modifiers = mods("distance_modifiers", {"british", "trained", "elite"});
  const YAML::Node mf = r.RequireMap(root, "morale_fails", "ruleset");
  for (auto it = mf.begin(); it != mf.end(); ++it) {
    const std::string k = it->first.as<std::string>();
    if (k == "tags") {
      if (!it->second.IsMap()) r.Fail(it->second, "morale_fails.tags must be a mapping");
      for (auto t = it->second.begin(); t != it->second.end(); ++t)
        d->after.morale_fails_tags[t->first.as<std::string>()] = static_cast<int>(r.Number(t->second, "morale_fails.tags"));
    } else {
      d->after.morale_fails_base[k] = static_cast<int>(r.Number(it->second, "morale_fails." + k));
    }
  }
  d->after.pull_back_bw = r.NonNegativeField(r.RequireMap(root, "light_pull_back", "ruleset"), "distance_bw", "light_pull_back");
  d->after.bonus_general_bw = r.NonNegativeField(r.RequireMap(root, "bonus_moves", "ruleset"), "general_bw", "bonus_moves");
  const YAML::Node wm = r.RequireMap(root, "wing_army_morale", "ruleset");
  d->after.army_lost_share = r.NonNegativeField(wm, "lost_share", "wing_army_morale");
  d->after.army_need = r.IntegerField(wm, "need", "wing_army_morale");
}

}  // namespace

TotskData ParseTotskData(const std::string& text, const std::string& source_name) {
  const YamlReader r(source_name);
  const YAML::Node root = ParseYamlText(text, source_name);
  if (!root.IsMap()) throw InputError(source_name, 0, "a ruleset file must be a mapping");
  TotskData d;
  d.source = source_name;
  d.name = r.StringField(root, "name", "ruleset");
  d.title = r.StringField(root, "title", "ruleset");
  // The sections check every shape they rely on; a value of a kind one converts without checking
  // (a list where a type name belongs) still ends as an InputError at its line, not yaml-cpp's own.
  try {
    ReadMovement(r, root, &d);
    ReadDistances(r, root, &d);
    ReadActionTests(r, root, &d);
    ReadMorale(r, root, &d);
    ReadTolerances(r, root, &d);
    ReadAfterCombat(r, root, &d);
  } catch (const YAML::Exception& e) {
    throw InputError(source_name, e.mark.line >= 0 ? e.mark.line + 1 : 0,
                     "a value of the wrong kind (a list or mapping where a word or number belongs, or the reverse)");
  }
  return d;
}

TotskData LoadTotskData(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError(path, 0, "cannot open the ruleset file");
  std::stringstream ss;
  ss << in.rdbuf();
  return ParseTotskData(ss.str(), path);
}

double TotskSettings::ThreatBw(const TotskData& d) const {
  if (threat_distance_bw) return *threat_distance_bw;
  return threat_distance == "qrs" ? d.threat_distance_qrs_bw : d.threat_distance_faq_bw;
}

const MoraleRanges& TotskSettings::Ranges(const TotskData& d) const {
  return morale_ranges == "qrs" ? d.ranges_qrs : d.ranges_faq;
}

const MoraleModifierSpec& TotskSettings::ChargedByCavalry(const TotskData& d) const {
  return charged_by_cavalry == "qrs" ? d.charged_by_cavalry_qrs : d.charged_by_cavalry_faq;
}

TotskSettings ParseTotskSettings(const std::map<std::string, std::string>& settings, const std::string& where) {
  TotskSettings s;
  auto choice = [&](const std::string& key, const std::string& value) {
    if (value != "faq" && value != "qrs")
      throw InputError(where, 0, "setting " + key + "=" + value + ": expected faq or qrs");
    return value;
  };
  if (auto it = settings.find("rules"); it != settings.end()) {
    const std::string v = choice("rules", it->second);
    s.threat_distance = s.morale_ranges = s.charged_by_cavalry = s.second_move = s.pursuit = s.army_morale = s.forced_back = v;
  }
  for (const auto& [key, value] : settings) {
    if (key == "rules") continue;
    if (key == "threat_distance") {
      s.threat_distance = choice(key, value);
    } else if (key == "morale_ranges") {
      s.morale_ranges = choice(key, value);
    } else if (key == "charged_by_cavalry") {
      s.charged_by_cavalry = choice(key, value);
    } else if (key == "second_move") {
      s.second_move = choice(key, value);
    } else if (key == "pursuit") {
      s.pursuit = choice(key, value);
    } else if (key == "forced_back") {
      s.forced_back = choice(key, value);
    } else if (key == "army_morale") {
      s.army_morale = choice(key, value);
    } else if (key == "threat_distance_bw") {
      char* end = nullptr;
      const double v = std::strtod(value.c_str(), &end);
      if (value.empty() || *end != '\0' || !std::isfinite(v) || v < 0)
        throw InputError(where, 0, "setting threat_distance_bw=" + value + ": expected a distance in BW >= 0");
      s.threat_distance_bw = v;
    } else {
      s.ignored.push_back(key);
    }
  }
  return s;
}

}  // namespace vedette::totsk
