// `--ruleset fkoe`: For King or Empress (seed 004, the quick reference sheet). The table's findings
// are rules/fkoe/table_analysis.h's; here: the settings, the recoil and withdrawal a move is judged
// by, and the thresholds a dispute lists.
#include <charconv>
#include <cmath>
#include <optional>
#include <cstdio>

#include "rules/declaration_keys.h"
#include "rules/fkoe/config.h"
#include "rules/fkoe/table_analysis.h"
#include "rules/geometry/contact.h"
#include "rules/geometry/corridor.h"
#include "rules/geometry/distance.h"
#include "rules/input_error.h"
#include "rules/json_object.h"
#include "rules/overlaps.h"
#include "rules/ruleset.h"

namespace vedette {

namespace {

using nlohmann::json;

double Round2(double v) { return std::round(v * 100.0) / 100.0; }

const std::vector<std::string> kDeclarationKeys = {"disorder", "general_attached", "target", "uphill", "holds",
                                                   "break_off", "forced_march", "recoil", "withdraw_in"};

class FkoeRuleset : public Ruleset {
 public:
  explicit FkoeRuleset(const RulesetOptions& options)
      : options_(options),
        config_(fkoe::LoadFkoeConfig((options.assets_dir.empty() ? AssetsDir() : options.assets_dir) + "/rulesets/fkoe.yaml",
                                     options.settings)) {}

  RulesetInfo Info() const override {
    RulesetInfo info{"fkoe", config_.title, config_.unit_name, geom::ArcModel::kTotsk,
                     {"command_range_in", "morale_pass_at_least", "artillery_short_range_in", "artillery_long_range_in",
                      "step4_markers", "frontal_contact", "withdrawal"}};
    info.unit_mm = config_.mm_per_unit;
    return info;
  }

  Findings Analyze(const Scene& scene, const AnalyzeOptions& options) const override {
    // The configuration with the scene's and the command line's settings applied (copied only when
    // there are any: a live table calls this every frame).
    std::optional<fkoe::FkoeConfig> with_settings;
    if (!scene.declarations.settings.empty() || !options_.settings.empty()) {
      with_settings = config_;
      std::map<std::string, std::string> scene_settings;
      for (const auto& [k, d] : scene.declarations.settings)
        scene_settings[k] = d.value.is_string() ? d.value.get<std::string>() : d.value.dump();
      fkoe::ApplySettings(scene_settings, &*with_settings);
      fkoe::ApplySettings(options_.settings, &*with_settings);  // the command line wins
    }
    const fkoe::FkoeConfig& c = with_settings ? *with_settings : config_;
    CheckDeclarationKeys(scene, "fkoe", kDeclarationKeys);
    return fkoe::AnalyzeTable(c, scene, options);
  }

  // Seed 53, 73-75: a unit that failed its morale test with 2 Disorder Markers (declared `recoil: true`)
  // recoils one base depth, then withdraws 1D6" (mounted 2D6"; `withdraw_in: N` the roll, when known) and
  // ends the turn facing away from the enemy. The sheet has no movement table: other moves are not judged.
  MoveCheck CheckMove(const Scene& scene, const MoveRequest& move) const override {
    MoveCheck m;
    const Unit* u = scene.FindUnit(move.unit);
    if (!u || !u->pose || !scene.declarations.Flag(u->id, "recoil")) return m;  // not judged
    CheckDeclarationKeys(scene, "fkoe", kDeclarationKeys);
    fkoe::FkoeConfig c = config_;
    std::map<std::string, std::string> scene_settings;
    for (const auto& [k, d] : scene.declarations.settings)
      scene_settings[k] = d.value.is_string() ? d.value.get<std::string>() : d.value.dump();
    fkoe::ApplySettings(scene_settings, &c);
    fkoe::ApplySettings(options_.settings, &c);
    m.supported = true;
    m.kinds = {"recoil_and_withdrawal"};
    Unit moved = *u;
    moved.pose = move.to;
    const geom::Base from = Footprint(*u), to = Footprint(moved);
    const double turn = std::abs(geom::NormalizeDeg(to.heading_deg - from.heading_deg));
    const geom::Vec2 delta = to.centre_mm - from.centre_mm;
    const double dist = delta.norm();
    const double back = dist > 1e-6 ? delta.normalized().dot(-geom::Forward(from)) : 1.0;
    const double inch = c.mm_per_unit, slack = c.placement_in * inch, recoil = from.depth_mm;
    const bool mounted = u->type == UnitType::kCavalry;
    const int dice = mounted ? c.mounted_withdraw_dice : c.withdraw_dice;
    double lo = recoil + dice * inch, hi = recoil + 6.0 * dice * inch;
    std::string what = std::to_string(dice) + "D6\" withdrawal (seed 74)";
    if (const Declared* w = scene.declarations.Find(u->id, "withdraw_in")) {
      if (!w->value.is_number() || w->value.get<double>() < 0)
        throw InputError(scene.source, w->line, "declarations for " + u->id + ": withdraw_in must be a distance in inches >= 0");
      lo = hi = recoil + w->value.get<double>() * inch;
      what = "withdrawal of " + Num(w->value.get<double>()) + " in rolled";
    } else if (c.withdrawal == "full_move") {
      auto mv = u->stats.find("move_in");
      if (mv == u->stats.end()) {
        lo = 0.0;
        hi = 1e12;
        what = "full move withdrawal (seed 53; no stats move_in: the distance is not judged)";
      } else {
        lo = hi = recoil + mv->second * inch;
        what = "full move withdrawal of " + Num(mv->second) + " in (seed 53)";
      }
    }
    auto text_in = [&](double mm) { return Num(Round2(mm / inch)) + " in (" + Num(Round2(mm)) + " mm)"; };
    if (turn < 180.0 - c.turn_deg) {
      m.legal = false;
      m.illegal_reason = "a recoiling unit ends the turn facing away from the enemy (seed 75): it turned " +
                         std::to_string(std::lround(turn)) + " degrees";
    } else if (dist > slack && back < std::cos(geom::DegToRad(c.turn_deg))) {
      m.legal = false;
      m.illegal_reason = "a recoil goes straight back, away from the enemy (seed 73)";
    } else if (dist < lo - slack || dist > hi + slack) {
      m.legal = false;
      m.illegal_reason = "it moved " + text_in(dist) + ": a recoil of one base depth (" + text_in(recoil) + ") and a " + what +
                         " is " + (lo == hi ? text_in(lo) : text_in(lo) + " to " + text_in(hi)) + ", within " + text_in(slack);
    }
    m.report = {{"ruleset", "fkoe"},
                {"unit", u->id},
                {"legal", m.legal},
                {"illegal_reason", m.legal ? json(nullptr) : json(m.illegal_reason)},
                {"kinds", m.kinds},
                {"tests", json::array()},
                {"distance_mm", Round2(dist)},
                {"distance_in", Round2(dist / inch)},
                {"recoil_mm", Round2(recoil)},
                {"allowed_mm", {{"min", Round2(lo)}, {"max", hi > 1e11 ? json(nullptr) : json(Round2(hi))}}}};
    m.text = "For King or Empress move of " + u->id + ": " + (m.legal ? "legal" : "ILLEGAL: " + m.illegal_reason) +
             "\n  kind: recoil one base depth, then withdraw, facing away (seed 53, 73-75); moved " + text_in(dist) + "\n";
    return m;
  }

  std::vector<PairRule> PairRules(const Scene& scene, const std::string& from, const std::string& to) const override {
    const Unit* a = scene.FindUnit(from);
    const Unit* b = scene.FindUnit(to);
    if (!a || !b || !a->pose || !b->pose) throw InputError(scene.source, 0, "both units must be in the scene with a pose");
    const double g = geom::BaseToBase(Footprint(*a), Footprint(*b)).distance_mm;
    std::vector<PairRule> rules;
    rules.push_back(OverlapRule(*a, *b, config_.contact_mm));
    const fkoe::FkoeConfig& c = config_;
    auto in = [](double v) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%g in", v);
      return std::string(buf);
    };
    // Every distance the sheet (seed 004) sets between two units, or that a setting gives it. The list
    // depends on the units' sides and types and the settings only, never on where they stand.
    rules.push_back({"in contact: melee (seed 9, 15), edge to edge within the 2 mm slack", "edge_to_edge", c.contact_mm, g});
    rules.push_back({"within " + in(c.visibility_in) + ": all they see of each other when either is in bad going (seed 80)",
                     "edge_to_edge", c.visibility_in * c.mm_per_unit, g});
    for (const auto& [x, y] : {std::pair{a, b}, std::pair{b, a}}) {
      const geom::Base fx = Footprint(*x), fy = Footprint(*y);
      if (x->side == y->side) {
        // Seed 11 "+1 If Firing, for each friendly supporting unit": behind the firer (fkoe.yaml support_distance_in).
        rules.push_back({x->id + " supports " + y->id + "'s fire: within " + in(c.support_distance_in) +
                             " behind its rear edge, facing within 45 degrees (seed 11; the distance is fkoe.yaml's, the sheet gives none)",
                         "rear_reach", c.support_distance_in * c.mm_per_unit,
                         geom::InCorridor(fy, geom::Edge::kRear, c.support_distance_in * c.mm_per_unit, fx).reach_mm});
        // Seed 63: the C-n-C's command range, a setting.
        if (c.command_range_in && x->type == UnitType::kGeneral && x->HasTag("cinc") && x->HasTag("no_command"))
          rules.push_back({y->id + " in command range of " + x->id + ", " + in(*c.command_range_in) + ": morale +1 (seed 63; command_range_in)",
                           "edge_to_edge", *c.command_range_in * c.mm_per_unit, g});
        continue;
      }
      // Seed 27, 66: artillery at short range (-2 morale) and long range (a test if hit), settings.
      if (x->type == UnitType::kArtillery) {
        if (c.artillery_short_range_in)
          rules.push_back({y->id + " at " + x->id + "'s short range, " + in(*c.artillery_short_range_in) +
                               ": -2 to its morale if fired on (seed 66; artillery_short_range_in)",
                           "edge_to_edge", *c.artillery_short_range_in * c.mm_per_unit, g});
        if (c.artillery_long_range_in)
          rules.push_back({y->id + " within " + x->id + "'s long range, " + in(*c.artillery_long_range_in) +
                               ": a hit means a morale test (seed 27; artillery_long_range_in)",
                           "edge_to_edge", *c.artillery_long_range_in * c.mm_per_unit, g});
      }
    }
    return rules;
  }

 private:
  // As printf's "%g" (std::to_chars with a format and precision is specified to print what it prints).
  static std::string Num(double v) {
    char buf[32];
    return std::string(buf, std::to_chars(buf, buf + sizeof buf, v, std::chars_format::general, 6).ptr);
  }

  RulesetOptions options_;
  fkoe::FkoeConfig config_;
};

}  // namespace

std::unique_ptr<Ruleset> MakeFkoeRuleset(const RulesetOptions& options) { return std::make_unique<FkoeRuleset>(options); }

}  // namespace vedette
