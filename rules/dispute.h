#pragma once
// Settling "is it within 1 BW?": the distance between unit A and unit B (or a point on the table)
// with its uncertainty, the arc each is in, and every rule threshold the ruleset says applies
// between them (Ruleset::PairRules), answered YES / NO / TOO CLOSE TO CALL (verdict.h).
//
// Uncertainty: each unit's located pose carries sigma_mm (position, each axis) and sigma_deg
// (heading). A heading error turns the outline about the pose centre, moving the measured point by
// up to sigma_deg (rad) times its distance from the centre; half the footprint's diagonal bounds
// that lever. Both units' errors are independent and add in quadrature (DistanceSigmaMm). Every
// threshold of the pair is judged against that one sigma: the margin of a rule is a difference of
// the same two outlines. A call needs |margin| > k sigma with k = 3 (VerdictOptions::k_sigma):
// a true margin of zero is then called wrongly about 3 times in 1000.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "rules/verdict.h"
#include "rules/drawing.h"
#include "rules/measure.h"
#include "rules/ruleset.h"
#include "rules/scene/scene.h"

namespace vedette {

struct DisputeOptions {
  VerdictOptions verdict;  // k_sigma = 3
  DisputeOptions() { verdict.k_sigma = 3.0; }
  bool Check(std::string* error) const { return verdict.Check(error); }
};

struct Dispute {
  std::string from, to;               // unit ids; `to` empty when measuring to a point
  std::optional<geom::Vec2> to_point; // table mm, when B is a point
  std::string unit_name;              // the ruleset's unit: "BW" or "in"
  double unit_mm = 40.0;              // 1 unit of A's army, mm
  double distance_mm = 0.0;           // closest edge to edge (or outline to point), mm
  double leader_mm = 0.0;             // A's leader point to B's closest point (or to the point), mm
  double sigma_mm = 0.0;              // 1 sigma of the distances, mm
  geom::Vec2 closest_on_from{0, 0}, closest_on_to{0, 0};  // the measured gap's ends, table mm
  std::string arc_of_to;              // the arc of B that A is in ("" for a point)
  std::string arc_of_from;            // the arc of A that B (or the point) is in
  PoseUncertainty from_sigma, to_sigma;
  std::vector<PairRule> rules;
  std::vector<Verdict> verdicts;      // one per rule
};

// `sigmas`: per unit id, how well its pose is known (a unit not listed counts as exact).
// Throws InputError (naming the scene) when a unit is missing or has no pose.
Dispute SettleDispute(const DisputeOptions& options, const Ruleset& ruleset, const Scene& scene,
                      const std::map<std::string, PoseUncertainty>& sigmas, const std::string& from,
                      const std::string& to);
Dispute SettleDisputeToPoint(const DisputeOptions& options, const Ruleset& ruleset, const Scene& scene,
                             const std::map<std::string, PoseUncertainty>& sigmas, const std::string& from,
                             const geom::Vec2& point_mm);

// {"from","to","distance_mm","sigma_mm","distance_bw","leader_mm","arc_of_to","arc_of_from",
//  "verdicts":[{"rule","quantity","threshold_mm","measured_mm","margin_mm","sigma_mm","verdict","text"}]}
// `distance_bw` is in the ruleset's unit (named by "unit").
nlohmann::json ToJson(const Dispute& d);
// Lines for a person: distance, arcs, one line per rule.
std::string ToText(const Dispute& d);
// "YES", "NO", "TOO_CLOSE_TO_CALL"
std::string VerdictWord(VerdictKind k);

// The measured gap drawn on the overlay (layer "measure"): a line between the closest points
// and a label with the distance and its uncertainty.
std::vector<DrawPrimitive> DisputePrimitives(const Dispute& d);

// Half the diagonal of the unit's footprint, mm: the lever of its heading error.
double HeadingLeverMm(const Unit& u);

}  // namespace vedette
