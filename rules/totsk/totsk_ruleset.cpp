// `--ruleset totsk`: Twilight of the Soldier Kings. The numbers come from assets/rulesets/totsk.yaml,
// the QRS-or-FAQ choices from the settings (FAQ by default).
#include "rules/overlaps.h"
#include "rules/ruleset.h"
#include "rules/geometry/arcs.h"
#include "rules/geometry/corridor.h"
#include "rules/geometry/distance.h"
#include "rules/totsk/totsk_geometry.h"
#include "rules/totsk/totsk_units.h"
#include "rules/totsk/totsk_after.h"
#include "rules/totsk/totsk_analysis.h"
#include "rules/totsk/totsk_data.h"
#include "rules/totsk/totsk_group_move.h"
#include "rules/totsk/totsk_move.h"
#include "rules/totsk/totsk_report.h"
#include "rules/unit_grid.h"

#include <algorithm>
#include <cstdio>
#include <mutex>

namespace vedette {

namespace {

class TotskRuleset : public Ruleset {
 public:
  explicit TotskRuleset(const RulesetOptions& options)
      : data_(totsk::LoadTotskData((options.assets_dir.empty() ? AssetsDir() : options.assets_dir) +
                                   "/rulesets/totsk.yaml")),
        settings_(totsk::ParseTotskSettings(options.settings, "settings")) {}

  RulesetInfo Info() const override { return {"totsk", data_.title, "BW", geom::ArcModel::kTotsk,
            {"rules", "threat_distance", "threat_distance_bw", "morale_ranges", "charged_by_cavalry", "second_move",
             "pursuit", "army_morale", "forced_back"}}; }

  Findings Analyze(const Scene& scene, const AnalyzeOptions& options) const override {
    std::lock_guard<std::mutex> lock(memo_mutex_);
    const UnitGrid grid(scene);  // for the overlaps, and for the analysis when it measures every unit
    Findings f = totsk::MakeFindings(data_, settings_, scene, totsk::AnalyzeTotsk(data_, settings_, scene, &memo_, &grid), options);
    // QRS 97, 103, 105: pursuit, the generals' bonus moves, wing and army morale.
    totsk::AfterCombatFindings after = totsk::AnalyzeAfterCombat(data_, settings_, scene, options.report || options.text);
    if (options.report)
      for (auto& [k, v] : after.report.items()) f.report[k] = std::move(v);
    if (options.text) f.text += after.text;
    if (options.picture) {
      f.tests.insert(f.tests.end(), after.tests.begin(), after.tests.end());
      f.drawing.insert(f.drawing.end(), after.drawing.begin(), after.drawing.end());
    }
    AppendOverlaps(scene, grid, data_.tolerances.contact_mm, options, &f);
    return f;
  }

  // Every threshold TotSK sets between two units (dispute, measure --ruleset). The list depends only on
  // the two units' sides, types and formations, never on where they stand, so a dispute from a photo
  // lists the same rules as the truth; where a rule also needs an arc or a side (behind a flank, facing),
  // its words say whether that holds. Each rests on a line of the QRS (seed 001) or the FAQ (seed 000).
  std::vector<PairRule> PairRules(const Scene& scene, const std::string& from, const std::string& to) const override {
    std::vector<PairRule> rules = Ruleset::PairRules(scene, from, to);  // in contact, within 1 BW, A in B's ZOC
    const Unit* a = scene.FindUnit(from);
    const Unit* b = scene.FindUnit(to);
    if (a->side != b->side)  // QRS 29-31, the other way round
      rules.push_back({"in " + a->id + "'s zone of control (" + b->id + " within 1 BW straight ahead of its front edge, QRS 29-31)",
                       "zoc_reach", data_.zoc_depth_bw * scene.BwFor(*a),
                       geom::InCorridor(Footprint(*a), geom::Edge::kFront, data_.zoc_depth_bw * scene.BwFor(*a), Footprint(*b),
                                        data_.tolerances.line_mm).reach_mm});
    const totsk::Tolerances& tol = data_.tolerances;
    const geom::Base fa = Footprint(*a), fb = Footprint(*b);
    const double gap = geom::BaseToBase(fa, fb).distance_mm;
    const totsk::MoraleRanges& r = settings_.Ranges(data_);
    const bool faq = settings_.morale_ranges != "qrs";
    auto bw_text = [](double bw) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%g BW", bw);
      return std::string(buf);
    };
    for (const auto& [x, y] : {std::pair{a, b}, std::pair{b, a}}) {
      const geom::Base& fx = x == a ? fa : fb;
      const geom::Base& fy = x == a ? fb : fa;
      const double bw_x = scene.BwFor(*x), bw_y = scene.BwFor(*y);
      if (x->side != y->side) {
        // Under fire (QRS 73, FAQ "the range these units can cause a morale test"): formed infantry and
        // artillery straight ahead; LI at anything ahead of their front-edge line. Limbered guns cannot fire.
        const char* source = faq ? "FAQ; QRS 73" : "QRS 73";
        const bool can_fire = (x->type == UnitType::kInfantry) || (x->type == UnitType::kArtillery && !totsk::Limbered(*x));
        if (can_fire && totsk::IsLightInfantry(*x)) {
          const bool away = totsk::FacesAway(fx, fy, tol.line_mm);
          rules.push_back({y->id + " under " + x->id + "'s light infantry fire: within " + bw_text(r.light_infantry) +
                               " edge to edge, ahead of its front-edge line (" + source + "; " + y->id +
                               (away ? " is behind that line: out of its arc)" : " is ahead of it)"),
                           "edge_to_edge", r.light_infantry * bw_x, gap});
        } else if (can_fire) {
          const double range_bw = x->type == UnitType::kArtillery ? r.artillery : r.foot;
          rules.push_back({y->id + " under " + x->id + "'s fire: within " + bw_text(range_bw) + " straight ahead of its front edge (" +
                               source + ")",
                           "straight_ahead_reach", range_bw * bw_x,
                           geom::InCorridor(fx, geom::Edge::kFront, range_bw * bw_x, fy, tol.line_mm).reach_mm});
          if (x->type == UnitType::kArtillery)
            rules.push_back({y->id + " under " + x->id + "'s bombardment: within " + bw_text(data_.bombardment_range_bw) +
                                 " straight ahead, with another gun (QRS 76)",
                             "straight_ahead_reach", data_.bombardment_range_bw * bw_x,
                             geom::InCorridor(fx, geom::Edge::kFront, data_.bombardment_range_bw * bw_x, fy, tol.line_mm).reach_mm});
        }
        // QRS 75: infantry within reach of enemy cavalry tests (unless secure); the FAQ halves it.
        if (x->type == UnitType::kCavalry && y->type == UnitType::kInfantry)
          rules.push_back({y->id + " within " + x->id + "'s cavalry reach, " + bw_text(r.cavalry) +
                               " edge to edge: infantry tests unless secure (" + (faq ? "FAQ; QRS 75" : "QRS 75") + ")",
                           "edge_to_edge", r.cavalry * bw_x, gap});
        // FAQ "Applying penalties" (QRS 87-88 said 4 BW): an enemy behind a flank or the rear within the
        // threat distance of the flanked unit's army, unless LI/LH or facing away.
        if (!totsk::IsGeneral(*x) && !totsk::IsGeneral(*y)) {
          const double threat_bw = settings_.ThreatBw(data_);
          std::string where = x->id + " is not behind " + y->id + "'s flanks or rear";
          if (!totsk::FacesAway(fx, fy, tol.line_mm)) {
            for (const geom::Base& xb : BasesOf(*x))
              if (const auto side = totsk::BehindSide(fy, xb, tol.line_mm)) {
                where = x->id + " is behind " + y->id + "'s " + (*side == totsk::Side::kRear ? "rear" :
                        *side == totsk::Side::kLeftFlank ? "left flank" : "right flank");
                break;
              }
          } else {
            where = x->id + " faces away from " + y->id + " (FAQ case 2: no threat)";
          }
          if (totsk::IsLightTroops(*x)) where += "; LI and LH give no flank or rear penalty";
          rules.push_back({x->id + " within the threat distance of " + y->id + ", " + bw_text(threat_bw) +
                               " behind a flank or the rear (FAQ \"Applying penalties\"; " + where + ")",
                           "edge_to_edge", threat_bw * bw_y, gap});
        }
      } else {
        // Friends: rear support (QRS 86), flank support (FAQ "Flank support") and a secure flank (QRS 89),
        // each measured from y's edge; generals' re-roll (QRS 101).
        if (x->type == UnitType::kInfantry || x->type == UnitType::kCavalry) {
          const double reach_bw = x->type == UnitType::kCavalry ? data_.rear_support_cavalry_bw : data_.rear_support_infantry_bw;
          rules.push_back({x->id + " gives " + y->id + " rear support: within " + bw_text(reach_bw) + " behind its rear edge, facing within 90 degrees of it (QRS 86)",
                           "rear_reach", reach_bw * bw_y,
                           geom::InCorridor(fy, geom::Edge::kRear, reach_bw * bw_y, fx, tol.line_mm).reach_mm});
          // Beside y: the nearer of its two side edges to x's base; the rules also need x's centre beyond
          // that side's line, which the words say.
          double side_gap = 1e9;
          for (geom::Edge e : {geom::Edge::kLeft, geom::Edge::kRight})
            side_gap = std::min(side_gap, totsk::SegmentToPolygon(geom::EdgeSegment(fy, e), geom::PolygonCcw(fx)));
          const bool left = geom::OutsideLeftLine(fy).SignedDistance(fx.centre_mm) > 0.0;
          const bool right = geom::OutsideRightLine(fy).SignedDistance(fx.centre_mm) > 0.0;
          const std::string beside = left    ? x->id + " is on its left"
                                     : right ? x->id + " is on its right"
                                             : x->id + "'s centre is between its side lines: not beside it";
          rules.push_back({x->id + " beside " + y->id + "'s flank within " + bw_text(data_.flank_support_distance_bw) +
                               ": flank support, level with it and facing within 45 degrees (FAQ \"Flank support\"; " + beside + ")",
                           "flank_edge_to_edge", data_.flank_support_distance_bw * bw_y, side_gap});
          if (y->type == UnitType::kInfantry)
            rules.push_back({x->id + " within " + bw_text(data_.secure_distance_bw) + " of " + y->id +
                                 "'s flank: that flank is secure (QRS 89; " + beside + ")",
                             "flank_edge_to_edge", data_.secure_distance_bw * bw_y, side_gap});
        }
        if (totsk::IsGeneral(*x) && !totsk::IsGeneral(*y))
          rules.push_back({x->id + " within " + bw_text(data_.general_reroll_bw) + " of " + y->id +
                               ": may re-roll one morale test per turn (QRS 101)",
                           "edge_to_edge", data_.general_reroll_bw * bw_y, gap});
        // QRS 93: an artillery crew may shelter in a friendly unit within 2 BW.
        if (x->type == UnitType::kArtillery && (y->type == UnitType::kInfantry || y->type == UnitType::kCavalry))
          rules.push_back({y->id + " within " + bw_text(data_.after.crew_shelter_bw) + " of " + x->id + ": " + x->id +
                               "'s crew may shelter in it (QRS 93)",
                           "edge_to_edge", data_.after.crew_shelter_bw * bw_x, gap});
        // QRS 97 "-1 General within 1BW" on a pursuit test; QRS 103 bonus moves for units within 6 BW.
        if (totsk::IsGeneral(*x) && !totsk::IsGeneral(*y)) {
          rules.push_back({x->id + " within " + bw_text(data_.after.pursuit_general_bw) + " of " + y->id +
                               ": -1 to its pursuit test (QRS 97)",
                           "edge_to_edge", data_.after.pursuit_general_bw * bw_y, gap});
          rules.push_back({y->id + " within " + bw_text(data_.after.bonus_general_bw) + " of " + x->id +
                               ": may take " + x->id + "'s bonus moves and action tests (QRS 103)",
                           "edge_to_edge", data_.after.bonus_general_bw * bw_y, gap});
        }
      }
    }
    return rules;
  }

  // QRS 103: a General's points are "per level" each turn, and a unit's bonus move costs it its morale
  // effect only in the enemy's next turn: both end when its own side's next turn starts.
  std::vector<StateChange> TurnStartChanges(const Scene& scene, const std::string& side) const override {
    std::vector<StateChange> out;
    for (const Unit& u : scene.units)
      if (u.side == side && scene.declarations.Flag(u.id, "bonus_move"))
        out.push_back({u.id, "bonus_move", false, "a new turn of " + side + ": last turn's bonus moves are over (QRS 103)"});
    return out;
  }

  MoveCheck CheckMove(const Scene& scene, const MoveRequest& move) const override {
    return totsk::CheckTotskMove(data_, settings_, scene, move);
  }

  GroupMoveCheck CheckGroupMove(const Scene& scene, const std::vector<MoveRequest>& moves) const override {
    return totsk::CheckTotskGroupMove(data_, settings_, scene, moves);
  }

 private:
  totsk::TotskData data_;
  totsk::TotskSettings settings_;
  // The last analysis, reused on the next call where nothing it read changed (totsk::AnalysisMemo).
  mutable std::mutex memo_mutex_;
  mutable totsk::AnalysisMemo memo_;
};

}  // namespace

std::unique_ptr<Ruleset> MakeTotskRuleset(const RulesetOptions& options) {
  return std::make_unique<TotskRuleset>(options);
}

}  // namespace vedette
