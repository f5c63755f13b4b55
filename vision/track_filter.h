#pragma once
// The pose filter of one tracked unit: still when the unit rests, quick when it moves.
//
// Why not a dead-band or a fixed average: a dead-band makes the angle jump in steps, a fixed
// average makes a real move lag. This filter switches between two regimes:
//  - at rest, the estimate is the weighted mean of every measurement since the unit came to rest
//    (up to rest_window_s), so its noise falls as 1/sqrt(n), well below one measurement's;
//    a change test runs on every frame: one measurement beyond jump_gate_sigma starts a move at
//    once, and the mean of the last step_frames measurements departing from the older mean by more
//    than step_gate_sigma standard errors is a nudge (the unit was pushed 1 mm or turned 0.5 deg):
//    the old history is dropped and the estimate restarts from the recent measurements, so a small
//    real move shows after step_frames frames;
//  - moving, a constant-velocity alpha-beta filter with a short time constant follows the
//    measurements with little lag; once the measurements of the last rest_after_s stay within
//    rest_spread_sigma of their mean (and of rest_spread_min_mm / _deg), the unit is at rest again.
// Headings are unwrapped against the estimate, so 179 -> -179 is a 2-degree turn.
#include <deque>
#include <string>

#include "rules/scene/scene.h"

namespace vedette::vision {

struct PoseFilterOptions {
  double rest_window_s = 6.0;        // at rest, average at most this much history, s (longer: steadier, slower to follow drift)
  int step_frames = 3;               // frames in the nudge test (more: fewer false nudges, later detection)
  double step_gate_sigma = 4.5;      // nudge when the recent mean departs by this many standard errors
  double jump_gate_sigma = 10.0;     // one measurement this many sigmas away starts a move at once
  double jump_min_mm = 1.5;          // ... and at least this far (guards against too small a sigma), mm
  double jump_min_deg = 1.5;         // ... or turned at least this much, deg
  double moving_time_constant_s = 0.02;  // smoothing while moving, s (0: follow each measurement)
  double rest_after_s = 0.25;        // still for this long -> at rest, s
  double rest_spread_sigma = 4.0;    // "still": every measurement of that span within this many sigmas of their mean
  double rest_spread_min_mm = 0.3;   // ... or within this distance, mm (sigma floors for tiny noise)
  double rest_spread_min_deg = 0.3;  // ... and this angle, deg
  double min_sigma_mm = 0.01;        // floor on a measurement's sigma, mm
  double min_sigma_deg = 0.01;       // floor on a measurement's sigma, deg
  bool Check(std::string* error) const;
};

struct PoseMeasurement {
  double t = 0;            // s
  Pose pose;               // table frame, mm / deg
  double sigma_mm = 0.1;   // 1-sigma of the position, mm
  double sigma_deg = 0.1;  // 1-sigma of the heading, deg
};

// What one update did.
struct PoseFilterStep {
  bool started_moving = false;  // rest -> moving
  bool came_to_rest = false;    // moving -> rest (or first rest)
  bool nudged = false;          // small move detected while at rest
};

class PoseFilter {
 public:
  explicit PoseFilter(PoseFilterOptions options = {}) : o_(options) {}

  PoseFilterStep Update(const PoseMeasurement& m);
  // Forgets the velocity (the unit was not seen for a while); keeps the pose and the regime.
  void Hold();

  bool initialized() const { return initialized_; }
  bool at_rest() const { return at_rest_; }
  Pose pose() const;                           // estimate, table frame (heading in (-180, 180])
  double vx_mm_s() const { return vx_; }       // velocity, mm/s
  double vy_mm_s() const { return vy_; }
  double vh_deg_s() const { return vh_; }      // turn rate, deg/s
  double sigma_mm() const { return sigma_mm_; }    // 1-sigma of the estimate, mm
  double sigma_deg() const { return sigma_deg_; }  // 1-sigma of the estimate, deg
  double last_t() const { return last_t_; }
  // The pose expected at time t (constant velocity), for the tracker's search windows.
  Pose Predict(double t) const;

 private:
  struct Sample {
    double t, x, y, h, wxy, wh;  // h unwrapped; weights 1/sigma^2
  };
  void RestFrom(std::deque<Sample> samples);
  void RecomputeRest();
  // The steps of Update (sm, sd: the measurement's sigmas, mm and deg, floored; dt: s since the last).
  bool Jumped(const Sample& s, double sm, double sd) const;  // at rest: this sample starts a move
  void StartMoving(const Sample& s, double dt, double sm, double sd, PoseFilterStep* step);
  void UpdateAtRest(const Sample& s, PoseFilterStep* step);
  int NudgeSplit() const;  // index into rest_ of the first sample after a nudge
  void UpdateMoving(const Sample& s, double dt, double sm, double sd, PoseFilterStep* step);
  bool RecentAreStill(double sm, double sd) const;

  PoseFilterOptions o_;
  bool initialized_ = false;
  bool at_rest_ = false;
  Pose pose_;  // heading kept unwrapped, so averages across +-180 stay right
  double vx_ = 0, vy_ = 0, vh_ = 0;
  double sigma_mm_ = 0, sigma_deg_ = 0;
  double last_t_ = 0;
  double meas_sigma_mm_ = 0.1, meas_sigma_deg_ = 0.1;  // latest measurement sigmas
  std::deque<Sample> rest_;    // at rest: history being averaged
  std::deque<Sample> recent_;  // moving: the last rest_after_s of measurements
};

// a - b wrapped to (-180, 180], deg.
double AngleDiffDeg(double a, double b);

}  // namespace vedette::vision
