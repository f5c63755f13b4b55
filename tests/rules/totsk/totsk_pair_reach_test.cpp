// The analysis looks at a pair of units without a gun only within the reach of the rules such a
// pair can have (2 BW under the FAQ's readings, 4 BW under the QRS's threat distance), and at a pair
// with a gun as far as fire and bombardment reach (6 BW). Looking at every pair as far as a gun's
// must change no answer, under every reading of the ranges and the threat distance.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "rules/ruleset.h"
#include "rules/scene/synthetic_table.h"
#include "rules/totsk/totsk_analysis.h"
#include "rules/totsk/totsk_data.h"
#include "tests/rules/totsk/totsk_describe.h"

namespace vedette {
namespace {

// A dense random table with the declarations that reach across pairs: declared targets (the
// notes when out of reach), failed morale, generals attached.
Scene DeclaredTable(int units, uint64_t seed) {
  SyntheticTableOptions o;
  o.units = units;
  o.seed = seed;
  o.contact_share = 0.15;
  Scene s = MakeSyntheticTable(o);
  std::string general;
  for (const Unit& u : s.units)
    if (u.type == UnitType::kGeneral && u.side == "blue") general = u.id;
  for (size_t i = 0; i < s.units.size(); ++i) {
    const Unit& u = s.units[i];
    if (u.type == UnitType::kGeneral || i % 5 != 2) continue;
    auto& d = s.declarations.units[u.id];
    d["failed_morale"] = Declared{i % 2 == 0, 0};
    d["target"] = Declared{s.units[(i * 13 + 1) % s.units.size()].id, 0};
    if (!general.empty() && u.side == "blue") d["general_attached"] = Declared{general, 0};
  }
  // A target that is a general or a friend is refused by the declarations' check of a move, not
  // by the analysis: the analysis only notes that it is not in range.
  return s;
}

TEST(TotskPairReach, EveryPairAtAGunsReachChangesNoAnswer) {
  const totsk::TotskData data = totsk::LoadTotskData(AssetsDir() + "/rulesets/totsk.yaml");
  const std::vector<std::map<std::string, std::string>> readings = {
      {}, {{"threat_distance", "qrs"}}, {{"morale_ranges", "qrs"}}, {{"rules", "qrs"}}, {{"threat_distance_bw", "3.5"}}};
  int compared = 0;
  for (const auto& reading : readings) {
    const totsk::TotskSettings settings = totsk::ParseTotskSettings(reading, "test");
    for (uint64_t seed = 1; seed <= 12; ++seed) {
      const Scene s = DeclaredTable(seed % 2 ? 150 : 90, seed);
      const std::string cut = totsk_test::Describe(totsk::AnalyzeTotsk(data, settings, s));
      const std::string every = totsk_test::Describe(totsk::AnalyzeTotsk(data, settings, s, totsk::PairReach{true}));
      ASSERT_EQ(cut, every) << "seed " << seed << ", settings " << (reading.empty() ? "default" : reading.begin()->first);
      ++compared;
    }
  }
  EXPECT_EQ(compared, 60);
}

}  // namespace
}  // namespace vedette
