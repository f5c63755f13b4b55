#pragma once
// A roster drafted from a picture: every marker the camera sees on the table, measured in mm once
// the anchors have registered the table, for the player to name the units afterwards. Starting
// from a roster (--from), what it already says is kept: the dictionary, table, anchors and every
// unit definition; a unit whose marker is seen has its measured size checked against the roster's.
// Markers the roster does not list become new units `U<marker>`, side "unassigned", with the
// measured marker size and a square base just large enough for the marker and its white margin.
//
// Flags (the YAML comments beside a unit, and printed): a marker seen at two spots (two bases carry
// one ID), a marker from the dictionary's family but beyond its range (DICT_4X4_1000's marker 60
// under DICT_4X4_50: the roster cannot use it), a marker under the size the detector reads
// reliably, a measured size that disagrees with the roster's by more than 10 %.
#include <map>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "calibration/camera_model.h"
#include "calibration/registration.h"
#include "rules/scene/scene.h"

namespace vedette::vision {

struct RosterDraftOptions {
  double min_reliable_side_px = 18.0;  // markers smaller than this in the picture are flagged (see view_check.h), px
  double max_size_mismatch = 0.10;     // measured vs roster marker size beyond this fraction is flagged
  double size_step_mm = 0.5;           // measured marker sizes are rounded to this, mm
  double new_marker_height_mm = 3.0;   // face of a new unit's marker above the table (the sample roster's bases), mm
  double new_base_margin_cells = 1.0;  // white margin round a new unit's marker on its drafted base, marker cells
  double smallest_marker_mm = 8.0;     // smallest marker looked for (the template may list only large anchors), mm
  std::string new_side = "unassigned"; // side of the new units, for the player to change
  calib::RegistrationOptions registration;
  bool Check(std::string* error) const;
};

struct RosterDraft {
  Scene roster;                                           // ready for SaveScene / LoadRoster (no poses)
  std::map<std::string, std::vector<std::string>> flags;  // unit id -> what is wrong with it
  std::map<std::string, std::string> seen_at;             // unit id -> "marker seen at x 312, y 140 mm, measured 16.10 mm across"
  std::vector<std::string> notes;                         // about the picture: markers no unit can carry, anchors
  std::vector<std::string> kept, added, not_seen;         // unit ids: from the template and seen, new, from the template and not seen
  calib::Registration registration;
};

// The roster of `vedette roster` without --from: anchors `ids` (in table-corner order: A's left,
// A's right, B's right, B's left), `size_mm` square, their centres `inset_mm` in from each corner,
// top edge towards player B, on a `width_mm` x `depth_mm` table.
Scene DefaultRosterTemplate(const std::string& dictionary, double width_mm, double depth_mm,
                            const std::vector<int>& ids = {0, 1, 2, 3}, double size_mm = 50.0, double inset_mm = 40.0);

// Detects, registers from the template's anchors and drafts. Throws InputError (naming
// `image_name`) when the table cannot be registered, std::invalid_argument for bad options.
RosterDraft DraftRoster(const RosterDraftOptions& options, const cv::Mat& image, const calib::CameraIntrinsics& k,
                        const Scene& from, const std::string& image_name);

// The draft as a roster file: `header` (comment lines, without '#') first, the notes, then the
// scene with each unit's flags as comments on the lines before it. LoadRoster reads it.
std::string RosterDraftYaml(const RosterDraft& draft, const std::vector<std::string>& header);

}  // namespace vedette::vision
