// vedette roster (--image IMG | --camera N | --video FILE) --calib cam.yaml
//                (--from R.yaml | --dict NAME --table WxH) --out R.yaml
// A roster skeleton from what the camera sees: every marker on the table measured in mm, for the
// player to name the units. With --from, that roster's dictionary, table, anchors and units are
// kept and checked; without it, anchors in the sample roster's layout on the --table.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "app/command.h"
#include "app/output_paths.h"
#include "app/still_input.h"
#include "calibration/dictionary.h"
#include "calibration/roster.h"
#include "rules/input_error.h"
#include "rules/scene/scene_io.h"
#include "vision/roster_draft.h"

namespace vedette::app {
namespace {

struct RosterArgs {
  StillInputArgs frame;
  std::string calib, from, dict, table, out, anchor_ids = "0,1,2,3";
  double anchor_size_mm = 50, anchor_inset_mm = 40;
  vision::RosterDraftOptions options;
};

std::vector<int> ParseIds(const std::string& s) {
  std::vector<int> ids;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, ',');) {
    try {
      size_t used = 0;
      ids.push_back(std::stoi(item, &used));
      if (used != item.size() || ids.back() < 0) throw std::invalid_argument(item);
    } catch (const std::exception&) {
      throw InputError("--anchor-ids", 0, "expected marker IDs like 0,1,2,3, got '" + s + "'");
    }
  }
  if (ids.size() < 3 || ids.size() > 4) throw InputError("--anchor-ids", 0, "give 3 or 4 anchor IDs (table corners from A's left)");
  return ids;
}

Scene Template(const RosterArgs& a) {
  if (!a.from.empty()) {
    if (!a.dict.empty() || !a.table.empty())
      throw InputError("--from", 0, "--from gives the dictionary and the table: leave out --dict and --table");
    return calib::LoadRoster(a.from);
  }
  if (a.dict.empty() || a.table.empty()) throw InputError("--from", 0, "give --from ROSTER.yaml, or --dict NAME and --table WxH (mm)");
  double w = 0, h = 0;
  char x = 0;
  if (std::sscanf(a.table.c_str(), "%lf%c%lf", &w, &x, &h) != 3 || (x != 'x' && x != 'X') || w < 200 || h < 200)
    throw InputError("--table", 0, "expected the table as WIDTHxDEPTH in mm, e.g. 1200x900, got '" + a.table + "'");
  calib::ResolveDictionary(a.dict);  // names the valid dictionaries when it is not one
  Scene s = vision::DefaultRosterTemplate(a.dict, w, h, ParseIds(a.anchor_ids), a.anchor_size_mm, a.anchor_inset_mm);
  s.source = "--table";
  return s;
}

// Through AtomicOutput: a crash or a refused draft leaves the old file (or none), never half of one.
void WriteAtomically(const std::string& path, const std::string& text) {
  AtomicOutput out(path);
  {
    std::ofstream f(out.temp_path(), std::ios::binary | std::ios::trunc);
    if (!f) throw InputError(path, 0, "cannot write the file (does its folder exist?)");
    f << text;
    f.flush();
    if (!f) throw InputError(path, 0, "writing failed (disk full?)");
  }
  out.Commit();
}

void PrintDraft(const vision::RosterDraft& d, const std::string& out) {
  std::printf("table registered from anchors");
  for (int id : d.registration.anchors_used) std::printf(" %d", id);
  std::printf(", RMS %.2f px\n", d.registration.rms_px);
  const std::pair<const char*, const std::vector<std::string>*> lists[] = {
      {"kept", &d.kept}, {"new", &d.added}, {"not seen", &d.not_seen}};
  for (const auto& [what, list] : lists) {
    const std::vector<std::string>& ids = *list;
    if (ids.empty()) continue;
    std::printf("%s:", what);
    for (const std::string& id : ids) {
      const Unit* u = d.roster.FindUnit(id);
      std::printf(" %s (marker %d, %.1f mm)", id.c_str(), u->marker->id, u->marker->size_mm);
    }
    std::printf("\n");
  }
  for (const std::string& n : d.notes) std::printf("NOTE: %s\n", n.c_str());
  for (const auto& [id, flags] : d.flags)
    for (const std::string& f : flags) std::printf("FLAG %s: %s\n", id.c_str(), f.c_str());
  std::printf("wrote %s: %zu units (%zu new); name the new units and set their side, type and base\n", out.c_str(),
              d.roster.units.size(), d.added.size());
}

void SetupRoster(CLI::App& root) {
  auto a = std::make_shared<RosterArgs>();
  CLI::App* cmd = root.add_subcommand(
      "roster", "Write a roster skeleton from what the camera sees: each marker found with its measured size, for the "
                "player to name the units; duplicate, out-of-dictionary, too small and mis-sized markers are flagged");
  AddStillInputOptions(cmd, &a->frame);
  cmd->add_option("--calib", a->calib, "Camera file from `vedette calibrate`")->required();
  cmd->add_option("--from", a->from, "Start from this roster: its dictionary, table, anchors and units are kept");
  cmd->add_option("--dict", a->dict, "Without --from: the marker dictionary, e.g. DICT_4X4_50");
  cmd->add_option("--table", a->table, "Without --from: table WIDTHxDEPTH in mm, e.g. 1200x900");
  cmd->add_option("--anchor-ids", a->anchor_ids, "Without --from: anchor markers from A's left corner, anticlockwise (default 0,1,2,3)");
  cmd->add_option("--anchor-size-mm", a->anchor_size_mm, "Without --from: anchor marker side, mm (default 50)");
  cmd->add_option("--anchor-inset-mm", a->anchor_inset_mm, "Without --from: anchor centres this far in from each corner, mm (default 40)");
  cmd->add_option("--marker-height-mm", a->options.new_marker_height_mm, "Face of a new unit's marker above the table, mm (default 3)");
  cmd->add_option("--out", a->out, "Roster file to write")->required();
  cmd->callback([a] {
    CheckOutputs({{a->out, "--out"}}, {a->frame.image, a->frame.video, a->calib, a->from});
    if (std::string error; !a->options.Check(&error)) throw InputError("roster", 0, error);
    const Scene from = Template(*a);
    const calib::CameraIntrinsics calibrated = calib::LoadIntrinsics(a->calib);
    const StillInput still = GrabStill(a->frame, calibrated.image_size);
    const cv::Mat& image = still.bgr;
    const std::string& source = still.name;
    const calib::CameraIntrinsics k = LensForPicture(calibrated, image.size());
    const vision::RosterDraft draft = vision::DraftRoster(a->options, image, k, from, source);
    if (draft.roster.units.empty())
      throw InputError(source, 0, "no unit marker seen, only anchors: are the units on the table, and their markers "
                                  "large enough in the picture? (`vedette check` says)");
    std::vector<std::string> header = {"Roster drafted by `vedette roster` from " + source +
                                           (a->from.empty() ? "" : ", starting from " + a->from) + ".",
                                       "Name the new units (U<marker>) and set their side, type, formation and base;",
                                       "lines marked FLAG need a look before the game. Poses are not kept: the camera places the units."};
    const std::string text = vision::RosterDraftYaml(draft, header);
    // The file must be one every --roster command accepts: checked before it is written.
    calib::CheckRoster(ParseScene(text, a->out, SceneLoadOptions{.require_poses = false}));
    WriteAtomically(a->out, text);
    PrintDraft(draft, a->out);
  });
}

VEDETTE_COMMAND("roster", SetupRoster);

}  // namespace
}  // namespace vedette::app
