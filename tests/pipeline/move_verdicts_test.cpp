// Moves the tracker saw, judged by the one ruleset the pipeline builds from the user's options,
// on synthetic clips run through RunFrame the way `live`, `process`, `track` and `demo` run them.
// The table: tests/synth/small_table.h, seen at 680 x 425 px.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "pipeline/frame_loop.h"
#include "pipeline/frame_source.h"
#include "pipeline/pipeline.h"
#include "synth/clip_render.h"
#include "synth/clip_script.h"
#include "tests/synth/small_table.h"

namespace vedette::pipeline {
namespace {

std::string Roster(const std::string& b1_tags) {
  return vedette::testing::SmallTableClipRoster(b1_tags) + R"(
camera: {image_size: [680, 425]}
render: {supersample: 2, blur_sigma_px: 0.7, read_noise: 2.0, jpeg_quality: 0}
fps: 15
)";
}

struct ClipLog {
  std::vector<nlohmann::json> lines;  // every log line
  std::vector<std::vector<DrawPrimitive>> drawn;  // per frame: the overlay description the recording draws
  std::vector<std::vector<std::string>> shown;    // per frame: the verdicts' words (the live window's panel)
  std::vector<nlohmann::json> Events(const std::string& type) const {
    std::vector<nlohmann::json> out;
    for (const auto& j : lines)
      if (j.value("event", "") == type) out.push_back(j);
    return out;
  }
};

struct Collect : FrameSink {
  ClipLog* run;
  explicit Collect(ClipLog* r) : run(r) {}
  void OnFrame(FrameOutput& out) override {
    run->lines.insert(run->lines.end(), out.lines.begin(), out.lines.end());
    run->drawn.push_back(out.frame.primitives);
    run->shown.emplace_back();
    for (const ShownVerdict& v : out.frame.verdicts) run->shown.back().push_back(v.text);
  }
};

ClipLog RunClip(const std::string& clip, const std::map<std::string, std::string>& settings = {}, const std::string& b1_tags = "",
                const std::string& ruleset = "totsk") {
  auto renderer = std::make_shared<synth::ClipRenderer>(synth::ParseClipScript(Roster(b1_tags) + clip, "test.clip.yaml"));
  ClipSource source(renderer);
  PipelineOptions po;
  po.ruleset = ruleset;
  po.ruleset_options.settings = settings;
  Pipeline pipeline(po, renderer->intrinsics(), renderer->script().roster);
  ClipLog run;
  Collect collect(&run);
  while (RunFrame(source, pipeline, {&collect})) {
  }
  return run;
}

// Turns are inferred from who moves: B1 advances twice (its second move in blue's turn is a second
// move: TotSK's action test), then R1 moves (red's turn), then B1 again (blue's turn anew: a first
// move). Each advance is 20 mm straight ahead and settles before the next starts.
TEST(MoveVerdicts, SecondMoveInATurnIsJudgedAsOne) {
  const ClipLog r = RunClip(R"(
duration_s: 4.6
units:
  B1: {keys: [{t: 0.3}, {t: 0.8, y_mm: 170}, {t: 1.4}, {t: 1.9, y_mm: 190}, {t: 3.4}, {t: 3.9, y_mm: 210}]}
  R1: {keys: [{t: 2.3}, {t: 2.8, y_mm: 240}]}
)");
  const auto moves = r.Events("move");
  ASSERT_EQ(moves.size(), 4u);
  const std::vector<std::string> units = {"B1", "B1", "R1", "B1"}, sides = {"blue", "blue", "red", "blue"};
  const std::vector<bool> second = {false, true, false, false};
  for (size_t i = 0; i < 4; ++i) {
    const auto& j = moves[i];
    EXPECT_EQ(moves[i]["unit"], units[i]) << i;
    EXPECT_EQ(j["turn_side"], sides[i]) << i << " " << j.dump();
    EXPECT_EQ(j["second_move"].get<bool>(), second[i]) << i << " " << j.dump();
    const auto& kinds = j["classification"];
    const bool has_second = std::find(kinds.begin(), kinds.end(), "second_move") != kinds.end();
    EXPECT_EQ(has_second, second[i]) << i << " " << j.dump();
  }
  EXPECT_FALSE(moves[1]["tests"].empty()) << "a second move takes an action test: " << moves[1].dump();
  EXPECT_TRUE(moves[0]["tests"].empty()) << "straight ahead needs no test: " << moves[0].dump();
}

// B1 and B2 (20 mm apart, same type) advance 30 mm together: one group_move, which TotSK allows as
// a group (straight ahead: no test).
// The group is reported once no member can still join it (group_window_s after they settled).
TEST(MoveVerdicts, GroupMoveJudgedByTheRules) {
  const ClipLog r = RunClip(R"(
duration_s: 2.8
units:
  B1: {keys: [{t: 0.4}, {t: 1.0, y_mm: 180}]}
  B2: {keys: [{t: 0.4}, {t: 1.0, y_mm: 180}]}
)");
  const auto groups = r.Events("group_move");
  ASSERT_EQ(groups.size(), 1u);
  const auto& g = groups[0];
  EXPECT_EQ(g["units"].size(), 2u);
  ASSERT_TRUE(g.contains("group_allowed")) << g.dump();
  EXPECT_TRUE(g["group_allowed"].get<bool>()) << g.dump();
  EXPECT_TRUE(g["tests"].empty()) << g.dump();
  EXPECT_EQ(r.Events("move").size(), 2u);
}

// The user's settings reach the move verdicts: B1 (an IM unit) moves twice in blue's turn. Its
// second move's test is TotSK's FAQ "second or subsequent move" (standard) by default, and the
// QRS "bonus move straight ahead" (IM Easy) with second_move=qrs: the same move, judged by the
// setting the analysis uses too.
TEST(MoveVerdicts, SettingsReachTheVerdicts) {
  const std::string clip = R"(
duration_s: 2.6
units:
  B1: {keys: [{t: 0.3}, {t: 0.8, y_mm: 170}, {t: 1.4}, {t: 1.9, y_mm: 190}]}
)";
  auto second_test = [](const ClipLog& r) {
    const auto moves = r.Events("move");
    EXPECT_EQ(moves.size(), 2u);
    if (moves.size() != 2u || !moves[1]["tests"].is_array() || moves[1]["tests"].empty()) return nlohmann::json();
    return moves[1]["tests"][0];
  };
  const nlohmann::json faq = second_test(RunClip(clip, {}, "im"));
  const nlohmann::json qrs = second_test(RunClip(clip, {{"second_move", "qrs"}}, "im"));
  ASSERT_FALSE(faq.is_null());
  ASSERT_FALSE(qrs.is_null());
  EXPECT_NE(faq["reason"], qrs["reason"]) << faq.dump() << "\n" << qrs.dump();
  EXPECT_GT(qrs["p_success"].get<double>(), faq["p_success"].get<double>()) << "IM Easy is easier than standard";
  EXPECT_NE(qrs["reason"].get<std::string>().find("IM Easy"), std::string::npos) << qrs.dump();
}

// The verdict card of a unit on a frame's picture ("" when none), and its style.
std::string CardOf(const std::vector<DrawPrimitive>& drawn, const std::string& unit, DrawStyle* style = nullptr) {
  for (const DrawPrimitive& p : drawn)
    if (p.kind == DrawKind::kLabel && p.unit_id == unit && (p.style == DrawStyle::kVerdict || p.style == DrawStyle::kIllegal)) {
      if (style) *style = p.style;
      return p.text;
    }
  return "";
}

// Every verdict reaches the picture: from the frame a move is judged on, the unit carries a card
// with the verdict in words (and the second move's test with its odds) on every frame the
// recording draws, until the other side's move starts a new turn.
TEST(MoveVerdicts, VerdictsStayOnThePictureUntilTheNextTurn) {
  const ClipLog r = RunClip(R"(
duration_s: 3.6
units:
  B1: {keys: [{t: 0.3}, {t: 0.8, y_mm: 170}, {t: 1.4}, {t: 1.9, y_mm: 190}]}
  R1: {keys: [{t: 2.5}, {t: 3.0, y_mm: 240}]}
)");
  const auto moves = r.Events("move");
  ASSERT_EQ(moves.size(), 3u);
  const int b1_second = moves[1]["frame"].get<int>(), r1_move = moves[2]["frame"].get<int>();
  ASSERT_LT(b1_second, r1_move);
  EXPECT_EQ(CardOf(r.drawn[moves[0]["frame"].get<int>() - 1], "B1"), "") << "no card before the move is judged";
  for (int f = moves[0]["frame"].get<int>(); f < b1_second; ++f) {
    const std::string card = CardOf(r.drawn[f], "B1");
    EXPECT_NE(card.find("B1 straight ahead"), std::string::npos) << f << ": " << card;
    EXPECT_NE(card.find("no test"), std::string::npos) << f << ": " << card;
  }
  for (int f = b1_second; f < r1_move; ++f) {
    const std::string card = CardOf(r.drawn[f], "B1");
    EXPECT_NE(card.find("second move"), std::string::npos) << f << ": " << card;
    EXPECT_NE(card.find("test "), std::string::npos) << "the test's odds: " << card;
    EXPECT_NE(card.find(" %"), std::string::npos) << "the test's odds: " << card;
  }
  // The panel's words (and the recording's) carry the whole reason.
  ASSERT_FALSE(r.shown[b1_second].empty());
  EXPECT_NE(r.shown[b1_second].back().find(moves[1]["tests"][0]["reason"].get<std::string>()), std::string::npos)
      << r.shown[b1_second].back();
  for (int f = r1_move; f < int(r.drawn.size()); ++f) {
    EXPECT_EQ(CardOf(r.drawn[f], "B1"), "") << f << ": red's turn took blue's verdicts off";
    EXPECT_NE(CardOf(r.drawn[f], "R1").find("R1 straight ahead"), std::string::npos) << f;
  }
}

// A ruler follows a unit under way: the distance from where it rested (mm and BW) and what the
// rules would say if it stopped there; it goes when the unit settles and the verdict takes over.
TEST(MoveVerdicts, ARulerFollowsAUnitWhileItMoves) {
  const ClipLog r = RunClip(R"(
duration_s: 2.0
units:
  B1: {keys: [{t: 0.3}, {t: 1.1, y_mm: 190}]}
)");
  const auto moves = r.Events("move");
  ASSERT_EQ(moves.size(), 1u);
  auto ruler_of = [&](int f) {
    for (const DrawPrimitive& p : r.drawn[f])
      if (p.kind == DrawKind::kLabel && p.unit_id == "B1" && p.style == DrawStyle::kMeasure) return p.text;
    return std::string();
  };
  int with_ruler = 0;
  double last_mm = -1;
  for (int f = 0; f < moves[0]["frame"].get<int>(); ++f) {
    const std::string text = ruler_of(f);
    if (text.empty()) continue;
    ++with_ruler;
    EXPECT_NE(text.find(" BW)"), std::string::npos) << text;
    EXPECT_NE(text.find("\nstraight ahead"), std::string::npos) << "what stopping here would be, on its second line: " << text;
    const double mm = std::stod(text.substr(3));
    EXPECT_GE(mm, last_mm - 1.0) << "the distance grows as it advances: " << text;
    last_mm = mm;
  }
  EXPECT_GE(with_ruler, 5) << "the ruler shows while it moves (0.3 - 1.1 s at 15 fps)";
  EXPECT_NEAR(last_mm, 40, 8) << "close to the 40 mm it went";
  for (int f = moves[0]["frame"].get<int>(); f < int(r.drawn.size()); ++f) EXPECT_EQ(ruler_of(f), "") << f;
}

// An illegal move is drawn as one: red and heavy, with the reason in words.
TEST(MoveVerdicts, AnIllegalMoveIsUnmistakable) {
  const ClipLog r = RunClip(R"(
duration_s: 2.0
units:
  B1: {keys: [{t: 0.3}, {t: 0.9, x_mm: 160}]}
)");
  const auto moves = r.Events("move");
  ASSERT_EQ(moves.size(), 1u);
  ASSERT_FALSE(moves[0]["legal"].get<bool>()) << moves[0].dump();
  DrawStyle style = DrawStyle::kInfo;
  const std::string card = CardOf(r.drawn.back(), "B1", &style);
  EXPECT_EQ(style, DrawStyle::kIllegal);
  EXPECT_EQ(card.rfind("B1 ILLEGAL MOVE: ", 0), 0u) << card;
  EXPECT_NE(r.shown.back().back().find(moves[0]["illegal_reason"].get<std::string>()), std::string::npos);
  int heavy_outlines = 0;
  for (const DrawPrimitive& p : r.drawn.back())
    heavy_outlines += p.unit_id == "B1" && p.style == DrawStyle::kIllegal && p.kind == DrawKind::kPolygon && p.filled;
  EXPECT_EQ(heavy_outlines, 1) << "its outline where it stopped, filled red";
}

// No ruleset: the moves are still reported, unjudged, with the reason.
TEST(MoveVerdicts, WithoutARulesetMovesAreReportedUnjudged) {
  const ClipLog run = RunClip(R"(
duration_s: 2.2
units:
  B1: {keys: [{t: 0.6}, {t: 1.1, y_mm: 180}]}
)", {}, "", "");
  const auto moves = run.Events("move");
  ASSERT_EQ(moves.size(), 1u);
  EXPECT_TRUE(moves[0]["classification"].is_null()) << moves[0].dump();
  EXPECT_TRUE(moves[0]["ruleset"].is_null()) << moves[0].dump();
  EXPECT_FALSE(moves[0].value("note", "").empty()) << moves[0].dump();
}

}  // namespace
}  // namespace vedette::pipeline
