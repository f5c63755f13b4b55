#include "rules/verdict.h"

#include <algorithm>
#include <cmath>

#include <cmath>
#include <cstdio>

#include "rules/geometry/vec.h"

namespace vedette {

double DistanceSigmaMm(const PoseUncertainty& a, double lever_a_mm, const PoseUncertainty& b, double lever_b_mm) {
  const double ra = geom::DegToRad(a.heading_deg) * lever_a_mm;
  const double rb = geom::DegToRad(b.heading_deg) * lever_b_mm;
  return std::sqrt(a.position_mm * a.position_mm + ra * ra + b.position_mm * b.position_mm + rb * rb);
}

bool VerdictOptions::Check(std::string* error) const {
  if (!(k_sigma >= 0)) {
    if (error) *error = "k_sigma must be zero or positive";
    return false;
  }
  if (!(min_margin_mm >= 0)) {
    if (error) *error = "min_margin_mm must be zero or positive (mm)";
    return false;
  }
  return true;
}

Verdict DecideRule(const VerdictOptions& options, const PairRule& rule, double sigma_mm) {
  Verdict v;
  v.margin_mm = rule.threshold_mm - rule.measured_mm;
  v.sigma_mm = std::max(0.0, sigma_mm);
  char buf[128];
  if (!std::isfinite(v.margin_mm)) {
    // An infinite measurement (the quantity does not apply: not in the corridor at all) is a clear NO.
    v.kind = v.margin_mm > 0 ? VerdictKind::kYes : VerdictKind::kNo;
    v.text = v.kind == VerdictKind::kYes ? "YES" : "NO";
    return v;
  }
  const double needed = std::max(options.k_sigma * v.sigma_mm, options.min_margin_mm);
  if (std::abs(v.margin_mm) <= needed) {
    v.kind = VerdictKind::kTooCloseToCall;
    std::snprintf(buf, sizeof buf, "TOO CLOSE TO CALL (%s)", MmWithSigma(v.margin_mm, v.sigma_mm, true).c_str());
  } else if (v.margin_mm > 0) {
    v.kind = VerdictKind::kYes;
    std::snprintf(buf, sizeof buf, "YES by %s", MmWithSigma(v.margin_mm, v.sigma_mm).c_str());
  } else {
    v.kind = VerdictKind::kNo;
    std::snprintf(buf, sizeof buf, "NO by %s", MmWithSigma(-v.margin_mm, v.sigma_mm).c_str());
  }
  v.text = buf;
  return v;
}

std::vector<Verdict> DecideRules(const VerdictOptions& options, const std::vector<PairRule>& rules, double sigma_mm) {
  std::vector<Verdict> out;
  out.reserve(rules.size());
  for (const PairRule& r : rules) out.push_back(DecideRule(options, r, sigma_mm));
  return out;
}

std::string_view ToString(VerdictKind k) {
  switch (k) {
    case VerdictKind::kYes: return "yes";
    case VerdictKind::kNo: return "no";
    case VerdictKind::kTooCloseToCall: return "too_close_to_call";
  }
  return "?";
}

std::string MmWithSigma(double value_mm, double sigma_mm, bool sign) {
  const int decimals = sigma_mm > 0 && std::isfinite(sigma_mm)
                           ? std::clamp(1 - static_cast<int>(std::floor(std::log10(sigma_mm))), 1, 6)
                           : 1;
  char buf[96];
  std::snprintf(buf, sizeof buf, sign ? "%+.*f \u00b1 %.*f mm" : "%.*f \u00b1 %.*f mm", decimals, value_mm, decimals, sigma_mm);
  return buf;
}

}  // namespace vedette
