// The live window's interaction without GL (ui/live_interaction.h): the same events the window
// hands it (window px, buttons, keys, wheel notches), on the flank table of test_scenes.h:
//
//   y=400 +--------------------------------+      A  blue infantry, 40 x 30 mm, centre (200, 200),
//         |                                |         facing +y: x 180..220, y 185..215
//         |                   R2           |      R  red infantry, 40 x 30 mm, centre (270, 200),
//         |            A  R                |         facing -x: x 255..285, y 180..220
//         |                                |      R2 red infantry at (420, 300) facing -y
//   y=0   +--------------------------------+
//         x=0                          x=600
//
// A's right edge (x = 220) to R's front edge (x = 255): 35 mm. A's front edge (y = 215) to the
// point (200, 300): 85 mm.
#include <cmath>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>
#include <opencv2/imgcodecs.hpp>

#include "ui/live_interaction.h"
#include "rules/kow/kow_move.h"
#include "rules/ruleset.h"
#include "rules/scene/scene_io.h"
#include "rules/states/config.h"
#include "tests/overlay/test_scenes.h"
#include "synth/synthetic_camera.h"

namespace vedette::ui {

using namespace vedette::overlay;
namespace testing = vedette::overlay::testing;
using namespace vedette::pipeline;
namespace {

class InteractionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::TempDir("interaction");
    testing::WriteFile(dir_ + "/roster.yaml", testing::kFlankRoster);
    scene_ = LoadScene(dir_ + "/roster.yaml");
    ruleset_ = MakeRuleset("totsk");
    synth::SyntheticCameraOptions co;
    co.image_size = {1280, 720};
    co.table_width_mm = 600;
    co.table_depth_mm = 400;
    co.tilt_deg = 8;
    camera_ = synth::MakeSyntheticCamera(co);
    states_ = states::LoadStatesConfig(AssetsDir() + "/rulesets/states.yaml");
    frame_.scene = &scene_;
    frame_.ruleset = ruleset_.get();
    frame_.registered = true;
    frame_.intrinsics = camera_.intrinsics;
    frame_.camera_from_table = camera_.camera_from_table;
    frame_.image_size = co.image_size;
    frame_.frame = cv::Mat(co.image_size, CV_8UC3, cv::Scalar(90, 110, 90));
    frame_.primitives = &primitives_;
    frame_.sigmas = {{"A", {0.3, 0.2}}, {"R", {0.4, 0.3}}};
    frame_.source = "synthetic frame 0";
  }

  LiveInteraction Make() {
    InteractionOptions o;
    o.evidence_dir = dir_;
    LiveInteraction ui(o, LiveSettings{}, &states_);
    ui.SetFrame(frame_);
    ui.SetViewport({0, 0, 1000, 720});
    return ui;
  }

  void Click(LiveInteraction& ui, const cv::Point2d& px) {
    ui.Handle(InputEvent::MouseDown(MouseButton::kLeft, px));
    ui.Handle(InputEvent::MouseUp(MouseButton::kLeft, px));
  }
  void RightDrag(LiveInteraction& ui, const cv::Point2d& from, const cv::Point2d& to, int steps) {
    ui.Handle(InputEvent::MouseDown(MouseButton::kRight, from));
    for (int i = 1; i <= steps; ++i) ui.Handle(InputEvent::MouseMove(from + (to - from) * (double(i) / steps)));
    ui.Handle(InputEvent::MouseUp(MouseButton::kRight, to));
  }

  std::string dir_;
  Scene scene_;
  std::unique_ptr<Ruleset> ruleset_;
  synth::SyntheticCamera camera_;
  states::StatesConfig states_;
  std::vector<DrawPrimitive> primitives_;
  InteractionFrame frame_;
};

TEST_F(InteractionTest, ClickingAThenBGivesTheDisputeOfThatPair) {
  LiveInteraction ui = Make();
  // Window px of a table point through the calibration and the fitted view, computed here by hand.
  const ViewTransform view = ui.View();
  auto px = [&](double x, double y) {
    return view.Apply(calib::ProjectToImage(camera_.intrinsics, camera_.camera_from_table, {cv::Point3d(x, y, 0)})[0]);
  };
  Click(ui, px(200, 200));
  EXPECT_EQ(ui.pick_a(), "A");
  EXPECT_FALSE(ui.dispute().has_value());
  Click(ui, px(265, 210));  // inside R, off its centre
  EXPECT_EQ(ui.pick_b(), "R");
  ASSERT_TRUE(ui.dispute().has_value()) << ui.dispute_error();
  const Dispute& d = *ui.dispute();
  EXPECT_EQ(d.from, "A");
  EXPECT_EQ(d.to, "R");
  EXPECT_NEAR(d.distance_mm, 35.0, 1e-6);
  // The same as the dispute tool gives for the pair (the verdicts are the ruleset's, not the window's).
  const Dispute direct = SettleDispute(DisputeOptions{}, *ruleset_, scene_, frame_.sigmas, "A", "R");
  EXPECT_DOUBLE_EQ(d.sigma_mm, direct.sigma_mm);
  ASSERT_EQ(d.verdicts.size(), direct.verdicts.size());
  ASSERT_FALSE(d.verdicts.empty());
  for (size_t i = 0; i < d.verdicts.size(); ++i) {
    EXPECT_EQ(d.rules[i].rule, direct.rules[i].rule);
    EXPECT_EQ(d.verdicts[i].kind, direct.verdicts[i].kind);
  }
  // The gap and both outlines are drawn on the measure layer.
  int outlines = 0, gap_lines = 0;
  for (const DrawPrimitive& p : ui.ExtraPrimitives()) {
    EXPECT_EQ(p.layer, "measure");
    if (p.kind == DrawKind::kPolygon && (p.unit_id == "A" || p.unit_id == "R")) ++outlines;
    if (p.kind != DrawKind::kPolygon && p.kind != DrawKind::kLabel) ++gap_lines;
  }
  EXPECT_EQ(outlines, 2);
  EXPECT_GE(gap_lines, 1);

  // A third click starts over: A again, then a bare table point.
  Click(ui, px(200, 190));
  EXPECT_EQ(ui.pick_a(), "A");
  EXPECT_TRUE(ui.pick_b().empty());
  EXPECT_FALSE(ui.dispute().has_value());
  Click(ui, px(200, 300));
  ASSERT_TRUE(ui.pick_point().has_value());
  EXPECT_NEAR(ui.pick_point()->x(), 200.0, 1e-6);
  EXPECT_NEAR(ui.pick_point()->y(), 300.0, 1e-6);
  ASSERT_TRUE(ui.dispute().has_value());
  EXPECT_TRUE(ui.dispute()->to_point.has_value());
  EXPECT_NEAR(ui.dispute()->distance_mm, 85.0, 1e-6);

  // Esc clears.
  ui.Handle(InputEvent::Key(kKeyEscape));
  EXPECT_TRUE(ui.pick_a().empty());
  EXPECT_FALSE(ui.dispute().has_value());

  // Without a registration nothing is picked (there is no table in the picture).
  frame_.registered = false;
  ui.SetFrame(frame_);
  Click(ui, px(200, 200));
  EXPECT_TRUE(ui.pick_a().empty());
}

TEST_F(InteractionTest, ZoomAndPanMoveTheCameraViewAndClicksStillFindTheirUnit) {
  LiveInteraction ui = Make();
  const ViewTransform fit = ui.View();
  // Wheel: 3 notches in about (300, 200): the scale grows by 1.15^3 and the image point under the
  // cursor stays under it.
  const cv::Point2d at(300, 200);
  const cv::Point2d under = fit.Inverse(at);
  ui.Handle(InputEvent::Wheel(at, 3));
  const ViewTransform zoomed = ui.View();
  EXPECT_NEAR(zoomed.scale, fit.scale * std::pow(1.15, 3), 1e-9);
  const cv::Point2d still = zoomed.Apply(under);
  EXPECT_NEAR(still.x, at.x, 1e-9);
  EXPECT_NEAR(still.y, at.y, 1e-9);
  // Right drag by (+120, -80) in 5 moves: every point moves by exactly that.
  const cv::Point2d before = zoomed.Apply({640, 360});
  RightDrag(ui, {500, 500}, {620, 420}, 5);
  const cv::Point2d after = ui.View().Apply({640, 360});
  EXPECT_NEAR(after.x - before.x, 120.0, 1e-9);
  EXPECT_NEAR(after.y - before.y, -80.0, 1e-9);
  EXPECT_TRUE(ui.state_menu_unit().empty()) << "a drag is not a click";
  // Middle drag pans too.
  const cv::Point2d m0 = ui.View().Apply({640, 360});
  ui.Handle(InputEvent::MouseDown(MouseButton::kMiddle, {100, 100}));
  ui.Handle(InputEvent::MouseMove({90, 130}));
  ui.Handle(InputEvent::MouseUp(MouseButton::kMiddle, {90, 130}));
  const cv::Point2d m1 = ui.View().Apply({640, 360});
  EXPECT_NEAR(m1.x - m0.x, -10.0, 1e-9);
  EXPECT_NEAR(m1.y - m0.y, 30.0, 1e-9);

  // Clicks after pan and zoom: the window px of table points, computed by hand from the calibration
  // and the view, map back to those points and pick their units.
  const ViewTransform view = ui.View();
  for (const geom::Vec2& t : {geom::Vec2(200, 200), geom::Vec2(270, 205), geom::Vec2(150, 120)}) {
    const cv::Point2d p = view.Apply(calib::ProjectToImage(camera_.intrinsics, camera_.camera_from_table, {cv::Point3d(t.x(), t.y(), 0)})[0]);
    const geom::Vec2 back = ui.TableAt(p);
    EXPECT_NEAR(back.x(), t.x(), 1e-6);
    EXPECT_NEAR(back.y(), t.y(), 1e-6);
  }
  Click(ui, ui.WindowPxOf({200, 200}));
  Click(ui, ui.WindowPxOf({270, 205}));
  EXPECT_EQ(ui.pick_a(), "A");
  EXPECT_EQ(ui.pick_b(), "R");
  ASSERT_TRUE(ui.dispute().has_value());
  EXPECT_NEAR(ui.dispute()->distance_mm, 35.0, 1e-6);

  // R resets the view to "fit".
  ui.Handle(InputEvent::Key('R'));
  EXPECT_DOUBLE_EQ(ui.View().scale, fit.scale);
  EXPECT_DOUBLE_EQ(ui.View().offset_x, fit.offset_x);
}

TEST_F(InteractionTest, TopDownViewByHandAfterZoomAndPan) {
  LiveInteraction ui = Make();
  ui.Handle(InputEvent::Key('T'));
  ASSERT_TRUE(ui.TopDownShown());
  // Content: the 600 x 400 table + 20 mm all round = 640 x 440 mm, in a 1000 x 720 viewport:
  // fit = min(1000/640, 720/440) = 1.5625 px/mm; the table centre (300, 200) at (500, 360); y up.
  // A's centre (200, 200) -> (500 - 156.25, 360) = (343.75, 360).
  EXPECT_NEAR(ui.View().scale, 1.5625, 1e-12);
  const cv::Point2d a = ui.WindowPxOf({200, 200});
  EXPECT_NEAR(a.x, 343.75, 1e-9);
  EXPECT_NEAR(a.y, 360.0, 1e-9);
  // Two notches in about the centre: 1.5625 * 1.15^2 = 2.06640625 px/mm, centre kept:
  // A at 500 - 206.640625 = 293.359375. Then a right drag by (+50, +30): A at (343.359375, 390).
  ui.Handle(InputEvent::Wheel({500, 360}, 2));
  RightDrag(ui, {700, 300}, {750, 330}, 3);
  EXPECT_NEAR(ui.View().scale, 2.06640625, 1e-12);
  const cv::Point2d click(343.359375, 390.0);
  const geom::Vec2 t = ui.TableAt(click);
  EXPECT_NEAR(t.x(), 200.0, 1e-9);
  EXPECT_NEAR(t.y(), 200.0, 1e-9);
  // 10 mm up the table (towards player B) is 20.66 px up the screen.
  const geom::Vec2 up = ui.TableAt(click + cv::Point2d(0, -20.6640625));
  EXPECT_NEAR(up.y(), 210.0, 1e-9);
  Click(ui, click);
  EXPECT_EQ(ui.pick_a(), "A");
  // R's front edge is at x = 255; 4 mm left of it (x = 251) is nobody's, 2 mm is still R's (pick tolerance).
  Click(ui, click + cv::Point2d(51 * 2.06640625, 0));
  EXPECT_TRUE(ui.pick_b().empty());
  ASSERT_TRUE(ui.pick_point().has_value()) << "a point between the units is a table point";
  EXPECT_NEAR(ui.dispute()->distance_mm, 31.0, 1e-6);
  Click(ui, click);  // starts over with A
  Click(ui, click + cv::Point2d(53.5 * 2.06640625, 0));
  EXPECT_EQ(ui.pick_b(), "R");
  // Each view keeps its own state: back in the camera view the zoom is "fit" again.
  ui.Handle(InputEvent::Key('T'));
  EXPECT_FALSE(ui.TopDownShown());
  EXPECT_DOUBLE_EQ(ui.settings().camera_view.zoom, 1.0);
  EXPECT_NEAR(ui.settings().table_view.zoom, 1.3225, 1e-12);
}

TEST_F(InteractionTest, KeyboardShortcutsToggleLayersAndSettings) {
  LiveInteraction ui = Make();
  // 1-9: bases, zoc, ranges, threats, contacts, support, tests, terrain, labels; 0: measure.
  const char* names[] = {"bases", "zoc", "ranges", "threats", "contacts", "support", "tests", "terrain", "labels"};
  for (int k = 1; k <= 9; ++k) {
    EXPECT_TRUE(ui.settings().layers.Visible(names[k - 1]));
    EXPECT_TRUE(ui.Handle(InputEvent::Key('0' + k)));
    EXPECT_FALSE(ui.settings().layers.Visible(names[k - 1])) << "key " << k;
  }
  EXPECT_TRUE(ui.settings().layers.Visible("measure"));
  ui.Handle(InputEvent::Key('0'));
  EXPECT_FALSE(ui.settings().layers.Visible("measure"));
  ui.Handle(InputEvent::Key('4'));
  EXPECT_TRUE(ui.settings().layers.Visible("threats"));
  EXPECT_FALSE(ui.settings().layers.Visible("zoc"));
  EXPECT_EQ(ui.settings().layers.HiddenList(), "bases,zoc,ranges,contacts,support,tests,terrain,labels,measure");

  EXPECT_FALSE(ui.settings().show_help) << "the help does not cover the table on the first run";
  ui.Handle(InputEvent::Key('H'));
  EXPECT_TRUE(ui.settings().show_help);
  ui.Handle(InputEvent::Key(kKeyF1));
  EXPECT_FALSE(ui.settings().show_help);
  // + and - size the overlay's text within 0.6..3; F11 full screen; A acknowledges the verdicts.
  EXPECT_DOUBLE_EQ(ui.settings().text_size, 1.0);
  ui.Handle(InputEvent::Key('+'));
  EXPECT_NEAR(ui.settings().text_size, 1.15, 1e-9);
  for (int i = 0; i < 20; ++i) ui.Handle(InputEvent::Key('='));
  EXPECT_DOUBLE_EQ(ui.settings().text_size, 3.0);
  for (int i = 0; i < 40; ++i) ui.Handle(InputEvent::Key('-'));
  EXPECT_DOUBLE_EQ(ui.settings().text_size, 0.6);
  EXPECT_FALSE(ui.settings().full_screen);
  ui.Handle(InputEvent::Key(kKeyF11));
  EXPECT_TRUE(ui.settings().full_screen);
  EXPECT_FALSE(ui.TakeAcknowledge());
  ui.Handle(InputEvent::Key('A'));
  EXPECT_TRUE(ui.TakeAcknowledge());
  EXPECT_FALSE(ui.TakeAcknowledge()) << "once per press";
  ui.Handle(InputEvent::Key(kKeyTab));
  EXPECT_FALSE(ui.settings().show_panels);
  EXPECT_FALSE(ui.paused());
  ui.Handle(InputEvent::Key(' '));
  EXPECT_TRUE(ui.paused());
  EXPECT_FALSE(ui.quit_requested());
  ui.Handle(InputEvent::Key('Q'));
  EXPECT_TRUE(ui.quit_requested());
  EXPECT_FALSE(ui.Handle(InputEvent::Key('Z')));
  // T without a registration: the setting flips, but the camera picture stays (no table to show).
  frame_.registered = false;
  ui.SetFrame(frame_);
  ui.Handle(InputEvent::Key('T'));
  EXPECT_TRUE(ui.settings().top_down);
  EXPECT_FALSE(ui.TopDownShown());
}

TEST_F(InteractionTest, SaveEvidenceWritesThePngAndTheJsonOfTheDispute) {
  LiveInteraction ui = Make();
  ui.Handle(InputEvent::Key('E'));
  EXPECT_TRUE(ui.evidence_saved().empty()) << "nothing to save without a dispute";
  EXPECT_NE(ui.evidence_note().find("Pick unit A"), std::string::npos);
  Click(ui, ui.WindowPxOf({200, 200}));
  Click(ui, ui.WindowPxOf({270, 200}));
  ASSERT_TRUE(ui.dispute().has_value());
  ui.Handle(InputEvent::Key('E'));
  ui.Handle(InputEvent::SaveEvidenceButton());  // a second save in the same second gets its own name
  ASSERT_EQ(ui.evidence_saved().size(), 2u) << ui.evidence_note();
  EXPECT_NE(ui.evidence_saved()[0].png, ui.evidence_saved()[1].png);
  for (const EvidenceFiles& f : ui.evidence_saved()) {
    EXPECT_EQ(std::filesystem::path(f.png).parent_path(), std::filesystem::path(dir_));
    const cv::Mat png = cv::imread(f.png);
    EXPECT_EQ(png.size(), cv::Size(1280, 720));
    std::ifstream in(f.json);
    const nlohmann::json j = nlohmann::json::parse(in);
    EXPECT_EQ(j["dispute"]["from"], "A");
    EXPECT_EQ(j["dispute"]["to"], "R");
    EXPECT_NEAR(j["dispute"]["distance_mm"].get<double>(), 35.0, 1e-6);
    EXPECT_EQ(j["source"], "synthetic frame 0");
    EXPECT_EQ(j["units"].size(), 3u);
  }
}

// Kings of War: the menu offers the ruleset's orders and tokens (Ruleset::UnitChoices), opens for a
// unit even without states data, and refuses what the ruleset does not accept, naming the valid list.
TEST_F(InteractionTest, TheMenuOffersTheRulesetsOrdersAndChecksThem) {
  const std::unique_ptr<Ruleset> kow = MakeRuleset("kow");
  InteractionOptions o;
  o.evidence_dir = dir_;
  LiveInteraction ui(o, LiveSettings{}, nullptr);  // no states data: only the ruleset's choices
  ui.SetFrame(frame_);
  ui.SetViewport({0, 0, 1000, 720});
  ui.SetRulesetChoices([&](const Scene& scene, const Unit& unit) { return kow->UnitChoices(scene, unit); });
  const std::vector<DeclarationChoice> c = ui.RulesetChoicesFor("R");
  ASSERT_EQ(c.size(), 3u);
  EXPECT_EQ(c[0].key, "order");
  EXPECT_EQ(c[0].values, (std::vector<std::string>{"halt", "change_facing", "advance", "back", "sidestep", "at_the_double", "charge"}));
  EXPECT_EQ(c[0].value_words[5], "at the double");
  EXPECT_TRUE(c[1].values.empty()) << "wavering: a flag";

  const cv::Point2d r = ui.WindowPxOf({270, 200});
  ui.Handle(InputEvent::MouseDown(MouseButton::kRight, r));
  ui.Handle(InputEvent::MouseUp(MouseButton::kRight, r));
  EXPECT_EQ(ui.state_menu_unit(), "R") << ui.state_note();
  EXPECT_TRUE(ui.Handle(InputEvent::Declare("R", "order", "charge")));
  EXPECT_TRUE(ui.Handle(InputEvent::Declare("R", "wavering", true)));
  EXPECT_FALSE(ui.Handle(InputEvent::Declare("R", "order", "blob")));
  EXPECT_NE(ui.state_note().find("halt, change_facing, advance"), std::string::npos) << ui.state_note();
  EXPECT_FALSE(ui.Handle(InputEvent::Declare("R", "wavering", "yes")));
  EXPECT_NE(ui.state_note().find("on or off"), std::string::npos) << ui.state_note();
  const std::vector<StateDeclaration> made = ui.TakeDeclarations();
  ASSERT_EQ(made.size(), 2u);
  EXPECT_EQ(made[0].key, "order");
  EXPECT_EQ(made[0].value, "charge");

  // The order reaches the rules: a declared charge is what the KoW move judge checks.
  Scene declared = scene_;
  declared.declarations.units["R"]["order"] = Declared{"charge", 0};
  EXPECT_EQ(kow::DeclaredOrder(declared, "R"), "charge");
}

TEST_F(InteractionTest, RightClickOpensTheStateMenuAndDeclarationsFollowTheUnitsType) {
  // R2 is artillery here: eager / shaken / silenced, firing and limbered markers.
  scene_.FindUnit("R2")->type = UnitType::kArtillery;
  LiveInteraction ui = Make();
  EXPECT_EQ(ui.ChoicesFor("R").states, (std::vector<std::string>{"eager", "shaken", "routed"}));
  EXPECT_TRUE(ui.ChoicesFor("R").firing);
  EXPECT_FALSE(ui.ChoicesFor("R").limbered);
  EXPECT_EQ(ui.ChoicesFor("R2").states, (std::vector<std::string>{"eager", "shaken", "silenced"}));
  EXPECT_TRUE(ui.ChoicesFor("R2").limbered);

  // A right click (press and release within the slop, a 2 px wobble) on R: the menu for R, no pan.
  const ViewTransform before = ui.View();
  const cv::Point2d r = ui.WindowPxOf({270, 200});
  ui.Handle(InputEvent::MouseDown(MouseButton::kRight, r));
  ui.Handle(InputEvent::MouseMove(r + cv::Point2d(2, 0)));
  ui.Handle(InputEvent::MouseUp(MouseButton::kRight, r + cv::Point2d(2, 0)));
  EXPECT_EQ(ui.state_menu_unit(), "R");
  EXPECT_DOUBLE_EQ(ui.View().offset_x, before.offset_x);
  // The menu's choice comes back as a declaration for the pipeline.
  EXPECT_TRUE(ui.Handle(InputEvent::Declare("R", "state", "shaken")));
  EXPECT_TRUE(ui.Handle(InputEvent::Declare("R", "firing", true)));
  EXPECT_TRUE(ui.Handle(InputEvent::Declare("R2", "state", "silenced")));
  EXPECT_TRUE(ui.Handle(InputEvent::Declare("R2", "limbered", true)));
  // What the unit's type cannot have is refused with the reason (the rules would stop on it).
  EXPECT_FALSE(ui.Handle(InputEvent::Declare("R2", "state", "routed")));
  EXPECT_NE(ui.state_note().find("artillery"), std::string::npos);
  EXPECT_FALSE(ui.Handle(InputEvent::Declare("R", "limbered", true)));
  EXPECT_FALSE(ui.Handle(InputEvent::Declare("R", "state", "silenced")));
  EXPECT_FALSE(ui.Handle(InputEvent::Declare("nobody", "state", "shaken")));
  const std::vector<StateDeclaration> made = ui.TakeDeclarations();
  ASSERT_EQ(made.size(), 4u);
  EXPECT_EQ(made[0].unit, "R");
  EXPECT_EQ(made[0].key, "state");
  EXPECT_EQ(made[0].value, "shaken");
  EXPECT_EQ(made[3].key, "limbered");
  EXPECT_TRUE(ui.TakeDeclarations().empty()) << "taken once";
  // They stay for the rest of the run.
  EXPECT_EQ(ui.declared().at("R").at("state"), "shaken");
  EXPECT_EQ(ui.declared().at("R2").at("state"), "silenced");
  ui.Handle(InputEvent::Declare("R", "state", "eager"));
  EXPECT_EQ(ui.declared().at("R").at("state"), "eager");

  // A right click on empty table opens nothing; Esc closes an open menu.
  ui.Handle(InputEvent::MouseDown(MouseButton::kRight, ui.WindowPxOf({100, 300})));
  ui.Handle(InputEvent::MouseUp(MouseButton::kRight, ui.WindowPxOf({100, 300})));
  EXPECT_TRUE(ui.state_menu_unit().empty());
  ui.Handle(InputEvent::MouseDown(MouseButton::kRight, r));
  ui.Handle(InputEvent::MouseUp(MouseButton::kRight, r));
  EXPECT_EQ(ui.state_menu_unit(), "R");
  ui.Handle(InputEvent::Key(kKeyEscape));
  EXPECT_TRUE(ui.state_menu_unit().empty());
  // Generals have no states: no menu, a note.
  scene_.FindUnit("A")->type = UnitType::kGeneral;
  ui.Handle(InputEvent::MouseDown(MouseButton::kRight, ui.WindowPxOf({200, 200})));
  ui.Handle(InputEvent::MouseUp(MouseButton::kRight, ui.WindowPxOf({200, 200})));
  EXPECT_TRUE(ui.state_menu_unit().empty());
  EXPECT_NE(ui.state_note().find("no states"), std::string::npos);
}

TEST(LiveInteractionOptions, BadOptionsAreRefused) {
  InteractionOptions o;
  std::string error;
  EXPECT_TRUE(o.Check(&error));
  o.zoom_per_notch = 1.0;
  EXPECT_FALSE(o.Check(&error));
  EXPECT_NE(error.find("zoom_per_notch"), std::string::npos);
  EXPECT_THROW(LiveInteraction(o, LiveSettings{}), std::invalid_argument);
}

}  // namespace
}  // namespace vedette::ui
