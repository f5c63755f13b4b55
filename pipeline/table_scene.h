#pragma once
// The table as the rules see it, rebuilt from the tracker's units: the roster (with the players'
// declarations) and the pose of every unit on the table. Seen, moving, at-rest and occluded units
// are on the table (a hand over a unit does not take it off); lifted, removed and never-seen ones
// are not.
#include <map>
#include <string>
#include <vector>

#include "rules/scene/scene.h"
#include "vision/track_frame.h"

namespace vedette::pipeline {

enum class TablePoses {
  kNow,     // where each unit is now (what the overlay and the analysis show)
  kAtRest,  // where each unit last came to rest (what a move is judged against)
};

// `at`: units placed elsewhere (a move's start), on the table whatever their state.
Scene TableScene(const Scene& roster, const std::vector<vision::TrackedUnit>& units, TablePoses poses,
                 const std::map<std::string, Pose>& at = {});

// Each unit of `now` keeps its pose in `analysed` (the table the rules last saw) until it has moved
// more than `mm` or turned more than `deg` from it, so that a resting unit, whose tracked running
// mean differs in the hundredths of a mm from frame to frame, is the same input to the rules each
// time: a ruleset that reuses its results per unit (Kings of War's) is then served while one unit
// moves. Both scenes are of one roster, units in the same order. Returns whether any unit's pose
// changed, or a unit came onto or left the table.
bool HoldStillPoses(Scene* now, const Scene& analysed, double mm, double deg);

}  // namespace vedette::pipeline
