#pragma once
// Samples of one figure over a benchmark's frames (ms, mm, deg), with the percentiles and mean the
// tables print.
#include <time.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include <nlohmann/json.hpp>

namespace vedette::bench {

struct Stats {
  std::vector<double> v;
  void Add(double x) { v.push_back(x); }
  // The p-quantile (0..1), nearest rank; NaN with no samples.
  double Pct(double p) const {
    if (v.empty()) return NAN;
    std::vector<double> s = v;
    std::sort(s.begin(), s.end());
    return s[std::min(s.size() - 1, size_t(p * (s.size() - 1) + 0.5))];
  }
  double Mean() const {
    double m = 0;
    for (double x : v) m += x;
    return v.empty() ? NAN : m / v.size();
  }
  nlohmann::json Json() const { return {{"p50", Pct(0.5)}, {"p95", Pct(0.95)}, {"mean", Mean()}}; }
};

// CPU time of this thread, ms: on a machine shared with compiles the wall clock also counts the time
// the scheduler gave to others; the benchmarks time both ways and show both.
inline double ThreadCpuMs() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

}  // namespace vedette::bench
