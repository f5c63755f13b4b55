// `--ruleset totsk`: Twilight of the Soldier Kings. The numbers come from assets/rulesets/totsk.yaml,
// the QRS-or-FAQ choices from the settings (FAQ by default).
#include "rules/ruleset.h"
#include "rules/totsk/totsk_analysis.h"
#include "rules/totsk/totsk_data.h"
#include "rules/totsk/totsk_group_move.h"
#include "rules/totsk/totsk_move.h"
#include "rules/totsk/totsk_report.h"

namespace vedette {

namespace {

class TotskRuleset : public Ruleset {
 public:
  explicit TotskRuleset(const RulesetOptions& options)
      : data_(totsk::LoadTotskData((options.assets_dir.empty() ? AssetsDir() : options.assets_dir) +
                                   "/rulesets/totsk.yaml")),
        settings_(totsk::ParseTotskSettings(options.settings, "settings")) {}

  RulesetInfo Info() const override { return {"totsk", data_.title, "BW", geom::ArcModel::kTotsk,
            {"rules", "threat_distance", "threat_distance_bw", "morale_ranges", "charged_by_cavalry", "second_move"}}; }

  Findings Analyze(const Scene& scene) const override {
    return totsk::MakeFindings(data_, settings_, scene, totsk::AnalyzeTotsk(data_, settings_, scene));
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
};

}  // namespace

std::unique_ptr<Ruleset> MakeTotskRuleset(const RulesetOptions& options) {
  return std::make_unique<TotskRuleset>(options);
}

}  // namespace vedette
