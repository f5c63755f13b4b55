#pragma once
// Reading a roster: the scene file that tells vision what is on the table before it has seen it
// (units with their markers and bases, the anchors at known spots, the marker dictionary). Every
// command that takes --roster reads it here, so a file one command accepts no other refuses.
//
// A roster places nothing: poses in it, if any, are ignored (vision places the units), so a scene
// with poses is also a valid roster. What is checked here, beyond the scene file's own rules, is
// what would make the camera fail later in a way a player could not understand: a dictionary that
// does not exist, too few anchors to register the table, a marker ID the dictionary does not have,
// a unit without a marker, or a marker too large for its base to keep the white margin round it
// that every detector needs (a 20 mm marker on a 20 mm deep base has the cloth touching its black
// border, and neither Vedette nor stock OpenCV reads it).
#include <string>

#include "rules/scene/scene.h"

namespace vedette::calib {

struct RosterOptions {
  int min_anchors = 3;            // anchors the roster must list (a table is registered from >= 3)
  double margin_cells = 0.5;      // white margin each marker needs on its base, in marker cells: the
                                  // print sheet cuts a full cell, which is best; with none the cloth
                                  // touches the black border. Half a cell is the least refused here,
                                  // which a 16 mm marker on a 20 mm deep base keeps.
  double fit_tolerance_mm = 0.05; // a margin this much past the base's edge still fits, mm
  bool Check(std::string* error) const;
};

// Loads and checks a roster. Throws vedette::InputError naming the file, the line and what to do.
// The returned scene has no poses.
Scene LoadRoster(const std::string& path, const RosterOptions& options = {});
// The same from the file's text; `source` names it in errors and places a dictionary file beside it.
Scene ParseRoster(const std::string& text, const std::string& source, const RosterOptions& options = {});
// A scene read without poses made a roster: poses dropped, checked, dictionary path resolved.
Scene FinishRoster(Scene scene, const RosterOptions& options = {});

// The checks of LoadRoster on a scene already read (its `source` names it in messages).
void CheckRoster(const Scene& roster, const RosterOptions& options = {});

// The largest marker side (mm) that keeps `margin_cells` of white margin inside the unit's bases
// at the unit's marker offset and heading, for a marker of `cells` cells across (border included).
// 0 when even a tiny marker there is off the base.
double LargestMarkerThatFits(const Unit& unit, int cells, double margin_cells);

// What to tell a player whose table was never registered: which markers the roster expects as
// anchors, and what to look at.
std::string AnchorsNotSeenAdvice(const Scene& roster);

}  // namespace vedette::calib
