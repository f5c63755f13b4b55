#pragma once
// Verdicts for disputes: does a rule's threshold hold between two units, given the measurement's
// uncertainty? Pure C++ on rules/ values (no OpenCV, no GL) so it can move into rules/ unchanged.
//
// A PairRule holds when measured_mm <= threshold_mm; its margin is threshold - measured. The call
// is made only when the margin is outside k standard deviations of the measurement (and above the
// display resolution); otherwise the answer is "TOO CLOSE TO CALL", with the numbers.
#include <string>
#include <vector>

#include "rules/ruleset.h"

namespace vedette {

// How well a unit's pose is known (1 sigma).
struct PoseUncertainty {
  double position_mm = 0.0;  // each of x and y, mm
  double heading_deg = 0.0;  // deg
};

// 1-sigma uncertainty (mm) of a distance between two units' outlines. Each unit adds its position
// sigma and its heading sigma times `lever_mm` (how far from the pose centre the measured point
// can be: half the outline's diagonal is the safe choice); independent errors add in quadrature.
double DistanceSigmaMm(const PoseUncertainty& a, double lever_a_mm, const PoseUncertainty& b, double lever_b_mm);

enum class VerdictKind { kYes, kNo, kTooCloseToCall };

struct Verdict {
  VerdictKind kind = VerdictKind::kTooCloseToCall;
  double margin_mm = 0.0;  // threshold - measured, mm (> 0: the rule holds)
  double sigma_mm = 0.0;   // 1 sigma of the margin, mm
  std::string text;        // "YES by 3.1 ± 0.4 mm", "NO by 2.0 ± 0.4 mm", "TOO CLOSE TO CALL (+0.3 ± 0.4 mm)"
};

struct VerdictOptions {
  double k_sigma = 3.0;          // a call needs |margin| > k_sigma * sigma, k = 3: a true margin of 0 is miscalled 0.3 % of the time
  double min_margin_mm = 0.05;   // and |margin| above this, mm: the printed resolution
  bool Check(std::string* error) const;
};

Verdict DecideRule(const VerdictOptions& options, const PairRule& rule, double sigma_mm);
std::vector<Verdict> DecideRules(const VerdictOptions& options, const std::vector<PairRule>& rules, double sigma_mm);

std::string_view ToString(VerdictKind k);

// "12.35 ± 0.049 mm": sigma to two significant figures and the value to as many decimals (at
// least one); `sign`: "+12.35" for a positive value.
std::string MmWithSigma(double value_mm, double sigma_mm, bool sign = false);  // "yes", "no", "too_close_to_call"

}  // namespace vedette
