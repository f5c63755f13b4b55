// Scene files: good ones load, bad ones are refused with file, line and what is wrong.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "rules/scene/scene_io.h"

namespace vedette {
namespace {

const char* kGood = R"(bw_mm: 40                      # base width = 1 BW
table: {width_mm: 1800, depth_mm: 1200}
units:
  - {id: B1, side: blue, type: infantry, tags: [], formation: line,
     base: {width_mm: 40, depth_mm: 20}, pose: {x_mm: 600, y_mm: 400, heading_deg: 90}}
terrain:
  - {id: wood1, type: woods, polygon: [[100,100],[300,100],[300,250],[100,250]]}
)";

// The message must name the file, the line and the problem.
void ExpectRefused(const std::string& text, int line, const std::string& fragment) {
  try {
    ParseScene(text, "bad.yaml");
    FAIL() << "accepted a bad scene; expected line " << line << " '" << fragment << "'";
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), "bad.yaml");
    EXPECT_EQ(e.line(), line) << e.what();
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
  }
}

TEST(SceneIo, ReadsTheIssueExample) {
  const Scene s = ParseScene(kGood, "good.yaml");
  EXPECT_EQ(s.bw_mm, 40);
  EXPECT_EQ(s.table_width_mm, 1800);
  ASSERT_EQ(s.units.size(), 1u);
  const Unit& u = s.units[0];
  EXPECT_EQ(u.id, "B1");
  EXPECT_EQ(u.type, UnitType::kInfantry);
  ASSERT_TRUE(u.pose.has_value());
  EXPECT_EQ(u.pose->heading_deg, 90);
  EXPECT_EQ(u.bases[0].width_mm, 40);
  EXPECT_EQ(u.line, 4);
  ASSERT_EQ(s.terrain.size(), 1u);
  EXPECT_EQ(s.terrain[0].polygon.size(), 4u);
}

TEST(SceneIo, JsonParsesToo) {
  const Scene s = ParseScene(
      R"({"bw_mm": 30, "units": [{"id": "A", "side": "x", "type": "cavalry",
          "base": {"width_mm": 30, "depth_mm": 30}, "pose": {"x_mm": 1, "y_mm": 2, "heading_deg": 3}}]})",
      "s.json");
  EXPECT_EQ(s.units.at(0).type, UnitType::kCavalry);
}

TEST(SceneIo, RefusesBadFiles) {
  ExpectRefused("bw_mm: 40\nunits: [ {id: B1\n", 3, "YAML syntax");
  ExpectRefused("units: []\n", 1, "missing field 'bw_mm'");
  ExpectRefused("bw_mm: 40\nunits:\n  - {id: B1, side: blue, pose: {x_mm: 1, y_mm: 2, heading_deg: 0}}\n", 3,
                "missing field 'type'");
  ExpectRefused("bw_mm: 40\nunits:\n  - {id: B1, side: blue, type: dragon, pose: {x_mm: 1, y_mm: 2, heading_deg: 0}}\n",
                3, "unknown type 'dragon'");
  ExpectRefused(
      "bw_mm: 40\nunits:\n  - {id: B1, side: a, type: infantry, pose: {x_mm: 1, y_mm: 2, heading_deg: 0}}\n"
      "  - {id: B1, side: b, type: infantry, pose: {x_mm: 5, y_mm: 2, heading_deg: 0}}\n",
      4, "duplicate unit id 'B1' (first at line 3)");
  ExpectRefused("bw_mm: 40\nunits:\n  - {id: B1, side: a, type: infantry,\n     pose: {x_mm: .nan, y_mm: 2, heading_deg: 0}}\n",
                4, "finite");
  ExpectRefused("bw_mm: 40\nunits:\n  - {id: B1, side: a, type: infantry, base: {width_mm: -40, depth_mm: 20},\n"
                "     pose: {x_mm: 1, y_mm: 2, heading_deg: 0}}\n",
                3, "width_mm must be positive");
  ExpectRefused("bw_mm: 0\nunits: []\n", 1, "bw_mm must be positive");
  ExpectRefused("bw_mm: 40\nunits: []\nterrain:\n  - {id: w, type: lava, polygon: [[0,0],[1,0],[1,1]]}\n", 4,
                "unknown type 'lava'");
  ExpectRefused("bw_mm: 40\nunits:\n  - {id: B1, side: a, type: infantry, pose: {x_mm: 1, y_mm: 2, heading: 0}}\n", 3,
                "unknown field 'heading'");
  ExpectRefused("bw_mm: 40\nunits:\n  - {id: B1, side: a, type: infantry}\n", 3, "missing field 'pose'");
  ExpectRefused("bw_mm: forty\nunits: []\n", 1, "must be a number");
  ExpectRefused("", 0, "empty");
}

TEST(SceneIo, RosterNeedsNoPoses) {
  const std::string roster = R"(bw_mm: 40
dictionary: DICT_4X4_50
anchors: [{marker: 0, size_mm: 50, x_mm: 40, y_mm: 40, heading_deg: 90}]
units:
  - {id: B1, side: blue, type: infantry, marker: 12, marker_size_mm: 16, marker_offset_mm: [0, -4],
     marker_heading_deg: 0, marker_height_mm: 3}
)";
  const Scene s = ParseScene(roster, "roster.yaml", {.require_poses = false});
  ASSERT_TRUE(s.units[0].marker.has_value());
  EXPECT_EQ(s.units[0].marker->id, 12);
  EXPECT_EQ(s.units[0].marker->offset_mm.y(), -4);
  EXPECT_EQ(s.units[0].marker->height_mm, 3);
  EXPECT_EQ(s.anchors.at(0).heading_deg, 90);
  EXPECT_EQ(s.dictionary, "DICT_4X4_50");
  // A marker used twice is refused.
  EXPECT_THROW(ParseScene(roster + "  - {id: B2, side: blue, type: infantry, marker: 0}\n", "r.yaml", {.require_poses = false}),
               InputError);
}

TEST(SceneIo, DeclarationsKeepLinesAndValues) {
  const Scene s = ParseScene(std::string(kGood) + "declarations:\n  active_side: red\n  B1: {failed_morale_last_turn: true, target: R2, damage: 3}\n",
                             "d.yaml");
  EXPECT_EQ(s.declarations.active_side, "red");
  EXPECT_TRUE(s.declarations.Flag("B1", "failed_morale_last_turn"));
  EXPECT_EQ(s.declarations.Find("B1", "target")->value, "R2");
  EXPECT_EQ(s.declarations.Find("B1", "damage")->value, 3.0);
  EXPECT_EQ(s.declarations.Find("B1", "damage")->line, 10);
  EXPECT_THROW(ParseScene(std::string(kGood) + "declarations:\n  Z9: {x: 1}\n", "d.yaml"), InputError);
}

TEST(SceneIo, SaveAndReloadRoundTrip) {
  Scene s = ParseScene(std::string(kGood) + "sides: {blue: {bw_mm: 60, colour: '#112233'}}\n"
                                            "declarations: {B1: {general_attached: true}}\n", "x.yaml");
  s.units[0].marker = MarkerMount{7, 16, {1, -4}, 90, 3};
  s.units[0].stats["speed_in"] = 6;
  const auto path = std::filesystem::temp_directory_path() / "vedette_scene_roundtrip.yaml";
  SaveScene(s, path.string());
  const Scene r = LoadScene(path.string());
  EXPECT_EQ(r.units.size(), 1u);
  EXPECT_EQ(r.units[0].pose->x_mm, 600);
  EXPECT_EQ(r.units[0].marker->id, 7);
  EXPECT_EQ(r.units[0].marker->heading_deg, 90);
  EXPECT_EQ(r.units[0].stats.at("speed_in"), 6);
  EXPECT_EQ(r.BwFor(r.units[0]), 60);
  EXPECT_EQ(r.FindSide("blue")->colour, "#112233");
  EXPECT_TRUE(r.declarations.Flag("B1", "general_attached"));
  EXPECT_EQ(r.terrain[0].type, "woods");
  std::filesystem::remove(path);
}

TEST(SceneIo, MissingFileNamesIt) {
  try {
    LoadScene("/nonexistent/scene.yaml");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/scene.yaml"), std::string::npos);
  }
}

TEST(SceneIo, MultiBaseFootprint) {
  const Scene s = ParseScene(R"(bw_mm: 40
units:
  - {id: C, side: a, type: infantry, formation: column,
     bases: [{width_mm: 40, depth_mm: 20, offset_mm: [0, 10]}, {width_mm: 40, depth_mm: 20, offset_mm: [0, -10]}],
     pose: {x_mm: 100, y_mm: 100, heading_deg: 90}}
)", "m.yaml");
  const geom::Base fp = Footprint(s.units[0]);
  EXPECT_NEAR(fp.width_mm, 40, 1e-9);
  EXPECT_NEAR(fp.depth_mm, 40, 1e-9);
  EXPECT_NEAR(fp.centre_mm.y(), 100, 1e-9);
  EXPECT_NEAR(BaseOf(s.units[0], 0).centre_mm.y(), 110, 1e-9);
}

}  // namespace
}  // namespace vedette
