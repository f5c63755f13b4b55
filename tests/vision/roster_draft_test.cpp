// Drafting a roster from a picture of the small table (vision_scenes.h: 400 x 300 mm, anchors 0-3,
// units U1-U4 with 14, 18, 22 and 16 mm markers 10-13 on raised bases):
//   - a roster that forgot U4: U4's marker 13 becomes unit U13, its size measured (16 mm);
//   - a roster that says U2's marker is 22 mm (it is 18): flagged;
//   - an 480x360 camera: markers seen under 18 px are flagged as too small.
// The drafted text is always a roster every --roster command accepts.
#include <gtest/gtest.h>

#include <algorithm>

#include "calibration/dictionary.h"
#include "calibration/roster.h"
#include "rules/scene/scene_io.h"
#include "tests/vision/vision_scenes.h"
#include "synth/renderer.h"
#include "vision/roster_draft.h"

namespace vedette::vision {

using namespace vedette::synth;  // the synthetic table gives these tests their ground truth
namespace {

struct Picture {
  cv::Mat image;
  calib::CameraIntrinsics k;
};

Picture Take(int width) {
  SyntheticCameraOptions o;
  o.image_size = {width, width * 3 / 4};
  o.table_width_mm = 400;
  o.table_depth_mm = 300;
  o.tilt_deg = 8;
  o.horizontal_fov_deg = 60;
  const SyntheticCamera cam = MakeSyntheticCamera(o);
  RenderOptions ro;
  ro.seed = 9;
  const Scene scene = testing::SmallTable();
  return {SceneRenderer(cam.intrinsics).Render(ro, scene, cam.camera_from_table, *calib::DictionaryByName("DICT_4X4_50")).image,
          cam.intrinsics};
}

Scene RosterOf(const Scene& scene) {
  Scene r = scene;
  r.source = "roster";
  for (Unit& u : r.units) u.pose.reset();
  return r;
}

bool Flagged(const RosterDraft& d, const std::string& id, const std::string& words) {
  auto it = d.flags.find(id);
  return it != d.flags.end() &&
         std::any_of(it->second.begin(), it->second.end(), [&](const std::string& f) { return f.find(words) != std::string::npos; });
}

void ExpectLoadable(const RosterDraft& d) {
  const std::string text = RosterDraftYaml(d, {"test"});
  EXPECT_NO_THROW(calib::CheckRoster(ParseScene(text, "draft.yaml", SceneLoadOptions{.require_poses = false}))) << text;
}

TEST(DraftRoster, NewMarkerBecomesAUnitWithItsMeasuredSize) {
  const Picture p = Take(800);
  Scene roster = RosterOf(testing::SmallTable());
  roster.units.pop_back();  // forget U4 (marker 13, 16 mm, 3 mm above the table)
  const RosterDraft d = DraftRoster(RosterDraftOptions{}, p.image, p.k, roster, "table.png");
  EXPECT_EQ(d.kept, (std::vector<std::string>{"U1", "U2", "U3"}));
  ASSERT_EQ(d.added, std::vector<std::string>{"U13"});
  const Unit* u = d.roster.FindUnit("U13");
  ASSERT_NE(u, nullptr);
  EXPECT_EQ(u->side, "unassigned");
  EXPECT_EQ(u->marker->id, 13);
  EXPECT_NEAR(u->marker->size_mm, 16.0, 0.5);
  EXPECT_DOUBLE_EQ(std::fmod(u->marker->size_mm, 0.5), 0.0);
  EXPECT_TRUE(d.flags.empty()) << d.flags.begin()->first;
  ExpectLoadable(d);
}

TEST(DraftRoster, SizeThatDisagreesWithTheRosterIsFlagged) {
  const Picture p = Take(800);
  Scene roster = RosterOf(testing::SmallTable());
  roster.FindUnit("U2")->marker->size_mm = 21;  // printed at 18 mm: 14 % smaller
  roster.FindUnit("U3")->marker->size_mm = 23;  // printed at 22 mm: 4 %, within the 10 %
  const RosterDraft d = DraftRoster(RosterDraftOptions{}, p.image, p.k, roster, "table.png");
  EXPECT_TRUE(Flagged(d, "U2", "the roster says 21.0 mm")) << (d.flags.count("U2") ? d.flags.at("U2")[0] : "");
  EXPECT_FALSE(d.flags.count("U3"));
  EXPECT_EQ(d.roster.FindUnit("U2")->marker->size_mm, 21) << "a known unit keeps its definition";
  const std::string text = RosterDraftYaml(d, {});
  EXPECT_NE(text.find("# FLAG U2: marker measures 18."), std::string::npos) << text;
  ExpectLoadable(d);
}

// 480x360: about 1.1 px per mm; U1's 14 mm marker is about 15 px, U3's 22 mm one about 24.
TEST(DraftRoster, MarkersUnderTheReliableSizeAreFlagged) {
  const Picture p = Take(480);
  const RosterDraft d = DraftRoster(RosterDraftOptions{}, p.image, p.k, RosterOf(testing::SmallTable()), "small.png");
  for (const std::string& id : d.kept) {
    const double size = d.roster.FindUnit(id)->marker->size_mm;
    EXPECT_EQ(Flagged(d, id, "read reliably from 18 px"), size <= 16) << id << " " << size << " mm";
  }
  EXPECT_FALSE(Flagged(d, "U3", "px in the picture"));
  EXPECT_GE(d.kept.size(), 2u);
  ExpectLoadable(d);
}

TEST(DraftRoster, DefaultTemplateHasTheSampleAnchorLayout) {
  const Scene s = DefaultRosterTemplate("DICT_4X4_50", 1200, 900);
  ASSERT_EQ(s.anchors.size(), 4u);
  EXPECT_EQ(s.anchors[0].marker, 0);
  EXPECT_DOUBLE_EQ(s.anchors[0].x_mm, 40);
  EXPECT_DOUBLE_EQ(s.anchors[1].x_mm, 1160);
  EXPECT_DOUBLE_EQ(s.anchors[2].y_mm, 860);
  EXPECT_DOUBLE_EQ(s.anchors[3].size_mm, 50);
  EXPECT_DOUBLE_EQ(s.anchors[3].heading_deg, 90);
}

TEST(RosterDraftOptions, CheckNamesTheBadField) {
  RosterDraftOptions o;
  std::string error;
  EXPECT_TRUE(o.Check(&error));
  o.new_base_margin_cells = 0.2;
  EXPECT_FALSE(o.Check(&error));
  EXPECT_NE(error.find("new_base_margin_cells"), std::string::npos);
}

}  // namespace
}  // namespace vedette::vision
