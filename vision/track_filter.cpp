#include "vision/track_filter.h"

#include <algorithm>
#include <cmath>

namespace vedette::vision {

bool PoseFilterOptions::Check(std::string* error) const {
  auto fail = [&](const std::string& m) { if (error) *error = m; return false; };
  if (!(rest_window_s > 0)) return fail("rest_window_s must be positive (s)");
  if (step_frames < 1 || step_frames > 60) return fail("step_frames must be 1..60");
  if (!(step_gate_sigma > 0)) return fail("step_gate_sigma must be positive");
  if (!(jump_gate_sigma > step_gate_sigma / std::sqrt(double(step_frames))))
    return fail("jump_gate_sigma must exceed step_gate_sigma / sqrt(step_frames)");
  if (!(jump_min_mm >= 0) || !(jump_min_deg >= 0)) return fail("jump_min_mm and jump_min_deg must be >= 0");
  if (!(moving_time_constant_s >= 0)) return fail("moving_time_constant_s must be >= 0 (s)");
  if (!(rest_after_s > 0)) return fail("rest_after_s must be positive (s)");
  if (!(rest_spread_sigma > 0) || !(rest_spread_min_mm >= 0) || !(rest_spread_min_deg >= 0))
    return fail("rest spread limits must be positive");
  if (!(min_sigma_mm > 0) || !(min_sigma_deg > 0)) return fail("sigma floors must be positive");
  return true;
}

double AngleDiffDeg(double a, double b) {
  double d = std::remainder(a - b, 360.0);
  if (d <= -180) d += 360;
  return d;
}

namespace {

struct Mean {
  double x = 0, y = 0, h = 0, wxy = 0, wh = 0;
  int n = 0;
};

template <class It>
Mean MeanOf(It begin, It end) {
  Mean m;
  for (It it = begin; it != end; ++it) {
    m.x += it->wxy * it->x;
    m.y += it->wxy * it->y;
    m.h += it->wh * it->h;
    m.wxy += it->wxy;
    m.wh += it->wh;
    ++m.n;
  }
  if (m.n > 0) {
    m.x /= m.wxy;
    m.y /= m.wxy;
    m.h /= m.wh;
  }
  return m;
}

double Wrap180(double h) { return AngleDiffDeg(h, 0.0); }

}  // namespace

void PoseFilter::RecomputeRest() {
  const Mean m = MeanOf(rest_.begin(), rest_.end());
  pose_ = {m.x, m.y, m.h};
  // The standard error of a weighted mean; never below what the spread of the samples says, so a
  // slow drift the test has not caught yet still shows in the uncertainty.
  sigma_mm_ = 1.0 / std::sqrt(m.wxy);
  sigma_deg_ = 1.0 / std::sqrt(m.wh);
  vx_ = vy_ = vh_ = 0;
}

void PoseFilter::RestFrom(std::deque<Sample> samples) {
  rest_ = std::move(samples);
  recent_.clear();
  at_rest_ = true;
  RecomputeRest();
}

PoseFilterStep PoseFilter::Update(const PoseMeasurement& m) {
  PoseFilterStep step;
  const double sm = std::max(m.sigma_mm, o_.min_sigma_mm), sd = std::max(m.sigma_deg, o_.min_sigma_deg);
  meas_sigma_mm_ = sm;
  meas_sigma_deg_ = sd;
  if (!initialized_) {
    initialized_ = true;
    at_rest_ = false;
    pose_ = m.pose;
    sigma_mm_ = sm;
    sigma_deg_ = sd;
    last_t_ = m.t;
    recent_.push_back({m.t, m.pose.x_mm, m.pose.y_mm, pose_.heading_deg, 1 / (sm * sm), 1 / (sd * sd)});
    return step;
  }
  const double dt = std::max(1e-6, m.t - last_t_);
  // Unwrap the measured heading next to the current estimate.
  const double h = pose_.heading_deg + AngleDiffDeg(m.pose.heading_deg, pose_.heading_deg);
  const Sample s{m.t, m.pose.x_mm, m.pose.y_mm, h, 1 / (sm * sm), 1 / (sd * sd)};
  last_t_ = m.t;
  if (!at_rest_) UpdateMoving(s, dt, sm, sd, &step);
  else if (Jumped(s, sm, sd)) StartMoving(s, dt, sm, sd, &step);
  else UpdateAtRest(s, &step);
  return step;
}

bool PoseFilter::Jumped(const Sample& s, double sm, double sd) const {
  const double dxy = std::hypot(s.x - pose_.x_mm, s.y - pose_.y_mm);
  const double dh = std::abs(s.h - pose_.heading_deg);
  return (dxy > o_.jump_gate_sigma * sm && dxy > o_.jump_min_mm) || (dh > o_.jump_gate_sigma * sd && dh > o_.jump_min_deg);
}

// A move began: follow it from this measurement.
void PoseFilter::StartMoving(const Sample& s, double dt, double sm, double sd, PoseFilterStep* step) {
  at_rest_ = false;
  step->started_moving = true;
  // After a gap (the unit was hidden or lifted) the displacement says nothing about speed.
  const bool gap = dt > 2 * o_.rest_after_s;
  vx_ = gap ? 0 : (s.x - pose_.x_mm) / dt;
  vy_ = gap ? 0 : (s.y - pose_.y_mm) / dt;
  vh_ = gap ? 0 : (s.h - pose_.heading_deg) / dt;
  pose_ = {s.x, s.y, s.h};
  sigma_mm_ = sm;
  sigma_deg_ = sd;
  rest_.clear();
  recent_.assign(1, Sample{s.t, s.x, s.y, pose_.heading_deg, s.wxy, s.wh});
}

// At rest: the sample joins the mean, unless the last step_frames depart from the older ones (a nudge).
void PoseFilter::UpdateAtRest(const Sample& s, PoseFilterStep* step) {
  rest_.push_back(s);
  while (rest_.size() > 1 && s.t - rest_.front().t > o_.rest_window_s) rest_.pop_front();
  const int k = o_.step_frames;
  if (int(rest_.size()) >= 2 * k) {
    const Mean older = MeanOf(rest_.begin(), rest_.end() - k);
    const Mean newer = MeanOf(rest_.end() - k, rest_.end());
    const double se_xy = std::sqrt(1 / older.wxy + 1 / newer.wxy);
    const double se_h = std::sqrt(1 / older.wh + 1 / newer.wh);
    const double d_xy = std::hypot(newer.x - older.x, newer.y - older.y);
    const double d_h = std::abs(newer.h - older.h);
    if (d_xy > o_.step_gate_sigma * se_xy || d_h > o_.step_gate_sigma * se_h) {
      step->nudged = true;
      std::deque<Sample> keep(rest_.begin() + NudgeSplit(), rest_.end());
      RestFrom(std::move(keep));
      return;
    }
  }
  RecomputeRest();
}

// The nudge happened somewhere in the last k frames: the split that separates the samples after it
// most clearly from what came before (so a push seen in only the newest sample restarts from that
// sample, not from a mix of old and new).
int PoseFilter::NudgeSplit() const {
  const int k = o_.step_frames;
  int best_j = int(rest_.size()) - k;
  double best_score = -1;
  for (int j = int(rest_.size()) - k; j < int(rest_.size()); ++j) {
    const Mean before = MeanOf(rest_.begin(), rest_.begin() + j);
    const Mean after = MeanOf(rest_.begin() + j, rest_.end());
    const double sx = std::hypot(after.x - before.x, after.y - before.y) / std::sqrt(1 / before.wxy + 1 / after.wxy);
    const double sh = std::abs(after.h - before.h) / std::sqrt(1 / before.wh + 1 / after.wh);
    const double score = std::max(sx, sh);
    if (score > best_score) best_score = score, best_j = j;
  }
  return best_j;
}

// Moving: alpha-beta filter; at rest again once the last rest_after_s of samples stay together.
void PoseFilter::UpdateMoving(const Sample& s, double dt, double sm, double sd, PoseFilterStep* step) {
  const Pose pred{pose_.x_mm + vx_ * dt, pose_.y_mm + vy_ * dt, pose_.heading_deg + vh_ * dt};
  const double a = o_.moving_time_constant_s > 0 ? 1 - std::exp(-dt / o_.moving_time_constant_s) : 1.0;
  const double b = 0.5 * a;
  const double ix = s.x - pred.x_mm, iy = s.y - pred.y_mm, ih = s.h - pred.heading_deg;
  pose_.x_mm = pred.x_mm + a * ix;
  pose_.y_mm = pred.y_mm + a * iy;
  const double hh = pred.heading_deg + a * ih;
  vx_ += b * ix / dt;
  vy_ += b * iy / dt;
  vh_ += b * ih / dt;
  sigma_mm_ = sm;
  sigma_deg_ = sd;
  recent_.push_back({s.t, s.x, s.y, s.h, s.wxy, s.wh});
  // Keep just enough history to span rest_after_s.
  while (recent_.size() > 2 && s.t - recent_[1].t >= o_.rest_after_s - 1e-9) recent_.pop_front();
  pose_.heading_deg = hh;
  // Unwrap the kept samples next to each other (they were unwrapped against a moving estimate).
  for (size_t i = 1; i < recent_.size(); ++i)
    recent_[i].h = recent_[i - 1].h + AngleDiffDeg(recent_[i].h, recent_[i - 1].h);
  if (RecentAreStill(sm, sd)) {
    step->came_to_rest = true;
    RestFrom(recent_);
  }
}

// Still for rest_after_s: every recent sample within the spread limits of their mean.
bool PoseFilter::RecentAreStill(double sm, double sd) const {
  if (recent_.size() < 2 || recent_.back().t - recent_.front().t < o_.rest_after_s - 1e-9) return false;
  const Mean mean = MeanOf(recent_.begin(), recent_.end());
  const double lim_xy = std::max(o_.rest_spread_sigma * sm, o_.rest_spread_min_mm);
  const double lim_h = std::max(o_.rest_spread_sigma * sd, o_.rest_spread_min_deg);
  bool still = true;
  for (const Sample& q : recent_)
    still = still && std::hypot(q.x - mean.x, q.y - mean.y) <= lim_xy && std::abs(q.h - mean.h) <= lim_h;
  return still;
}

Pose PoseFilter::pose() const { return {pose_.x_mm, pose_.y_mm, Wrap180(pose_.heading_deg)}; }

void PoseFilter::Hold() {
  vx_ = vy_ = vh_ = 0;
  recent_.clear();
}

Pose PoseFilter::Predict(double t) const {
  const double dt = std::clamp(t - last_t_, 0.0, 0.5);
  return {pose_.x_mm + vx_ * dt, pose_.y_mm + vy_ * dt, Wrap180(pose_.heading_deg + vh_ * dt)};
}

}  // namespace vedette::vision
